//! Live runs and the run history in the app: the provider profiles (the same file `unfold run`
//! reads), whether each profile's key is set (never the key), and the run history's list, runs
//! and comparisons. The live comparison itself runs through `compare::run_comparison`.
//! The command bodies are plain functions over the state, so the tests call them with no window.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use serde::Serialize;
use specta::Type;
use tauri::State;
use unfold_live::{ProviderProfile, ProviderProfiles};
use unfold_stores::run_history::{RunComparison, RunFilter, RunHistory, RunRecord, RunSummary, StoredRun};

use crate::commands::{CommandError, CommandErrorCode};
use crate::editor::lock;

/// Where the provider profiles are kept (`None` without a home folder).
#[derive(Debug, Clone)]
pub struct Profiles(pub Option<PathBuf>);

/// The provider profiles as the settings show them.
#[derive(Debug, Clone, PartialEq, Serialize, Type)]
pub struct ProfilesView {
    /// The file they are kept in.
    pub path: Option<String>,
    /// The profiles.
    pub profiles: Vec<ProviderProfile>,
    /// For each profile, in order, whether the environment variable it takes its key from is set
    /// (always true for a profile without a key).
    pub keys_set: Vec<bool>,
}

impl Profiles {
    fn path(&self) -> Result<&PathBuf, CommandError> {
        self.0.as_ref().ok_or_else(|| CommandError {
            code: CommandErrorCode::Provider,
            message: "there is no home folder to keep provider profiles in".to_owned(),
            problems: Vec::new(),
        })
    }

    /// The profiles kept now (none before the first is saved).
    pub fn view(&self) -> Result<ProfilesView, CommandError> {
        let Some(path) = &self.0 else {
            return Ok(ProfilesView { path: None, profiles: Vec::new(), keys_set: Vec::new() });
        };
        let profiles = ProviderProfiles::load_or_empty(path)?.profiles;
        let keys_set = profiles.iter().map(|p| unfold_live::ApiKey::for_profile(p).is_ok()).collect();
        Ok(ProfilesView { path: Some(path.display().to_string()), profiles, keys_set })
    }

    /// Replaces the profiles, checked as loading them would be.
    pub fn save(&self, profiles: Vec<ProviderProfile>) -> Result<ProfilesView, CommandError> {
        let file = ProviderProfiles { profiles, ..ProviderProfiles::empty() };
        file.save(self.path()?).map_err(CommandError::invalid_as(CommandErrorCode::Provider))?;
        self.view()
    }

    /// The profile named `name`, read from the file as it is now.
    pub fn get(&self, name: &str) -> Result<ProviderProfile, CommandError> {
        let path = self.path()?;
        let profiles = ProviderProfiles::load_or_empty(path)?;
        Ok(profiles.get(name).map_err(|e| e.in_file(path))?.clone())
    }
}

/// The run history, when it could be opened (a failure is logged at start-up, not fatal).
#[derive(Debug)]
pub struct History(pub Mutex<Option<RunHistory>>);

impl History {
    fn with<T>(&self, work: impl FnOnce(&RunHistory) -> unfold_documents::Result<T>) -> Result<T, CommandError> {
        match &*lock(&self.0) {
            Some(history) => Ok(work(history)?),
            None => Err(CommandError {
                code: CommandErrorCode::Internal,
                message: "the run history could not be opened (see the log)".to_owned(),
                problems: Vec::new(),
            }),
        }
    }

    /// Keeps runs; a failure is logged, never the run's failure.
    pub fn keep(&self, records: &[RunRecord<'_>]) {
        let kept = self.with(|history| records.iter().try_for_each(|record| history.record(record).map(drop)));
        if let Err(error) = kept {
            tracing::warn!(message = %error.message, "a run was not kept in the history");
        }
    }
}

/// The provider profiles, and whether their keys are set.
#[tauri::command]
#[specta::specta]
pub async fn provider_profiles(profiles: State<'_, Arc<Profiles>>) -> Result<ProfilesView, CommandError> {
    profiles.view()
}

/// Replaces the provider profiles (a key is never among them: only the variable that holds it).
#[tauri::command]
#[specta::specta]
pub async fn save_provider_profiles(
    profiles: State<'_, Arc<Profiles>>,
    list: Vec<ProviderProfile>,
) -> Result<ProfilesView, CommandError> {
    profiles.save(list)
}

/// The kept runs `filter` matches, newest first.
#[tauri::command]
#[specta::specta]
pub async fn run_history(history: State<'_, Arc<History>>, filter: RunFilter) -> Result<Vec<RunSummary>, CommandError> {
    history.with(|h| h.list(&filter))
}

/// One kept run, whole.
#[tauri::command]
#[specta::specta]
pub async fn history_run(history: State<'_, Arc<History>>, id: u32) -> Result<StoredRun, CommandError> {
    history.with(|h| h.get(id.into()))
}

/// The kept run `id` next to the kept run `baseline`.
#[tauri::command]
#[specta::specta]
pub async fn compare_history_runs(
    history: State<'_, Arc<History>>,
    baseline: u32,
    id: u32,
) -> Result<RunComparison, CommandError> {
    history.with(|h| h.compare(baseline.into(), id.into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(name: &str, key_env: Option<&str>) -> ProviderProfile {
        ProviderProfile {
            name: name.into(),
            kind: unfold_live::ProviderKind::Openai,
            base_url: "http://127.0.0.1:11434/v1".into(),
            model: "qwen3".into(),
            temperature: None,
            max_tokens: None,
            stream: true,
            connect_timeout_ms: None,
            read_timeout_ms: None,
            api_key_env: key_env.map(str::to_owned),
            api_key_keychain: false,
        }
    }

    #[test]
    fn profiles_are_saved_checked_and_read_back_with_their_key_status() {
        let folder = tempfile::tempdir().unwrap();
        let profiles = Profiles(Some(folder.path().join("config/unfold/providers.json")));
        assert_eq!(profiles.view().unwrap().profiles, []);
        let saved = profiles
            .save(vec![profile("local", None), profile("remote", Some("UNFOLD_APP_TEST_KEY_THAT_IS_NOT_SET"))])
            .unwrap();
        assert_eq!(saved.profiles.len(), 2);
        assert_eq!(saved.keys_set, [true, false]);
        assert_eq!(profiles.get("remote").unwrap().model, "qwen3");

        let mut duplicate = profile("local", None);
        duplicate.base_url = "ftp://nowhere".into();
        let refused = profiles.save(vec![profile("local", None), duplicate]).unwrap_err();
        assert_eq!(refused.code, CommandErrorCode::Provider);
        let places: Vec<&str> = refused.problems.iter().map(|p| p.location.as_str()).collect();
        assert_eq!(places, ["/profiles/1/base_url", "/profiles/1/name"]);
        assert_eq!(profiles.view().unwrap().profiles.len(), 2, "a refused save changes nothing");
        assert!(profiles.get("nope").unwrap_err().message.contains("no profile named 'nope'"));
    }
}
