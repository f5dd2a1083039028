//! The crash-recovery store: the unsaved text of every open document, written by the editor
//! shortly after each edit and offered back after a crash; and the sweep of the temporary files an
//! interrupted atomic save leaves behind.
//!
//! One small versioned JSON file per document (`{"schema_version": 1, "kind": "unfold.recovery",
//! "id", "path", "saved_at_ms", "text"}`) in a folder of its own, written atomically, so a crash
//! during a write leaves the previous entry intact. The file name is derived from the caller's
//! document id by an injective encoding into `[a-z0-9-]` and `_`, so no id can name a file outside
//! the folder, a hidden file or a reserved device name, and two ids never share a file, even on a
//! case-insensitive file system.
//!
//! Reading never fails as a whole: a broken entry (garbage, truncated, of another kind or version)
//! is skipped and reported, so one bad file never hides the others.

use std::io::Read;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use unfold_documents::document;
use unfold_documents::error::{Error, Result};

use crate::stable_hash::stable_hash;

/// The `kind` of a recovery file.
pub const RECOVERY_KIND: &str = "unfold.recovery";
/// The version of the recovery file format this build reads and writes.
pub const RECOVERY_SCHEMA_VERSION: u64 = 1;
/// The suffix of every recovery file's name.
pub const RECOVERY_FILE_SUFFIX: &str = ".unfold-recovery.json";
/// The largest recovery file read or written: room for the largest document Unfold loads even when
/// JSON escaping makes its text several times longer.
pub const MAX_RECOVERY_FILE_BYTES: u64 = 8 * document::MAX_DOCUMENT_BYTES;

/// Encoded ids longer than this are cut and completed by a hash, to stay within file name limits.
const MAX_ENCODED_ID_CHARS: usize = 120;

/// The unsaved state of one open document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecoveryEntry {
    /// The document's id, chosen by the editor and stable while the document is open; any string.
    pub id: String,
    /// The file the document belongs to; `None` for a document never saved.
    pub path: Option<String>,
    /// When the text was captured, in milliseconds since the Unix epoch (the caller's clock).
    pub saved_at_ms: u64,
    /// The template's JSON text as the editor holds it, possibly invalid.
    pub text: String,
}

impl RecoveryEntry {
    /// The kind of document the entry kept (its text's `kind`), if it says.
    pub fn document_kind(&self) -> Option<document::DocumentKind> {
        #[derive(Deserialize)]
        struct Kind {
            kind: Option<String>,
        }
        document::DocumentKind::of_tag(&serde_json::from_str::<Kind>(&self.text).ok()?.kind?)
    }
}

/// An entry read back from the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecoveredDocument {
    /// The file the entry was read from.
    pub file: PathBuf,
    /// The entry.
    pub entry: RecoveryEntry,
}

/// Everything in the store: the readable entries and the files that could not be read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecoveredEntries {
    /// Every readable entry, newest first (ties by id).
    pub documents: Vec<RecoveredDocument>,
    /// Each file that could not be read, with why, by file name.
    pub skipped: Vec<(PathBuf, String)>,
}

/// The on-disk form of an entry.
#[derive(Serialize)]
struct EntryFile<'e> {
    schema_version: u64,
    kind: &'static str,
    #[serde(flatten)]
    entry: &'e RecoveryEntry,
}

/// A folder of recovery entries, one file per document id.
#[derive(Debug, Clone)]
pub struct RecoveryStore {
    dir: PathBuf,
}

impl RecoveryStore {
    /// Opens the store in `dir`, creating the folder (and its parents) if needed.
    pub fn open(dir: &Path) -> Result<RecoveryStore> {
        unfold_documents::document::create_folder(dir)?;
        Ok(RecoveryStore { dir: dir.to_path_buf() })
    }

    /// The store's folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file that holds the entry of document `id` (whether or not it exists).
    pub fn file_for(&self, id: &str) -> PathBuf {
        self.dir.join(file_name_for(id))
    }

    /// Writes an entry atomically, replacing the previous entry of the same id.
    pub fn store(&self, entry: &RecoveryEntry) -> Result<()> {
        let file = EntryFile { schema_version: RECOVERY_SCHEMA_VERSION, kind: RECOVERY_KIND, entry };
        let text = document::to_canonical_json(&file);
        if text.len() as u64 > MAX_RECOVERY_FILE_BYTES {
            return Err(Error::problem(
                "/text",
                format!(
                    "the document is too large to keep for recovery ({} bytes; at most {MAX_RECOVERY_FILE_BYTES})",
                    text.len()
                ),
            ));
        }
        document::write_privately(&self.file_for(&entry.id), &text)
    }

    /// Every readable entry, newest first. A file that cannot be read is reported in `skipped`;
    /// this never fails and never panics, whatever the folder holds. Files that are not recovery
    /// entries (their name does not end with [`RECOVERY_FILE_SUFFIX`], or starts with `.` like
    /// the temporary files of an interrupted write) are ignored.
    pub fn entries(&self) -> RecoveredEntries {
        let mut found = RecoveredEntries::default();
        let listing = match std::fs::read_dir(&self.dir) {
            Ok(listing) => listing,
            Err(e) => {
                found.skipped.push((self.dir.clone(), format!("cannot list the recovery folder: {e}")));
                return found;
            }
        };
        for item in listing {
            let item = match item {
                Ok(item) => item,
                Err(e) => {
                    found.skipped.push((self.dir.clone(), format!("cannot list the recovery folder: {e}")));
                    continue;
                }
            };
            let name = item.file_name();
            let bytes = name.as_encoded_bytes();
            if bytes.starts_with(b".") || !bytes.ends_with(RECOVERY_FILE_SUFFIX.as_bytes()) {
                continue;
            }
            let file = item.path();
            match item.file_type().map(|t| t.is_file()) {
                Ok(true) => match read_entry(&file) {
                    Ok(entry) => found.documents.push(RecoveredDocument { file, entry }),
                    Err(why) => found.skipped.push((file, why)),
                },
                Ok(false) => found.skipped.push((file, "not a regular file".to_owned())),
                Err(e) => found.skipped.push((file, format!("cannot read: {e}"))),
            }
        }
        found
            .documents
            .sort_by(|a, b| b.entry.saved_at_ms.cmp(&a.entry.saved_at_ms).then_with(|| a.entry.id.cmp(&b.entry.id)));
        found.skipped.sort();
        found
    }

    /// Removes the entry of document `id` (after a save, or when the user declines it); removing
    /// an entry that does not exist is not an error.
    pub fn discard(&self, id: &str) -> Result<()> {
        let file = self.file_for(id);
        match std::fs::remove_file(&file) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(source) => Err(Error::Io { path: file.display().to_string(), action: "cannot remove", source }),
        }
    }
}

/// Reads one recovery file, or says why it cannot be used.
fn read_entry(file: &Path) -> std::result::Result<RecoveryEntry, String> {
    let mut bytes = Vec::new();
    // Never a FIFO or a device named like an entry: reading it would hold up the app's start.
    document::open_regular_file(file)
        .and_then(|f| f.take(MAX_RECOVERY_FILE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read: {e}"))?;
    if bytes.len() as u64 > MAX_RECOVERY_FILE_BYTES {
        return Err(format!("larger than {MAX_RECOVERY_FILE_BYTES} bytes"));
    }
    // The format is flat: serde_json's own recursion limit bounds whatever nesting a broken file has.
    let value: Value = serde_json::from_slice(&bytes).map_err(|e| match e.classify() {
        serde_json::error::Category::Eof => format!("truncated: {e}"),
        _ => format!("not JSON: {e}"),
    })?;
    match value.get("kind").and_then(Value::as_str) {
        Some(RECOVERY_KIND) => {}
        Some(other) => return Err(format!("a '{other}' document, not a recovery entry")),
        None => return Err(format!("not a recovery entry (no \"kind\": \"{RECOVERY_KIND}\")")),
    }
    match value.get("schema_version").and_then(Value::as_u64) {
        Some(RECOVERY_SCHEMA_VERSION) => {}
        Some(other) => return Err(format!("schema_version {other} is not supported; this version reads 1")),
        None => return Err("missing \"schema_version\"".to_owned()),
    }
    // Read again from the text, not the tree: the tree kept the last of a field given twice, and
    // the entry's own fields refuse that ("duplicate field").
    serde_json::from_slice(&bytes).map_err(|e| format!("not a valid recovery entry: {e}"))
}

/// The file name of the entry of document `id`: `r-` and the id encoded injectively into
/// `[a-z0-9-]`, every other byte written `_` and two lowercase hex digits (upper case letters too,
/// so that case-insensitive file systems cannot merge two ids), then [`RECOVERY_FILE_SUFFIX`]. A
/// long id is cut and completed by a stable hash of the whole id.
pub fn file_name_for(id: &str) -> String {
    let mut encoded = String::with_capacity(id.len());
    for byte in id.bytes() {
        if byte.is_ascii_lowercase() || byte.is_ascii_digit() || byte == b'-' {
            encoded.push(char::from(byte));
        } else {
            encoded.push_str(&format!("_{byte:02x}"));
        }
    }
    if encoded.len() > MAX_ENCODED_ID_CHARS {
        // Cut on a boundary of the encoding; `~` never occurs in an uncut name.
        let mut cut = MAX_ENCODED_ID_CHARS - 24;
        while encoded.as_bytes()[cut - 1] == b'_' || (cut >= 2 && encoded.as_bytes()[cut - 2] == b'_') {
            cut -= 1;
        }
        encoded = format!("{}~{:016x}", &encoded[..cut], stable_hash(id.as_bytes()));
    }
    format!("r-{encoded}{RECOVERY_FILE_SUFFIX}")
}

/// Removes the temporary files that [`document::write_atomically`] leaves in `dir` when it is
/// interrupted (their names start with `.` and end with [`document::TEMP_SUFFIX`]), returning how
/// many were removed. Nothing else is touched: not other files, not folders, not symbolic links,
/// nothing in subfolders. Call it at start-up, before anything writes in `dir`: a save in progress
/// would lose its temporary file. Fails only if `dir` cannot be listed; a file that cannot be
/// removed is logged and left.
pub fn sweep_temp_files(dir: &Path) -> std::io::Result<usize> {
    let mut removed = 0;
    for item in std::fs::read_dir(dir)? {
        let Ok(item) = item else { continue };
        let name = item.file_name();
        let bytes = name.as_encoded_bytes();
        if !bytes.starts_with(b".") || !bytes.ends_with(document::TEMP_SUFFIX.as_bytes()) {
            continue;
        }
        if !item.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        match std::fs::remove_file(item.path()) {
            Ok(()) => removed += 1,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => tracing::warn!(error = %e, file = %item.path().display(), "cannot remove a temporary file"),
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str, saved_at_ms: u64, text: &str) -> RecoveryEntry {
        RecoveryEntry { id: id.to_owned(), path: None, saved_at_ms, text: text.to_owned() }
    }

    fn store() -> (tempfile::TempDir, RecoveryStore) {
        let dir = tempfile::tempdir().unwrap();
        let store = RecoveryStore::open(&dir.path().join("recovery")).unwrap();
        (dir, store)
    }

    /// The names of the files in a folder, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    }

    /// The ids of the store's entries, in the order `entries` gives them.
    fn ids(store: &RecoveryStore) -> Vec<String> {
        store.entries().documents.into_iter().map(|d| d.entry.id).collect()
    }

    #[test]
    fn round_trips_an_entry() {
        let (_dir, store) = store();
        let saved = RecoveryEntry {
            id: "doc-1".to_owned(),
            path: Some("/home/ana/agents/task.unfold.json".to_owned()),
            saved_at_ms: 1_767_225_600_000,
            text: "{\n  \"schema_version\": 1,\n  \"kind\": \"unfold.templ".to_owned(),
        };
        store.store(&saved).unwrap();
        let found = store.entries();
        assert_eq!(found.skipped, []);
        assert_eq!(found.documents, [RecoveredDocument { file: store.file_for("doc-1"), entry: saved }]);
        insta::assert_snapshot!(std::fs::read_to_string(store.file_for("doc-1")).unwrap(), @r#"
        {
          "schema_version": 1,
          "kind": "unfold.recovery",
          "id": "doc-1",
          "path": "/home/ana/agents/task.unfold.json",
          "saved_at_ms": 1767225600000,
          "text": "{\n  \"schema_version\": 1,\n  \"kind\": \"unfold.templ"
        }
        "#);
        assert_eq!(names(store.dir()), ["r-doc-1.unfold-recovery.json"], "no temporary file is left");
    }

    #[test]
    fn keeps_any_text_and_a_new_document_without_path() {
        let (_dir, store) = store();
        let texts = ["", "not json at all", "\u{0}\u{1f}\"\\ é 😀\r\n", "{\"a\": [1, 2"];
        for (i, text) in texts.iter().enumerate() {
            store.store(&entry(&format!("new-{i}"), i as u64, text)).unwrap();
        }
        let found = store.entries();
        let back: Vec<&str> = found.documents.iter().rev().map(|d| d.entry.text.as_str()).collect();
        assert_eq!(back, texts);
        assert!(found.documents.iter().all(|d| d.entry.path.is_none()));
    }

    #[test]
    fn lists_newest_first() {
        let (_dir, store) = store();
        for (id, at) in [("b", 2_000), ("a", 3_000), ("c", 1_000), ("d", 3_000)] {
            store.store(&entry(id, at, "{}")).unwrap();
        }
        assert_eq!(ids(&store), ["a", "d", "b", "c"]);
    }

    #[test]
    fn a_new_entry_replaces_the_old_one_of_the_same_id() {
        let (_dir, store) = store();
        store.store(&entry("doc", 1, "first")).unwrap();
        store.store(&entry("doc", 2, "second")).unwrap();
        let found = store.entries();
        assert_eq!(found.documents.len(), 1);
        assert_eq!(found.documents[0].entry, entry("doc", 2, "second"));
    }

    #[test]
    fn skips_broken_entries_and_keeps_the_others() {
        fn check(contents: &[u8], expected: &str) {
            let (_dir, store) = store();
            store.store(&entry("good", 5, "{}")).unwrap();
            let broken = store.dir().join("r-broken.unfold-recovery.json");
            std::fs::write(&broken, contents).unwrap();
            let found = store.entries();
            assert_eq!(ids(&store), ["good"], "{expected}");
            assert_eq!(found.skipped.len(), 1, "{expected}");
            assert_eq!(found.skipped[0].0, broken);
            assert!(
                found.skipped[0].1.starts_with(expected),
                "{:?} should start with {expected:?}",
                found.skipped[0].1
            );
        }
        check(b"", "truncated: EOF while parsing a value");
        check(b"\xff\xfe\x00garbage\x9c", "not JSON: expected value");
        check(b"\x00\x00\x00\x00\x00\x00\x00\x00", "not JSON: expected value");
        check(
            br#"{"schema_version": 1, "kind": "unfold.recovery", "id": "x", "text": "{\"ke"#,
            "truncated: EOF while parsing a string",
        );
        check(
            br#"{"schema_version": 1, "kind": "unfold.recovery", "id": "x""#,
            "truncated: EOF while parsing an object",
        );
        check(b"[1, 2, 3]", "not a recovery entry (no \"kind\": \"unfold.recovery\")");
        check(
            br#"{"schema_version": 1, "kind": "unfold.template", "key": "t"}"#,
            "a 'unfold.template' document, not a recovery entry",
        );
        check(
            br#"{"schema_version": 2, "kind": "unfold.recovery"}"#,
            "schema_version 2 is not supported; this version reads 1",
        );
        check(br#"{"kind": "unfold.recovery"}"#, "missing \"schema_version\"");
        check(
            br#"{"schema_version": 1, "kind": "unfold.recovery", "id": "x", "saved_at_ms": 1}"#,
            "not a valid recovery entry: missing field `text`",
        );
        check(
            br#"{"schema_version": 1, "kind": "unfold.recovery", "id": "x", "path": null, "saved_at_ms": -1, "text": ""}"#,
            "not a valid recovery entry: invalid value: integer `-1`",
        );
        check(
            br#"{"schema_version": 1, "kind": "unfold.recovery", "id": "x", "path": null, "saved_at_ms": 1,
                "text": "{}", "text": "{\"kind\": \"unfold.template\"}"}"#,
            "not a valid recovery entry: duplicate field `text`",
        );
        check(
            format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)).as_bytes(),
            "not JSON: recursion limit exceeded",
        );
    }

    #[test]
    fn a_truncated_write_of_a_real_entry_is_skipped() {
        let (_dir, store) = store();
        store.store(&entry("a", 1, "{\"key\": \"t\"}")).unwrap();
        let file = store.file_for("a");
        let full = std::fs::read(&file).unwrap();
        for len in 0..full.len() - 1 {
            std::fs::write(&file, &full[..len]).unwrap();
            let found = store.entries();
            assert_eq!((found.documents.len(), found.skipped.len()), (0, 1), "cut at {len}");
        }
    }

    #[test]
    fn ignores_other_files_and_reports_folders_named_like_entries() {
        let (_dir, store) = store();
        store.store(&entry("a", 1, "")).unwrap();
        std::fs::write(store.dir().join("notes.txt"), "hello").unwrap();
        std::fs::write(store.dir().join(".r-a.unfold-recovery.json.x1Y2z3.unfold-tmp"), "{").unwrap();
        std::fs::write(store.dir().join(".hidden.unfold-recovery.json"), "{").unwrap();
        std::fs::create_dir(store.dir().join("r-dir.unfold-recovery.json")).unwrap();
        let found = store.entries();
        assert_eq!(ids(&store), ["a"]);
        assert_eq!(found.skipped, [(store.dir().join("r-dir.unfold-recovery.json"), "not a regular file".to_owned())]);
    }

    #[test]
    fn a_missing_folder_is_reported_not_an_error() {
        let (_dir, store) = store();
        std::fs::remove_dir(store.dir()).unwrap();
        let found = store.entries();
        assert_eq!(found.documents, []);
        assert_eq!(found.skipped.len(), 1);
        assert!(found.skipped[0].1.starts_with("cannot list the recovery folder: "), "{:?}", found.skipped);
    }

    #[test]
    fn open_creates_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        let nested = dir.path().join("app").join("recovery");
        let store = RecoveryStore::open(&nested).unwrap();
        assert!(nested.is_dir());
        assert_eq!(store.dir(), nested);
        RecoveryStore::open(&nested).unwrap();
        let file = dir.path().join("file");
        std::fs::write(&file, "").unwrap();
        assert!(matches!(RecoveryStore::open(&file), Err(Error::Io { .. })));
    }

    #[test]
    fn encodes_ids_into_safe_distinct_file_names() {
        fn check(id: &str, expected: &str) {
            assert_eq!(file_name_for(id), format!("r-{expected}.unfold-recovery.json"), "{id:?}");
        }
        check("doc-1", "doc-1");
        check("4f1c2b7e-9d3a-4c1e-8f2a-0b9c8d7e6f5a", "4f1c2b7e-9d3a-4c1e-8f2a-0b9c8d7e6f5a");
        check("", "");
        check("Doc", "_44oc");
        check("doc", "doc");
        check("a_b", "a_5fb");
        check("a_5fb", "a_5f5fb");
        check("../evil", "_2e_2e_2fevil");
        check("..", "_2e_2e");
        check("/etc/passwd", "_2fetc_2fpasswd");
        check("a\\..\\b", "a_5c_2e_2e_5cb");
        check("CON", "_43_4f_4e");
        check("é", "_c3_a9");
        check("a\0b", "a_00b");
        let long = file_name_for(&"x".repeat(1000));
        assert!(long.len() < 150, "{long}");
        assert!(long.starts_with(&format!("r-{}~", "x".repeat(96))), "{long}");
        assert_ne!(long, file_name_for(&format!("{}y", "x".repeat(999))));
        let long_escaped = file_name_for(&"_".repeat(500));
        assert!(long_escaped.starts_with(&format!("r-{}~", "_5f".repeat(32))), "{long_escaped}");
    }

    #[test]
    fn an_id_cannot_escape_the_folder() {
        let (dir, store) = store();
        let outside = dir.path().join("victim.txt");
        std::fs::write(&outside, "keep me").unwrap();
        let ids =
            ["../victim.txt", "../../victim.txt", "/tmp/x", "..", ".", "a/../../victim.txt", "..\\victim.txt", ""];
        for id in ids {
            let file = store.file_for(id);
            assert_eq!(file.parent(), Some(store.dir()), "{id:?}");
            store.store(&entry(id, 1, "text")).unwrap();
        }
        let found = store.entries();
        assert_eq!(found.skipped, []);
        let mut back: Vec<String> = found.documents.into_iter().map(|d| d.entry.id).collect();
        back.sort();
        let mut expected: Vec<String> = ids.iter().map(|s| (*s).to_owned()).collect();
        expected.sort();
        assert_eq!(back, expected, "every id keeps its own file");
        for id in ids {
            store.discard(id).unwrap();
        }
        assert_eq!(names(store.dir()), Vec::<String>::new());
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep me");
        assert_eq!(names(dir.path()), ["recovery", "victim.txt"]);
    }

    #[test]
    fn ids_differing_in_case_keep_their_own_entries() {
        let (_dir, store) = store();
        store.store(&entry("Doc", 1, "upper")).unwrap();
        store.store(&entry("doc", 2, "lower")).unwrap();
        assert_eq!(ids(&store), ["doc", "Doc"]);
    }

    #[test]
    fn discards_one_entry() {
        let (_dir, store) = store();
        store.store(&entry("a", 1, "")).unwrap();
        store.store(&entry("b", 2, "")).unwrap();
        store.discard("a").unwrap();
        assert_eq!(ids(&store), ["b"]);
        store.discard("a").unwrap();
        store.discard("never-stored").unwrap();
        assert_eq!(ids(&store), ["b"]);
    }

    #[test]
    fn sweep_removes_only_temporary_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path();
        let temps =
            [".task.unfold.json.a1B2c3.unfold-tmp", ".r-doc.unfold-recovery.json.Zz9.unfold-tmp", ".unfold-tmp"];
        let kept = [
            "task.unfold.json",
            "x.unfold-tmp",
            ".hidden",
            ".task.unfold-tmp.bak",
            ".task.unfold.json.unfold-tmp~",
            "r-doc.unfold-recovery.json",
        ];
        for name in temps.iter().chain(&kept) {
            std::fs::write(path.join(name), "data").unwrap();
        }
        std::fs::create_dir(path.join(".folder.unfold-tmp")).unwrap();
        std::fs::create_dir(path.join("sub")).unwrap();
        std::fs::write(path.join("sub").join(".nested.unfold-tmp"), "data").unwrap();
        assert_eq!(sweep_temp_files(path).unwrap(), temps.len());
        let mut expected: Vec<&str> = kept.to_vec();
        expected.extend([".folder.unfold-tmp", "sub"]);
        expected.sort();
        assert_eq!(names(path), expected);
        assert_eq!(names(&path.join("sub")), [".nested.unfold-tmp"]);
        assert_eq!(sweep_temp_files(path).unwrap(), 0);
        assert!(sweep_temp_files(&path.join("missing")).is_err());
    }

    #[test]
    fn sweep_removes_what_an_interrupted_save_leaves() {
        let dir = tempfile::tempdir().unwrap();
        // What `write_atomically` holds before its rename: a temporary file kept by a crash.
        let temp = tempfile::Builder::new()
            .prefix(".t.unfold.json.")
            .suffix(document::TEMP_SUFFIX)
            .tempfile_in(dir.path())
            .unwrap();
        let (_, left) = temp.keep().unwrap();
        document::write_atomically(&dir.path().join("t.unfold.json"), "{}\n").unwrap();
        assert!(left.exists());
        assert_eq!(sweep_temp_files(dir.path()).unwrap(), 1);
        assert_eq!(names(dir.path()), ["t.unfold.json"]);
    }
}
