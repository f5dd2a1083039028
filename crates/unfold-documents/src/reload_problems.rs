//! [`ReloadProblems`]: the problems opening a template's saved text would report, kept with where
//! each section's text problems are, so that after an edit of one section's text fields only that
//! section is checked again. The editor lists the problems after every keystroke, and checking all
//! of a 5,000-section template took about 1 ms of each.

use std::fmt::Write;
use std::ops::Range;

use crate::error::{Error, Problem};
use crate::template::{Section, Template, TemplateChecker};

/// The problems opening a template's saved text would report: exactly those of
/// `Template::from_json(template.to_json().as_bytes())`, same places, messages and order. The
/// text round trip is skipped when the template holds nothing the checks before the semantic ones
/// could refuse (`Template::passes_document_checks`): then only the semantic checks run, on the
/// template as it is, which is what reading the text back would give.
#[derive(Debug, Clone)]
pub struct ReloadProblems(Checked);

#[derive(Debug, Clone)]
enum Checked {
    /// The template passed the checks before the semantic ones: `all` are the semantic checks'
    /// problems, none left out, and `texts` where each section's text problems are among them,
    /// sections in the walk's order (none when the walk stopped at the depth limit).
    Semantic { all: Vec<Problem>, texts: Option<Vec<Range<usize>>> },
    /// The problems of reading the saved text back, as listed.
    RoundTrip(Vec<Problem>),
}

impl ReloadProblems {
    /// Checks all of `template`.
    pub fn of(template: &Template) -> ReloadProblems {
        if template.passes_document_checks() {
            let TemplateChecker { problems, text_problems, cut_short, .. } = template.checked();
            return ReloadProblems(Checked::Semantic { all: problems, texts: text_problems.filter(|_| !cut_short) });
        }
        let reread = Template::from_json(template.to_json().as_bytes());
        ReloadProblems(Checked::RoundTrip(reread.err().map(|error| error.problems().to_vec()).unwrap_or_default()))
    }

    /// Finds the problems again after `template`, the template these are the problems of, had only
    /// the text fields (title, template, summary, visibility) of its section at `path` changed.
    pub fn after_text_edit(&mut self, template: &Template, path: &str) {
        // The schema's rules beyond the types do not look at text fields; the size does.
        let place = place_of(template, path).filter(|_| template.fits_saved_size());
        match (&mut self.0, place) {
            (Checked::Semantic { all, texts: Some(texts) }, Some((index, pointer, section))) if index < texts.len() => {
                let mut checker = TemplateChecker::default();
                checker.texts(section, &pointer);
                let old = texts[index].clone();
                let added = checker.problems.len();
                all.splice(old.clone(), checker.problems);
                texts[index] = old.start..old.start + added;
                for later in &mut texts[index + 1..] {
                    *later = later.start - old.len() + added..later.end - old.len() + added;
                }
            }
            _ => *self = ReloadProblems::of(template),
        }
    }

    /// The problems as listed (past the first hundred, how many more).
    pub fn problems(&self) -> Vec<Problem> {
        match &self.0 {
            Checked::Semantic { all, .. } if all.is_empty() => Vec::new(),
            Checked::Semantic { all, .. } => Error::invalid(all.clone()).problems().to_vec(),
            Checked::RoundTrip(listed) => listed.clone(),
        }
    }
}

/// The section at `path` (found as [`Template::section`] finds it) with its index in the walk's
/// order and its JSON pointer.
fn place_of<'t>(template: &'t Template, path: &str) -> Option<(usize, String, &'t Section)> {
    let mut index = 0;
    let mut pointer = String::from("/sections");
    let mut siblings = template.sections.as_slice();
    let mut keys = path.split('.').peekable();
    loop {
        let key = keys.next()?;
        let at = siblings.iter().position(|section| section.key == key)?;
        index += siblings[..at].iter().map(walked).sum::<usize>();
        let _ = write!(pointer, "/{at}");
        if keys.peek().is_none() {
            return Some((index, pointer, &siblings[at]));
        }
        index += 1;
        pointer.push_str("/children");
        siblings = &siblings[at].children;
    }
}

/// How many sections the walk visits in `section`, itself included.
fn walked(section: &Section) -> usize {
    1 + section.children.iter().map(walked).sum::<usize>()
}
