//! The scenarios open in the compare view beside a template: new, open, edits of the whole
//! scenario, undo and redo, saves and restored unsaved work, each answered with the scenario's
//! view checked against the open template.

use std::path::Path;

use unfold_documents::Scenario;
use unfold_editing::open_documents::FileDocument;
use unfold_editing::scenario_edit::{starter_scenario, ScenarioDocument, ScenarioView};
use unfold_stores::recovery::RecoveryStore;

use crate::documents::Documents;
use crate::error::{AppError, AppResult, ErrorCode};
use crate::recovery::recovered_entry;
use crate::templates::Templates;

/// The scenarios open in the compare view.
pub type Scenarios = Documents<ScenarioDocument>;

fn invalid_scenario(error: unfold_documents::Error) -> AppError {
    AppError::invalid_as(ErrorCode::InvalidScenario)(error)
}

/// The template `template_id` as it stands, to check a scenario against.
fn template_of(templates: &Templates, template_id: Option<u32>) -> AppResult<Option<unfold_documents::Template>> {
    template_id.map(|id| templates.template(id)).transpose()
}

impl Scenarios {
    /// `work` on the scenario `id`, then its view checked against the template `template_id`.
    fn change(
        &self,
        templates: &Templates,
        id: u32,
        template_id: Option<u32>,
        work: impl FnOnce(&mut ScenarioDocument) -> AppResult<()>,
    ) -> AppResult<ScenarioView> {
        let template = template_of(templates, template_id)?;
        self.with(|scenarios| {
            let document = scenarios.get_mut(id)?;
            work(document)?;
            Ok(document.view(id, template.as_ref()))
        })
    }

    /// A new scenario for the open template.
    pub fn create(&self, templates: &Templates, template_id: u32) -> AppResult<ScenarioView> {
        let template = templates.template(template_id)?;
        self.with(|scenarios| {
            let id = scenarios.insert(ScenarioDocument::new(starter_scenario(&template)));
            Ok(scenarios.get(id)?.view(id, Some(&template)))
        })
    }

    /// Opens a scenario file; an invalid one opens nothing and lists every problem.
    pub fn open(&self, templates: &Templates, path: &str, template_id: Option<u32>) -> AppResult<ScenarioView> {
        let template = template_of(templates, template_id)?;
        self.with(|scenarios| {
            let id = scenarios.open(Path::new(path)).map_err(invalid_scenario)?;
            Ok(scenarios.get(id)?.view(id, template.as_ref()))
        })
    }

    /// Replaces the scenario `id` with what the panel holds; changes of one `group` in a row undo
    /// as one step.
    pub fn edit(
        &self,
        templates: &Templates,
        id: u32,
        scenario: Scenario,
        group: Option<String>,
        template_id: Option<u32>,
    ) -> AppResult<ScenarioView> {
        self.change(templates, id, template_id, |document| {
            document.replace(scenario, group);
            Ok(())
        })
    }

    /// Undoes (`back`) or redoes one step of the scenario `id`.
    pub fn step(
        &self,
        templates: &Templates,
        id: u32,
        back: bool,
        template_id: Option<u32>,
    ) -> AppResult<ScenarioView> {
        self.change(templates, id, template_id, |document| {
            if back {
                document.undo()
            } else {
                document.redo()
            };
            Ok(())
        })
    }

    /// Saves the scenario `id` to its file, or to `path`; one with problems is refused.
    pub fn save(
        &self,
        templates: &Templates,
        id: u32,
        path: Option<&str>,
        template_id: Option<u32>,
    ) -> AppResult<ScenarioView> {
        self.change(templates, id, template_id, |document| {
            match path {
                Some(path) => document.save_as(Path::new(path)),
                None => document.save(),
            }
            .map_err(invalid_scenario)
        })
    }

    /// Opens the recovery entry `recovery_id` as a modified scenario.
    pub fn restore(
        &self,
        templates: &Templates,
        store: &RecoveryStore,
        recovery_id: &str,
        template_id: Option<u32>,
    ) -> AppResult<ScenarioView> {
        let entry = recovered_entry(store, recovery_id)?;
        let template = template_of(templates, template_id)?;
        self.with(|scenarios| {
            let id = scenarios.restore(&entry).map_err(invalid_scenario)?;
            Ok(scenarios.get(id)?.view(id, template.as_ref()))
        })
    }

    /// The scenario `id` as it stands now, with its file.
    pub fn document(&self, id: u32) -> AppResult<(Scenario, Option<std::path::PathBuf>)> {
        self.with(|scenarios| {
            let document = scenarios.get(id)?;
            Ok((document.scenario().clone(), document.path().map(Path::to_path_buf)))
        })
    }
}
