//! The run history: every run, scripted or live, kept in one SQLite file (in the app's data
//! folder, shared by the app and the command line) with its template, scenario, provider, adapter,
//! counters, events and timings, to list, filter, reopen and compare against a baseline.
//!
//! The file is opened in WAL mode with a busy timeout, so the app and `unfold` can write to it at
//! once. Its schema version is SQLite's `user_version`; a file from a newer Unfold is refused
//! rather than changed.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{params, Connection, OptionalExtension, Transaction, TransactionBehavior};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use unfold_documents::error::{Error, Result};
use unfold_documents::template::Template;
use unfold_engine::costs::RunCost;
use unfold_engine::divergence::Divergence;
use unfold_engine::events::{AdapterKind, Counters, Event, RealHost, RunReport, RunStatus};

/// The schema this build reads and writes.
const SCHEMA_VERSION: i64 = 5;

/// How long a connection waits for another to finish writing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// A run's origin: where its answers came from. Runs keep it in the field and column `source`,
/// the name the history's files and filters have always had.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum RunOrigin {
    /// A scenario's scripted model (`compare`).
    Scripted,
    /// A real model over HTTP.
    Live,
    /// A cassette.
    Replay,
}

impl RunOrigin {
    fn name(self) -> &'static str {
        match self {
            RunOrigin::Scripted => "scripted",
            RunOrigin::Live => "live",
            RunOrigin::Replay => "replay",
        }
    }
}

/// A run to keep.
#[derive(Debug, Clone, PartialEq)]
pub struct RunRecord<'a> {
    /// When it started, in milliseconds since the Unix epoch.
    pub started_at_ms: u64,
    /// How long it took.
    pub duration_ms: u64,
    /// Its origin: where its answers came from.
    pub source: RunOrigin,
    /// The template it ran.
    pub template: &'a Template,
    /// The template's file, if it has one.
    pub template_path: Option<&'a Path>,
    /// The scenario's name, for a scripted run.
    pub scenario: Option<&'a str>,
    /// The scenario's file, if it has one.
    pub scenario_path: Option<&'a Path>,
    /// The provider: a profile's name, or `scripted`.
    pub provider: &'a str,
    /// The model, for a live run.
    pub model: Option<&'a str>,
    /// The lane of a comparison (`dynamic`, `restart`, `host:claude-code`, `baseline`), if it was
    /// one.
    pub lane: Option<unfold_engine::Lane>,
    /// The user's messages, one per turn, in order (at least one).
    pub user_turns: Vec<&'a str>,
    /// Its report.
    pub report: &'a RunReport,
    /// The kept run it is a fork of, and where.
    pub forked_from: Option<ForkedFrom>,
}

/// Where a fork left the kept run it is a fork of (spec 15): the history's tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ForkedFrom {
    /// The parent's id in the history.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub run: i64,
    /// The parent's event the fork left it at.
    pub at_seq: u32,
}

/// Where the runs of one comparison came from: what each of its runs is kept with.
#[derive(Debug, Clone, Copy)]
pub struct ComparisonOrigin<'a> {
    /// The template.
    pub template: &'a Template,
    /// Its file, if it has one.
    pub template_path: Option<&'a Path>,
    /// The scenario.
    pub scenario: &'a unfold_documents::Scenario,
    /// Its file, if it has one.
    pub scenario_path: Option<&'a Path>,
    /// For a live comparison, the provider profile's name and its model; `None` when scripted.
    pub live: Option<(&'a str, &'a str)>,
    /// When it started, in milliseconds since the Unix epoch.
    pub started_at_ms: u64,
    /// How long it took.
    pub duration_ms: u64,
    /// The kept run the comparison is a fork of, and where.
    pub forked_from: Option<ForkedFrom>,
}

impl<'a> ComparisonOrigin<'a> {
    /// A record for each run of `report`: its lanes, then its baseline.
    pub fn records(&self, report: &'a unfold_engine::ComparisonReport) -> Vec<RunRecord<'a>> {
        let lanes = report.runs.iter().map(|run| (run.lane(), run));
        let baseline = report.baseline.iter().map(|b| (unfold_engine::Lane::BASELINE, &b.run));
        lanes
            .chain(baseline)
            .map(|(lane, run)| RunRecord {
                started_at_ms: self.started_at_ms,
                duration_ms: self.duration_ms,
                source: if self.live.is_some() { RunOrigin::Live } else { RunOrigin::Scripted },
                template: self.template,
                template_path: self.template_path,
                scenario: Some(&self.scenario.name),
                scenario_path: self.scenario_path,
                provider: self.live.map_or("scripted", |(provider, _)| provider),
                model: self.live.map(|(_, model)| model),
                lane: Some(lane),
                user_turns: self.scenario.conversation_turns().iter().map(|turn| turn.user).collect(),
                report: run,
                forked_from: self.forked_from,
            })
            .collect()
    }
}

/// A kept run, without its events: a row of the list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RunSummary {
    /// Its id in the history.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub id: i64,
    /// When it started (milliseconds since the Unix epoch).
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub started_at_ms: u64,
    /// How long it took.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub duration_ms: u64,
    /// Its origin: where its answers came from.
    pub source: RunOrigin,
    /// The template's key.
    pub template: String,
    /// The template's file.
    pub template_path: Option<String>,
    /// A hash of the template's canonical text: runs of the same template share it.
    pub template_hash: String,
    /// The scenario's name.
    pub scenario: Option<String>,
    /// The scenario's file.
    pub scenario_path: Option<String>,
    /// The provider.
    pub provider: String,
    /// The model.
    pub model: Option<String>,
    /// The comparison lane.
    pub lane: Option<String>,
    /// The adapter.
    pub adapter: AdapterKind,
    /// How it ended.
    pub status: RunStatus,
    /// Its counters.
    pub counters: Counters,
    /// What it cost, when it was priced.
    pub cost: Option<RunCost>,
    /// The kept run it is a fork of, and where.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forked_from: Option<ForkedFrom>,
}

/// A kept run, whole.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct StoredRun {
    /// What the list shows.
    #[serde(flatten)]
    pub summary: RunSummary,
    /// The user's message (the first turn's).
    pub user: String,
    /// The user's messages of the later turns, in order (none in runs kept before there were).
    pub later_user_turns: Vec<String>,
    /// Its report.
    pub report: RunReport,
}

/// Which runs to list; empty fields match every run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RunFilter {
    /// Only runs of the template with this key.
    pub template: Option<String>,
    /// Only runs with this provider.
    pub provider: Option<String>,
    /// Only runs under this adapter.
    pub adapter: Option<AdapterKind>,
    /// Only runs that ended so.
    pub status: Option<RunStatus>,
    /// Only runs of this origin.
    pub source: Option<RunOrigin>,
    /// At most this many, newest first (100 when absent).
    pub limit: Option<u32>,
}

/// A run compared with a baseline run: counters side by side and the first divergence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RunComparison {
    /// The baseline.
    pub baseline: RunSummary,
    /// The run compared with it.
    pub run: RunSummary,
    /// Where the run first leaves the baseline.
    pub divergence: Divergence,
}

/// The history file, open.
#[derive(Debug)]
pub struct RunHistory {
    connection: Connection,
    path: PathBuf,
}

impl RunHistory {
    /// Opens (creating if needed) the history at `path`.
    pub fn open(path: &Path) -> Result<RunHistory> {
        unfold_documents::document::create_parent_folder(path)?;
        let connection = Connection::open(path).map_err(|e| sql_error(path, &e))?;
        let history = RunHistory { connection, path: path.to_owned() };
        history.prepare()?;
        Ok(history)
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Brings the file's schema to this build's. Several processes may open a new file at once
    /// (eight `unfold compare`s lost runs to "table runs already exists"), so the version is read
    /// and the schema made or changed in one write transaction: whoever comes second waits (the
    /// busy timeout), then reads the version the first wrote and changes nothing.
    fn prepare(&self) -> Result<()> {
        let sql = |e: rusqlite::Error| sql_error(&self.path, &e);
        self.connection.busy_timeout(BUSY_TIMEOUT).map_err(sql)?;
        self.use_wal().map_err(sql)?;
        let schema = Transaction::new_unchecked(&self.connection, TransactionBehavior::Immediate).map_err(sql)?;
        let version: i64 = schema.pragma_query_value(None, "user_version", |row| row.get(0)).map_err(sql)?;
        let change = match version {
            0 => CREATE,
            // Version 1 kept no costs: its runs have none. Versions 1 and 2 kept the first user
            // turn only. Versions before 4 kept a real host's name alone (in its lane). Versions
            // before 5 kept no forks.
            1 => {
                "ALTER TABLE runs ADD COLUMN cost TEXT; ALTER TABLE runs ADD COLUMN later_user_turns TEXT; \
                  ALTER TABLE runs ADD COLUMN real_host TEXT; ALTER TABLE runs ADD COLUMN parent_id INTEGER; \
                  ALTER TABLE runs ADD COLUMN fork_seq INTEGER;"
            }
            2 => {
                "ALTER TABLE runs ADD COLUMN later_user_turns TEXT; ALTER TABLE runs ADD COLUMN real_host TEXT; \
                  ALTER TABLE runs ADD COLUMN parent_id INTEGER; ALTER TABLE runs ADD COLUMN fork_seq INTEGER;"
            }
            3 => {
                "ALTER TABLE runs ADD COLUMN real_host TEXT; ALTER TABLE runs ADD COLUMN parent_id INTEGER; \
                  ALTER TABLE runs ADD COLUMN fork_seq INTEGER;"
            }
            4 => "ALTER TABLE runs ADD COLUMN parent_id INTEGER; ALTER TABLE runs ADD COLUMN fork_seq INTEGER;",
            SCHEMA_VERSION => return Ok(()),
            newer => {
                let message = format!(
                    "the run history has schema version {newer}; this version of Unfold reads {SCHEMA_VERSION}"
                );
                return Err(Error::problem("", message).in_file(&self.path));
            }
        };
        schema.execute_batch(change).map_err(sql)?;
        schema.pragma_update(None, "user_version", SCHEMA_VERSION).map_err(sql)?;
        schema.commit().map_err(sql)
    }

    /// Puts the file in WAL mode (kept in the file), so the app and the command line write at
    /// once. Switching needs the file to itself, and SQLite answers "database is locked" at once,
    /// without waiting, while another connection switches too (the same new file opened at
    /// once): then this tries again, until the busy timeout.
    fn use_wal(&self) -> rusqlite::Result<()> {
        let deadline = std::time::Instant::now() + BUSY_TIMEOUT;
        loop {
            match self.connection.pragma_update(None, "journal_mode", "WAL") {
                Err(rusqlite::Error::SqliteFailure(failure, _))
                    if failure.code == rusqlite::ErrorCode::DatabaseBusy && std::time::Instant::now() < deadline =>
                {
                    std::thread::sleep(Duration::from_millis(5));
                }
                done => return done,
            }
        }
    }

    /// Keeps `runs` (a comparison's) all or none: in one transaction, so a process killed while
    /// keeping them leaves none of them rather than a comparison missing a run; returns their ids.
    pub fn record_all(&self, runs: &[RunRecord<'_>]) -> Result<Vec<i64>> {
        let sql = |e: rusqlite::Error| sql_error(&self.path, &e);
        let all = Transaction::new_unchecked(&self.connection, TransactionBehavior::Immediate).map_err(sql)?;
        let ids = runs.iter().map(|run| self.record(run)).collect::<Result<Vec<i64>>>()?;
        all.commit().map_err(sql)?;
        Ok(ids)
    }

    /// Keeps a run; returns its id.
    pub fn record(&self, run: &RunRecord<'_>) -> Result<i64> {
        let report = run.report;
        // A copy for listing and filtering, computed from the events like every report's.
        let counters = serde_json::to_string(&Counters::of(&report.events)).unwrap_or_default();
        let events = serde_json::to_string(&report.events).unwrap_or_default();
        let cost = report.cost.as_ref().map(|cost| serde_json::to_string(cost).unwrap_or_default());
        let real_host = report.real_host.as_ref().map(|host| serde_json::to_string(host).unwrap_or_default());
        let path_text = |p: Option<&Path>| p.map(|p| p.display().to_string());
        self.connection
            .execute(
                "INSERT INTO runs (started_at_ms, duration_ms, source, template_key, template_path, template_hash,
                    scenario, scenario_path, provider, model, lane, adapter, status, user_message, final_text,
                    counters, events, cost, later_user_turns, real_host, parent_id, fork_seq)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20,
                    ?21, ?22)",
                params![
                    run.started_at_ms as i64,
                    run.duration_ms as i64,
                    run.source.name(),
                    run.template.key,
                    path_text(run.template_path),
                    template_hash(run.template),
                    run.scenario,
                    path_text(run.scenario_path),
                    run.provider,
                    run.model,
                    run.lane.as_ref().map(unfold_engine::Lane::name),
                    report.adapter.name(),
                    enum_name(&report.status),
                    run.user_turns.first().copied().unwrap_or_default(),
                    report.final_text,
                    counters,
                    events,
                    cost,
                    serde_json::to_string(&run.user_turns.get(1..).unwrap_or_default()).unwrap_or_default(),
                    real_host,
                    run.forked_from.map(|from| from.run),
                    run.forked_from.map(|from| from.at_seq),
                ],
            )
            .map_err(|e| sql_error(&self.path, &e))?;
        Ok(self.connection.last_insert_rowid())
    }

    /// The runs `filter` matches, newest first.
    pub fn list(&self, filter: &RunFilter) -> Result<Vec<RunSummary>> {
        let mut sql = format!("SELECT {SUMMARY_COLUMNS} FROM runs WHERE 1 = 1");
        let mut values: Vec<String> = Vec::new();
        let mut add = |column: &str, value: Option<String>| {
            if let Some(value) = value {
                values.push(value);
                sql.push_str(&format!(" AND {column} = ?{}", values.len()));
            }
        };
        add("template_key", filter.template.clone());
        add("provider", filter.provider.clone());
        add("adapter", filter.adapter.map(|a| a.name().to_owned()));
        add("status", filter.status.map(|s| enum_name(&s)));
        add("source", filter.source.map(|s| s.name().to_owned()));
        sql.push_str(&format!(" ORDER BY started_at_ms DESC, id DESC LIMIT {}", filter.limit.unwrap_or(100)));
        let fail = |e: rusqlite::Error| sql_error(&self.path, &e);
        let mut statement = self.connection.prepare(&sql).map_err(fail)?;
        let rows = statement.query_map(rusqlite::params_from_iter(values.iter()), summary_of_row).map_err(fail)?;
        rows.map(|row| row.map_err(fail)).collect()
    }

    /// The run with this id, whole.
    pub fn get(&self, id: i64) -> Result<StoredRun> {
        let fail = |e: rusqlite::Error| sql_error(&self.path, &e);
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS}, user_message, final_text, events, later_user_turns, real_host \
             FROM runs WHERE id = ?1"
        );
        let row = self
            .connection
            .query_row(&sql, [id], |row| {
                let events: Vec<Event> = json_column(row, 20)?;
                let later: Option<String> = row.get(21)?;
                let later: Vec<String> = later.and_then(|text| serde_json::from_str(&text).ok()).unwrap_or_default();
                let user: String = row.get(18)?;
                let real_host: Option<String> = row.get(22)?;
                let real_host: Option<RealHost> = real_host.and_then(|text| serde_json::from_str(&text).ok());
                Ok((summary_of_row(row)?, (user, later), row.get::<_, Option<String>>(19)?, events, real_host))
            })
            .optional()
            .map_err(fail)?;
        let Some((summary, (user, later_user_turns), final_text, events, real_host)) = row else {
            return Err(Error::argument(format!("run {id}"), "no run in the history has this id"));
        };
        let lane = summary.lane.as_deref().map(unfold_engine::Lane::named);
        let host = lane.as_ref().and_then(unfold_engine::Lane::host_name).map(str::to_owned);
        // A run kept before version 4 has its real host's name alone, in its lane.
        let real_host = real_host.or_else(|| {
            let name = lane.as_ref().and_then(unfold_engine::Lane::real_host_name)?;
            Some(RealHost { name: name.to_owned(), ..Default::default() })
        });
        let report = RunReport {
            adapter: summary.adapter,
            host,
            real_host,
            status: summary.status,
            final_text,
            counters: Counters::of(&events),
            cost: summary.cost.clone(),
            events,
        };
        Ok(StoredRun { summary, user, later_user_turns, report })
    }

    /// Run `id` compared with run `baseline`.
    pub fn compare(&self, baseline: i64, id: i64) -> Result<RunComparison> {
        let base = self.get(baseline)?;
        let run = self.get(id)?;
        let divergence = Divergence::between(&base.report, &run.report);
        Ok(RunComparison { baseline: base.summary, run: run.summary, divergence })
    }
}

const CREATE: &str = "
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    started_at_ms INTEGER NOT NULL,
    duration_ms INTEGER NOT NULL,
    source TEXT NOT NULL,
    template_key TEXT NOT NULL,
    template_path TEXT,
    template_hash TEXT NOT NULL,
    scenario TEXT,
    scenario_path TEXT,
    provider TEXT NOT NULL,
    model TEXT,
    lane TEXT,
    adapter TEXT NOT NULL,
    status TEXT NOT NULL,
    user_message TEXT NOT NULL,
    final_text TEXT,
    counters TEXT NOT NULL,
    events TEXT NOT NULL,
    cost TEXT,
    later_user_turns TEXT,
    real_host TEXT,
    parent_id INTEGER,
    fork_seq INTEGER
);
CREATE INDEX runs_by_time ON runs (started_at_ms);
CREATE INDEX runs_by_template ON runs (template_key, started_at_ms);
";

const SUMMARY_COLUMNS: &str = "id, started_at_ms, duration_ms, source, template_key, template_path, template_hash, \
     scenario, scenario_path, provider, model, lane, adapter, status, counters, cost, parent_id, fork_seq";

/// A row's first columns as a summary.
fn summary_of_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<RunSummary> {
    Ok(RunSummary {
        id: row.get(0)?,
        started_at_ms: row.get::<_, i64>(1)?.max(0) as u64,
        duration_ms: row.get::<_, i64>(2)?.max(0) as u64,
        source: name_column(row, 3)?,
        template: row.get(4)?,
        template_path: row.get(5)?,
        template_hash: row.get(6)?,
        scenario: row.get(7)?,
        scenario_path: row.get(8)?,
        provider: row.get(9)?,
        model: row.get(10)?,
        lane: row.get(11)?,
        adapter: name_column(row, 12)?,
        status: name_column(row, 13)?,
        counters: json_column(row, 14)?,
        cost: row.get::<_, Option<String>>(15)?.and_then(|text| serde_json::from_str(&text).ok()),
        forked_from: match (row.get::<_, Option<i64>>(16)?, row.get::<_, Option<u32>>(17)?) {
            (Some(run), Some(at_seq)) => Some(ForkedFrom { run, at_seq }),
            _ => None,
        },
    })
}

/// A column holding the name of a unit enum value.
fn name_column<T: DeserializeOwned>(row: &rusqlite::Row<'_>, index: usize) -> rusqlite::Result<T> {
    let text: String = row.get(index)?;
    serde_json::from_value(serde_json::Value::String(text))
        .map_err(|e| rusqlite::Error::FromSqlConversionFailure(index, rusqlite::types::Type::Text, Box::new(e)))
}

/// A column holding JSON.
fn json_column<T: DeserializeOwned>(row: &rusqlite::Row<'_>, index: usize) -> rusqlite::Result<T> {
    let text: String = row.get(index)?;
    serde_json::from_str(&text)
        .map_err(|e| rusqlite::Error::FromSqlConversionFailure(index, rusqlite::types::Type::Text, Box::new(e)))
}

/// The snake_case name serde gives a unit enum value.
fn enum_name<T: Serialize>(value: &T) -> String {
    serde_json::to_value(value).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

/// A stable hash of the template's canonical text (FNV-1a, 64 bits, hex).
pub fn template_hash(template: &Template) -> String {
    format!("{:016x}", crate::stable_hash::stable_hash(template.to_json().as_bytes()))
}

fn sql_error(path: &Path, error: &rusqlite::Error) -> Error {
    Error::Io {
        path: path.display().to_string(),
        action: "run history",
        source: std::io::Error::other(error.to_string()),
    }
}

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use unfold_engine::events::{EventKind, RunStatus};

    fn template() -> Template {
        let text =
            std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/task-executor.unfold.json")).unwrap();
        Template::from_json(&text).unwrap()
    }

    fn report(adapter: AdapterKind, status: RunStatus) -> RunReport {
        let events = vec![
            Event { kind: EventKind::RunStarted { adapter, template: "task-executor".into() }, seq: 0, attempt: 1 },
            Event {
                kind: EventKind::RunCompleted { status, final_text: Some("Done.".into()), error: None },
                seq: 1,
                attempt: 1,
            },
        ];
        RunReport {
            adapter,
            host: None,
            real_host: None,
            status,
            final_text: Some("Done.".into()),
            counters: Counters::of(&events),
            cost: None,
            events,
        }
    }

    fn keep(history: &RunHistory, template: &Template, provider: &str, report: &RunReport, at: u64) -> i64 {
        keep_turns(history, template, provider, report, at, vec!["Go."])
    }

    fn keep_turns(
        history: &RunHistory,
        template: &Template,
        provider: &str,
        report: &RunReport,
        at: u64,
        user_turns: Vec<&str>,
    ) -> i64 {
        let record = RunRecord {
            started_at_ms: at,
            duration_ms: 12,
            source: RunOrigin::Live,
            template,
            template_path: Some(Path::new("examples/task-executor.unfold.json")),
            scenario: None,
            scenario_path: None,
            provider,
            model: Some("m"),
            lane: None,
            user_turns,
            report,
            forked_from: None,
        };
        history.record(&record).unwrap()
    }

    #[test]
    fn a_fork_is_kept_with_its_parent_and_a_version_4_file_gains_the_tree() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("history.sqlite3");
        let template = template();
        let done = report(AdapterKind::Dynamic, RunStatus::Completed);
        let parent = keep(&RunHistory::open(&path).unwrap(), &template, "scripted", &done, 1_000);
        let connection = Connection::open(&path).unwrap();
        let version_4 = "ALTER TABLE runs DROP COLUMN parent_id; ALTER TABLE runs DROP COLUMN fork_seq; \
                         PRAGMA user_version = 4;";
        connection.execute_batch(version_4).unwrap();
        drop(connection);

        let history = RunHistory::open(&path).unwrap();
        assert_eq!(history.get(parent).unwrap().summary.forked_from, None);
        let forked_from = Some(ForkedFrom { run: parent, at_seq: 3 });
        let record = RunRecord {
            started_at_ms: 2_000,
            duration_ms: 12,
            source: RunOrigin::Scripted,
            template: &template,
            template_path: None,
            scenario: None,
            scenario_path: None,
            provider: "scripted",
            model: None,
            lane: None,
            user_turns: vec!["Go."],
            report: &done,
            forked_from,
        };
        let fork = history.record(&record).unwrap();
        assert_eq!(history.get(fork).unwrap().summary.forked_from, forked_from);
        let listed = history.list(&RunFilter::default()).unwrap();
        assert_eq!(listed.iter().map(|run| run.forked_from).collect::<Vec<_>>(), [forked_from, None]);
    }

    #[test]
    fn keeps_runs_whole_and_lists_them_filtered_newest_first() {
        let folder = tempfile::tempdir().unwrap();
        let history = RunHistory::open(&folder.path().join("nested/history.sqlite3")).unwrap();
        let template = template();
        let done = report(AdapterKind::Dynamic, RunStatus::Completed);
        let failed = report(AdapterKind::Restart, RunStatus::Error);
        let first = keep(&history, &template, "openai", &done, 1_000);
        let second = keep(&history, &template, "claude", &failed, 2_000);

        let ids = |filter: RunFilter| history.list(&filter).unwrap().iter().map(|r| r.id).collect::<Vec<_>>();
        assert_eq!(ids(RunFilter::default()), [second, first]);
        assert_eq!(ids(RunFilter { provider: Some("openai".into()), ..Default::default() }), [first]);
        assert_eq!(ids(RunFilter { status: Some(RunStatus::Error), ..Default::default() }), [second]);
        assert_eq!(ids(RunFilter { adapter: Some(AdapterKind::Dynamic), ..Default::default() }), [first]);
        assert_eq!(ids(RunFilter { template: Some("other".into()), ..Default::default() }), Vec::<i64>::new());
        assert_eq!(ids(RunFilter { limit: Some(1), ..Default::default() }), [second]);

        let stored = history.get(first).unwrap();
        assert_eq!(stored.report, done);
        assert_eq!((stored.user.as_str(), stored.later_user_turns.len()), ("Go.", 0));
        let turns =
            keep_turns(&history, &template, "openai", &done, 3_000, vec!["Fix it.", "Now open a pull request."]);
        let stored = history.get(turns).unwrap();
        assert_eq!(
            (stored.user.as_str(), stored.later_user_turns.as_slice()),
            ("Fix it.", &["Now open a pull request.".to_owned()][..])
        );
        assert_eq!(stored.summary.template_hash, template_hash(&template));
        assert_eq!(stored.summary.template_path.as_deref(), Some("examples/task-executor.unfold.json"));
        assert!(history.get(99).unwrap_err().to_string().contains("no run in the history has this id"));
    }

    #[test]
    fn counters_kept_and_read_back_are_those_of_the_events() {
        let folder = tempfile::tempdir().unwrap();
        let history = RunHistory::open(&folder.path().join("history.sqlite3")).unwrap();
        let template = template();
        let honest = report(AdapterKind::Dynamic, RunStatus::Completed);
        let mut contradicting = honest.clone();
        contradicting.counters.model_calls = 41;
        let id = keep(&history, &template, "openai", &contradicting, 1_000);
        assert_eq!(history.list(&RunFilter::default()).unwrap()[0].counters, honest.counters);
        assert_eq!(history.get(id).unwrap().report, honest, "a report never contradicts its own events");
    }

    #[test]
    fn a_history_from_a_newer_unfold_is_refused_untouched() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("history.sqlite3");
        drop(RunHistory::open(&path).unwrap());
        let connection = Connection::open(&path).unwrap();
        connection.pragma_update(None, "user_version", 7).unwrap();
        drop(connection);
        let error = RunHistory::open(&path).unwrap_err().to_string();
        assert!(error.ends_with("the run history has schema version 7; this version of Unfold reads 5"), "{error}");
    }

    #[test]
    fn a_history_of_version_1_is_brought_up_to_date_and_keeps_what_runs_cost() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("history.sqlite3");
        let template = template();
        let old = {
            let history = RunHistory::open(&path).unwrap();
            keep(&history, &template, "scripted", &report(AdapterKind::Dynamic, RunStatus::Completed), 1_000)
        };
        // The file as version 1 left it: no cost column, the first user turn only.
        let connection = Connection::open(&path).unwrap();
        let version_1 = "ALTER TABLE runs DROP COLUMN cost; ALTER TABLE runs DROP COLUMN later_user_turns; \
                         ALTER TABLE runs DROP COLUMN real_host; ALTER TABLE runs DROP COLUMN parent_id; \
                         ALTER TABLE runs DROP COLUMN fork_seq; PRAGMA user_version = 1;";
        connection.execute_batch(version_1).unwrap();
        drop(connection);

        let history = RunHistory::open(&path).unwrap();
        assert_eq!(history.get(old).unwrap().report.cost, None, "a run kept before costs has none");
        let mut priced = report(AdapterKind::Restart, RunStatus::Completed);
        priced.price(&unfold_documents::prices::Prices::shipped().pricing("gpt-4o-mini").unwrap());
        let id = keep(&history, &template, "scripted", &priced, 2_000);
        assert_eq!(history.get(id).unwrap().report, priced);
        let listed = history.list(&RunFilter::default()).unwrap();
        assert_eq!(listed.iter().map(|run| run.cost.is_some()).collect::<Vec<_>>(), [true, false]);
    }

    #[test]
    fn a_history_of_version_2_keeps_its_runs_and_then_every_user_turn() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("history.sqlite3");
        let template = template();
        let done = report(AdapterKind::Dynamic, RunStatus::Completed);
        let old = keep(&RunHistory::open(&path).unwrap(), &template, "scripted", &done, 1_000);
        // The file as version 2 left it: the first user turn only.
        let connection = Connection::open(&path).unwrap();
        let version_2 = "ALTER TABLE runs DROP COLUMN later_user_turns; ALTER TABLE runs DROP COLUMN real_host; \
                         ALTER TABLE runs DROP COLUMN parent_id; ALTER TABLE runs DROP COLUMN fork_seq; \
                         PRAGMA user_version = 2;";
        connection.execute_batch(version_2).unwrap();
        drop(connection);

        let history = RunHistory::open(&path).unwrap();
        let kept = history.get(old).unwrap();
        assert_eq!((kept.user.as_str(), kept.later_user_turns.len(), kept.report), ("Go.", 0, done.clone()));
        let new = keep_turns(&history, &template, "scripted", &done, 2_000, vec!["One.", "Two."]);
        assert_eq!(history.get(new).unwrap().later_user_turns, ["Two."]);
    }

    #[test]
    fn a_real_hosts_run_keeps_its_version_and_how_it_ended_and_a_version_3_file_its_name() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("history.sqlite3");
        let template = template();
        let mut run = report(AdapterKind::Dynamic, RunStatus::Completed);
        run.real_host = Some(RealHost {
            name: "openai-agents".into(),
            version: Some("0.9.1".into()),
            ended: "exited with status 0".into(),
            side_requests: 2,
        });
        let lane = unfold_engine::Lane::real_host("openai-agents");
        let keep_host_run = |history: &RunHistory| {
            let record = RunRecord {
                started_at_ms: 1_000,
                duration_ms: 12,
                source: RunOrigin::Scripted,
                template: &template,
                template_path: None,
                scenario: None,
                scenario_path: None,
                provider: "scripted",
                model: None,
                lane: Some(lane.clone()),
                user_turns: vec!["Go."],
                report: &run,
                forked_from: None,
            };
            history.record(&record).unwrap()
        };
        let id = keep_host_run(&RunHistory::open(&path).unwrap());
        assert_eq!(RunHistory::open(&path).unwrap().get(id).unwrap().report, run);

        // The file as version 3 left it: the host's name in the lane, nothing else of it.
        let connection = Connection::open(&path).unwrap();
        let version_3 = "ALTER TABLE runs DROP COLUMN real_host; ALTER TABLE runs DROP COLUMN parent_id; \
                         ALTER TABLE runs DROP COLUMN fork_seq; PRAGMA user_version = 3;";
        connection.execute_batch(version_3).unwrap();
        drop(connection);
        let history = RunHistory::open(&path).unwrap();
        let named = RealHost { name: "openai-agents".into(), ..Default::default() };
        assert_eq!(history.get(id).unwrap().report.real_host, Some(named));
        let new = keep_host_run(&history);
        assert_eq!(history.get(new).unwrap().report, run, "and keeps a new run's whole");
    }

    #[test]
    fn writers_opening_a_new_history_at_once_all_keep_their_runs() {
        // Eight `unfold compare`s finishing at once on a machine with no history yet: each opens
        // the new file, creating its schema, and keeps its three runs. A few rounds, since who
        // creates the schema first is the scheduler's choice.
        let template = template();
        let run = report(AdapterKind::Dynamic, RunStatus::Completed);
        for round in 0..4 {
            let folder = tempfile::tempdir().unwrap();
            let path = folder.path().join("history.sqlite3");
            let start = std::sync::Barrier::new(8);
            std::thread::scope(|scope| {
                for writer in 0..8 {
                    let (path, start, template, run) = (&path, &start, &template, &run);
                    scope.spawn(move || {
                        start.wait();
                        let history = RunHistory::open(path).unwrap_or_else(|e| panic!("round {round}: {e}"));
                        for lane in 0..3 {
                            keep(&history, template, &format!("w{writer}"), run, lane);
                        }
                    });
                }
            });
            let history = RunHistory::open(&path).unwrap();
            let kept = history.list(&RunFilter { limit: Some(100), ..Default::default() }).unwrap();
            assert_eq!(kept.len(), 24, "round {round}");
        }
    }

    #[test]
    fn two_writers_share_the_file() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("history.sqlite3");
        let (app, cli) = (RunHistory::open(&path).unwrap(), RunHistory::open(&path).unwrap());
        let template = template();
        let run = report(AdapterKind::Dynamic, RunStatus::Completed);
        keep(&app, &template, "a", &run, 1);
        keep(&cli, &template, "b", &run, 2);
        assert_eq!(app.list(&RunFilter::default()).unwrap().len(), 2);
    }
}
