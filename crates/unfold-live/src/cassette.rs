//! Cassettes (`*.cassette.json`): a live run recorded whole — every request body it posted and
//! every answer as it came over the wire (server-sent events or JSON), with the run's report — so
//! that it can be replayed without the network, and turned into a scenario that replays the
//! model's choices under the other adapter.
//!
//! A cassette holds no secret: the key travels in a header that is not recorded, everything
//! recorded is scrubbed of it in every form, as decoded (an answer whose streamed pieces hold it
//! only once joined is kept as the whole answer it decodes to: `redaction`), the provider is kept
//! by name, kind, model and settings, without its base URL (which may carry credentials), and a
//! cassette that holds a secret all the same is not written.

use std::path::Path;

use async_trait::async_trait;
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{request_body, Framing, HttpProvider, ProviderKind, ProviderProfile, WireAnswer};
use unfold_documents::discovery::Discovery;
use unfold_documents::error::{pointer_segment, Error, Result};
use unfold_documents::scenario::{Scenario, ScriptedCall, Step, Turn};
use unfold_documents::template::Template;
use unfold_documents::tool::{Builtin, ScriptedResult};
use unfold_engine::events::{EventKind, RunReport};
use unfold_engine::provider::{ModelRequest, ModelResponse, Provider};
use unfold_engine::run::{RunInput, RunLimits};
use unfold_engine::{AdapterKind, ToolHost, ToolSources};

use crate::recorded_sources::{RecordedSources, ReplayHost};
use crate::redaction::Secrets;

/// The `kind` of a cassette file.
pub const CASSETTE_KIND: &str = "unfold.cassette";

/// A recorded live run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cassette {
    /// Always 1.
    pub schema_version: u32,
    /// Always [`CASSETTE_KIND`].
    pub kind: String,
    /// The key of the template it ran.
    pub template: String,
    /// The adapter it ran under.
    pub adapter: AdapterKind,
    /// The user's message (the first turn's).
    pub user: String,
    /// The user's messages of the later turns, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub later_user_turns: Vec<String>,
    /// Parameter values over the template's defaults.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub params: IndexMap<String, String>,
    /// The run's limits.
    pub limits: RecordedLimits,
    /// The provider, without its base URL or key.
    pub provider: RecordedProvider,
    /// Every model call, in order.
    pub calls: Vec<RecordedCall>,
    /// What the template's tool sources offered, answered and changed (absent: it had none).
    #[serde(default, skip_serializing_if = "RecordedSources::is_empty")]
    pub sources: RecordedSources,
    /// The run's report.
    pub run: RunReport,
}

/// The limits a recorded run had.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedLimits {
    /// Model calls over the whole run.
    pub max_model_calls: u32,
    /// Restarts over the whole run.
    pub max_restarts: u32,
}

/// What of a profile shapes the requests: enough to build them again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordedProvider {
    /// The profile's name.
    pub name: String,
    /// Its wire format.
    pub kind: ProviderKind,
    /// Its model.
    pub model: String,
    /// Its temperature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// Its `max_tokens`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u32>,
    /// Whether answers were streamed.
    pub stream: bool,
    /// Whether it took new tools mid-conversation.
    #[serde(default = "default_true", skip_serializing_if = "is_true")]
    pub dynamic_tools: bool,
}

fn default_true() -> bool {
    true
}

fn is_true(value: &bool) -> bool {
    *value
}

/// One model call: what was posted and what came back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordedCall {
    /// The request body.
    pub request: Value,
    /// How the answer was framed.
    pub framing: Framing,
    /// The answer's text, as it came over the wire.
    pub response: String,
}

impl RecordedProvider {
    fn of(profile: &ProviderProfile) -> RecordedProvider {
        RecordedProvider {
            name: profile.name.clone(),
            kind: profile.kind,
            model: profile.model.clone(),
            temperature: profile.temperature,
            max_tokens: profile.max_tokens,
            stream: profile.stream,
            dynamic_tools: profile.dynamic_tools,
        }
    }

    /// A profile that builds the same request bodies (it is never connected to).
    fn profile(&self) -> ProviderProfile {
        ProviderProfile {
            name: self.name.clone(),
            kind: self.kind,
            base_url: "http://replay.invalid/v1".to_owned(),
            model: self.model.clone(),
            temperature: self.temperature,
            max_tokens: self.max_tokens,
            stream: self.stream,
            connect_timeout_ms: None,
            read_timeout_ms: None,
            api_key_env: None,
            api_key_keychain: false,
            dynamic_tools: self.dynamic_tools,
        }
    }
}

impl Cassette {
    /// The cassette of a run of `input` under `adapter` that `provider` recorded (see
    /// [`HttpProvider::recording`]). `sources` holds what the run's tool host answered and what changed; the discoveries are
    /// taken from `input`.
    pub fn record(
        input: &RunInput<'_>,
        adapter: AdapterKind,
        provider: &HttpProvider,
        mut sources: RecordedSources,
        run: RunReport,
    ) -> Cassette {
        sources.discovered = RecordedSources::discovered_from(input.discoveries);
        let mut cassette = Cassette {
            schema_version: 1,
            kind: CASSETTE_KIND.to_owned(),
            template: input.template.key.clone(),
            adapter,
            user: input.user_turns.first().cloned().unwrap_or_default(),
            later_user_turns: input.user_turns.iter().skip(1).cloned().collect(),
            params: input.params.clone(),
            limits: RecordedLimits {
                max_model_calls: input.limits.max_model_calls,
                max_restarts: input.limits.max_restarts,
            },
            provider: RecordedProvider::of(provider.profile()),
            calls: provider.recorded_calls().to_vec(),
            sources,
            run,
        };
        // The calls were redacted as they were recorded; the rest (tool results, the user's
        // words) may hold a secret too.
        cassette.scrub_all_but_calls(provider.secrets());
        cassette
    }

    /// Takes every form of every secret out of the cassette, as a recording does: what one
    /// recorded before answers were redacted once assembled may hold a key split across the
    /// pieces of a stream.
    pub fn redact(&mut self, secrets: &Secrets) {
        if secrets.is_empty() {
            return;
        }
        let kind = self.provider.kind;
        self.calls = std::mem::take(&mut self.calls).into_iter().map(|c| secrets.redact_recorded(kind, c)).collect();
        self.scrub_all_but_calls(secrets);
    }

    fn scrub_all_but_calls(&mut self, secrets: &Secrets) {
        let calls = std::mem::take(&mut self.calls);
        secrets.scrub_serialized(self);
        self.calls = calls;
    }

    /// Writes the cassette to `path` atomically, unless it holds one of `secrets` in some form
    /// (its answers decoded too): then nothing is written, and the error says where.
    pub fn write(&self, path: &Path, secrets: &Secrets) -> Result<()> {
        self.check(secrets).map_err(|e| e.in_file(path))?;
        unfold_documents::document::write_atomically(path, &self.to_json())
    }

    fn check(&self, secrets: &Secrets) -> Result<()> {
        for (index, call) in self.calls.iter().enumerate() {
            secrets.check_answer(self.provider.kind, call, &format!("/calls/{index}/response"))?;
        }
        let value = serde_json::to_value(self).map_err(|e| Error::problem("", e.to_string()))?;
        secrets.check_json(&value)
    }

    /// Reads a cassette file; errors name the file.
    pub fn load(path: &Path) -> Result<Cassette> {
        let bytes = unfold_documents::document::read_document_bytes(path)?;
        Cassette::from_json(&bytes).map_err(|e| e.in_file(path))
    }

    /// Parses a cassette's text.
    pub fn from_json(bytes: &[u8]) -> Result<Cassette> {
        let value = unfold_documents::document::parse_json(bytes)?;
        unfold_documents::document::check_kind_and_version(&value, CASSETTE_KIND)?;
        unfold_documents::document::from_tree(value)
    }

    /// The canonical text.
    pub fn to_json(&self) -> String {
        unfold_documents::document::to_canonical_json(self)
    }

    /// Runs `template` again as recorded, each model call answered from the cassette once the
    /// request it builds is the recorded one, and each source's tools as they were offered,
    /// answered and changed in the recording. Fails, naming the first difference, when a request
    /// or a source call differs, when the run asks for more calls than were recorded or ends
    /// before using them all.
    pub async fn replay(&self, template: &Template) -> Result<RunReport> {
        let discoveries = match self.sources.discovered.is_empty() {
            // Recorded before cassettes kept sources: the run saw the snapshots.
            true => template.offline_discoveries(),
            false => self.sources.discoveries(),
        };
        let mut host = ReplayHost::new(&self.sources);
        let report = self.replay_with(template, discoveries, Some(&mut host)).await;
        // A source call that differs is the cause of any request that differs after it.
        match host.mismatch {
            Some((pointer, message)) => Err(Error::problem(pointer, message)),
            None => report,
        }
    }

    /// [`Self::replay`] with the template's tool sources started by `sources` instead of answered
    /// from the recording: a source that now lists, answers or changes otherwise shows as the
    /// first request that differs.
    pub async fn replay_with_sources(&self, template: &Template, sources: &mut dyn ToolSources) -> Result<RunReport> {
        let (discoveries, mut host) = sources.open(template).await;
        let report = self.replay_with(template, discoveries, Some(host.as_mut())).await;
        host.close().await;
        report
    }

    async fn replay_with(
        &self,
        template: &Template,
        discoveries: Vec<Discovery>,
        host: Option<&mut dyn ToolHost>,
    ) -> Result<RunReport> {
        if template.key != self.template {
            return Err(Error::problem(
                "/template",
                format!("the cassette was recorded on the template '{}', not '{}'", self.template, template.key),
            ));
        }
        let (seen, discoveries) = template.with_discovered(discoveries);
        let input = RunInput {
            template: &seen,
            params: self.params.clone(),
            user_turns: self.user_turns().map(str::to_owned).collect(),
            tool_changes: &[],
            discoveries: &discoveries,
            limits: RunLimits { max_model_calls: self.limits.max_model_calls, max_restarts: self.limits.max_restarts },
            tool_policy: unfold_engine::ToolPolicy::default(),
        };
        let mut replay = Replay { cassette: self, profile: self.provider.profile(), next: 0, mismatch: None };
        let mut results = unfold_engine::ScriptedToolResults::default();
        let adapter = unfold_engine::adapter_for(self.adapter);
        let report =
            unfold_engine::run_with_host(&input, adapter, &mut replay, &mut results, host, &mut |_| {}).await?;
        if let Some((pointer, message)) = replay.mismatch {
            return Err(Error::problem(pointer, message));
        }
        if replay.next < self.calls.len() {
            let message =
                format!("the replay ended after {} model calls; the cassette holds {}", replay.next, self.calls.len());
            return Err(Error::problem("/calls", message));
        }
        Ok(report)
    }

    /// The user's messages, one per turn, in order.
    pub fn user_turns(&self) -> impl Iterator<Item = &str> {
        std::iter::once(&self.user).chain(&self.later_user_turns).map(String::as_str)
    }

    /// A scenario that makes the scripted model do what the recorded model did: its tool calls as
    /// the script, its final answer as the last `say`, the recorded results of the template's own
    /// tools as `tool_results`; a run of several turns as `turns`, each turn's calls and answer with
    /// its user message. After a restart a model redoes earlier work; the steps an attempt repeats
    /// from the start of a turn's script so far are not added again, so each turn's script is the
    /// model's work once, and the scripted model redoes it under the restart adapter as spec 5 says.
    pub fn to_scenario(&self, template: &Template) -> Result<Scenario> {
        self.sources.check_offline(template)?;
        let users: Vec<String> = self.user_turns().map(str::to_owned).collect();
        let places = self.call_places();
        let mut scripts: Vec<Vec<Step>> = vec![Vec::new(); users.len()];
        let mut says: Vec<Option<String>> = vec![None; users.len()];
        let mut attempt_steps: Vec<Vec<Step>> = vec![Vec::new(); users.len()];
        let mut current_attempt = 1;
        for (index, call) in self.calls.iter().enumerate() {
            let answer = WireAnswer { framing: call.framing, bytes: call.response.clone().into_bytes() }
                .decode(self.provider.kind)
                .map_err(|e| Error::problem(format!("/calls/{index}/response"), e))?;
            let (attempt, turn) = places.get(index).copied().unwrap_or((current_attempt, 1));
            if attempt != current_attempt {
                for (script, steps) in scripts.iter_mut().zip(&mut attempt_steps) {
                    merge_attempt(script, std::mem::take(steps));
                }
                current_attempt = attempt;
            }
            let turn = turn.clamp(1, users.len()) - 1;
            if answer.tool_calls.is_empty() {
                says[turn] = answer.text.or(Some(String::new()));
                continue;
            }
            let mut calls: Vec<ScriptedCall> = answer
                .tool_calls
                .into_iter()
                .map(|c| ScriptedCall { call: c.name, args: c.arguments.as_object().cloned().unwrap_or_default() })
                .collect();
            attempt_steps[turn].push(if calls.len() == 1 {
                Step::Call(calls.remove(0))
            } else {
                Step::Calls { calls }
            });
        }
        for (script, steps) in scripts.iter_mut().zip(attempt_steps) {
            merge_attempt(script, steps);
        }
        // Each turn ends with its answer: the recorded one, else an empty one (a run cut short).
        for (script, say) in scripts.iter_mut().zip(says) {
            script.push(Step::Say { say: say.unwrap_or_default() });
        }
        let (user, script, turns) = if users.len() == 1 {
            (Some(self.user.clone()), scripts.remove(0), Vec::new())
        } else {
            let turns = users.into_iter().zip(scripts).map(|(user, script)| Turn { user, script }).collect();
            (None, Vec::new(), turns)
        };
        Ok(Scenario {
            schema_version: 1,
            kind: unfold_documents::document::DocumentKind::Scenario.tag().to_owned(),
            name: format!("{} as {} answered it", self.template, self.provider.model),
            params: self.params.clone(),
            user,
            script,
            turns,
            tool_results: self.recorded_results(template),
            tool_changes: self.sources.tool_changes(template),
            limits: None,
            extensions: Map::new(),
        })
    }

    /// The attempt and the user turn (1-based) of each model call, from the run's events: a
    /// `user_turn` event starts the next turn, a new attempt starts again at the first.
    fn call_places(&self) -> Vec<(u32, usize)> {
        let mut places = Vec::new();
        let (mut attempt, mut turn) = (1, 1);
        for event in &self.run.events {
            if event.attempt != attempt {
                (attempt, turn) = (event.attempt, 1);
            }
            match event.kind {
                EventKind::UserTurn { turn: next } => turn = next as usize,
                EventKind::ModelCall { .. } => places.push((attempt, turn)),
                _ => {}
            }
        }
        places
    }

    /// The results the template's own tools gave, per tool in order; a tool that always gave the
    /// same result has it once (the last result repeats).
    fn recorded_results(&self, template: &Template) -> IndexMap<String, Vec<ScriptedResult>> {
        let written = template.all_tools().into_iter().map(|t| t.name.as_str());
        let own: Vec<&str> = written.chain(self.sources.tool_names()).collect();
        let mut results: IndexMap<String, Vec<ScriptedResult>> = IndexMap::new();
        for event in &self.run.events {
            let EventKind::ToolCall { name, success, result, .. } = &event.kind else { continue };
            if Builtin::from_name(name).is_some() || !own.contains(&name.as_str()) {
                continue;
            }
            let recorded = match (success, result) {
                (true, value) => ScriptedResult::Result(value.clone()),
                (false, Value::String(message)) => ScriptedResult::Error(message.clone()),
                (false, other) => ScriptedResult::Error(other.to_string()),
            };
            results.entry(name.clone()).or_default().push(recorded);
        }
        for list in results.values_mut() {
            if list.iter().all(|r| *r == list[0]) {
                list.truncate(1);
            }
        }
        results
    }
}

/// Adds an attempt's steps to the script, without the ones it repeats from the script's start.
fn merge_attempt(script: &mut Vec<Step>, steps: Vec<Step>) {
    let repeated = script.iter().zip(&steps).take_while(|(a, b)| a == b).count();
    script.extend(steps.into_iter().skip(repeated));
}

/// The model of a replay: each call answered from the cassette if its request is the recorded one.
struct Replay<'c> {
    cassette: &'c Cassette,
    profile: ProviderProfile,
    next: usize,
    /// The first way the replay left the recording: where in the cassette, and how.
    mismatch: Option<(String, String)>,
}

#[async_trait]
impl Provider for Replay<'_> {
    async fn complete(&mut self, request: &ModelRequest<'_>) -> Result<ModelResponse> {
        let index = self.next;
        self.next += 1;
        let sent = request_body(&self.profile, request);
        let (pointer, message) = match self.cassette.calls.get(index) {
            None => {
                let message = format!(
                    "the replay makes model call {}; the cassette holds {}",
                    index + 1,
                    self.cassette.calls.len()
                );
                ("/calls".to_owned(), message)
            }
            Some(recorded) => match first_difference(&recorded.request, &sent, &mut String::new()) {
                Some(Difference { pointer, recorded, sent }) => (
                    format!("/calls/{index}/request{pointer}"),
                    format!("model call {} differs from the recording: recorded {recorded}, sent {sent}", index + 1),
                ),
                None => {
                    let wire = WireAnswer { framing: recorded.framing, bytes: recorded.response.clone().into_bytes() };
                    return wire.decode(self.cassette.provider.kind).map_err(|e| {
                        Error::problem(format!("/calls/{index}/response"), format!("model call {}: {e}", index + 1))
                    });
                }
            },
        };
        let error = Error::problem(pointer.clone(), message.clone());
        self.mismatch.get_or_insert((pointer, message));
        Err(error)
    }

    fn fixed_tools(&self) -> Option<String> {
        self.profile.fixed_tools()
    }
}

/// Where a request differs from the recorded one, with both sides shown around the difference.
#[derive(Debug, PartialEq)]
struct Difference {
    pointer: String,
    recorded: String,
    sent: String,
}

/// Where `sent` first differs from `recorded`.
fn first_difference(recorded: &Value, sent: &Value, pointer: &mut String) -> Option<Difference> {
    let child = |pointer: &mut String, segment: &str, recorded: Option<&Value>, sent: Option<&Value>| {
        let length = pointer.len();
        pointer.push('/');
        pointer.push_str(&pointer_segment(segment));
        let found = match (recorded, sent) {
            (Some(a), Some(b)) => first_difference(a, b, pointer),
            _ => Some(Difference { pointer: pointer.clone(), recorded: shown(recorded), sent: shown(sent) }),
        };
        pointer.truncate(length);
        found
    };
    match (recorded, sent) {
        (Value::Object(a), Value::Object(b)) => {
            let keys = a.keys().chain(b.keys().filter(|k| !a.contains_key(*k)));
            keys.into_iter().find_map(|key| child(pointer, key, a.get(key), b.get(key)))
        }
        (Value::Array(a), Value::Array(b)) => {
            (0..a.len().max(b.len())).find_map(|i| child(pointer, &i.to_string(), a.get(i), b.get(i)))
        }
        _ if recorded == sent => None,
        (Value::String(a), Value::String(b)) => {
            let (recorded, sent) = around_first_difference(a, b);
            Some(Difference { pointer: pointer.clone(), recorded, sent })
        }
        _ => Some(Difference { pointer: pointer.clone(), recorded: shown(Some(recorded)), sent: shown(Some(sent)) }),
    }
}

fn shown(value: Option<&Value>) -> String {
    value.map_or("nothing".to_owned(), |v| super::wire::shorten(&v.to_string()))
}

/// Two different strings quoted around where they first differ: a long system prompt that
/// differs in one word shows that word, not its first 300 characters.
fn around_first_difference(a: &str, b: &str) -> (String, String) {
    const BEFORE: usize = 30;
    const AFTER: usize = 50;
    let common: usize = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    let quote = |text: &str| {
        let start = common.saturating_sub(BEFORE);
        let piece: String = text.chars().skip(start).take(common - start + AFTER).collect();
        let head = if start > 0 { "…" } else { "" };
        let tail = if text.chars().count() > common + AFTER { "…" } else { "" };
        format!("{head}{}{tail}", serde_json::to_string(&piece).unwrap_or_default().trim_matches('"'))
    };
    (format!("\"{}\"", quote(a)), format!("\"{}\"", quote(b)))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// A cassette has no schema: its types are, and a value they refuse is named at its place.
    #[test]
    fn a_broken_cassette_names_the_place_of_its_problem() {
        let check = |calls: &str| {
            let text = format!(
                r#"{{"schema_version": 1, "kind": "unfold.cassette", "template": "t", "adapter": "dynamic", "user": "u",
                    "limits": {{"max_model_calls": 3, "max_restarts": 1}},
                    "provider": {{"name": "p", "kind": "openai", "model": "m", "stream": true}},
                    "calls": {calls}}}"#
            );
            Cassette::from_json(text.as_bytes()).unwrap_err().to_string()
        };
        let call = r#"{"request": {}, "framing": "stream", "response": ""}"#;
        assert_eq!(
            check(&format!(r#"[{call}, {{"request": {{}}, "framing": "smoke", "response": ""}}]"#)),
            "/calls/1/framing: unknown variant `smoke`, expected `stream` or `whole`"
        );
        assert_eq!(
            check(&format!(r#"[{call}, {{"request": {{}}, "framing": "whole"}}]"#)),
            "/calls/1: missing field `response`"
        );
        assert_eq!(
            check(&format!(
                r#"[{call}, {{"request": {{"model": "m", "model": "n"}}, "framing": "whole", "response": ""}}]"#
            )),
            "/calls/1/request/model: \"model\" is given twice in this object; JSON keys must be unique"
        );
    }

    #[test]
    fn names_the_first_difference_by_its_json_pointer() {
        let recorded = json!({ "model": "m", "messages": [{ "role": "user", "content": "Hi" }], "a/b": 1 });
        let check = |sent: Value| {
            first_difference(&recorded, &sent, &mut String::new())
                .map(|d| format!("{}: {} | {}", d.pointer, d.recorded, d.sent))
        };
        assert_eq!(check(recorded.clone()), None);
        let content = |text: &str| json!({ "model": "m", "messages": [{ "role": "user", "content": text }], "a/b": 1 });
        assert_eq!(check(content("Ho")).unwrap(), "/messages/0/content: \"Hi\" | \"Ho\"");
        let mut longer = content("Hi");
        longer["messages"].as_array_mut().unwrap().push(json!({}));
        assert_eq!(check(longer).unwrap(), "/messages/1: nothing | {}");
        assert_eq!(
            check(json!({ "model": "m", "messages": [] })).unwrap(),
            "/messages/0: {\"role\":\"user\",\"content\":\"Hi\"} | nothing"
        );
        assert_eq!(check(json!({ "model": "m", "messages": recorded["messages"], "a/b": 2 })).unwrap(), "/a~1b: 1 | 2");
        assert!(check(json!([])).unwrap().starts_with(": {\"model\""));
    }

    #[test]
    fn long_strings_are_quoted_around_their_first_difference() {
        let a = format!("{}Complete the following: fix it.\n{}", "x".repeat(100), "y".repeat(100));
        let b = a.replace("Complete the following:", "Do this:");
        let (recorded, sent) = around_first_difference(&a, &b);
        assert_eq!(recorded, format!("\"…{}Complete the following: fix it.\\n{}…\"", "x".repeat(30), "y".repeat(18)));
        assert_eq!(sent, format!("\"…{}Do this: fix it.\\n{}…\"", "x".repeat(30), "y".repeat(33)));
    }

    #[test]
    fn an_attempt_adds_only_the_steps_it_does_not_repeat() {
        let call = |name: &str| Step::Call(ScriptedCall { call: name.into(), args: Map::new() });
        let mut script = Vec::new();
        merge_attempt(&mut script, vec![call("lookup"), call("read_section")]);
        merge_attempt(&mut script, vec![call("lookup"), call("read_section"), call("search")]);
        assert_eq!(script, [call("lookup"), call("read_section"), call("search")]);
        merge_attempt(&mut script, vec![call("other")]);
        assert_eq!(script.len(), 4);
    }
}
