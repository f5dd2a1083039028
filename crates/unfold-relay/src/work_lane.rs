//! Where the CPU work of requests runs: parsing a plugin's body, checking its tools, serializing a
//! session's tools. Off the threads that serve connections (so that a session sending large bodies
//! never keeps another session's requests waiting for a thread), and at most one piece at a time
//! per core but one, so that the connections always keep a core.

use std::sync::Arc;

use tokio::sync::Semaphore;

use crate::error::RelayError;

/// The lane: a bounded number of blocking threads at work at once.
#[derive(Clone)]
pub struct WorkLane {
    permits: Arc<Semaphore>,
}

impl Default for WorkLane {
    fn default() -> WorkLane {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        WorkLane { permits: Arc::new(Semaphore::new(cores.saturating_sub(1).max(1))) }
    }
}

impl WorkLane {
    /// Runs `work` once its turn comes, on a blocking thread, and gives back what it made.
    pub async fn run<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> Result<T, RelayError> {
        let permit = Arc::clone(&self.permits)
            .acquire_owned()
            .await
            .map_err(|_| RelayError::Internal("the work lane is closed".to_owned()))?;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work()
        })
        .await
        .map_err(|e| RelayError::Internal(format!("a request's work failed ({e})")))
    }
}
