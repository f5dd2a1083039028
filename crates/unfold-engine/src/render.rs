//! Rendering a template in a session state: the markdown the model reads (spec 2) and the tools it
//! is offered, in spec order, as OpenAI chat tool objects.

use crate::session_state::SessionState;
use unfold_documents::error::{Error, Result};
use unfold_documents::substitution::{self, SubstitutionError};
use unfold_documents::template::{Disclosure, HeadingStyle, Section, Template, ToolDisclosure, Visibility};
use unfold_documents::tool::{Builtin, OfferedTool, Tool};

/// A rendered prompt: what one model request is made of, before the conversation.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderedPrompt {
    /// The system prompt.
    pub markdown: String,
    /// The tools offered, in spec order.
    pub tools: Vec<OfferedTool>,
    /// The sections rendered summarized, in document order, with the builtin their line names.
    pub summarized: Vec<SummarizedSection>,
}

/// A section the prompt shows summarized.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SummarizedSection {
    /// Its dotted path, as the prompt names it.
    pub path: String,
    /// The builtin the prompt tells the model to call for it.
    pub builtin: Builtin,
}

impl RenderedPrompt {
    /// The names of the offered tools, in order.
    pub fn tool_names(&self) -> Vec<String> {
        self.tools.iter().map(|t| t.name.clone()).collect()
    }
}

/// Renders the whole prompt of `template` in `state`.
pub fn render(template: &Template, state: &SessionState) -> Result<RenderedPrompt> {
    let mut renderer = Renderer::new(template, state);
    renderer.out.reserve(estimated_len(&template.sections));
    renderer.sections(&template.sections, 1)?;
    if !renderer.out.is_empty() {
        renderer.out.push('\n');
    }
    let tools = offered_tools(template, state, &renderer.full_tools, &renderer.summarized);
    Ok(RenderedPrompt { markdown: renderer.out, tools, summarized: renderer.summarized })
}

/// About the length of the prompt of `sections` shown in full: their titles, bodies and summaries,
/// and a heading's and a summary line's worth each. The prompt is reserved at once, so that it is
/// written without growing: each doubling of a long prompt copied it into memory touched afresh,
/// a third of rendering 10,000 sections. Parameter values may make it longer, a summarized
/// subtree shorter; only what is written is ever touched.
fn estimated_len(sections: &[Section]) -> usize {
    const PER_SECTION: usize = 64;
    let own = |s: &Section| s.title.len() + s.template.len() + s.summary.as_ref().map_or(0, String::len);
    sections.iter().map(|s| own(s) + PER_SECTION + estimated_len(&s.children)).sum()
}

/// Renders one section (heading, body, visible subsections) as it stands in the whole prompt,
/// numbered as there; `None` if no section has that path.
pub fn render_section(template: &Template, state: &SessionState, path: &str) -> Option<Result<String>> {
    let mut renderer = Renderer::new(template, state);
    let mut siblings = &template.sections;
    let mut found = None;
    for (depth, key) in path.split('.').enumerate() {
        let (index, section) = siblings.iter().enumerate().find(|(_, s)| s.key == key)?;
        renderer.enter(index, section, depth + 1);
        siblings = &section.children;
        found = Some((section, depth + 1));
    }
    let (section, depth) = found?;
    Some(renderer.section(section, depth).map(|()| {
        renderer.out.push('\n');
        renderer.out
    }))
}

/// One section's own part of the prompt, each way it can be shown: what the editor prices per
/// section. Its subsections are parts of their own.
#[derive(Debug, Clone, PartialEq)]
pub struct SectionText {
    /// Its dotted path.
    pub path: String,
    /// Its heading and body as rendered in full (without its subsections).
    pub full: String,
    /// Its heading, summary and the line naming the disclosure tool, as rendered summarized;
    /// `None` when it has no summary.
    pub summary: Option<String>,
    /// Its own tools, as offered when it is shown in full.
    pub tools: Vec<OfferedTool>,
}

/// Every section's own text, in document order, rendered in `state` and numbered as in the
/// whole prompt.
pub fn section_texts(template: &Template, state: &SessionState) -> Result<Vec<SectionText>> {
    let mut renderer = Renderer::new(template, state);
    let mut texts = Vec::new();
    renderer.texts(&template.sections, 1, &mut texts)?;
    Ok(texts)
}

struct Renderer<'t, 's> {
    template: &'t Template,
    state: &'s SessionState,
    out: String,
    /// The number of the current section (`2.1`).
    number: String,
    /// The dotted path of the current section (`context.examples`).
    path: String,
    /// Sibling indices down to the current section, for error pointers.
    indices: Vec<usize>,
    full_tools: Vec<&'t Tool>,
    summarized: Vec<SummarizedSection>,
}

impl<'t, 's> Renderer<'t, 's> {
    fn new(template: &'t Template, state: &'s SessionState) -> Self {
        Renderer {
            template,
            state,
            out: String::new(),
            number: String::new(),
            path: String::new(),
            indices: Vec::new(),
            full_tools: Vec::new(),
            summarized: Vec::new(),
        }
    }

    fn sections(&mut self, sections: &'t [Section], depth: usize) -> Result<()> {
        for (index, section) in sections.iter().enumerate() {
            self.enter(index, section, depth);
            let rendered = self.section(section, depth);
            self.leave();
            rendered?;
        }
        Ok(())
    }

    fn enter(&mut self, index: usize, section: &Section, depth: usize) {
        use std::fmt::Write;
        if depth > 1 {
            self.number.push('.');
            self.path.push('.');
        }
        let _ = write!(self.number, "{}", index + 1);
        self.path.push_str(&section.key);
        self.indices.push(index);
    }

    fn leave(&mut self) {
        let cut = |s: &mut String| s.truncate(s.rfind('.').unwrap_or(0));
        cut(&mut self.number);
        cut(&mut self.path);
        self.indices.pop();
    }

    /// Renders each of `sections` and their subsections alone, both ways, into `texts`.
    fn texts(&mut self, sections: &'t [Section], depth: usize, texts: &mut Vec<SectionText>) -> Result<()> {
        let pick_mode = self.template.tool_disclosure == ToolDisclosure::PickTools;
        for (index, section) in sections.iter().enumerate() {
            self.enter(index, section, depth);
            let text = self.section_text(section, depth, pick_mode);
            let children = text.and_then(|text| {
                texts.push(text);
                self.texts(&section.children, depth + 1, texts)
            });
            self.leave();
            children?;
        }
        Ok(())
    }

    /// The current section's own text (entered already), in full and summarized.
    fn section_text(&mut self, section: &Section, depth: usize, pick_mode: bool) -> Result<SectionText> {
        self.out.clear();
        self.heading(section, depth);
        self.body(&section.template, "template")?;
        let full = std::mem::take(&mut self.out);
        let summary = match &section.summary {
            Some(summary) => {
                self.heading(section, depth);
                self.body(summary, "summary")?;
                self.summary_suffix(section);
                self.summarized.pop();
                Some(std::mem::take(&mut self.out))
            }
            None => None,
        };
        let tools = section.tools.iter().map(|tool| self.state.offer(tool, pick_mode)).collect();
        Ok(SectionText { path: self.path.clone(), full, summary, tools })
    }

    /// Renders the current section (entered already) and, when full, its subsections.
    fn section(&mut self, section: &'t Section, depth: usize) -> Result<()> {
        if !self.out.is_empty() {
            self.out.push_str("\n\n");
        }
        self.heading(section, depth);
        let visibility = self.state.visibility.effective(&self.path, section.visibility);
        match (visibility, &section.summary) {
            (Visibility::Summary, Some(summary)) => {
                self.body(summary, "summary")?;
                self.summary_suffix(section);
                Ok(())
            }
            // Validation refuses a summarized section without a summary; should one reach here
            // anyway, it is shown in full rather than with nothing.
            _ => {
                self.body(&section.template, "template")?;
                self.full_tools.extend(&section.tools);
                self.sections(&section.children, depth + 1)
            }
        }
    }

    fn heading(&mut self, section: &Section, depth: usize) {
        for _ in 0..=depth {
            self.out.push('#');
        }
        self.out.push(' ');
        self.out.push_str(&self.number);
        match self.template.heading {
            HeadingStyle::Plain => {
                self.out.push(' ');
                self.out.push_str(section.title.trim_matches(is_python_space));
            }
            HeadingStyle::Keyed => {
                self.out.push_str(". ");
                self.out.push_str(section.title.trim_matches(is_python_space));
                self.out.push_str(" (");
                self.out.push_str(&self.path);
                self.out.push(')');
            }
        }
    }

    /// Appends `"\n\n"` and the body the way weakincentives 0.27 builds it: the text dedented
    /// and stripped, substituted, stripped again; an empty body leaves the heading alone.
    fn body(&mut self, text: &str, field: &str) -> Result<()> {
        let (template, state) = (self.template, self.state);
        let lookup = |name: &str| state.param(template, name);
        let start = self.out.len();
        self.out.push_str("\n\n");
        let body_start = self.out.len();
        let text = dedent(text);
        substitution::substitute_into(text.trim_matches(is_python_space), lookup, &mut self.out)
            .map_err(|e| self.error(e, field))?;
        let leading = self.out.len() - body_start - self.out[body_start..].trim_start_matches(is_python_space).len();
        self.out.drain(body_start..body_start + leading);
        let trimmed = self.out.trim_end_matches(is_python_space).len().max(start);
        self.out.truncate(trimmed);
        Ok(())
    }

    fn error(&self, error: SubstitutionError, field: &str) -> Error {
        let pointer: String = self
            .indices
            .iter()
            .enumerate()
            .map(|(depth, i)| format!("/{}/{i}", if depth == 0 { "sections" } else { "children" }))
            .collect();
        Error::problem(format!("{pointer}/{field}"), format!("{error} (section '{}')", self.path))
    }

    fn summary_suffix(&mut self, section: &Section) {
        let builtin = match self.template.disclosure {
            Disclosure::ReadSection => Builtin::ReadSection,
            Disclosure::OpenSections => Builtin::OpenSections,
            Disclosure::Mixed if subtree_has_tools(section) => Builtin::OpenSections,
            Disclosure::Mixed => Builtin::ReadSection,
        };
        let tool = builtin.name();
        let path = &self.path;
        self.out.push_str("\n\n---\n");
        if section.children.is_empty() {
            self.out.push_str(&format!(
                "[This section is summarized. To view full content, call `{tool}` with key \"{path}\".]"
            ));
        } else {
            let keys: Vec<&str> = section.children.iter().map(|c| c.key.as_str()).collect();
            self.out.push_str(&format!(
                "[This section is summarized. Call `{tool}` with key \"{path}\" to view full content including subsections: {}.]",
                keys.join(", ")
            ));
        }
        self.summarized.push(SummarizedSection { path: path.clone(), builtin });
    }
}

/// Python's `str.isspace`, which `str.strip` uses: Unicode white space and the separators
/// U+001C to U+001F, which Rust does not count as white space.
fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `textwrap.dedent`: whitespace-only lines become empty and the longest run of spaces
/// and tabs that starts every other line is removed. Borrowed when nothing changes, the usual case.
fn dedent(text: &str) -> std::borrow::Cow<'_, str> {
    let indented = |line: &str| line.starts_with([' ', '\t']);
    if !indented(text) && !text.contains("\n ") && !text.contains("\n\t") {
        return std::borrow::Cow::Borrowed(text);
    }
    let blank = |line: &str| line.trim_matches([' ', '\t']).is_empty();
    let margin = text
        .split('\n')
        .filter(|line| !blank(line))
        .map(|line| &line[..line.len() - line.trim_start_matches([' ', '\t']).len()])
        .reduce(|common, indent| {
            let shared = common.bytes().zip(indent.bytes()).take_while(|(a, b)| a == b).count();
            &common[..shared]
        })
        .unwrap_or("");
    let lines: Vec<&str> = text.split('\n').map(|line| if blank(line) { "" } else { &line[margin.len()..] }).collect();
    std::borrow::Cow::Owned(lines.join("\n"))
}

fn subtree_has_tools(section: &Section) -> bool {
    !section.tools.is_empty() || section.children.iter().any(subtree_has_tools)
}

/// The tools offered with a prompt, in spec order: the template's, those of every section rendered
/// in full (document order), those a plugin added, then the builtins the prompt needs.
fn offered_tools(
    template: &Template,
    state: &SessionState,
    full_tools: &[&Tool],
    summarized: &[SummarizedSection],
) -> Vec<OfferedTool> {
    let pick_mode = template.tool_disclosure == ToolDisclosure::PickTools;
    // A plugin may add a tool of a name the template has: it is offered once, where it comes first.
    let mut names = std::collections::HashSet::new();
    let mut tools: Vec<OfferedTool> = template
        .tools
        .iter()
        .chain(full_tools.iter().copied())
        .chain(&state.added_tools)
        .filter(|tool| !state.removed_tools.contains(&tool.name) && names.insert(tool.name.as_str()))
        .map(|tool| state.offer(tool, pick_mode))
        .collect();
    let needs = |builtin: Builtin| summarized.iter().any(|s| s.builtin == builtin);
    for builtin in [Builtin::OpenSections, Builtin::ReadSection] {
        if needs(builtin) {
            tools.push(builtin.offered());
        }
    }
    with_pick_tools(tools, state, pick_mode)
}

/// `tools` with `pick_tools` last as `state` offers it: in `pick_tools` mode, while a tool of the
/// list is not picked, its parameter lists those names as an enum; once every one is, it is not
/// offered (km_tools' rule).
pub(crate) fn with_pick_tools(mut tools: Vec<OfferedTool>, state: &SessionState, pick_mode: bool) -> Vec<OfferedTool> {
    tools.retain(|tool| tool.name != Builtin::PickTools.name());
    let unpicked: Vec<&str> = tools
        .iter()
        .filter(|tool| Builtin::from_name(&tool.name).is_none() && !state.picked_tools.contains(&tool.name))
        .map(|tool| tool.name.as_str())
        .collect();
    if pick_mode && !unpicked.is_empty() {
        let mut pick_tools = Builtin::PickTools.offered();
        pick_tools.parameters["properties"]["tools"]["items"]["enum"] = serde_json::json!(unpicked);
        tools.push(pick_tools);
    }
    tools
}
