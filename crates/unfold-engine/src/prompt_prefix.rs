//! What each model call's prompt shares with the previous call's (spec 10's prompt cache), in the
//! order providers cache a prompt: the tool definitions, then the system prompt, then the
//! messages. A provider's cache can serve only a shared start, so where it breaks is what the
//! adapters change: an injection changes the tools (everything after them is new), a restart starts
//! the messages over. These are facts about the prompts; what a provider's cache would serve of them
//! (its minimum, its breakpoints) and what that saves is priced later, in `costs`.

use std::hash::{DefaultHasher, Hash, Hasher};

use serde::{Deserialize, Serialize};

/// Why a call shares less than the whole of the previous call's prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum PrefixBreak {
    /// The tool definitions changed (injected, removed, described anew): they come first.
    ToolsChanged,
    /// The system prompt changed.
    SystemChanged,
    /// The run restarted: the messages begin again.
    Restart,
}

/// A model call's prompt against the previous call's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PromptPrefix {
    /// Tokens of the tool definitions, which come first.
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub tools_tokens: u64,
    /// Tokens of the system prompt, which come next.
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub system_tokens: u64,
    /// Tokens at the start of the prompt identical to the previous call's (0 for the first call).
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub shared_tokens: u64,
    /// The previous call's prompt tokens (0 for the first call): what a cache written by it
    /// could hold at most.
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub previous_tokens: u64,
    /// Why less than the previous prompt is shared; none when all of it is (or for the first call).
    pub broke: Option<PrefixBreak>,
}

/// The pieces of one call's prompt, each with a fingerprint and its tokens.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PromptShape {
    /// The attempt the call belongs to.
    pub attempt: u32,
    /// The tool definitions.
    pub tools: Piece,
    /// The system prompt.
    pub system: Piece,
    /// Each message, in order.
    pub messages: Vec<Piece>,
}

/// A piece of a prompt: what it holds (as a fingerprint) and its tokens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Piece {
    /// Equal for equal text.
    pub fingerprint: u64,
    /// Its tokens.
    pub tokens: u64,
}

impl Piece {
    /// The piece of `text`, which counts `tokens`.
    pub fn of(text: &str, tokens: u64) -> Piece {
        let mut hasher = DefaultHasher::new();
        text.hash(&mut hasher);
        Piece { fingerprint: hasher.finish(), tokens }
    }
}

impl PromptShape {
    /// All its tokens.
    pub fn tokens(&self) -> u64 {
        self.tools.tokens + self.system.tokens + self.messages.iter().map(|m| m.tokens).sum::<u64>()
    }

    /// What this call's prompt shares with `previous`'s (none: the first call).
    pub fn against(&self, previous: Option<&PromptShape>) -> PromptPrefix {
        let mut prefix = PromptPrefix {
            tools_tokens: self.tools.tokens,
            system_tokens: self.system.tokens,
            shared_tokens: 0,
            previous_tokens: 0,
            broke: None,
        };
        let Some(previous) = previous else { return prefix };
        prefix.previous_tokens = previous.tokens();
        if self.tools != previous.tools {
            prefix.broke = Some(self.why_broken(previous, PrefixBreak::ToolsChanged));
            return prefix;
        }
        prefix.shared_tokens = self.tools.tokens;
        if self.system != previous.system {
            prefix.broke = Some(self.why_broken(previous, PrefixBreak::SystemChanged));
            return prefix;
        }
        prefix.shared_tokens += self.system.tokens;
        let same = self.messages.iter().zip(&previous.messages).take_while(|(now, before)| now == before).count();
        prefix.shared_tokens += self.messages[..same].iter().map(|m| m.tokens).sum::<u64>();
        if same < previous.messages.len() {
            prefix.broke = Some(PrefixBreak::Restart);
        }
        prefix
    }

    /// A break's cause: the restart between the two calls, when there was one (it is why the
    /// tools or the system prompt changed), else what changed.
    fn why_broken(&self, previous: &PromptShape, changed: PrefixBreak) -> PrefixBreak {
        if self.attempt != previous.attempt {
            PrefixBreak::Restart
        } else {
            changed
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(attempt: u32, tools: &str, system: &str, messages: &[&str]) -> PromptShape {
        PromptShape {
            attempt,
            tools: Piece::of(tools, 100),
            system: Piece::of(system, 1000),
            messages: messages.iter().map(|m| Piece::of(m, 10)).collect(),
        }
    }

    #[test]
    fn a_growing_conversation_shares_all_of_the_previous_prompt() {
        let first = shape(1, "t", "s", &["user"]);
        let second = shape(1, "t", "s", &["user", "call", "result"]);
        assert_eq!(first.against(None).shared_tokens, 0);
        let prefix = second.against(Some(&first));
        assert_eq!((prefix.shared_tokens, prefix.previous_tokens, prefix.broke), (1110, 1110, None));
    }

    #[test]
    fn new_tools_break_everything_a_new_system_prompt_keeps_the_tools_and_a_restart_says_so() {
        let before = shape(1, "t", "s", &["user", "call", "result"]);
        let injected = before.against(Some(&shape(1, "t", "s", &["user"])));
        assert_eq!(injected.broke, None);
        let injected = shape(1, "t+", "s", &["user", "call", "result", "x"]).against(Some(&before));
        assert_eq!((injected.shared_tokens, injected.broke), (0, Some(PrefixBreak::ToolsChanged)));
        let expanded = shape(2, "t", "s+", &["user"]).against(Some(&before));
        assert_eq!((expanded.shared_tokens, expanded.broke), (100, Some(PrefixBreak::Restart)));
        let same_prompt_again = shape(2, "t", "s", &["user"]).against(Some(&before));
        assert_eq!((same_prompt_again.shared_tokens, same_prompt_again.broke), (1110, Some(PrefixBreak::Restart)));
    }
}
