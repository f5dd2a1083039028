//! The runtime a command's asynchronous work (runs, comparisons) runs on: one thread, made when a
//! command needs it.

use std::future::Future;

use unfold_application::AppResult;
use unfold_documents::Error;

/// Runs `work` to its end on a new single-threaded runtime.
pub fn block_on<F: Future>(work: F) -> AppResult<F::Output> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|source| Error::Io {
        path: "tokio runtime".into(),
        action: "cannot start",
        source,
    })?;
    Ok(runtime.block_on(work))
}
