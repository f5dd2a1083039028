//! A server listening on this machine's loopback until it is shut down: bound to 127.0.0.1 (a
//! port of its own or any free one), served by [`serve`](crate::serve) within its limits, and
//! stopped so that, once [`Listening::shutdown`] returns, the port is free and what the server
//! held (its state, a log's handle) is dropped.

use std::net::SocketAddr;
use std::time::Duration;

use axum::Router;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::ConnectionLimits;

/// A server serving until shut down (or dropped: then it stops when it notices).
pub struct Listening {
    /// Where it listens.
    pub address: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<()>,
}

impl Listening {
    /// Serves `app` on 127.0.0.1:`port` (0: any free port) within `limits`.
    pub async fn start(port: u16, app: Router, limits: ConnectionLimits) -> std::io::Result<Listening> {
        let listener = tokio::net::TcpListener::bind((std::net::Ipv4Addr::LOCALHOST, port)).await?;
        let address = listener.local_addr()?;
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(crate::serve(listener, app, limits, stopped));
        Ok(Listening { address, stop: Some(stop), task })
    }

    /// Stops serving: every connection is closed (within the server's grace; this bounds the
    /// wait), and the port is free and the app dropped once this returns.
    pub async fn shutdown(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if tokio::time::timeout(Duration::from_secs(3), &mut self.task).await.is_err() {
            self.task.abort();
            // Awaited so that the app is dropped, and whatever it holds, before this returns.
            let _ = (&mut self.task).await;
        }
    }
}
