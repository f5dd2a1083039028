//! The hostile neighbours the host lab's benchmarks measure beside: connections that say nothing,
//! and clients posting bodies that are not JSON as fast as they are refused.

use std::net::SocketAddr;

/// Neighbours of one server, there until dropped.
pub struct HostileNeighbours {
    _silent: Vec<tokio::net::TcpStream>,
    flooders: Vec<tokio::task::JoinHandle<()>>,
}

impl HostileNeighbours {
    /// `silent` connections that say nothing to `address`, and `flooders` clients posting
    /// `not json` to `url` without a pause.
    pub async fn start(address: SocketAddr, url: &str, silent: usize, flooders: usize) -> HostileNeighbours {
        let mut connections = Vec::with_capacity(silent);
        for _ in 0..silent {
            connections.push(tokio::net::TcpStream::connect(address).await.expect("a connection"));
        }
        let flooders = (0..flooders)
            .map(|_| {
                let url = url.to_owned();
                tokio::spawn(async move {
                    let client = reqwest::Client::new();
                    loop {
                        let _ =
                            client.post(&url).header("content-type", "application/json").body("not json").send().await;
                    }
                })
            })
            .collect();
        HostileNeighbours { _silent: connections, flooders }
    }
}

impl Drop for HostileNeighbours {
    fn drop(&mut self) {
        for flooder in &self.flooders {
            flooder.abort();
        }
    }
}
