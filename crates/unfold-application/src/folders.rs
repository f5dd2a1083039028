//! Where Unfold keeps what is not a user's document, so that the command line and the app find
//! the same files: the run history, the crash-recovery entries and the examples as files in the app's data folder, the
//! recent files lists in its config folder, and the provider profiles and prices where the user
//! edits them.

use std::path::PathBuf;

/// The folder name of the app's data and config, as Tauri names them from its identifier.
const APP_FOLDER: &str = "dev.unfold.studio";

/// The app's data and config folders (`None` where there is no home folder to put them in).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Folders {
    /// Where the run history and the recovery entries are kept.
    pub data: Option<PathBuf>,
    /// Where the recent files lists are kept.
    pub config: Option<PathBuf>,
}

impl Folders {
    /// The folders as the environment says, the ones the app gets from Tauri on Linux:
    /// `$XDG_DATA_HOME/dev.unfold.studio` (else `~/.local/share/…`) and
    /// `$XDG_CONFIG_HOME/dev.unfold.studio` (else `~/.config/…`).
    pub fn from_environment() -> Folders {
        let home = || variable("HOME");
        let data = variable("XDG_DATA_HOME").or_else(|| home().map(|home| home.join(".local/share")));
        let config = variable("XDG_CONFIG_HOME").or_else(|| home().map(|home| home.join(".config")));
        Folders { data: data.map(|d| d.join(APP_FOLDER)), config: config.map(|c| c.join(APP_FOLDER)) }
    }

    /// The run history's file: `$UNFOLD_HISTORY` (`off` keeps nothing), else `history.sqlite3` in
    /// the data folder.
    pub fn history_file(&self) -> Option<PathBuf> {
        match std::env::var_os("UNFOLD_HISTORY").filter(|v| !v.is_empty()) {
            Some(value) if value == "off" => None,
            Some(value) => Some(PathBuf::from(value)),
            None => Some(self.data.as_ref()?.join("history.sqlite3")),
        }
    }

    /// The crash-recovery store's folder.
    pub fn recovery_folder(&self) -> Option<PathBuf> {
        Some(self.data.as_ref()?.join("recovery"))
    }

    /// The recently opened templates' list.
    pub fn recent_templates_file(&self) -> Option<PathBuf> {
        Some(self.config.as_ref()?.join("recent-files.json"))
    }

    /// The tool sources the user allowed the app to start.
    pub fn consents_file(&self) -> Option<PathBuf> {
        Some(self.config.as_ref()?.join("source-trust.json"))
    }

    /// The recently opened scenarios' list.
    pub fn recent_scenarios_file(&self) -> Option<PathBuf> {
        Some(self.config.as_ref()?.join("recent-scenarios.json"))
    }

    /// Where the start page's examples are written to be opened as files.
    pub fn examples_folder(&self) -> Option<PathBuf> {
        Some(self.data.as_ref()?.join("examples"))
    }
}

/// Where the command line and the app look for provider profiles: `$UNFOLD_PROVIDERS`, else
/// `unfold/providers.json` in the user's configuration folder (`$XDG_CONFIG_HOME`, else
/// `~/.config`); `None` without a home folder.
pub fn default_profiles_file() -> Option<PathBuf> {
    user_file("UNFOLD_PROVIDERS", "providers.json").map(|file| file.path)
}

/// Where the command line and the app look for the user's prices: `$UNFOLD_PRICES`, else
/// `unfold/prices.json` beside the provider profiles; `None` without a home folder.
pub fn default_prices_file() -> Option<UserFile> {
    user_file("UNFOLD_PRICES", "prices.json")
}

/// A file the user edits by hand, and the environment variable that named it if one did: a file
/// the user named must be there, while the configuration folder's may not be written yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserFile {
    /// Where it is.
    pub path: PathBuf,
    /// The variable that named it (`UNFOLD_PRICES`); `None` for the configuration folder's.
    pub named_by: Option<&'static str>,
}

/// A file the user edits by hand: where `variable_name` says, else `name` in `unfold/` of the
/// configuration folder.
fn user_file(variable_name: &'static str, name: &str) -> Option<UserFile> {
    if let Some(path) = variable(variable_name) {
        return Some(UserFile { path, named_by: Some(variable_name) });
    }
    let config = variable("XDG_CONFIG_HOME").or_else(|| variable("HOME").map(|home| home.join(".config")))?;
    Some(UserFile { path: config.join("unfold").join(name), named_by: None })
}

fn variable(name: &str) -> Option<PathBuf> {
    std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from)
}
