//! The IPC surface: Tauri commands (each a few lines over `unfold-core`), their DTOs and the typed
//! `CommandError` the UI switches on by `code`. DTOs live here because the core has no specta.

use serde::Serialize;
use specta::Type;
use tauri::State;

use unfold_editing::edit::ProblemView;

use crate::Launch;

/// What kind of failure a command had: stable names the UI may switch on (never on messages).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Type)]
#[serde(rename_all = "snake_case")]
pub enum CommandErrorCode {
    /// The template file could not be read (missing, unreadable).
    UnreadableFile,
    /// The template is not valid JSON or not a valid template.
    InvalidTemplate,
    /// An edit was refused (the message says why); the document is unchanged.
    InvalidEdit,
    /// No open document has the id given (it was closed).
    UnknownDocument,
    /// Pasted or opened tools could not be imported.
    InvalidTools,
    /// The user cancelled the work (a comparison) before it ended.
    Cancelled,
    /// A provider profile or its key is missing or invalid, or a provider failed.
    Provider,
    /// Anything else: a bug or an unexpected failure; the message says what.
    Internal,
}

/// A command's error: a stable code, a user-readable message naming the file and place, and,
/// for an invalid document, every problem with its place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Type)]
pub struct CommandError {
    /// What kind of failure.
    pub code: CommandErrorCode,
    /// What went wrong, for the user.
    pub message: String,
    /// Every problem, each at its JSON pointer (empty unless the input was invalid).
    pub problems: Vec<ProblemView>,
}

impl CommandError {
    /// The error of a core failure, with `code` for what an invalid input means in this command.
    pub fn invalid_as(code: CommandErrorCode) -> impl Fn(unfold_documents::Error) -> CommandError {
        move |error| {
            let mut mapped = CommandError::from(error);
            if mapped.code == CommandErrorCode::InvalidTemplate {
                mapped.code = code;
            }
            mapped
        }
    }
}

impl From<unfold_documents::Error> for CommandError {
    fn from(error: unfold_documents::Error) -> CommandError {
        let code = match &error {
            unfold_documents::Error::Io { .. } => CommandErrorCode::UnreadableFile,
            unfold_documents::Error::Invalid(_) => CommandErrorCode::InvalidTemplate,
            unfold_documents::Error::UnknownDocument { .. } => CommandErrorCode::UnknownDocument,
            unfold_documents::Error::Provider(_) => CommandErrorCode::Provider,
            unfold_documents::Error::Cancelled => CommandErrorCode::Cancelled,
        };
        tracing::warn!(?code, %error, "command failed");
        let problems = error.problems().iter().map(ProblemView::from).collect();
        CommandError { code, message: error.to_string(), problems }
    }
}

impl From<tauri::Error> for CommandError {
    fn from(error: tauri::Error) -> CommandError {
        tracing::error!(%error, "command failed");
        CommandError { code: CommandErrorCode::Internal, message: error.to_string(), problems: Vec::new() }
    }
}

/// The template path the app was started with, if any.
#[tauri::command]
#[specta::specta]
pub fn initial_template_path(launch: State<'_, Launch>) -> Option<String> {
    launch.template_path.as_ref().map(|path| path.to_string_lossy().into_owned())
}

/// The scenario path the app was started with, if any (it opens on the compare view).
#[tauri::command]
#[specta::specta]
pub fn initial_scenario_path(launch: State<'_, Launch>) -> Option<String> {
    launch.scenario_path.as_ref().map(|path| path.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    //! The command bodies, called with no window and no Tauri app.

    use super::*;

    #[test]
    fn command_error_serializes_with_a_snake_case_code() {
        let error = CommandError {
            code: CommandErrorCode::InvalidTemplate,
            message: "a.json: line 1, column 3: expected value".to_owned(),
            problems: vec![ProblemView {
                location: "line 1, column 3".to_owned(),
                message: "expected value".to_owned(),
            }],
        };
        assert_eq!(
            serde_json::to_value(&error).expect("serializes"),
            serde_json::json!({
                "code": "invalid_template",
                "message": "a.json: line 1, column 3: expected value",
                "problems": [{ "location": "line 1, column 3", "message": "expected value" }],
            })
        );
    }
}
