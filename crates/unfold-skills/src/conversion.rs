//! The conversion between skills' folders and a template, both ways, with no file touched.
//!
//! A skill becomes a summarized section: its title the skill's name, its summary the description
//! (what a host shows first), its body the `SKILL.md` body (what a host shows when the skill is
//! read), with its scripts under `scripts/` as its tools, each with a scripted result. The other
//! text files the body names are the summarized children of a section of their own right after
//! the skill's (`internal-comms-files`, itself summarized, marked `x-skill-files`), not of the
//! skill's: reading a section brings its whole subtree (spec 4.1), so reading the skill shows its
//! body alone (level 2), and reading a file (`internal-comms-files.examples-3p-updates-md`) shows
//! that file alone (level 3): the files' section's one line and the other files' summaries come
//! into the prompt with it, never the skill's body nor another file's text.
//! What a host does not show but the folder holds is kept in `x-` fields, which templates keep as
//! they are: the front matter's very text and delimiters (`x-skill`), the files the body does not
//! name (LICENSE.txt, data, anything not UTF-8, base64), a file's path and a script's text
//! (`x-skill-file`). So writing the template back gives the same bytes.
//!
//! Written back, a section's body, its children's and the description are what the template says
//! now: a changed description is written into the front matter in place of the old one (the
//! other fields and lines stay as they were); an unchanged one leaves the front matter's text as
//! it was. Bodies are template text, where `$` is written `$$` (Python `string.Template`); the
//! import doubles them and the export substitutes, so the files hold what the model reads.

use std::collections::HashSet;
use std::path::Path;

use base64::Engine;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use unfold_documents::substitution;
use unfold_documents::template::{Disclosure, HeadingStyle, Section, ToolDisclosure};
use unfold_documents::tool::{ScriptedResult, ToolKind, MAX_TOOL_NAME_LEN};
use unfold_documents::{Error, Location, Problem, Template, Tool, Visibility};

use crate::front_matter::{self, FrontMatter, SkillText};

/// The file every skill's folder holds.
pub const SKILL_MD: &str = "SKILL.md";
/// The field of a skill's section that keeps what its folder holds beyond the texts shown.
pub const SKILL_FIELD: &str = "x-skill";
/// The field of a file's section or a script's tool that keeps its path in the folder.
pub const FILE_FIELD: &str = "x-skill-file";
/// The field of the section that holds a skill's files, naming the skill's section.
pub const FILES_FIELD: &str = "x-skill-files";
/// The extensions of the files under `scripts/` that become tools.
const SCRIPT_EXTENSIONS: &[&str] = &["py", "sh", "bash", "js", "mjs", "cjs", "ts", "rb", "pl", "ps1"];
/// A delimiter line as most files write it, which `x-skill` does not repeat.
const DELIMITER: &str = "---\n";
/// How much of a script's leading comment its tool's description takes.
const MAX_SCRIPT_DOC: usize = 300;

/// One file of a skill's folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillFile {
    /// Its path in the skill's folder, `/`-separated (`scripts/fill.py`).
    pub path: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// Whether it may be run as a program (the owner's execute bit).
    pub executable: bool,
}

/// One skill's folder: its name in the skills folder and every file in it, `SKILL.md` included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillFolder {
    /// The folder's name (`pdf`).
    pub dir: String,
    /// Its files, by path.
    pub files: Vec<SkillFile>,
}

/// What `x-skill` keeps of a skill's folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SkillMeta {
    /// The folder's name.
    dir: String,
    /// The front matter's text between its delimiter lines.
    front_matter: String,
    /// The opening delimiter line, when not `---` and a newline.
    #[serde(default = "delimiter", skip_serializing_if = "is_delimiter")]
    opening: String,
    /// The closing delimiter line, when not `---` and a newline.
    #[serde(default = "delimiter", skip_serializing_if = "is_delimiter")]
    closing: String,
    /// The files neither a section nor a tool shows.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    files: Vec<KeptFile>,
}

fn delimiter() -> String {
    DELIMITER.to_owned()
}

fn is_delimiter(line: &str) -> bool {
    line == DELIMITER
}

/// A file kept as it is: its text, or its bytes in base64 when they are not UTF-8.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct KeptFile {
    path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    base64: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    executable: bool,
}

/// What `x-skill-file` keeps: the path, and a script's text (a section's text is its body).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileMeta {
    path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    text: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    executable: bool,
}

/// What `x-skill-files` keeps: the key of the top-level section of the skill whose files these
/// are.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FilesMeta {
    skill: String,
}

/// Whether `section` holds the files of a skill (`x-skill-files`), rather than being a skill.
pub fn holds_a_skills_files(section: &Section) -> bool {
    section.extensions.contains_key(FILES_FIELD)
}

/// The template of the skills `skills` (read from the folder `root`, which errors name), keyed
/// `key`. Each skill whose `SKILL.md` is wrong is an error of its own, at its file and line.
pub fn template_of(root: &Path, key: &str, skills: &[SkillFolder]) -> Result<Template, Vec<Error>> {
    let mut keys = HashSet::new();
    let mut tool_names: HashSet<String> = ["read_section", "open_sections", "pick_tools"].map(String::from).into();
    let mut sections = Vec::new();
    let mut errors = Vec::new();
    for folder in skills {
        match skill_sections(folder, &mut keys, &mut tool_names) {
            Ok(skill) => sections.extend(skill),
            Err(problem) => errors.push(Error::from(problem).in_file(&root.join(&folder.dir).join(SKILL_MD))),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let folder_name = root.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    Ok(Template {
        schema_version: 1,
        kind: "unfold.template".to_owned(),
        ns: String::new(),
        key: key.to_owned(),
        name: format!("Agent Skills: {folder_name}"),
        disclosure: Disclosure::ReadSection,
        tool_disclosure: ToolDisclosure::Full,
        heading: HeadingStyle::Plain,
        params: indexmap::IndexMap::new(),
        tools: Vec::new(),
        sources: Vec::new(),
        sections,
        extensions: Map::new(),
    })
}

/// A skill's section, and the section of the files it names when it names any.
fn skill_sections(
    folder: &SkillFolder,
    keys: &mut HashSet<String>,
    tool_names: &mut HashSet<String>,
) -> Result<Vec<Section>, Problem> {
    let skill_md = folder.files.iter().find(|file| file.path == SKILL_MD);
    let bytes = skill_md.map_or(&[][..], |file| &file.bytes[..]);
    let text = std::str::from_utf8(bytes).map_err(|error| {
        let line = bytes[..error.valid_up_to()].iter().filter(|b| **b == b'\n').count() + 1;
        Problem { location: Location::Text { line, column: 1 }, message: "the file is not UTF-8 text".to_owned() }
    })?;
    let parts = front_matter::split(text)?;
    let FrontMatter { name, description } = front_matter::parse(&parts.front_matter)?;
    let key = unique(&section_key(&name).or_else(|| section_key(&folder.dir)).unwrap_or("skill".into()), keys);
    let mut child_keys = HashSet::new();
    let (mut children, mut tools, mut kept) = (Vec::new(), Vec::new(), Vec::new());
    for file in folder.files.iter().filter(|file| file.path != SKILL_MD) {
        match std::str::from_utf8(&file.bytes) {
            Ok(text) if is_script(&file.path) => tools.push(script_tool(file, text, &name, &key, tool_names)),
            Ok(text) if names(&parts.body, &file.path, &folder.files) => {
                children.push(file_section(file, text, &mut child_keys));
            }
            Ok(text) => kept.push(KeptFile {
                path: file.path.clone(),
                text: Some(text.to_owned()),
                base64: None,
                executable: file.executable,
            }),
            Err(_) => kept.push(KeptFile {
                path: file.path.clone(),
                text: None,
                base64: Some(base64::engine::general_purpose::STANDARD.encode(&file.bytes)),
                executable: file.executable,
            }),
        }
    }
    let SkillText { opening, front_matter, closing, body } = parts;
    let meta = SkillMeta { dir: folder.dir.clone(), front_matter, opening, closing, files: kept };
    let files = (!children.is_empty()).then(|| {
        let what = escape(&format!("The files of the {name} skill"));
        Section {
            key: unique(&format!("{key}-files"), keys),
            title: format!("{name} files"),
            template: format!("{what}: read each by its key."),
            summary: Some(format!("{what}, each read on its own.")),
            visibility: Visibility::Summary,
            tools: Vec::new(),
            children,
            extensions: Map::from_iter([(FILES_FIELD.to_owned(), to_value(&FilesMeta { skill: key.clone() }))]),
        }
    });
    let skill = Section {
        key,
        title: name,
        template: escape(&body),
        summary: Some(escape(description.trim_end())),
        visibility: Visibility::Summary,
        tools,
        children: Vec::new(),
        extensions: Map::from_iter([(SKILL_FIELD.to_owned(), to_value(&meta))]),
    };
    Ok(std::iter::once(skill).chain(files).collect())
}

/// A file a skill's body names, as a summarized section (a child of the skill's files' section).
fn file_section(file: &SkillFile, text: &str, keys: &mut HashSet<String>) -> Section {
    let key = unique(&section_key(&file.path).unwrap_or("file".into()), keys);
    let heading = text
        .lines()
        .find_map(|line| line.trim_start_matches('#').strip_prefix(' ').filter(|_| line.starts_with('#')))
        .map(str::trim)
        .filter(|heading| !heading.is_empty());
    let summary = match heading {
        Some(heading) => format!("The file {} ({heading})", file.path),
        None => format!("The file {}", file.path),
    };
    let meta = FileMeta { path: file.path.clone(), text: None, executable: file.executable };
    Section {
        key,
        title: file.path.clone(),
        template: escape(text),
        summary: Some(escape(&summary)),
        visibility: Visibility::Summary,
        tools: Vec::new(),
        children: Vec::new(),
        extensions: Map::from_iter([(FILE_FIELD.to_owned(), to_value(&meta))]),
    }
}

/// A script of a skill as a tool: named after its file, described by its leading comment, and
/// answering with a scripted result (Unfold runs nothing).
fn script_tool(file: &SkillFile, text: &str, skill: &str, key: &str, names: &mut HashSet<String>) -> Tool {
    let stem = file.path.rsplit('/').next().unwrap_or(&file.path);
    let stem = stem.rsplit_once('.').map_or(stem, |(stem, _)| stem);
    let name = tool_name(stem, key, names);
    let runs = format!("Runs `{}` of the {skill} skill.", file.path);
    let description = match script_doc(text) {
        Some(doc) => format!("{doc} {runs}"),
        None => runs,
    };
    let meta = FileMeta { path: file.path.clone(), text: Some(text.to_owned()), executable: file.executable };
    Tool {
        name,
        description,
        brief: None,
        parameters: json!({
            "type": "object",
            "properties": {
                "args": { "type": "array", "items": { "type": "string" }, "description": "The script's command-line arguments" }
            }
        }),
        kind: Some(ToolKind::Execute),
        categories: None,
        requires_permission: None,
        mock: Some(ScriptedResult::Result(json!(format!("{} ran (a scripted result)", file.path)))),
        extensions: Map::from_iter([(FILE_FIELD.to_owned(), to_value(&meta))]),
    }
}

/// The first paragraph of a script's leading comment or docstring, on one line.
fn script_doc(text: &str) -> Option<String> {
    let mut lines = text.lines().map(str::trim).skip_while(|line| line.starts_with("#!") || line.starts_with("# -*-"));
    let mut lines = lines.by_ref().skip_while(|line| line.is_empty()).peekable();
    let first = *lines.peek()?;
    let mut paragraph = Vec::new();
    if let Some(quote) = ["\"\"\"", "'''"].into_iter().find(|quote| first.starts_with(quote)) {
        let opened = &first[3..];
        if let Some((inside, _)) = opened.split_once(quote) {
            paragraph.push(inside.trim());
        } else {
            paragraph.push(opened.trim());
            lines.next();
            for line in lines {
                let (line, closed) = line.split_once(quote).map_or((line, false), |(inside, _)| (inside, true));
                if line.trim().is_empty() && !paragraph.iter().all(|l| l.is_empty()) {
                    break;
                }
                paragraph.push(line.trim());
                if closed {
                    break;
                }
            }
        }
    } else {
        for line in lines {
            let Some(comment) = line.strip_prefix('#').or_else(|| line.strip_prefix("//")) else { break };
            let comment = comment.trim();
            if comment.is_empty() {
                if paragraph.is_empty() {
                    continue;
                }
                break;
            }
            paragraph.push(comment);
        }
    }
    let doc = paragraph.into_iter().filter(|line| !line.is_empty()).collect::<Vec<_>>().join(" ");
    let doc: String = doc.chars().take(MAX_SCRIPT_DOC).collect();
    (!doc.is_empty()).then_some(doc)
}

/// A script: a file under `scripts/` in a scripting language, not a module (`_x.py`).
fn is_script(path: &str) -> bool {
    let Some(rest) = path.strip_prefix("scripts/") else { return false };
    let name = rest.rsplit('/').next().unwrap_or(rest);
    let extension = name.rsplit_once('.').map(|(_, extension)| extension);
    !name.starts_with('_') && extension.is_some_and(|extension| SCRIPT_EXTENSIONS.contains(&extension))
}

/// Whether `body` names the file at `path`: by its path (`examples/a.md`, `./reference/b.md`),
/// or by its file name when no other file of the skill has that name.
fn names(body: &str, path: &str, files: &[SkillFile]) -> bool {
    if body.contains(path) {
        return true;
    }
    let name = path.rsplit('/').next().unwrap_or(path);
    let same_name = files.iter().filter(|file| file.path.rsplit('/').next() == Some(name)).count();
    let part_of_a_name = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/');
    same_name == 1
        && name.contains('.')
        && body.match_indices(name).any(|(at, _)| {
            let before = body[..at].chars().next_back();
            let after = body[at + name.len()..].chars().next();
            !before.is_some_and(part_of_a_name) && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
}

/// `text` as a section key: lowercase letters, digits, `-` and `_`, starting with a letter or
/// digit; `None` when nothing of it is left.
fn section_key(text: &str) -> Option<String> {
    let mut key = String::new();
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() || c == '_' {
            key.push(c);
        } else if !key.ends_with('-') {
            key.push('-');
        }
    }
    let key = key.trim_matches(|c| c == '-' || c == '_').to_owned();
    (!key.is_empty()).then_some(key)
}

/// `key`, or `key-2`, `key-3`… when taken; recorded as taken.
fn unique(key: &str, taken: &mut HashSet<String>) -> String {
    let mut candidate = key.to_owned();
    let mut n = 2;
    while !taken.insert(candidate.clone()) {
        candidate = format!("{key}-{n}");
        n += 1;
    }
    candidate
}

/// A tool name for a script `stem` of the skill `key`: the stem, or the skill's key and the stem
/// when another tool has it; unique across the template.
fn tool_name(stem: &str, key: &str, taken: &mut HashSet<String>) -> String {
    let clean = |text: &str| -> String {
        let name: String =
            text.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' }).collect();
        name.chars().take(MAX_TOOL_NAME_LEN - 4).collect()
    };
    let stem = clean(stem);
    let stem = if stem.is_empty() { "script".to_owned() } else { stem };
    if taken.insert(stem.clone()) {
        return stem;
    }
    unique(&clean(&format!("{key}_{stem}")), taken)
}

/// Template text showing `text` as it is: `$` is written `$$`.
fn escape(text: &str) -> String {
    text.replace('$', "$$")
}

fn to_value(value: &impl Serialize) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// A template written as skills' folders, and what of it no folder holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillsOfTemplate {
    /// A folder per skill's section.
    pub skills: Vec<SkillFolder>,
    /// What was not written, in words (a tool with no script, the template's own tools).
    pub left_out: Vec<String>,
}

/// The skills' folders of `template`: a folder per top-level section, but those that hold a
/// skill's files (`x-skill-files`), whose children are files of that skill's folder. A section
/// imported from a skill is written back as it was read, with its texts as they are now; any
/// other section becomes a skill named by its key, described by its summary (else its title), its
/// children files of their own (`KEY.md`). Problems are at their JSON pointers in the template.
pub fn skills_of(template: &Template) -> Result<SkillsOfTemplate, Error> {
    let mut problems = Vec::new();
    let mut skills = Vec::new();
    let mut left_out: Vec<String> = template
        .tools
        .iter()
        .map(|tool| format!("the template's tool {} (a skill's tools are its scripts)", tool.name))
        .collect();
    // The sections holding a skill's files, by the skill's key, each at its pointer.
    let mut files_of: Vec<(&str, String, &Section)> = Vec::new();
    for (index, section) in template.sections.iter().enumerate() {
        let Some(value) = section.extensions.get(FILES_FIELD) else { continue };
        let pointer = format!("/sections/{index}");
        let skill = match serde_json::from_value::<FilesMeta>(value.clone()) {
            Ok(meta) => meta.skill,
            Err(error) => {
                problems.push(Problem::at(format!("{pointer}/{FILES_FIELD}"), error.to_string()));
                continue;
            }
        };
        match template.sections.iter().find(|s| s.key == skill) {
            Some(found) if !holds_a_skills_files(found) => files_of.push((found.key.as_str(), pointer, section)),
            _ => problems.push(Problem::at(
                format!("{pointer}/{FILES_FIELD}/skill"),
                format!("no skill's section has the key {skill:?}: whose files are these?"),
            )),
        }
    }
    let mut dirs = HashSet::new();
    for (index, section) in template.sections.iter().enumerate() {
        if holds_a_skills_files(section) {
            continue;
        }
        let pointer = format!("/sections/{index}");
        let groups: Vec<(&str, &Section)> = files_of
            .iter()
            .filter(|(skill, _, _)| *skill == section.key)
            .map(|(_, pointer, group)| (pointer.as_str(), *group))
            .collect();
        match skill_folder(template, section, &pointer, &groups, &mut left_out) {
            Ok(folder) if !dirs.insert(folder.dir.clone()) => {
                problems.push(Problem::at(
                    format!("{pointer}/{SKILL_FIELD}/dir"),
                    format!("another section is written to the folder {}", folder.dir),
                ));
            }
            Ok(folder) => skills.push(folder),
            Err(mut found) => problems.append(&mut found),
        }
    }
    if problems.is_empty() {
        Ok(SkillsOfTemplate { skills, left_out })
    } else {
        Err(Error::invalid(problems))
    }
}

/// The folder of the skill `section` (at `pointer`): its files are its children and those of the
/// files' sections `groups` (each at its pointer).
fn skill_folder(
    template: &Template,
    section: &Section,
    pointer: &str,
    groups: &[(&str, &Section)],
    left_out: &mut Vec<String>,
) -> Result<SkillFolder, Vec<Problem>> {
    let mut problems = Vec::new();
    let text_of = |text: &str, at: String, problems: &mut Vec<Problem>| -> String {
        let params = &template.params;
        substitution::substitute(text, |name| params.get(name).map(String::as_str)).unwrap_or_else(|error| {
            problems.push(Problem::at(at, format!("cannot be written as a file's text: {error}")));
            String::new()
        })
    };
    let meta = match section.extensions.get(SKILL_FIELD).map(|value| serde_json::from_value::<SkillMeta>(value.clone()))
    {
        None => None,
        Some(Ok(meta)) => Some(meta),
        Some(Err(error)) => return Err(vec![Problem::at(format!("{pointer}/{SKILL_FIELD}"), error.to_string())]),
    };
    let body = text_of(&section.template, format!("{pointer}/template"), &mut problems);
    let summary = section.summary.as_deref().unwrap_or(&section.title);
    let description = text_of(summary, format!("{pointer}/summary"), &mut problems);
    let (dir, skill_md, kept) = match meta {
        Some(meta) => {
            let front_matter = front_matter_now(&meta.front_matter, &description)
                .map_err(|message| vec![Problem::at(format!("{pointer}/{SKILL_FIELD}/front_matter"), message)])?;
            let skill_md = format!("{}{front_matter}{}{body}", meta.opening, meta.closing);
            (meta.dir, skill_md, meta.files)
        }
        None => {
            let front_matter = format!(
                "name: {}\ndescription: {}\n",
                front_matter::scalar(&section.key),
                front_matter::scalar(description.trim_end())
            );
            (section.key.clone(), format!("{DELIMITER}{front_matter}{DELIMITER}{body}"), Vec::new())
        }
    };
    if !is_safe_component(&dir) {
        problems
            .push(Problem::at(format!("{pointer}/{SKILL_FIELD}/dir"), format!("{dir:?} is not the name of a folder")));
    }
    let mut files = vec![SkillFile { path: SKILL_MD.to_owned(), bytes: skill_md.into_bytes(), executable: false }];
    child_files(section, pointer, "", &text_of, &mut files, &mut problems);
    for (group_pointer, group) in groups {
        child_files(group, group_pointer, "", &text_of, &mut files, &mut problems);
    }
    for (index, tool) in section.tools.iter().enumerate() {
        match tool.extensions.get(FILE_FIELD).map(|value| serde_json::from_value::<FileMeta>(value.clone())) {
            Some(Ok(FileMeta { path, text: Some(text), executable })) => {
                files.push(SkillFile { path, bytes: text.into_bytes(), executable });
            }
            Some(Err(error)) => {
                problems.push(Problem::at(format!("{pointer}/tools/{index}/{FILE_FIELD}"), error.to_string()));
            }
            _ => left_out.push(format!("the tool {} of the skill {dir} (it has no script)", tool.name)),
        }
    }
    for (index, kept) in kept.into_iter().enumerate() {
        let at = format!("{pointer}/{SKILL_FIELD}/files/{index}");
        let bytes = match (kept.text, kept.base64) {
            (Some(text), None) => text.into_bytes(),
            (None, Some(encoded)) => match base64::engine::general_purpose::STANDARD.decode(encoded) {
                Ok(bytes) => bytes,
                Err(error) => {
                    problems.push(Problem::at(format!("{at}/base64"), format!("not base64: {error}")));
                    continue;
                }
            },
            _ => {
                problems.push(Problem::at(at, "a kept file has either its text or its base64"));
                continue;
            }
        };
        files.push(SkillFile { path: kept.path, bytes, executable: kept.executable });
    }
    let mut paths = HashSet::new();
    for file in &files {
        if !file.path.split('/').all(is_safe_component) {
            problems.push(Problem::at(pointer, format!("{:?} is not a path inside the skill's folder", file.path)));
        } else if !paths.insert(file.path.as_str()) {
            problems.push(Problem::at(pointer, format!("two files of the skill are written to {}", file.path)));
        }
    }
    if problems.is_empty() {
        Ok(SkillFolder { dir, files })
    } else {
        Err(problems)
    }
}

/// The files of `section`'s children (their own `x-skill-file` path, else `KEY.md` under
/// `prefix`), and theirs in turn.
fn child_files(
    section: &Section,
    pointer: &str,
    prefix: &str,
    text_of: &dyn Fn(&str, String, &mut Vec<Problem>) -> String,
    files: &mut Vec<SkillFile>,
    problems: &mut Vec<Problem>,
) {
    for (index, child) in section.children.iter().enumerate() {
        let pointer = format!("{pointer}/children/{index}");
        let meta = match child.extensions.get(FILE_FIELD).map(|value| serde_json::from_value::<FileMeta>(value.clone()))
        {
            None => None,
            Some(Ok(meta)) => Some(meta),
            Some(Err(error)) => {
                problems.push(Problem::at(format!("{pointer}/{FILE_FIELD}"), error.to_string()));
                continue;
            }
        };
        let (path, executable) =
            meta.map_or_else(|| (format!("{prefix}{}.md", child.key), false), |m| (m.path, m.executable));
        let text = text_of(&child.template, format!("{pointer}/template"), problems);
        files.push(SkillFile { path, bytes: text.into_bytes(), executable });
        child_files(child, &pointer, &format!("{prefix}{}/", child.key), text_of, files, problems);
    }
}

/// The front matter to write: `kept` when its description is `description` (trailing white
/// space aside), else `kept` with `description` in place of its own.
fn front_matter_now(kept: &str, description: &str) -> Result<String, String> {
    let FrontMatter { description: was, .. } = front_matter::parse(kept).map_err(|problem| problem.message)?;
    if was.trim_end() == description.trim_end() {
        return Ok(kept.to_owned());
    }
    front_matter::with_description(kept, description.trim_end()).ok_or_else(|| {
        "the description cannot be changed in place in this front matter: write `description:` on a line of its own"
            .to_owned()
    })
}

/// A name that stays inside its folder: not empty, `.` or `..`, and no separator.
fn is_safe_component(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\', ':', '\0'])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_tool_names_are_what_a_template_allows() {
        assert_eq!(section_key("PDF Tools!").as_deref(), Some("pdf-tools"));
        assert_eq!(section_key("examples/3p-updates.md").as_deref(), Some("examples-3p-updates-md"));
        assert_eq!(section_key("✓"), None);
        let mut taken = HashSet::from(["read_section".to_owned()]);
        assert_eq!(tool_name("with_server", "web", &mut taken), "with_server");
        assert_eq!(tool_name("with_server", "web", &mut taken), "web_with_server");
        assert_eq!(tool_name("read_section", "web", &mut taken), "web_read_section");
        assert_eq!(tool_name("a b.c", "web", &mut taken), "a_b_c");
    }

    #[test]
    fn a_body_names_a_file_by_its_path_or_its_unique_name() {
        let files = |paths: &[&str]| -> Vec<SkillFile> {
            paths.iter().map(|p| SkillFile { path: (*p).into(), bytes: Vec::new(), executable: false }).collect()
        };
        let all = files(&["reference/forms.md", "examples/a.py", "x/a.md", "y/a.md"]);
        assert!(names("See [forms](./reference/forms.md).", "reference/forms.md", &all));
        assert!(names("Run `a.py` first.", "examples/a.py", &all));
        assert!(!names("Run `data.py` first.", "examples/a.py", &all));
        assert!(!names("Read a.md.", "x/a.md", &all), "two files are called a.md");
        assert!(!names("Nothing here.", "reference/forms.md", &all));
    }

    #[test]
    fn a_scripts_leading_comment_describes_its_tool() {
        assert_eq!(
            script_doc("#!/usr/bin/env python3\n\"\"\"\nStart servers.\n\nUsage: x\n\"\"\"\n").as_deref(),
            Some("Start servers.")
        );
        assert_eq!(script_doc("\"\"\"One line.\"\"\"\nimport os\n").as_deref(), Some("One line."));
        assert_eq!(
            script_doc("#!/bin/bash\n# Bundles the app\n# into one file.\n\nset -e\n").as_deref(),
            Some("Bundles the app into one file.")
        );
        assert_eq!(script_doc("import os\n"), None);
        assert!(is_script("scripts/fill.py") && is_script("scripts/sub/run.sh"));
        assert!(
            !is_script("scripts/requirements.txt") && !is_script("scripts/__init__.py") && !is_script("examples/a.py")
        );
    }
}
