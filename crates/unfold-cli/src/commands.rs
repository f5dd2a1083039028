//! Each command translated into application calls and their output, with the file named in every
//! error.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use indexmap::IndexMap;
use unfold_application::comparisons::{self, ComparedDocuments, ComparisonModel};
use unfold_application::files::{self, RenderRequest};
use unfold_application::folders::{default_prices_file, Folders};
use unfold_application::prices::PriceFile;
use unfold_application::run_history::OpenRunHistory;
use unfold_application::sources::{self, SourceAccess};
use unfold_application::template_exports::ExportRequest;
use unfold_application::traces::{self, ComparisonClock, TraceContext};
use unfold_application::{exports, AppError, AppResult, ErrorCode};
use unfold_documents::error::printable_path;
use unfold_documents::{Error, Scenario, Template};
use unfold_engine::compare::CompareControl;
use unfold_engine::{AdapterKind, Preview};
use unfold_stores::run_history::RunFilter;

use crate::args::Command;
use crate::output::{out, outln, write_json};
use crate::runtime::block_on;

pub fn execute(command: Command) -> AppResult<ExitCode> {
    match command {
        Command::Validate { files } => validate(&files),
        Command::Export { template, format, scenarios, provider, output } => {
            let request = ExportRequest { format: Some(format), scenarios, provider };
            unfold_application::template_exports::export_template(&template, &request, &output)?;
            outln!("wrote {}", printable_path(&output))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Test { suites, junit, shard, trace } => {
            crate::suite_run::execute(crate::suite_run::TestRequest { suites, junit, shard, otel: trace.otel })
        }
        Command::Render { template, expand, params, disclosure, heading, json, sources } => {
            let params = parse_params(&params).map_err(|e| e.in_file(&template))?;
            let request = RenderRequest { expand, params, disclosure, heading };
            let consent = sources.consent();
            let prompt = if consent.start {
                let loaded = files::load_for_render(&template, &request)?;
                let (seen, discoveries) = block_on(sources::with_started_sources(&loaded, &template, &consent))?;
                crate::sources::warn_about(&template, &discoveries);
                files::render_seen(&seen, &template, &request)?
            } else {
                files::render_file(&template, &request)?
            };
            if json {
                write_json(&Preview::of(prompt))?;
            } else {
                out!("{}", prompt.markdown)?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Compare { template, scenario, adapters, json, requests, api, price_as, sources, relay, trace } => {
            let access = relay.access(sources).map_err(|e| e.in_file(&template))?;
            let model = ComparisonModel::Scripted { adapters: dedup(adapters), price_as };
            let output = CompareOutput { json, requests: requests.as_deref(), api, otel: trace.otel.as_deref() };
            compare(&template, &scenario, model, output, &access)
        }
        Command::Run {
            template,
            provider,
            providers,
            model,
            user,
            adapter,
            params,
            max_model_calls,
            json,
            record,
            sources,
            relay,
            trace,
        } => {
            let params = parse_params(&params)?;
            let args = crate::live::LiveRunArgs {
                template,
                provider,
                providers,
                model,
                user,
                adapter,
                params,
                max_model_calls,
                json,
                record,
                access: relay.access(sources)?,
                otel: trace.otel,
            };
            crate::live::run(args, &history())
        }
        Command::History { action, template, provider, adapter, status, limit, json } => {
            let filter = RunFilter { template, provider, adapter, status, source: None, limit: Some(limit) };
            crate::history::execute(action, filter, json, &history())
        }
        Command::Key { action } => crate::live::key(action),
        Command::Replay { template, cassette, json, sources, trace } => {
            let output = crate::live::ReplayOutput { json, otel: trace.otel.as_deref() };
            crate::live::replay(&template, &cassette, output, &sources.consent().into(), &history())
        }
        Command::ToScenario { template, cassette, output } => {
            crate::live::to_scenario(&template, &cassette, output.as_deref())
        }
        Command::Sources { action } => crate::sources::execute(action),
        Command::Relay { port, allow_origins } => {
            let listening = |address| {
                // The relay serves until Ctrl+C whether or not anyone reads where.
                let _ = outln!("relay listening on http://{address}/api/sessions (Ctrl+C stops it)");
            };
            let stop = async {
                // Without a signal handler there is no way to stop cleanly: stop at once.
                let _ = tokio::signal::ctrl_c().await;
            };
            let serving = unfold_application::relay::serve_relay(port, &allow_origins, listening, stop);
            crate::runtime::block_on_every_core(serving)??;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The run history shared with the app.
fn history() -> OpenRunHistory {
    OpenRunHistory::open(Folders::from_environment().history_file())
}

/// What `unfold compare` prints and writes besides its table.
struct CompareOutput<'a> {
    /// The report as JSON instead of the table.
    json: bool,
    /// The folder to write every call's request body into.
    requests: Option<&'a Path>,
    /// The API shape of those bodies.
    api: unfold_engine::request_shapes::RequestShape,
    /// The file to write the runs' trace to.
    otel: Option<&'a Path>,
}

/// `unfold compare`: the comparison kept in the history, drawn as a table or printed as JSON, its
/// request bodies written into `requests` and its trace into `otel` (both checked before it runs).
fn compare(
    template_path: &Path,
    scenario_path: &Path,
    model: ComparisonModel<'_>,
    output: CompareOutput<'_>,
    access: &SourceAccess,
) -> AppResult<ExitCode> {
    let CompareOutput { json, requests, api, otel } = output;
    if let Some(path) = otel {
        files::check_output_file(path, "--otel")?;
    }
    if let Some(folder) = requests {
        if let Some(problem) = exports::request_folder_problem(folder)? {
            return Err(Error::argument(format!("--requests {}", folder.display()), problem).into());
        }
    }
    let template = Template::load(template_path).map_err(AppError::invalid_as(ErrorCode::InvalidTemplate))?;
    let scenario = Scenario::load(scenario_path).map_err(AppError::invalid_as(ErrorCode::InvalidScenario))?;
    // Calls that will fail still run (a scenario may test them), but are said before the report.
    for warning in scenario.warnings_with(&template) {
        eprintln!("warning: {}: {warning}", printable_path(scenario_path));
    }
    let documents = ComparedDocuments {
        template: &template,
        template_path: Some(template_path),
        scenario: &scenario,
        scenario_path: Some(scenario_path),
    };
    let never = std::sync::atomic::AtomicBool::new(false);
    let context = match &model {
        ComparisonModel::Scripted { price_as, .. } => TraceContext::scripted(price_as.as_deref()),
        ComparisonModel::Live(live) => TraceContext::live(live.profile.kind, &live.profile.model),
    };
    let mut clock = ComparisonClock::default();
    let control = CompareControl {
        observer: &mut |progress| clock.saw(&progress),
        cancel: &never,
        keep_requests: requests.is_some(),
    };
    let prices = PriceFile(default_prices_file());
    let kept =
        block_on(comparisons::compare_with_consent_and_keep(documents, model, access, &prices, control, &history()))??;
    if let Some(path) = otel {
        let lines = traces::comparison_lines(&kept.comparison.report, &clock, &context);
        traces::write_trace_file(path, &lines, &kept.secrets)?;
    }
    if let Some(error) = &kept.not_kept {
        eprintln!("warning: the run was not kept in the history: {error}");
    }
    let report = &kept.comparison.report;
    let runs = report.runs.iter().chain(report.baseline.iter().map(|baseline| &baseline.run));
    crate::sources::warn_about_runs(template_path, &template, access, runs);
    let written = requests
        .map(|folder| exports::write_request_files(folder, &kept.comparison.requests, api, &kept.secrets))
        .transpose()?;
    if json {
        write_json(report)?;
    } else {
        out!("{}", crate::report_table::draw(report, crate::output::width()))?;
        if let (Some(folder), Some(count)) = (requests, written) {
            outln!("\nwrote {count} request bodies to {}", printable_path(folder))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn dedup(adapters: Vec<AdapterKind>) -> Vec<AdapterKind> {
    let mut unique = Vec::new();
    for adapter in adapters {
        if !unique.contains(&adapter) {
            unique.push(adapter);
        }
    }
    unique
}

/// Checks every file; prints each problem; exit 1 if any file has one, 2 if one cannot be read.
fn validate(paths: &[PathBuf]) -> AppResult<ExitCode> {
    let mut code = ExitCode::SUCCESS;
    for path in paths {
        match files::validate_file(path) {
            Ok(kind) => outln!("{}: ok ({kind})", printable_path(path))?,
            Err(error) if !error.problems.is_empty() => {
                eprintln!("{error}");
                if code == ExitCode::SUCCESS {
                    code = ExitCode::from(1);
                }
            }
            Err(error) => {
                eprintln!("error: {error}");
                code = ExitCode::from(2);
            }
        }
    }
    Ok(code)
}

/// `--param NAME=VALUE` arguments as a map.
fn parse_params(params: &[String]) -> unfold_documents::Result<IndexMap<String, String>> {
    let mut values = IndexMap::new();
    for param in params {
        let Some((name, value)) = param.split_once('=') else {
            return Err(Error::argument(format!("--param {param}"), "expected NAME=VALUE"));
        };
        values.insert(name.to_owned(), value.to_owned());
    }
    Ok(values)
}
