//! The economics of disclosure, as the editor shows them: what the model is shown first against
//! every section in full ("1,236 of 18,854 tokens"), what the disclosure tools' definitions add
//! (summarizing a short section can make the prompt longer: the `read_section` definition is
//! sent with it), and what reading each section summarized at first would add to the prompt.
//! Worked out on a copy of the template, away from the open documents' lock: a section's cost is
//! a render with that one section read.

use serde::Serialize;
use unfold_documents::discovery::Discovery;
use unfold_documents::error::{Error, Result};
use unfold_documents::template::Template;
use unfold_documents::tool::Builtin;
use unfold_engine::render::section_texts;
use unfold_engine::tokens::{self, PromptTokenCache};
use unfold_engine::{RenderedPrompt, Session};

/// How many sections summarized at first are priced one by one; past them a template is large
/// enough that the figures would keep the editor waiting (each is a render of the whole prompt).
pub const PRICED_SECTIONS: usize = 64;

/// The economics of a template's disclosure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct DisclosureEconomics {
    /// Prompt tokens (text and tool definitions) of what the model is shown first.
    pub first_tokens: u32,
    /// Prompt tokens with every section in full and every tool offered.
    pub all_full_tokens: u32,
    /// The disclosure tools offered first (`read_section`, …) and the tokens their definitions add.
    pub disclosure_tools: Vec<ToolCost>,
    /// Each section summarized at first, in document order (at most [`PRICED_SECTIONS`]).
    pub sections: Vec<SectionCost>,
    /// Sections summarized at first that were not priced.
    pub sections_left_out: u32,
    /// Every section's own size each way it can be shown, in document order.
    pub section_sizes: Vec<SectionSize>,
}

/// One section's own share of the prompt (its subsections have theirs), in tokens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SectionSize {
    /// Its dotted path.
    pub path: String,
    /// Its heading and body, shown in full.
    pub full_tokens: u32,
    /// Its heading, summary and the line that names the disclosure tool, shown summarized; null
    /// when it has no summary.
    pub summary_tokens: Option<u32>,
    /// Its own tools' definitions, offered while it is shown in full.
    pub tool_tokens: u32,
}

/// A tool and the tokens its definition adds to the prompt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ToolCost {
    /// The tool.
    pub name: String,
    /// The tokens its definition adds.
    pub tokens: u32,
}

/// What reading one summarized section adds to the prompt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SectionCost {
    /// Its dotted path.
    pub path: String,
    /// Prompt tokens it adds once read (its text, its subsections' summaries, its tools), less
    /// its summary's.
    pub read_tokens: i32,
    /// Tools it brings when read.
    pub tools: u32,
}

/// What the model is shown of `template` with the sections at `read` read (as `read_section`
/// would), its sources' tools as last `listed` live, else their snapshots: the editor's preview
/// and these figures alike.
pub fn rendered<S: AsRef<str>>(template: &Template, listed: &[Discovery], read: &[S]) -> Result<RenderedPrompt> {
    let template = template.listed_view(listed);
    let mut session = Session::new(&template, Default::default())?;
    for path in read.iter().map(AsRef::as_ref) {
        session.expand(path).map_err(|message| Error::argument(format!("expand {path}"), message))?;
    }
    session.render()
}

/// [`rendered`] with every section read: what the model is shown with everything in full.
pub fn rendered_in_full(template: &Template, listed: &[Discovery]) -> Result<RenderedPrompt> {
    let template = template.listed_view(listed);
    let mut session = Session::new(&template, Default::default())?;
    session.expand_all();
    session.render()
}

/// Every section's own size in `template` as first shown (its parameters' defaults).
fn section_sizes(template: &Template, listed: &[Discovery]) -> Result<Vec<SectionSize>> {
    let template = template.listed_view(listed);
    let session = Session::new(&template, Default::default())?;
    let texts = section_texts(&template, session.state())?;
    Ok(texts
        .into_iter()
        .map(|text| SectionSize {
            full_tokens: saturate(tokens::count_text(&text.full)),
            summary_tokens: text.summary.as_deref().map(|summary| saturate(tokens::count_text(summary))),
            tool_tokens: saturate(tokens::count_tools(&text.tools)),
            path: text.path,
        })
        .collect())
}

/// Prompt tokens of `prompt`, counted by what it changed from the prompt `counts` last counted.
fn prompt_tokens(counts: &PromptTokenCache, prompt: &RenderedPrompt) -> u64 {
    counts.count(&prompt.markdown, &prompt.tools).total()
}

fn saturate(value: u64) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// The economics of `template`'s disclosure, its sources' tools as last `listed` live, else their
/// snapshots.
pub fn disclosure_economics(template: &Template, listed: &[Discovery]) -> Result<DisclosureEconomics> {
    let first = rendered::<&str>(template, listed, &[])?;
    // Each section read changes the first prompt in a place or two: counted from the first
    // prompt's counts, only those places are tokenized again (each prompt of a 5,000-section
    // template is 0.6 MB).
    let first_counts = PromptTokenCache::default();
    let first_tokens = prompt_tokens(&first_counts, &first);
    let all_full = rendered_in_full(template, listed)?;
    let tools_tokens = tokens::count_tools(&first.tools);
    let disclosure_tools = first
        .tools
        .iter()
        .filter(|tool| Builtin::from_name(&tool.name).is_some())
        .map(|tool| {
            let others: Vec<_> = first.tools.iter().filter(|other| other.name != tool.name).cloned().collect();
            ToolCost {
                name: tool.name.clone(),
                tokens: saturate(tools_tokens.saturating_sub(tokens::count_tools(&others))),
            }
        })
        .collect();
    let summarized: Vec<&str> = first.summarized.iter().map(|section| section.path.as_str()).collect();
    let sections = summarized
        .iter()
        .take(PRICED_SECTIONS)
        .map(|path| {
            let read = rendered(template, listed, &[path])?;
            let added = i64::try_from(prompt_tokens(&first_counts.clone(), &read)).unwrap_or(i64::MAX)
                - i64::try_from(first_tokens).unwrap_or(i64::MAX);
            let tools = read.tools.iter().filter(|tool| !first.tools.iter().any(|t| t.name == tool.name)).count();
            Ok(SectionCost {
                path: (*path).to_owned(),
                read_tokens: i32::try_from(added).unwrap_or(i32::MAX),
                tools: saturate(tools as u64),
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(DisclosureEconomics {
        first_tokens: saturate(first_tokens),
        all_full_tokens: saturate(prompt_tokens(&first_counts, &all_full)),
        disclosure_tools,
        sections_left_out: saturate(summarized.len().saturating_sub(PRICED_SECTIONS) as u64),
        sections,
        section_sizes: section_sizes(template, listed)?,
    })
}
