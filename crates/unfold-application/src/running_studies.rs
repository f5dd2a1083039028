//! The studies the app runs (spec 14): a study as the UI asks for it, run with its progress told
//! and kept as the command line keeps one (a live study in the data folder's `studies/` until it
//! is done, so a cancelled one can be resumed), and its cancel, by the UI's name for it.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::comparisons::{ComparisonModel, ComparisonRequest, ComparisonStop, Comparisons};
use crate::error::AppResult;
use crate::lock;
use crate::studies::{new_study_file, run_study, FinishedStudy, KeptStudy, StudyProgress, StudyRequest};

/// A study as the UI asks for it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct StudyAsked {
    /// The UI's name for it, to cancel it.
    pub study_id: u32,
    /// The comparison each repetition runs.
    pub comparison: ComparisonRequest,
    /// How many times.
    pub repeat: u32,
    /// Whether the first lane runs once more per repetition, as its own control.
    pub aa: bool,
    /// The seed of the bootstrap intervals.
    pub seed: u32,
    /// The most a live study may spend, in US dollars.
    pub max_cost_usd: Option<f64>,
    /// How many repetitions run at once.
    pub jobs: u32,
}

/// The studies under way, by the UI's name for them, and where a live one is kept.
#[derive(Debug)]
pub struct RunningStudies {
    running: Mutex<HashMap<u32, ComparisonStop>>,
    /// The data folder, whose `studies/` keeps a live study until it is done; none: not kept.
    data: Option<PathBuf>,
}

impl RunningStudies {
    /// None under way; live studies kept in `data`'s `studies/`.
    pub fn new(data: Option<PathBuf>) -> RunningStudies {
        RunningStudies { running: Mutex::default(), data }
    }

    /// Runs `asked` on `comparisons`, telling `progress` of each repetition as it ends.
    pub async fn run(
        &self,
        comparisons: &Comparisons,
        asked: StudyAsked,
        progress: &(dyn Fn(StudyProgress) + Sync),
    ) -> AppResult<FinishedStudy> {
        let stop = ComparisonStop::default();
        let live = matches!(asked.comparison.model, ComparisonModel::Live { .. });
        let kept = match (&self.data, live) {
            (Some(data), true) => KeptStudy::UntilDone(new_study_file(data)),
            _ => KeptStudy::Nowhere,
        };
        let request = StudyRequest {
            comparison: asked.comparison,
            repeat: asked.repeat,
            aa: asked.aa,
            seed: u64::from(asked.seed),
            max_cost_usd: asked.max_cost_usd,
            shard: None,
            jobs: asked.jobs,
            stop: stop.clone(),
            baseline: false,
        };
        lock(&self.running).insert(asked.study_id, stop);
        let finished = run_study(comparisons, request, kept, progress).await;
        lock(&self.running).remove(&asked.study_id);
        finished
    }

    /// Stops the study `study_id`: no repetition starts after, and those under way are left out.
    /// Nothing when it has ended.
    pub fn cancel(&self, study_id: u32) {
        if let Some(stop) = lock(&self.running).get(&study_id) {
            stop.stop();
        }
    }
}
