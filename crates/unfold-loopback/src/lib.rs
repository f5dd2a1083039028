//! Unfold's HTTP servers on this machine's loopback (the plugin relay; the host lab's endpoints)
//! share what keeps them safe from whatever else runs on the machine, web pages included: which
//! requests are admitted at all ([`admission`]: a loopback `Host` against DNS rebinding, an
//! `Origin` only from pages the user allowed), connections that no client can hold open, stall or
//! trickle into exhausting the server ([`connections`]), and request bodies read within a size, a
//! time and a budget of bytes in flight ([`bodies`]); and a server bound to a port until it is shut
//! down ([`listening`]). Each server answers a refusal in its own
//! words.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod admission;
pub mod bodies;
pub mod connections;
pub mod listening;

pub use admission::{AllowedOrigins, Refusal};
pub use bodies::{Bodies, BodyError, ReadBody};
pub use connections::{serve, ConnectionLimits};
pub use listening::Listening;
