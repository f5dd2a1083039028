//! A request's body, read within a server's bounds: at most `max_body` bytes kept (the rest of a
//! larger body is read and dropped, up to [`DRAINED_AT_MOST`], so that a client still sending hears
//! the 413 rather than a broken connection), within `body_timeout` however slowly it trickles in,
//! and only while the bytes of all the bodies being read leave room: past that a body waits, so
//! that many large bodies at once slow their senders rather than fill the memory.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, HeaderMap};
use futures_util::StreamExt;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Why a body was not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BodyError {
    /// It is larger than the limit (in bytes).
    #[error("the body is larger than {0} bytes")]
    TooLarge(usize),
    /// It was not sent whole within the time (in seconds).
    #[error("the body was not sent within {0} s")]
    Timeout(u64),
    /// The connection failed while it was read.
    #[error("the body was not read whole ({0})")]
    Unreadable(String),
}

/// How much of a body over the limit is still read, and dropped; a larger one is cut off at once.
pub const DRAINED_AT_MOST: usize = 16 << 20;

/// The bodies being read, and their bounds.
#[derive(Clone)]
pub struct Bodies {
    in_flight: Arc<Semaphore>,
    capacity: usize,
    timeout: Duration,
}

/// A body read whole, holding its room among the bodies in flight until dropped.
pub struct ReadBody {
    /// Its bytes.
    pub bytes: Vec<u8>,
    _room: Option<OwnedSemaphorePermit>,
}

impl Bodies {
    /// Bodies of `in_flight` bytes at once in all, each sent within `timeout`.
    pub fn new(in_flight: usize, timeout: Duration) -> Bodies {
        let capacity = in_flight.clamp(1, u32::MAX as usize);
        Bodies { in_flight: Arc::new(Semaphore::new(capacity)), capacity, timeout }
    }

    /// The body's bytes, at most `limit` of them.
    pub async fn read(&self, headers: &HeaderMap, body: Body, limit: usize) -> Result<ReadBody, BodyError> {
        let declared = headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<usize>().ok());
        if declared.is_some_and(|length| length > DRAINED_AT_MOST) {
            return Err(BodyError::TooLarge(limit));
        }
        let seconds = self.timeout.as_secs();
        tokio::time::timeout(self.timeout, self.read_within(body, limit))
            .await
            .map_err(|_| BodyError::Timeout(seconds))?
    }

    async fn read_within(&self, body: Body, limit: usize) -> Result<ReadBody, BodyError> {
        let mut chunks = body.into_data_stream();
        let mut kept = Vec::new();
        let mut room: Option<OwnedSemaphorePermit> = None;
        let mut read = 0usize;
        while let Some(chunk) = chunks.next().await {
            let chunk = chunk.map_err(|e| BodyError::Unreadable(e.to_string()))?;
            read = read.saturating_add(chunk.len());
            if read > DRAINED_AT_MOST {
                break;
            }
            if read > limit {
                // Over the limit: the rest is only read to be dropped, and keeps no room.
                kept = Vec::new();
                room = None;
                continue;
            }
            // A chunk larger than all the room waits for all of it, never for more than there is.
            let more = chunk.len().min(self.capacity) as u32;
            // The semaphore is never closed: it lives as long as the bodies it counts.
            let permit = Arc::clone(&self.in_flight)
                .acquire_many_owned(more)
                .await
                .map_err(|_| BodyError::Unreadable("the body reader is closed".to_owned()))?;
            match room.as_mut() {
                Some(room) => room.merge(permit),
                None => room = Some(permit),
            }
            kept.extend_from_slice(&chunk);
        }
        if read > limit {
            return Err(BodyError::TooLarge(limit));
        }
        Ok(ReadBody { bytes: kept, _room: room })
    }
}
