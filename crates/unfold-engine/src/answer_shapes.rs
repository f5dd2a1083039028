//! A model's answer in each API's wire format, whole and as the server-sent events of a stream:
//! what a cassette keeps of an answer (`unfold-live`) and what Unfold's scripted model endpoint
//! answers a host (`unfold-hostlab`). The inverse of the live providers' readers: each shape
//! reads back as the answer it was made from, text, tool calls (their ids, names and arguments)
//! and usage.

use serde_json::{json, Value};
use unfold_documents::host_profile::HostApi;

use crate::provider::{ModelResponse, ToolCall, Usage};
use crate::request_shapes::TOOL_SEARCH;

/// `answer` as `api` sends it when not streaming; `model` named when given.
pub fn whole(api: HostApi, answer: &ModelResponse, model: Option<&str>) -> Value {
    let mut whole = match api {
        HostApi::OpenaiChat => chat_whole(answer),
        HostApi::Anthropic => anthropic_whole(answer),
        HostApi::OpenaiResponses => responses_whole(answer),
        HostApi::Gemini => gemini_chunk(answer, &text_parts(answer), true),
    };
    if let Some(model) = model {
        let key = if api == HostApi::Gemini { "modelVersion" } else { "model" };
        whole[key] = Value::from(model);
    }
    whole
}

/// `answer` as `api` streams it: each event's text, `event:` line (where the API names events) and
/// `data:` line, with the blank line that ends it; OpenAI Chat's stream ends with `data: [DONE]`.
pub fn stream(api: HostApi, answer: &ModelResponse, model: Option<&str>) -> Vec<String> {
    let model = model.unwrap_or_default();
    match api {
        HostApi::OpenaiChat => chat_stream(answer, model),
        HostApi::Anthropic => anthropic_stream(answer, model),
        HostApi::OpenaiResponses => responses_stream(answer, model),
        HostApi::Gemini => gemini_stream(answer),
    }
}

/// A call's arguments as the JSON text the OpenAI APIs carry: arguments a model sent that were not
/// JSON (kept as their text) stay that text.
pub fn argument_text(arguments: &Value) -> String {
    match arguments {
        Value::String(text) if !text.trim().is_empty() && serde_json::from_str::<Value>(text).is_err() => text.clone(),
        other => other.to_string(),
    }
}

fn data(value: &Value) -> String {
    format!("data: {value}\n\n")
}

fn named(value: &Value) -> String {
    format!("event: {}\ndata: {value}\n\n", value["type"].as_str().unwrap_or_default())
}

fn cache_read(usage: &Usage) -> Option<u64> {
    usage.cache.map(|cache| cache.read_tokens)
}

// OpenAI Chat Completions.

fn chat_call(call: &ToolCall) -> Value {
    json!({ "id": call.id, "type": "function", "function": { "name": call.name, "arguments": argument_text(&call.arguments) } })
}

fn chat_usage(usage: &Usage) -> Value {
    let mut shaped = json!({ "prompt_tokens": usage.prompt_tokens, "completion_tokens": usage.completion_tokens,
                             "total_tokens": usage.prompt_tokens + usage.completion_tokens });
    if let Some(read) = cache_read(usage) {
        shaped["prompt_tokens_details"] = json!({ "cached_tokens": read });
    }
    shaped
}

fn finish_reason(answer: &ModelResponse) -> &'static str {
    if answer.cut_at_limit {
        "length"
    } else if answer.tool_calls.is_empty() {
        "stop"
    } else {
        "tool_calls"
    }
}

/// An id of this answer's own, the same every time it is shaped: a host tells answers apart by
/// their ids (Claude Code merges the blocks of answers that share one into one message).
fn answer_id(answer: &ModelResponse) -> String {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    answer.text.hash(&mut hasher);
    for call in &answer.tool_calls {
        (&call.id, &call.name, call.arguments.to_string()).hash(&mut hasher);
    }
    format!("{:016x}", hasher.finish())
}

fn chat_whole(answer: &ModelResponse) -> Value {
    let mut message = json!({ "role": "assistant", "content": answer.text });
    if !answer.tool_calls.is_empty() {
        message["tool_calls"] = answer.tool_calls.iter().map(chat_call).collect();
    }
    let mut whole = json!({ "id": format!("chatcmpl-{}", answer_id(answer)), "object": "chat.completion", "created": 0,
                            "choices": [{ "index": 0, "message": message, "finish_reason": finish_reason(answer) }] });
    if let Some(usage) = &answer.usage {
        whole["usage"] = chat_usage(usage);
    }
    whole
}

fn chat_stream(answer: &ModelResponse, model: &str) -> Vec<String> {
    let id = format!("chatcmpl-{}", answer_id(answer));
    let chunk = |delta: Value, finish: Option<&str>| {
        data(&json!({ "id": id, "object": "chat.completion.chunk", "created": 0, "model": model,
                      "choices": [{ "index": 0, "delta": delta, "finish_reason": finish }] }))
    };
    let mut events = vec![chunk(json!({ "role": "assistant", "content": "" }), None)];
    if let Some(text) = &answer.text {
        events.push(chunk(json!({ "content": text }), None));
    }
    for (index, call) in answer.tool_calls.iter().enumerate() {
        let start = json!({ "index": index, "id": call.id, "type": "function", "function": { "name": call.name, "arguments": "" } });
        events.push(chunk(json!({ "tool_calls": [start] }), None));
        let arguments = json!({ "index": index, "function": { "arguments": argument_text(&call.arguments) } });
        events.push(chunk(json!({ "tool_calls": [arguments] }), None));
    }
    events.push(chunk(json!({}), Some(finish_reason(answer))));
    if let Some(usage) = &answer.usage {
        events.push(data(&json!({ "id": id, "object": "chat.completion.chunk", "created": 0,
                                  "model": model, "choices": [], "usage": chat_usage(usage) })));
    }
    events.push("data: [DONE]\n\n".to_owned());
    events
}

// Anthropic Messages.

fn anthropic_blocks(answer: &ModelResponse) -> Vec<Value> {
    let text = answer.text.iter().map(|text| json!({ "type": "text", "text": text }));
    let calls = answer
        .tool_calls
        .iter()
        .map(|call| json!({ "type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments }));
    text.chain(calls).collect()
}

fn stop_reason(answer: &ModelResponse) -> &'static str {
    if answer.cut_at_limit {
        "max_tokens"
    } else if answer.tool_calls.is_empty() {
        "end_turn"
    } else {
        "tool_use"
    }
}

/// Anthropic's input tokens leave out those read from and written to its cache.
fn anthropic_input(usage: &Usage) -> Value {
    let mut shaped = json!({ "input_tokens": usage.prompt_tokens });
    if let Some(cache) = &usage.cache {
        shaped["cache_read_input_tokens"] = json!(cache.read_tokens);
        shaped["cache_creation_input_tokens"] = json!(cache.write_tokens);
    }
    shaped
}

fn anthropic_whole(answer: &ModelResponse) -> Value {
    let mut whole = json!({ "id": format!("msg_{}", answer_id(answer)), "type": "message", "role": "assistant", "content": anthropic_blocks(answer),
                            "stop_reason": stop_reason(answer), "stop_sequence": null });
    if let Some(usage) = &answer.usage {
        let mut shaped = anthropic_input(usage);
        shaped["output_tokens"] = json!(usage.completion_tokens);
        whole["usage"] = shaped;
    }
    whole
}

fn anthropic_stream(answer: &ModelResponse, model: &str) -> Vec<String> {
    // The API always says the usage; an answer without one (a server that did not) streams none.
    let mut started = json!({ "id": format!("msg_{}", answer_id(answer)), "type": "message", "role": "assistant", "model": model,
                              "content": [], "stop_reason": null, "stop_sequence": null });
    if let Some(usage) = &answer.usage {
        started["usage"] = anthropic_input(usage);
        started["usage"]["output_tokens"] = json!(0);
    }
    let mut events = vec![named(&json!({ "type": "message_start", "message": started }))];
    for (index, block) in anthropic_blocks(answer).into_iter().enumerate() {
        let (start, delta) = match block["type"].as_str() {
            Some("text") => {
                (json!({ "type": "text", "text": "" }), json!({ "type": "text_delta", "text": block["text"] }))
            }
            _ => (
                json!({ "type": "tool_use", "id": block["id"], "name": block["name"], "input": {} }),
                json!({ "type": "input_json_delta", "partial_json": block["input"].to_string() }),
            ),
        };
        events.push(named(&json!({ "type": "content_block_start", "index": index, "content_block": start })));
        events.push(named(&json!({ "type": "content_block_delta", "index": index, "delta": delta })));
        events.push(named(&json!({ "type": "content_block_stop", "index": index })));
    }
    let mut ended =
        json!({ "type": "message_delta", "delta": { "stop_reason": stop_reason(answer), "stop_sequence": null } });
    if let Some(usage) = &answer.usage {
        ended["usage"] = json!({ "output_tokens": usage.completion_tokens });
    }
    events.push(named(&ended));
    events.push(named(&json!({ "type": "message_stop" })));
    events
}

// OpenAI Responses.

fn responses_items(answer: &ModelResponse) -> Vec<Value> {
    let tag = answer_id(answer);
    let said = answer.text.iter().map(|text| {
        json!({ "type": "message", "id": format!("msg_{tag}"), "role": "assistant", "status": "completed",
                "content": [{ "type": "output_text", "text": text, "annotations": [] }] })
    });
    let calls = answer.tool_calls.iter().enumerate().map(|(index, call)| match call.name.as_str() {
        TOOL_SEARCH => json!({ "type": "tool_search_call", "id": format!("ts_{tag}_{index}"), "call_id": call.id,
                               "execution": "client", "arguments": call.arguments, "status": "completed" }),
        name => {
            let mut item = json!({ "type": "function_call", "id": format!("fc_{tag}_{index}"), "call_id": call.id,
                                   "name": name, "arguments": argument_text(&call.arguments), "status": "completed" });
            // A function offered in a namespace (`namespace.function`: Codex groups MCP tools so)
            // is called by its own name, with its namespace beside it.
            if let Some((namespace, function)) = name.split_once('.') {
                item["name"] = json!(function);
                item["namespace"] = json!(namespace);
            }
            item
        }
    });
    said.chain(calls).collect()
}

fn responses_whole(answer: &ModelResponse) -> Value {
    let mut whole = json!({ "id": format!("resp_{}", answer_id(answer)), "object": "response", "created_at": 0, "status": "completed",
                            "error": null, "output": responses_items(answer) });
    if answer.cut_at_limit {
        whole["status"] = json!("incomplete");
        whole["incomplete_details"] = json!({ "reason": "max_output_tokens" });
    }
    if let Some(usage) = &answer.usage {
        whole["usage"] = json!({ "input_tokens": usage.prompt_tokens, "output_tokens": usage.completion_tokens,
                                 "total_tokens": usage.prompt_tokens + usage.completion_tokens });
        if let Some(read) = cache_read(usage) {
            whole["usage"]["input_tokens_details"] = json!({ "cached_tokens": read });
        }
    }
    whole
}

fn responses_stream(answer: &ModelResponse, model: &str) -> Vec<String> {
    let mut whole = responses_whole(answer);
    whole["model"] = Value::from(model);
    let mut started = whole.clone();
    started["status"] = json!("in_progress");
    started["output"] = json!([]);
    started.as_object_mut().map(|fields| fields.remove("usage"));
    let mut events = vec![json!({ "type": "response.created", "response": started })];
    for (index, item) in responses_items(answer).into_iter().enumerate() {
        let mut opened = item.clone();
        opened["status"] = json!("in_progress");
        let id = item["id"].clone();
        match item["type"].as_str() {
            Some("message") => {
                let text = item["content"][0]["text"].clone();
                opened["content"] = json!([]);
                events.push(json!({ "type": "response.output_item.added", "output_index": index, "item": opened }));
                events.push(json!({ "type": "response.output_text.delta", "item_id": id, "output_index": index,
                                    "content_index": 0, "delta": text, "logprobs": [] }));
                events.push(json!({ "type": "response.output_text.done", "item_id": id, "output_index": index,
                                    "content_index": 0, "text": text, "logprobs": [] }));
            }
            Some("function_call") => {
                opened["arguments"] = json!("");
                events.push(json!({ "type": "response.output_item.added", "output_index": index, "item": opened }));
                events.push(json!({ "type": "response.function_call_arguments.delta", "item_id": id,
                                    "output_index": index, "delta": item["arguments"] }));
                events.push(json!({ "type": "response.function_call_arguments.done", "item_id": id,
                                    "output_index": index, "arguments": item["arguments"] }));
            }
            _ => events.push(json!({ "type": "response.output_item.added", "output_index": index, "item": opened })),
        }
        events.push(json!({ "type": "response.output_item.done", "output_index": index, "item": item }));
    }
    let ended = if answer.cut_at_limit { "response.incomplete" } else { "response.completed" };
    events.push(json!({ "type": ended, "response": whole }));
    events
        .into_iter()
        .enumerate()
        .map(|(number, mut event)| {
            event["sequence_number"] = json!(number);
            named(&event)
        })
        .collect()
}

// Gemini `generateContent`.

fn text_parts(answer: &ModelResponse) -> Vec<Value> {
    let text = answer.text.iter().map(|text| json!({ "text": text }));
    let calls = answer.tool_calls.iter().map(|call| {
        let args = if call.arguments.is_object() { call.arguments.clone() } else { json!({}) };
        json!({ "functionCall": { "id": call.id, "name": call.name, "args": args } })
    });
    text.chain(calls).collect()
}

/// One `GenerateContentResponse`: `parts`, and when `last`, the finish reason and the usage.
fn gemini_chunk(answer: &ModelResponse, parts: &[Value], last: bool) -> Value {
    let mut candidate = json!({ "content": { "role": "model", "parts": parts }, "index": 0 });
    if last {
        candidate["finishReason"] = json!(if answer.cut_at_limit { "MAX_TOKENS" } else { "STOP" });
    }
    let mut chunk = json!({ "candidates": [candidate] });
    if let Some(usage) = answer.usage.as_ref().filter(|_| last) {
        chunk["usageMetadata"] = json!({ "promptTokenCount": usage.prompt_tokens,
            "candidatesTokenCount": usage.completion_tokens, "totalTokenCount": usage.prompt_tokens + usage.completion_tokens });
        if let Some(read) = cache_read(usage) {
            chunk["usageMetadata"]["cachedContentTokenCount"] = json!(read);
        }
    }
    chunk
}

/// Gemini's stream (`streamGenerateContent?alt=sse`): one response per part, the last with the
/// finish reason and the usage.
fn gemini_stream(answer: &ModelResponse) -> Vec<String> {
    let parts = text_parts(answer);
    if parts.is_empty() {
        return vec![data(&gemini_chunk(answer, &[], true))];
    }
    let last = parts.len() - 1;
    parts
        .iter()
        .enumerate()
        .map(|(at, part)| data(&gemini_chunk(answer, std::slice::from_ref(part), at == last)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provider::MeasuredCache;

    fn answer() -> ModelResponse {
        ModelResponse {
            text: Some("Looking.".into()),
            tool_calls: vec![ToolCall { id: "c1".into(), name: "lookup".into(), arguments: json!({ "id": 7 }) }],
            usage: Some(Usage {
                prompt_tokens: 40,
                completion_tokens: 5,
                cache: Some(MeasuredCache { read_tokens: 32, write_tokens: 0, in_prompt_tokens: true }),
            }),
            cut_at_limit: false,
        }
    }

    #[test]
    fn an_answer_cut_at_the_limit_says_so_in_each_apis_words() {
        let cut = ModelResponse { cut_at_limit: true, ..answer() };
        let said = |api| whole(api, &cut, None);
        assert_eq!(said(HostApi::OpenaiChat)["choices"][0]["finish_reason"], "length");
        assert_eq!(said(HostApi::Anthropic)["stop_reason"], "max_tokens");
        let responses = said(HostApi::OpenaiResponses);
        assert_eq!(
            (&responses["status"], &responses["incomplete_details"]["reason"]),
            (&json!("incomplete"), &json!("max_output_tokens"))
        );
        assert_eq!(said(HostApi::Gemini)["candidates"][0]["finishReason"], "MAX_TOKENS");
        let streamed = stream(HostApi::OpenaiResponses, &cut, None);
        assert!(streamed.last().unwrap().starts_with("event: response.incomplete\n"), "{streamed:?}");
        assert_eq!(whole(HostApi::OpenaiChat, &answer(), None)["choices"][0]["finish_reason"], "tool_calls");
    }

    #[test]
    fn gemini_streams_a_part_a_chunk_and_ends_with_the_finish_and_the_usage_of_its_whole_answer() {
        let whole = whole(HostApi::Gemini, &answer(), Some("gemini-test"));
        assert_eq!(whole["modelVersion"], "gemini-test");
        let chunks: Vec<Value> = stream(HostApi::Gemini, &answer(), None)
            .iter()
            .map(|event| serde_json::from_str(event.strip_prefix("data: ").unwrap().trim_end()).unwrap())
            .collect();
        let parts: Vec<&Value> = chunks.iter().map(|chunk| &chunk["candidates"][0]["content"]["parts"][0]).collect();
        assert_eq!(json!(parts), whole["candidates"][0]["content"]["parts"]);
        assert_eq!(parts[1]["functionCall"], json!({ "id": "c1", "name": "lookup", "args": { "id": 7 } }));
        let last = chunks.last().unwrap();
        assert_eq!(last["candidates"][0]["finishReason"], "STOP");
        assert_eq!(last["usageMetadata"], whole["usageMetadata"]);
        assert_eq!(whole["usageMetadata"]["cachedContentTokenCount"], 32);
        assert!(chunks[0].get("usageMetadata").is_none());
    }
}
