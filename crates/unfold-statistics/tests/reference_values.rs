//! Each statistic on fixed data against an independent computation: the expected values were
//! computed with Python's `statistics`, statsmodels 0.15 (`proportion_confint(method="wilson")`,
//! `mcnemar(exact=True)`), `math.comb` for pass@k and pass^k, and scipy 1.17's
//! `stats.bootstrap(method="percentile")` with 200,000 resamples for the bootstrap intervals.

use proptest::prelude::*;
use unfold_statistics::{mcnemar_exact, paired_difference, pairs_to_detect, pass_at_k, pass_hat_k, wilson95, Summary};

fn close(actual: f64, expected: f64, tolerance: f64) -> bool {
    (actual - expected).abs() <= tolerance
}

#[test]
fn a_summary_is_pythons_mean_median_sample_sd_min_and_max() {
    let summary = Summary::of(&[3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0]).unwrap();
    assert_eq!((summary.mean, summary.median, summary.min, summary.max), (3.875, 3.5, 1.0, 9.0));
    assert!(close(summary.sd, 2.748376143938713, 1e-12), "{summary:?}");
    assert_eq!(Summary::of(&[7.0]).unwrap().sd, 0.0, "one run has no spread");
    assert_eq!(Summary::of(&[]), None);
}

#[test]
fn wilson_intervals_are_statsmodels() {
    let expected = [
        ((18, 20), (0.6989663547715127, 0.9721335187862318)),
        ((17, 20), (0.639581135259243, 0.9476312541037833)),
        ((0, 10), (0.0, 0.27753279986288926)),
        ((10, 10), (0.7224672001371106, 1.0)),
        ((1, 3), (0.06149194472039626, 0.7923403991979523)),
        ((45, 50), (0.7863976856252034, 0.9565242350681095)),
    ];
    for ((successes, n), (low, high)) in expected {
        let (lo, hi) = wilson95(successes, n).unwrap();
        assert!(close(lo, low, 1e-9) && close(hi, high, 1e-9), "{successes}/{n}: [{lo}, {hi}]");
    }
    assert_eq!(wilson95(0, 0), None, "no runs, no interval");
}

#[test]
fn mcnemars_exact_test_is_statsmodels() {
    let expected =
        [((1, 4), 0.375), ((0, 5), 0.0625), ((3, 3), 1.0), ((2, 9), 0.0654296875), ((12, 30), 0.007915897334896727)];
    for ((a_only, b_only), p) in expected {
        assert!(close(mcnemar_exact(a_only, b_only), p, 1e-12), "{a_only} against {b_only}");
        assert!(close(mcnemar_exact(b_only, a_only), p, 1e-12), "two-sided: the order does not matter");
    }
    assert_eq!(mcnemar_exact(0, 0), 1.0, "no discordant pair shows no difference");
}

#[test]
fn pass_at_k_and_pass_hat_k_are_the_combinatorial_ratios() {
    let expected = [
        ((10, 3, 1), (0.3, 0.3)),
        ((10, 3, 2), (0.5333333333333333, 0.06666666666666667)),
        ((10, 3, 5), (0.9166666666666666, 0.0)),
        ((20, 17, 3), (0.9991228070175439, 0.5964912280701754)),
        ((5, 5, 5), (1.0, 1.0)),
        ((5, 0, 1), (0.0, 0.0)),
    ];
    for ((n, c, k), (at, hat)) in expected {
        assert!(close(pass_at_k(n, c, k).unwrap(), at, 1e-12), "pass@{k} of {c}/{n}");
        assert!(close(pass_hat_k(n, c, k).unwrap(), hat, 1e-12), "pass^{k} of {c}/{n}");
    }
    assert_eq!(pass_at_k(3, 1, 4), None, "k beyond the runs there are");
}

/// Prompt tokens of 20 pairs: lane a, then lane b.
const A: [f64; 20] = [
    1210.0, 1185.0, 1302.0, 1250.0, 1199.0, 1275.0, 1320.0, 1188.0, 1240.0, 1262.0, 1231.0, 1290.0, 1205.0, 1248.0,
    1281.0, 1222.0, 1267.0, 1301.0, 1193.0, 1256.0,
];
const B: [f64; 20] = [
    1100.0, 1120.0, 1150.0, 1098.0, 1131.0, 1160.0, 1175.0, 1102.0, 1118.0, 1149.0, 1122.0, 1170.0, 1090.0, 1137.0,
    1155.0, 1111.0, 1146.0, 1180.0, 1085.0, 1140.0,
];

#[test]
fn the_paired_bootstrap_interval_is_scipys_within_its_resampling_error() {
    let difference = paired_difference(&A, &B, 7).unwrap();
    assert!(close(difference.mean_diff, 114.3, 1e-9));
    assert!(close(difference.relative.unwrap(), 0.10097619152789439, 1e-12));
    // scipy: [104.35, 123.65], standard error 4.91; 2,000 resamples put a percentile within a
    // fifth of that.
    let (lo, hi) = difference.ci95;
    assert!(close(lo, 104.35, 1.0) && close(hi, 123.65, 1.0), "[{lo}, {hi}]");
    let (lo, hi) = difference.relative_ci95.unwrap();
    assert!(close(lo, 0.09245291133298875, 0.001) && close(hi, 0.10901495401822174, 0.001), "[{lo}, {hi}]");
    assert_eq!(paired_difference(&A, &B, 7), Some(difference), "one seed, one interval");
    assert_ne!(paired_difference(&A, &B, 8).unwrap().ci95, difference.ci95, "the seed draws the resamples");
}

#[test]
fn pairs_that_never_differ_have_a_point_interval_and_unpaired_lists_none() {
    let same = paired_difference(&[5.0, 7.0, 9.0], &[4.0, 6.0, 8.0], 1).unwrap();
    assert_eq!((same.mean_diff, same.ci95), (1.0, (1.0, 1.0)));
    assert_eq!(paired_difference(&[1.0], &[1.0, 2.0], 1), None);
    assert_eq!(paired_difference(&[], &[], 1), None);
    assert_eq!(paired_difference(&[1.0, 2.0], &[0.0, 0.0], 1).unwrap().relative, None, "no relative to nothing");
}

#[test]
fn the_pairs_to_detect_a_difference_grow_with_discordance_and_shrink_with_the_difference() {
    // Connor (1987): ψ = 0.2, δ = 0.1 at α = 0.05 and 80 % power needs 155 pairs.
    assert_eq!(pairs_to_detect(0.2, 0.1), Some(155));
    assert!(pairs_to_detect(0.4, 0.1) > pairs_to_detect(0.2, 0.1));
    assert!(pairs_to_detect(0.2, 0.2) < pairs_to_detect(0.2, 0.1));
    assert_eq!(pairs_to_detect(0.0, 0.1), pairs_to_detect(0.1, 0.1), "a difference needs its own discordance");
    assert_eq!(pairs_to_detect(0.2, 0.0), None);
}

#[test]
fn a_wilson_interval_of_every_run_or_none_reaches_one_or_zero_exactly() {
    // Rounding once put 443/443's upper bound at 1 − 2e-16, below the rate it is an interval of.
    for n in [1, 20, 443, 10_000] {
        assert_eq!(wilson95(n, n).unwrap().1, 1.0, "{n}/{n}");
        assert_eq!(wilson95(0, n).unwrap().0, 0.0, "0/{n}");
    }
}

proptest! {
    // Each case resamples 2,000 times: a few dozen cases say enough.
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn a_wilson_interval_holds_its_rate_within_zero_and_one(n in 1u64..500, share in 0.0f64..=1.0) {
        let successes = (n as f64 * share).round() as u64;
        let (lo, hi) = wilson95(successes, n).unwrap();
        let rate = successes as f64 / n as f64;
        prop_assert!(0.0 <= lo && lo <= rate && rate <= hi && hi <= 1.0, "{successes}/{n}: [{lo}, {hi}]");
    }

    #[test]
    fn a_bootstrap_interval_holds_the_mean_difference(pairs in prop::collection::vec((0.0f64..1e4, 0.0f64..1e4), 1..40), seed in any::<u64>()) {
        let (a, b): (Vec<f64>, Vec<f64>) = pairs.into_iter().unzip();
        let difference = paired_difference(&a, &b, seed).unwrap();
        let (lo, hi) = difference.ci95;
        prop_assert!(lo <= hi);
        let low = a.iter().zip(&b).map(|(x, y)| x - y).fold(f64::INFINITY, f64::min);
        let high = a.iter().zip(&b).map(|(x, y)| x - y).fold(f64::NEG_INFINITY, f64::max);
        prop_assert!(low - 1e-9 <= lo && hi <= high + 1e-9, "an interval within the pairs' own differences");
    }
}
