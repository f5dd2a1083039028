//! The one request a comparison is made from: which documents, which lanes, which model, what the
//! lanes may reach of the template's tool sources, the relay session they are attached to, and
//! what is written of it. The UI sends it as it is; the CLI builds it from its flags.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use unfold_engine::request_shapes::RequestShape;
use unfold_relay::attached::RelaySession;

use crate::error::{AppError, AppResult, ErrorCode};

/// One comparison, as the UI sends it and `unfold compare` builds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ComparisonRequest {
    /// The template.
    pub template: DocumentRef,
    /// The scenario.
    pub scenario: DocumentRef,
    /// The lanes that run, in order (at least one simulated; one named twice runs once): an
    /// adapter's name (`dynamic`, `restart`, `allowed_tools`, `deferred`), a host profile's
    /// (`host:claude-code`, or `host:` and a `.host.json` file's path), or a real agent host's
    /// (`real:openai-agents`, spec 13), which runs after the simulated lanes; each lane after the
    /// first is set against the first.
    pub lanes: Vec<String>,
    /// Which model answers the lanes.
    pub model: ComparisonModel,
    /// What the lanes may reach of the template's tool sources.
    #[serde(default)]
    pub sources: SourceUse,
    /// The relay session the lanes are attached to, if any.
    #[serde(default)]
    pub relay_session: Option<RelayAttachment>,
    /// What is written of the comparison besides its answer.
    #[serde(default)]
    pub outputs: ComparisonOutputs,
    /// The caller's name for the comparison, to cancel it while it runs and to ask for its calls
    /// and exports afterwards (the app's); none: it can be neither.
    #[serde(default)]
    pub run_id: Option<u32>,
}

/// A document a comparison runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum DocumentRef {
    /// One open in the app, by its id, as it is now (saved or not).
    Open(u32),
    /// A file, read as it is on disk.
    File(PathBuf),
}

/// The model of a comparison's lanes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum ComparisonModel {
    /// The scenario's script in every lane, then the all-FULL baseline.
    Scripted {
        /// The model every lane is priced as; `None`: the prices' default model.
        price_as: Option<String>,
    },
    /// A real model, a new provider of the profile for each lane; no baseline (it would be
    /// paid for). Priced as its model when a prices file has it.
    Live {
        /// The provider profile's name, as the profile file says it now.
        profile: String,
    },
}

/// What the lanes may reach of the template's tool sources. Whatever they may not reach gives
/// its snapshot.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum SourceUse {
    /// Nothing is started.
    #[default]
    Snapshots,
    /// The MCP servers the user allowed in the app, each bound to its exact definition.
    Allowed,
    /// Every MCP server, allowed at once for this comparison (`--allow-sources`); a URL on
    /// another machine only for the sources named in `remote`.
    Every {
        /// The sources that may reach another machine, by name.
        remote: Vec<String>,
    },
}

/// A relay session the lanes take their relay sources' tools from.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RelayAttachment {
    /// The session's code.
    pub code: String,
    /// Where the relay listens (`http://127.0.0.1:7391`); none: the app's own relay.
    #[serde(default)]
    pub relay: Option<String>,
    /// The session's token, for a relay elsewhere (the app knows its own sessions'). Never
    /// serialized, never in a log.
    #[serde(skip)]
    #[cfg_attr(feature = "specta", specta(skip))]
    pub token: Option<String>,
}

impl RelayAttachment {
    /// The session `code` of the relay listening at `relay`, with its token.
    pub fn elsewhere(relay: String, code: String, token: String) -> RelayAttachment {
        RelayAttachment { code, relay: Some(relay), token: Some(token) }
    }

    /// The session at the relay it names, with its token; none for a session of the app's own
    /// relay (which knows its sessions' tokens).
    pub fn session_elsewhere(&self) -> AppResult<Option<RelaySession>> {
        let Some(relay) = &self.relay else { return Ok(None) };
        let code = &self.code;
        let token = self.token.clone().ok_or_else(|| {
            AppError::new(ErrorCode::InvalidRequest, format!("relay session '{code}' needs its token"))
        })?;
        let call_timeout = std::time::Duration::from_secs(30);
        Ok(Some(RelaySession { relay: relay.clone(), code: code.clone(), token, call_timeout }))
    }
}

impl std::fmt::Debug for RelayAttachment {
    // The token never reaches a log.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RelayAttachment").field("code", &self.code).field("relay", &self.relay).finish_non_exhaustive()
    }
}

/// What is written of a comparison besides its answer; each path is checked before any lane
/// runs, and nothing holding a live model's secrets is written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ComparisonOutputs {
    /// Every model call's request body, into a new or empty folder.
    #[serde(default)]
    pub requests: Option<RequestFiles>,
    /// The lanes as an OpenTelemetry trace, in this file.
    #[serde(default)]
    pub trace: Option<PathBuf>,
    /// Whether the run history keeps every lane.
    #[serde(default = "kept")]
    pub history: bool,
}

fn kept() -> bool {
    true
}

impl Default for ComparisonOutputs {
    /// Kept in the history, nothing written.
    fn default() -> ComparisonOutputs {
        ComparisonOutputs { requests: None, trace: None, history: true }
    }
}

/// Request bodies written as files.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RequestFiles {
    /// The new or empty folder.
    pub folder: PathBuf,
    /// The API shape of the bodies.
    pub shape: RequestShape,
}

impl ComparisonRequest {
    /// A scripted comparison of `template` and `scenario` under `lanes`, with nothing reached,
    /// nothing written but the history, and no run id.
    pub fn scripted(template: DocumentRef, scenario: DocumentRef, lanes: Vec<String>) -> ComparisonRequest {
        ComparisonRequest {
            template,
            scenario,
            lanes,
            model: ComparisonModel::Scripted { price_as: None },
            sources: SourceUse::default(),
            relay_session: None,
            outputs: ComparisonOutputs::default(),
            run_id: None,
        }
    }
}
