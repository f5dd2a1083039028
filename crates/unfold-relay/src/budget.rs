//! The bytes the relay keeps for its clients, counted against a bound: a [`ByteBudget`] hands out
//! [`Charge`]s that give their bytes back when dropped, so whatever holds kept data (a session's
//! tools, a queued update, an event waiting in a stream) holds its charge beside it and nothing can
//! be kept uncounted or counted twice.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A count of bytes with a bound, shared by everything charged to it.
#[derive(Debug, Clone)]
pub struct ByteBudget {
    inner: Arc<Counter>,
}

#[derive(Debug)]
struct Counter {
    used: AtomicUsize,
    limit: usize,
}

/// Bytes charged to a budget, given back when dropped.
#[derive(Debug)]
#[must_use = "the bytes are given back as soon as the charge is dropped"]
pub struct Charge {
    budget: Option<Arc<Counter>>,
    bytes: usize,
}

impl ByteBudget {
    /// A budget of `limit` bytes, none used.
    pub fn new(limit: usize) -> ByteBudget {
        ByteBudget { inner: Arc::new(Counter { used: AtomicUsize::new(0), limit }) }
    }

    /// Charges `bytes` if they fit under the bound (`allow_first`: or if nothing is charged yet,
    /// so that one item larger than the bound can still pass alone).
    pub fn try_charge(&self, bytes: usize, allow_first: bool) -> Option<Charge> {
        let limit = self.inner.limit;
        let fits = |used: usize| match used.checked_add(bytes) {
            Some(total) if total <= limit || (allow_first && used == 0) => Some(total),
            _ => None,
        };
        self.inner.used.fetch_update(Ordering::AcqRel, Ordering::Acquire, fits).ok()?;
        Some(Charge { budget: Some(Arc::clone(&self.inner)), bytes })
    }

    /// The bytes charged now.
    pub fn used(&self) -> usize {
        self.inner.used.load(Ordering::Acquire)
    }

    /// The bound.
    pub fn limit(&self) -> usize {
        self.inner.limit
    }
}

impl Charge {
    /// A charge of nothing, to no budget.
    pub fn none() -> Charge {
        Charge { budget: None, bytes: 0 }
    }

    /// How many bytes it holds.
    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

impl Drop for Charge {
    fn drop(&mut self) {
        if let Some(budget) = self.budget.take() {
            budget.used.fetch_sub(self.bytes, Ordering::AcqRel);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charges_fit_under_the_bound_and_give_their_bytes_back_when_dropped() {
        let budget = ByteBudget::new(10);
        let six = budget.try_charge(6, false).expect("6 of 10");
        assert!(budget.try_charge(5, false).is_none(), "11 of 10");
        let four = budget.try_charge(4, false).expect("10 of 10");
        assert_eq!(budget.used(), 10);
        drop(six);
        assert_eq!(budget.used(), 4);
        drop(four);
        assert!(budget.try_charge(11, false).is_none(), "larger than the bound");
        let alone = budget.try_charge(11, true).expect("alone, a large one passes");
        assert!(budget.try_charge(1, true).is_none(), "but nothing beside it");
        assert_eq!(alone.bytes(), 11);
        assert!(budget.try_charge(usize::MAX, true).is_none(), "no overflow");
        drop(alone);
        assert_eq!(budget.used(), 0);
    }
}
