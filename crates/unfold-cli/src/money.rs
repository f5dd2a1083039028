//! Money as the command line prints it: an amount in its currency (a dollar sign for USD, enough
//! decimals to tell a scripted run's cost from nothing) and the line saying how runs were priced.

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

/// An amount of money: a dollar sign for USD, enough decimals to tell a scripted run's cost from
/// nothing; with `sign`, a difference.
pub fn money(amount: f64, currency: &str, sign: bool) -> String {
    let decimals = if amount.abs() < 1.0 { 6 } else { 4 };
    let plus = if sign && amount > 0.0 { "+" } else { "" };
    match currency {
        "USD" if amount < 0.0 => format!("-${:.decimals$}", -amount),
        "USD" => format!("{plus}${amount:.decimals$}"),
        _ => format!("{plus}{amount:.decimals$} {currency}"),
    }
}
