//! The backend's answers the UI's fake backend plays back
//! (`ui/src/testing/fixtures/backend.recordings.json`). Each recorded call is made again here on
//! the application layer the commands call, on a fresh document of the recorded template, and the
//! test fails when an answer is not the one recorded: the fake cannot drift from the backend
//! unnoticed. `UNFOLD_BLESS=1` rewrites the answers; to record a new call, add it with any answer.

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use serde::{Deserialize, Serialize};
    use serde_json::{json, Value};
    use unfold_application::profiles::Profiles;
    use unfold_application::scenarios::Scenarios;
    use unfold_application::templates::Templates;
    use unfold_application::AppResult;
    use unfold_documents::provider_profile::ProviderProfile;
    use unfold_documents::{Scenario, Template};
    use unfold_editing::template_edit::{TemplateEdit, ToolOwner};

    use crate::command_error::CommandError;

    /// The file the fake reads.
    #[derive(Deserialize, Serialize)]
    struct Recordings {
        about: String,
        /// The template every call is made on (the fake's example).
        template: Value,
        calls: Vec<RecordedCall>,
    }

    /// One command with its arguments (as the UI's `Platform` names them, without the document's
    /// id) and what the backend answered, as the UI receives it.
    #[derive(Deserialize, Serialize)]
    struct RecordedCall {
        command: String,
        args: Value,
        answer: Value,
    }

    #[derive(Deserialize)]
    struct PreviewArgs {
        expand: Vec<String>,
        expand_all: bool,
    }

    #[derive(Deserialize)]
    struct ImportArgs {
        text: String,
    }

    #[derive(Deserialize)]
    struct CheckArgs {
        owner: ToolOwner,
        index: Option<u32>,
        text: String,
    }

    #[derive(Deserialize)]
    struct EditArgs {
        edit: TemplateEdit,
    }

    #[derive(Deserialize)]
    struct ScenarioArgs {
        scenario: Scenario,
    }

    #[derive(Deserialize)]
    struct ProfilesArgs {
        profiles: Vec<ProviderProfile>,
    }

    fn args<T: for<'de> Deserialize<'de>>(call: &RecordedCall) -> T {
        serde_json::from_value(call.args.clone())
            .unwrap_or_else(|e| panic!("the arguments of a recorded {} do not read: {e}", call.command))
    }

    /// An answer as the UI's platform layer hands it on: `{ok, value}` or `{ok, error}`.
    fn outcome<T: Serialize>(result: AppResult<T>) -> Value {
        match result {
            Ok(value) => json!({ "ok": true, "value": value }),
            Err(error) => json!({ "ok": false, "error": CommandError::from(error) }),
        }
    }

    /// What the backend answers `call`, made on a fresh document of `template`.
    fn answer(template: &Template, call: &RecordedCall) -> Value {
        let templates = Templates::default();
        let id = templates.create(template.clone()).expect("the recorded template opens").status.id;
        match call.command.as_str() {
            "previewDocument" => {
                let PreviewArgs { expand, expand_all } = args(call);
                outcome(templates.preview(id, &expand, expand_all, None))
            }
            "importTools" => outcome(templates.import_tools(id, &args::<ImportArgs>(call).text)),
            "checkTool" => {
                let CheckArgs { owner, index, text } = args(call);
                outcome(templates.check_tool(id, &owner, index, &text))
            }
            "applyEdit" => outcome(templates.apply(id, args::<EditArgs>(call).edit, None)),
            // What the scenario panel shows of a scenario on the template: its checks.
            "editScenario" => {
                let scenarios = Scenarios::default();
                let created = scenarios.create(&templates, id).expect("a new scenario");
                let edited =
                    scenarios.edit(&templates, created.status.id, args::<ScenarioArgs>(call).scenario, None, Some(id));
                outcome(edited.map(|view| json!({ "problems": view.status.problems, "warnings": view.warnings })))
            }
            "saveProviderProfiles" => {
                let dir = tempfile::tempdir().expect("temp dir");
                let saved = Profiles(Some(dir.path().join("providers.json"))).save(args::<ProfilesArgs>(call).profiles);
                outcome(saved.map(|view| view.profiles))
            }
            other => panic!("no recorder for the command '{other}'"),
        }
    }

    #[test]
    fn the_fake_backends_recordings_are_the_backends_answers() {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../ui/src/testing/fixtures/backend.recordings.json");
        let committed = std::fs::read_to_string(&path).expect("read the recordings");
        let mut recordings: Recordings = serde_json::from_str(&committed).expect("the recordings read");
        let template =
            Template::from_json(recordings.template.to_string().as_bytes()).expect("the recorded template is valid");
        for call in &mut recordings.calls {
            call.answer = answer(&template, call);
        }
        let fresh = serde_json::to_string_pretty(&recordings).expect("serializes") + "\n";
        if std::env::var_os("UNFOLD_BLESS").is_some_and(|v| v == "1") {
            std::fs::write(&path, &fresh).expect("write the recordings");
            return;
        }
        assert!(
            committed == fresh,
            "{} is stale: run `UNFOLD_BLESS=1 cargo test -p unfold-app recordings` and commit it",
            path.display()
        );
    }
}
