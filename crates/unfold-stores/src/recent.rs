//! The recently opened template files, newest first, kept in one small versioned JSON file
//! (`{"schema_version": 1, "kind": "unfold.recent", "paths": [...]}`) written atomically.
//!
//! The list is a convenience: a missing, broken or foreign file reads as an empty list with a
//! warning for the log, and the next change writes a good one over it. It never stops the app.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use unfold_documents::document;
use unfold_documents::error::Result;

/// The `kind` of the recent files file.
pub const RECENT_KIND: &str = "unfold.recent";
/// The version of its format.
pub const RECENT_SCHEMA_VERSION: u64 = 1;
/// How many files the list keeps.
pub const MAX_RECENT_FILES: usize = 10;

#[derive(Serialize, Deserialize)]
struct RecentFile {
    schema_version: u64,
    kind: String,
    paths: Vec<String>,
}

/// What reading the list found: the paths, and why it was unreadable if it was.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecentList {
    /// The files, newest first.
    pub paths: Vec<String>,
    /// Why the file could not be read (the list is then empty); `None` when it was read or absent.
    pub unreadable: Option<String>,
}

/// The recent files list stored at one file.
#[derive(Debug, Clone)]
pub struct RecentFiles {
    file: PathBuf,
}

impl RecentFiles {
    /// The list kept in `file` (created on the first change).
    pub fn at(file: PathBuf) -> RecentFiles {
        RecentFiles { file }
    }

    /// Reads the list; never fails (see the module's doc).
    pub fn read(&self) -> RecentList {
        if !self.file.exists() {
            return RecentList::default();
        }
        let parsed = document::read_document_bytes(&self.file).map_err(|e| e.to_string()).and_then(|bytes| {
            serde_json::from_slice::<RecentFile>(&bytes)
                .map_err(|e| format!("{}: not a recent files list: {e}", self.file.display()))
        });
        match parsed {
            Ok(file) if file.kind == RECENT_KIND && file.schema_version == RECENT_SCHEMA_VERSION => {
                RecentList { paths: tidy(file.paths), unreadable: None }
            }
            Ok(file) => RecentList {
                paths: Vec::new(),
                unreadable: Some(format!(
                    "{}: kind '{}' version {} is not a recent files list this build reads",
                    self.file.display(),
                    file.kind,
                    file.schema_version
                )),
            },
            Err(why) => RecentList { paths: Vec::new(), unreadable: Some(why) },
        }
    }

    /// Puts `path` first (once), keeps the newest [`MAX_RECENT_FILES`], and returns the list.
    pub fn add(&self, path: &Path) -> Result<Vec<String>> {
        let path = path.display().to_string();
        let mut paths = self.read().paths;
        paths.retain(|p| *p != path);
        paths.insert(0, path);
        self.write(paths)
    }

    /// Takes `path` off the list (a file that is gone) and returns the list.
    pub fn forget(&self, path: &str) -> Result<Vec<String>> {
        let mut paths = self.read().paths;
        paths.retain(|p| p != path);
        self.write(paths)
    }

    fn write(&self, paths: Vec<String>) -> Result<Vec<String>> {
        let paths = tidy(paths);
        let file = RecentFile { schema_version: RECENT_SCHEMA_VERSION, kind: RECENT_KIND.to_owned(), paths };
        document::create_parent_folder(&self.file)?;
        document::write_privately(&self.file, &document::to_canonical_json(&file))?;
        Ok(file.paths)
    }
}

/// Without duplicates or empty entries, at most [`MAX_RECENT_FILES`]: a hand-edited file cannot
/// make the list grow or repeat.
fn tidy(paths: Vec<String>) -> Vec<String> {
    let mut kept: Vec<String> = Vec::with_capacity(MAX_RECENT_FILES);
    for path in paths {
        if !path.is_empty() && !kept.contains(&path) && kept.len() < MAX_RECENT_FILES {
            kept.push(path);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list_in(dir: &tempfile::TempDir) -> RecentFiles {
        RecentFiles::at(dir.path().join("settings").join("recent.json"))
    }

    #[test]
    fn the_newest_file_comes_first_once_and_the_list_is_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let recent = list_in(&dir);
        assert_eq!(recent.read(), RecentList::default());
        for n in 0..12 {
            recent.add(Path::new(&format!("/t/{n}.unfold.json"))).unwrap();
        }
        let paths = recent.add(Path::new("/t/5.unfold.json")).unwrap();
        assert_eq!(paths.len(), MAX_RECENT_FILES);
        assert_eq!(paths[0], "/t/5.unfold.json");
        assert_eq!(paths[1], "/t/11.unfold.json");
        assert_eq!(paths.iter().filter(|p| *p == "/t/5.unfold.json").count(), 1);
        assert_eq!(recent.read().paths, paths, "the list outlives the process");
        let mode = std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&recent.file).unwrap().permissions());
        assert_eq!(mode & 0o777, 0o600, "which files a user opened is theirs alone to read");
        assert_eq!(recent.forget("/t/5.unfold.json").unwrap()[0], "/t/11.unfold.json");
    }

    #[test]
    fn a_broken_list_reads_as_empty_with_a_reason_and_is_replaced_by_the_next_change() {
        let dir = tempfile::tempdir().unwrap();
        let recent = list_in(&dir);
        std::fs::create_dir_all(dir.path().join("settings")).unwrap();
        for broken in [
            "{\"schema_version\": 1, \"kind\": \"unfold.rec",
            "[]",
            "{\"schema_version\": 9, \"kind\": \"unfold.recent\", \"paths\": []}",
        ] {
            std::fs::write(dir.path().join("settings/recent.json"), broken).unwrap();
            let read = recent.read();
            assert!(read.paths.is_empty());
            let why = read.unreadable.expect("says why");
            assert!(why.contains("recent.json"), "{why}");
        }
        assert_eq!(recent.add(Path::new("/t/a.unfold.json")).unwrap(), ["/t/a.unfold.json"]);
        assert_eq!(recent.read().unreadable, None);
    }
}
