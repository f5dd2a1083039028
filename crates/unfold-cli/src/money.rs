//! Money as the command line prints it: an amount in its currency (the engine's
//! [`money_text`](unfold_engine::costs::money_text), which the verdict's sentences use too) and the
//! line saying how runs were priced.

use unfold_engine::costs::RunCost;

/// How the runs were priced: "priced as gpt-4o-mini: USD per million tokens, taken 2025-10-01".
pub fn priced_as(cost: &RunCost) -> String {
    let name = if cost.model == cost.priced_as {
        cost.model.clone()
    } else {
        format!("{} (as {})", cost.model, cost.priced_as)
    };
    format!("priced as {name}: {} per million tokens, taken {}", cost.currency, cost.taken)
}

pub use unfold_engine::costs::money_text as money;
