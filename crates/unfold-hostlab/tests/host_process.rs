//! A host's process run to its end: cancelled, it is stopped with everything it started.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use unfold_hostlab::host_process::{run_to_end, Ended};
use unfold_hostlab::hosts::Launch;
use unfold_test_support::process_running;

#[test]
fn a_cancelled_run_stops_the_host_and_what_it_started() {
    let folder = tempfile::tempdir().unwrap();
    let marker = "sleep 93117";
    let launch = Launch {
        program: "sh".into(),
        args: vec!["-c".into(), format!("{marker} & {marker}")],
        env: BTreeMap::from([("PATH".to_owned(), std::env::var("PATH").unwrap_or_default())]),
        files: BTreeMap::new(),
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let outcome = runtime.block_on(async {
        let flag = Arc::clone(&cancel);
        // Set once the host has started; the run would otherwise last the whole timeout.
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(300)).await;
            flag.store(true, Ordering::Relaxed);
        });
        run_to_end(&launch, folder.path(), Duration::from_secs(600), Some(&cancel)).await.unwrap()
    });
    assert_eq!(outcome.ended, Ended::Cancelled);
    assert_eq!(outcome.ended.to_string(), "was stopped: the run was cancelled");
    assert!(!process_running(marker), "the host's whole group is stopped");
}
