//! Editing a scenario in the app's compare view. The scenario panel sends the whole scenario on
//! every change (a scenario is a few kilobytes, and its form has no finer edits to name), so a
//! step of its history is a whole earlier scenario. [`ScenarioDocument`] keeps it with its file,
//! its undo history and its problems, alone and against the template it runs on.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::open_documents::{FileDocument, RecoveryState};
use crate::undo::UndoHistory;
use crate::views::{DocumentStatus, ProblemView};
use unfold_documents::error::{Problem, Result};
use unfold_documents::scenario::{Scenario, Step};
use unfold_documents::template::Template;

/// A scenario being edited: its file, its undo history, and whether it differs from what was saved.
#[derive(Debug, Clone)]
pub struct ScenarioDocument {
    scenario: Scenario,
    path: Option<PathBuf>,
    undo: UndoHistory<Scenario>,
    recovery: RecoveryState,
}

impl ScenarioDocument {
    /// A new, never saved scenario.
    pub fn new(scenario: Scenario) -> ScenarioDocument {
        ScenarioDocument { scenario, path: None, undo: UndoHistory::new(false), recovery: RecoveryState::default() }
    }

    /// The scenario as it stands.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// Replaces the scenario with what the panel holds now. Changes of one `group` in a row
    /// (keystrokes in one field) undo as one step. A scenario with problems is kept (they are
    /// listed) but never saved.
    pub fn replace(&mut self, scenario: Scenario, group: Option<String>) {
        if scenario == self.scenario {
            return;
        }
        let old = std::mem::replace(&mut self.scenario, scenario);
        self.undo.record(old, group);
    }

    /// Undoes the last step; false when there is none.
    pub fn undo(&mut self) -> bool {
        self.step(true)
    }

    /// Redoes the last undone step; false when there is none.
    pub fn redo(&mut self) -> bool {
        self.step(false)
    }

    fn step(&mut self, backwards: bool) -> bool {
        let current = &mut self.scenario;
        let taken = self.undo.take(backwards, |earlier| Ok((std::mem::replace(current, earlier), ())));
        matches!(taken, Ok(Some(())))
    }

    /// What is wrong with the scenario now: its own problems (what opening its saved file would
    /// report) and, when it has none, those of running it on `template`.
    pub fn problems(&self, template: Option<&Template>) -> Vec<Problem> {
        match Scenario::from_json(self.scenario.to_json().as_bytes()) {
            Err(error) => error.problems().to_vec(),
            Ok(_) => template.map(|t| self.scenario.problems_with(t)).unwrap_or_default(),
        }
    }

    /// The document as the scenario panel shows it, checked against `template` when one is open.
    pub fn view(&self, id: u32, template: Option<&Template>) -> ScenarioView {
        let problems = self.problems(template);
        // A scenario with problems does not run, so what its calls would do is not yet the question.
        let warnings = match template {
            Some(template) if problems.is_empty() => self.scenario.warnings_with(template),
            _ => Vec::new(),
        };
        ScenarioView {
            status: DocumentStatus::of(id, self.path.as_deref(), &self.undo, &problems),
            warnings: warnings.iter().map(ProblemView::from).collect(),
            scenario: self.scenario.clone(),
        }
    }
}

impl FileDocument for ScenarioDocument {
    const NOUN: &'static str = "scenario";
    const UNTITLED: &'static str = "untitled-scenario";

    fn open(path: &Path) -> Result<Self> {
        let scenario = Scenario::load(path)?;
        let recovery = RecoveryState::default();
        Ok(ScenarioDocument { scenario, path: Some(path.to_owned()), undo: UndoHistory::new(true), recovery })
    }

    fn recovered(text: &[u8]) -> Result<Self> {
        Ok(ScenarioDocument::new(Scenario::from_json_with_problems(text)?))
    }

    fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    fn set_path(&mut self, path: PathBuf) {
        self.path = Some(path);
    }

    fn is_dirty(&self) -> bool {
        self.undo.is_dirty()
    }

    fn revision(&self) -> u64 {
        self.undo.revision()
    }

    fn text(&self) -> String {
        self.scenario.to_json()
    }

    type Snapshot = Scenario;

    fn snapshot(&self) -> Scenario {
        self.scenario.clone()
    }

    fn snapshot_text(scenario: &Scenario) -> String {
        scenario.to_json()
    }

    fn recovery(&mut self) -> &mut RecoveryState {
        &mut self.recovery
    }

    fn check_text(text: &[u8]) -> Result<()> {
        Scenario::from_json(text).map(drop)
    }

    fn mark_saved(&mut self) {
        self.undo.mark_saved();
    }
}

/// A new scenario for `template`: the user asks, the model answers at once. Something to run
/// straight away, and to add steps to.
pub fn starter_scenario(template: &Template) -> Scenario {
    Scenario {
        schema_version: unfold_documents::document::SCHEMA_VERSION,
        kind: unfold_documents::document::DocumentKind::Scenario.tag().to_owned(),
        name: format!("{} scenario", template.key),
        params: Default::default(),
        user: Some("Hello.".to_owned()),
        script: vec![Step::Say { say: "Done.".to_owned() }],
        turns: Vec::new(),
        tool_results: Default::default(),
        tool_changes: Vec::new(),
        limits: None,
        extensions: Default::default(),
    }
}

/// An open scenario as the scenario panel shows it after each change.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ScenarioView {
    /// Its state; its problems are its own and those of running it on the open template.
    #[serde(flatten)]
    pub status: DocumentStatus,
    /// What its calls will do wrong on the open template (an unknown tool, arguments the tool's
    /// schema refuses, an unknown section): the run plays them as failed tool results.
    pub warnings: Vec<ProblemView>,
    /// The scenario.
    pub scenario: Scenario,
}
