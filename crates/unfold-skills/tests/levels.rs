//! The template of skills renders as a skills host shows them, each level on its own: level 1,
//! every skill's name and description in the system prompt; level 2, a skill's body (and its
//! scripts as tools) when it is read, and no file; level 3, one file it names when that is read,
//! and neither the skill's body nor another file.

use insta::assert_snapshot;
use unfold_engine::session::{ReadOutcome, Session};

use crate::{fixtures, import};

/// The text of a fixture's file.
fn fixture(path: &str) -> String {
    std::fs::read_to_string(fixtures().join(path)).unwrap()
}

/// A line of the file at `path` that only that file has, to find its text by.
fn text_of(path: &str) -> String {
    fixture(path).lines().find(|line| line.len() > 40).unwrap().to_owned()
}

const COMMS_FILES: [&str; 4] = [
    "internal-comms/examples/3p-updates.md",
    "internal-comms/examples/company-newsletter.md",
    "internal-comms/examples/faq-answers.md",
    "internal-comms/examples/general-comms.md",
];

#[test]
fn level_1_the_system_prompt_holds_names_and_descriptions_only() {
    let template = import(&fixtures());
    let session = Session::new(&template, Default::default()).unwrap();
    let prompt = session.render().unwrap();
    assert_snapshot!(prompt.markdown);
    let tools: Vec<&str> = prompt.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(tools, ["read_section"], "no skill's scripts before it is read");
}

#[test]
fn level_2_reading_a_skill_shows_its_body_and_offers_its_scripts_and_no_file() {
    let template = import(&fixtures());
    let mut session = Session::new(&template, Default::default()).unwrap();
    let ReadOutcome::Expand(read) = session.read_section("brand-guidelines") else { panic!("not expanded") };
    let skill_md = fixture("brand-guidelines/SKILL.md");
    let body = skill_md.splitn(3, "---\n").nth(2).unwrap();
    assert_eq!(read.content, format!("## 1 brand-guidelines\n\n{}\n", body.trim()));
    let ReadOutcome::Expand(read) = session.read_section("webapp-testing") else { panic!("not expanded") };
    assert_eq!(read.expanded_tools, ["with_server"]);
    assert_eq!(read.section_keys, ["webapp-testing"]);

    let ReadOutcome::Expand(read) = session.read_section("internal-comms") else { panic!("not expanded") };
    assert_eq!(read.section_keys, ["internal-comms"], "the skill alone");
    let skill_md = fixture("internal-comms/SKILL.md");
    let body = skill_md.splitn(3, "---\n").nth(2).unwrap();
    assert_eq!(read.content, format!("## 2 internal-comms\n\n{}\n", body.trim()));
    session.apply_visibility(&read.overrides);
    let prompt = session.render().unwrap().markdown;
    assert!(prompt.contains("## 2 internal-comms\n\n## When to use this skill"), "the body is in the prompt now");
    for path in COMMS_FILES {
        assert!(!prompt.contains(&text_of(path)), "{path} is not read with the skill: {prompt}");
    }
    assert!(
        prompt.contains("## 3 internal-comms files\n\nThe files of the internal-comms skill, each read on its own.\n\n---\n[This section is summarized. Call `read_section` with key \"internal-comms-files\" to view full content including subsections: examples-3p-updates-md,"),
        "its files stay summarized, named by their keys: {prompt}"
    );
}

#[test]
fn level_3_reading_a_file_shows_that_file_alone() {
    let template = import(&fixtures());
    let mut session = Session::new(&template, Default::default()).unwrap();
    let key = "internal-comms-files.examples-3p-updates-md";
    let ReadOutcome::Expand(read) = session.read_section(key) else { panic!("not expanded") };
    let file = fixture(COMMS_FILES[0]);
    assert_eq!(read.content, format!("### 3.1 examples/3p-updates.md\n\n{}\n", file.trim()));
    assert_eq!(read.section_keys, ["internal-comms-files", key]);
    assert!(read.expanded_tools.is_empty());
    session.apply_visibility(&read.overrides);
    let prompt = session.render().unwrap().markdown;
    assert!(prompt.contains(&text_of(COMMS_FILES[0])), "the file is in the prompt now");
    // What comes into the prompt with it: its group's one line, and the other files' summaries.
    assert!(
        prompt.contains("## 3 internal-comms files\n\nThe files of the internal-comms skill: read each by its key.\n\n### 3.1 examples/3p-updates.md\n\n"),
        "{prompt}"
    );
    assert!(
        prompt.contains(
            "### 3.2 examples/company-newsletter.md\n\nThe file examples/company-newsletter.md (Instructions)\n\n---\n"
        ),
        "the other files stay summarized: {prompt}"
    );
    for path in &COMMS_FILES[1..] {
        assert!(!prompt.contains(&text_of(path)), "{path} is not read with it: {prompt}");
    }
    assert!(!prompt.contains("## When to use this skill"), "nor the skill's body: {prompt}");
    assert!(
        prompt.contains(
            "[This section is summarized. To view full content, call `read_section` with key \"internal-comms\".]"
        ),
        "the skill stays summarized"
    );
    // Reading the skill then brings its body, and no other file.
    let ReadOutcome::Expand(read) = session.read_section("internal-comms") else { panic!("not expanded") };
    assert_eq!(read.section_keys, ["internal-comms"]);
    session.apply_visibility(&read.overrides);
    let prompt = session.render().unwrap().markdown;
    for path in &COMMS_FILES[1..] {
        assert!(!prompt.contains(&text_of(path)), "{path} is not read with the skill: {prompt}");
    }
}
