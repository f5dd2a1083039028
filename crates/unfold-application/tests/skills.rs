//! Agent Skills as the CLI and the app import and export them: the template a folder gives, the
//! same folder back, and each refusal with its problems at their places.

use unfold_application::skills::{export_skills, export_skills_document, import_skills, import_skills_to_file};
use unfold_application::ErrorCode;
use unfold_documents::Location;

fn fixtures() -> std::path::PathBuf {
    unfold_test_support::repo("tests/fixtures/skills/anthropic")
}

#[test]
fn a_skills_folder_imports_as_a_template_and_exports_as_the_same_folder() {
    let imported = import_skills(&fixtures()).unwrap();
    assert_eq!(imported.template.key, "anthropic");
    // A section per skill, and one after each that names files, holding them.
    assert_eq!(imported.template.sections.len(), 7);
    assert_eq!((imported.skills, imported.files, imported.scripts), (4, 11, 3));
    assert!(imported.passed_over.is_empty(), "{:?}", imported.passed_over);
    let dir = tempfile::tempdir().unwrap();
    let (file, out) = (dir.path().join("skills.unfold.json"), dir.path().join("out"));
    import_skills_to_file(&fixtures(), &file, false).unwrap();
    let exported = export_skills(&file, &out, false).unwrap();
    assert_eq!((exported.skills, exported.written.len(), exported.unchanged.len()), (4, 24, 0));
    assert!(exported.left_out.is_empty());
    for path in &exported.written {
        assert_eq!(std::fs::read(out.join(path)).unwrap(), std::fs::read(fixtures().join(path)).unwrap(), "{path}");
    }
}

#[test]
fn bad_front_matter_is_refused_with_each_problem_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [("a", "---\nname: a\ndescription: [\n---\n"), ("b", "---\nname: b\n---\n")] {
        std::fs::create_dir(dir.path().join(name)).unwrap();
        std::fs::write(dir.path().join(name).join("SKILL.md"), text).unwrap();
    }
    let error = import_skills(dir.path()).unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidTemplate);
    let places: Vec<&Location> = error.problems.iter().map(|p| &p.location).collect();
    assert_eq!(places, [&Location::Text { line: 4, column: 1 }, &Location::Text { line: 1, column: 1 }]);
    assert!(error.message.contains("/a/SKILL.md: line 4, column 1: the front matter is not YAML"), "{}", error.message);
    assert!(error.message.contains("/b/SKILL.md: line 1, column 1: the front matter has no `description`"));
}

#[test]
fn an_existing_template_or_a_folder_with_files_is_written_over_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("skills.unfold.json");
    std::fs::write(&file, "mine").unwrap();
    let error = import_skills_to_file(&fixtures(), &file, false).unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidRequest);
    assert_eq!(error.problems[0].location, Location::Argument("overwrite".to_owned()));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");
    let imported = import_skills_to_file(&fixtures(), &file, true).unwrap();
    let error = export_skills_document(&imported.template, None, &fixtures(), false).unwrap_err();
    assert_eq!(error.problems[0].location, Location::Argument("overwrite".to_owned()));
    // Over the very folder it came from: every file is unchanged, none written.
    let exported = export_skills_document(&imported.template, None, &fixtures(), true).unwrap();
    assert_eq!((exported.written.len(), exported.unchanged.len()), (0, 24));
}

#[test]
fn a_template_that_cannot_be_written_as_skills_has_its_problems_at_their_pointers() {
    let mut template = import_skills(&fixtures()).unwrap().template;
    template.sections[1].template = "Costs $5".to_owned();
    let out = tempfile::tempdir().unwrap();
    let error = export_skills_document(&template, None, out.path(), false).unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidTemplate);
    assert_eq!(error.problems[0].location, Location::Pointer("/sections/1/template".to_owned()));
    assert_eq!(std::fs::read_dir(out.path()).unwrap().count(), 0, "nothing written");
}
