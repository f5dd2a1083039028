//! The application layer's error: a stable code saying what happened, a message for the user that
//! names the file and the place, and every problem of an invalid input at its place. The CLI turns
//! it into an exit code and lines on stderr; the app sends it to the UI as it is.

use unfold_documents::{Error, Problem};

/// What kind of failure a use case had: stable names the UI may switch on (never on messages).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// A file could not be read or written (missing, unreadable, a folder that cannot be made).
    UnreadableFile,
    /// A template is not valid JSON, not a valid template, or does not render.
    InvalidTemplate,
    /// A scenario is not valid JSON, not a valid scenario, or does not fit its template.
    InvalidScenario,
    /// A provider profile file, or a profile being saved, is invalid.
    InvalidProfiles,
    /// Pasted or opened tools could not be imported, or a tool being edited is not a tool.
    InvalidTools,
    /// An edit was refused (the message says why); the document is unchanged.
    InvalidEdit,
    /// What was asked cannot be done as asked: an argument, or a choice in the UI (the message
    /// says which and why).
    InvalidRequest,
    /// No open document has the id given (it was closed).
    UnknownDocument,
    /// What was asked for is not kept: a run, a model call, unsaved work, a comparison.
    NotFound,
    /// A store the app keeps is not available (no home folder, the history turned off or not
    /// opened); the rest of the app works.
    Unavailable,
    /// The user cancelled the work before it ended.
    Cancelled,
    /// A provider profile's key is missing, or the provider failed.
    Provider,
    /// Anything else: a bug or an unexpected failure; the message says what.
    Internal,
}

/// A failed use case.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct AppError {
    /// What kind of failure.
    pub code: ErrorCode,
    /// What went wrong, for the user.
    pub message: String,
    /// Every problem of an invalid input, each at its place (empty otherwise).
    pub problems: Vec<Problem>,
}

/// Result of the application layer's use cases.
pub type AppResult<T> = Result<T, AppError>;

impl AppError {
    /// An error with no problems listed.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> AppError {
        AppError { code, message: message.into(), problems: Vec::new() }
    }

    /// The library error `error`, where an invalid input is of the kind `invalid` names (a
    /// template, a scenario, an edit, …).
    pub fn invalid_as(invalid: ErrorCode) -> impl Fn(Error) -> AppError {
        move |error| {
            let code = match &error {
                Error::Invalid(_) => invalid,
                other => code_of(other),
            };
            AppError { code, message: error.to_string(), problems: error.problems().to_vec() }
        }
    }

    /// The errors of several files, reported at once: one message a line, every problem listed.
    pub fn of_files(code: ErrorCode, errors: &[Error]) -> AppError {
        let problems = errors.iter().flat_map(|e| e.problems().to_vec()).collect();
        let message = errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n");
        AppError { code, message, problems }
    }
}

/// The code of a library error whose invalid input is not of one known kind.
fn code_of(error: &Error) -> ErrorCode {
    match error {
        Error::Io { .. } => ErrorCode::UnreadableFile,
        Error::Invalid(_) => ErrorCode::InvalidRequest,
        Error::UnknownDocument { .. } => ErrorCode::UnknownDocument,
        Error::Provider(_) => ErrorCode::Provider,
        Error::Cancelled => ErrorCode::Cancelled,
    }
}

impl From<Error> for AppError {
    fn from(error: Error) -> AppError {
        AppError::invalid_as(code_of(&error))(error)
    }
}
