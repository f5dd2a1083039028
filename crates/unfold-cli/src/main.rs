//! The `unfold` command line: validate, render and compare templates headless, run them with real
//! models, and read the run history, over the same application layer as the app. This file maps
//! outcomes to exit codes; `args` holds the arguments, `commands` translates each command into
//! application calls and their output.
//!
//! Exit codes: 0 success, 1 validation problems (`validate`) or an expectation that did not hold
//! (`test`), 2 bad input, 3 a bug in Unfold, 4 a live run that ended with status `error` (`run`),
//! 130 interrupted (Ctrl+C or SIGTERM, once what the command started has been ended).
//! Logs (the libraries' `tracing` spans and events) go to stderr when `UNFOLD_LOG` is set, e.g.
//! `UNFOLD_LOG=debug`; stdout carries only the command's output.

mod args;
mod columns;
mod commands;
mod event_lines;
mod fork;
mod history;
mod host_probe;
mod host_run;
mod hosts;
mod junit;
mod live;
mod money;
mod output;
mod report_table;
mod runtime;
mod skills;
mod sources;
mod study_table;
mod suite_run;

use std::process::ExitCode;

use clap::Parser;

/// A command's work is mostly JSON trees built and dropped; mimalloc makes `compare` and
/// `render --json` a fifth faster than the system allocator (`scripts/bench.sh`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    if let Ok(filter) = std::env::var("UNFOLD_LOG") {
        tracing_subscriber::fmt()
            .with_writer(std::io::stderr)
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .with_env_filter(tracing_subscriber::EnvFilter::new(filter))
            .init();
    }
    // A bug must still end with one readable line, never a backtrace. Release builds abort on a
    // panic (smaller binaries) right after this line; debug builds unwind and exit with 3.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("error: internal error (a bug in Unfold, please report it): {info}");
    }));
    match std::panic::catch_unwind(|| commands::execute(cli.command)) {
        Ok(Ok(code)) => code,
        // `unfold … | head`: the reader had what it wanted.
        Ok(Err(_)) if output::reader_gone() => ExitCode::SUCCESS,
        Ok(Err(failure)) => {
            for line in failure.to_string().lines() {
                eprintln!("error: {line}");
            }
            match failure.code {
                // What a shell reports for a command ended by Ctrl+C.
                unfold_application::ErrorCode::Cancelled => ExitCode::from(130),
                _ => ExitCode::from(2),
            }
        }
        Err(_) => ExitCode::from(3),
    }
}
