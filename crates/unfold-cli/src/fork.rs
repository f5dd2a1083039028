//! `unfold fork`: a recorded run forked at one of its events, its lanes run on from there, the
//! report printed as `unfold compare` prints one, with the parent it names.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use unfold_application::comparisons::{ComparisonContext, ComparisonModel, Comparisons, DocumentRef};
use unfold_application::forks::{ForkParent, ForkRequest};
use unfold_application::AppResult;
use unfold_documents::Error;
use unfold_engine::fork::{ChangedResult, ForkChange};

use crate::money::money;
use crate::output::{out, outln, write_json};
use crate::runtime::block_on;

/// What `unfold fork` was asked.
pub struct ForkAsked {
    pub run: String,
    pub at: u32,
    pub lane: Option<String>,
    pub results: Vec<String>,
    pub expand: Vec<String>,
    pub lanes: Vec<String>,
    pub documents: (Option<PathBuf>, Option<PathBuf>),
    pub live: Option<(String, PathBuf)>,
    pub price_as: Option<String>,
    pub json: bool,
}

/// Runs the fork `asked` on the comparisons `context` gives for a profiles file, and prints it.
pub fn fork(asked: ForkAsked, context: fn(Option<PathBuf>) -> ComparisonContext) -> AppResult<ExitCode> {
    let parent = match asked.run.parse::<i64>() {
        Ok(id) if asked.lane.is_none() => ForkParent::Kept(id),
        Ok(_) => return Err(Error::argument("--lane", "a kept run is one lane's: --lane is for a report file").into()),
        Err(_) => ForkParent::Report { path: PathBuf::from(&asked.run), lane: asked.lane.clone() },
    };
    let results = asked.results.iter().map(|given| changed_result(given)).collect::<Result<Vec<_>, Error>>()?;
    let (model, profiles_file) = match asked.live {
        Some((profile, file)) => (ComparisonModel::Live { profile }, Some(file)),
        None => (ComparisonModel::Scripted { price_as: asked.price_as }, None),
    };
    let request = ForkRequest {
        parent,
        at_seq: asked.at,
        change: ForkChange { results, expand: asked.expand },
        lanes: asked.lanes,
        model,
        documents: documents(asked.documents)?,
        history: true,
        run_id: None,
    };
    let comparisons = Comparisons::new(context(profiles_file));
    let finished = block_on(comparisons.fork(request, Arc::new(|_| {})))??;
    if let Some(error) = &finished.not_kept {
        eprintln!("warning: the fork was not kept in the history: {error}");
    }
    let report = &finished.report;
    if asked.json {
        write_json(report)?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(origin) = &report.fork {
        outln!(
            "fork of {} ({}) at event {}: {} model answers replayed",
            origin.parent,
            origin.lane,
            origin.at_seq,
            origin.replayed_calls
        )?;
        if !finished.kept.is_empty() {
            let ids: Vec<String> = finished.kept.iter().map(ToString::to_string).collect();
            outln!("kept in the history as run {}", ids.join(", "))?;
        }
    }
    if let Some(line) = cheapest_line(report) {
        outln!("{line}")?;
    }
    out!("{}", crate::report_table::draw(report, crate::output::width()))?;
    Ok(ExitCode::SUCCESS)
}

/// `--template` and `--scenario`, given together or not at all.
fn documents(
    (template, scenario): (Option<PathBuf>, Option<PathBuf>),
) -> Result<Option<(DocumentRef, DocumentRef)>, Error> {
    match (template, scenario) {
        (Some(template), Some(scenario)) => Ok(Some((DocumentRef::File(template), DocumentRef::File(scenario)))),
        (None, None) => Ok(None),
        (Some(_), None) => Err(Error::argument("--template", "give the scenario it ran with --scenario too")),
        (None, Some(_)) => Err(Error::argument("--scenario", "give the template it ran with --template too")),
    }
}

/// Which lane of a priced fork is cheapest with the prompt cache, and by how much against the
/// next: a fork runs no baseline, so its report has no verdict to say it.
fn cheapest_line(report: &unfold_engine::ComparisonReport) -> Option<String> {
    let mut priced: Vec<(String, f64, String)> = report
        .runs
        .iter()
        .map(|run| {
            run.cost.as_ref().map(|cost| (run.lane().name().to_owned(), cost.total_with_cache, cost.currency.clone()))
        })
        .collect::<Option<_>>()?;
    if priced.len() < 2 {
        return None;
    }
    priced.sort_by(|a, b| a.1.total_cmp(&b.1));
    let (first, next) = (&priced[0], &priced[1]);
    let saved = if next.1 > 0.0 { (next.1 - first.1) / next.1 * 100.0 } else { 0.0 };
    let each: Vec<String> =
        priced.iter().map(|(lane, usd, currency)| format!("{lane} {}", money(*usd, currency, false))).collect();
    Some(format!(
        "with the prompt cache, {} is cheapest, {saved:.1} % less than {}: {}",
        first.0,
        next.0,
        each.join(", ")
    ))
}

/// `CALL_ID=JSON` (or `CALL_ID=@FILE`, the JSON in a file) as the call and its new result; text
/// that is not JSON is taken as a string.
fn changed_result(given: &str) -> Result<ChangedResult, Error> {
    let place = format!("--result {given}");
    let Some((call, result)) = given.split_once('=') else {
        return Err(Error::argument(place, "expected CALL_ID=JSON or CALL_ID=@FILE"));
    };
    if call.is_empty() {
        return Err(Error::argument(place, "name the tool call before ="));
    }
    let result = match result.strip_prefix('@') {
        Some(file) => {
            let path = std::path::Path::new(file);
            let bytes = unfold_documents::document::read_document_bytes(path)?;
            serde_json::from_slice(&bytes)
                .map_err(|error| Error::argument(place, format!("{file} is not JSON: {error}")).in_file(path))?
        }
        None => serde_json::from_str(result).unwrap_or_else(|_| serde_json::Value::String(result.to_owned())),
    };
    Ok(ChangedResult { call_id: call.to_owned(), result })
}
