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
    /// No problems: a placeholder while the problems are found again.
    pub fn none() -> ReloadProblems {
        ReloadProblems(Checked::RoundTrip(Vec::new()))
    }

    /// Checks all of `template`.
    pub fn of(template: &Template) -> ReloadProblems {
        if template.passes_document_checks() {
            let TemplateChecker { problems, text_problems, cut_short, .. } = template.checked();
            return ReloadProblems(Checked::Semantic { all: problems, texts: (!cut_short).then_some(text_problems) });
        }
        let reread = Template::from_json(template.to_json().as_bytes());
        ReloadProblems(Checked::RoundTrip(reread.err().map(|error| error.problems().to_vec()).unwrap_or_default()))
    }

    /// The problems of `template`, which is the template these are the problems of with only the
    /// text fields (title, template, summary, visibility) of its section at `path` changed.
    pub fn after_text_edit(self, template: &Template, path: &str) -> ReloadProblems {
        let ReloadProblems(Checked::Semantic { mut all, texts: Some(mut texts) }) = self else {
            return ReloadProblems::of(template);
        };
        // The schema's rules beyond the types do not look at text fields; the size does.
        let place = place_of(template, path).filter(|(index, _)| *index < texts.len());
        let (Some((index, pointer)), true) = (place, template.fits_saved_size()) else {
            return ReloadProblems::of(template);
        };
        let Some(section) = template.section(path) else {
            return ReloadProblems::of(template);
        };
        let mut checker = TemplateChecker::default();
        checker.texts(section, &pointer);
        let old = texts[index].clone();
        let added = checker.problems.len();
        all.splice(old.clone(), checker.problems);
        texts[index] = old.start..old.start + added;
        for later in &mut texts[index + 1..] {
            *later = later.start - old.len() + added..later.end - old.len() + added;
        }
        ReloadProblems(Checked::Semantic { all, texts: Some(texts) })
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

/// The section at `path` (found as [`Template::section`] finds it): its index in the walk's order
/// and its JSON pointer.
fn place_of(template: &Template, path: &str) -> Option<(usize, String)> {
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
            return Some((index, pointer));
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
