//! The commands' work: thin calls into `unfold-core`, with the file named in every error.

use std::path::Path;
use std::process::ExitCode;

use indexmap::IndexMap;
use unfold_documents::document::{self, DocumentKind};
use unfold_documents::{Error, Result, Scenario, Template};
use unfold_engine::compare::Comparison;
use unfold_engine::{AdapterKind, Preview, Session};
use unfold_stores::run_history::ComparisonOrigin;

use crate::Command;

pub fn execute(command: Command) -> Result<ExitCode> {
    match command {
        Command::Validate { files } => Ok(validate(&files)),
        Command::Render { template, expand, params, disclosure, heading, json } => {
            let mut loaded = Template::load(&template)?;
            loaded.disclosure = disclosure.unwrap_or(loaded.disclosure);
            loaded.heading = heading.unwrap_or(loaded.heading);
            render(&loaded, &expand, &params, json).map_err(|e| e.in_file(&template))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Compare { template, scenario, adapters, json, requests } => {
            if let Some(folder) = &requests {
                check_export_folder(folder)?;
            }
            let loaded = Template::load(&template)?;
            let script = Scenario::load(&scenario)?;
            let adapters = dedup(adapters);
            let started = (unfold_stores::run_history::now_ms(), std::time::Instant::now());
            let comparison = runtime()?
                .block_on(async {
                    if requests.is_some() {
                        unfold_engine::compare_with_requests(&loaded, &script, &adapters).await
                    } else {
                        let report = unfold_engine::compare(&loaded, &script, &adapters).await?;
                        Ok(Comparison { report, requests: Vec::new() })
                    }
                })
                .map_err(|e| e.in_file(&scenario))?;
            keep_comparison(&comparison.report, (&loaded, &template), (&script, &scenario), started);
            let written = match &requests {
                Some(folder) => Some(unfold_engine::compare::write_request_files(folder, &comparison.requests)?),
                None => None,
            };
            if json {
                println!("{}", serde_json::to_string_pretty(&comparison.report).unwrap_or_default());
            } else {
                print!("{}", crate::report_table::draw(&comparison.report));
                if let (Some(folder), Some(count)) = (&requests, written) {
                    println!("\nwrote {count} request bodies to {}", folder.display());
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Run { template, provider, providers, model, user, adapter, params, max_model_calls, json, record } => {
            let params = parse_params(&params)?;
            let args = crate::live_run::LiveRunArgs {
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
            };
            crate::live_run::execute(args)
        }
        Command::History { action, template, provider, adapter, status, limit, json } => {
            let filter = unfold_stores::run_history::RunFilter {
                template,
                provider,
                adapter,
                status,
                source: None,
                limit: Some(limit),
            };
            crate::history::execute(action, filter, json)
        }
        Command::Key { action } => keychain(action),
        Command::Replay { template, cassette, json } => crate::live_run::replay(&template, &cassette, json),
        Command::ToScenario { template, cassette, output } => {
            let loaded = Template::load(&template)?;
            let scenario =
                unfold_live::Cassette::load(&cassette)?.to_scenario(&loaded).map_err(|e| e.in_file(&cassette))?;
            match output {
                Some(path) => document::write_atomically(&path, &scenario.to_json())?,
                None => print!("{}", scenario.to_json()),
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The request bodies go only into a new or empty folder: checked before the comparison runs.
fn check_export_folder(folder: &Path) -> Result<()> {
    match unfold_engine::compare::request_folder_problem(folder)? {
        Some(problem) => Err(Error::argument(format!("--requests {}", folder.display()), problem)),
        None => Ok(()),
    }
}

pub fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|source| Error::Io {
        path: "tokio runtime".into(),
        action: "cannot start",
        source,
    })
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
fn validate(files: &[std::path::PathBuf]) -> ExitCode {
    let mut code = ExitCode::SUCCESS;
    for file in files {
        match validate_file(file) {
            Ok(kind) => println!("{}: ok ({})", file.display(), kind.tag()),
            Err(error @ Error::Invalid(_)) => {
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
    code
}

fn validate_file(path: &Path) -> Result<DocumentKind> {
    let bytes = document::read_document_bytes(path)?;
    let value = document::parse_json(&bytes).map_err(|e| e.in_file(path))?;
    let kind = match document::declared_kind(&value) {
        Some(kind) => kind,
        None if path.to_string_lossy().ends_with(".scenario.json") => DocumentKind::Scenario,
        None => DocumentKind::Template,
    };
    let checked = match kind {
        DocumentKind::Template => Template::from_json(&bytes).map(drop),
        DocumentKind::Scenario => Scenario::from_json(&bytes).map(drop),
    };
    checked.map_err(|e| e.in_file(path))?;
    Ok(kind)
}

fn render(template: &Template, expand: &[String], params: &[String], json: bool) -> Result<()> {
    let mut session = Session::new(template, parse_params(params)?)?;
    for path in expand {
        session.expand(path).map_err(|message| Error::argument(format!("--expand {path}"), message))?;
    }
    let prompt = session.render()?;
    if json {
        println!("{}", serde_json::to_string_pretty(&Preview::of(&prompt)).unwrap_or_default());
    } else {
        print!("{}", prompt.markdown);
    }
    Ok(())
}

/// `--param NAME=VALUE` arguments as a map.
fn parse_params(params: &[String]) -> Result<IndexMap<String, String>> {
    let mut values = IndexMap::new();
    for param in params {
        let Some((name, value)) = param.split_once('=') else {
            return Err(Error::argument(format!("--param {param}"), "expected NAME=VALUE"));
        };
        values.insert(name.to_owned(), value.to_owned());
    }
    Ok(values)
}

/// Keeps every run of a comparison, the baseline too, in the run history.
fn keep_comparison(
    report: &unfold_engine::ComparisonReport,
    (template, template_path): (&Template, &Path),
    (scenario, scenario_path): (&Scenario, &Path),
    (started_at_ms, clock): (u64, std::time::Instant),
) {
    let origin = ComparisonOrigin {
        template,
        template_path: Some(template_path),
        scenario,
        scenario_path: Some(scenario_path),
        live: None,
        started_at_ms,
        duration_ms: clock.elapsed().as_millis() as u64,
    };
    crate::history::keep(&origin.records(report));
}

/// `unfold key set|delete PROFILE`: the key goes from stdin to the keychain, never to the screen.
fn keychain(action: crate::KeyAction) -> Result<ExitCode> {
    use unfold_live::{keychain, ApiKey};
    match action {
        crate::KeyAction::Set { profile } => {
            let mut line = String::new();
            std::io::stdin().read_line(&mut line).map_err(|source| Error::Io {
                path: "stdin".into(),
                action: "cannot read the key from",
                source,
            })?;
            keychain::store_key(&profile, &ApiKey::new(line.trim()))?;
            eprintln!("kept the key of profile '{profile}' in the OS keychain");
        }
        crate::KeyAction::Delete { profile } => {
            let message =
                if keychain::delete_key(&profile)? { "forgot the key of" } else { "the keychain held no key for" };
            eprintln!("{message} profile '{profile}'");
        }
    }
    Ok(ExitCode::SUCCESS)
}
