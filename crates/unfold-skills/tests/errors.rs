//! A skill that cannot be read is an error at its file and line; the others' errors come with it.

use unfold_skills::conversion::template_of;
use unfold_skills::folder::read_skills;

fn skill(root: &std::path::Path, name: &str, text: &str) {
    std::fs::create_dir_all(root.join(name)).unwrap();
    std::fs::write(root.join(name).join("SKILL.md"), text).unwrap();
}

#[test]
fn each_bad_front_matter_is_an_error_at_its_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    skill(dir.path(), "good", "---\nname: good\ndescription: Fine.\n---\nBody\n");
    skill(dir.path(), "not-yaml", "---\nname: a\n  description: b\n---\n");
    skill(dir.path(), "open", "---\nname: a\ndescription: b\n# never closed\n");
    skill(dir.path(), "nameless", "---\ndescription: b\nlicense: MIT\n---\n");
    let read = read_skills(dir.path()).unwrap();
    let errors = template_of(dir.path(), "skills", &read.skills).unwrap_err();
    let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
    let root = dir.path().display();
    assert_eq!(
        lines,
        [
            format!("{root}/nameless/SKILL.md: line 1, column 1: the front matter has no `name`"),
            format!("{root}/not-yaml/SKILL.md: line 3, column 14: the front matter is not YAML: mapping values are not allowed in this context"),
            format!("{root}/open/SKILL.md: line 1, column 1: the front matter opened here is not closed by a line `---`"),
        ]
    );
}

#[test]
fn a_skill_md_that_is_not_text_is_an_error_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("bin")).unwrap();
    std::fs::write(dir.path().join("bin/SKILL.md"), b"---\nname: a\n\xff\n").unwrap();
    let read = read_skills(dir.path()).unwrap();
    let errors = template_of(dir.path(), "skills", &read.skills).unwrap_err();
    assert_eq!(
        errors[0].to_string(),
        format!("{}/bin/SKILL.md: line 3, column 1: the file is not UTF-8 text", dir.path().display())
    );
}

#[test]
fn a_folder_without_skills_says_what_a_skill_is() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.md"), "hi").unwrap();
    let error = read_skills(dir.path()).unwrap_err().to_string();
    assert!(error.ends_with("no skill in this folder: a skill is a folder with a SKILL.md"), "{error}");
    skill(dir.path(), ".", "---\nname: a\ndescription: b\n---\n");
    let error = read_skills(dir.path()).unwrap_err().to_string();
    assert!(error.ends_with("this folder is a skill: give the folder that holds it"), "{error}");
}

#[test]
fn what_is_not_a_skill_is_passed_over_and_said() {
    let dir = tempfile::tempdir().unwrap();
    skill(dir.path(), "good", "---\nname: good\ndescription: Fine.\n---\n");
    std::fs::write(dir.path().join("README.md"), "about").unwrap();
    std::fs::create_dir(dir.path().join("drafts")).unwrap();
    let read = read_skills(dir.path()).unwrap();
    assert_eq!(read.skills.len(), 1);
    assert_eq!(read.passed_over, ["README.md (a file, not a skill's folder)", "drafts/ (no SKILL.md in it)"]);
}
