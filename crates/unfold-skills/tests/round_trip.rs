//! A template written back as skills' folders: the same bytes when nothing changed, the new
//! description when it did, and never a user's file lost.

use std::collections::BTreeMap;
use std::path::Path;

use proptest::prelude::*;
use unfold_documents::Template;
use unfold_skills::conversion::{skills_of, template_of, SkillFile, SkillFolder};
use unfold_skills::folder::{read_skills, write_skills, OVERWRITE};

use crate::{fixtures, import};

/// Every file under `dir` by its path: its bytes and whether it is executable.
fn tree(dir: &Path) -> BTreeMap<String, (Vec<u8>, bool)> {
    fn walk(dir: &Path, prefix: &str, files: &mut BTreeMap<String, (Vec<u8>, bool)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
            if entry.file_type().unwrap().is_dir() {
                walk(&entry.path(), &format!("{name}/"), files);
            } else {
                use std::os::unix::fs::PermissionsExt;
                let executable = entry.metadata().unwrap().permissions().mode() & 0o100 != 0;
                files.insert(name, (std::fs::read(entry.path()).unwrap(), executable));
            }
        }
    }
    let mut files = BTreeMap::new();
    walk(dir, "", &mut files);
    files
}

fn export(template: &Template, dir: &Path, overwrite: bool) -> Result<Vec<String>, String> {
    let skills = skills_of(template).map_err(|e| e.to_string())?;
    write_skills(dir, &skills.skills, overwrite).map(|written| written.written).map_err(|e| e.to_string())
}

#[test]
fn every_fixture_is_written_back_byte_for_byte() {
    let template = import(&fixtures());
    let out = tempfile::tempdir().unwrap();
    let written = export(&template, out.path(), false).unwrap();
    let (before, after) = (tree(&fixtures()), tree(out.path()));
    assert_eq!(before.keys().collect::<Vec<_>>(), after.keys().collect::<Vec<_>>());
    for (path, file) in &before {
        assert!(after[path] == *file, "{path} differs");
    }
    assert_eq!(written.len(), before.len());
    // Exported again over itself, nothing is written.
    assert_eq!(export(&template, out.path(), true).unwrap(), Vec::<String>::new());
}

#[test]
fn each_skill_shows_its_description_body_files_and_scripts() {
    let template = import(&fixtures());
    let keys: Vec<&str> = template.sections.iter().map(|s| s.key.as_str()).collect();
    assert_eq!(
        keys,
        [
            "brand-guidelines",
            "internal-comms",
            "internal-comms-files",
            "mcp-builder",
            "mcp-builder-files",
            "webapp-testing",
            "webapp-testing-files"
        ]
    );
    let comms = &template.sections[1];
    assert!(comms.summary.as_deref().unwrap().starts_with("A set of resources to help me write all kinds of internal"));
    assert!(comms.template.starts_with("\n## When to use this skill\n"));
    assert!(comms.children.is_empty(), "a skill's files are not in its subtree: reading it shows its body alone");
    // Its files are the children of the section after it, which names the skill.
    let files = &template.sections[2];
    assert_eq!(
        (files.title.as_str(), files.visibility),
        ("internal-comms files", unfold_documents::Visibility::Summary)
    );
    assert_eq!(files.extensions["x-skill-files"], serde_json::json!({ "skill": "internal-comms" }));
    let children: Vec<(&str, &str)> = files.children.iter().map(|c| (c.key.as_str(), c.title.as_str())).collect();
    assert_eq!(
        children,
        [
            ("examples-3p-updates-md", "examples/3p-updates.md"),
            ("examples-company-newsletter-md", "examples/company-newsletter.md"),
            ("examples-faq-answers-md", "examples/faq-answers.md"),
            ("examples-general-comms-md", "examples/general-comms.md"),
        ]
    );
    let web = &template.sections[5];
    let tools: Vec<&str> = web.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(tools, ["with_server"]);
    assert!(
        web.tools[0].description.ends_with("Runs `scripts/with_server.py` of the webapp-testing skill."),
        "{}",
        web.tools[0].description
    );
    let mcp = &template.sections[3];
    let tools: Vec<&str> = mcp.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(tools, ["connections", "evaluation"]);
    // The examples a body names by file name alone are files of their own too.
    let files: Vec<&str> = template.sections[6].children.iter().map(|c| c.title.as_str()).collect();
    assert_eq!(
        files,
        ["examples/console_logging.py", "examples/element_discovery.py", "examples/static_html_automation.py"]
    );
}

#[test]
fn a_changed_description_is_written_and_the_rest_of_the_front_matter_kept() {
    let mut template = import(&fixtures());
    template.sections[0].summary = Some("Use for Anthropic's colours: $$5 a, b: c.".to_owned());
    let out = tempfile::tempdir().unwrap();
    export(&template, out.path(), false).unwrap();
    let written = std::fs::read_to_string(out.path().join("brand-guidelines/SKILL.md")).unwrap();
    let original = std::fs::read_to_string(fixtures().join("brand-guidelines/SKILL.md")).unwrap();
    let (old_line, new_line) = (
        original.lines().find(|l| l.starts_with("description:")).unwrap(),
        "description: \"Use for Anthropic's colours: $5 a, b: c.\"",
    );
    assert_eq!(written, original.replace(old_line, new_line));
    // Read back, the new description is the summary again.
    let again = import(out.path());
    assert_eq!(again.sections[0].summary, template.sections[0].summary);
    // The other skills are as they were.
    assert_eq!(
        std::fs::read(out.path().join("internal-comms/SKILL.md")).unwrap(),
        std::fs::read(fixtures().join("internal-comms/SKILL.md")).unwrap()
    );
}

#[test]
fn a_changed_body_or_file_is_written_as_the_model_reads_it() {
    let mut template = import(&fixtures());
    template.params.insert("team".to_owned(), "Platform".to_owned());
    template.sections[1].template = "Write for ${team}; it costs $$0.\n".to_owned();
    template.sections[2].children[0].template = "# 3P\n".to_owned();
    let out = tempfile::tempdir().unwrap();
    export(&template, out.path(), false).unwrap();
    let skill = std::fs::read_to_string(out.path().join("internal-comms/SKILL.md")).unwrap();
    assert!(skill.ends_with("---\nWrite for Platform; it costs $0.\n"), "{skill}");
    assert_eq!(std::fs::read_to_string(out.path().join("internal-comms/examples/3p-updates.md")).unwrap(), "# 3P\n");
}

#[test]
fn a_folder_with_files_is_written_over_only_when_asked_and_its_other_files_stay() {
    let template = import(&fixtures());
    let out = tempfile::tempdir().unwrap();
    std::fs::create_dir(out.path().join("internal-comms")).unwrap();
    std::fs::write(out.path().join("internal-comms/SKILL.md"), "mine").unwrap();
    std::fs::write(out.path().join("notes.txt"), "my notes").unwrap();
    let refused = skills_of(&template).and_then(|skills| write_skills(out.path(), &skills.skills, false)).unwrap_err();
    assert_eq!(refused.problems()[0].location, unfold_documents::Location::Argument(OVERWRITE.to_owned()));
    assert_eq!(std::fs::read_to_string(out.path().join("internal-comms/SKILL.md")).unwrap(), "mine", "nothing written");
    export(&template, out.path(), true).unwrap();
    assert_eq!(std::fs::read_to_string(out.path().join("notes.txt")).unwrap(), "my notes");
    assert_eq!(
        std::fs::read(out.path().join("internal-comms/SKILL.md")).unwrap(),
        std::fs::read(fixtures().join("internal-comms/SKILL.md")).unwrap()
    );
}

#[test]
fn a_symbolic_link_in_the_way_refuses_the_export_before_anything_is_written() {
    let template = import(&fixtures());
    let (out, elsewhere) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::os::unix::fs::symlink(elsewhere.path(), out.path().join("webapp-testing")).unwrap();
    let error = export(&template, out.path(), true).unwrap_err();
    assert!(error.ends_with("webapp-testing: a symbolic link is in the way: nothing was written"), "{error}");
    assert!(tree(elsewhere.path()).is_empty() && !out.path().join("brand-guidelines").exists());
}

#[test]
fn a_path_out_of_the_skills_folder_is_a_problem_at_its_place() {
    let mut template = import(&fixtures());
    template.sections[2].children[0].extensions["x-skill-file"]["path"] = "../../escaped.md".into();
    template.sections[0].extensions["x-skill"]["dir"] = "..".into();
    let error = skills_of(&template).unwrap_err().to_string();
    assert_eq!(
        error,
        "/sections/0/x-skill/dir: \"..\" is not the name of a folder\n/sections/1: \"../../escaped.md\" is not a path inside the skill's folder"
    );
}

#[test]
fn files_whose_skill_is_gone_are_a_problem_at_their_section() {
    let mut template = import(&fixtures());
    template.sections[1].key = "comms".to_owned();
    let error = skills_of(&template).unwrap_err().to_string();
    assert_eq!(
        error,
        "/sections/2/x-skill-files/skill: no skill's section has the key \"internal-comms\": whose files are these?"
    );
    // Named again, they are the skill's files wherever the section is.
    template.sections[2].extensions["x-skill-files"]["skill"] = "comms".into();
    let files = template.sections.remove(2);
    template.sections.push(files);
    let skills = skills_of(&template).unwrap().skills;
    assert_eq!(skills.len(), 4);
    let comms: Vec<&str> = skills[1].files.iter().map(|f| f.path.as_str()).collect();
    assert!(comms.contains(&"examples/3p-updates.md") && comms.contains(&"LICENSE.txt"), "{comms:?}");
}

#[test]
fn a_skill_imported_before_its_files_had_a_section_of_their_own_is_written_as_it_was() {
    // Templates imported before: the files were the skill's children.
    let mut template = import(&fixtures());
    let files = template.sections.remove(2);
    template.sections[1].children = files.children;
    let out = tempfile::tempdir().unwrap();
    export(&template, out.path(), false).unwrap();
    assert!(tree(&fixtures()) == tree(out.path()), "the same files, byte for byte");
}

#[test]
fn a_template_written_by_hand_becomes_skills_named_by_their_keys() {
    let mut template = Template::blank();
    template.sections[0].summary = Some("When to follow the instructions".to_owned());
    template.sections[0].template = "Do it well.\n".to_owned();
    template.sections[0].children.push(unfold_documents::template::Section::empty("style", "Style"));
    template.sections[0].children[0].template = "Be brief.\n".to_owned();
    let skills = skills_of(&template).unwrap();
    let files: Vec<(&str, String)> =
        skills.skills[0].files.iter().map(|f| (f.path.as_str(), String::from_utf8(f.bytes.clone()).unwrap())).collect();
    assert_eq!(
        files,
        [
            (
                "SKILL.md",
                "---\nname: untitled-placeholder\ndescription: When to follow the instructions\n---\nDo it well.\n"
                    .replace("untitled-placeholder", "instructions")
            ),
            ("style.md", "Be brief.\n".to_owned()),
        ]
    );
    // And read back, it is the same skill.
    let again = template_of(Path::new("x"), "x", &skills.skills).unwrap();
    assert_eq!(again.sections[0].summary.as_deref(), Some("When to follow the instructions"));
}

fn skill_folder() -> impl Strategy<Value = SkillFolder> {
    let text = "[a-zA-Z0-9 $#:'\"\\-\n\r\t{}é✓]{0,40}";
    let description = "[a-zA-Z0-9 $#:'\"\\-{}é✓]{1,40}".prop_filter("not blank", |d| !d.trim().is_empty());
    (description, text, text, proptest::collection::vec(any::<u8>(), 0..20), any::<bool>()).prop_map(
        |(description, body, file, binary, executable)| {
            let yaml_description = serde_json::Value::String(description).to_string();
            let skill_md =
                format!("---\nname: s\ndescription: {yaml_description}\nx-extra: [1, 2]\n---\nSee notes/a.md.\n{body}");
            SkillFolder {
                dir: "s".to_owned(),
                files: vec![
                    SkillFile { path: "SKILL.md".into(), bytes: skill_md.into_bytes(), executable: false },
                    SkillFile { path: "data.bin".into(), bytes: binary, executable },
                    SkillFile { path: "notes/a.md".into(), bytes: file.into_bytes(), executable: false },
                    SkillFile {
                        path: "scripts/run.sh".into(),
                        bytes: b"#!/bin/sh\n# Runs.\n".to_vec(),
                        executable: true,
                    },
                ],
            }
        },
    )
}

proptest! {
    /// Read into a template, saved, read back and written: the very bytes of every file.
    #[test]
    fn any_skill_round_trips_byte_for_byte(folder in skill_folder()) {
        let template = template_of(Path::new("skills"), "skills", std::slice::from_ref(&folder)).unwrap();
        let template = Template::from_json(template.to_json().as_bytes()).unwrap();
        let mut written = skills_of(&template).unwrap().skills;
        let mut files = written.remove(0).files;
        files.sort_by(|a, b| a.path.cmp(&b.path));
        let mut expected = folder.files.clone();
        expected.sort_by(|a, b| a.path.cmp(&b.path));
        prop_assert_eq!(files, expected);
    }
}

#[test]
fn reading_the_fixture_twice_gives_the_same_template() {
    let read = read_skills(&fixtures()).unwrap();
    assert_eq!(
        template_of(&fixtures(), "k", &read.skills).unwrap(),
        template_of(&fixtures(), "k", &read.skills).unwrap()
    );
}
