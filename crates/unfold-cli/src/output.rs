//! The command's output on stdout. A reader that stops early (`unfold render … | head`) closes the
//! pipe; the command then stops at its next write and ends quietly with success, as ripgrep and
//! the coreutils do, instead of calling it a bug in Unfold. Any other failure to write (a full
//! disk behind `>`) is an error that says so. Tables are fitted to the terminal's width.

use std::io::{ErrorKind, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use unfold_application::{AppError, AppResult, ErrorCode};

/// How wide a table drawn on stdout may be when stdout is not a terminal (a file, a pipe, a CI
/// log): what a reader's window or an editor shows without wrapping.
const WIDTH_OFF_TERMINAL: usize = 100;

/// How wide a table drawn on stdout may be: the terminal's width when stdout is one, else
/// [`WIDTH_OFF_TERMINAL`].
pub fn width() -> usize {
    match terminal_size::terminal_size_of(std::io::stdout()) {
        Some((terminal_size::Width(columns), _)) if columns > 0 => usize::from(columns),
        _ => WIDTH_OFF_TERMINAL,
    }
}

/// Set once a write found the reader gone; every later write fails at once.
static READER_GONE: AtomicBool = AtomicBool::new(false);

/// Whether the reader of stdout stopped reading: the command's failure is then that alone.
pub fn reader_gone() -> bool {
    READER_GONE.load(Ordering::Relaxed)
}

/// Writes the formatted text to stdout.
pub fn write(text: std::fmt::Arguments<'_>) -> AppResult<()> {
    written(|out| out.write_fmt(text))
}

/// Writes `value` as pretty JSON and a newline, straight to stdout without building the text.
pub fn write_json(value: &impl serde::Serialize) -> AppResult<()> {
    written(|out| {
        let mut buffered = std::io::BufWriter::with_capacity(64 * 1024, out);
        serde_json::to_writer_pretty(&mut buffered, value).map_err(std::io::Error::from)?;
        buffered.write_all(b"\n")?;
        buffered.flush()
    })
}

fn written(write: impl FnOnce(&mut std::io::StdoutLock<'static>) -> std::io::Result<()>) -> AppResult<()> {
    if reader_gone() {
        return Err(gone());
    }
    let mut out = std::io::stdout().lock();
    match write(&mut out).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(error) if error.kind() == ErrorKind::BrokenPipe => {
            READER_GONE.store(true, Ordering::Relaxed);
            Err(gone())
        }
        Err(error) => {
            Err(AppError::new(ErrorCode::UnreadableFile, format!("cannot write the output to stdout: {error}")))
        }
    }
}

fn gone() -> AppError {
    AppError::new(ErrorCode::Cancelled, "the reader of the output stopped reading")
}

/// `print!` that returns the failure to write instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => { $crate::output::write(format_args!($($arg)*)) };
}

/// `println!` that returns the failure to write instead of panicking.
macro_rules! outln {
    ($($arg:tt)*) => { $crate::output::write(format_args!("{}\n", format_args!($($arg)*))) };
}

pub(crate) use {out, outln};
