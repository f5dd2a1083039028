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

#[test]
fn placeholders_are_filled_once_and_a_value_is_never_read_for_more() {
    let launch = Launch {
        program: "{run}/host".into(),
        args: vec!["--port={port}".into(), "{system prompt}".into()],
        env: BTreeMap::from([("HOME".to_owned(), "{run}/home".to_owned())]),
        files: BTreeMap::from([("AGENTS.md".to_owned(), "{system prompt}".to_owned())]),
    };
    let prompt = "Answer on {port}, in {run}, with {braces} and a lone {";
    let filled = launch.filled(&[("{run}", "/tmp/r"), ("{port}", "4000"), ("{system prompt}", prompt)]);
    assert_eq!(filled.program, std::path::PathBuf::from("/tmp/r/host"));
    assert_eq!(filled.args, ["--port=4000", prompt]);
    assert_eq!(filled.env["HOME"], "/tmp/r/home");
    assert_eq!(filled.files["AGENTS.md"], prompt, "the prompt as written, its braces untouched");
}
