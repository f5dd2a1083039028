//! Prices files (`unfold.prices`, spec 10): what each model costs per million tokens (input,
//! output, cache reads and writes), with the date the prices were taken. Unfold ships defaults
//! (`data/default.prices.json`); a user's file overrides them model by model. A model no file
//! prices has no price: a run of it shows tokens only, never a made-up figure.

use std::path::Path;
use std::sync::OnceLock;

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{pointer_segment, Problem, Result};
use crate::schema::DocumentSchema;

/// The `kind` of a prices file.
pub const PRICES_KIND: &str = "unfold.prices";

/// The prices Unfold ships.
const SHIPPED: &str = include_str!("../data/default.prices.json");

/// What one model costs, in the file's currency per million tokens.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false, "patternProperties" = { "^x-": true }))]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ModelPrice {
    /// A prompt token.
    pub input: f64,
    /// A completion token.
    pub output: f64,
    /// A prompt token served from the provider's cache; `input` when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_read: Option<f64>,
    /// A prompt token written to the provider's cache (Anthropic charges for it); `input` when
    /// absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_write: Option<f64>,
    /// How the provider's prompt cache serves this model; when absent, Anthropic's breakpoints
    /// for a model with a cache-write price, OpenAI's automatic prefix for one with a cache-read
    /// price, else no cache.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache: Option<CacheRules>,
    /// When this model's prices were taken, when not the file's date.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub taken: Option<String>,
    /// Anything worth knowing about the price.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// How a provider's prompt cache serves a prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum CacheStyle {
    /// OpenAI's: the longest start a prompt shares with an earlier one, from the minimum on, in
    /// steps of 128 tokens; writing costs nothing extra.
    Prefix,
    /// Anthropic's: up to a cache breakpoint (Unfold sets them after the tools, after the system
    /// prompt and after the last message); writing is charged at the cache-write price.
    Breakpoints,
    /// No prompt cache.
    None,
}

/// A provider's prompt cache for one model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false))]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CacheRules {
    /// How it serves a prompt.
    pub style: CacheStyle,
    /// The fewest tokens it caches (1024 for most models; 2048 for Anthropic's Haiku models).
    #[serde(default = "default_min_tokens")]
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub min_tokens: u64,
}

fn default_min_tokens() -> u64 {
    1024
}

impl ModelPrice {
    /// Its prompt cache: as the file says, else as its prices suggest.
    pub fn cache_rules(&self) -> CacheRules {
        self.cache.unwrap_or(CacheRules {
            style: match (self.cache_write, self.cache_read) {
                (Some(_), _) => CacheStyle::Breakpoints,
                (None, Some(_)) => CacheStyle::Prefix,
                (None, None) => CacheStyle::None,
            },
            min_tokens: default_min_tokens(),
        })
    }

    /// The price of a prompt token read from the cache.
    pub fn cache_read(&self) -> f64 {
        self.cache_read.unwrap_or(self.input)
    }

    /// The price of a prompt token written to the cache.
    pub fn cache_write(&self) -> f64 {
        self.cache_write.unwrap_or(self.input)
    }
}

/// A prices file: `{"schema_version": 1, "kind": "unfold.prices", "taken", "models": {...}}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "Unfold prices")]
#[schemars(extend("additionalProperties" = false, "patternProperties" = { "^x-": true }))]
pub struct Prices {
    /// Always 1.
    #[schemars(extend("const" = 1))]
    pub schema_version: u32,
    /// Always `unfold.prices`.
    #[schemars(extend("const" = "unfold.prices"))]
    pub kind: String,
    /// The currency of every price; `USD` when absent.
    #[serde(default = "usd")]
    pub currency: String,
    /// When the prices were taken: `YYYY-MM-DD`.
    #[schemars(regex(pattern = r"^\d{4}-\d{2}-\d{2}$"))]
    pub taken: String,
    /// Where they were taken from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The model a scripted comparison is priced as when none is named (a user's file overrides
    /// the shipped one; it may name a model another file prices).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_model: Option<String>,
    /// By model name, as a provider profile's `model` names it.
    pub models: IndexMap<String, ModelPrice>,
}

fn usd() -> String {
    "USD".to_owned()
}

/// The price a model is charged at, and where it came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Pricing {
    /// The model asked for: `gpt-4o-mini-2024-07-18`.
    pub model: String,
    /// The name it is priced under: `gpt-4o-mini`.
    pub priced_as: String,
    /// The currency.
    pub currency: String,
    /// When the price was taken.
    pub taken: String,
    /// The price.
    pub price: ModelPrice,
}

impl Prices {
    /// The JSON Schema of prices files, as checked in at `schema/unfold.prices.schema.json`.
    pub fn schema() -> &'static DocumentSchema {
        static SCHEMA: OnceLock<DocumentSchema> = OnceLock::new();
        SCHEMA.get_or_init(|| DocumentSchema::checked_in(include_str!("../../../schema/unfold.prices.schema.json")))
    }

    /// The prices Unfold ships.
    pub fn shipped() -> &'static Prices {
        static SHIPPED_PRICES: OnceLock<Prices> = OnceLock::new();
        SHIPPED_PRICES
            .get_or_init(|| Prices::from_json(SHIPPED.as_bytes()).expect("the shipped prices are checked by a test"))
    }

    /// Reads and checks a prices file; every problem names the file and its place.
    pub fn load(path: &Path) -> Result<Prices> {
        let bytes = crate::document::read_document_bytes(path)?;
        Prices::from_json(&bytes).map_err(|e| e.in_file(path))
    }

    /// Parses and checks the text of a prices file.
    pub fn from_json(bytes: &[u8]) -> Result<Prices> {
        crate::document::parse_versioned(bytes, PRICES_KIND, Prices::schema(), Prices::problems)
    }

    fn problems(&self) -> Vec<Problem> {
        let mut problems = Vec::new();
        for (model, price) in &self.models {
            let place = format!("/models/{}", pointer_segment(model));
            let prices = [
                ("input", Some(price.input)),
                ("output", Some(price.output)),
                ("cache_read", price.cache_read),
                ("cache_write", price.cache_write),
            ];
            for (field, value) in prices {
                if value.is_some_and(|v| !v.is_finite() || v < 0.0) {
                    problems.push(Problem::at(format!("{place}/{field}"), "a price is a number of at least 0"));
                }
            }
            if price.taken.as_deref().is_some_and(|taken| !is_date(taken)) {
                problems.push(Problem::at(format!("{place}/taken"), "a date is written YYYY-MM-DD"));
            }
        }
        problems
    }

    /// These prices with `overrides`' models in place of theirs (and added); each keeps the date
    /// its own file gives it.
    pub fn overridden_by(&self, overrides: &Prices) -> Prices {
        let mut merged = self.clone();
        if let Some(model) = &overrides.default_model {
            merged.default_model = Some(model.clone());
        }
        for (model, price) in &overrides.models {
            let mut price = price.clone();
            price.taken.get_or_insert_with(|| overrides.taken.clone());
            merged.models.insert(model.clone(), price);
        }
        merged
    }

    /// The price of the default model; `None` when there is none or it is not priced.
    pub fn default_pricing(&self) -> Option<Pricing> {
        self.pricing(self.default_model.as_deref()?)
    }

    /// The price of `model`: its own, or that of the name it is a dated snapshot or a tagged
    /// build of (`gpt-4o-mini-2024-07-18`, `claude-sonnet-4-5-20250929`, `qwen3:8b`,
    /// `gpt-4o-latest`); none otherwise, rather than a guess.
    pub fn pricing(&self, model: &str) -> Option<Pricing> {
        let (priced_as, price) = self.models.get_key_value(model).or_else(|| {
            self.models
                .iter()
                .filter(|(name, _)| model.strip_prefix(name.as_str()).is_some_and(is_version_suffix))
                .max_by_key(|(name, _)| name.len())
        })?;
        Some(Pricing {
            model: model.to_owned(),
            priced_as: priced_as.clone(),
            currency: self.currency.clone(),
            taken: price.taken.clone().unwrap_or_else(|| self.taken.clone()),
            price: price.clone(),
        })
    }
}

/// `-2024-07-18`, `-20250929`, `-latest`, or an Ollama tag (`:8b`).
fn is_version_suffix(suffix: &str) -> bool {
    if let Some(tag) = suffix.strip_prefix(':') {
        return !tag.is_empty();
    }
    let Some(rest) = suffix.strip_prefix('-') else { return false };
    rest == "latest" || is_date(rest) || (rest.len() == 8 && rest.bytes().all(|b| b.is_ascii_digit()))
}

fn is_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 10
        && bytes.iter().enumerate().all(|(i, b)| if i == 4 || i == 7 { *b == b'-' } else { b.is_ascii_digit() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dated_snapshot_or_a_tag_takes_its_models_price_and_nothing_else_is_guessed() {
        let prices = Prices::shipped();
        let priced = |model: &str| prices.pricing(model).map(|p| p.priced_as);
        assert_eq!(priced("gpt-4o-mini").as_deref(), Some("gpt-4o-mini"));
        assert_eq!(priced("gpt-4o-mini-2024-07-18").as_deref(), Some("gpt-4o-mini"));
        assert_eq!(priced("claude-sonnet-4-5-20250929").as_deref(), Some("claude-sonnet-4-5"));
        assert_eq!(priced("qwen3:8b").as_deref(), Some("qwen3"));
        assert_eq!(priced("gpt-4o-audio-preview"), None, "another model, not a snapshot of gpt-4o");
        assert_eq!(priced("my-finetune"), None);
    }
}
