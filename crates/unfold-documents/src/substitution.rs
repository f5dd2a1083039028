//! Parameter substitution with Python `string.Template` rules: `${name}` and `$name` substitute,
//! `$$` is a literal `$`, any other `$` is an invalid placeholder. Names are ASCII identifiers.
//! A substituted value is copied as it is: it is never scanned for placeholders again.

use std::fmt;

/// Why a text could not be substituted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubstitutionError {
    /// `${name}` or `$name` with no value.
    Missing {
        /// The parameter's name.
        name: String,
    },
    /// A `$` that starts no valid placeholder.
    InvalidPlaceholder {
        /// 1-based line of the `$`.
        line: usize,
        /// 1-based column (in characters) of the `$`.
        column: usize,
    },
}

impl fmt::Display for SubstitutionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SubstitutionError::Missing { name } => write!(f, "missing parameter '{name}'"),
            SubstitutionError::InvalidPlaceholder { line, column } => write!(
                f,
                "invalid placeholder at line {line}, column {column}: use ${{name}} or $name, and $$ for a literal $"
            ),
        }
    }
}

/// One piece of a parsed text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Piece<'a> {
    Text(&'a str),
    Param(&'a str),
}

/// Splits `text` into literal text and parameters; `Err` holds the byte offset of an invalid `$`.
struct Pieces<'a> {
    text: &'a str,
    pos: usize,
}

fn identifier_len(bytes: &[u8]) -> usize {
    match bytes.first() {
        Some(b) if b.is_ascii_alphabetic() || *b == b'_' => {
            1 + bytes[1..].iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count()
        }
        _ => 0,
    }
}

impl<'a> Iterator for Pieces<'a> {
    type Item = Result<Piece<'a>, usize>;

    fn next(&mut self) -> Option<Self::Item> {
        let rest = &self.text[self.pos..];
        if rest.is_empty() {
            return None;
        }
        let bytes = rest.as_bytes();
        if bytes[0] != b'$' {
            let end = memchr::memchr(b'$', bytes).unwrap_or(bytes.len());
            self.pos += end;
            return Some(Ok(Piece::Text(&rest[..end])));
        }
        let start = self.pos;
        let piece = match bytes.get(1) {
            Some(b'$') => {
                self.pos += 2;
                Piece::Text("$")
            }
            Some(b'{') => {
                let len = identifier_len(&bytes[2..]);
                if len == 0 || bytes.get(2 + len) != Some(&b'}') {
                    self.pos = self.text.len();
                    return Some(Err(start));
                }
                self.pos += len + 3;
                Piece::Param(&rest[2..2 + len])
            }
            _ => {
                let len = identifier_len(&bytes[1..]);
                if len == 0 {
                    self.pos = self.text.len();
                    return Some(Err(start));
                }
                self.pos += len + 1;
                Piece::Param(&rest[1..1 + len])
            }
        };
        Some(Ok(piece))
    }
}

fn pieces(text: &str) -> Pieces<'_> {
    Pieces { text, pos: 0 }
}

fn invalid_at(text: &str, offset: usize) -> SubstitutionError {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    SubstitutionError::InvalidPlaceholder { line, column: before[line_start..].chars().count() + 1 }
}

/// Appends `text` to `out` with every placeholder replaced by `lookup`'s value. On error, `out` is
/// left as it was.
pub fn substitute_into<'v>(
    text: &str,
    lookup: impl Fn(&str) -> Option<&'v str>,
    out: &mut String,
) -> Result<(), SubstitutionError> {
    let start = out.len();
    for piece in pieces(text) {
        let result = match piece {
            Ok(Piece::Text(literal)) => Ok(literal),
            Ok(Piece::Param(name)) => lookup(name).ok_or_else(|| SubstitutionError::Missing { name: name.to_owned() }),
            Err(offset) => Err(invalid_at(text, offset)),
        };
        match result {
            Ok(s) => out.push_str(s),
            Err(e) => {
                out.truncate(start);
                return Err(e);
            }
        }
    }
    Ok(())
}

/// `text` with every placeholder replaced by `lookup`'s value.
pub fn substitute<'v>(text: &str, lookup: impl Fn(&str) -> Option<&'v str>) -> Result<String, SubstitutionError> {
    let mut out = String::with_capacity(text.len());
    substitute_into(text, lookup, &mut out)?;
    Ok(out)
}

/// Checks placeholder syntax only (values are not needed).
pub fn check_syntax(text: &str) -> Result<(), SubstitutionError> {
    match pieces(text).find_map(Result::err) {
        Some(offset) => Err(invalid_at(text, offset)),
        None => Ok(()),
    }
}

/// The parameter names `text` uses, in order, repeats included; stops at an invalid placeholder.
pub fn placeholders(text: &str) -> impl Iterator<Item = &str> {
    pieces(text).map_while(Result::ok).filter_map(|piece| match piece {
        Piece::Param(name) => Some(name),
        Piece::Text(_) => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, expected: Result<&str, SubstitutionError>) {
        let params = [("name", "World"), ("x", "$y"), ("y", "no")];
        let lookup = |n: &str| params.iter().find(|(k, _)| *k == n).map(|(_, v)| *v);
        assert_eq!(substitute(text, lookup).as_deref().map_err(Clone::clone), expected, "{text:?}");
    }

    #[test]
    fn follows_python_string_template() {
        check("Hello ${name}!", Ok("Hello World!"));
        check("Hello $name!", Ok("Hello World!"));
        check("$name_suffix", Err(SubstitutionError::Missing { name: "name_suffix".into() }));
        check("${name}_suffix", Ok("World_suffix"));
        check("costs $$5", Ok("costs $5"));
        check("$$name", Ok("$name"));
        check("value: $x", Ok("value: $y"));
        check("é $name", Ok("é World"));
        check("", Ok(""));
        check("no params", Ok("no params"));
    }

    #[test]
    fn reports_invalid_placeholders_where_they_are() {
        let invalid = |line, column| Err(SubstitutionError::InvalidPlaceholder { line, column });
        check("costs $5", invalid(1, 7));
        check("end $", invalid(1, 5));
        check("a\né ${name", invalid(2, 3));
        check("${ name }", invalid(1, 1));
        check("${}", invalid(1, 1));
    }

    #[test]
    fn lists_placeholders_in_order() {
        let names: Vec<_> = placeholders("$a ${b} $$c $a").collect();
        assert_eq!(names, ["a", "b", "a"]);
    }
}
