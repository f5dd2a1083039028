//! Skills' folders as a user has them: read into templates, rendered as a skills host shows them,
//! and written back byte for byte.

mod errors;
mod levels;
mod round_trip;

use std::path::{Path, PathBuf};

use unfold_documents::Template;
use unfold_skills::conversion::template_of;
use unfold_skills::folder::read_skills;

/// The skills of public collections, copied as they are (`tests/fixtures/skills/README.md`).
pub fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/skills/anthropic")
}

/// The template of the skills in `dir`, as saved and read back.
pub fn import(dir: &Path) -> Template {
    let read = read_skills(dir).unwrap();
    let template = template_of(dir, "skills", &read.skills).unwrap_or_else(|errors| panic!("{errors:?}"));
    Template::from_json(template.to_json().as_bytes()).unwrap()
}
