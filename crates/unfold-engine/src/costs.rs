//! What a run cost (spec 10): each model call's prompt and completion tokens at one model's
//! price, and the run's sum; and the same with the provider's prompt cache, estimated from what
//! each call's prompt shares with the previous call's ([`PromptPrefix`]) under the provider's
//! rules (OpenAI's automatic prefix, Anthropic's breakpoints). Money is a view of the events, like
//! the counters: a run is priced after it ran, as the model that answered it (live) or as the one
//! the user names (`--price-as`), and a model with no price gives no cost at all.

use serde::{Deserialize, Serialize};
use unfold_documents::prices::{CacheRules, CacheStyle, ModelPrice, Pricing};

use crate::prompt_prefix::{PrefixBreak, PromptPrefix};
use crate::provider::MeasuredCache;

/// Tokens per million: prices are per million tokens.
const MILLION: f64 = 1_000_000.0;

/// OpenAI caches a shared prefix in steps of this many tokens past its minimum.
const PREFIX_STEP: u64 = 128;

/// The tokens of one model call, as its `model_call` event gives them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallTokens<'e> {
    /// The call's index (1-based, over the whole run).
    pub call_index: u32,
    /// Its attempt.
    pub attempt: u32,
    /// Its prompt tokens.
    pub prompt_tokens: u64,
    /// Its completion tokens.
    pub completion_tokens: u64,
    /// What its prompt shares with the previous call's, when the run recorded it.
    pub prefix: Option<&'e PromptPrefix>,
    /// What the provider's cache did, when a live provider said.
    pub measured: Option<&'e MeasuredCache>,
}

/// What one model call cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CallCost {
    /// The call's index (1-based, over the whole run).
    pub call_index: u32,
    /// Its attempt.
    pub attempt: u32,
    /// Its prompt tokens at the input price plus its completion tokens at the output price.
    pub cost: f64,
    /// The prompt tokens the provider's cache could serve (estimated).
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub cacheable_prompt_tokens: u64,
    /// The prompt tokens written to the cache, where writing is charged (Anthropic).
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub cache_write_tokens: u64,
    /// Why the prompt shares less than the previous call's, if it does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub broke: Option<PrefixBreak>,
    /// The cost with the cache: cached tokens at the cache-read price, written ones at the
    /// cache-write price.
    #[serde(default)]
    pub cost_with_cache: f64,
    /// The cost with the cache as the provider measured it (a live call that said).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measured_cost: Option<f64>,
}

/// How many times a run's prompt prefix broke, by why.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PrefixBreaks {
    /// The tools changed.
    pub tools_changed: u32,
    /// The system prompt changed.
    pub system_changed: u32,
    /// The run restarted.
    pub restart: u32,
}

/// What a provider's cache did over a run, as it measured it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct MeasuredRunCache {
    /// Prompt tokens read from the cache.
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub read_tokens: u64,
    /// Prompt tokens written to it.
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub write_tokens: u64,
    /// The run's cost with those figures (the calls the provider said nothing of at the plain
    /// price).
    pub cost: f64,
}

/// What a run cost at one model's price.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RunCost {
    /// The model it is priced as (the one that answered, or `--price-as`).
    pub model: String,
    /// The prices file's name for it (`gpt-4o-mini` for `gpt-4o-mini-2024-07-18`).
    pub priced_as: String,
    /// The prices' currency.
    pub currency: String,
    /// When the price was taken.
    pub taken: String,
    /// The prompt tokens' part.
    pub prompt: f64,
    /// The completion tokens' part.
    pub completion: f64,
    /// The whole run.
    pub total: f64,
    /// The prompt tokens the provider's cache could serve, over every call.
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub cacheable_prompt_tokens: u64,
    /// The prompt tokens written to the cache, where writing is charged.
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub cache_write_tokens: u64,
    /// The whole run with the cache.
    #[serde(default)]
    pub total_with_cache: f64,
    /// Where the prompt's shared start broke, counted by why.
    #[serde(default)]
    pub prefix_breaks: PrefixBreaks,
    /// What the provider's cache did over the run, as it measured it (live runs whose provider
    /// said), beside the estimate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measured: Option<MeasuredRunCache>,
    /// Each model call, in order.
    pub calls: Vec<CallCost>,
}

impl RunCost {
    /// The cost of a run's model calls at `pricing`.
    pub fn of<'e>(model_calls: impl IntoIterator<Item = CallTokens<'e>>, pricing: &Pricing) -> RunCost {
        let price = &pricing.price;
        let rules = price.cache_rules();
        let mut run = RunCost {
            model: pricing.model.clone(),
            priced_as: pricing.priced_as.clone(),
            currency: pricing.currency.clone(),
            taken: pricing.taken.clone(),
            prompt: 0.0,
            completion: 0.0,
            total: 0.0,
            cacheable_prompt_tokens: 0,
            cache_write_tokens: 0,
            total_with_cache: 0.0,
            prefix_breaks: PrefixBreaks::default(),
            measured: None,
            calls: Vec::new(),
        };
        for call in model_calls {
            // Every prompt token, whether the provider counted its cache's among them or not.
            let prompt_tokens = call.measured.map_or(call.prompt_tokens, |m| m.whole_prompt(call.prompt_tokens));
            let input = prompt_tokens as f64 * price.input / MILLION;
            let output = call.completion_tokens as f64 * price.output / MILLION;
            let (read, written) = call.prefix.map_or((0, 0), |prefix| cached(prefix, prompt_tokens, rules));
            let cost_with_cache = with_cache(price, prompt_tokens, read, written) + output;
            let measured_cost =
                call.measured.map(|m| with_cache(price, prompt_tokens, m.read_tokens, m.write_tokens) + output);
            if let Some(measured) = call.measured {
                let run_measured = run.measured.get_or_insert_with(MeasuredRunCache::default);
                run_measured.read_tokens += measured.read_tokens;
                run_measured.write_tokens += measured.write_tokens;
            }
            let broke = call.prefix.and_then(|prefix| prefix.broke);
            match broke {
                Some(PrefixBreak::ToolsChanged) => run.prefix_breaks.tools_changed += 1,
                Some(PrefixBreak::SystemChanged) => run.prefix_breaks.system_changed += 1,
                Some(PrefixBreak::Restart) => run.prefix_breaks.restart += 1,
                None => {}
            }
            run.prompt += input;
            run.completion += output;
            run.cacheable_prompt_tokens += read;
            run.cache_write_tokens += written;
            run.total_with_cache += cost_with_cache;
            run.calls.push(CallCost {
                call_index: call.call_index,
                attempt: call.attempt,
                cost: input + output,
                cacheable_prompt_tokens: read,
                cache_write_tokens: written,
                broke,
                cost_with_cache,
                measured_cost,
            });
        }
        run.total = run.prompt + run.completion;
        if let Some(measured) = &mut run.measured {
            measured.cost = run.calls.iter().map(|call| call.measured_cost.unwrap_or(call.cost)).sum();
        }
        run
    }
}

/// The tokens of a prompt of `prompt_tokens` the cache serves, and those it writes (charged),
/// given what the prompt shares with the previous one.
fn cached(prefix: &PromptPrefix, prompt_tokens: u64, rules: CacheRules) -> (u64, u64) {
    let min = rules.min_tokens;
    match rules.style {
        CacheStyle::None => (0, 0),
        CacheStyle::Prefix => {
            let shared = prefix.shared_tokens.min(prompt_tokens);
            let read = if shared < min { 0 } else { min + (shared - min) / PREFIX_STEP * PREFIX_STEP };
            (read, 0)
        }
        CacheStyle::Breakpoints => {
            // The previous call wrote the cache at its breakpoints: after the tools, after the
            // system prompt, and at its end; a breakpoint inside the shared start can be read.
            let breakpoints = [prefix.tools_tokens, prefix.tools_tokens + prefix.system_tokens, prefix.previous_tokens];
            let read = breakpoints
                .into_iter()
                .filter(|&at| at >= min && at <= prefix.shared_tokens && at <= prompt_tokens)
                .max()
                .unwrap_or(0);
            // This call writes up to its own last breakpoint, its end.
            let written = if prompt_tokens >= min { prompt_tokens - read } else { 0 };
            (read, written)
        }
    }
}

/// The prompt's part of a call's cost with `read` tokens served by the cache and `written` ones
/// written to it.
fn with_cache(price: &ModelPrice, prompt_tokens: u64, read: u64, written: u64) -> f64 {
    let plain = prompt_tokens.saturating_sub(read + written);
    (plain as f64 * price.input + read as f64 * price.cache_read() + written as f64 * price.cache_write()) / MILLION
}

/// An amount of money as Unfold writes it: a dollar sign for USD, enough decimals to tell a
/// scripted run's cost from nothing (six below one, four above); with `sign`, a difference.
pub fn money_text(amount: f64, currency: &str, sign: bool) -> String {
    let decimals = if amount.abs() < 1.0 { 6 } else { 4 };
    let plus = if sign && amount > 0.0 { "+" } else { "" };
    match currency {
        "USD" if amount < 0.0 => format!("-${:.decimals$}", -amount),
        "USD" => format!("{plus}${amount:.decimals$}"),
        _ => format!("{plus}{amount:.decimals$} {currency}"),
    }
}

/// How a run was priced: "priced as gpt-4o-mini: USD per million tokens, taken 2025-10-01".
pub fn priced_as_text(cost: &RunCost) -> String {
    let name = if cost.model == cost.priced_as {
        cost.model.clone()
    } else {
        format!("{} (as {})", cost.model, cost.priced_as)
    };
    format!("priced as {name}: {} per million tokens, taken {}", cost.currency, cost.taken)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prefix(shared: u64, previous: u64, broke: Option<PrefixBreak>) -> PromptPrefix {
        PromptPrefix { tools_tokens: 500, system_tokens: 1500, shared_tokens: shared, previous_tokens: previous, broke }
    }

    const OPENAI: CacheRules = CacheRules { style: CacheStyle::Prefix, min_tokens: 1024 };
    const ANTHROPIC: CacheRules = CacheRules { style: CacheStyle::Breakpoints, min_tokens: 1024 };

    #[test]
    fn openai_serves_the_shared_start_from_1024_tokens_in_steps_of_128() {
        assert_eq!(cached(&prefix(0, 0, None), 2100, OPENAI), (0, 0));
        assert_eq!(cached(&prefix(1000, 1000, None), 2100, OPENAI), (0, 0), "under the minimum");
        assert_eq!(cached(&prefix(2100, 2100, None), 2300, OPENAI), (2048, 0), "1024 + 8 × 128");
    }

    #[test]
    fn anthropic_reads_up_to_the_last_breakpoint_inside_the_shared_start_and_writes_the_rest() {
        // The first call writes all of its prompt.
        assert_eq!(cached(&prefix(0, 0, None), 2100, ANTHROPIC), (0, 2100));
        // The conversation grew: the previous call's end is the breakpoint read.
        assert_eq!(cached(&prefix(2100, 2100, None), 2300, ANTHROPIC), (2100, 200));
        // A restart kept the tools and the system prompt: read up to the system prompt's end.
        assert_eq!(cached(&prefix(2010, 2300, Some(PrefixBreak::Restart)), 2010, ANTHROPIC), (2000, 10));
        // New tools: nothing is shared, all is written again.
        assert_eq!(cached(&prefix(0, 2300, Some(PrefixBreak::ToolsChanged)), 2400, ANTHROPIC), (0, 2400));
        // A prompt under the minimum is neither read nor written.
        assert_eq!(cached(&prefix(0, 0, None), 900, ANTHROPIC), (0, 0));
    }

    #[test]
    fn a_providers_measured_cache_is_priced_beside_the_estimate_and_counted_whole() {
        let price = ModelPrice {
            input: 3.0,
            output: 15.0,
            cache_read: Some(0.3),
            cache_write: Some(3.75),
            cache: None,
            taken: None,
            note: None,
        };
        let pricing = Pricing {
            model: "claude-sonnet-4-5".into(),
            priced_as: "claude-sonnet-4-5".into(),
            currency: "USD".into(),
            taken: "2025-10-01".into(),
            price,
        };
        // Anthropic said: 40 input tokens, 1,200 read from the cache and 300 written, apart.
        let measured = MeasuredCache { read_tokens: 1200, write_tokens: 300, in_prompt_tokens: false };
        let call = CallTokens {
            call_index: 1,
            attempt: 1,
            prompt_tokens: 40,
            completion_tokens: 10,
            prefix: None,
            measured: Some(&measured),
        };
        let cost = RunCost::of([call], &pricing);
        // Without the cache: all 1,540 prompt tokens at $3, 10 completion tokens at $15.
        assert!((cost.total - (1540.0 * 3.0 + 10.0 * 15.0) / 1e6).abs() < 1e-12, "{cost:?}");
        let expected = (40.0 * 3.0 + 1200.0 * 0.3 + 300.0 * 3.75 + 10.0 * 15.0) / 1e6;
        assert!((cost.calls[0].measured_cost.unwrap() - expected).abs() < 1e-12);
        let run = cost.measured.unwrap();
        assert_eq!((run.read_tokens, run.write_tokens), (1200, 300));
        assert!((run.cost - expected).abs() < 1e-12);
    }
}
