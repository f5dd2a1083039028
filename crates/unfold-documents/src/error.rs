//! The core's one error type, and `Problem`: a thing wrong at one place of one document.
//!
//! Every error a user can cause names the place (a JSON pointer, or a line and column when the text
//! is not JSON yet) and, once the caller knows it, the file.
//!
//! An error is printed a line per problem, so what it quotes of the user's (a path, a key, a
//! value) is printed with its control characters escaped ([`printable`]): a newline in a file's
//! name cannot forge an `error:` line, nor an escape sequence clear one.

use std::borrow::Cow;
use std::fmt;
use std::path::Path;

/// How many problems one report lists before it says how many more there are.
const MAX_PROBLEMS_LISTED: usize = 100;

/// Result of the core's fallible operations.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Where in a document a problem is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A JSON pointer into the parsed document (`""` is the whole document).
    Pointer(String),
    /// An argument of a request (a flag, a section asked to be expanded).
    Argument(String),
    /// A position in text that could not be parsed as JSON (1-based).
    Text {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
}

/// `text` as it can be printed on one line of a terminal or a log: unchanged unless it holds a
/// control character (a newline, a carriage return, an escape) or a character that moves or
/// reverses what follows it (a line separator, a bidirectional override); then those are
/// escaped as Rust escapes them (`\n`, `\u{1b}`, `\u{202e}`), and backslashes too (`\\`), so
/// the escaped text reads back unambiguously.
pub fn printable(text: &str) -> Cow<'_, str> {
    fn moves_the_line(c: char) -> bool {
        c.is_control()
            || matches!(c, '\u{2028}' | '\u{2029}' | '\u{061c}' | '\u{200e}' | '\u{200f}')
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    }
    if !text.chars().any(moves_the_line) {
        return Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\\' => escaped.push_str("\\\\"),
            c if moves_the_line(c) => escaped.extend(c.escape_debug()),
            c => escaped.push(c),
        }
    }
    Cow::Owned(escaped)
}

/// [`printable`] of a path as it is displayed.
pub fn printable_path(path: &Path) -> String {
    printable(&path.display().to_string()).into_owned()
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Pointer(p) | Location::Argument(p) => f.write_str(&printable(p)),
            Location::Text { line, column } => write!(f, "line {line}, column {column}"),
        }
    }
}

/// One thing wrong with a document, at one place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Where it is.
    pub location: Location,
    /// What is wrong, in words for the person who wrote the file; no trailing period.
    pub message: String,
}

impl Problem {
    /// A problem at a JSON pointer.
    pub fn at(pointer: impl Into<String>, message: impl Into<String>) -> Problem {
        Problem { location: Location::Pointer(pointer.into()), message: message.into() }
    }
}

/// `key` as one segment of a JSON pointer (RFC 6901): `~` and `/` escaped, so a key holding a
/// slash (`a/b`) stays one segment (`a~1b`).
pub fn pointer_segment(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            // A problem with the whole document needs no place.
            Location::Pointer(p) if p.is_empty() => f.write_str(&printable(&self.message)),
            location => write!(f, "{location}: {}", printable(&self.message)),
        }
    }
}

/// Every problem found in one document (never empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problems {
    /// The file (or other origin) the problems are in, once known.
    pub origin: Option<String>,
    /// The problems, in document order where that is known.
    pub list: Vec<Problem>,
}

impl fmt::Display for Problems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, problem) in self.list.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            if let Some(origin) = &self.origin {
                write!(f, "{}: ", printable(origin))?;
            }
            write!(f, "{problem}")?;
        }
        Ok(())
    }
}

/// Errors of the core.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read or written.
    #[error("{}: {action}: {source}", printable(.path))]
    Io {
        /// The file.
        path: String,
        /// What was being done (`cannot read`, `cannot save`).
        action: &'static str,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A document (template, scenario) or a request on it is invalid.
    #[error("{0}")]
    Invalid(Problems),
    /// No open document has this id (the editor's documents).
    #[error("no open document has the id {id}")]
    UnknownDocument {
        /// The id asked for.
        id: u32,
    },
    /// A provider failed to answer.
    #[error("provider: {}", printable(.0))]
    Provider(String),
    /// The user cancelled the work (a comparison) before it ended.
    #[error("cancelled")]
    Cancelled,
}

impl Error {
    /// An `Invalid` error listing `list`, cut to the first few problems and a count of the rest.
    pub fn invalid(mut list: Vec<Problem>) -> Error {
        if list.len() > MAX_PROBLEMS_LISTED {
            let more = list.len() - MAX_PROBLEMS_LISTED;
            list.truncate(MAX_PROBLEMS_LISTED);
            list.push(Problem::at("", format!("and {more} more problems")));
        }
        Error::Invalid(Problems { origin: None, list })
    }

    /// An `Invalid` error with one problem and no origin yet.
    pub fn problem(pointer: impl Into<String>, message: impl Into<String>) -> Error {
        Error::Invalid(Problems { origin: None, list: vec![Problem::at(pointer, message)] })
    }

    /// An `Invalid` error about a command-line argument.
    pub fn argument(argument: impl Into<String>, message: impl Into<String>) -> Error {
        let problem = Problem { location: Location::Argument(argument.into()), message: message.into() };
        Error::Invalid(Problems { origin: None, list: vec![problem] })
    }

    /// Names the file the error is about, unless it already names one.
    pub fn in_file(self, path: &Path) -> Error {
        match self {
            Error::Invalid(Problems { origin: None, list }) => {
                Error::Invalid(Problems { origin: Some(path.display().to_string()), list })
            }
            other => other,
        }
    }

    /// The problems of an `Invalid` error (empty for other errors).
    pub fn problems(&self) -> &[Problem] {
        match self {
            Error::Invalid(problems) => &problems.list,
            _ => &[],
        }
    }
}

impl From<Problem> for Error {
    fn from(problem: Problem) -> Error {
        Error::invalid(vec![problem])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_text_escapes_only_what_moves_the_line() {
        for ordinary in ["examples/task executor.unfold.json", r"C:\temp\t.json", "l'été \"x\"", "e\u{301}", ""] {
            assert!(matches!(printable(ordinary), Cow::Borrowed(_)), "{ordinary:?}");
        }
        let check = |text: &str, expected: &str| assert_eq!(printable(text), expected, "{text:?}");
        check("a\nerror: b", r"a\nerror: b");
        check("a\r\u{1b}[2K\u{7}", r"a\r\u{1b}[2K\u{7}");
        check("a\u{202e}b\u{2028}c\u{85}", r"a\u{202e}b\u{2028}c\u{85}");
        check("C:\\new\n", r"C:\\new\n");
    }
}
