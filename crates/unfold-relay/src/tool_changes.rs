//! What a `register-tools` or `update-tools` body changes in a session, worked out whole before the
//! session is touched: the body parsed, each tool checked, the new tool list diffed against the
//! session's, and everything the session will keep or send (its tools' JSON, the update's event)
//! serialized once. This is the CPU work a plugin's request makes, so it runs in the
//! [`crate::work_lane`], never on the threads that serve connections, and never under a lock.

use std::sync::Arc;

use bytes::Bytes;
use indexmap::IndexMap;
use serde::Serialize;
use serde_json::{json, Value};
use unfold_documents::error::{Error, Location, Problem};
use unfold_documents::Tool;

use crate::error::RelayError;
use crate::plugin_tools::{accept_tools, FailedTool};

/// A session's tools by name, in the order the plugin gave them.
pub type Tools = IndexMap<String, Tool>;

/// What a registration or an update did, as its answer says.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolChanges {
    /// Tools new to the session.
    pub added: Vec<String>,
    /// Tools gone from it.
    pub removed: Vec<String>,
    /// Tools whose definition changed.
    pub modified: Vec<String>,
    /// Tools refused, with why.
    pub failed_tools: Vec<FailedTool>,
    /// How many tools the session holds now.
    pub tool_count: usize,
    /// The tools it holds now, by name.
    #[serde(skip)]
    pub tools: Vec<String>,
}

/// What a plugin said about itself when it registered, as the session's metadata will show it.
#[derive(Debug, Clone, Default)]
pub struct PluginDescription {
    /// `pluginType`, when a string.
    pub plugin_type: Option<String>,
    /// `pluginVersion`, when a string.
    pub plugin_version: Option<String>,
    /// `"pluginType": …, "pluginVersion": …, "capabilities": …` as JSON members.
    pub members: Bytes,
    /// `environment` as JSON.
    pub environment: Bytes,
    /// `capabilities` and `environment` as sent, for the registration's answer.
    pub configuration: (Value, Value),
}

impl PluginDescription {
    /// The bytes it keeps.
    pub fn bytes(&self) -> usize {
        self.members.len() + self.environment.len()
    }

    /// A session no plugin registered in yet.
    pub fn unregistered() -> PluginDescription {
        PluginDescription::of(&json!({}))
    }

    fn of(body: &Value) -> PluginDescription {
        let field = |key: &str, absent: Value| body.get(key).cloned().unwrap_or(absent);
        let (plugin_type, plugin_version) = (field("pluginType", Value::Null), field("pluginVersion", Value::Null));
        let (capabilities, environment) = (field("capabilities", json!([])), field("environment", json!({})));
        let members = format!(
            "\"pluginType\":{},\"pluginVersion\":{},\"capabilities\":{}",
            plugin_type, plugin_version, capabilities
        );
        PluginDescription {
            plugin_type: plugin_type.as_str().map(str::to_owned),
            plugin_version: plugin_version.as_str().map(str::to_owned),
            members: Bytes::from(members),
            environment: Bytes::from(environment.to_string()),
            configuration: (capabilities, environment),
        }
    }
}

/// A change worked out and ready for the session to take.
#[derive(Debug)]
pub struct PreparedChange {
    /// The session's tools after it.
    pub tools: Arc<Tools>,
    /// Those tools as a JSON array.
    pub tools_json: Bytes,
    /// What changed, for the answer.
    pub changes: ToolChanges,
    /// `{"added": [tools], "removed": [names], "modified": [tools]}` as JSON, for the event.
    pub updates_json: String,
    /// Why, as the event says.
    pub reason: String,
    /// A registration's new description of the plugin.
    pub plugin: Option<PluginDescription>,
}

/// The body as a JSON object; an empty body is `{}`. Read as every document is (a key given twice
/// in an object is refused at its pointer, as serde_json alone would keep the last: a plugin's
/// second, hidden `description` must not be the one a model reads).
pub fn json_object(bytes: &[u8]) -> Result<Value, RelayError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(json!({}));
    }
    let value = unfold_documents::document::parse_json(bytes).map_err(|error| {
        let at_a_key = |problems: &[Problem]| {
            matches!(problems, [Problem { location: Location::Pointer(pointer), .. }] if !pointer.is_empty())
        };
        let duplicate = matches!(&error, Error::Invalid(problems) if at_a_key(&problems.list));
        match duplicate {
            true => RelayError::Invalid(format!("body{error}")),
            false => RelayError::Invalid(format!("body: not JSON ({error})")),
        }
    })?;
    if !value.is_object() {
        return Err(RelayError::Invalid("body: must be a JSON object".to_owned()));
    }
    Ok(value)
}

/// A `register-tools` body (`tools`, or `availableTools`), replacing every tool of `current`.
pub fn registration(body: &[u8], current: &Tools, max_tools: usize) -> Result<PreparedChange, RelayError> {
    let body = json_object(body)?;
    let (field, tools) = match (body.get("tools"), body.get("availableTools")) {
        (Some(tools), _) => ("tools", tools),
        (None, Some(tools)) => ("availableTools", tools),
        (None, None) => return Err(RelayError::Invalid("tools: missing (or availableTools)".to_owned())),
    };
    let values = tools.as_array().ok_or_else(|| RelayError::Invalid(format!("{field}: must be a list of tools")))?;
    if values.len() > max_tools {
        return Err(RelayError::TooManyTools { field, limit: max_tools, count: values.len() });
    }
    let (accepted, failed) = accept_tools(values);
    let new: Tools = accepted.into_iter().map(|t| (t.name.clone(), t)).collect();
    let removed = current.keys().filter(|n| !new.contains_key(*n)).cloned().collect();
    let mut prepared = prepare(current, new, removed, "registered".to_owned());
    prepared.changes.failed_tools = failed;
    prepared.plugin = Some(PluginDescription::of(&body));
    Ok(prepared)
}

/// An `update-tools` body: `{"toolUpdates": {"added", "removed", "modified"}, "reason"}`.
pub fn update(body: &[u8], current: &Tools, max_tools: usize) -> Result<PreparedChange, RelayError> {
    let body = json_object(body)?;
    let updates = body
        .get("toolUpdates")
        .and_then(Value::as_object)
        .ok_or_else(|| RelayError::Invalid("toolUpdates: missing, or not an object".to_owned()))?;
    let list = |key: &str| -> Result<&[Value], RelayError> {
        match updates.get(key) {
            None | Some(Value::Null) => Ok(&[]),
            Some(Value::Array(items)) => Ok(items),
            Some(_) => Err(RelayError::Invalid(format!("toolUpdates/{key}: must be a list"))),
        }
    };
    let (added, modified) = (list("added")?, list("modified")?);
    let removed: Vec<String> = list("removed")?
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let name = v.as_str().or_else(|| v.get("name").and_then(Value::as_str));
            name.map(str::to_owned)
                .ok_or_else(|| RelayError::Invalid(format!("toolUpdates/removed/{i}: a tool's name")))
        })
        .collect::<Result<_, _>>()?;
    if added.len() + modified.len() > max_tools {
        let count = added.len() + modified.len();
        return Err(RelayError::TooManyTools { field: "toolUpdates/added", limit: max_tools, count });
    }
    let reason = body.get("reason").and_then(Value::as_str).unwrap_or("updated").to_owned();
    let (accepted, failed) = accept_tools(&[added, modified].concat());
    let mut new = current.clone();
    new.retain(|name, _| !removed.contains(name));
    new.extend(accepted.into_iter().map(|t| (t.name.clone(), t)));
    if new.len() > max_tools {
        return Err(RelayError::TooManyTools { field: "toolUpdates/added", limit: max_tools, count: new.len() });
    }
    let gone = removed.into_iter().filter(|n| current.contains_key(n)).collect();
    let mut prepared = prepare(current, new, gone, reason);
    prepared.changes.failed_tools = failed;
    Ok(prepared)
}

/// The change from `current` to `new` (of which `removed` were dropped), serialized.
fn prepare(current: &Tools, new: Tools, removed: Vec<String>, reason: String) -> PreparedChange {
    let added: Vec<&Tool> = new.values().filter(|t| !current.contains_key(&t.name)).collect();
    let modified: Vec<&Tool> = new.values().filter(|t| current.get(&t.name).is_some_and(|old| old != *t)).collect();
    let updates_json = json!({ "added": added, "removed": removed, "modified": modified }).to_string();
    let changes = ToolChanges {
        added: added.iter().map(|t| t.name.clone()).collect(),
        removed,
        modified: modified.iter().map(|t| t.name.clone()).collect(),
        failed_tools: Vec::new(),
        tool_count: new.len(),
        tools: new.keys().cloned().collect(),
    };
    let tools_json = Bytes::from(tools_json(&new));
    PreparedChange { tools: Arc::new(new), tools_json, changes, updates_json, reason, plugin: None }
}

/// `tools` as a JSON array.
pub fn tools_json(tools: &Tools) -> String {
    serde_json::to_string(&tools.values().collect::<Vec<_>>()).unwrap_or_else(|_| "[]".to_owned())
}

/// What a session's tools were when updates began to queue: each tool's name and a fingerprint of
/// its definition (a few bytes a tool, whatever its size).
pub type Fingerprints = IndexMap<String, u64>;

/// The fingerprints of `tools`.
pub fn fingerprints(tools: &Tools) -> Fingerprints {
    tools.iter().map(|(name, tool)| (name.clone(), fingerprint(tool))).collect()
}

fn fingerprint(tool: &Tool) -> u64 {
    use std::hash::{Hash, Hasher};
    // Only ever compared within this process: the standard hasher's keys need not be stable.
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    serde_json::to_vec(tool).unwrap_or_default().hash(&mut hasher);
    hasher.finish()
}

/// Every change from the tools `before` to `now` as one update's `updates` JSON: what a stream
/// that opens after many queued updates hears instead of each of them.
pub fn merged_updates_json(before: &Fingerprints, now: &Tools) -> String {
    let added: Vec<&Tool> = now.values().filter(|t| !before.contains_key(&t.name)).collect();
    let removed: Vec<&String> = before.keys().filter(|name| !now.contains_key(*name)).collect();
    let modified: Vec<&Tool> =
        now.values().filter(|t| before.get(&t.name).is_some_and(|old| *old != fingerprint(t))).collect();
    json!({ "added": added, "removed": removed, "modified": modified }).to_string()
}
