//! A live study's budget (`--max-cost`, spec 14), checked before each conversation: what a lane's
//! conversation is expected to cost (the mean of its ended ones; before any, the scenario's script
//! priced as the live model, without the cache), what the study has spent call by call, and what
//! the conversations asked for but not ended may still spend. A repetition starts only if all its
//! conversations fit; each of them starts only if it still fits by the estimates as they are then.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use unfold_documents::prices::Pricing;
use unfold_engine::costs::RunCost;
use unfold_engine::{AdapterKind, Event, Lane};

use crate::comparisons::{ComparisonModel, ComparisonOutputs, ComparisonRequest, Comparisons};
use crate::error::{AppError, AppResult, ErrorCode};
use crate::lock;

/// What a live study may spend, and what it has.
pub(crate) struct Budget {
    max_usd: f64,
    pricing: Pricing,
    /// Each lane's conversation as the script cost, until one of the lane's own has ended.
    scripted_usd: HashMap<String, f64>,
    /// The estimate of a lane the script cannot run (a real host's): the scripted lanes' mean.
    unscripted_usd: f64,
    spending: Mutex<Spending>,
}

/// The study's conversations, as far as the budget knows them: those asked for and not ended one
/// by one, the ended ones summed (a long study's budget stays as quick as a short one's).
#[derive(Default)]
struct Spending {
    /// What earlier sessions of the study spent (a resumed study's).
    before_usd: f64,
    /// The conversations reserved or running.
    conversations: Vec<Conversation>,
    /// What the ended conversations cost.
    ended_usd: f64,
    /// What the ended conversations of each repetition still under way cost: left out, if it is.
    ended_by_repetition: HashMap<u64, f64>,
    /// What the conversations of repetitions left out cost.
    left_out_usd: f64,
    /// Each lane's ended conversations that made a call: what they cost, and how many.
    ended_by_lane: HashMap<String, (f64, u32)>,
    /// The place of the next repetition admitted.
    next_repetition: u64,
}

/// One conversation a repetition asked for.
struct Conversation {
    lane: String,
    /// Its repetition's place in [`Budget::admit`]'s count.
    repetition: u64,
    state: ConversationState,
    /// Its model calls so far.
    calls: Vec<Event>,
    cost_usd: f64,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ConversationState {
    /// Asked for with its repetition; not started.
    Reserved,
    Running,
}

/// The budget would be passed by what was asked: `next_usd` is what that was estimated to cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct OverBudget {
    pub next_usd: f64,
}

/// What the budget tells of the study so far, in US dollars.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Spent {
    /// Everything, conversations of repetitions left out too.
    pub total_usd: f64,
    /// The conversations of repetitions left out.
    pub left_out_usd: f64,
}

impl Budget {
    /// The budget of a study of `comparison`, `max_usd`, of which earlier sessions spent
    /// `before_usd`: refused for a scripted study or a model with no price, before anything is
    /// paid for.
    pub(crate) async fn of(
        comparisons: &Comparisons,
        comparison: &ComparisonRequest,
        max_usd: f64,
        before_usd: f64,
    ) -> AppResult<Arc<Budget>> {
        let ComparisonModel::Live { profile } = &comparison.model else {
            let message = "--max-cost is for a live study: the scripted model costs nothing";
            return Err(AppError::new(ErrorCode::InvalidRequest, message));
        };
        if !(max_usd.is_finite() && max_usd > 0.0) {
            return Err(AppError::new(ErrorCode::InvalidRequest, format!("--max-cost must be above 0, not {max_usd}")));
        }
        let model = comparisons.context().profiles.get(profile)?.model;
        let pricing = comparisons.context().prices.pricing_as(&model)?;
        let mut simulated: Vec<String> =
            comparison.lanes.iter().filter(|lane| Lane::named(lane).real_host_name().is_none()).cloned().collect();
        if simulated.is_empty() {
            simulated.push(AdapterKind::Dynamic.name().to_owned());
        }
        let scripted = ComparisonRequest {
            model: ComparisonModel::Scripted { price_as: Some(model) },
            outputs: ComparisonOutputs { history: false, ..Default::default() },
            run_id: None,
            lanes: simulated,
            ..comparison.clone()
        };
        let estimate = comparisons.run(scripted, Arc::new(|_| {})).await?;
        let scripted_usd: HashMap<String, f64> = estimate
            .report
            .runs
            .iter()
            .map(|run| (run.lane().name().to_owned(), run.cost.as_ref().map_or(0.0, |cost| cost.total)))
            .collect();
        Ok(Arc::new(Budget::new(max_usd, pricing, scripted_usd, before_usd)))
    }

    fn new(max_usd: f64, pricing: Pricing, scripted_usd: HashMap<String, f64>, before_usd: f64) -> Budget {
        let unscripted_usd = scripted_usd.values().sum::<f64>() / scripted_usd.len().max(1) as f64;
        let spending = Mutex::new(Spending { before_usd, ..Spending::default() });
        Budget { max_usd, pricing, scripted_usd, unscripted_usd, spending }
    }

    /// The most the study may spend.
    pub(crate) fn max_usd(&self) -> f64 {
        self.max_usd
    }

    /// Asks for a repetition whose conversations are `lanes` (a lane run twice named twice): its
    /// place, if they all fit with those under way counted at their estimates.
    pub(crate) fn admit(&self, lanes: &[String]) -> Result<u64, OverBudget> {
        let mut spending = lock(&self.spending);
        let next_usd: f64 = lanes.iter().map(|lane| self.expected_usd(&spending, lane)).sum();
        if self.committed_usd(&spending) + next_usd > self.max_usd {
            return Err(OverBudget { next_usd });
        }
        let repetition = spending.next_repetition;
        spending.next_repetition += 1;
        spending.conversations.extend(lanes.iter().map(|lane| Conversation {
            lane: lane.clone(),
            repetition,
            state: ConversationState::Reserved,
            calls: Vec::new(),
            cost_usd: 0.0,
        }));
        Ok(repetition)
    }

    /// Starts repetition `repetition`'s next conversation of `lane`, if it still fits by the
    /// estimates as they are now (conversations that ended since it was admitted may have cost more).
    pub(crate) fn start(&self, repetition: u64, lane: &str) -> Result<(), OverBudget> {
        let mut spending = lock(&self.spending);
        let next_usd = self.expected_usd(&spending, lane);
        // It is reserved, so already counted in what is committed.
        if self.committed_usd(&spending) > self.max_usd {
            return Err(OverBudget { next_usd });
        }
        let reserved = spending
            .conversations
            .iter_mut()
            .find(|c| c.repetition == repetition && c.lane == lane && c.state == ConversationState::Reserved);
        if let Some(conversation) = reserved {
            conversation.state = ConversationState::Running;
        }
        Ok(())
    }

    /// Takes `event` of repetition `repetition`'s running conversation of `lane`: a model call is
    /// paid for.
    pub(crate) fn saw(&self, repetition: u64, lane: &str, event: &Event) {
        if event.call_tokens().is_none() {
            return;
        }
        let mut spending = lock(&self.spending);
        let running = spending
            .conversations
            .iter_mut()
            .find(|c| c.repetition == repetition && c.lane == lane && c.state == ConversationState::Running);
        if let Some(conversation) = running {
            conversation.calls.push(event.clone());
            let calls = conversation.calls.iter().filter_map(Event::call_tokens);
            conversation.cost_usd = RunCost::of(calls, &self.pricing).total;
        }
    }

    /// Ends repetition `repetition`'s running conversations: its comparison has ended.
    pub(crate) fn end_running(&self, repetition: u64) {
        let mut spending = lock(&self.spending);
        let (ended, asked): (Vec<Conversation>, Vec<Conversation>) = std::mem::take(&mut spending.conversations)
            .into_iter()
            .partition(|c| c.repetition == repetition && c.state == ConversationState::Running);
        spending.conversations = asked;
        for conversation in ended {
            spending.ended_usd += conversation.cost_usd;
            *spending.ended_by_repetition.entry(repetition).or_default() += conversation.cost_usd;
            if !conversation.calls.is_empty() {
                let lane = spending.ended_by_lane.entry(conversation.lane).or_default();
                *lane = (lane.0 + conversation.cost_usd, lane.1 + 1);
            }
        }
    }

    /// Repetition `repetition` has ended, kept in the study or left out of it (what its
    /// conversations cost is spent all the same); those it did not start never will.
    pub(crate) fn finish(&self, repetition: u64, kept: bool) {
        self.end_running(repetition);
        let mut spending = lock(&self.spending);
        spending.conversations.retain(|c| c.repetition != repetition);
        let spent = spending.ended_by_repetition.remove(&repetition).unwrap_or(0.0);
        if !kept {
            spending.left_out_usd += spent;
        }
    }

    /// What the study has spent.
    pub(crate) fn spent(&self) -> Spent {
        let spending = lock(&self.spending);
        let running: f64 = spending.conversations.iter().map(|c| c.cost_usd).sum();
        Spent { total_usd: spending.before_usd + spending.ended_usd + running, left_out_usd: spending.left_out_usd }
    }

    /// What is spent and what the conversations asked for may still spend, by their estimates.
    fn committed_usd(&self, spending: &Spending) -> f64 {
        let asked = spending.conversations.iter().map(|c| match c.state {
            ConversationState::Reserved => self.expected_usd(spending, &c.lane),
            ConversationState::Running => c.cost_usd.max(self.expected_usd(spending, &c.lane)),
        });
        spending.before_usd + spending.ended_usd + asked.sum::<f64>()
    }

    /// What a conversation of `lane` is expected to cost: the mean of the lane's ended ones, else
    /// the script's.
    fn expected_usd(&self, spending: &Spending, lane: &str) -> f64 {
        match spending.ended_by_lane.get(lane) {
            Some(&(usd, count)) => usd / f64::from(count),
            None => self.scripted_usd.get(lane).copied().unwrap_or(self.unscripted_usd),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// gpt-4o-mini: $0.15 per million prompt tokens.
    fn budget(max_usd: f64) -> Budget {
        let pricing = unfold_documents::prices::Prices::shipped().pricing("gpt-4o-mini").unwrap();
        let scripted = HashMap::from([("dynamic".to_owned(), 0.15), ("restart".to_owned(), 0.15)]);
        Budget::new(max_usd, pricing, scripted, 0.0)
    }

    fn call(index: u32, million_prompt_tokens: u64) -> Event {
        let event = json!({"type": "model_call", "call_index": index, "tools_offered": [],
            "prompt_tokens": million_prompt_tokens * 1_000_000, "completion_tokens": 0, "seq": index, "attempt": 1});
        serde_json::from_value(event).unwrap()
    }

    fn lanes(names: &[&str]) -> Vec<String> {
        names.iter().map(|name| (*name).to_owned()).collect()
    }

    #[test]
    fn a_repetition_starts_only_if_all_its_conversations_fit_with_those_under_way() {
        let budget = budget(0.5);
        let first = budget.admit(&lanes(&["dynamic", "restart"])).unwrap();
        // 0.30 reserved: another two would make 0.60.
        let over = budget.admit(&lanes(&["restart", "dynamic"])).unwrap_err();
        assert!((over.next_usd - 0.30).abs() < 1e-12, "{over:?}");
        budget.start(first, "dynamic").unwrap();
        budget.saw(first, "dynamic", &call(1, 1));
        budget.start(first, "restart").unwrap();
        budget.saw(first, "restart", &call(1, 1));
        budget.finish(first, true);
        assert!((budget.spent().total_usd - 0.30).abs() < 1e-12);
        // Nothing under way: 0.30 spent and 0.30 more would pass 0.5.
        assert!(budget.admit(&lanes(&["restart", "dynamic"])).is_err());
        let one = budget.admit(&lanes(&["dynamic"])).unwrap();
        assert_ne!(one, first);
    }

    #[test]
    fn a_conversation_is_refused_when_those_before_it_cost_more_than_their_estimate() {
        let budget = budget(0.5);
        let repetition = budget.admit(&lanes(&["dynamic", "restart"])).unwrap();
        budget.start(repetition, "dynamic").unwrap();
        // Three times what the script cost.
        budget.saw(repetition, "dynamic", &call(1, 2));
        budget.saw(repetition, "dynamic", &call(2, 1));
        budget.end_running(repetition);
        let over = budget.start(repetition, "restart").unwrap_err();
        assert!((over.next_usd - 0.15).abs() < 1e-12, "{over:?}");
        budget.finish(repetition, false);
        let spent = budget.spent();
        assert!((spent.total_usd - 0.45).abs() < 1e-12 && (spent.left_out_usd - 0.45).abs() < 1e-12, "{spent:?}");
    }

    #[test]
    fn a_lane_is_expected_to_cost_what_its_ended_conversations_cost_on_average() {
        let budget = budget(10.0);
        for million in [1, 3] {
            let repetition = budget.admit(&lanes(&["dynamic"])).unwrap();
            budget.start(repetition, "dynamic").unwrap();
            budget.saw(repetition, "dynamic", &call(1, million));
            budget.finish(repetition, true);
        }
        // A dynamic conversation now costs 0.30, restart still the script's 0.15.
        let spending = lock(&budget.spending);
        assert!((budget.expected_usd(&spending, "dynamic") - 0.30).abs() < 1e-12);
        assert!((budget.expected_usd(&spending, "restart") - 0.15).abs() < 1e-12);
        // A real host's lane, which the script cannot run, is expected at the scripted lanes' mean.
        assert!((budget.expected_usd(&spending, "real:codex") - 0.15).abs() < 1e-12);
    }

    #[test]
    fn a_resumed_study_counts_what_its_earlier_sessions_spent() {
        let pricing = unfold_documents::prices::Prices::shipped().pricing("gpt-4o-mini").unwrap();
        let budget = Budget::new(0.5, pricing, HashMap::from([("dynamic".to_owned(), 0.15)]), 0.4);
        assert!(budget.admit(&lanes(&["dynamic"])).is_err());
        assert!((budget.spent().total_usd - 0.4).abs() < 1e-12);
    }
}
