//! The app's logs: to stderr, and to a file in the app's log folder that rolls over daily and keeps
//! a week (`unfold.<date>.log`). The level comes from `RUST_LOG`, `info` by default. Nothing secret
//! is logged: templates hold no secrets, and commands log errors, never documents.

use std::io::IsTerminal;
use std::path::Path;

use tracing_appender::rolling::{RollingFileAppender, Rotation};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::{fmt, EnvFilter, Registry};

/// How many daily log files are kept.
const KEPT_LOG_FILES: usize = 7;

/// The subscriber: stderr always, the rolling file when `log_dir` is given and can be created
/// (if it cannot, the app still runs and says why on stderr).
pub fn subscriber(log_dir: Option<&Path>) -> impl tracing::Subscriber + Send + Sync {
    let file = log_dir.and_then(|dir| {
        // The appender lists the folder to prune old files before it makes it: a missing folder
        // would print an error at the first start.
        std::fs::create_dir_all(dir)
            .map_err(|error| eprintln!("unfold-app: cannot make the log folder {}: {error}", dir.display()))
            .ok()?;
        RollingFileAppender::builder()
            .rotation(Rotation::DAILY)
            .filename_prefix("unfold")
            .filename_suffix("log")
            .max_log_files(KEPT_LOG_FILES)
            .build(dir)
            .map_err(|error| eprintln!("unfold-app: cannot write logs to {}: {error}", dir.display()))
            .ok()
    });
    Registry::default()
        .with(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")))
        .with(fmt::layer().with_writer(std::io::stderr).with_ansi(std::io::stderr().is_terminal()))
        .with(file.map(|appender| fmt::layer().with_writer(appender).with_ansi(false)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logs_land_in_a_file_of_the_log_folder() {
        let dir = tempfile::tempdir().expect("temp dir");
        let logs = dir.path().join("logs");
        tracing::subscriber::with_default(subscriber(Some(&logs)), || {
            tracing::info!(template = "a.unfold.json", "opened");
        });
        let files: Vec<_> = std::fs::read_dir(&logs).expect("the folder is made").map(|e| e.unwrap().path()).collect();
        assert_eq!(files.len(), 1, "{files:?}");
        let name = files[0].file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.starts_with("unfold.") && name.ends_with(".log"), "{name}");
        let text = std::fs::read_to_string(&files[0]).unwrap();
        assert!(text.contains("opened") && text.contains("template=\"a.unfold.json\""), "{text}");
        assert!(!text.contains('\u{1b}'), "no colour codes in the file");
    }
}
