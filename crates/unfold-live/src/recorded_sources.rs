//! What a live run's tool sources did, as a cassette keeps it (spec 8): what each source offered at
//! the start, every call to a source's tool with its answer, and every list that changed with the
//! model call it came before. [`RecordingHost`] records it around the run's real host;
//! [`ReplayHost`] answers a replay from it, offline, and notes the first call that differs.

use std::collections::HashMap;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use unfold_documents::discovery::{Discovery, Tier};
use unfold_documents::error::{Error, Result};
use unfold_documents::scenario::ToolChange;
use unfold_documents::{Template, Tool};
use unfold_engine::tool_host::{ChangedList, HostAnswer, ToolHost};

/// What the sources of one recorded run did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RecordedSources {
    /// What each source offered the run at its start.
    pub discovered: Vec<RecordedDiscovery>,
    /// Every call a source answered, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<RecordedSourceCall>,
    /// Every list that changed during the run, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<RecordedListChange>,
}

/// What one source offered at the start of the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordedDiscovery {
    /// The source's name.
    pub source: String,
    /// Where its tools came from.
    pub tier: Tier,
    /// Its tools, in its order.
    pub tools: Vec<Tool>,
    /// Why a lower tier was used, if one was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// One call a source answered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordedSourceCall {
    /// The tool.
    pub tool: String,
    /// Its arguments.
    pub args: Value,
    /// False for a failed result.
    pub success: bool,
    /// What the model was told.
    pub result: Value,
}

/// A source's whole list after it changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordedListChange {
    /// The model call it was applied before (1-based over the run).
    pub before_model_call: u32,
    /// The source.
    pub source: String,
    /// Its tools now, in its order.
    pub tools: Vec<Tool>,
}

impl RecordedSources {
    /// Whether the run had no source at all.
    pub fn is_empty(&self) -> bool {
        self.discovered.is_empty() && self.calls.is_empty() && self.changes.is_empty()
    }

    /// The discoveries a replay gives its run: those recorded.
    pub fn discoveries(&self) -> Vec<Discovery> {
        self.discovered
            .iter()
            .map(|d| Discovery {
                source: d.source.clone(),
                tier: d.tier,
                tools: d.tools.clone(),
                error: d.error.clone(),
            })
            .collect()
    }

    /// Records what `discoveries` offered.
    pub fn discovered_from(discoveries: &[Discovery]) -> Vec<RecordedDiscovery> {
        discoveries
            .iter()
            .map(|d| RecordedDiscovery {
                source: d.source.clone(),
                tier: d.tier,
                tools: d.tools.clone(),
                error: d.error.clone(),
            })
            .collect()
    }

    /// The name of every tool a recorded list (at the start or after a change) holds.
    pub fn tool_names(&self) -> impl Iterator<Item = &str> {
        let at_start = self.discovered.iter().flat_map(|d| &d.tools);
        let changed = self.changes.iter().flat_map(|c| &c.tools);
        at_start.chain(changed).map(|t| t.name.as_str())
    }

    /// Whether any recorded list holds `tool`.
    fn lists(&self, tool: &str) -> bool {
        self.tool_names().any(|name| name == tool)
    }

    /// The changes as a scenario's `tool_changes` (spec 4.5) on `template`, each at the model
    /// call it came before: what a list gained (or changed) added, what it lost removed; a tool
    /// that a written one of `template` shadows is left out, as the run left it out.
    pub fn tool_changes(&self, template: &Template) -> Vec<ToolChange> {
        let written: Vec<&str> = template.all_tools().into_iter().map(|t| t.name.as_str()).collect();
        let taken = |tools: &[Tool]| -> Vec<Tool> {
            tools.iter().filter(|tool| !written.contains(&tool.name.as_str())).cloned().collect()
        };
        let mut lists: HashMap<&str, Vec<Tool>> =
            self.discovered.iter().map(|d| (d.source.as_str(), taken(&d.tools))).collect();
        let mut changes = Vec::new();
        for change in &self.changes {
            let now = taken(&change.tools);
            let before = lists.insert(&change.source, now.clone()).unwrap_or_default();
            let add: Vec<Tool> = now.iter().filter(|tool| !before.contains(tool)).cloned().collect();
            let remove: Vec<String> = before
                .iter()
                .filter(|old| !now.iter().any(|tool| tool.name == old.name))
                .map(|old| old.name.clone())
                .collect();
            if !add.is_empty() || !remove.is_empty() {
                changes.push(ToolChange {
                    at_model_call: Some(change.before_model_call),
                    at_turn: None,
                    add,
                    remove,
                    modify: Vec::new(),
                });
            }
        }
        changes
    }

    /// Fails when a source listed live other tools than `template` offers offline (its snapshot):
    /// a scenario replays offline, so it would start from other tools than the recorded run.
    pub fn check_offline(&self, template: &Template) -> Result<()> {
        // As a run sees them: a snapshot's tool that a written one shadows is left out, as live.
        let (_, offline) = template.with_discovered(template.offline_discoveries());
        for (index, recorded) in self.discovered.iter().enumerate().filter(|(_, d)| d.tier == Tier::Live) {
            let names = |tools: &[Tool]| tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>();
            let snapshot = offline.iter().find(|d| d.source == recorded.source).map(|d| names(&d.tools));
            let live = names(&recorded.tools);
            if snapshot.as_ref() != Some(&live) {
                let message = format!(
                    "source '{}' listed other tools live [{}] than the template's snapshot of it [{}]: take a \
                     snapshot (`unfold sources snapshot TEMPLATE --allow-sources`) so the scenario starts \
                     from the same tools offline",
                    recorded.source,
                    live.join(", "),
                    snapshot.unwrap_or_default().join(", ")
                );
                return Err(Error::problem(format!("/sources/discovered/{index}"), message));
            }
        }
        Ok(())
    }
}

/// A run's tool host that records what it answered and what changed.
pub struct RecordingHost<'h> {
    inner: &'h mut dyn ToolHost,
    /// What was recorded so far (the discoveries are the caller's to add).
    pub recorded: RecordedSources,
}

impl<'h> RecordingHost<'h> {
    /// Records around `inner`.
    pub fn new(inner: &'h mut dyn ToolHost) -> RecordingHost<'h> {
        RecordingHost { inner, recorded: RecordedSources::default() }
    }
}

#[async_trait]
impl ToolHost for RecordingHost<'_> {
    fn answers(&self, tool: &str) -> bool {
        self.inner.answers(tool)
    }

    async fn call(&mut self, tool: &str, arguments: &Value) -> HostAnswer {
        let answer = self.inner.call(tool, arguments).await;
        self.recorded.calls.push(RecordedSourceCall {
            tool: tool.to_owned(),
            args: arguments.clone(),
            success: answer.success,
            result: answer.result.clone(),
        });
        answer
    }

    async fn changed_lists(&mut self, before_model_call: u32) -> Vec<ChangedList> {
        let lists = self.inner.changed_lists(before_model_call).await;
        for list in &lists {
            let change =
                RecordedListChange { before_model_call, source: list.source.clone(), tools: list.tools.clone() };
            self.recorded.changes.push(change);
        }
        lists
    }

    async fn close(&mut self) {
        self.inner.close().await;
    }
}

/// A replay's tool host: each call answered by the next recorded one, each change given before
/// the model call it came before.
pub struct ReplayHost<'c> {
    recorded: &'c RecordedSources,
    next_call: usize,
    next_change: usize,
    /// The first call that is not the recorded one: where in the cassette, and how.
    pub mismatch: Option<(String, String)>,
}

impl<'c> ReplayHost<'c> {
    /// Answers from `recorded`.
    pub fn new(recorded: &'c RecordedSources) -> ReplayHost<'c> {
        ReplayHost { recorded, next_call: 0, next_change: 0, mismatch: None }
    }

    fn differs(&mut self, pointer: String, message: String) -> HostAnswer {
        self.mismatch.get_or_insert((pointer, message.clone()));
        HostAnswer { success: false, result: Value::String(message) }
    }
}

#[async_trait]
impl ToolHost for ReplayHost<'_> {
    fn answers(&self, tool: &str) -> bool {
        self.recorded.lists(tool)
    }

    async fn call(&mut self, tool: &str, arguments: &Value) -> HostAnswer {
        let index = self.next_call;
        self.next_call += 1;
        let pointer = format!("/sources/calls/{index}");
        match self.recorded.calls.get(index) {
            None => {
                let message =
                    format!("the replay calls the source tool '{tool}'; the cassette holds no call {}", index + 1);
                self.differs("/sources/calls".to_owned(), message)
            }
            Some(recorded) if recorded.tool != tool || &recorded.args != arguments => {
                let message = format!(
                    "the replay calls {tool} {arguments}; the run recorded {} {}",
                    recorded.tool, recorded.args
                );
                self.differs(pointer, message)
            }
            Some(recorded) => HostAnswer { success: recorded.success, result: recorded.result.clone() },
        }
    }

    async fn changed_lists(&mut self, before_model_call: u32) -> Vec<ChangedList> {
        let due = self.recorded.changes[self.next_change..]
            .iter()
            .take_while(|change| change.before_model_call <= before_model_call);
        let lists: Vec<ChangedList> =
            due.map(|change| ChangedList { source: change.source.clone(), tools: change.tools.clone() }).collect();
        self.next_change += lists.len();
        lists
    }
}
