//! Money as the command line prints it: an amount in its currency (the engine's
//! [`money_text`](unfold_engine::costs::money_text), which the verdict's sentences use too) and the
//! line saying how runs were priced.

pub use unfold_engine::costs::{money_text as money, priced_as_text as priced_as};
