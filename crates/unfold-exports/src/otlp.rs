//! A run as an OpenTelemetry trace (spec 11): one OTLP/JSON `ExportTraceServiceRequest` per run,
//! a line of the OTLP file exporter's format, following the GenAI semantic conventions. The run
//! is an `invoke_agent {template}` span; under it, a `chat {model}` span per model call (token
//! usage and cache counts) and an `execute_tool {name}` span per tool call. The section reads,
//! injections, restarts, availability changes and every other event are the run span's events.
//!
//! Events carry no clock: each is placed at the time the caller saw it, and a span runs from the
//! event before it to its own. Where no times were seen (a replay, a run read back from the
//! history) the events are spread evenly over the run, and the run span says so
//! (`unfold.timing`).

use serde_json::{json, Map, Value};
use unfold_engine::{Event, EventKind, RunReport, RunStatus};

/// When a run's events were seen, in nanoseconds since the Unix epoch.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunTimes {
    /// The run began.
    pub start: u64,
    /// It ended.
    pub end: u64,
    /// Each event, by `seq`; empty when they were not seen one by one.
    pub events: Vec<u64>,
}

impl RunTimes {
    /// Whether every event has the time it was seen.
    fn measured(&self, events: usize) -> bool {
        self.events.len() == events
    }

    /// When event `seq` of `count` happened: as seen, else spread over the run.
    fn event(&self, seq: usize, count: usize) -> u64 {
        if self.measured(count) {
            return self.events[seq];
        }
        let span = self.end.saturating_sub(self.start);
        self.start + span * (seq as u64 + 1) / (count as u64 + 1)
    }
}

/// One run and what the trace says of it beyond its report.
#[derive(Debug, Clone)]
pub struct TracedRun<'a> {
    /// The run.
    pub report: &'a RunReport,
    /// The agent: the template's key.
    pub agent: &'a str,
    /// `gen_ai.provider.name`: `openai`, `anthropic`, or `unfold.scripted` for a scenario's model.
    pub provider: &'a str,
    /// The model asked for.
    pub model: &'a str,
    /// When its events happened.
    pub times: &'a RunTimes,
    /// More attributes of the run span (`unfold.scenario`, `unfold.lane`, a suite's case, …).
    pub attributes: Vec<(&'static str, String)>,
    /// The trace's id; span ids are derived from it.
    pub trace_id: [u8; 16],
}

/// OTLP span kinds.
const INTERNAL: u8 = 1;
const CLIENT: u8 = 3;
/// OTLP status codes.
const STATUS_ERROR: u8 = 2;

/// The run as one line of an OTLP JSON file (without the newline).
pub fn trace_line(run: &TracedRun<'_>) -> String {
    let spans = Spans::of(run);
    let request = json!({
        "resourceSpans": [{
            "resource": { "attributes": attributes(&[
                ("service.name", json!("unfold")),
                ("service.version", json!(env!("CARGO_PKG_VERSION"))),
            ]) },
            "scopeSpans": [{
                "scope": { "name": "unfold", "version": env!("CARGO_PKG_VERSION") },
                "spans": spans.list,
            }],
        }],
    });
    request.to_string()
}

/// The spans of a run, the run's first.
struct Spans<'r, 'a> {
    run: &'r TracedRun<'a>,
    list: Vec<Value>,
}

impl<'r, 'a> Spans<'r, 'a> {
    fn of(run: &'r TracedRun<'a>) -> Spans<'r, 'a> {
        let mut spans = Spans { run, list: vec![Value::Null] };
        let events = &run.report.events;
        let mut span_events = Vec::new();
        for (index, event) in events.iter().enumerate() {
            let at = run.times.event(index, events.len());
            let before = if index == 0 { run.times.start } else { run.times.event(index - 1, events.len()) };
            match &event.kind {
                EventKind::ModelCall { .. } => spans.push_chat(event, before, at),
                EventKind::ToolCall { .. } => {
                    spans.push_tool(event, before, at);
                    span_events.extend(section_read(event, at));
                }
                EventKind::RunStarted { .. } | EventKind::RunCompleted { .. } => {}
                _ => span_events.push(span_event(event, at)),
            }
        }
        spans.list[0] = spans.run_span(span_events);
        spans
    }

    fn span_id(&self, index: usize) -> String {
        hex(&span_id(&self.run.trace_id, index))
    }

    /// A child of the run span, with the next id.
    fn push_child(&mut self, name: String, kind: u8, (start, end): (u64, u64), attrs: Value, status: Value) {
        let id = self.span_id(self.list.len());
        self.list.push(json!({
            "traceId": hex(&self.run.trace_id),
            "spanId": id,
            "parentSpanId": self.span_id(0),
            "name": name,
            "kind": kind,
            "startTimeUnixNano": start.to_string(),
            "endTimeUnixNano": end.to_string(),
            "attributes": attrs,
            "status": status,
        }));
    }

    fn push_chat(&mut self, event: &Event, start: u64, end: u64) {
        let EventKind::ModelCall {
            call_index, tools_offered, prompt_tokens, completion_tokens, measured_cache, ..
        } = &event.kind
        else {
            return;
        };
        // The conventions count cached tokens in the input tokens; Anthropic's prompt tokens do not.
        let uncounted =
            measured_cache.as_ref().filter(|m| !m.in_prompt_tokens).map_or(0, |m| m.read_tokens + m.write_tokens);
        let mut attrs = vec![
            ("gen_ai.operation.name", json!("chat")),
            ("gen_ai.provider.name", json!(self.run.provider)),
            ("gen_ai.request.model", json!(self.run.model)),
            ("gen_ai.usage.input_tokens", json!(prompt_tokens + uncounted)),
            ("gen_ai.usage.output_tokens", json!(completion_tokens)),
        ];
        if let Some(cache) = measured_cache {
            attrs.push(("gen_ai.usage.cache_read.input_tokens", json!(cache.read_tokens)));
            attrs.push(("gen_ai.usage.cache_creation.input_tokens", json!(cache.write_tokens)));
        }
        if let Some(estimate) = self.estimated_cache(*call_index, event.attempt) {
            attrs.extend(estimate);
        }
        attrs.push(("unfold.call_index", json!(call_index)));
        attrs.push(("unfold.attempt", json!(event.attempt)));
        attrs.push(("unfold.tools_offered", json!(tools_offered)));
        let name = format!("chat {}", self.run.model);
        self.push_child(name, CLIENT, (start, end), attributes(&attrs), json!({}));
    }

    /// What the run's price analysis expects the cache to do on a call, when the run is priced.
    fn estimated_cache(&self, call_index: u32, attempt: u32) -> Option<Vec<(&'static str, Value)>> {
        let cost = self.run.report.cost.as_ref()?;
        let call = cost.calls.iter().find(|c| c.call_index == call_index && c.attempt == attempt)?;
        Some(vec![
            ("unfold.cache.cacheable_prompt_tokens", json!(call.cacheable_prompt_tokens)),
            ("unfold.cache.write_tokens", json!(call.cache_write_tokens)),
            ("unfold.cost_usd", json!(call.cost)),
        ])
    }

    fn push_tool(&mut self, event: &Event, start: u64, end: u64) {
        let EventKind::ToolCall { call_index, call_id, name, success, result, .. } = &event.kind else { return };
        let attrs = [
            ("gen_ai.operation.name", json!("execute_tool")),
            ("gen_ai.tool.name", json!(name)),
            ("gen_ai.tool.call.id", json!(call_id)),
            ("gen_ai.tool.type", json!("function")),
            ("unfold.call_index", json!(call_index)),
            ("unfold.attempt", json!(event.attempt)),
        ];
        let mut attrs = attrs.to_vec();
        let status = if *success {
            json!({})
        } else {
            attrs.push(("error.type", json!("tool_error")));
            json!({ "code": STATUS_ERROR, "message": result.as_str().map_or_else(|| result.to_string(), str::to_string) })
        };
        self.push_child(format!("execute_tool {name}"), INTERNAL, (start, end), attributes(&attrs), status);
    }

    fn run_span(&self, events: Vec<Value>) -> Value {
        let report = self.run.report;
        let mut attrs = vec![
            ("gen_ai.operation.name", json!("invoke_agent")),
            ("gen_ai.agent.name", json!(self.run.agent)),
            ("gen_ai.provider.name", json!(self.run.provider)),
            ("gen_ai.request.model", json!(self.run.model)),
            ("gen_ai.usage.input_tokens", json!(report.counters.prompt_tokens)),
            ("gen_ai.usage.output_tokens", json!(report.counters.completion_tokens)),
            ("unfold.adapter", json!(report.adapter.name())),
            ("unfold.status", json!(report.status.name())),
            ("unfold.model_calls", json!(report.counters.model_calls)),
            ("unfold.tool_calls", json!(report.counters.tool_calls)),
            ("unfold.restarts", json!(report.counters.restarts)),
            ("unfold.timing", json!(if self.run.times.measured(report.events.len()) { "measured" } else { "spread" })),
        ];
        if let Some(cost) = &report.cost {
            attrs.push(("unfold.cost_usd", json!(cost.total)));
        }
        attrs.extend(self.run.attributes.iter().map(|(key, value)| (*key, json!(value))));
        let status = match report.status {
            RunStatus::Completed => json!({}),
            other => {
                attrs.push(("error.type", json!(other.name())));
                json!({ "code": STATUS_ERROR, "message": failure(report) })
            }
        };
        json!({
            "traceId": hex(&self.run.trace_id),
            "spanId": self.span_id(0),
            "name": format!("invoke_agent {}", self.run.agent),
            "kind": INTERNAL,
            "startTimeUnixNano": self.run.times.start.to_string(),
            "endTimeUnixNano": self.run.times.end.max(self.run.times.start).to_string(),
            "attributes": attributes(&attrs),
            "events": events,
            "status": status,
        })
    }
}

/// Why a run did not complete: its error, else its status.
fn failure(report: &RunReport) -> String {
    let error = report.events.iter().rev().find_map(|event| match &event.kind {
        EventKind::RunCompleted { error, .. } => error.clone(),
        _ => None,
    });
    error.unwrap_or_else(|| report.status.name().to_owned())
}

/// A `read_section` call's event: which section the model read.
fn section_read(event: &Event, at: u64) -> Option<Value> {
    let EventKind::ToolCall { name, args, success: true, .. } = &event.kind else { return None };
    let key = args.get("section_key").filter(|_| name == "read_section")?;
    Some(json!({
        "timeUnixNano": at.to_string(),
        "name": "unfold.section_read",
        "attributes": attributes(&[("unfold.section.key", key.clone()), ("unfold.attempt", json!(event.attempt))]),
    }))
}

/// An event of the run as a span event `unfold.{type}`, its fields as attributes `unfold.{field}`.
fn span_event(event: &Event, at: u64) -> Value {
    let fields = serde_json::to_value(event).unwrap_or(Value::Null);
    let kind = fields.get("type").and_then(Value::as_str).unwrap_or("event").to_string();
    let mut attrs: Vec<(String, Value)> = Vec::new();
    if let Value::Object(map) = fields {
        for (key, value) in map {
            if key != "type" && key != "seq" && !value.is_null() {
                attrs.push((format!("unfold.{key}"), value));
            }
        }
    }
    json!({
        "timeUnixNano": at.to_string(),
        "name": format!("unfold.{kind}"),
        "attributes": attrs.iter().map(|(k, v)| key_value(k, v)).collect::<Vec<_>>(),
    })
}

fn attributes(list: &[(&str, Value)]) -> Value {
    Value::Array(list.iter().map(|(key, value)| key_value(key, value)).collect())
}

fn key_value(key: &str, value: &Value) -> Value {
    json!({ "key": key, "value": any_value(value) })
}

/// A JSON value as an OTLP `AnyValue`: integers as decimal strings (int64 in JSON), objects as
/// key-value lists.
fn any_value(value: &Value) -> Value {
    match value {
        Value::String(text) => json!({ "stringValue": text }),
        Value::Bool(flag) => json!({ "boolValue": flag }),
        Value::Number(n) => match n.as_i64() {
            Some(int) => json!({ "intValue": int.to_string() }),
            None => json!({ "doubleValue": n.as_f64().unwrap_or_default() }),
        },
        Value::Array(items) => json!({ "arrayValue": { "values": items.iter().map(any_value).collect::<Vec<_>>() } }),
        Value::Object(map) => json!({ "kvlistValue": { "values": kv_list(map) } }),
        Value::Null => json!({}),
    }
}

fn kv_list(map: &Map<String, Value>) -> Vec<Value> {
    map.iter().map(|(key, value)| key_value(key, value)).collect()
}

/// The id of the run's `index`-th span: a hash of the trace id and the index, never zero.
fn span_id(trace_id: &[u8; 16], index: usize) -> [u8; 8] {
    // FNV-1a: stable across builds and platforms, which a std hasher does not promise.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in trace_id.iter().chain(&(index as u64).to_le_bytes()) {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash.max(1).to_be_bytes()
}

/// Lower-case hex, as OTLP/JSON writes trace and span ids.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_without_times_are_spread_over_the_run() {
        let times = RunTimes { start: 1_000, end: 2_000, events: Vec::new() };
        assert_eq!((0..3).map(|seq| times.event(seq, 3)).collect::<Vec<_>>(), [1_250, 1_500, 1_750]);
        let seen = RunTimes { start: 1_000, end: 2_000, events: vec![1_100, 1_900] };
        assert_eq!(seen.event(1, 2), 1_900);
    }

    #[test]
    fn span_ids_differ_by_index_and_trace() {
        let trace = [7; 16];
        assert_ne!(span_id(&trace, 0), span_id(&trace, 1));
        assert_ne!(span_id(&trace, 0), span_id(&[8; 16], 0));
        assert_eq!(hex(&[0, 15, 255]), "000fff");
    }
}
