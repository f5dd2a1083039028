//! A study kept as it runs (spec 14's `--resume`): a JSON Lines file whose first line says what
//! the study is (its documents' hashes, lanes, model, repetitions, seed) and each later line one
//! finished repetition, written and synced as it ends. An interrupted study, however it ended,
//! loses at most the repetition under way; resumed, it runs only the repetitions the file lacks.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use unfold_engine::study::StudyRun;

use crate::comparisons::ComparisonModel;
use crate::error::{AppError, AppResult, ErrorCode};

/// The `kind` of a kept study's first line.
const KIND: &str = "unfold.study.partial";

/// What a kept study is: a study resumed must be the same one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JournalHead {
    /// Always `unfold.study.partial`.
    pub kind: String,
    /// Always 1.
    pub schema_version: u64,
    /// The study's own name, from which each conversation's nonce is made.
    pub study_id: String,
    /// The template's key.
    pub template: String,
    /// The scenario's name.
    pub scenario: String,
    /// The template file's hash, as it was when the study began.
    pub template_hash: String,
    /// The scenario file's hash.
    pub scenario_hash: String,
    /// The lanes, in the order asked.
    pub lanes: Vec<String>,
    /// The model.
    pub model: ComparisonModel,
    /// The repetitions asked for.
    pub repeat: u32,
    /// Whether the first lane runs again as its control.
    pub aa: bool,
    /// The bootstrap's seed.
    pub seed: u64,
    /// The share of the repetitions this file holds, `[i, n]`: the repetitions r with
    /// (r − 1) mod n = i − 1 (`--shard i/n`); none: all of them.
    #[serde(default)]
    pub shard: Option<[u32; 2]>,
}

/// One finished repetition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JournalEntry {
    /// Which.
    pub repetition: u32,
    /// The order its lanes ran in.
    pub order: Vec<String>,
    /// Each lane's run.
    pub runs: Vec<(String, StudyRun)>,
    /// The A/A control's run, when there is one.
    pub control: Option<StudyRun>,
}

/// A kept study open for writing.
#[derive(Debug)]
pub struct StudyJournal {
    path: PathBuf,
    file: File,
}

impl StudyJournal {
    /// A new kept study at `path` (which must not exist yet), its first line `head`.
    pub fn create(path: &Path, head: &JournalHead) -> AppResult<StudyJournal> {
        if let Some(folder) = path.parent().filter(|folder| !folder.as_os_str().is_empty()) {
            std::fs::create_dir_all(folder).map_err(|e| io_error(path, "cannot create the folder of", &e))?;
        }
        let file = OpenOptions::new()
            .create_new(true)
            .append(true)
            .open(path)
            .map_err(|e| io_error(path, "cannot create", &e))?;
        let mut journal = StudyJournal { path: path.to_owned(), file };
        journal.write_line(head)?;
        Ok(journal)
    }

    /// The study kept at `path`: what it is, the repetitions it finished, and the file open to add
    /// the rest. A last line cut short (the study was stopped while writing it) is left out, and
    /// its repetition runs again.
    pub fn resume(path: &Path) -> AppResult<(StudyJournal, JournalHead, Vec<JournalEntry>)> {
        let (head, entries) = read(path)?;
        let file = OpenOptions::new().append(true).open(path).map_err(|e| io_error(path, "cannot open", &e))?;
        Ok((StudyJournal { path: path.to_owned(), file }, head, entries))
    }

    /// Adds a finished repetition, on disk before it returns.
    pub fn append(&mut self, entry: &JournalEntry) -> AppResult<()> {
        self.write_line(entry)
    }

    /// Where it is kept.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn write_line(&mut self, value: &impl Serialize) -> AppResult<()> {
        let mut line = serde_json::to_string(value).map_err(|e| AppError::new(ErrorCode::Internal, e.to_string()))?;
        line.push('\n');
        let path = self.path.clone();
        self.file.write_all(line.as_bytes()).map_err(|e| io_error(&path, "cannot write", &e))?;
        self.file.sync_data().map_err(|e| io_error(&path, "cannot write", &e))
    }
}

/// What the study kept at `path` is, and the repetitions it finished; a last line cut short (the
/// study was stopped while writing it) is left out.
pub fn read(path: &Path) -> AppResult<(JournalHead, Vec<JournalEntry>)> {
    let file = File::open(path).map_err(|e| io_error(path, "cannot open", &e))?;
    let lines: Vec<String> =
        BufReader::new(file).lines().collect::<Result<_, _>>().map_err(|e| io_error(path, "cannot read", &e))?;
    let at = |line: usize, problem: String| {
        AppError::new(ErrorCode::InvalidRequest, format!("{}:{line}: {problem}", path.display()))
    };
    let head: JournalHead = match lines.first().map(|line| serde_json::from_str::<JournalHead>(line)) {
        Some(Ok(head)) if head.kind == KIND => head,
        Some(Ok(_)) | Some(Err(_)) | None => {
            return Err(at(1, format!("not a kept study (its first line says `{KIND}`)")))
        }
    };
    let mut entries = Vec::new();
    let last = lines.len();
    for (index, line) in lines.iter().enumerate().skip(1) {
        match serde_json::from_str::<JournalEntry>(line) {
            Ok(entry) => entries.push(entry),
            // Only the last line can be cut short by a stop; any other is damage.
            Err(_) if index + 1 == last => {}
            Err(error) => return Err(at(index + 1, format!("not a finished repetition: {error}"))),
        }
    }
    Ok((head, entries))
}

/// What differs between the study kept (`kept`) and the one asked for (`asked`), in words; none
/// when they are the same study.
pub fn difference(kept: &JournalHead, asked: &JournalHead) -> Option<String> {
    let differs = [
        (kept.template_hash != asked.template_hash, "the template changed since".to_owned()),
        (kept.scenario_hash != asked.scenario_hash, "the scenario changed since".to_owned()),
        (kept.lanes != asked.lanes, format!("it ran the lanes {}", kept.lanes.join(","))),
        (kept.model != asked.model, "it ran another model".to_owned()),
        (kept.repeat != asked.repeat, format!("it asked for {} repetitions", kept.repeat)),
        (kept.aa != asked.aa, format!("it {} an A/A control", if kept.aa { "had" } else { "had no" })),
        (kept.seed != asked.seed, format!("its seed was {}", kept.seed)),
        (kept.shard != asked.shard, format!("it was {}", shard_words(kept.shard))),
    ];
    let said: Vec<String> = differs.into_iter().filter(|(differs, _)| *differs).map(|(_, words)| words).collect();
    (!said.is_empty()).then(|| said.join("; "))
}

/// "shard 2/3", "the whole study".
pub fn shard_words(shard: Option<[u32; 2]>) -> String {
    match shard {
        Some([i, n]) => format!("shard {i}/{n}"),
        None => "the whole study".to_owned(),
    }
}

fn io_error(path: &Path, action: &'static str, error: &std::io::Error) -> AppError {
    let source = std::io::Error::new(error.kind(), error.to_string());
    unfold_documents::Error::Io { path: path.display().to_string(), action, source }.into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use unfold_engine::{Counters, RunStatus};

    fn head() -> JournalHead {
        JournalHead {
            kind: KIND.to_owned(),
            schema_version: 1,
            study_id: "unfold study 1".into(),
            template: "task-executor".into(),
            scenario: "lookup-first".into(),
            template_hash: "t".into(),
            scenario_hash: "s".into(),
            lanes: vec!["dynamic".into(), "restart".into()],
            model: ComparisonModel::Live { profile: "local".into() },
            repeat: 10,
            aa: false,
            seed: 1,
            shard: None,
        }
    }

    fn entry(repetition: u32) -> JournalEntry {
        let run = StudyRun {
            repetition,
            status: RunStatus::Completed,
            counters: Counters { model_calls: 3, ..Counters::default() },
            cost_usd: Some(0.01),
            cached_tokens: 0,
            wall_ms: 5,
        };
        JournalEntry { repetition, order: vec![], runs: vec![("dynamic".into(), run)], control: None }
    }

    #[test]
    fn a_kept_study_resumes_with_its_finished_repetitions_and_drops_a_line_cut_short() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("studies/s.study.jsonl");
        let mut journal = StudyJournal::create(&path, &head()).unwrap();
        journal.append(&entry(1)).unwrap();
        journal.append(&entry(2)).unwrap();
        drop(journal);
        // Stopped while writing repetition 3.
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(br#"{"repetition":3,"order":["dyn"#).unwrap();
        let (_, kept, entries) = StudyJournal::resume(&path).unwrap();
        assert_eq!(kept, head());
        assert_eq!(entries, [entry(1), entry(2)]);
        assert!(StudyJournal::create(&path, &head()).is_err(), "a kept study is never overwritten");
    }

    #[test]
    fn damage_before_the_last_line_or_another_file_is_an_error_at_its_line() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("s.study.jsonl");
        let head = serde_json::to_string(&head()).unwrap();
        let entry = serde_json::to_string(&entry(2)).unwrap();
        std::fs::write(&path, format!("{head}\nnot json\n{entry}\n")).unwrap();
        let error = StudyJournal::resume(&path).unwrap_err();
        assert!(
            error.message.ends_with("s.study.jsonl:2: not a finished repetition: expected ident at line 1 column 2"),
            "{}",
            error.message
        );
        std::fs::write(&path, "{}\n").unwrap();
        assert!(StudyJournal::resume(&path).unwrap_err().message.contains(":1: not a kept study"));
    }

    #[test]
    fn a_study_resumed_must_be_the_one_kept() {
        let asked = JournalHead { lanes: vec!["dynamic".into()], seed: 2, ..head() };
        assert_eq!(difference(&head(), &head()), None);
        assert_eq!(difference(&head(), &asked).unwrap(), "it ran the lanes dynamic,restart; its seed was 1");
    }
}
