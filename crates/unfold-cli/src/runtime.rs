//! The runtime a command's asynchronous work runs on, made when a command needs it: one thread for
//! runs and comparisons, and the work's end when the user interrupts it; a thread per core for a
//! server (`unfold relay`), whose clients must not wait for one another. A tool source runs in a
//! process group of its own, out of reach of the terminal's Ctrl+C, so the work is dropped on
//! Ctrl+C or SIGTERM rather than the process dying with it: dropping it kills the sources' groups.

use std::future::Future;

use tokio::signal::unix::{signal, Signal, SignalKind};

use unfold_application::{AppError, AppResult, ErrorCode};
use unfold_documents::Error;

/// Runs `work` on a new single-threaded runtime until it ends, or until the user interrupts it
/// (Ctrl+C, SIGTERM): then the work is dropped, with whatever it started, and the command fails
/// as cancelled.
pub fn block_on<F: Future>(work: F) -> AppResult<F::Output> {
    runtime(tokio::runtime::Builder::new_current_thread())?.block_on(async {
        // Listening before the work starts, so no signal falls in between.
        let signals = Signals::listen();
        tokio::select! {
            output = work => Ok(output),
            signal = signals.first() => Err(AppError::new(ErrorCode::Cancelled, format!("interrupted by {signal}"))),
        }
    })
}

/// Runs `work` to its end on a new runtime with a thread per core: for a server that stops on
/// Ctrl+C or SIGTERM itself ([`Signals`]; the relay).
pub fn block_on_every_core<F: Future>(work: F) -> AppResult<F::Output> {
    Ok(runtime(tokio::runtime::Builder::new_multi_thread())?.block_on(work))
}

fn runtime(mut builder: tokio::runtime::Builder) -> AppResult<tokio::runtime::Runtime> {
    builder
        .enable_all()
        .build()
        .map_err(|source| AppError::from(Error::Io { path: "tokio runtime".into(), action: "cannot start", source }))
}

/// The signals that interrupt a command (Ctrl+C, SIGTERM), listened for (none if they cannot be).
pub struct Signals(Option<(Signal, Signal)>);

impl Signals {
    /// Starts listening; in a runtime.
    pub fn listen() -> Signals {
        Signals(signal(SignalKind::interrupt()).ok().zip(signal(SignalKind::terminate()).ok()))
    }

    /// The name of the first to arrive; never, if none is listened for.
    pub async fn first(self) -> &'static str {
        let Some((mut interrupt, mut terminate)) = self.0 else {
            return std::future::pending().await;
        };
        tokio::select! {
            _ = interrupt.recv() => "Ctrl+C",
            _ = terminate.recv() => "SIGTERM",
        }
    }
}
