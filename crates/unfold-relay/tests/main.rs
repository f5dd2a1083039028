//! The relay over real sockets: a real HTTP client and a real SSE reader against `RunningRelay`.

mod client;
mod flow;
mod hostile;
mod limits;
mod robustness;
mod runs;
