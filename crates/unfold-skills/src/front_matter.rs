//! A `SKILL.md`'s parts: the front matter between its `---` lines, kept as the very text it was
//! (so that an unchanged skill is written back byte for byte, unknown fields and comments
//! included), read as YAML for its `name` and `description`; and the same text with another
//! description, changed in place. A front matter that is not YAML, not closed, or lacks a field is
//! a problem at its line of the file, never a panic.

use saphyr::{LoadableYamlNode, MarkedYaml};
use unfold_documents::{Location, Problem};

/// A `SKILL.md` cut at its front matter's delimiters: `opening + front_matter + closing + body`
/// is the file's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillText {
    /// The opening line, `---` and its line ending.
    pub opening: String,
    /// The YAML between the delimiter lines, as written.
    pub front_matter: String,
    /// The closing line, `---` and its line ending (none at the end of the file).
    pub closing: String,
    /// The Markdown after the closing line.
    pub body: String,
}

/// The fields of a front matter a host reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrontMatter {
    /// `name`: the skill's name.
    pub name: String,
    /// `description`: when to use the skill, what a host shows before it is read.
    pub description: String,
}

/// Whether `line` (with its line ending) is a delimiter: `---`, spaces or tabs after it allowed.
fn is_delimiter(line: &str) -> bool {
    line.trim_end_matches(['\n', '\r']).trim_end_matches([' ', '\t']) == "---"
}

/// A problem at a 1-based line and column of the file.
fn at(line: usize, column: usize, message: impl Into<String>) -> Problem {
    Problem { location: Location::Text { line, column }, message: message.into() }
}

/// `text` cut at its front matter's delimiters; the problem says where the front matter is
/// missing or not closed.
pub fn split(text: &str) -> Result<SkillText, Problem> {
    let mut lines = text.split_inclusive('\n');
    let opening = lines.next().unwrap_or("");
    if !is_delimiter(opening) || !opening.ends_with('\n') {
        return Err(at(
            1,
            1,
            "a SKILL.md starts with its front matter: a line `---`, YAML with name and description, then a line `---`",
        ));
    }
    let mut offset = opening.len();
    for line in lines {
        if is_delimiter(line) {
            let front_matter = &text[opening.len()..offset];
            let body_start = offset + line.len();
            return Ok(SkillText {
                opening: opening.to_owned(),
                front_matter: front_matter.to_owned(),
                closing: line.to_owned(),
                body: text[body_start..].to_owned(),
            });
        }
        offset += line.len();
    }
    Err(at(1, 1, "the front matter opened here is not closed by a line `---`"))
}

/// The front matter's `name` and `description`; `front_matter` starts at line 2 of the file.
/// Every other field is left to the text, which keeps it.
pub fn parse(front_matter: &str) -> Result<FrontMatter, Problem> {
    // The file's line of the front matter's line `line` (1-based).
    let file_line = |line: usize| line + 1;
    let documents = MarkedYaml::load_from_str(front_matter).map_err(|error| {
        let marker = error.marker();
        at(file_line(marker.line().max(1)), marker.col() + 1, format!("the front matter is not YAML: {}", error.info()))
    })?;
    let Some(document) = documents.first() else {
        return Err(at(1, 1, "the front matter is empty: it needs a name and a description"));
    };
    let Some(mapping) = document.data.as_mapping() else {
        let line = file_line(document.span.start.line().max(1));
        return Err(at(line, 1, "the front matter is not a mapping of fields (`name: …`, `description: …`)"));
    };
    let field = |name: &str| -> Result<String, Problem> {
        let Some((key, value)) = mapping.iter().find(|(key, _)| key.data.as_str() == Some(name)) else {
            return Err(at(1, 1, format!("the front matter has no `{name}`")));
        };
        match value.data.as_str() {
            Some(text) if !text.trim().is_empty() => Ok(text.to_owned()),
            Some(_) => {
                Err(at(file_line(key.span.start.line()), key.span.start.col() + 1, format!("`{name}` is empty")))
            }
            None => {
                Err(at(file_line(key.span.start.line()), key.span.start.col() + 1, format!("`{name}` is not text")))
            }
        }
    };
    Ok(FrontMatter { name: field("name")?, description: field("description")? })
}

/// `front_matter` with its `description` set to `description`, every other line as it was: the
/// lines from the `description` key to the next field are replaced by one `description:` line.
/// `None` when that cannot be done in place (a front matter written as one flow mapping): the
/// caller says so rather than rewrite the user's fields.
pub fn with_description(front_matter: &str, description: &str) -> Option<String> {
    let documents = MarkedYaml::load_from_str(front_matter).ok()?;
    let mapping = documents.first()?.data.as_mapping()?;
    let keys: Vec<(usize, usize)> = mapping.keys().map(|key| (key.span.start.line(), key.span.start.col())).collect();
    let position = mapping.keys().position(|key| key.data.as_str() == Some("description"))?;
    let (first, column) = keys[position];
    // A block mapping's keys start their lines, each on a line of its own.
    if column != 0 || keys.iter().filter(|(line, _)| *line == first).count() != 1 {
        return None;
    }
    let next = keys.iter().map(|(line, _)| *line).filter(|line| *line > first).min();
    let lines: Vec<&str> = front_matter.split_inclusive('\n').collect();
    let ending = if lines.get(first - 1)?.ends_with("\r\n") { "\r\n" } else { "\n" };
    let end = next.map_or(lines.len(), |line| line - 1);
    let replaced = format!("description: {}{ending}", scalar(description));
    let text: String =
        lines[..first - 1].iter().copied().chain([replaced.as_str()]).chain(lines[end..].iter().copied()).collect();
    // What was kept must read back as it was, and the description as the new one.
    let reread = MarkedYaml::load_from_str(&text).ok()?;
    let reread = reread.first()?.data.as_mapping()?;
    let same_fields = mapping.len() == reread.len()
        && mapping.iter().zip(reread.iter()).all(|((key, value), (key_after, value_after))| {
            key == key_after && (key.data.as_str() == Some("description") || value == value_after)
        });
    let new_description = reread.iter().find(|(key, _)| key.data.as_str() == Some("description"));
    (same_fields && new_description.and_then(|(_, value)| value.data.as_str()) == Some(description)).then_some(text)
}

/// `text` as a YAML scalar on one line: plain when it reads back as itself, else double-quoted
/// (a JSON string is a YAML double-quoted scalar).
pub fn scalar(text: &str) -> String {
    let plain = format!("description: {text}");
    let reads_back = MarkedYaml::load_from_str(&plain).ok().is_some_and(|documents| {
        documents.first().and_then(|d| d.data.as_mapping_get("description")).and_then(|v| v.data.as_str()) == Some(text)
    });
    if reads_back && !text.contains(['\n', '\r']) {
        text.to_owned()
    } else {
        serde_json::Value::String(text.to_owned()).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(text: &str) -> String {
        let problem = split(text).and_then(|parts| parse(&parts.front_matter).map(|_| parts)).unwrap_err();
        problem.to_string()
    }

    #[test]
    fn a_skill_md_splits_into_the_exact_text_of_its_parts() {
        for text in [
            "---\nname: a\ndescription: b\n---\n# A\n\nBody\n",
            "---\r\nname: a\r\ndescription: b\r\n---\r\nBody\r\n",
            "---  \nname: a\ndescription: b\n---\t\n",
            "---\nname: a\ndescription: b\n---",
        ] {
            let parts = split(text).unwrap();
            assert_eq!(parts.opening.clone() + &parts.front_matter + &parts.closing + &parts.body, text);
            assert_eq!(parse(&parts.front_matter).unwrap(), FrontMatter { name: "a".into(), description: "b".into() });
        }
    }

    #[test]
    fn a_description_over_several_lines_is_read_as_yaml_reads_it() {
        let parts = split("---\nname: pdf\ndescription: >\n  Fill forms\n  and merge.\nlicense: x\n---\n").unwrap();
        assert_eq!(parse(&parts.front_matter).unwrap().description, "Fill forms and merge.\n");
    }

    #[test]
    fn bad_front_matter_is_a_problem_at_its_line() {
        let check = |text: &str, expected: &str| assert_eq!(problem(text), expected, "{text:?}");
        check("# No front matter\n", "line 1, column 1: a SKILL.md starts with its front matter: a line `---`, YAML with name and description, then a line `---`");
        check(
            "---\nname: a\ndescription: b\n",
            "line 1, column 1: the front matter opened here is not closed by a line `---`",
        );
        check(
            "---\nname: a\ndescription: [b\n---\n",
            "line 4, column 1: the front matter is not YAML: while parsing a flow sequence, expected ',' or ']'",
        );
        check(
            "---\nname: a\n  description: b\n---\n",
            "line 3, column 14: the front matter is not YAML: mapping values are not allowed in this context",
        );
        check("---\nname: a\n---\n", "line 1, column 1: the front matter has no `description`");
        check("---\ndescription: b\n---\n", "line 1, column 1: the front matter has no `name`");
        check("---\nname: a\ndescription:\n---\n", "line 3, column 1: `description` is not text");
        check("---\nname: [a]\ndescription: b\n---\n", "line 2, column 1: `name` is not text");
        check(
            "---\n- a\n---\n",
            "line 2, column 1: the front matter is not a mapping of fields (`name: …`, `description: …`)",
        );
        check("---\n---\n", "line 1, column 1: the front matter is empty: it needs a name and a description");
        check(
            "---\nname: a\nname: b\ndescription: c\n---\n",
            "line 3, column 1: the front matter is not YAML: duplicated key in mapping",
        );
    }

    #[test]
    fn a_new_description_replaces_only_its_own_lines() {
        let before = "name: pdf\n# a comment\ndescription: >\n  Old text\n  on two lines.\nlicense: Complete terms in LICENSE.txt\nmetadata:\n  a: 1\n";
        let after = with_description(before, "New: text, with a colon").unwrap();
        assert_eq!(after, "name: pdf\n# a comment\ndescription: \"New: text, with a colon\"\nlicense: Complete terms in LICENSE.txt\nmetadata:\n  a: 1\n");
        assert_eq!(
            with_description("name: a\ndescription: b\n", "plain words").unwrap(),
            "name: a\ndescription: plain words\n"
        );
        assert_eq!(with_description("description: b\r\nname: a\r\n", "c").unwrap(), "description: c\r\nname: a\r\n");
        assert_eq!(with_description("{name: a, description: b}\n", "c"), None);
    }

    #[test]
    fn a_scalar_reads_back_as_its_text() {
        for text in ["plain", "a: b", "#hash", "yes", "12", " padded ", "two\nlines", "quote \" and \\", "é ✓", ""] {
            let yaml = format!("description: {}", scalar(text));
            let documents = MarkedYaml::load_from_str(&yaml).unwrap();
            let value = documents[0].data.as_mapping_get("description").and_then(|v| v.data.as_str());
            assert_eq!(value, Some(text), "{yaml}");
        }
    }
}
