//! Each command translated into application calls and their output, with the file named in every
//! error.

use std::future::Future;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::process::ExitCode;
use std::sync::Arc;

use indexmap::IndexMap;
use unfold_application::comparisons::{
    ComparisonContext, ComparisonModel, ComparisonOutputs, ComparisonRequest, Comparisons, DocumentRef, RequestFiles,
};
use unfold_application::exports::ReportFormat;
use unfold_application::files::{self, RenderRequest};
use unfold_application::profiles::Profiles;
use unfold_application::sources;
use unfold_application::sources::SourceReach;
use unfold_application::studies::{run_study, KeptStudy, StudyProgress, StudyRequest};
use unfold_application::suites::LiveSuite;
use unfold_application::template_exports::{ExportFormat, ExportRequest, ThroughUnfold};
use unfold_application::template_server::ServedTemplate;
use unfold_application::{exports, AppError, AppResult, ErrorCode};
use unfold_documents::error::printable_path;
use unfold_documents::{Error, Location};
use unfold_engine::Preview;
use unfold_stores::run_history::RunFilter;

use crate::args::{Command, ExportTarget, ImportSource, McpAction, ModelAction, StudyAction};
use crate::output::{out, outln, write_json};
use crate::runtime::{block_on, Signals};

pub fn execute(command: Command) -> AppResult<ExitCode> {
    match command {
        Command::Validate { files } => validate(&files),
        Command::Import { source: ImportSource::Skills { dir, output, force } } => {
            crate::skills::import(&dir, &output, force)
        }
        Command::Export {
            format: ExportTarget::Skills,
            template,
            folder,
            output,
            force,
            scenarios,
            through_unfold,
            ..
        } => {
            if !scenarios.is_empty() || through_unfold {
                let flag = if through_unfold { "--through-unfold" } else { "--scenario" };
                return Err(Error::argument(flag, "a skills folder takes no tests").in_file(&template).into());
            }
            let Some(folder) = folder.or(output) else {
                return Err(Error::argument("--to skills", "name the folder to write: --to skills DIR")
                    .in_file(&template)
                    .into());
            };
            crate::skills::export(&template, &folder, force)
        }
        Command::Export {
            template,
            format: ExportTarget::Format(format),
            folder,
            force,
            scenarios,
            provider,
            providers,
            through_unfold,
            adapters,
            output,
        } => {
            if let Some(folder) = folder {
                let problem = "only --to skills writes a folder; give the file to write with -o";
                return Err(Error::argument(printable_path(&folder), problem).in_file(&template).into());
            }
            if force {
                return Err(Error::argument("--force", "only --to skills writes over a folder")
                    .in_file(&template)
                    .into());
            }
            let Some(output) = output else {
                return Err(Error::argument("-o", "name the file to write").in_file(&template).into());
            };
            if through_unfold {
                export_through_unfold(&template, format, scenarios, (provider, providers, adapters), &output)?;
            } else {
                let request = ExportRequest { format: Some(format), scenarios, provider };
                unfold_application::template_exports::export_template(&template, &request, &output)?;
            }
            outln!("wrote {}", printable_path(&output))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Test { suites, junit, shard, study_dir, provider, providers, trace } => {
            let live = live_profile(provider, providers.as_deref())?
                .map(|(profile, profiles_file)| LiveSuite { profile, profiles_file });
            let request = crate::suite_run::TestRequest { suites, junit, shard, study_dir, live, otel: trace.otel };
            crate::suite_run::execute(request)
        }
        Command::Render { template, expand, params, disclosure, heading, json, sources } => {
            let params = parse_params(&params).map_err(|e| e.in_file(&template))?;
            let request = RenderRequest { expand, params, disclosure, heading };
            let consent = sources.consent();
            let prompt = if consent.start {
                let loaded = files::load_for_render(&template, &request)?;
                let (seen, discoveries) = block_on(sources::with_started_sources(&loaded, &template, &consent))?;
                crate::sources::warn_about(&template, &discoveries);
                files::render_seen(&seen, &template, &request)
            } else {
                files::render_file(&template, &request)
            }
            .map_err(|error| flag_expanded(error, &template, &request.expand))?;
            if json {
                write_json(&Preview::of(prompt))?;
            } else {
                out!("{}", prompt.markdown)?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Compare {
            template,
            scenario,
            adapters,
            json,
            markdown,
            promptfoo,
            requests,
            api,
            price_as,
            provider,
            providers,
            repeat,
            aa,
            seed,
            max_cost,
            study_file,
            resume,
            shard,
            jobs,
            hosts,
            allow_host,
            sources,
            relay,
            trace,
        } => {
            let relay_session = relay.attachment().map_err(|e| e.in_file(&template))?;
            let live = live_profile(provider, providers.as_deref())?;
            let lanes = adapters.into_iter().chain(crate::host_run::real_host_lanes(&hosts, allow_host)?);
            let outputs = ComparisonOutputs {
                requests: requests.map(|folder| RequestFiles { folder, shape: api }),
                trace: trace.otel,
                history: true,
            };
            let (model, profiles_file) = match live {
                Some((profile, file)) => (ComparisonModel::Live { profile }, Some(file)),
                None => (ComparisonModel::Scripted { price_as }, None),
            };
            let request = ComparisonRequest {
                model,
                sources: sources.source_use(),
                relay_session,
                outputs,
                ..ComparisonRequest::scripted(
                    DocumentRef::File(template.clone()),
                    DocumentRef::File(scenario.clone()),
                    lanes.collect(),
                )
            };
            let form = match (json, markdown, promptfoo) {
                (true, _, _) => ReportForm::Json,
                (_, true, _) => ReportForm::Markdown,
                (_, _, true) => ReportForm::Promptfoo,
                _ => ReportForm::Table,
            };
            let context = comparison_context(profiles_file);
            match repeat {
                Some(repeat) => {
                    if request.outputs.trace.is_some() {
                        return Err(Error::argument(
                            "--otel",
                            "a study is not traced yet: leave out --otel or --repeat",
                        )
                        .into());
                    }
                    let live = matches!(request.model, ComparisonModel::Live { .. });
                    let kept = match (study_file, resume) {
                        (_, Some(path)) => KeptStudy::Resumed(path),
                        (Some(path), None) => KeptStudy::New(path),
                        (None, None) if live => KeptStudy::UntilDone(default_study_file()?),
                        (None, None) => KeptStudy::Nowhere,
                    };
                    let study = StudyRequest {
                        comparison: request,
                        repeat,
                        aa,
                        seed,
                        max_cost_usd: max_cost,
                        shard,
                        jobs,
                        stop: Default::default(),
                        baseline: false,
                    };
                    study_of(context, study, kept, &scenario, json)
                }
                None => compare(context, request, (&template, &scenario), form),
            }
        }
        Command::Fork {
            run,
            at,
            lane,
            results,
            expand,
            adapters,
            hosts,
            allow_host,
            template,
            scenario,
            provider,
            providers,
            price_as,
            json,
        } => {
            let real = crate::host_run::real_host_lanes(&hosts, allow_host)?;
            let asked = crate::fork::ForkAsked {
                run,
                at,
                lane,
                results,
                expand,
                lanes: adapters.into_iter().chain(real).collect(),
                documents: (template, scenario),
                live: live_profile(provider, providers.as_deref())?,
                price_as,
                json,
            };
            crate::fork::fork(asked, comparison_context)
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
                user_turns: user,
                adapter,
                params,
                max_model_calls,
                json,
                record,
                access: relay.access(sources)?,
                otel: trace.otel,
            };
            crate::live::run(args, &crate::history::shared())
        }
        Command::History { action, template, provider, adapter, status, limit, json } => {
            let filter = RunFilter { template, provider, adapter, status, source: None, limit: Some(limit) };
            crate::history::execute(action, filter, json, &crate::history::shared())
        }
        Command::Key { action } => crate::live::key(action),
        Command::Replay { template, cassette, json, sources, trace } => {
            let output = crate::live::ReplayOutput { json, otel: trace.otel.as_deref() };
            crate::live::replay(&template, &cassette, output, &sources.consent().into(), &crate::history::shared())
        }
        Command::ToScenario { template, cassette, output } => {
            crate::live::to_scenario(&template, &cassette, output.as_deref())
        }
        Command::Hosts { action } => crate::hosts::execute(action),
        Command::Mcp { action: McpAction::Serve { template, scenario, log, http, sources } } => {
            let reach = SourceReach::from(sources.consent());
            let served = ServedTemplate {
                template: &template,
                scenario: scenario.as_deref(),
                log: log.as_deref(),
                reach: &reach,
            };
            let discovered = |discoveries: &[_]| crate::sources::warn_about(&template, discoveries);
            let Some(port) = http else {
                let serving = unfold_application::template_server::serve_template_over_stdio(served, discovered);
                crate::runtime::block_on_every_core(serving)??;
                return Ok(ExitCode::SUCCESS);
            };
            let listening = |url: &str| {
                let _ = outln!("template server listening on {url} (Ctrl+C stops it)");
            };
            until_interrupted(|stop| {
                unfold_application::template_server::serve_template_over_http(served, discovered, port, listening, stop)
            })
        }
        Command::Sources { action } => crate::sources::execute(action),
        Command::Host { action } => crate::host_run::execute(action),
        Command::Study { action: StudyAction::Merge { files, json } } => {
            let report = unfold_application::studies::merge(&files)?;
            if json {
                write_json(&report)?;
            } else {
                out!("{}", crate::study_table::draw(&report))?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Model { action: ModelAction::Serve { scenario, port, log } } => {
            let listening = |address| {
                let _ = outln!("model endpoint listening on http://{address}/v1 (Ctrl+C stops it)");
            };
            until_interrupted(|stop| {
                unfold_application::template_server::serve_model_endpoint(
                    &scenario,
                    port,
                    log.as_deref(),
                    listening,
                    stop,
                )
            })
        }
        Command::Relay { port, allow_origins } => {
            let listening = |address| {
                // The relay serves until Ctrl+C whether or not anyone reads where.
                let _ = outln!("relay listening on http://{address}/api/sessions (Ctrl+C stops it)");
            };
            until_interrupted(|stop| unfold_application::relay::serve_relay(port, &allow_origins, listening, stop))
        }
    }
}

/// The profile `--provider` names and the file `--providers` names (or the default one); a
/// profile the file does not hold is said of --provider before anything runs.
fn live_profile(provider: Option<String>, providers: Option<&Path>) -> AppResult<Option<(String, PathBuf)>> {
    let Some(name) = provider else { return Ok(None) };
    crate::live::named_profile(providers, &name)?;
    Ok(Some((name, crate::live::profiles_path(providers)?)))
}

/// Runs the server `serve` starts until Ctrl+C (or SIGTERM) ends the future it is given. The
/// signal is listened for before the server says where it listens: a Ctrl+C right after that line
/// stops it cleanly, not by the signal's default.
fn until_interrupted<F>(serve: impl FnOnce(Pin<Box<dyn Future<Output = ()> + Send>>) -> F) -> AppResult<ExitCode>
where
    F: Future<Output = AppResult<()>>,
{
    let serving = async {
        let signals = Signals::listen();
        serve(Box::pin(async move {
            signals.first().await;
        }))
        .await
    };
    crate::runtime::block_on_every_core(serving)??;
    Ok(ExitCode::SUCCESS)
}

/// `unfold compare`: the comparison kept in the history, drawn as a table or printed as JSON (its
/// request bodies and trace written as the request asks, their flags checked before it runs).
/// How `compare` prints its report.
enum ReportForm {
    /// The tables a terminal shows.
    Table,
    /// The report as JSON.
    Json,
    /// Markdown to paste into a pull request.
    Markdown,
    /// The first lane's run as promptfoo's provider response.
    Promptfoo,
}

/// What the command line's comparisons read: the files, the shared history, the host lab, and the
/// profiles in `profiles_file` (else where the app keeps them).
fn comparison_context(profiles_file: Option<PathBuf>) -> ComparisonContext {
    let mut context = ComparisonContext {
        host_lab: Some(Arc::new(crate::host_run::lab())),
        ..ComparisonContext::of_files(crate::history::shared())
    };
    if let Some(file) = profiles_file {
        context.profiles = Arc::new(Profiles(Some(file)));
    }
    context
}

/// Runs the study `request`, telling each repetition's end on stderr, and prints its report (the
/// `unfold.study` JSON when `json`).
fn study_of(
    context: ComparisonContext,
    request: StudyRequest,
    kept: KeptStudy,
    scenario_path: &Path,
    json: bool,
) -> AppResult<ExitCode> {
    if let KeptStudy::New(path) | KeptStudy::UntilDone(path) | KeptStudy::Resumed(path) = &kept {
        eprintln!(
            "keeping the study in {} (if it stops, run the same command with --resume {0})",
            printable_path(path)
        );
    }
    // Counted in place on a terminal; a log gets no progress at all.
    let terminal = std::io::stderr().is_terminal();
    let told = |progress: StudyProgress| {
        if terminal {
            eprint!("\r{} of {} repetitions done", progress.done, progress.planned);
        }
    };
    let finished = block_on(run_study(&Comparisons::new(context), request, kept, &told))??;
    if terminal {
        eprintln!();
    }
    for warning in &finished.scenario_warnings {
        eprintln!("warning: {}: {warning}", printable_path(scenario_path));
    }
    if let Some(error) = finished.not_kept.first() {
        eprintln!("warning: {} repetitions were not kept in the history: {error}", finished.not_kept.len());
    }
    if json {
        write_json(&finished.report)?;
    } else {
        out!("{}", crate::study_table::draw(&finished.report))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Where a live study is kept when no file is named: `studies/` in the data folder, named by
/// when it began.
fn default_study_file() -> AppResult<PathBuf> {
    let folders = unfold_application::folders::Folders::from_environment();
    let data =
        folders.data.ok_or_else(|| Error::argument("--study-file", "no HOME to keep the study in: name a file"))?;
    Ok(unfold_application::studies::new_study_file(&data))
}

/// Runs the comparison `request` in `context` and prints its report as `form`.
fn compare(
    context: ComparisonContext,
    request: ComparisonRequest,
    files: (&Path, &Path),
    form: ReportForm,
) -> AppResult<ExitCode> {
    if let Some(path) = &request.outputs.trace {
        unfold_application::files::check_output_file(path, "--otel")?;
    }
    if let Some(RequestFiles { folder, .. }) = &request.outputs.requests {
        if let Some(problem) = exports::request_folder_problem(folder)? {
            return Err(Error::argument(format!("--requests {}", folder.display()), problem).into());
        }
    }
    let (template_path, scenario_path) = files;
    let requests_folder = request.outputs.requests.as_ref().map(|files| files.folder.clone());
    let comparisons = Comparisons::new(context);
    let finished = block_on(comparisons.run(request, Arc::new(|_| {})))??;
    // Calls that will fail still run (a scenario may test them), but are said before the report.
    for warning in &finished.scenario_warnings {
        eprintln!("warning: {}: {warning}", printable_path(scenario_path));
    }
    if let Some(error) = &finished.not_kept {
        eprintln!("warning: the run was not kept in the history: {error}");
    }
    crate::sources::warn_about_shortfalls(template_path, &finished.shortfalls);
    let report = &finished.report;
    match form {
        ReportForm::Json => write_json(report)?,
        ReportForm::Markdown => out!("{}", exports::report_text(report, ReportFormat::Markdown))?,
        ReportForm::Promptfoo => write_json(&exports::promptfoo_response(report)?)?,
        ReportForm::Table => {
            out!("{}", crate::report_table::draw(report, crate::output::width()))?;
            if let (Some(folder), Some(count)) = (requests_folder, finished.requests_written) {
                outln!("\nwrote {count} request bodies to {}", printable_path(&folder))?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `unfold export --to promptfoo --through-unfold`: the config whose provider runs each scenario
/// through this program, in each lane of `adapters`, scripted or on the profile `provider` (which
/// must be in its file now, as it must when promptfoo runs).
fn export_through_unfold(
    template: &Path,
    format: ExportFormat,
    scenarios: Vec<PathBuf>,
    (provider, providers, adapters): (Option<String>, Option<PathBuf>, Vec<String>),
    output: &Path,
) -> AppResult<()> {
    if format != ExportFormat::Promptfoo {
        return Err(Error::argument("--through-unfold", "only a promptfoo config runs through Unfold").into());
    }
    if let Some(name) = &provider {
        crate::live::named_profile(providers.as_deref(), name)?;
    }
    let unfold = std::env::current_exe().map_err(|error| {
        AppError::new(ErrorCode::UnreadableFile, format!("cannot tell where this unfold program is: {error}"))
    })?;
    let runs = ThroughUnfold { unfold, lanes: adapters, profile: provider, profiles: providers };
    unfold_application::template_exports::export_promptfoo_through_unfold(template, &scenarios, &runs, output)
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
/// A section `--expand` named that the template lacks, said of the flag that named it.
fn flag_expanded(error: AppError, template: &Path, expand: &[String]) -> AppError {
    let flagged = error.problems.iter().find_map(|problem| {
        let Location::Argument(place) = &problem.location else { return None };
        let path = expand.iter().find(|path| *place == files::expanded_section_place(path))?;
        Some(Error::argument(format!("--expand {path}"), problem.message.clone()).in_file(template))
    });
    let code = error.code;
    flagged.map_or(error, |flagged| AppError::invalid_as(code)(flagged))
}

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
