//! What a run cost (spec 10): each model call's prompt and completion tokens at one model's
//! price, and the run's sum. Money is a view of the events, like the counters: a run is priced
//! after it ran, as the model that answered it (live) or as the one the user names
//! (`--price-as`), and a model with no price gives no cost at all.

use serde::{Deserialize, Serialize};
use unfold_documents::prices::Pricing;

/// Tokens per million: prices are per million tokens.
const MILLION: f64 = 1_000_000.0;

/// The tokens of one model call, as its `model_call` event gives them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallTokens {
    /// The call's index (1-based, over the whole run).
    pub call_index: u32,
    /// Its attempt.
    pub attempt: u32,
    /// Its prompt tokens.
    pub prompt_tokens: u64,
    /// Its completion tokens.
    pub completion_tokens: u64,
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
    /// Each model call, in order.
    pub calls: Vec<CallCost>,
}

impl RunCost {
    /// The cost of a run's model calls at `pricing`.
    pub fn of(model_calls: impl IntoIterator<Item = CallTokens>, pricing: &Pricing) -> RunCost {
        let price = &pricing.price;
        let (mut prompt, mut completion, mut calls) = (0.0, 0.0, Vec::new());
        for call in model_calls {
            let input = call.prompt_tokens as f64 * price.input / MILLION;
            let output = call.completion_tokens as f64 * price.output / MILLION;
            prompt += input;
            completion += output;
            calls.push(CallCost { call_index: call.call_index, attempt: call.attempt, cost: input + output });
        }
        RunCost {
            model: pricing.model.clone(),
            priced_as: pricing.priced_as.clone(),
            currency: pricing.currency.clone(),
            taken: pricing.taken.clone(),
            prompt,
            completion,
            total: prompt + completion,
            calls,
        }
    }
}
