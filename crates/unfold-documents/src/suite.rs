//! The suite document (`*.suite.json`, spec 11): cases, each a template and a scenario (paths
//! relative to the suite file) compared in lanes (adapters and host lanes), with what each run and the divergences are
//! expected to show. What `unfold test` runs in CI; the checks a schema cannot express.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{pointer_segment, Problem, Result};
use crate::host_profile::{host_reference, HostProfile};
use crate::runs::{AdapterKind, RunStatus};
use crate::schema::DocumentSchema;

/// The kind of a suite file.
pub const SUITE_KIND: &str = "unfold.suite";

/// The run a case's expectations name besides its adapters'.
pub const BASELINE: &str = "baseline";

/// The most repetitions a study may ask for (spec 14), a suite case's `repeat` as `--repeat`.
pub const MAX_REPEAT: u32 = 10_000;

/// The expectations told of a study as a whole rather than of each run: a repeated case's only.
const OF_A_STUDY: [&str; 1] = ["success_rate"];

/// The expectations a repeated case cannot check: its runs keep no events (divergence) and are
/// priced with the cache (cost); `cheaper_than` and `saved_percent` say what they are worth there.
const OF_ONE_RUN: [&str; 2] = ["cost_usd", "cacheable_prompt_tokens"];

/// A suite of cases.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "Unfold suite")]
#[schemars(extend("additionalProperties" = false, "patternProperties" = { "^x-": true }))]
pub struct Suite {
    /// Always 1 for this format.
    #[schemars(extend("const" = 1))]
    pub schema_version: u64,
    /// Always `unfold.suite`.
    #[schemars(extend("const" = "unfold.suite"))]
    pub kind: String,
    /// The suite's name, as reports show it.
    #[schemars(length(min = 1))]
    pub name: String,
    /// The cases, in the order they are reported.
    #[schemars(length(min = 1))]
    pub cases: Vec<SuiteCase>,
    /// `x-` fields, kept as they are.
    #[serde(flatten)]
    pub extensions: Map<String, Value>,
}

/// One case: a template and a scenario compared under adapters, and what is expected of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SuiteCase {
    /// The case's name, unique in the suite.
    #[schemars(length(min = 1))]
    pub name: String,
    /// The template file, relative to the suite file.
    #[schemars(length(min = 1))]
    pub template: String,
    /// The scenario file, relative to the suite file.
    #[schemars(length(min = 1))]
    pub scenario: String,
    /// The lanes, in order (dynamic and restart when absent): an adapter's name, or `host:` and a
    /// host preset's name or a host profile file (relative to the suite file; spec 12). Each run
    /// after the first is set against the first; expectations name a run as it is written here.
    #[serde(default = "default_adapters")]
    #[schemars(
        length(min = 1),
        inner(regex(pattern = r"^(dynamic|restart|allowed_tools|deferred|tool_addition|host:.+)$"))
    )]
    pub adapters: Vec<String>,
    /// The model the runs are priced as, for `cost_usd` expectations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price_as: Option<String>,
    /// Run the case as a study (spec 14): its lanes and the all-FULL baseline this many times.
    /// Then `status` and the counters hold for every run, `success_rate` is of the runs,
    /// `saved_percent` is held on its 95 % interval's lower bound, and `cheaper_than` asks the
    /// paired difference's 95 % interval to lie below zero.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = MAX_REPEAT))]
    pub repeat: Option<u32>,
    /// What each run (by adapter, or `baseline`) and the divergences are expected to show.
    #[serde(default)]
    pub expect: CaseExpectations,
}

fn default_adapters() -> Vec<String> {
    [AdapterKind::Dynamic, AdapterKind::Restart].map(|kind| kind.name().to_owned()).into()
}

/// A case's expectations: per run, and of the divergences.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CaseExpectations {
    /// Of the divergences of the runs from the first run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub divergence: Option<DivergenceExpectation>,
    /// Of each run, by its adapter's name or `baseline`.
    #[serde(flatten)]
    pub runs: IndexMap<String, RunExpectations>,
}

/// What one run is expected to show; every field given must hold.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunExpectations {
    /// How it ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<RunStatus>,
    /// Model calls, over every attempt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_calls: Option<Bound>,
    /// Restarts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restarts: Option<Bound>,
    /// Tools made callable mid-run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools_injected: Option<Bound>,
    /// Expansions handled without a restart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dynamic_expansions: Option<Bound>,
    /// Tool calls answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_calls: Option<Bound>,
    /// Tool calls answered with a failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed_tool_calls: Option<Bound>,
    /// Prompt tokens over every model call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_tokens: Option<Bound>,
    /// Completion tokens over every model call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completion_tokens: Option<Bound>,
    /// Prompt tokens a cache could serve (needs `price_as`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cacheable_prompt_tokens: Option<Bound>,
    /// What the run cost, in US dollars (needs `price_as`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<Bound>,
    /// The prompt tokens it saved against the all-FULL baseline, in percent (`{"min": 40}`: it
    /// saves at least 40 %). Of a repeated case: the 95 % bootstrap interval's lower bound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub saved_percent: Option<Bound>,
    /// Of a repeated case only: the share of its runs that completed, from 0 to 1
    /// (`{"min": 0.9}`), as observed; a failure says its Wilson 95 % interval too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub success_rate: Option<Bound>,
    /// Another run of the case (a lane as written, or `baseline`) that this one must cost less
    /// than: in US dollars when priced (`price_as`), else in prompt tokens. Of a repeated case:
    /// the paired difference's 95 % interval lies below zero.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cheaper_than: Option<String>,
}

impl RunExpectations {
    /// The numeric expectations given, by the name the file uses.
    pub fn bounds(&self) -> Vec<(&'static str, Bound)> {
        let all = [
            ("model_calls", self.model_calls),
            ("restarts", self.restarts),
            ("tools_injected", self.tools_injected),
            ("dynamic_expansions", self.dynamic_expansions),
            ("tool_calls", self.tool_calls),
            ("failed_tool_calls", self.failed_tool_calls),
            ("prompt_tokens", self.prompt_tokens),
            ("completion_tokens", self.completion_tokens),
            ("cacheable_prompt_tokens", self.cacheable_prompt_tokens),
            ("cost_usd", self.cost_usd),
            ("saved_percent", self.saved_percent),
            ("success_rate", self.success_rate),
        ];
        all.into_iter().filter_map(|(name, bound)| bound.map(|bound| (name, bound))).collect()
    }

    /// Whether an expectation needs the run priced.
    pub fn needs_price(&self) -> bool {
        self.cost_usd.is_some() || self.cacheable_prompt_tokens.is_some()
    }
}

/// A number expected exactly, or within `min` and `max` (each inclusive, either may be absent).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged, deny_unknown_fields)]
pub enum Bound {
    /// Exactly this.
    Exact(f64),
    /// Within these.
    Range {
        /// At least this.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        min: Option<f64>,
        /// At most this.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max: Option<f64>,
    },
}

impl Bound {
    /// Whether `value` holds.
    pub fn holds(self, value: f64) -> bool {
        match self {
            Bound::Exact(expected) => (value - expected).abs() <= 1e-9 * expected.abs().max(1.0),
            Bound::Range { min, max } => min.is_none_or(|min| value >= min) && max.is_none_or(|max| value <= max),
        }
    }

    /// "3", "at least 100", "at most 2000", "between 100 and 2000".
    pub fn describe(self) -> String {
        let number = |n: f64| if n.fract() == 0.0 && n.abs() < 1e15 { format!("{}", n as i64) } else { format!("{n}") };
        match self {
            Bound::Exact(n) => number(n),
            Bound::Range { min: Some(min), max: Some(max) } => format!("between {} and {}", number(min), number(max)),
            Bound::Range { min: Some(min), max: None } => format!("at least {}", number(min)),
            Bound::Range { min: None, max: Some(max) } => format!("at most {}", number(max)),
            Bound::Range { min: None, max: None } => "anything".to_owned(),
        }
    }
}

/// What the divergences of a case's runs from its first run are expected to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DivergenceExpectation {
    /// No run diverges from the first.
    None,
    /// Some run does.
    Any,
    /// Some run's first divergence is a restart where the first goes on.
    Restart,
    /// Some run's first divergence is a call only one of them makes.
    ExtraCall,
    /// Some run's first divergence is a call of another tool.
    DifferentCall,
    /// Some run's first divergence is the same tool with other arguments.
    DifferentArguments,
    /// Some run's first divergence is the same call with another result.
    DifferentResult,
    /// Some run's first divergence is the ending.
    DifferentOutcome,
}

impl DivergenceExpectation {
    /// Its name in the file (`none`, `any`, `restart`, …): for a divergence kind, the report's.
    pub fn name(self) -> String {
        serde_json::to_value(self).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
    }
}

impl Suite {
    /// The JSON Schema of suite files, as checked in at `schema/unfold.suite.schema.json`.
    pub fn schema() -> &'static DocumentSchema {
        static SCHEMA: OnceLock<DocumentSchema> = OnceLock::new();
        SCHEMA.get_or_init(|| DocumentSchema::checked_in(include_str!("../../../schema/unfold.suite.schema.json")))
    }

    /// Reads and checks a suite file; every problem names the file and its place.
    pub fn load(path: &Path) -> Result<Suite> {
        let bytes = crate::document::read_document_bytes(path)?;
        Suite::from_json(&bytes).map_err(|e| e.in_file(path))
    }

    /// Parses and checks the text of a suite file.
    pub fn from_json(bytes: &[u8]) -> Result<Suite> {
        crate::document::parse_versioned(bytes, SUITE_KIND, Suite::schema(), Suite::problems)
    }

    /// A case's file `relative` to the suite file at `suite_path`.
    pub fn resolve(suite_path: &Path, relative: &str) -> PathBuf {
        suite_path.parent().unwrap_or(Path::new("")).join(relative)
    }

    fn problems(&self) -> Vec<Problem> {
        let mut problems = Vec::new();
        let mut names = HashSet::new();
        for (index, case) in self.cases.iter().enumerate() {
            let place = format!("/cases/{index}");
            if !names.insert(case.name.as_str()) {
                problems.push(Problem::at(format!("{place}/name"), format!("another case is named '{}'", case.name)));
            }
            let mut adapters = HashSet::new();
            for (at, lane) in case.adapters.iter().enumerate() {
                let at = format!("{place}/adapters/{at}");
                if !adapters.insert(lane) {
                    problems.push(Problem::at(&at, format!("'{lane}' is named twice")));
                }
                if let Some(problem) = lane_problem(lane) {
                    problems.push(Problem::at(&at, problem));
                }
            }
            let runs: Vec<&str> = case.adapters.iter().map(String::as_str).chain([BASELINE]).collect();
            let unknown = |run: &str| {
                (!runs.contains(&run)).then(|| format!("the case has no run '{run}' (its runs: {})", runs.join(", ")))
            };
            for (run, expectations) in &case.expect.runs {
                let at = format!("{place}/expect/{}", pointer_segment(run));
                problems.extend(unknown(run).map(|problem| Problem::at(&at, problem)));
                let cheaper_than = expectations.cheaper_than.as_deref();
                let compared_with = cheaper_than.and_then(|other| match other == run {
                    true => Some("a run cannot cost less than itself".to_owned()),
                    false => unknown(other),
                });
                problems.extend(compared_with.map(|problem| Problem::at(format!("{at}/cheaper_than"), problem)));
                if expectations.needs_price() && case.price_as.is_none() {
                    problems.push(Problem::at(&at, "cost_usd and cacheable_prompt_tokens need the case's price_as"));
                }
                for (name, bound) in expectations.bounds() {
                    if let Some(problem) = bound_problem(name, bound, case.repeat.is_some()) {
                        problems.push(Problem::at(format!("{at}/{}", pointer_segment(name)), problem));
                    }
                }
            }
            if let (Some(_), Some(_)) = (case.repeat, case.expect.divergence) {
                let problem = "a repeated case keeps no events to diverge: expect divergence of a case run once";
                problems.push(Problem::at(format!("{place}/expect/divergence"), problem));
            }
            problems.extend(repeat_problem(case).map(|(at, problem)| Problem::at(format!("{place}{at}"), problem)));
        }
        problems
    }
}

/// What is wrong with the expectation `name` of a run, `bound`, in a case that `repeats` or not.
fn bound_problem(name: &str, bound: Bound, repeats: bool) -> Option<String> {
    let in_range = |value: Option<f64>| value.is_none_or(|value| (0.0..=1.0).contains(&value));
    match bound {
        Bound::Range { min: Some(min), max: Some(max) } if min > max => Some("min is more than max".to_owned()),
        Bound::Range { min: None, max: None } => Some("give min, max or both".to_owned()),
        _ if OF_A_STUDY.contains(&name) && !repeats => Some(format!("{name} is of a study: give the case a repeat")),
        _ if OF_ONE_RUN.contains(&name) && repeats => {
            Some(format!("{name} is of a case run once: a repeated case's runs are priced with the cache"))
        }
        Bound::Exact(value) if name == "success_rate" && !in_range(Some(value)) => {
            Some("a success rate is from 0 to 1".to_owned())
        }
        Bound::Range { min, max } if name == "success_rate" && !(in_range(min) && in_range(max)) => {
            Some("a success rate is from 0 to 1".to_owned())
        }
        _ => None,
    }
}

/// What is wrong with a case's `repeat`, and where under the case: a repeated case's lanes are
/// named as its study names them, which a host profile file is not.
fn repeat_problem(case: &SuiteCase) -> Option<(String, String)> {
    case.repeat?;
    let at = case.adapters.iter().position(|lane| host_reference(lane).is_some_and(HostProfile::names_a_file))?;
    let problem = "a repeated case runs host presets (host:NAME); a host profile file is for a case run once";
    Some((format!("/adapters/{at}"), problem.to_owned()))
}

/// What is wrong with a case's lane as written, if anything: a host lane names a preset Unfold
/// ships or a file (read when the suite runs, where its problems are reported at its place).
fn lane_problem(lane: &str) -> Option<String> {
    let reference = host_reference(lane)?;
    if HostProfile::names_a_file(reference) {
        return None;
    }
    HostProfile::known_preset(reference).err()
}
