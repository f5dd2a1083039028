//! One provider's pace, shared by every conversation a study runs at once against it (spec 14's
//! limiter): when the server asks one conversation to wait (429 or 503 with `Retry-After`), every
//! conversation sent to it waits until then, instead of each learning it from a refusal of its own.

use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

/// When the provider may be sent the next request.
#[derive(Debug, Default)]
pub struct SharedPace {
    not_before: Mutex<Option<Instant>>,
}

impl SharedPace {
    /// Returns once the provider may be sent a request: at once unless a server asked to wait.
    pub async fn wait(&self) {
        loop {
            let not_before = *self.not_before.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            match not_before {
                Some(when) if when > Instant::now() => tokio::time::sleep_until(when).await,
                _ => return,
            }
        }
    }

    /// A server asked to wait `delay` from now: no request goes before then (a later wait asked
    /// earlier stands).
    pub fn hold(&self, delay: Duration) {
        let until = Instant::now() + delay;
        let mut not_before = self.not_before.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if not_before.is_none_or(|when| when < until) {
            *not_before = Some(until);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_wait_one_server_asked_for_holds_every_request_until_then() {
        let pace = SharedPace::default();
        let started = Instant::now();
        pace.wait().await;
        assert_eq!(started.elapsed(), Duration::ZERO, "nothing asked: no wait");
        pace.hold(Duration::from_secs(3));
        pace.hold(Duration::from_secs(1));
        pace.wait().await;
        assert_eq!(started.elapsed(), Duration::from_secs(3), "the longest wait asked stands");
        pace.wait().await;
        assert_eq!(started.elapsed(), Duration::from_secs(3), "once passed, it holds no one");
    }
}
