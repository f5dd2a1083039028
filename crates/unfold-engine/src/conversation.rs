//! One attempt's conversation as a run keeps it: the system prompt, the messages, the tools sent
//! and which of them the model may call, with the token count of each part so a model call costs
//! the tokenizer only what is new. How hidden tools are sent (spec 10) lives here: withheld
//! (dynamic, restart), listed outside the callable subset (`allowed_tools`), or deferred until a
//! tool result loads them by reference (`deferred`), or deferred until a system message adds them
//! (`tool_addition`). The conversation keeps the template's tool names and sends the lane's
//! ([`SentNames`]).

use crate::adapter::HiddenTools;
use crate::lane::DeferredListing;
use crate::prompt_prefix::{Piece, PromptShape};
use crate::provider::{Message, ModelRequest, ToolGate};
use crate::render::{RenderedPrompt, SummarizedSection};
use crate::sent_names::SentNames;
use crate::tokens;
use unfold_documents::tool::{Builtin, OfferedTool};

pub(crate) struct Conversation {
    system: String,
    summarized: Vec<SummarizedSection>,
    messages: Vec<Message>,
    message_tokens: u64,
    /// The tools sent, in order.
    tools: Vec<OfferedTool>,
    hidden: HiddenTools,
    /// The names of `tools` the model may call now.
    callable: Vec<String>,
    /// The names of `tools` sent deferred this attempt (the deferred and `tool_addition`
    /// adapters): loaded ones stay deferred in the list, so the list, the start of the prompt,
    /// stays the same.
    deferred: Vec<String>,
    /// The tools added and removed since the last call, which a system message tells the model
    /// before the next one (the `tool_addition` adapter).
    announcing: Announcement,
    /// Tokens of the callable subset as a request names it (`allowed_tools`).
    choice_tokens: u64,
    /// What of a deferred tool counts before it is loaded.
    deferred_listing: DeferredListing,
    /// The names the tools are sent under.
    names: SentNames,
    /// What a request sends under other names than the template's, when it does: the tools, the
    /// callable subset and the deferred ones.
    renamed: Option<Renamed>,
    /// The prompt's pieces as a cache sees them: tools, system, each message.
    pub(crate) shape: PromptShape,
}

impl Conversation {
    /// The first request of an attempt: `prompt` and the user's message. `every_tool` is every
    /// tool the template can offer (its sections all FULL), which an adapter that sends hidden
    /// tools sends from the start.
    pub(crate) fn new(
        prompt: RenderedPrompt,
        user: &str,
        attempt: u32,
        hidden: HiddenTools,
        every_tool: Vec<OfferedTool>,
    ) -> Conversation {
        let system = Piece::of(&prompt.markdown, tokens::count_text(&prompt.markdown));
        let callable: Vec<String> = prompt.tools.iter().map(|t| t.name.clone()).collect();
        let sent = match hidden {
            HiddenTools::Withheld => prompt.tools,
            HiddenTools::Disallowed | HiddenTools::Deferred | HiddenTools::Announced => {
                sent_from_start(every_tool, prompt.tools)
            }
        };
        let deferred = match hidden {
            HiddenTools::Deferred | HiddenTools::Announced => {
                sent.iter().filter(|t| !callable.contains(&t.name)).map(|t| t.name.clone()).collect()
            }
            _ => Vec::new(),
        };
        let mut conversation = Conversation {
            system: prompt.markdown,
            summarized: prompt.summarized,
            messages: Vec::new(),
            message_tokens: 0,
            tools: Vec::new(),
            hidden,
            callable: Vec::new(),
            deferred,
            announcing: Announcement::default(),
            choice_tokens: 0,
            deferred_listing: DeferredListing::default(),
            names: SentNames::default(),
            renamed: None,
            shape: PromptShape { attempt, system, ..PromptShape::default() },
        };
        conversation.set_tools(sent);
        conversation.callable = callable;
        conversation.count_choice();
        conversation.push(Message::User { content: user.to_owned() });
        conversation
    }

    pub(crate) fn tools(&self) -> &[OfferedTool] {
        &self.tools
    }

    /// The names the model may call now, as they are sent.
    pub(crate) fn sent_callable(&self) -> &[String] {
        self.renamed.as_ref().map_or(&self.callable, |renamed| &renamed.callable)
    }

    /// Sends the tools under `names` from the next [`Self::set_tools`] on.
    pub(crate) fn name_tools(&mut self, names: SentNames) {
        self.names = names;
    }

    /// Counts deferred tools as `listing` says from the next [`Self::set_tools`] on.
    pub(crate) fn list_deferred(&mut self, listing: DeferredListing) {
        self.deferred_listing = listing;
    }

    /// The template's name of the tool the model called `sent`.
    pub(crate) fn template_name<'n>(&'n self, sent: &'n str) -> &'n str {
        self.names.template(sent)
    }

    /// The name the tool `name` (the template's) is sent under.
    pub(crate) fn sent_name<'n>(&'n self, name: &'n str) -> &'n str {
        self.names.sent(name)
    }

    /// The names `names` (the template's) are sent under.
    pub(crate) fn sent_names(&self, names: &[String]) -> Vec<String> {
        self.names.all(names)
    }

    /// Whether the tool `name` is sent, callable or not.
    pub(crate) fn sends(&self, name: &str) -> bool {
        self.tools.iter().any(|t| t.name == name)
    }

    /// Whether the model may call `name` now.
    pub(crate) fn may_call(&self, name: &str) -> bool {
        self.callable.iter().any(|n| n == name)
    }

    pub(crate) fn push(&mut self, message: Message) {
        let tokens = tokens::count_message(&message);
        self.push_counted(message, tokens);
    }

    /// [`Self::push`] of a message of `tokens` the caller has counted already: a model's answer,
    /// counted for its completion tokens, is not counted again (it may be megabytes).
    pub(crate) fn push_counted(&mut self, message: Message, tokens: u64) {
        self.message_tokens += tokens;
        self.shape.messages.push(Piece::of(&serde_json::to_string(&message).unwrap_or_default(), tokens));
        self.messages.push(message);
    }

    /// Sends `tools` from the next call on. A tool newly sent is callable, a tool no longer sent
    /// is not; the others keep what they were.
    pub(crate) fn set_tools(&mut self, tools: Vec<OfferedTool>) {
        let old: Vec<&str> = self.tools.iter().map(|t| t.name.as_str()).collect();
        let mut callable: Vec<String> = tools
            .iter()
            .filter(|t| !old.contains(&t.name.as_str()) || self.callable.contains(&t.name))
            .map(|t| t.name.clone())
            .collect();
        callable.dedup();
        self.callable = callable;
        let listed: Vec<serde_json::Value> = tools
            .iter()
            .filter_map(|tool| {
                let sent = self.names.tool(tool);
                match (self.deferred.contains(&tool.name), self.deferred_listing) {
                    (false, _) => serde_json::to_value(&sent).ok(),
                    (true, DeferredListing::Unlisted) => None,
                    (true, DeferredListing::Briefly) => {
                        Some(serde_json::json!({ "name": sent.name, "description": sent.description }))
                    }
                }
            })
            .collect();
        let text = serde_json::to_string(&listed).unwrap_or_default();
        self.shape.tools = Piece::of(&text, tokens::count_tools_text(&text));
        self.tools = tools;
        self.count_choice();
    }

    /// Makes the sent tools of `names` callable (they were hidden); returns those that were not
    /// callable already. Under the deferred adapter the last message, the result that revealed
    /// them, loads them with references, and their definitions count from the next call on.
    pub(crate) fn open(&mut self, names: &[String]) -> Vec<String> {
        let opened: Vec<String> =
            names.iter().filter(|name| self.sends(name) && !self.may_call(name)).cloned().collect();
        if opened.is_empty() {
            return opened;
        }
        // In the order the tools are sent, as a rendered list has them.
        self.callable = self
            .tools
            .iter()
            .filter(|t| self.callable.contains(&t.name) || opened.contains(&t.name))
            .map(|t| t.name.clone())
            .collect();
        match self.hidden {
            HiddenTools::Deferred => self.reference_in_last_result(&opened),
            HiddenTools::Announced => self.announcing.change(&opened, Change::Add),
            HiddenTools::Withheld | HiddenTools::Disallowed => {}
        }
        self.count_choice();
        opened
    }

    /// Whether tools leave this conversation by a system message rather than the tool list.
    pub(crate) fn announces(&self) -> bool {
        self.hidden == HiddenTools::Announced
    }

    /// Makes the callable tools of `names` not callable, left in the list, for the next system
    /// message to remove (`tool_addition`); returns those it took away.
    pub(crate) fn close(&mut self, names: &[String]) -> Vec<String> {
        let closed: Vec<String> = names.iter().filter(|name| self.may_call(name)).cloned().collect();
        self.callable.retain(|name| !closed.contains(name));
        self.announcing.change(&closed, Change::Remove);
        self.count_choice();
        closed
    }

    /// Tells the model the tools added and removed since the last call, in a system message at
    /// the end of the conversation; an added tool's definition counts from there on, where the
    /// API shows it. Nothing when nothing changed.
    pub(crate) fn announce(&mut self) {
        let Announcement { added, removed } = std::mem::take(&mut self.announcing);
        if added.is_empty() && removed.is_empty() {
            return;
        }
        let shown: Vec<OfferedTool> =
            self.tools.iter().filter(|t| added.contains(&t.name)).map(|t| self.names.tool(t).into_owned()).collect();
        let message = Message::System { added: self.names.all(&added), removed: self.names.all(&removed) };
        let tokens = tokens::count_message(&message) + tokens::count_tools(&shown);
        self.push_counted(message, tokens);
    }

    fn reference_in_last_result(&mut self, names: &[String]) {
        let loaded: Vec<OfferedTool> = self.tools.iter().filter(|t| names.contains(&t.name)).cloned().collect();
        let Some(Message::Tool { call_id, name, content, references }) = self.messages.pop() else {
            return;
        };
        let piece = self.shape.messages.pop().unwrap_or_default();
        self.message_tokens -= piece.tokens;
        let mut references = references;
        references.extend(self.names.all(names));
        let message = Message::Tool { call_id, name, content, references };
        let tokens = tokens::count_message(&message) + tokens::count_tools(&loaded);
        self.message_tokens += tokens;
        self.shape.messages.push(Piece::of(&serde_json::to_string(&message).unwrap_or_default(), tokens));
        self.messages.push(message);
    }

    /// Counts the callable subset as a request names it, and keeps what is sent under other names.
    fn count_choice(&mut self) {
        self.renamed = (!self.names.is_plain()).then(|| Renamed {
            tools: self.tools.iter().map(|t| self.names.tool(t).into_owned()).collect(),
            callable: self.names.all(&self.callable),
            deferred: self.names.all(&self.deferred),
        });
        self.choice_tokens = match self.hidden {
            HiddenTools::Disallowed => {
                tokens::count_text(&serde_json::to_string(self.sent_callable()).unwrap_or_default())
            }
            _ => 0,
        };
    }

    pub(crate) fn request(&self) -> ModelRequest<'_> {
        let (tools, callable, deferred) = match &self.renamed {
            Some(renamed) => (&renamed.tools, &renamed.callable, &renamed.deferred),
            None => (&self.tools, &self.callable, &self.deferred),
        };
        ModelRequest {
            system: &self.system,
            messages: &self.messages,
            tools,
            summarized: &self.summarized,
            gate: match self.hidden {
                HiddenTools::Withheld => ToolGate::Open,
                HiddenTools::Disallowed => ToolGate::Allowed(callable),
                HiddenTools::Deferred => ToolGate::Deferred(deferred),
                HiddenTools::Announced => ToolGate::Announced(deferred),
            },
        }
    }

    /// The tokens a call of this conversation sends: the tools listed (deferred ones are not in
    /// the model's context until loaded), the system prompt, the messages and the callable subset.
    pub(crate) fn prompt_tokens(&self) -> u64 {
        self.shape.system.tokens + self.message_tokens + self.shape.tools.tokens + self.choice_tokens
    }
}

/// Tools a system message is still to add or remove (template names).
#[derive(Default)]
struct Announcement {
    added: Vec<String>,
    removed: Vec<String>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Change {
    Add,
    Remove,
}

impl Announcement {
    /// Adds or removes `names` at the next message. A name still to be changed the other way
    /// cancels out: the model was never told of it, so it hears nothing.
    fn change(&mut self, names: &[String], change: Change) {
        let (this_way, other_way) = match change {
            Change::Add => (&mut self.added, &mut self.removed),
            Change::Remove => (&mut self.removed, &mut self.added),
        };
        for name in names {
            match other_way.iter().position(|pending| pending == name) {
                Some(at) => {
                    other_way.remove(at);
                }
                None => this_way.push(name.clone()),
            }
        }
    }
}

/// The tools of a conversation as they are sent, under the lane's names.
struct Renamed {
    tools: Vec<OfferedTool>,
    callable: Vec<String>,
    deferred: Vec<String>,
}

/// What an adapter that sends hidden tools sends from an attempt's start: every tool the template
/// can offer, then what the prompt offers beyond them (the builtins it needs), builtins last.
fn sent_from_start(every_tool: Vec<OfferedTool>, offered: Vec<OfferedTool>) -> Vec<OfferedTool> {
    let mut sent: Vec<OfferedTool> = every_tool.into_iter().filter(|t| Builtin::from_name(&t.name).is_none()).collect();
    let extra: Vec<OfferedTool> = offered.into_iter().filter(|t| !sent.iter().any(|s| s.name == t.name)).collect();
    let (builtins, others): (Vec<OfferedTool>, Vec<OfferedTool>) =
        extra.into_iter().partition(|t| Builtin::from_name(&t.name).is_some());
    sent.extend(others);
    sent.extend(builtins);
    sent
}
