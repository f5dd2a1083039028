//! The prompt cache (spec 10) on the bundled example: where each lane's shared prompt start
//! breaks, and what a cache would serve and cost under OpenAI's and Anthropic's rules, worked by
//! hand from the calls' own token counts.

use unfold_documents::prices::{CacheRules, CacheStyle, ModelPrice, Pricing};
use unfold_documents::Scenario;
use unfold_engine::prompt_prefix::{PrefixBreak, PromptPrefix};
use unfold_engine::{AdapterKind, EventKind, RunReport};
use unfold_test_support::{load_template, repo};

fn lookup_first() -> Vec<RunReport> {
    let template = load_template("examples/task-executor.unfold.json");
    let scenario = Scenario::load(&repo("examples/lookup-first.scenario.json")).unwrap();
    let report = crate::scripted_report(&template, &scenario, &[AdapterKind::Dynamic, AdapterKind::Restart]);
    report.runs
}

/// Each model call's prompt tokens and prefix.
fn calls(run: &RunReport) -> Vec<(u64, PromptPrefix)> {
    run.events
        .iter()
        .filter_map(|event| match &event.kind {
            EventKind::ModelCall { prompt_tokens, prefix, .. } => Some((*prompt_tokens, prefix.clone().unwrap())),
            _ => None,
        })
        .collect()
}

#[test]
fn an_injection_breaks_the_prefix_at_the_tools_and_a_restart_at_the_messages() {
    let runs = lookup_first();
    let breaks = |run: &RunReport| calls(run).into_iter().map(|(_, prefix)| prefix.broke).collect::<Vec<_>>();
    // Dynamic: the section read at call 2 injects its tools before call 3.
    assert_eq!(breaks(&runs[0]), [None, None, Some(PrefixBreak::ToolsChanged), None]);
    // Restart: the expansion restarts before call 3, with new tools too; the restart is the cause.
    assert_eq!(breaks(&runs[1]), [None, None, Some(PrefixBreak::Restart), None, None]);
    for run in &runs {
        let calls = calls(run);
        for pair in calls.windows(2) {
            let ((before, _), (_, prefix)) = (&pair[0], &pair[1]);
            assert_eq!(prefix.previous_tokens, *before, "the previous call's whole prompt");
            if prefix.broke.is_none() {
                assert_eq!(prefix.shared_tokens, *before, "a growing conversation shares all of it");
            } else {
                assert!(prefix.shared_tokens < *before);
            }
        }
    }
}

fn priced(rules: CacheRules) -> Pricing {
    Pricing {
        model: "m".into(),
        priced_as: "m".into(),
        currency: "USD".into(),
        taken: "2026-11-24".into(),
        price: ModelPrice {
            input: 3.0,
            output: 15.0,
            cache_read: Some(0.3),
            cache_write: Some(3.75),
            cache: Some(rules),
            taken: None,
            note: None,
        },
    }
}

#[test]
fn the_example_is_too_short_to_cache_and_a_low_minimum_shows_what_a_cache_serves() {
    let mut runs = lookup_first();
    // Its prompts are 205 to 394 tokens: under every provider's 1024, nothing is cached.
    runs[0].price(&priced(CacheRules { style: CacheStyle::Prefix, min_tokens: 1024 }));
    let cost = runs[0].cost.clone().unwrap();
    assert_eq!((cost.cacheable_prompt_tokens, cost.cache_write_tokens), (0, 0));
    assert!((cost.total_with_cache - cost.total).abs() < 1e-12);

    // With a minimum of 128, by hand from the calls' prompts (205, 221, 377, 394 tokens) and
    // what each shares: OpenAI serves 128 + k × 128 of the shared start.
    runs[0].price(&priced(CacheRules { style: CacheStyle::Prefix, min_tokens: 128 }));
    let cost = runs[0].cost.clone().unwrap();
    let shared: Vec<u64> = calls(&runs[0]).iter().map(|(_, prefix)| prefix.shared_tokens).collect();
    assert_eq!(shared, [0, 205, 0, 377], "call 3 follows the injection");
    let served: Vec<u64> = cost.calls.iter().map(|call| call.cacheable_prompt_tokens).collect();
    assert_eq!(served, [0, 128, 0, 256]);
    assert_eq!(cost.prefix_breaks.tools_changed, 1);
    let saved = (128.0 + 256.0) * (3.0 - 0.3) / 1e6;
    assert!((cost.total - cost.total_with_cache - saved).abs() < 1e-12, "{cost:?}");
}
