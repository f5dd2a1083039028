//! The error every command answers with: the application layer's [`AppError`] as the UI reads it,
//! a stable `code` it may switch on (the application's [`ErrorCode`], exported to TypeScript), a
//! message naming the file and the place, and every problem of an invalid input at its place.

use serde::Serialize;
use specta::Type;
use unfold_application::{AppError, ErrorCode};
use unfold_editing::views::ProblemView;

/// A command's error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Type)]
pub struct CommandError {
    /// What kind of failure.
    pub code: ErrorCode,
    /// What went wrong, for the user.
    pub message: String,
    /// Every problem, each at its JSON pointer (empty unless the input was invalid).
    pub problems: Vec<ProblemView>,
}

impl From<AppError> for CommandError {
    fn from(error: AppError) -> CommandError {
        // What the user typed being invalid is the UI's to show, not the log's: a template that
        // does not render would otherwise log a line at every keystroke.
        match error.code {
            ErrorCode::UnreadableFile | ErrorCode::Unavailable | ErrorCode::Provider | ErrorCode::Internal => {
                tracing::warn!(code = ?error.code, %error, "command failed")
            }
            _ => tracing::debug!(code = ?error.code, %error, "command refused"),
        }
        let problems = error.problems.iter().map(ProblemView::from).collect();
        CommandError { code: error.code, message: error.message, problems }
    }
}

impl From<tauri::Error> for CommandError {
    fn from(error: tauri::Error) -> CommandError {
        tracing::error!(%error, "command failed");
        CommandError { code: ErrorCode::Internal, message: error.to_string(), problems: Vec::new() }
    }
}

impl From<unfold_documents::Error> for CommandError {
    fn from(error: unfold_documents::Error) -> CommandError {
        AppError::from(error).into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_error_serializes_with_a_snake_case_code_and_its_problems() {
        let error = AppError::invalid_as(ErrorCode::InvalidTemplate)(unfold_documents::Error::problem(
            "/sections/0/key",
            "\"A\" does not match ^[a-z0-9][a-z0-9._-]*$",
        ));
        assert_eq!(
            serde_json::to_value(CommandError::from(error)).expect("serializes"),
            serde_json::json!({
                "code": "invalid_template",
                "message": "/sections/0/key: \"A\" does not match ^[a-z0-9][a-z0-9._-]*$",
                "problems": [{ "location": "/sections/0/key", "message": "\"A\" does not match ^[a-z0-9][a-z0-9._-]*$" }],
            })
        );
    }
}
