//! The app's side of spec 8's trust rule: which of a template's sources the user allowed, asked
//! once per file and definition (the question names the command or the URL) and again when the
//! definition changes; the consent a run of that template gets from those answers; and what each
//! source offers, from its snapshot or, on request, listed live from the allowed ones. The
//! command line asks nothing: `--allow-sources` is its answer.

use std::collections::BTreeSet;
use std::path::Path;

use unfold_documents::discovery::{Discovery, Tier};
use unfold_documents::source::ToolSource;
use unfold_documents::{Template, Tool};
use unfold_sources::consent::is_loopback_url;
use unfold_sources::Consent;
use unfold_stores::consent_store::{ConsentStore, Trust};

use crate::error::{AppError, AppResult, ErrorCode};

/// Whether the user allowed a source, as of its definition now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum Permission {
    /// Allowed: runs start it.
    Allowed,
    /// Allowed once, but its definition changed since: runs use its snapshot until allowed again.
    Changed,
    /// Not allowed (never asked, or taken back): runs use its snapshot.
    NotAllowed,
    /// It cannot be allowed: the template has no file to keep the answer for.
    Unsaved,
    /// Nothing to allow: a relay source starts nothing; a run takes its tools from the relay
    /// session it is attached to, which the user picks for that run.
    NotNeeded,
}

/// One source as the Sources panel shows it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SourceView {
    /// Its name.
    pub name: String,
    /// The section its tools belong to (none: the template's own tools).
    pub section: Option<String>,
    /// What starting it does, as the question names it: the command line and its folder, the
    /// URL, or the relay plugin.
    pub starts: String,
    /// Whether its URL reaches another machine (allowing it allows that too).
    pub remote: bool,
    /// The user's answer.
    pub permission: Permission,
    /// Where its tools shown here came from.
    pub tier: Tier,
    /// Why a lower tier was used, or a listed tool is left out of runs, if so.
    pub error: Option<String>,
    /// Its tools as listed, in its order, with their metadata.
    pub tools: Vec<Tool>,
}

/// The answers the user gave, kept beside the app's other settings.
#[derive(Debug)]
pub struct Consents(Option<ConsentStore>);

impl Consents {
    /// The answers kept in `file`; none are kept without one (every source stays unstarted).
    pub fn at(file: Option<std::path::PathBuf>) -> Consents {
        Consents(file.map(ConsentStore::at))
    }

    fn trust(&self, path: Option<&Path>, source: &ToolSource) -> Permission {
        if source.mcp.is_none() {
            return Permission::NotNeeded;
        }
        match (&self.0, path) {
            (Some(trust), Some(path)) => match trust.trust(path, source) {
                Trust::Allowed => Permission::Allowed,
                Trust::Changed => Permission::Changed,
                Trust::NotAsked => Permission::NotAllowed,
            },
            _ => Permission::Unsaved,
        }
    }

    /// The consent a run of `template` (at `path`) gets: the allowed sources start, and those of
    /// them with a URL may reach it, since the question named it.
    pub fn consent(&self, template: &Template, path: Option<&Path>) -> Consent {
        let allowed: BTreeSet<String> = template
            .sources
            .iter()
            .filter(|source| self.trust(path, source) == Permission::Allowed)
            .map(|source| source.name.clone())
            .collect();
        Consent { start: !allowed.is_empty(), remote: allowed.clone(), only: Some(allowed) }
    }

    /// Allows the source `name` of `template` (at `path`) as it is defined now.
    pub fn allow(&self, template: &Template, path: Option<&Path>, name: &str) -> AppResult<()> {
        let source = named(template, name)?;
        if source.mcp.is_none() {
            let why = "a relay source starts nothing: attach a run to a relay session instead";
            return Err(AppError::new(ErrorCode::InvalidRequest, format!("cannot allow source '{name}': {why}")));
        }
        let (Some(trust), Some(path)) = (&self.0, path) else {
            let why = "save the template first: an answer is kept for its file";
            return Err(AppError::new(ErrorCode::InvalidRequest, format!("cannot allow source '{name}': {why}")));
        };
        Ok(trust.allow(path, source)?)
    }

    /// Takes back the permission of the source `name` of the template at `path`.
    pub fn revoke(&self, path: Option<&Path>, name: &str) -> AppResult<()> {
        match (&self.0, path) {
            (Some(trust), Some(path)) => Ok(trust.revoke(path, name)?),
            _ => Ok(()),
        }
    }

    /// Each source of `template` (at `path`) with the user's answer and what it offers: its
    /// snapshot, or with `discoveries` what a live listing found.
    pub fn view(
        &self,
        template: &Template,
        path: Option<&Path>,
        discoveries: Option<Vec<Discovery>>,
    ) -> Vec<SourceView> {
        let discoveries = discoveries.unwrap_or_else(|| template.offline_discoveries());
        // The tools as listed (what a snapshot keeps), and why a run leaves some out: a written
        // tool's name, or a name no API takes.
        let (_, as_run) = template.with_discovered(discoveries.clone());
        template
            .sources
            .iter()
            .map(|source| {
                let found = discoveries.iter().find(|d| d.source == source.name).cloned();
                let found = found.unwrap_or_else(|| Discovery::offline(source));
                let error = as_run.iter().find(|d| d.source == source.name).and_then(|d| d.error.clone());
                SourceView {
                    name: source.name.clone(),
                    section: source.section.clone(),
                    starts: starts(source, path),
                    remote: is_remote(source),
                    permission: self.trust(path, source),
                    tier: found.tier,
                    error: error.or(found.error),
                    tools: found.tools,
                }
            })
            .collect()
    }

    /// [`Self::view`] with the allowed sources started and listed now (then shut down); the others
    /// show their snapshots, saying why.
    pub async fn discover(&self, template: &Template, path: Option<&Path>) -> Vec<SourceView> {
        self.discover_listed(template, path).await.0
    }

    /// [`Self::discover`], and the discoveries themselves: what a preview of the template shows
    /// of its sources until they are listed again (none for a template never saved).
    pub async fn discover_listed(&self, template: &Template, path: Option<&Path>) -> (Vec<SourceView>, Vec<Discovery>) {
        let Some(path) = path else { return (self.view(template, None, None), Vec::new()) };
        let consent = self.consent(template, Some(path));
        let discoveries = crate::sources::discovered(template, path, &consent).await;
        (self.view(template, Some(path), Some(discoveries.clone())), discoveries)
    }
}

fn named<'t>(template: &'t Template, name: &str) -> AppResult<&'t ToolSource> {
    template
        .sources
        .iter()
        .find(|source| source.name == name)
        .ok_or_else(|| AppError::new(ErrorCode::InvalidRequest, format!("the template has no source named '{name}'")))
}

/// What starting `source` does, in the words the question shows.
fn starts(source: &ToolSource, path: Option<&Path>) -> String {
    if let Some(relay) = &source.relay {
        return format!("the relay plugin '{}'", relay.plugin);
    }
    let Some(mcp) = &source.mcp else { return String::new() };
    if let Some(url) = &mcp.url {
        return format!("connects to {url}");
    }
    let command = mcp.command.as_deref().unwrap_or_default();
    let line = command.iter().map(|arg| shell_word(arg)).collect::<Vec<_>>().join(" ");
    let folder = path.map(unfold_documents::save_target::folder_of).map(|folder| match &mcp.cwd {
        Some(cwd) => folder.join(cwd),
        None => folder.to_path_buf(),
    });
    let env: Vec<&str> = mcp.env.keys().map(String::as_str).collect();
    let mut words = format!("runs {line}");
    if let Some(folder) = folder {
        words.push_str(&format!(" in {}", folder.display()));
    }
    if !env.is_empty() {
        words.push_str(&format!(" with {}", env.join(", ")));
    }
    words
}

/// `arg` as a shell would need it written, so the question shows where each argument ends.
fn shell_word(arg: &str) -> String {
    let plain = !arg.is_empty() && arg.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:@%+,".contains(c));
    if plain {
        arg.to_owned()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

fn is_remote(source: &ToolSource) -> bool {
    source.mcp.as_ref().and_then(|mcp| mcp.url.as_deref()).is_some_and(|url| !is_loopback_url(url))
}
