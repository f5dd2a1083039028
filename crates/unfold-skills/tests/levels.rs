//! The template of skills renders as a skills host shows them: level 1, every skill's name and
//! description in the system prompt; level 2, a skill's body when it is read; level 3, a file it
//! names when that is read.

use insta::assert_snapshot;
use unfold_engine::session::{ReadOutcome, Session};

use crate::{fixtures, import};

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
fn level_2_reading_a_skill_shows_its_body_and_offers_its_scripts() {
    let template = import(&fixtures());
    let session = Session::new(&template, Default::default()).unwrap();
    let ReadOutcome::Expand(read) = session.read_section("brand-guidelines") else { panic!("not expanded") };
    let skill_md = std::fs::read_to_string(fixtures().join("brand-guidelines/SKILL.md")).unwrap();
    let body = skill_md.splitn(3, "---\n").nth(2).unwrap();
    assert_eq!(read.content, format!("## 1 brand-guidelines\n\n{}\n", body.trim()));
    let ReadOutcome::Expand(read) = session.read_section("webapp-testing") else { panic!("not expanded") };
    assert_eq!(read.expanded_tools, ["with_server"]);
}

#[test]
fn level_3_reading_a_file_shows_it_under_its_skill_and_no_other_file() {
    let template = import(&fixtures());
    let mut session = Session::new(&template, Default::default()).unwrap();
    let ReadOutcome::Expand(read) = session.read_section("internal-comms.examples-3p-updates-md") else {
        panic!("not expanded")
    };
    let file = std::fs::read_to_string(fixtures().join("internal-comms/examples/3p-updates.md")).unwrap();
    assert_eq!(read.content, format!("### 2.1 examples/3p-updates.md\n\n{}\n", file.trim()));
    assert_eq!(read.section_keys, ["internal-comms", "internal-comms.examples-3p-updates-md"]);
    session.apply_visibility(&read.overrides);
    let prompt = session.render().unwrap().markdown;
    assert!(
        prompt.contains("## 2 internal-comms\n\n## When to use this skill"),
        "the skill's body is in the prompt now"
    );
    assert!(
        prompt.contains(
            "### 2.2 examples/company-newsletter.md\n\nThe file examples/company-newsletter.md (Instructions)\n\n---\n"
        ),
        "the other files stay summarized: {prompt}"
    );
}
