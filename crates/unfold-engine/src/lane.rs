//! Lanes: what one run of a comparison is called ([`Lane`]) and what it runs ([`LaneSpec`]): one of
//! Unfold's adapters, the all-FULL baseline, or an agent host's behaviour from its host profile
//! (spec 12: the adapter of its strategy and its [`ToolPolicy`]). A lane is written as its name
//! everywhere (reports, history, events, the UI): the adapter's (`dynamic`, …), `baseline`, or
//! `host:NAME`; a real agent host's run, made outside the engine (spec 13), is `real:NAME`.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use unfold_documents::host_profile::{HostApi, HostProfile, HostStrategy, ToolNames, ToolOrder};
use unfold_documents::refresh::Refresh;

use unfold_documents::runs::AdapterKind;

/// The name of the all-FULL baseline's lane.
const BASELINE: &str = "baseline";
/// What the lane of a real agent host's run (spec 13) is named after: `real:openai-agents`.
pub const REAL_HOST_PREFIX: &str = "real:";

pub use unfold_documents::host_profile::HOST_PREFIX;

/// One run of a comparison, by its name: an adapter's (`dynamic`, `restart`, `allowed_tools`,
/// `deferred`), a host profile's (`host:claude-code`), or `baseline`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
#[cfg_attr(feature = "specta", derive(specta::Type), specta(transparent))]
pub struct Lane(Cow<'static, str>);

impl Lane {
    /// The dynamic adapter's run.
    pub const DYNAMIC: Lane = Lane(Cow::Borrowed("dynamic"));
    /// The restart adapter's run.
    pub const RESTART: Lane = Lane(Cow::Borrowed("restart"));
    /// The `allowed_tools` adapter's run.
    pub const ALLOWED_TOOLS: Lane = Lane(Cow::Borrowed("allowed_tools"));
    /// The deferred adapter's run.
    pub const DEFERRED: Lane = Lane(Cow::Borrowed("deferred"));
    /// The baseline: every section FULL from the start, under the dynamic adapter.
    pub const BASELINE: Lane = Lane(Cow::Borrowed(BASELINE));

    /// The run of `adapter`.
    pub fn of(adapter: AdapterKind) -> Lane {
        Lane(Cow::Borrowed(adapter.name()))
    }

    /// The all-FULL baseline.
    pub fn baseline() -> Lane {
        Lane::BASELINE
    }

    /// The run of the host profile named `name`.
    pub fn host(name: &str) -> Lane {
        Lane(Cow::Owned(format!("{HOST_PREFIX}{name}")))
    }

    /// The run of the real agent host named `name` (spec 13's host lab).
    pub fn real_host(name: &str) -> Lane {
        Lane(Cow::Owned(format!("{REAL_HOST_PREFIX}{name}")))
    }

    /// The lane of this name, as reports and the history write it.
    pub fn named(name: &str) -> Lane {
        Lane(Cow::Owned(name.to_owned()))
    }

    /// The adapter whose plain run this is; none for the baseline and host lanes.
    pub fn adapter(&self) -> Option<AdapterKind> {
        AdapterKind::ALL.into_iter().find(|kind| kind.name() == self.name())
    }

    /// Whether this is the baseline.
    pub fn is_baseline(&self) -> bool {
        self.0 == BASELINE
    }

    /// The host profile's name, for a host lane.
    pub fn host_name(&self) -> Option<&str> {
        self.0.strip_prefix(HOST_PREFIX)
    }

    /// The real agent host's name, for a real host's lane.
    pub fn real_host_name(&self) -> Option<&str> {
        self.0.strip_prefix(REAL_HOST_PREFIX)
    }

    /// The name in reports and the history.
    pub fn name(&self) -> &str {
        &self.0
    }

    /// The name in file names: `host-NAME` for a host lane (no `:`, which some systems refuse).
    pub fn file_label(&self) -> String {
        self.0.replace(':', "-")
    }
}

/// A lane is an adapter when it is that adapter's own run.
impl PartialEq<AdapterKind> for Lane {
    fn eq(&self, adapter: &AdapterKind) -> bool {
        self.name() == adapter.name()
    }
}

impl std::fmt::Display for Lane {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// What a lane runs: one of the adapters as Unfold has them, or an agent host's behaviour.
#[derive(Debug, Clone, PartialEq)]
pub enum LaneSpec {
    /// The adapter, showing new tools as it does.
    Adapter(AdapterKind),
    /// The host profile: its strategy's adapter under its refresh policy.
    Host(Box<HostProfile>),
}

impl LaneSpec {
    /// The lane's name.
    pub fn lane(&self) -> Lane {
        match self {
            LaneSpec::Adapter(kind) => Lane::of(*kind),
            LaneSpec::Host(profile) => Lane::host(&profile.name),
        }
    }

    /// The adapter that runs it.
    pub fn adapter(&self) -> AdapterKind {
        match self {
            LaneSpec::Adapter(kind) => *kind,
            LaneSpec::Host(profile) => match profile.strategy {
                HostStrategy::Inject => AdapterKind::Dynamic,
                HostStrategy::Restart => AdapterKind::Restart,
                HostStrategy::AllowedTools => AdapterKind::AllowedTools,
                HostStrategy::Deferred => AdapterKind::Deferred,
                HostStrategy::ToolAddition => AdapterKind::ToolAddition,
            },
        }
    }

    /// How it shows tools to its model: an adapter as it does, a host as its profile says.
    pub fn tool_policy(&self) -> ToolPolicy {
        match self {
            LaneSpec::Adapter(_) => ToolPolicy::default(),
            LaneSpec::Host(profile) => {
                let (order, names, deferred) =
                    (profile.tool_order, profile.tool_names, DeferredListing::of(profile.api));
                ToolPolicy { refresh: Some(profile.refresh), order, names, deferred }
            }
        }
    }

    /// The host profile's name, for a host lane.
    pub fn host_name(&self) -> Option<&str> {
        match self {
            LaneSpec::Adapter(_) => None,
            LaneSpec::Host(profile) => Some(&profile.name),
        }
    }
}

/// How a lane shows tools to its model (spec 12): when a change to them first shows, where they go
/// in the list it sends, and what they are called there. The default is an adapter's own: changes
/// as the adapter shows them, new tools appended, the template's names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ToolPolicy {
    /// When the model first sees a change to the tools; none: as the adapter does (from the next
    /// call, or a restart for the restart adapter).
    pub refresh: Option<Refresh>,
    /// Where the tools go in the list: appended as they come (before the disclosure tools), sorted
    /// by the names sent, or the sources' after the template's own.
    pub order: ToolOrder,
    /// What the tools are called in the list: the template's names, or a source's tools prefixed
    /// as MCP hosts prefix them.
    pub names: ToolNames,
    /// What of a deferred tool the model sees before it is loaded: the API's rule.
    pub deferred: DeferredListing,
}

/// What of a tool sent deferred (`deferred`, `tool_addition`) is in the model's context, and
/// counted, before it is loaded: each API says its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DeferredListing {
    /// Nothing (Anthropic: a deferred tool is not in the system prompt until loaded).
    #[default]
    Unlisted,
    /// Its name and description, from the first call; its parameters when loaded (OpenAI's
    /// Responses: "the model still sees the name and description of whatever is searchable").
    Briefly,
}

impl DeferredListing {
    /// The rule of `api`.
    pub fn of(api: HostApi) -> DeferredListing {
        match api {
            HostApi::OpenaiChat | HostApi::OpenaiResponses => DeferredListing::Briefly,
            HostApi::Anthropic | HostApi::Gemini => DeferredListing::Unlisted,
        }
    }
}
