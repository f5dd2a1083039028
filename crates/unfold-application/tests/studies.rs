//! Studies as the app runs them: each repetition's end told with the history ids of its runs (the
//! runs the study view opens on the timeline), a cancel that keeps the repetitions that ended and
//! says so in the report, and a study kept in the data folder until it is done.

use std::sync::{Arc, Mutex};

use unfold_application::comparisons::{ComparisonRequest, Comparisons};
use unfold_application::run_history::OpenRunHistory;
use unfold_application::running_studies::{RunningStudies, StudyAsked};
use unfold_application::studies::{new_study_file, run_study, KeptStudy, StudyProgress, StudyRequest};
use unfold_engine::study::StopReason;

use crate::comparisons::context;

/// The example scenario `lookup-first` under dynamic and restart, scripted.
fn lookup_first() -> ComparisonRequest {
    ComparisonRequest::scripted(
        crate::comparisons::example("examples/task-executor.unfold.json"),
        crate::comparisons::example("examples/lookup-first.scenario.json"),
        vec!["dynamic".to_owned(), "restart".to_owned()],
    )
}

fn asked(study_id: u32, repeat: u32, aa: bool) -> StudyAsked {
    StudyAsked { study_id, comparison: lookup_first(), repeat, aa, seed: 1, max_cost_usd: None, jobs: 1 }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

#[test]
fn each_repetition_is_told_with_where_the_history_keeps_its_runs() {
    let dir = tempfile::tempdir().unwrap();
    let history = Arc::new(OpenRunHistory::at(&dir.path().join("history.sqlite3")).unwrap());
    let comparisons = Comparisons::new(context(Arc::clone(&history)));
    let studies = RunningStudies::new(None);
    let told = Mutex::new(Vec::<StudyProgress>::new());
    let finished = runtime()
        .block_on(studies.run(&comparisons, asked(1, 3, true), &|progress| told.lock().unwrap().push(progress)))
        .unwrap();
    let told = told.into_inner().unwrap();
    assert_eq!(
        told.iter().map(|p| (p.repetition, p.done, p.planned)).collect::<Vec<_>>(),
        [(1, 1, 3), (2, 2, 3), (3, 3, 3)]
    );
    assert!(finished.report.stopped.is_none());
    // Each repetition keeps its two lanes and the A/A control, the control named as such.
    for progress in &told {
        let lanes: Vec<&str> = progress.kept.iter().map(|run| run.lane.as_str()).collect();
        let mut sorted = lanes.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, ["dynamic", "dynamic (A/A)", "restart"], "{lanes:?}");
        for run in &progress.kept {
            let stored = history.get(run.history_id).unwrap();
            let lane = run.lane.trim_end_matches(" (A/A)");
            assert_eq!(stored.summary.lane.as_deref(), Some(lane), "{run:?}");
        }
    }
}

#[test]
fn a_cancelled_study_keeps_the_repetitions_that_ended_and_says_it_was_cancelled() {
    let comparisons = Arc::new(Comparisons::new(context(crate::comparisons::no_history())));
    let studies = Arc::new(RunningStudies::new(None));
    let cancel = Arc::clone(&studies);
    // Two repetitions run at once; the user cancels as the first ends: the other, under way, is
    // left out, and none starts after.
    let finished = runtime()
        .block_on(studies.run(&comparisons, StudyAsked { jobs: 2, ..asked(7, 10, false) }, &move |progress| {
            if progress.done == 1 {
                cancel.cancel(7);
            }
        }))
        .unwrap();
    let stopped = finished.report.stopped.expect("the report says it stopped");
    assert_eq!((stopped.reason, stopped.after), (StopReason::Cancelled, 1));
    assert_eq!((stopped.next_usd, stopped.max_cost_usd), (None, None));
    for lane in &finished.report.lanes {
        assert_eq!(lane.runs.len(), 1, "{}", lane.lane);
    }
    // Cancelling a study that has ended does nothing.
    studies.cancel(7);
}

#[test]
fn a_study_kept_until_done_leaves_no_file_once_done_and_a_resumable_one_if_cancelled() {
    let data = tempfile::tempdir().unwrap();
    let comparisons = Comparisons::new(context(crate::comparisons::no_history()));
    let request = |repeat| StudyRequest {
        comparison: lookup_first(),
        repeat,
        aa: false,
        seed: 1,
        max_cost_usd: None,
        shard: None,
        jobs: 1,
        stop: Default::default(),
        baseline: false,
    };
    let file = new_study_file(data.path());
    assert!(file.starts_with(data.path().join("studies")));
    runtime().block_on(run_study(&comparisons, request(2), KeptStudy::UntilDone(file.clone()), &|_| {})).unwrap();
    assert!(!file.exists(), "a finished study's file goes");

    let stopping = request(4);
    let stop = stopping.stop.clone();
    let finished = runtime()
        .block_on(run_study(&comparisons, stopping, KeptStudy::UntilDone(file.clone()), &move |_| stop.stop()))
        .unwrap();
    assert_eq!(finished.report.stopped.map(|s| s.reason), Some(StopReason::Cancelled));
    let resumed = runtime().block_on(run_study(&comparisons, request(4), KeptStudy::Resumed(file.clone()), &|_| {}));
    // The cancelled study's file is there to resume; the resumed one runs what it lacked.
    let resumed = resumed.unwrap();
    assert!(resumed.report.stopped.is_none());
    assert_eq!(resumed.report.lanes[0].runs.len(), 4);
}
