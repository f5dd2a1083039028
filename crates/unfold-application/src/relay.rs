//! The plugin relay (spec 9) as `unfold relay` serves it: on this machine only, until the caller's
//! stop comes, every stream closed and the port free when it returns.

use std::future::Future;
use std::net::SocketAddr;

use unfold_relay::{RelayLimits, RunningRelay};

use crate::error::{AppError, AppResult, ErrorCode};

pub use unfold_relay::DEFAULT_PORT;

/// Serves the relay on 127.0.0.1:`port` (0: a free one), tells `listening` where, and stops when
/// `stop` completes.
pub async fn serve_relay(
    port: u16,
    listening: impl FnOnce(SocketAddr),
    stop: impl Future<Output = ()>,
) -> AppResult<()> {
    let relay = RunningRelay::start(port, RelayLimits::default()).await.map_err(|error| {
        AppError::new(ErrorCode::Unavailable, format!("the relay cannot listen on 127.0.0.1:{port}: {error}"))
    })?;
    listening(relay.address);
    stop.await;
    relay.shutdown().await;
    Ok(())
}
