//! Provider profiles: which API, where, which model and with which settings a live run talks to,
//! and where its key comes from. A profile file (`*.providers.json`, versioned like every Unfold
//! file) never holds a key: only the name of the environment variable that does. A base URL may
//! hold credentials (`http://user:password@proxy`, sent as HTTP Basic): a profile is shown, in
//! messages and in its `Debug`, with them as `***`.

use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Location, Problem, Result};
use crate::schema::DocumentSchema;

/// The `kind` of a profile file.
pub const PROVIDERS_KIND: &str = "unfold.providers";

/// Which wire format a provider speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum ProviderKind {
    /// OpenAI Chat Completions (`POST {base_url}/chat/completions`): OpenAI, Ollama, vLLM,
    /// llama.cpp's server, LiteLLM's proxy, OpenRouter.
    Openai,
    /// Anthropic Messages (`POST {base_url}/messages`).
    Anthropic,
    /// OpenAI Responses (`POST {base_url}/responses`): OpenAI's newer API, the one with tool
    /// search for deferred tools.
    #[serde(rename = "openai-responses")]
    OpenaiResponses,
}

impl ProviderKind {
    /// The name used in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ProviderKind::Openai => "openai",
            ProviderKind::Anthropic => "anthropic",
            ProviderKind::OpenaiResponses => "openai-responses",
        }
    }
}

/// One provider a live run can use.
#[derive(Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(extend("additionalProperties" = false, "patternProperties" = { "^x-": true }))]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ProviderProfile {
    /// How the user names it (`--provider NAME`).
    #[schemars(length(min = 1))]
    pub name: String,
    /// The API it speaks.
    pub kind: ProviderKind,
    /// The API's root, up to and including its version: `https://api.openai.com/v1`,
    /// `http://127.0.0.1:11434/v1`, `https://api.anthropic.com/v1`.
    pub base_url: String,
    /// The model asked for.
    pub model: String,
    /// Sampling temperature; the API's default when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// The most tokens one answer may take (Anthropic requires one: 1024 when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u32>,
    /// Whether answers are streamed (server-sent events); true when absent.
    #[serde(default = "default_true")]
    pub stream: bool,
    /// How long connecting may take, in milliseconds (10 000 when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connect_timeout_ms: Option<u32>,
    /// How long the server may stay silent, in milliseconds, before the call fails as stalled
    /// (60 000 when absent). A stall detector, not a total deadline: a long answer that keeps
    /// streaming is never cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_timeout_ms: Option<u32>,
    /// The environment variable that holds the API key; no key is sent when absent (Ollama,
    /// llama.cpp's server).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_key_env: Option<String>,
    /// Whether the key is kept in the OS keychain (`unfold key set NAME`) instead.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub api_key_keychain: bool,
    /// Whether the harness behind this API takes new tools in the middle of a conversation; true
    /// when absent. `false` (one that configures its tools once) runs the restart adapter where
    /// the dynamic one is asked for, and says so in the run's events.
    #[serde(default = "default_true", skip_serializing_if = "is_true")]
    pub dynamic_tools: bool,
}

fn default_true() -> bool {
    true
}

impl std::fmt::Debug for ProviderProfile {
    /// Every field, the base URL as [`ProviderProfile::shown`] shows it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProviderProfile")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .field("base_url", &self.shown(&self.base_url))
            .field("model", &self.model)
            .field("temperature", &self.temperature)
            .field("max_tokens", &self.max_tokens)
            .field("stream", &self.stream)
            .field("connect_timeout_ms", &self.connect_timeout_ms)
            .field("read_timeout_ms", &self.read_timeout_ms)
            .field("api_key_env", &self.api_key_env)
            .field("api_key_keychain", &self.api_key_keychain)
            .field("dynamic_tools", &self.dynamic_tools)
            .finish()
    }
}

fn is_true(value: &bool) -> bool {
    *value
}

impl ProviderProfile {
    /// How long connecting may take.
    pub fn connect_timeout(&self) -> Duration {
        Duration::from_millis(self.connect_timeout_ms.unwrap_or(10_000).into())
    }

    /// How long the server may stay silent.
    pub fn read_timeout(&self) -> Duration {
        Duration::from_millis(self.read_timeout_ms.unwrap_or(60_000).into())
    }

    /// The endpoint a model call posts to.
    pub fn endpoint(&self) -> String {
        let base = self.base_url.trim_end_matches('/');
        match self.kind {
            ProviderKind::Openai => format!("{base}/chat/completions"),
            ProviderKind::Anthropic => format!("{base}/messages"),
            ProviderKind::OpenaiResponses => format!("{base}/responses"),
        }
    }

    /// The user information of the base URL (`user:password`), as written, when it has any: the
    /// credentials HTTP Basic sends, never shown.
    pub fn base_url_userinfo(&self) -> Option<&str> {
        let rest = self.base_url.split_once("://")?.1;
        let authority = &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())];
        authority.rsplit_once('@').map(|(userinfo, _)| userinfo)
    }

    /// `url` (the base URL or one under it) as messages show it: its user information, which may
    /// hold a password, is `***`.
    pub fn shown(&self, url: &str) -> String {
        match self.base_url_userinfo() {
            Some(userinfo) => url.replacen(&format!("{userinfo}@"), "***@", 1),
            None => url.to_owned(),
        }
    }

    /// Why a run cannot give this provider new tools mid-conversation, if it cannot.
    pub fn fixed_tools(&self) -> Option<String> {
        (!self.dynamic_tools).then(|| {
            format!("provider '{}' takes its tools once per conversation (\"dynamic_tools\": false)", self.name)
        })
    }

    /// What is wrong with the profile at `pointer`, if anything.
    fn problems(&self, pointer: &str) -> Vec<Problem> {
        let mut problems = Vec::new();
        if !(self.base_url.starts_with("http://") || self.base_url.starts_with("https://")) {
            problems.push(Problem::at(format!("{pointer}/base_url"), "must start with http:// or https://"));
        }
        if self.model.trim().is_empty() {
            problems.push(Problem::at(format!("{pointer}/model"), "a profile needs a model"));
        }
        if self.temperature.is_some_and(|t| !(0.0..=2.0).contains(&t)) {
            problems.push(Problem::at(format!("{pointer}/temperature"), "must be between 0 and 2"));
        }
        if self.max_tokens == Some(0) {
            problems.push(Problem::at(format!("{pointer}/max_tokens"), "must be at least 1"));
        }
        for (field, value) in
            [("connect_timeout_ms", self.connect_timeout_ms), ("read_timeout_ms", self.read_timeout_ms)]
        {
            if value == Some(0) {
                problems.push(Problem::at(format!("{pointer}/{field}"), "must be at least 1"));
            }
        }
        if self.api_key_keychain && self.api_key_env.is_some() {
            let message = "takes its key either from the keychain or from an environment variable, not both";
            problems.push(Problem::at(format!("{pointer}/api_key_keychain"), message));
        }
        if let Some(var) = &self.api_key_env {
            if var.is_empty() || var.contains('=') || var.contains('\0') {
                problems
                    .push(Problem::at(format!("{pointer}/api_key_env"), "must be the name of an environment variable"));
            }
        }
        problems
    }
}

/// A profile file: `{"schema_version": 1, "kind": "unfold.providers", "profiles": [...]}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "Unfold provider profiles")]
#[schemars(extend("additionalProperties" = false, "patternProperties" = { "^x-": true }))]
pub struct ProviderProfiles {
    /// Always 1.
    #[schemars(extend("const" = 1))]
    pub schema_version: u32,
    /// Always `unfold.providers`.
    #[schemars(extend("const" = "unfold.providers"))]
    pub kind: String,
    /// The profiles, names unique.
    pub profiles: Vec<ProviderProfile>,
}

impl ProviderProfiles {
    /// The JSON Schema of provider profile files, as checked in at `schema/unfold.providers.schema.json`.
    pub fn schema() -> &'static DocumentSchema {
        static SCHEMA: OnceLock<DocumentSchema> = OnceLock::new();
        SCHEMA.get_or_init(|| DocumentSchema::checked_in(include_str!("../../../schema/unfold.providers.schema.json")))
    }

    /// Reads and checks a profile file; every problem names the file and its place.
    pub fn load(path: &Path) -> Result<ProviderProfiles> {
        let bytes = crate::document::read_document_bytes(path)?;
        ProviderProfiles::from_json(&bytes).map_err(|e| e.in_file(path))
    }

    /// Parses and checks the text of a profile file.
    pub fn from_json(bytes: &[u8]) -> Result<ProviderProfiles> {
        if let Some(problem) = crate::document::parse_json(bytes).ok().as_ref().and_then(key_in_file) {
            return Err(Error::invalid(vec![problem]));
        }
        crate::document::parse_versioned(bytes, PROVIDERS_KIND, ProviderProfiles::schema(), ProviderProfiles::problems)
    }

    fn problems(&self) -> Vec<Problem> {
        let mut problems = Vec::new();
        for (i, profile) in self.profiles.iter().enumerate() {
            problems.extend(profile.problems(&format!("/profiles/{i}")));
            if self.profiles[..i].iter().any(|p| p.name == profile.name) {
                let message = format!("a profile named '{}' comes earlier", profile.name);
                problems.push(Problem::at(format!("/profiles/{i}/name"), message));
            }
        }
        problems
    }

    /// The profiles at `path`; none when the file does not exist yet.
    pub fn load_or_empty(path: &Path) -> Result<ProviderProfiles> {
        if !path.exists() {
            return Ok(ProviderProfiles::empty());
        }
        ProviderProfiles::load(path)
    }

    /// A file with no profile.
    pub fn empty() -> ProviderProfiles {
        ProviderProfiles { schema_version: 1, kind: PROVIDERS_KIND.to_owned(), profiles: Vec::new() }
    }

    /// Checks the profiles as loading them would, then writes them to `path` atomically (the
    /// folder is created if needed).
    pub fn save(&self, path: &Path) -> Result<()> {
        let text = crate::document::to_canonical_json(self);
        ProviderProfiles::from_json(text.as_bytes())?;
        crate::document::create_parent_folder(path)?;
        crate::document::write_atomically(path, &text)
    }

    /// The profile named `name`; when there is none, a problem at `/profiles` that names those
    /// there are.
    pub fn get(&self, name: &str) -> Result<&ProviderProfile> {
        self.profiles.iter().find(|p| p.name == name).ok_or_else(|| {
            let known: Vec<&str> = self.profiles.iter().map(|p| p.name.as_str()).collect();
            let known = if known.is_empty() { "none".to_owned() } else { known.join(", ") };
            let message = format!("no profile named '{name}' (profiles: {known})");
            Problem { location: Location::Pointer("/profiles".to_owned()), message }.into()
        })
    }
}

/// A key written into the file instead of named: refused before anything else, so the error
/// says what to do rather than "unknown field".
fn key_in_file(value: &serde_json::Value) -> Option<Problem> {
    let profiles = value.get("profiles")?.as_array()?;
    profiles.iter().enumerate().find_map(|(i, profile)| {
        let field = ["api_key", "key", "apiKey", "token"].into_iter().find(|f| profile.get(f).is_some())?;
        Some(Problem::at(
            format!("/profiles/{i}/{field}"),
            "a profile file never holds a key: name the environment variable that holds it in \"api_key_env\"",
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(base_url: &str) -> ProviderProfile {
        let file = format!(
            r#"{{"schema_version": 1, "kind": "unfold.providers", "profiles": [
                {{"name": "p", "kind": "openai", "base_url": "{base_url}", "model": "m"}}]}}"#
        );
        ProviderProfiles::from_json(file.as_bytes()).unwrap().profiles.remove(0)
    }

    #[test]
    fn the_credentials_of_a_base_url_are_found_and_never_shown() {
        let cases = [
            ("http://user:pw@proxy:8080/v1", Some("user:pw"), "http://***@proxy:8080/v1/chat/completions"),
            ("https://t0ken@host/v1", Some("t0ken"), "https://***@host/v1/chat/completions"),
            ("http://user:p@ss@host", Some("user:p@ss"), "http://***@host/chat/completions"),
            ("https://api.openai.com/v1", None, "https://api.openai.com/v1/chat/completions"),
            ("http://host/v1?to=a@b", None, "http://host/v1?to=a@b/chat/completions"),
        ];
        for (base_url, userinfo, shown) in cases {
            let profile = at(base_url);
            assert_eq!(profile.base_url_userinfo(), userinfo, "{base_url}");
            assert_eq!(profile.shown(&profile.endpoint()), shown, "{base_url}");
            let debug = format!("{profile:?}");
            assert!(userinfo.is_none_or(|u| !debug.contains(u)), "{debug}");
        }
    }
}
