//! A recently opened files list (templates, or scenarios) as the app shows it: newest first, each
//! file with whether it is still there. A list that cannot be read or written is a convenience
//! lost, logged, never the failure of the open or save that succeeded.

use std::path::{Path, PathBuf};

use unfold_stores::recent::RecentFiles;

use crate::error::AppResult;

/// The recent files list kept in `file`; none when there is no config folder.
#[derive(Debug)]
pub struct Recent(Option<RecentFiles>);

/// One recently opened file.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RecentFileDto {
    /// Its path.
    pub path: String,
    /// Whether it is still there (a moved or deleted file is shown as such).
    pub exists: bool,
}

impl RecentFileDto {
    fn of(path: String) -> RecentFileDto {
        let exists = Path::new(&path).is_file();
        RecentFileDto { path, exists }
    }
}

impl Recent {
    /// The list kept in `file`, if there is one.
    pub fn at(file: Option<PathBuf>) -> Recent {
        Recent(file.map(RecentFiles::at))
    }

    /// Puts `path` first on the list.
    pub fn remember(&self, path: Option<&str>) {
        let (Some(recent), Some(path)) = (&self.0, path) else { return };
        if let Err(error) = recent.add(Path::new(path)) {
            tracing::warn!(%error, "cannot update the recent files list");
        }
    }

    /// The list as the UI shows it.
    pub fn list(&self) -> Vec<RecentFileDto> {
        let Some(recent) = &self.0 else { return Vec::new() };
        let read = recent.read();
        if let Some(why) = &read.unreadable {
            tracing::warn!(why, "the recent files list was unreadable and starts again empty");
        }
        read.paths.into_iter().map(RecentFileDto::of).collect()
    }

    /// Takes `path` off the list.
    pub fn forget(&self, path: &str) -> AppResult<Vec<RecentFileDto>> {
        if let Some(recent) = &self.0 {
            recent.forget(path)?;
        }
        Ok(self.list())
    }
}
