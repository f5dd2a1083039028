//! Unfold's documents: templates, scenarios, tools, provider profiles and prices as the JSON
//! files users keep in git. Reading (size and depth limits first), validation against schemas
//! generated from these types, the checks a schema cannot express, canonical text and atomic
//! saves, and the error type of the crates that load and run documents: a `Problem` found here
//! keeps its place in the file all the way up to the user. No network, no database, no keychain.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod compiled_parameters;
pub mod discovery;
pub mod document;
pub mod error;
pub mod host_profile;
#[cfg(feature = "specta")]
pub mod json_type;
pub mod prices;
pub mod provider_profile;
pub mod refresh;
pub mod reload_problems;
pub mod runs;
pub mod save_target;
pub mod scenario;
mod scenario_warnings;
pub mod schema;
mod simple_parameters;
pub mod source;
pub mod substitution;
pub mod suite;
pub mod template;
pub mod tool;
mod unique_keys;

pub use error::{Error, Location, Problem, Problems, Result};
pub use scenario::Scenario;
pub use template::{Template, Visibility};
pub use tool::{OfferedTool, Tool};
