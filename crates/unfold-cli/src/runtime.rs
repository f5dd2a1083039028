//! The runtime a command's asynchronous work runs on, made when a command needs it: one thread for
//! runs and comparisons; a thread per core for a server (`unfold relay`), whose clients must not
//! wait for one another.

use std::future::Future;

use unfold_application::AppResult;
use unfold_documents::Error;

/// Runs `work` to its end on a new single-threaded runtime.
pub fn block_on<F: Future>(work: F) -> AppResult<F::Output> {
    run_on(tokio::runtime::Builder::new_current_thread(), work)
}

/// Runs `work` to its end on a new runtime with a thread per core.
pub fn block_on_every_core<F: Future>(work: F) -> AppResult<F::Output> {
    run_on(tokio::runtime::Builder::new_multi_thread(), work)
}

fn run_on<F: Future>(mut builder: tokio::runtime::Builder, work: F) -> AppResult<F::Output> {
    let runtime = builder.enable_all().build().map_err(|source| Error::Io {
        path: "tokio runtime".into(),
        action: "cannot start",
        source,
    })?;
    Ok(runtime.block_on(work))
}
