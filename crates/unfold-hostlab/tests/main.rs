//! The host lab's integration tests, one binary.

mod host_process;
mod host_requests;
mod model_endpoint;
mod recording;
mod scripted_endpoint;
mod slow_clients;
mod template_server;
