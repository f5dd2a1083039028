//! The host lab's commands (spec 13): the real agent hosts a comparison can run as `real:NAME`
//! lanes, installed or not with their versions; what starting one runs and whether the user
//! allowed it; the answer; the host probe (`unfold hosts probe`), its runs kept in the history,
//! and its cancel. And the app as the MCP server its hosts start: `unfold-app mcp serve
//! TEMPLATE --scenario S --log L`, as the command line's, so a host started by the app needs no
//! other program. Each translates into `unfold_application::real_hosts` or `template_server`.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, PoisonError};

use tauri::ipc::Channel;
use tauri::State;
use unfold_application::host_probe::{self, ProbeOfHost, ProbeProgress};
use unfold_application::real_hosts::{HostLab, HostRunOptions, HostView};
use unfold_application::run_history::OpenRunHistory;
use unfold_application::sources::SourceReach;
use unfold_application::template_server::ServedTemplate;

use crate::command_error::CommandError;

/// The app's host lab: hosts serve the template with this very program.
pub fn lab(consents: Option<PathBuf>) -> HostLab {
    let program = std::env::current_exe().map(|path| path.display().to_string()).unwrap_or_default();
    HostLab::new(vec![program], consents)
}

/// Serves a template over stdio when the app was started as `mcp serve TEMPLATE [--scenario S]
/// [--log L]` (by a host the app started); the exit status then, else none.
pub fn serve_when_asked(args: &[OsString]) -> Option<i32> {
    let [mcp, serve, template, rest @ ..] = args else { return None };
    if mcp != "mcp" || serve != "serve" {
        return None;
    }
    let option = |name: &str| rest.windows(2).find(|pair| pair[0] == name).map(|pair| PathBuf::from(&pair[1]));
    let (scenario, log) = (option("--scenario"), option("--log"));
    // The app's host runs serve the scenario's answers: no source is started.
    let reach = SourceReach::default();
    let served = ServedTemplate {
        template: std::path::Path::new(template),
        scenario: scenario.as_deref(),
        log: log.as_deref(),
        reach: &reach,
    };
    let serving = unfold_application::template_server::serve_template_over_stdio(served, |_| {});
    match tauri::async_runtime::block_on(serving) {
        Ok(()) => Some(0),
        Err(error) => {
            eprintln!("unfold-app mcp serve: {error}");
            Some(2)
        }
    }
}

/// Every real host, whether installed, and its version.
#[tauri::command]
#[specta::specta]
pub async fn real_hosts(lab: State<'_, Arc<HostLab>>) -> Result<Vec<HostView>, CommandError> {
    let lab = Arc::clone(&lab);
    // Asking each Python for its library's version takes a moment.
    Ok(tauri::async_runtime::spawn_blocking(move || lab.hosts()).await?)
}

/// What starting the host `name` runs, one line each, when the user has not allowed it as it is
/// now; none when allowed.
#[tauri::command]
#[specta::specta]
pub async fn real_host_question(lab: State<'_, Arc<HostLab>>, name: String) -> Result<Option<String>, CommandError> {
    let prepared = lab.prepare(&name, &[])?;
    Ok((!lab.allowed(&prepared)).then(|| prepared.question()))
}

/// Allows starting the host `name` as it is defined now.
#[tauri::command]
#[specta::specta]
pub async fn allow_real_host(lab: State<'_, Arc<HostLab>>, name: String) -> Result<(), CommandError> {
    Ok(lab.allow(&lab.prepare(&name, &[])?)?)
}

/// The flag that stops the probe running now, if one is.
#[derive(Default)]
pub struct ProbeCancel(std::sync::Mutex<Option<Arc<AtomicBool>>>);

/// Probes each of the hosts `names` (`unfold hosts probe`), `repeat` runs each, one host after
/// another, each allowed before; each run's end goes to `progress`. Every run is kept in the
/// history, to open on the timeline.
#[tauri::command]
#[specta::specta]
pub async fn probe_hosts(
    lab: State<'_, Arc<HostLab>>,
    history: State<'_, Arc<OpenRunHistory>>,
    cancel: State<'_, ProbeCancel>,
    names: Vec<String>,
    repeat: u32,
    progress: Channel<ProbeProgress>,
) -> Result<Vec<ProbeOfHost>, CommandError> {
    let prepared = names.iter().map(|name| lab.prepare(name, &[])).collect::<Result<Vec<_>, _>>()?;
    let flag = Arc::new(AtomicBool::new(false));
    *cancel.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(Arc::clone(&flag));
    let options = HostRunOptions { repeat, cancel: Some(flag), ..HostRunOptions::default() };
    let (lab, history) = (Arc::clone(&lab), Arc::clone(&history));
    let probe = move || {
        let mut told = |message: ProbeProgress| {
            if let Err(error) = progress.send(message) {
                tracing::warn!(%error, "cannot send the probe's progress to the UI");
            }
        };
        tauri::async_runtime::block_on(host_probe::probe_hosts(&lab, &prepared, &options, &history, &mut told))
    };
    Ok(tauri::async_runtime::spawn_blocking(probe).await??)
}

/// Stops the probe running now after the run it is in.
#[tauri::command]
#[specta::specta]
pub async fn cancel_probe(cancel: State<'_, ProbeCancel>) -> Result<(), CommandError> {
    if let Some(flag) = cancel.0.lock().unwrap_or_else(PoisonError::into_inner).as_ref() {
        flag.store(true, Ordering::Relaxed);
    }
    Ok(())
}
