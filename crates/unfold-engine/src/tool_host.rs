//! Tools answered outside the run (spec 8): a tool source's tools are called through a
//! [`ToolHost`], and each list it reports changed becomes a tool availability change before the
//! next model call. The engine only asks; the host, on the I/O side, talks to the sources.

use async_trait::async_trait;
use serde_json::Value;
use unfold_documents::discovery::Discovery;
use unfold_documents::{Template, Tool};

/// What a source answered a call.
#[derive(Debug, Clone, PartialEq)]
pub struct HostAnswer {
    /// False for a failed result (an error, a timeout, a closed source).
    pub success: bool,
    /// What the model is told.
    pub result: Value,
}

/// A source's whole tool list after it changed.
#[derive(Debug, Clone, PartialEq)]
pub struct ChangedList {
    /// The source's name.
    pub source: String,
    /// Its tools now, in its order.
    pub tools: Vec<Tool>,
}

/// The tool sources of one run.
#[async_trait]
pub trait ToolHost: Send {
    /// Whether a source answers `tool` now.
    fn answers(&self, tool: &str) -> bool;

    /// Calls `tool` with `arguments` (a JSON object) on its source.
    async fn call(&mut self, tool: &str, arguments: &Value) -> HostAnswer;

    /// The lists of the sources that said their tools changed since the last ask, listed afresh;
    /// each change is reported once. Asked before every model call (`before_model_call`, 1-based
    /// over the run; asked again for the same call after a restart).
    async fn changed_lists(&mut self, before_model_call: u32) -> Vec<ChangedList>;

    /// Closes every source (the run is over); a source left running is the host's to end.
    async fn close(&mut self) {}
}

/// Starts a run's tool sources: each run of a comparison (each lane) gets its own.
#[async_trait]
pub trait ToolSources: Send {
    /// What `template`'s sources offer a new run, and the host that answers for them.
    async fn open(&mut self, template: &Template) -> (Vec<Discovery>, Box<dyn ToolHost>);

    /// Whether the runs of `template` share what these sources are (a relay session, whose plugin
    /// changes its tools for every run at once), rather than each starting its own: then a
    /// comparison runs its lanes side by side, so a change reaches every lane while it runs.
    fn shared_between_runs(&self, _template: &Template) -> bool {
        false
    }
}

/// Several kinds of sources for one run (MCP servers, a relay session): each source's discovery
/// is the best tier any kind gave it (at the same tier, the later kind's: put the kinds that only
/// report their own sources last), and a call goes to the first host that answers the tool.
pub struct CombinedSources(pub Vec<Box<dyn ToolSources>>);

#[async_trait]
impl ToolSources for CombinedSources {
    async fn open(&mut self, template: &Template) -> (Vec<Discovery>, Box<dyn ToolHost>) {
        let mut best: Vec<Discovery> = Vec::new();
        let mut hosts = Vec::with_capacity(self.0.len());
        for sources in &mut self.0 {
            let (found, host) = sources.open(template).await;
            hosts.push(host);
            for discovery in found {
                match best.iter_mut().find(|d| d.source == discovery.source) {
                    Some(kept) if better(&discovery, kept) => *kept = discovery,
                    Some(_) => {}
                    None => best.push(discovery),
                }
            }
        }
        let order = |d: &Discovery| template.sources.iter().position(|s| s.name == d.source);
        best.sort_by_key(order);
        (best, Box::new(CombinedHost(hosts)))
    }

    fn shared_between_runs(&self, template: &Template) -> bool {
        self.0.iter().any(|sources| sources.shared_between_runs(template))
    }
}

fn better(found: &Discovery, kept: &Discovery) -> bool {
    let rank = |d: &Discovery| match d.tier {
        unfold_documents::discovery::Tier::Live => 0,
        unfold_documents::discovery::Tier::Snapshot => 1,
        unfold_documents::discovery::Tier::None => 2,
    };
    rank(found) <= rank(kept)
}

struct CombinedHost(Vec<Box<dyn ToolHost>>);

#[async_trait]
impl ToolHost for CombinedHost {
    fn answers(&self, tool: &str) -> bool {
        self.0.iter().any(|host| host.answers(tool))
    }

    async fn call(&mut self, tool: &str, arguments: &Value) -> HostAnswer {
        match self.0.iter_mut().find(|host| host.answers(tool)) {
            Some(host) => host.call(tool, arguments).await,
            None => HostAnswer { success: false, result: Value::String(format!("Unknown tool: '{tool}'")) },
        }
    }

    async fn changed_lists(&mut self, before_model_call: u32) -> Vec<ChangedList> {
        let mut lists = Vec::new();
        for host in &mut self.0 {
            lists.extend(host.changed_lists(before_model_call).await);
        }
        lists
    }

    async fn close(&mut self) {
        for host in &mut self.0 {
            host.close().await;
        }
    }
}
