//! Prints what the shared pace of a study's live requests costs each request (issue 36's goal:
//! under 0.1 ms): `wait` when no server asked to wait, alone and with 8 conversations at once on
//! one runtime, and `hold`. A plain binary: `cargo bench -p unfold-live --bench shared_pace`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use unfold_live::shared_pace::SharedPace;

const CALLS: u32 = 1_000_000;

fn per_call(took: Duration, calls: u32) -> f64 {
    took.as_nanos() as f64 / f64::from(calls)
}

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
    let pace = Arc::new(SharedPace::default());
    let alone = runtime.block_on(async {
        let started = Instant::now();
        for _ in 0..CALLS {
            pace.wait().await;
        }
        started.elapsed()
    });
    let together = runtime.block_on(async {
        let started = Instant::now();
        let tasks: Vec<_> = (0..8)
            .map(|_| {
                let pace = Arc::clone(&pace);
                tokio::spawn(async move {
                    for _ in 0..CALLS / 8 {
                        pace.wait().await;
                        tokio::task::yield_now().await;
                    }
                })
            })
            .collect();
        for task in tasks {
            task.await.unwrap();
        }
        started.elapsed()
    });
    let held = {
        let started = Instant::now();
        for _ in 0..CALLS {
            pace.hold(Duration::ZERO);
        }
        started.elapsed()
    };
    println!("shared pace, wait with nothing asked, alone:          {:8.1} ns a request", per_call(alone, CALLS));
    println!("shared pace, wait, 8 conversations at once (+ yield):  {:8.1} ns a request", per_call(together, CALLS));
    println!("shared pace, hold:                                    {:8.1} ns a request", per_call(held, CALLS));
    println!("goal: under 100,000 ns (0.1 ms) a request");
}
