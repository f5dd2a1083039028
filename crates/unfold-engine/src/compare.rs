//! Compare: one scenario replayed in several lanes (an adapter each) with the scripted model (or,
//! live, its user message sent to a real model), into the comparison report of spec 6, with two
//! additions: the all-FULL baseline (the same scenario with nothing hidden, so the savings of
//! progressive disclosure are a number) and the first divergence of each run against the first.
//! One entry, [`compare`], takes the [`Lanes`] and what drives them ([`Drive`]): which model
//! answers, the tool sources, an observer told every event as it happens, a cancel flag checked
//! between model calls, and whether each call's OpenAI request body and answer are kept.

use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

use async_trait::async_trait;
use futures_util::future::join_all;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::adapter::{adapter_for, Adapter, DynamicAdapter};
use crate::divergence::Divergence;
use crate::events::AdapterKind;
use crate::events::{Counters, Event, EventKind, RunReport};
use crate::fork::Fork;
pub use crate::lane::{Lane, LaneSpec, ToolPolicy};
use crate::openai_request::{chat_completions_body, chat_completions_message};
use crate::provider::{ModelRequest, ModelResponse, Provider};
use crate::request_shapes::{RequestModel, RequestShape};
use crate::run::{run_with_host, RunInput};
use crate::scripted::{GivenResults, ScriptedProvider, ScriptedToolResults};
use crate::tool_host::{ToolHost, ToolSources};
use crate::verdict::Verdict;
use unfold_documents::discovery::Discovery;
use unfold_documents::error::{Error, Result};

use unfold_documents::prices::Pricing;
use unfold_documents::scenario::Scenario;
use unfold_documents::template::{Section, Template, ToolDisclosure, Visibility};

/// The kind of a comparison report.
pub const COMPARISON_KIND: &str = "unfold.comparison";

/// `unfold compare --json` (spec 6).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ComparisonReport {
    /// Always 1.
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub schema_version: u64,
    /// Always `unfold.comparison`.
    pub kind: String,
    /// The template's key.
    pub template: String,
    /// The scenario's name.
    pub scenario: String,
    /// One run per adapter, in the order asked.
    pub runs: Vec<RunReport>,
    /// The same scenario with nothing hidden from the start, and what each run saved against it.
    /// Always written; `None` when reading a report written before it existed.
    #[serde(default)]
    pub baseline: Option<BaselineReport>,
    /// Where each run after the first first differs from the first, in the runs' order; empty
    /// with fewer than two runs. A report written with one `divergence` (two runs) reads as it.
    #[serde(default, alias = "divergence", deserialize_with = "crate::divergence::one_or_many")]
    #[cfg_attr(feature = "specta", specta(type = Vec<Divergence>))]
    pub divergences: Vec<Divergence>,
    /// Which lane wins against the baseline, by how much and why (weighed again when the runs
    /// are priced); none without a baseline, or in a report written before it existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
    /// The run this comparison is a fork of, and where (spec 15); none: it began at the beginning.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fork: Option<crate::fork::ForkOrigin>,
}

/// The all-FULL baseline of a comparison: the scenario run under the dynamic adapter with every
/// section FULL and every tool offered with its full description from the start, so nothing is
/// ever read, injected or restarted for; and the prompt tokens each run saved against it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct BaselineReport {
    /// The baseline run, shaped as the other runs.
    #[serde(flatten)]
    pub run: RunReport,
    /// One per run of the comparison, in the same order.
    pub savings: Vec<Savings>,
}

/// What one run saved against the baseline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Savings {
    /// The run's lane (written `adapter`, as when every lane was an adapter's).
    pub adapter: Lane,
    /// The run's prompt tokens.
    #[cfg_attr(feature = "specta", specta(type = u32))]
    pub prompt_tokens: u64,
    /// The baseline's prompt tokens minus the run's: negative when the run used more.
    #[cfg_attr(feature = "specta", specta(type = i32))]
    pub saved_prompt_tokens: i64,
    /// `saved_prompt_tokens` in percent of the baseline's, to one decimal; `None` when the
    /// baseline used no prompt tokens.
    pub saved_percent: Option<f64>,
}

impl Savings {
    /// What `run` saved against `baseline`.
    pub fn against(baseline: &Counters, run: &RunReport) -> Savings {
        let tokens = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
        let saved = tokens(baseline.prompt_tokens).saturating_sub(tokens(run.counters.prompt_tokens));
        let saved_percent = (baseline.prompt_tokens > 0)
            .then(|| (saved as f64 * 1000.0 / baseline.prompt_tokens as f64).round() / 10.0);
        Savings {
            adapter: run.lane(),
            prompt_tokens: run.counters.prompt_tokens,
            saved_prompt_tokens: saved,
            saved_percent,
        }
    }
}

/// What a comparison tells while it runs: the runs go one after the other (the adapters in the
/// order asked, then the baseline), or side by side when they share their sources (a relay
/// session: [`ToolSources::shared_between_runs`]), each event as it happens.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum CompareProgress {
    /// A run begins.
    RunStarted {
        /// Which.
        lane: Lane,
    },
    /// One event of a run.
    Event {
        /// Whose.
        lane: Lane,
        /// The event.
        event: Box<Event>,
    },
    /// A piece of the text a live model is writing, before its answer (and its `model_call`
    /// event) is whole; the pieces of one answer, joined, are its text.
    Text {
        /// Whose.
        lane: Lane,
        /// The piece.
        text: String,
    },
}

/// A comparison report with the request body of every model call of every run.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// The report.
    pub report: ComparisonReport,
    /// The runs' request bodies: one per run in the report's order, then the baseline's.
    pub requests: Vec<RunRequests>,
}

/// The request bodies of one run's model calls.
#[derive(Debug, Clone, PartialEq)]
pub struct RunRequests {
    /// The run.
    pub lane: Lane,
    /// One per model call, in order.
    pub calls: Vec<CallRequest>,
}

/// The request one model call was sent, and what the model answered.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CallRequest {
    /// The call's index (1-based, over the whole run).
    pub call_index: u32,
    /// Its attempt.
    pub attempt: u32,
    /// The OpenAI Chat Completions request body (see [`chat_completions_body`]).
    #[cfg_attr(feature = "specta", specta(type = unfold_documents::json_type::JsonValue))]
    pub body: Value,
    /// The answer, as the OpenAI chat assistant message it stands for (see
    /// [`chat_completions_message`]).
    #[cfg_attr(feature = "specta", specta(type = unfold_documents::json_type::JsonValue))]
    pub response: Value,
}

impl ComparisonReport {
    /// Prices every run (the baseline too) at `pricing`.
    pub fn price(&mut self, pricing: &Pricing) {
        for run in &mut self.runs {
            run.price(pricing);
        }
        if let Some(baseline) = &mut self.baseline {
            baseline.run.price(pricing);
        }
        self.verdict = self.weigh();
    }

    /// The report of a comparison of the template keyed `template` on the scenario named
    /// `scenario`, with its baseline's run if it has one, before any other run is added.
    pub fn of(template: &str, scenario: &str, baseline: Option<RunReport>) -> ComparisonReport {
        ComparisonReport {
            schema_version: unfold_documents::document::SCHEMA_VERSION,
            kind: COMPARISON_KIND.to_owned(),
            template: template.to_owned(),
            scenario: scenario.to_owned(),
            runs: Vec::new(),
            baseline: baseline.map(|run| BaselineReport { run, savings: Vec::new() }),
            divergences: Vec::new(),
            verdict: None,
            fork: None,
        }
    }

    /// Adds `runs` after the report's own (the engine's, in order; then a real agent host's, spec 13):
    /// each is weighed against the baseline and set against the first run like the others.
    pub fn add_runs(&mut self, runs: Vec<RunReport>) {
        for run in runs {
            if let Some(baseline) = &mut self.baseline {
                baseline.savings.push(Savings::against(&baseline.run.counters, &run));
            }
            if let Some(first) = self.runs.first() {
                self.divergences.push(Divergence::between(first, &run));
            }
            self.runs.push(run);
        }
        self.verdict = self.weigh();
    }

    /// The verdict of the runs against the baseline; none without a baseline.
    pub fn weigh(&self) -> Option<Verdict> {
        Some(Verdict::of(&self.runs, &self.baseline.as_ref()?.run))
    }
}

impl Comparison {
    /// The request and answer of model call `call_index` of `lane`'s run, if it made that call.
    pub fn call(&self, lane: &Lane, call_index: u32) -> Option<&CallRequest> {
        let run = self.requests.iter().find(|run| &run.lane == lane)?;
        run.calls.iter().find(|call| call.call_index == call_index)
    }
}

/// A comparison's lanes: one scenario on one template in each lane, in order (the scripted model
/// adds the all-FULL baseline lane after them).
#[derive(Debug, Clone)]
pub struct Lanes<'a> {
    /// The template.
    pub template: &'a Template,
    /// The scenario.
    pub scenario: &'a Scenario,
    /// What each lane runs, in order; each after the first is set against the first.
    pub lanes: Vec<LaneSpec>,
}

impl<'a> Lanes<'a> {
    /// `scenario` on `template` under each of `adapters`.
    pub fn new(template: &'a Template, scenario: &'a Scenario, adapters: &[AdapterKind]) -> Lanes<'a> {
        Lanes::of(template, scenario, adapters.iter().copied().map(LaneSpec::Adapter).collect())
    }

    /// `scenario` on `template` in each of `lanes`.
    pub fn of(template: &'a Template, scenario: &'a Scenario, lanes: Vec<LaneSpec>) -> Lanes<'a> {
        Lanes { template, scenario, lanes }
    }
}

/// What drives a comparison's lanes: which model answers, their tool sources, what the caller
/// hears, how it stops them, and what is kept. [`Drive::default`] is the scenario's script, the
/// sources' snapshots, no one told, no stop and no request kept.
#[derive(Default)]
pub struct Drive<'a> {
    /// Which model answers every lane.
    pub model: LaneModel<'a>,
    /// Starts each lane's tool sources (every lane, the baseline too, gets its own, closed when
    /// it ends); none: every lane sees their snapshots. When the lanes share what the sources are
    /// (a relay session), they run side by side, each opened before any starts, so a change
    /// reaches every lane.
    pub sources: Option<&'a mut dyn ToolSources>,
    /// Told each lane's start and each event as it happens.
    pub observer: Option<&'a mut (dyn FnMut(CompareProgress) + Send)>,
    /// Once set, the comparison stops before its next model call with [`Error::Cancelled`].
    pub cancel: Option<&'a AtomicBool>,
    /// Whether [`Comparison::requests`] keeps each call's request body and answer. Building them
    /// costs about a quarter of a scripted comparison, so a caller that shows none asks for none.
    pub keep_requests: bool,
    /// Whether the scripted model's all-FULL baseline is left out: a study's statistics do not
    /// use it, and it is the longest lane.
    pub no_baseline: bool,
    /// The recorded conversation every lane goes on from (a fork, spec 15); none: each starts
    /// at the beginning.
    pub fork: Option<&'a Fork>,
}

/// The model of a comparison's lanes.
#[derive(Default)]
pub enum LaneModel<'a> {
    /// The scenario's scripted model, and the all-FULL baseline lane after the adapters' lanes.
    #[default]
    Scripted,
    /// A real model: the scenario's user message, parameters, tool results, tool changes and
    /// limits (not its script), a new provider for each lane (told which); no baseline (it would
    /// be paid for). A provider made with the comparison's cancel token also drops a call in
    /// flight.
    Live(&'a mut (dyn FnMut(Lane) -> Result<Box<dyn Provider + Send>> + Send)),
}

impl LaneModel<'_> {
    fn provider(&mut self, lane: Lane, scenario: &Scenario, template: &Template) -> Result<Box<dyn Provider + Send>> {
        Ok(match self {
            LaneModel::Scripted => Box::new(ScriptedProvider::new(scenario, template)),
            LaneModel::Live(make) => make(lane)?,
        })
    }
}

/// No one stops a comparison that was given no cancel flag.
static NEVER_CANCELLED: AtomicBool = AtomicBool::new(false);

/// Runs `lanes` as `drive` says, into the comparison report of spec 6 with the baseline and the
/// divergences (and every call's request when asked). Fails (with problems located in the
/// scenario) when the scenario names parameters or tools the template does not have.
pub async fn compare(lanes: Lanes<'_>, drive: Drive<'_>) -> Result<Comparison> {
    let Lanes { template, scenario, lanes: specs } = lanes;
    let problems = scenario.problems_with(template);
    if !problems.is_empty() {
        return Err(Error::invalid(problems));
    }
    let Drive { mut model, sources, observer, cancel, keep_requests, no_baseline, fork } = drive;
    let cancel = cancel.unwrap_or(&NEVER_CANCELLED);
    let mut quiet = |_: CompareProgress| {};
    let observer: &mut (dyn FnMut(CompareProgress) + Send) = match observer {
        Some(observer) => observer,
        None => &mut quiet,
    };
    let disclosed = (matches!(model, LaneModel::Scripted) && !no_baseline).then(|| everything_disclosed(template));
    let mut plans: Vec<LanePlan<'_>> = specs
        .iter()
        .map(|spec| LanePlan {
            lane: spec.lane(),
            adapter: adapter_for(spec.adapter()),
            tool_policy: spec.tool_policy(),
            host: spec.host_name().map(str::to_owned),
            template,
        })
        .collect();
    if let Some(disclosed) = &disclosed {
        plans.push(LanePlan {
            lane: Lane::baseline(),
            adapter: &DynamicAdapter,
            tool_policy: ToolPolicy::default(),
            host: None,
            template: disclosed,
        });
    }
    let side_by_side = sources.as_deref().is_some_and(|sources| sources.shared_between_runs(template));
    let mut lanes = LaneMaker { keep_requests, cancel, models: &mut model, sources, fork };
    let observer = Mutex::new(observer);
    let outcomes = if side_by_side {
        let ready = lanes.ready_all(plans, scenario).await?;
        join_all(ready.into_iter().map(|lane| lane.run(scenario, &observer, cancel))).await
    } else {
        let mut outcomes = Vec::with_capacity(plans.len());
        for plan in plans {
            let outcome = lanes.ready(plan, scenario).await?.run(scenario, &observer, cancel).await;
            let failed = outcome.is_err();
            outcomes.push(outcome);
            if failed {
                break;
            }
        }
        outcomes
    };
    let mut runs = Vec::with_capacity(specs.len());
    let mut baseline = None;
    let mut requests = Vec::new();
    for outcome in outcomes {
        let (lane, report, calls) = outcome?;
        let is_baseline = lane.is_baseline();
        requests.extend(calls.map(|calls| RunRequests { lane, calls }));
        if is_baseline {
            baseline = Some(report);
        } else {
            runs.push(report);
        }
    }
    let mut report = ComparisonReport::of(&template.key, &scenario.name, baseline);
    report.add_runs(runs);
    Ok(Comparison { report, requests })
}

/// One run a comparison will make: which, under which adapter and refresh policy (and whose
/// host's), on which template.
struct LanePlan<'t> {
    lane: Lane,
    adapter: &'static dyn Adapter,
    tool_policy: ToolPolicy,
    host: Option<String>,
    template: &'t Template,
}

/// Makes each run ready: its sources opened (or their snapshots) and its model made.
struct LaneMaker<'m, 'o> {
    keep_requests: bool,
    cancel: &'o AtomicBool,
    models: &'m mut LaneModel<'o>,
    sources: Option<&'m mut (dyn ToolSources + 'o)>,
    fork: Option<&'o Fork>,
}

impl<'o> LaneMaker<'_, 'o> {
    /// `plan`'s run, its sources started for it alone when sources are started, else their
    /// snapshots (nothing is started).
    async fn ready<'t>(&mut self, plan: LanePlan<'t>, scenario: &Scenario) -> Result<ReadyLane<'t, 'o>> {
        let (template, discoveries, mut host) = if plan.template.sources.is_empty() {
            (Cow::Borrowed(plan.template), Vec::new(), None)
        } else {
            let (discoveries, host) = match self.sources.as_deref_mut() {
                Some(sources) => {
                    let (discoveries, host) = sources.open(plan.template).await;
                    (discoveries, Some(host))
                }
                None => (plan.template.offline_discoveries(), None),
            };
            let (seen, applied) = plan.template.with_discovered(discoveries);
            (Cow::Owned(seen), applied, host)
        };
        let inner = match self.models.provider(plan.lane.clone(), scenario, &template) {
            Ok(inner) => inner,
            Err(error) => {
                if let Some(host) = &mut host {
                    host.close().await;
                }
                return Err(error);
            }
        };
        let inner = match self.fork {
            Some(fork) => fork.provider(&plan.lane, inner),
            None => inner,
        };
        let provider = RecordingProvider { inner, exchanges: self.keep_requests.then(Vec::new), cancel: self.cancel };
        let LanePlan { lane, adapter, tool_policy, host: host_profile, .. } = plan;
        let given = self.fork.map(Fork::given_results).unwrap_or_default();
        Ok(ReadyLane { lane, adapter, tool_policy, host_profile, template, discoveries, provider, host, given })
    }

    /// Every plan's run ready before any starts, so the sources they share see them all; none
    /// left open when one cannot be made.
    async fn ready_all<'t>(&mut self, plans: Vec<LanePlan<'t>>, scenario: &Scenario) -> Result<Vec<ReadyLane<'t, 'o>>> {
        let mut ready: Vec<ReadyLane<'t, 'o>> = Vec::with_capacity(plans.len());
        for plan in plans {
            match self.ready(plan, scenario).await {
                Ok(lane) => ready.push(lane),
                Err(error) => {
                    for lane in &mut ready {
                        lane.close().await;
                    }
                    return Err(error);
                }
            }
        }
        Ok(ready)
    }
}

/// A comparison's observer, shared by the runs that go side by side.
type SharedObserver<'a> = Mutex<&'a mut (dyn FnMut(CompareProgress) + Send)>;

fn tell(observer: &SharedObserver<'_>, progress: CompareProgress) {
    (observer.lock().unwrap_or_else(PoisonError::into_inner))(progress);
}

/// One run of a comparison, ready to go.
struct ReadyLane<'t, 'o> {
    lane: Lane,
    adapter: &'static dyn Adapter,
    tool_policy: ToolPolicy,
    /// The host profile whose behaviour the run has, by name.
    host_profile: Option<String>,
    /// The template as the run's sources offered it (the comparison's own when it has none).
    template: Cow<'t, Template>,
    /// What each source offered.
    discoveries: Vec<Discovery>,
    provider: RecordingProvider<'o>,
    host: Option<Box<dyn ToolHost>>,
    /// Results given by call id: a fork's.
    given: GivenResults,
}

impl ReadyLane<'_, '_> {
    /// Runs with the scenario's tool results and closes the run's sources; the request body and
    /// answer of each model call when the comparison keeps requests.
    async fn run(
        mut self,
        scenario: &Scenario,
        observer: &SharedObserver<'_>,
        cancel: &AtomicBool,
    ) -> Result<(Lane, RunReport, Option<Vec<CallRequest>>)> {
        let lane = self.lane.clone();
        let mut input = RunInput::of_scenario(&self.template, scenario);
        input.discoveries = &self.discoveries;
        input.tool_policy = self.tool_policy;
        let mut results = ScriptedToolResults::new(scenario).with_given(std::mem::take(&mut self.given));
        tell(observer, CompareProgress::RunStarted { lane: lane.clone() });
        // Reborrowed for this run alone (a trait object's lifetime shortens only outside the `Option`).
        let host = self.host.as_deref_mut().map(|host| -> &mut dyn ToolHost { host });
        let outcome =
            run_with_host(&input, self.adapter, &mut self.provider, &mut results, host, &mut |event: &Event| {
                tell(observer, CompareProgress::Event { lane: lane.clone(), event: Box::new(event.clone()) });
            })
            .await;
        self.close().await;
        let mut report = outcome?;
        report.host = self.host_profile.take();
        if cancel.load(Ordering::Relaxed) {
            return Err(Error::Cancelled);
        }
        let calls = self.provider.exchanges.map(|exchanges| {
            // Each exchange is kept as it is answered, each model_call event then too: in order,
            // one for one.
            let model_calls = report.events.iter().filter_map(|event| match event.kind {
                EventKind::ModelCall { call_index, .. } => Some((call_index, event.attempt)),
                _ => None,
            });
            model_calls
                .zip(exchanges)
                .map(|((call_index, attempt), (body, response))| CallRequest { call_index, attempt, body, response })
                .collect()
        });
        Ok((lane, report, calls))
    }

    async fn close(&mut self) {
        if let Some(host) = &mut self.host {
            host.close().await;
        }
    }
}

/// A comparison's model, keeping each request it is sent with its answer, and refusing to answer
/// once the comparison is cancelled.
struct RecordingProvider<'c> {
    inner: Box<dyn Provider + Send>,
    exchanges: Option<Vec<(Value, Value)>>,
    cancel: &'c AtomicBool,
}

#[async_trait]
impl Provider for RecordingProvider<'_> {
    async fn complete(&mut self, request: &ModelRequest<'_>) -> Result<ModelResponse> {
        if self.cancel.load(Ordering::Relaxed) {
            return Err(Error::Cancelled);
        }
        let response = self.inner.complete(request).await?;
        if let Some(exchanges) = &mut self.exchanges {
            exchanges.push((chat_completions_body(request), chat_completions_message(&response)));
        }
        Ok(response)
    }

    fn fixed_tools(&self) -> Option<String> {
        self.inner.fixed_tools()
    }

    fn refuses(&self, hidden: crate::provider::HiddenTools) -> Option<String> {
        self.inner.refuses(hidden)
    }
}

/// `template` with nothing hidden: every section FULL and every tool offered with its full
/// description (`tool_disclosure: full`). Nothing is summarized, so no disclosure tool is offered,
/// and the scripted model skips the `read_section` and `open_sections` steps whose sections it is
/// shown in full (spec 5).
pub fn everything_disclosed(template: &Template) -> Template {
    let mut disclosed = template.clone();
    disclosed.tool_disclosure = ToolDisclosure::Full;
    // A stack rather than recursion: a template built in code has no depth limit.
    let mut sections: Vec<&mut Section> = disclosed.sections.iter_mut().collect();
    while let Some(section) = sections.pop() {
        section.visibility = Visibility::Full;
        sections.extend(section.children.iter_mut());
    }
    disclosed
}

/// The files of an export of request bodies: `{label}-call-{NNN}.json` (the call index padded to
/// the same width for every run, at least 3 digits, so the names sort in call order) with the
/// body in `shape` as pretty JSON and a final newline, ready to send to `model` when given; runs
/// in order, then their calls.
pub fn request_files(
    requests: &[RunRequests],
    shape: RequestShape,
    model: Option<&RequestModel>,
) -> Vec<(String, String)> {
    let last = requests.iter().flat_map(|run| &run.calls).map(|call| call.call_index).max().unwrap_or(0);
    let width = last.to_string().len().max(3);
    requests
        .iter()
        .flat_map(|run| {
            run.calls.iter().map(move |call| {
                let name = format!("{}-call-{:0width$}.json", run.lane.file_label(), call.call_index);
                let body = match model {
                    // A real host's request is written as it sent it, in its own API's shape.
                    _ if run.lane.real_host_name().is_some() => call.body.clone(),
                    Some(model) => shape.ready_to_send(&call.body, model),
                    None => shape.body(&call.body),
                };
                (name, unfold_documents::document::to_canonical_json(&body))
            })
        })
        .collect()
}
