//! The examples the app's start page offers: Unfold's own templates (`examples/`), each with the
//! scenarios it runs, built in. An example opens as files written into the app's data folder
//! (`examples/`) the first time it is asked for, so it opens saved, to be edited and saved like any
//! file, never as an unsaved copy; a file already there is the user's and is never overwritten.

use std::path::{Path, PathBuf};

use serde::Serialize;
use unfold_documents::document::{create_folder, write_atomically};
use unfold_documents::{Scenario, Template};

use crate::error::{AppError, AppResult, ErrorCode};

/// A built-in file: its name and its text.
struct BuiltIn {
    file: &'static str,
    text: &'static str,
}

/// A built-in example: what it shows, its template and its scenarios, the one to start with first.
struct Example {
    about: &'static str,
    template: BuiltIn,
    scenarios: &'static [BuiltIn],
}

macro_rules! built_in {
    ($file:literal) => {
        BuiltIn { file: $file, text: include_str!(concat!("../../../examples/", $file)) }
    };
}

/// Every example, the one that shows disclosure at its best first.
const EXAMPLES: &[Example] = &[
    Example {
        about:
            "45 tools in eight summarized areas: reading two of them saves two thirds of the prompt; reading all loses",
        template: built_in!("coding-agent.unfold.json"),
        scenarios: &[
            built_in!("coding-agent-fix-test.scenario.json"),
            built_in!("coding-agent-just-in-time.scenario.json"),
            built_in!("coding-agent-tour.scenario.json"),
        ],
    },
    Example {
        about: "A shop's FAQ in eight topics, with the tools of billing, returns and accounts behind them",
        template: built_in!("support-agent.unfold.json"),
        scenarios: &[built_in!("support-agent-refund.scenario.json")],
    },
    Example {
        about: "Tools offered by their briefs until the model picks them (pick_tools)",
        template: built_in!("support-desk.unfold.json"),
        scenarios: &[built_in!("support-desk.scenario.json")],
    },
    Example {
        about: "The specification's template: small, so showing everything wins",
        template: built_in!("task-executor.unfold.json"),
        scenarios: &[
            built_in!("lookup-first.scenario.json"),
            built_in!("read-context-then-search.scenario.json"),
            built_in!("style-only.scenario.json"),
            built_in!("plugin-adds-tool.scenario.json"),
        ],
    },
    Example {
        about: "The older open_sections protocol, where every expansion restarts",
        template: built_in!("incident-runbook.unfold.json"),
        scenarios: &[built_in!("incident-runbook.scenario.json")],
    },
    Example {
        about: "Keyed headings and mixed disclosure, as the weakincentives library writes them",
        template: built_in!("code-review.unfold.json"),
        scenarios: &[built_in!("code-review.scenario.json")],
    },
];

/// An example as the start page lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ExampleView {
    /// Its template's file name: what [`example_files`] is asked for.
    pub template: String,
    /// The template's name.
    pub name: String,
    /// What it shows, in one line.
    pub about: String,
    /// Its scenarios, the one to start with first.
    pub scenarios: Vec<ExampleScenario>,
}

/// A scenario of an example.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ExampleScenario {
    /// Its file name.
    pub file: String,
    /// The scenario's name.
    pub name: String,
}

/// Where an example's files are, once written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ExampleFiles {
    /// The template's file.
    pub template: String,
    /// The scenario's file, when one was asked for.
    pub scenario: Option<String>,
}

/// Every example, with the names its documents give themselves.
pub fn example_list() -> AppResult<Vec<ExampleView>> {
    EXAMPLES
        .iter()
        .map(|example| {
            let template = Template::from_json(example.template.text.as_bytes())?;
            let scenarios = example
                .scenarios
                .iter()
                .map(|scenario| {
                    let name = Scenario::from_json(scenario.text.as_bytes())?.name;
                    Ok(ExampleScenario { file: scenario.file.to_owned(), name })
                })
                .collect::<AppResult<Vec<_>>>()?;
            Ok(ExampleView {
                template: example.template.file.to_owned(),
                name: template.name,
                about: example.about.to_owned(),
                scenarios,
            })
        })
        .collect()
}

/// Writes the example whose template file is `template` into `folder` (with its scenario
/// `scenario`, when asked), each file only if it is not there yet, and says where they are.
pub fn example_files(folder: Option<&Path>, template: &str, scenario: Option<&str>) -> AppResult<ExampleFiles> {
    let Some(folder) = folder else {
        return Err(AppError::new(ErrorCode::InvalidRequest, "no home folder to write the example into"));
    };
    let example = EXAMPLES
        .iter()
        .find(|example| example.template.file == template)
        .ok_or_else(|| AppError::new(ErrorCode::NotFound, format!("no example has the template '{template}'")))?;
    let scenario = match scenario {
        Some(file) => Some(example.scenarios.iter().find(|built_in| built_in.file == file).ok_or_else(|| {
            AppError::new(ErrorCode::NotFound, format!("the example '{template}' has no scenario '{file}'"))
        })?),
        None => None,
    };
    create_folder(folder)?;
    Ok(ExampleFiles {
        template: written(folder, &example.template)?,
        scenario: scenario.map(|built_in| written(folder, built_in)).transpose()?,
    })
}

/// The file of `built_in` in `folder`, written if it is not there (one that is, is the user's).
fn written(folder: &Path, built_in: &BuiltIn) -> AppResult<String> {
    let path: PathBuf = folder.join(built_in.file);
    if !path.exists() {
        write_atomically(&path, built_in.text)?;
    }
    Ok(path.to_string_lossy().into_owned())
}
