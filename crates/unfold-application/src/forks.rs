//! Forks (spec 15): a recorded run (one kept in the history, a lane of the app's last comparison,
//! or a lane of a comparison report's file) taken up to one of its events, changed there, and each
//! lane going on from it, as a comparison whose report names its parent. A fork of a kept run is
//! kept as its child.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use unfold_engine::fork::{Fork, ForkChange, ForkOrigin};
use unfold_engine::{ComparisonReport, Lane, RunReport};
use unfold_stores::run_history::ForkedFrom;

use crate::comparison_request::{ComparisonOutputs, ComparisonRequest, DocumentRef};
use crate::comparisons::{ComparisonModel, Comparisons, FinishedComparison, ProgressListener, Repetition};
use crate::error::{AppError, AppResult, ErrorCode};

/// The run a fork goes on from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum ForkParent {
    /// A run kept in the history, by its id.
    Kept(#[cfg_attr(feature = "specta", specta(type = f64))] i64),
    /// A lane of the comparison the app ran last, by the app's name for it.
    Comparison {
        /// The app's name for the comparison.
        run_id: u32,
        /// The lane.
        lane: Lane,
    },
    /// A lane of a comparison report's file.
    #[cfg_attr(feature = "specta", specta(skip))]
    Report {
        /// The file.
        path: PathBuf,
        /// The lane (`None`: the report's only run).
        lane: Option<String>,
    },
}

/// A fork to run.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ForkRequest {
    /// The parent.
    pub parent: ForkParent,
    /// The parent's event the fork leaves it at: the events before it are kept as recorded.
    pub at_seq: u32,
    /// What changes there.
    pub change: ForkChange,
    /// The lanes that go on from there; none: the parent's.
    pub lanes: Vec<String>,
    /// Which model answers after the event.
    pub model: ComparisonModel,
    /// The template and the scenario, when not the files the kept run names (a report's run and
    /// the app's comparison name none).
    pub documents: Option<(DocumentRef, DocumentRef)>,
    /// Whether the fork's runs are kept in the history.
    pub history: bool,
    /// The caller's name for the fork's comparison, to ask for its calls and exports afterwards.
    pub run_id: Option<u32>,
}

/// The parent as read: its run, its lane, and the documents it ran.
struct ReadParent {
    run: RunReport,
    lane: String,
    name: String,
    documents: (DocumentRef, DocumentRef),
    /// Its id in the history and the hash of the template it ran, when it is kept.
    kept: Option<(i64, String)>,
}

impl Comparisons {
    /// Runs `request`: its parent read, the fork made (a change that cannot be made is refused
    /// before anything runs), its lanes run from there and kept as the parent's children.
    pub async fn fork(&self, request: ForkRequest, listener: ProgressListener) -> AppResult<FinishedComparison> {
        let parent = self.read_parent(&request)?;
        let fork = Fork::at(&parent.run, request.at_seq, request.change.clone())
            .map_err(|why| AppError::new(ErrorCode::InvalidRequest, format!("{}: {why}", parent.name)))?;
        let lanes = if request.lanes.is_empty() { vec![parent.lane.clone()] } else { request.lanes.clone() };
        check_hosts_can_go_on(&parent, request.at_seq, &lanes)?;
        let comparison = ComparisonRequest {
            template: parent.documents.0.clone(),
            scenario: parent.documents.1.clone(),
            lanes,
            model: request.model.clone(),
            sources: Default::default(),
            relay_session: None,
            outputs: ComparisonOutputs { history: request.history, ..Default::default() },
            run_id: request.run_id,
        };
        let documents = self.resolve(&comparison)?;
        let template_name = documents
            .template_path()
            .map_or_else(|| documents.template().key.clone(), |path| path.display().to_string());
        if let Some((id, hash)) = &parent.kept {
            check_same_template(*id, hash, documents.template(), &template_name)?;
        }
        for key in &request.change.expand {
            if documents.template().section(key).is_none() {
                let message = format!("{template_name} has no section {key} to read");
                return Err(AppError::new(ErrorCode::InvalidRequest, message));
            }
        }
        let forked_from = parent.kept.as_ref().map(|&(run, _)| ForkedFrom { run, at_seq: request.at_seq });
        let repetition = Repetition {
            documents: Some(&documents),
            no_baseline: true,
            fork: Some((&fork, forked_from)),
            ..Repetition::default()
        };
        let mut finished = self.run_again(comparison, listener, repetition).await?;
        finished.report.fork = Some(ForkOrigin {
            parent: parent.name,
            lane: parent.lane,
            at_seq: request.at_seq,
            replayed_calls: fork.replayed_calls() as u32,
            changed_results: request.change.results.iter().map(|changed| changed.call_id.clone()).collect(),
            expanded: request.change.expand.clone(),
        });
        Ok(finished)
    }

    fn read_parent(&self, request: &ForkRequest) -> AppResult<ReadParent> {
        let documents = |kept: (Option<String>, Option<String>), name: &str| -> AppResult<(DocumentRef, DocumentRef)> {
            if let Some(given) = &request.documents {
                return Ok(given.clone());
            }
            match kept {
                (Some(template), Some(scenario)) => {
                    Ok((DocumentRef::File(PathBuf::from(template)), DocumentRef::File(PathBuf::from(scenario))))
                }
                (None, _) => Err(AppError::new(
                    ErrorCode::InvalidRequest,
                    format!("{name} names no template file: give it with --template"),
                )),
                (_, None) => Err(AppError::new(
                    ErrorCode::InvalidRequest,
                    format!("{name} names no scenario file: give it with --scenario"),
                )),
            }
        };
        match &request.parent {
            ForkParent::Kept(id) => {
                let stored = self.context().history.get(*id)?;
                let name = format!("run {id}");
                let summary = stored.summary;
                Ok(ReadParent {
                    lane: summary.lane.clone().unwrap_or_else(|| stored.report.lane().name().to_owned()),
                    documents: documents((summary.template_path, summary.scenario_path), &name)?,
                    run: stored.report,
                    name,
                    kept: Some((*id, summary.template_hash)),
                })
            }
            ForkParent::Comparison { run_id, lane } => {
                let (run, kept) = self.last_run(*run_id, lane)?;
                let kept = match kept {
                    Some(id) => Some((id, self.context().history.get(id)?.summary.template_hash)),
                    None => None,
                };
                let name = kept.as_ref().map_or_else(|| format!("comparison {run_id}"), |(id, _)| format!("run {id}"));
                Ok(ReadParent {
                    lane: lane.name().to_owned(),
                    documents: documents((None, None), &name)?,
                    run,
                    name,
                    kept,
                })
            }
            ForkParent::Report { path, lane } => {
                let report = read_report(path)?;
                let name = path.display().to_string();
                let run = pick_run(report, lane.as_deref(), path)?;
                Ok(ReadParent {
                    lane: run.lane().name().to_owned(),
                    documents: documents((None, None), &name)?,
                    run,
                    name,
                    kept: None,
                })
            }
        }
    }
}

/// Refuses a real host's lane from a parent that restarted before the event: a host does not
/// restart, so the attempts' answers, one after another, would not be a conversation it had.
fn check_hosts_can_go_on(parent: &ReadParent, at_seq: u32, lanes: &[String]) -> AppResult<()> {
    let Some(host) = lanes.iter().find(|lane| Lane::named(lane).real_host_name().is_some()) else {
        return Ok(());
    };
    let restarted = parent
        .run
        .events
        .iter()
        .find(|event| event.seq < at_seq && matches!(event.kind, unfold_engine::EventKind::Restart { .. }));
    match restarted {
        None => Ok(()),
        Some(restart) => Err(AppError::new(
            ErrorCode::InvalidRequest,
            format!(
                "{} restarted at event {} and a real host does not: {host} cannot go on from it at event {at_seq} \
                 (fork it at an event before {}, or fork the host from a lane that does not restart)",
                parent.name, restart.seq, restart.seq
            ),
        )),
    }
}

/// Refuses a template that is not the one kept run `id` ran (its hash `kept`): the recording would
/// not be its conversation.
fn check_same_template(id: i64, kept: &str, template: &unfold_documents::Template, name: &str) -> AppResult<()> {
    match unfold_stores::run_history::template_hash(template) == kept {
        true => Ok(()),
        false => Err(AppError::new(
            ErrorCode::InvalidRequest,
            format!("{name} changed since run {id} ran it: give the template it ran with --template"),
        )),
    }
}

fn read_report(path: &Path) -> AppResult<ComparisonReport> {
    let text = std::fs::read(path)
        .map_err(|error| AppError::new(ErrorCode::NotFound, format!("{}: {error}", path.display())))?;
    serde_json::from_slice(&text).map_err(|error| {
        AppError::new(ErrorCode::InvalidRequest, format!("{}: not a comparison report: {error}", path.display()))
    })
}

/// The run of `report` in `lane` (the baseline's too), or its only run.
fn pick_run(report: ComparisonReport, lane: Option<&str>, path: &Path) -> AppResult<RunReport> {
    let mut runs: Vec<(String, RunReport)> =
        report.runs.into_iter().map(|run| (run.lane().name().to_owned(), run)).collect();
    runs.extend(report.baseline.map(|baseline| (Lane::baseline().name().to_owned(), baseline.run)));
    let names: Vec<String> = runs.iter().map(|(name, _)| name.clone()).collect();
    let refuse = |message: String| Err(AppError::new(ErrorCode::InvalidRequest, message));
    match lane {
        Some(lane) => match runs.into_iter().find(|(name, _)| name == lane) {
            Some((_, run)) => Ok(run),
            None => refuse(format!("{} has no lane {lane}: its lanes are {}", path.display(), names.join(", "))),
        },
        None if runs.len() == 1 => Ok(runs.remove(0).1),
        None => refuse(format!("{} has several lanes: name one with --lane ({})", path.display(), names.join(", "))),
    }
}
