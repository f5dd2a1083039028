//! The IPC surface: Tauri commands (each a few lines over `unfold-core`), their DTOs and the typed
//! `CommandError` the UI switches on by `code`. DTOs live here because the core has no specta.

use std::path::Path;

use serde::Serialize;
use specta::Type;
use tauri::State;

use unfold_core::edit::ProblemView;

use crate::Launch;

/// A rendered template as the UI shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Type)]
pub struct PreviewDto {
    /// The prompt as markdown (the UI shows it as text, never as HTML).
    pub markdown: String,
    /// The tools offered to the model, as OpenAI chat tool objects.
    #[specta(type = Vec<unfold_core::json_type::JsonValue>)]
    pub tools: Vec<serde_json::Value>,
    /// Tokens of the prompt. A `u32` so TypeScript gets a plain `number`: a prompt of 4 billion
    /// tokens does not exist, and the count saturates rather than wraps.
    pub prompt_tokens: u32,
}

impl From<unfold_core::Preview> for PreviewDto {
    fn from(preview: unfold_core::Preview) -> PreviewDto {
        PreviewDto {
            markdown: preview.markdown,
            tools: preview.tools,
            prompt_tokens: u32::try_from(preview.prompt_tokens).unwrap_or(u32::MAX),
        }
    }
}

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
    pub fn invalid_as(code: CommandErrorCode) -> impl Fn(unfold_core::Error) -> CommandError {
        move |error| {
            let mut mapped = CommandError::from(error);
            if mapped.code == CommandErrorCode::InvalidTemplate {
                mapped.code = code;
            }
            mapped
        }
    }
}

impl From<unfold_core::Error> for CommandError {
    fn from(error: unfold_core::Error) -> CommandError {
        let code = match &error {
            unfold_core::Error::Io { .. } => CommandErrorCode::UnreadableFile,
            unfold_core::Error::Invalid(_) => CommandErrorCode::InvalidTemplate,
            unfold_core::Error::UnknownDocument { .. } => CommandErrorCode::UnknownDocument,
            unfold_core::Error::Provider(_) => CommandErrorCode::Internal,
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

/// Renders the template at `path` (reading and tokenizing off the main thread).
#[tauri::command]
#[specta::specta]
pub async fn preview_template(path: String) -> Result<PreviewDto, CommandError> {
    let preview = tauri::async_runtime::spawn_blocking(move || unfold_core::preview_file(Path::new(&path))).await??;
    Ok(preview.into())
}

#[cfg(test)]
mod tests {
    //! The command bodies, called with no window and no Tauri app.

    use super::*;

    fn example(name: &str) -> String {
        format!("{}/../examples/{name}", env!("CARGO_MANIFEST_DIR"))
    }

    fn preview(path: &str) -> Result<PreviewDto, CommandError> {
        tauri::async_runtime::block_on(preview_template(path.to_owned()))
    }

    fn tool_names(preview: &PreviewDto) -> Vec<&str> {
        preview.tools.iter().filter_map(|tool| tool["function"]["name"].as_str()).collect()
    }

    #[test]
    fn preview_template_renders_the_example() {
        let preview = preview(&example("task-executor.unfold.json")).expect("the example renders");
        assert!(preview.markdown.contains("## 1 Task"), "markdown: {}", preview.markdown);
        let names = tool_names(&preview);
        assert!(names.contains(&"lookup") && names.contains(&"read_section"), "tools: {names:?}");
        assert!(preview.prompt_tokens > 0);
    }

    #[test]
    fn preview_template_names_a_broken_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("broken.unfold.json");
        std::fs::write(&path, "{ not json").expect("write");
        let path = path.to_string_lossy().into_owned();

        let error = preview(&path).expect_err("invalid JSON is an error");
        assert_eq!(error.code, CommandErrorCode::InvalidTemplate);
        assert!(error.message.contains(&path), "message: {}", error.message);
    }

    #[test]
    fn preview_template_reports_a_missing_file_as_unreadable() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("missing.unfold.json").to_string_lossy().into_owned();

        let error = preview(&path).expect_err("a missing file is an error");
        assert_eq!(error.code, CommandErrorCode::UnreadableFile);
        assert!(error.message.contains(&path), "message: {}", error.message);
    }

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
