//! A study told as statistics: per-lane summaries, pairs by repetition, verdicts in words, the
//! A/A control, and the rotation of the lanes.

use insta::assert_snapshot;
use unfold_engine::study::{rotated, CacheFairness, Study, StudyOf, StudyRun};
use unfold_engine::{Counters, RunStatus};

/// Prompt tokens of 20 repetitions of two lanes (the statistics crate's reference data).
const RESTART: [u64; 20] = [
    1210, 1185, 1302, 1250, 1199, 1275, 1320, 1188, 1240, 1262, 1231, 1290, 1205, 1248, 1281, 1222, 1267, 1301, 1193,
    1256,
];
const DYNAMIC: [u64; 20] = [
    1100, 1120, 1150, 1098, 1131, 1160, 1175, 1102, 1118, 1149, 1122, 1170, 1090, 1137, 1155, 1111, 1146, 1180, 1085,
    1140,
];

fn runs(prompt_tokens: &[u64], failed: &[u32]) -> Vec<StudyRun> {
    let run = |(i, tokens): (usize, &u64)| {
        let repetition = i as u32 + 1;
        let status = if failed.contains(&repetition) { RunStatus::TurnLimit } else { RunStatus::Completed };
        let counters =
            Counters { model_calls: 4, prompt_tokens: *tokens, completion_tokens: 40, ..Counters::default() };
        StudyRun { repetition, status, counters, cost_usd: None, cached_tokens: 0, wall_ms: 900 + i as u64 }
    };
    prompt_tokens.iter().enumerate().map(run).collect()
}

fn study(aa: Option<Vec<StudyRun>>) -> Study {
    let lanes = vec!["dynamic".to_owned(), "restart".to_owned()];
    let of = StudyOf {
        template: "coding-agent".into(),
        scenario: "fix-test".into(),
        repeat: 20,
        cache_fairness: CacheFairness::Nonce,
        seed: 7,
        order: (1..=20).map(|r| rotated(&lanes, r)).collect(),
    };
    Study {
        of,
        lanes: vec![("dynamic".into(), runs(&DYNAMIC, &[3, 9, 15])), ("restart".into(), runs(&RESTART, &[3, 11]))],
        aa,
        stopped: None,
    }
}

#[test]
fn each_lane_is_summarized_and_each_pair_compared_by_repetition() {
    let report = study(None).report();
    assert_eq!((report.kind.as_str(), report.lanes.len(), report.pairs.len()), ("unfold.study", 2, 1));
    let dynamic = &report.lanes[0].summary;
    assert_eq!((dynamic.success.count, dynamic.success.n), (17, 20));
    let [lo, hi] = dynamic.success.wilson95.unwrap();
    assert!((lo - 0.639581135259243).abs() < 1e-9 && (hi - 0.9476312541037833).abs() < 1e-9);
    assert_eq!(dynamic.metrics["model_calls"].sd, 0.0);
    assert!(!dynamic.metrics.contains_key("cost_usd"), "nothing was priced");
    assert_eq!(dynamic.pass_at_k.keys().collect::<Vec<_>>(), ["1", "2", "3", "5", "10", "20"]);
    let pair = &report.pairs[0];
    assert_eq!((pair.a.as_str(), pair.b.as_str()), ("restart", "dynamic"));
    assert!((pair.metrics["prompt_tokens"].mean_diff - 114.3).abs() < 1e-9);
    // Only restart succeeded at 9 and 15; only dynamic at 11.
    assert_eq!(pair.success.discordant, [2, 1]);
    assert_snapshot!(pair.verdict, @"restart uses 10.1 % more prompt tokens than dynamic [+9.2 %, +10.9 %]; success 18/20 against 17/20: no difference shown; about 116 pairs would detect 10 points");
    assert_eq!(study(None).report(), report, "one seed, one report");
}

#[test]
fn a_difference_no_larger_than_the_aa_control_is_called_noise() {
    // The control ran the dynamic lane again and came out as far from it as restart is.
    let control = runs(&RESTART, &[]);
    let report = study(Some(control)).report();
    let aa = report.aa.as_ref().unwrap();
    assert_eq!((aa.a.as_str(), aa.b.as_str()), ("dynamic (A/A)", "dynamic"));
    assert!(report.pairs[0].verdict.contains("no more than the A/A noise"), "{}", report.pairs[0].verdict);
}

#[test]
fn the_lanes_take_turns_at_running_first() {
    let lanes: Vec<String> = ["a", "b", "c"].map(str::to_owned).to_vec();
    let firsts: Vec<String> = (1..=6).map(|r| rotated(&lanes, r)[0].clone()).collect();
    assert_eq!(firsts, ["a", "b", "c", "a", "b", "c"]);
    assert_eq!(rotated(&lanes, 2), ["b", "c", "a"]);
}

#[test]
fn a_pair_counts_only_the_repetitions_both_lanes_ran() {
    let mut partial = study(None);
    partial.lanes[1].1.truncate(5);
    let report = partial.report();
    let pair = &report.pairs[0];
    let restart_mean = RESTART[..5].iter().sum::<u64>() as f64 / 5.0;
    let dynamic_mean = DYNAMIC[..5].iter().sum::<u64>() as f64 / 5.0;
    assert!((pair.metrics["prompt_tokens"].mean_diff - (restart_mean - dynamic_mean)).abs() < 1e-9);
}
