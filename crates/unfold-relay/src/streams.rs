//! The relay's event streams: a session's SSE streams and the in-process observers (the app's live
//! log). An event is serialized once and shared by every stream that carries it; while it waits for
//! its client it is charged to the stream's own bound and to the relay's total, and the charge is
//! given back the moment the client's connection takes it. A stream whose client does not keep up
//! is refused the next event rather than keeping it: the session then closes it (its client
//! reconnects), an observer only misses it.

use std::sync::Arc;

use tokio::sync::mpsc;

use crate::budget::{ByteBudget, Charge};

/// An event as streams carry it: its SSE name and its JSON data, as text shared between streams.
#[derive(Debug, Clone, PartialEq)]
pub struct SharedEvent {
    /// `tool-availability-update` or `tool-request`.
    pub name: &'static str,
    /// The event's data, JSON text.
    pub data: Arc<str>,
}

/// Why a stream did not take an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// Its client is gone.
    Closed,
    /// Its client has too many bytes waiting already, or the relay keeps too many in all.
    TooSlow,
}

struct Waiting<T> {
    item: T,
    _stream: Charge,
    _total: Charge,
}

/// The sending side of a stream of `T`, each item counted in bytes until it is taken.
pub struct CountedSender<T> {
    sender: mpsc::UnboundedSender<Waiting<T>>,
    waiting: ByteBudget,
    total: ByteBudget,
}

/// The receiving side: each item's bytes are given back as it is taken.
pub struct CountedReceiver<T> {
    receiver: mpsc::UnboundedReceiver<Waiting<T>>,
}

/// A stream whose items may keep `stream_bytes` waiting (or one item, whatever its size), charged
/// also to `total`.
pub fn counted_channel<T>(stream_bytes: usize, total: &ByteBudget) -> (CountedSender<T>, CountedReceiver<T>) {
    let (sender, receiver) = mpsc::unbounded_channel();
    let sender = CountedSender { sender, waiting: ByteBudget::new(stream_bytes), total: total.clone() };
    (sender, CountedReceiver { receiver })
}

impl<T> CountedSender<T> {
    /// Sends `item`, which keeps `bytes`, unless the client is gone or has too much waiting.
    pub fn send(&self, item: T, bytes: usize) -> Result<(), Refused> {
        if self.sender.is_closed() {
            return Err(Refused::Closed);
        }
        let stream = self.waiting.try_charge(bytes, true).ok_or(Refused::TooSlow)?;
        let total = self.total.try_charge(bytes, false).ok_or(Refused::TooSlow)?;
        self.sender.send(Waiting { item, _stream: stream, _total: total }).map_err(|_| Refused::Closed)
    }

    /// Whether its client is gone.
    pub fn is_closed(&self) -> bool {
        self.sender.is_closed()
    }
}

impl<T> CountedReceiver<T> {
    /// The next item, once there is one; `None` once the sender is gone and everything was taken.
    pub async fn recv(&mut self) -> Option<T> {
        self.receiver.recv().await.map(|waiting| waiting.item)
    }

    /// The next item if one is waiting now.
    pub fn try_recv(&mut self) -> Option<T> {
        self.receiver.try_recv().ok().map(|waiting| waiting.item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_keeps_at_most_its_bytes_waiting_and_gives_them_back_as_they_are_taken() {
        let total = ByteBudget::new(1000);
        let (sender, mut receiver) = counted_channel::<u32>(10, &total);
        assert_eq!(sender.send(1, 50), Ok(()), "one item passes alone, whatever its size");
        assert_eq!(sender.send(2, 1), Err(Refused::TooSlow), "but nothing beside it");
        assert_eq!(total.used(), 50);
        assert_eq!(receiver.try_recv(), Some(1));
        assert_eq!(total.used(), 0, "taken: given back");
        assert_eq!((sender.send(3, 6), sender.send(4, 4), sender.send(5, 1)), (Ok(()), Ok(()), Err(Refused::TooSlow)));
        drop(receiver);
        assert_eq!(sender.send(6, 1), Err(Refused::Closed));
        assert_eq!(total.used(), 0, "a receiver dropped gives back what waited in it");
    }

    #[test]
    fn the_relays_total_bounds_every_stream_together() {
        let total = ByteBudget::new(10);
        let (first, _a) = counted_channel::<()>(100, &total);
        let (second, _b) = counted_channel::<()>(100, &total);
        assert_eq!(first.send((), 8), Ok(()));
        assert_eq!(second.send((), 8), Err(Refused::TooSlow));
        assert_eq!(second.send((), 2), Ok(()));
    }
}
