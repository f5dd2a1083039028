//! The statistics a study reports (spec 14), on plain numbers: a metric's summary, a success
//! rate's Wilson interval, pass@k and pass^k, the paired difference of two lanes with a seeded
//! bootstrap interval, McNemar's exact test, and how many pairs a difference would need.
//!
//! The distributions and order statistics come from `statrs`; the resamples from ChaCha8, seeded,
//! so one seed gives one interval on every machine. Nothing here knows lanes or runs: the
//! engine's study tells which numbers to give.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use statrs::distribution::{Binomial, ContinuousCDF, DiscreteCDF, Normal};
use statrs::statistics::{Data, Distribution, Max, Median, Min, OrderStatistics};

/// How many times a bootstrap resamples the pairs (spec 14 asks for at least 2,000).
pub const RESAMPLES: usize = 2_000;

/// A metric over a lane's runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    /// The mean.
    pub mean: f64,
    /// The median (the mean of the two middle values for an even count).
    pub median: f64,
    /// The sample standard deviation (n − 1); 0 for one value.
    pub sd: f64,
    /// The least value.
    pub min: f64,
    /// The greatest value.
    pub max: f64,
}

impl Summary {
    /// The summary of `values`; none when there are none.
    pub fn of(values: &[f64]) -> Option<Summary> {
        if values.is_empty() {
            return None;
        }
        let data = Data::new(values.to_vec());
        let mean = data.mean()?;
        let sd = if values.len() == 1 { 0.0 } else { data.std_dev()? };
        Some(Summary { mean, median: data.median(), sd, min: data.min(), max: data.max() })
    }
}

/// The two-sided 95 % quantile of the standard normal distribution (1.959964…).
fn z(confidence: f64) -> f64 {
    let normal = Normal::standard();
    normal.inverse_cdf(1.0 - (1.0 - confidence) / 2.0)
}

/// The Wilson score interval at 95 % of `successes` out of `n`: unlike the normal approximation
/// it stays within [0, 1] and means something at 0 or n successes. None when `n` is 0.
pub fn wilson95(successes: u64, n: u64) -> Option<(f64, f64)> {
    if n == 0 || successes > n {
        return None;
    }
    let (n, z) = (n as f64, z(0.95));
    let p = successes as f64 / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    // The interval always holds the rate: rounding must not put the bound of 0/n or n/n a hair
    // inside it (1 − 2e-16 for 443/443).
    Some(((centre - half).clamp(0.0, p), (centre + half).clamp(p, 1.0)))
}

/// pass@k: the chance that at least one of `k` runs drawn without replacement from `n`, of which
/// `c` succeeded, succeeds (the unbiased estimator of Chen et al., 2021). None when `k` is 0 or
/// more than `n`.
pub fn pass_at_k(n: u64, c: u64, k: u64) -> Option<f64> {
    if k == 0 || k > n || c > n {
        return None;
    }
    if n - c < k {
        return Some(1.0);
    }
    // 1 − C(n−c, k) / C(n, k), as a product that never overflows.
    let all_fail: f64 = (n - c + 1..=n).map(|i| 1.0 - k as f64 / i as f64).product();
    Some(1.0 - all_fail)
}

/// pass^k: the chance that all of `k` runs drawn without replacement from `n`, of which `c`
/// succeeded, succeed (C(c, k) / C(n, k); τ-bench's reliability measure). None when `k` is 0 or
/// more than `n`.
pub fn pass_hat_k(n: u64, c: u64, k: u64) -> Option<f64> {
    if k == 0 || k > n || c > n {
        return None;
    }
    Some((0..k).map(|i| c.saturating_sub(i) as f64 / (n - i) as f64).product())
}

/// The paired difference of a metric between two lanes, `a` against `b`, over the same pairs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairedDifference {
    /// The mean of a − b.
    pub mean_diff: f64,
    /// The 95 % percentile bootstrap interval of `mean_diff`.
    pub ci95: (f64, f64),
    /// mean(a) / mean(b) − 1; none when b's mean is 0.
    pub relative: Option<f64>,
    /// The 95 % percentile bootstrap interval of `relative`; none when a resample's b mean is 0.
    pub relative_ci95: Option<(f64, f64)>,
}

/// The difference of `a` and `b`, paired by position (pair i is `a[i]` and `b[i]`), with
/// intervals from [`RESAMPLES`] resamples of the pairs drawn with `seed`. None when the two
/// differ in length or have no pair.
pub fn paired_difference(a: &[f64], b: &[f64], seed: u64) -> Option<PairedDifference> {
    if a.len() != b.len() || a.is_empty() {
        return None;
    }
    let n = a.len();
    let (sum_a, sum_b) = (a.iter().sum::<f64>(), b.iter().sum::<f64>());
    let mean_diff = (sum_a - sum_b) / n as f64;
    let relative = (sum_b != 0.0).then(|| sum_a / sum_b - 1.0);
    // Every resample of pairs that never vary is the pairs themselves (a scripted study).
    if a.iter().all(|x| *x == a[0]) && b.iter().all(|y| *y == b[0]) {
        let relative_ci95 = relative.map(|r| (r, r));
        return Some(PairedDifference { mean_diff, ci95: (mean_diff, mean_diff), relative, relative_ci95 });
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut diffs = Vec::with_capacity(RESAMPLES);
    let mut relatives = Vec::with_capacity(RESAMPLES);
    for _ in 0..RESAMPLES {
        let (mut resampled_a, mut resampled_b) = (0.0, 0.0);
        for _ in 0..n {
            let i = rng.gen_range(0..n);
            resampled_a += a[i];
            resampled_b += b[i];
        }
        diffs.push((resampled_a - resampled_b) / n as f64);
        relatives.push(resampled_a / resampled_b - 1.0);
    }
    let relative_ci95 = if relatives.iter().all(|r| r.is_finite()) { Some(interval95(relatives)) } else { None };
    Some(PairedDifference { mean_diff, ci95: interval95(diffs), relative, relative_ci95: relative.and(relative_ci95) })
}

/// The 2.5th and 97.5th percentiles of `values`.
fn interval95(values: Vec<f64>) -> (f64, f64) {
    let mut data = Data::new(values);
    (data.quantile(0.025), data.quantile(0.975))
}

/// McNemar's exact test: the two-sided p-value of `a_only` runs where only a succeeded against
/// `b_only` where only b did, under the hypothesis that either is as likely (a binomial test at
/// ½ on the discordant pairs). 1 when no pair is discordant.
pub fn mcnemar_exact(a_only: u64, b_only: u64) -> f64 {
    let n = a_only + b_only;
    if n == 0 {
        return 1.0;
    }
    let binomial = Binomial::new(0.5, n).expect("½ is a probability");
    (2.0 * binomial.cdf(a_only.min(b_only))).min(1.0)
}

/// About how many pairs McNemar's test needs to detect a difference of `difference` in success
/// rate (0.10: ten points) with 80 % power at the 5 % level, when `discordant` of the pairs
/// disagree (Connor, 1987). A difference needs at least as many discordant pairs as itself, so a
/// smaller observed discordance is taken as `difference`. None outside (0, 1).
pub fn pairs_to_detect(discordant: f64, difference: f64) -> Option<u64> {
    let within = |low: f64, value: f64, high: f64| low < value && value < high;
    if !within(0.0, difference, 1.0) || !(0.0..=1.0).contains(&discordant) {
        return None;
    }
    let psi = discordant.max(difference);
    let (z_alpha, z_beta) = (z(0.95), Normal::standard().inverse_cdf(0.8));
    let root = z_alpha * psi.sqrt() + z_beta * (psi - difference * difference).sqrt();
    Some((root * root / (difference * difference)).ceil() as u64)
}
