//! Traces of runs (spec 11, `--otel FILE` and the History's trace export): when each event of a
//! run was seen, taken from the observers runs already tell, and the runs written as an OTLP
//! JSON file (a line per run, as `unfold-exports::otlp` makes them), atomically; never one that
//! holds a live run's secrets.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use unfold_documents::document::write_atomically;
use unfold_engine::compare::{CompareProgress, Lane};
use unfold_engine::{ComparisonReport, Event, RunReport};
use unfold_exports::otlp::{trace_line, RunTimes, TracedRun};
use unfold_live::Secrets;
use unfold_stores::run_history::{RunOrigin, StoredRun};

use crate::error::AppResult;

/// Now, in nanoseconds since the Unix epoch.
pub fn now_ns() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}

/// When a run's events were seen, as they are told.
#[derive(Debug, Clone)]
pub struct RunClock(RunTimes);

impl RunClock {
    /// A run that starts now.
    pub fn start() -> RunClock {
        let now = now_ns();
        RunClock(RunTimes { start: now, end: now, events: Vec::new() })
    }

    /// `event` is seen now.
    pub fn saw(&mut self, event: &Event) {
        let now = now_ns();
        if self.0.events.len() == event.seq as usize {
            self.0.events.push(now);
        }
        self.0.end = now;
    }

    /// The times seen; a run told nothing of ends now, its events spread over it.
    pub fn times(&self) -> RunTimes {
        let mut times = self.0.clone();
        if times.events.is_empty() {
            times.end = now_ns();
        }
        times
    }
}

/// When each run of a comparison saw its events, by lane.
#[derive(Debug, Clone, Default)]
pub struct ComparisonClock(HashMap<Lane, RunClock>);

impl ComparisonClock {
    /// What a comparison told, seen now.
    pub fn saw(&mut self, progress: &CompareProgress) {
        match progress {
            CompareProgress::RunStarted { lane } => {
                self.0.insert(lane.clone(), RunClock::start());
            }
            CompareProgress::Event { lane, event } => {
                self.0.entry(lane.clone()).or_insert_with(RunClock::start).saw(event);
            }
            _ => {}
        }
    }

    /// The times of `lane`'s run.
    pub fn times(&self, lane: &Lane) -> RunTimes {
        self.0.get(lane).map_or_else(|| RunClock::start().times(), RunClock::times)
    }
}

/// Who ran a trace's runs, and what more the trace says of them.
#[derive(Debug, Clone)]
pub struct TraceContext {
    /// `gen_ai.provider.name`: `openai`, `anthropic`, `unfold.scripted`.
    pub provider: String,
    /// The model asked for (a scripted one is named by the model it is priced as, if any).
    pub model: String,
    /// More attributes of every run span.
    pub attributes: Vec<(&'static str, String)>,
}

impl TraceContext {
    /// The scenario's scripted model, priced as `price_as` if it is.
    pub fn scripted(price_as: Option<&str>) -> TraceContext {
        TraceContext {
            provider: "unfold.scripted".to_string(),
            model: price_as.unwrap_or("scripted").to_string(),
            attributes: Vec::new(),
        }
    }

    /// A live model: its vendor (`openai`, `anthropic`) and name.
    pub fn live(kind: unfold_documents::provider_profile::ProviderKind, model: &str) -> TraceContext {
        use unfold_documents::provider_profile::ProviderKind;
        // The vendor, as OpenTelemetry's `gen_ai.system` names it, whichever of its APIs.
        let provider = match kind {
            ProviderKind::Openai | ProviderKind::OpenaiResponses => "openai",
            ProviderKind::Anthropic => "anthropic",
        };
        TraceContext { provider: provider.to_owned(), model: model.to_string(), attributes: Vec::new() }
    }

    /// With one more attribute on every run span.
    pub fn with(mut self, key: &'static str, value: impl Into<String>) -> TraceContext {
        self.attributes.push((key, value.into()));
        self
    }
}

/// The trace line of one run.
pub fn run_line(report: &RunReport, agent: &str, times: &RunTimes, context: &TraceContext) -> String {
    let run = TracedRun {
        report,
        agent,
        provider: &context.provider,
        model: &context.model,
        times,
        attributes: context.attributes.clone(),
        trace_id: new_trace_id(),
    };
    trace_line(&run)
}

/// The trace lines of a comparison's runs, the baseline's last, each its own trace.
pub fn comparison_lines(report: &ComparisonReport, clock: &ComparisonClock, context: &TraceContext) -> Vec<String> {
    let lanes = report.runs.iter().map(|run| (run.lane(), run));
    let baseline = report.baseline.as_ref().map(|baseline| (Lane::BASELINE, &baseline.run));
    lanes
        .chain(baseline)
        .map(|(lane, run)| {
            let context = context.clone().with("unfold.scenario", &report.scenario).with("unfold.lane", lane.name());
            run_line(run, &report.template, &clock.times(&lane), &context)
        })
        .collect()
}

/// The trace line of a run the history kept: its events spread over the time it took (the
/// history keeps no event's time), its provider's API read from the user's profiles where it is
/// still there.
pub fn stored_run_line(stored: &StoredRun, profiles: &crate::profiles::Profiles) -> String {
    let summary = &stored.summary;
    let start = summary.started_at_ms.saturating_mul(1_000_000);
    let times = RunTimes { start, end: start + summary.duration_ms.saturating_mul(1_000_000), events: Vec::new() };
    let model = summary.model.as_deref().unwrap_or("scripted");
    let mut context = match summary.source {
        RunOrigin::Scripted => TraceContext::scripted(summary.model.as_deref()),
        RunOrigin::Live | RunOrigin::Replay => match profiles.get(&summary.provider) {
            Ok(profile) => TraceContext::live(profile.kind, model),
            Err(_) => {
                TraceContext { provider: summary.provider.clone(), model: model.to_string(), attributes: Vec::new() }
            }
        },
    };
    context = context.with("unfold.history.id", summary.id.to_string());
    if let Some(scenario) = &summary.scenario {
        context = context.with("unfold.scenario", scenario);
    }
    if let Some(lane) = &summary.lane {
        context = context.with("unfold.lane", lane);
    }
    if summary.source == RunOrigin::Replay {
        context = context.with("unfold.replay", "true");
    }
    run_line(&stored.report, &summary.template, &times, &context)
}

/// Writes the trace of the kept run `id` to `path`.
pub fn export_stored_run(
    history: &crate::run_history::OpenRunHistory,
    profiles: &crate::profiles::Profiles,
    id: i64,
    path: &Path,
) -> AppResult<()> {
    crate::files::check_output_file(path, "trace")?;
    let stored = history.get(id)?;
    let secrets = match stored.summary.source {
        RunOrigin::Scripted => Secrets::none(),
        RunOrigin::Live | RunOrigin::Replay => profiles
            .get(&stored.summary.provider)
            .map_or_else(|_| Secrets::none(), |p| crate::redaction::secrets_of(&p)),
    };
    write_trace_file(path, &[stored_run_line(&stored, profiles)], &secrets)
}

/// Writes `lines` to `path` as an OTLP JSON file, atomically; refused, naming the line's place,
/// when one holds any of `secrets` in some form.
pub fn write_trace_file(path: &Path, lines: &[String], secrets: &Secrets) -> AppResult<()> {
    for line in lines {
        crate::redaction::check_file_text(path, line, secrets)?;
    }
    let mut text = lines.join("\n");
    text.push('\n');
    Ok(write_atomically(path, &text)?)
}

/// A fresh trace id: the clock and a counter through std's randomly keyed hasher.
fn new_trace_id() -> [u8; 16] {
    static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let count = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let half = |salt: u64| {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u64(now_ns());
        hasher.write_u64(count);
        hasher.write_u64(salt);
        hasher.finish().to_be_bytes()
    };
    let (high, low) = (half(1), half(2));
    let mut id = [0; 16];
    id[..8].copy_from_slice(&high);
    id[8..].copy_from_slice(&low);
    id
}
