//! The host lab's integration tests, one binary.

mod template_server;
