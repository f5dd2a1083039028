//! Clients that stretch a server on purpose, for the tests of both of the host lab's HTTP servers:
//! bounds short enough to see them act, and a body sent a byte at a time.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use unfold_hostlab::ServerBounds;

/// Bounds short enough for a test to see them act.
pub fn short_bounds() -> ServerBounds {
    let mut bounds = ServerBounds::default();
    bounds.connections.header_timeout = Duration::from_secs(1);
    bounds.body_timeout = Duration::from_secs(2);
    bounds
}

/// `POST path` of `body` sent a byte every 100 ms (many times any bound of a test); whether all
/// of it was sent (the server never closed the connection), and what the server answered.
pub async fn trickled(address: SocketAddr, path: &str, body: &str) -> (bool, String) {
    let mut connection = tokio::net::TcpStream::connect(address).await.unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    connection.write_all(head.as_bytes()).await.unwrap();
    let (mut answers, mut sends) = connection.into_split();
    let trickling = async {
        for byte in body.as_bytes() {
            if sends.write_all(&[*byte]).await.is_err() {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        true
    };
    let reading = async {
        let mut answer = Vec::new();
        let _ = answers.read_to_end(&mut answer).await;
        String::from_utf8_lossy(&answer).into_owned()
    };
    tokio::join!(trickling, reading)
}

/// Whether the server closed `connection` (its reads end) within 20 s.
pub async fn closed_by_server(connection: &mut tokio::net::TcpStream) -> bool {
    let mut sink = [0u8; 1024];
    let reading = async {
        loop {
            match connection.read(&mut sink).await {
                Ok(0) | Err(_) => return true,
                Ok(_) => continue,
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(20), reading).await.unwrap_or(false)
}
