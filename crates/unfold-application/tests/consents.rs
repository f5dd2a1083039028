//! The app's answers about a template's tool sources: nothing starts until a source is allowed,
//! an answer holds for that file and that definition only, a run's consent follows the answers,
//! and listing now starts only what was allowed (the Python SDK test server, really started).

use std::path::{Path, PathBuf};

use unfold_application::consents::{Consents, Permission, SourceView};
use unfold_documents::discovery::Tier;
use unfold_documents::Template;

/// A template whose `ide` source runs the Python SDK test server (with a snapshot of `grep`), and
/// whose `docs` source would leave `marker` behind if it ran.
fn template_with_servers(dir: &Path, marker: &Path) -> (Template, PathBuf) {
    let python = unfold_test_support::mcp_servers::python();
    let server = unfold_test_support::mcp_servers::changing_tools_script();
    let example = unfold_test_support::repo("examples/task-executor.unfold.json");
    let mut doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(example).unwrap()).unwrap();
    doc["sources"] = serde_json::json!([
        { "name": "ide", "section": "context", "mcp": { "command": [python, server.to_str().unwrap()], "env": { "TOKEN": "not-a-secret" } },
          "snapshot": [{ "name": "grep", "description": "Search the workspace.", "parameters": { "type": "object" } }] },
        { "name": "docs", "section": null, "mcp": { "command": ["touch", marker.to_str().unwrap()] } },
        { "name": "far", "section": null, "mcp": { "url": "https://tools.example.com/mcp" } }
    ]);
    let path = dir.join("servers.unfold.json");
    std::fs::write(&path, doc.to_string()).unwrap();
    (Template::load(&path).unwrap(), path)
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

fn tool_names(view: &SourceView) -> Vec<&str> {
    view.tools.iter().map(|tool| tool.name.as_str()).collect()
}

#[test]
fn a_source_starts_only_once_allowed_for_that_file_and_definition() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("the-source-ran");
    let (template, path) = template_with_servers(dir.path(), &marker);
    let permissions = Consents::at(Some(dir.path().join("settings/source-trust.json")));

    let views = permissions.view(&template, Some(&path), None);
    let answers: Vec<Permission> = views.iter().map(|v| v.permission).collect();
    assert_eq!(answers, [Permission::NotAllowed; 3]);
    let python = unfold_test_support::mcp_servers::python();
    let server = unfold_test_support::mcp_servers::changing_tools_script();
    assert_eq!(views[0].starts, format!("runs {python} {} in {} with TOKEN", server.display(), dir.path().display()));
    let bare = permissions.view(&template, Some(std::path::Path::new("t.unfold.json")), None);
    assert!(bare[0].starts.ends_with(" in . with TOKEN"), "a bare file name's folder: {}", bare[0].starts);
    assert_eq!(views[2].starts, "connects to https://tools.example.com/mcp");
    assert_eq!((views[0].remote, views[2].remote), (false, true));
    assert_eq!((views[0].tier, tool_names(&views[0])), (Tier::Snapshot, vec!["grep"]));
    assert!(!permissions.consent(&template, Some(&path)).start, "nothing allowed, nothing starts");

    permissions.allow(&template, Some(&path), "ide").unwrap();
    let consent = permissions.consent(&template, Some(&path));
    assert!(consent.start);
    assert_eq!(consent.only.iter().flatten().collect::<Vec<_>>(), ["ide"]);

    let listed = runtime().block_on(permissions.discover(&template, Some(&path)));
    assert_eq!(listed[0].permission, Permission::Allowed);
    assert_eq!(listed[0].tier, Tier::Live, "{:?}", listed[0].error);
    assert!(tool_names(&listed[0]).contains(&"unlock"), "{:?}", tool_names(&listed[0]));
    let left_out = listed[0].error.as_deref().unwrap_or_default();
    assert!(left_out.contains("'lookup': the template already has a tool of that name"), "{left_out}");
    assert!(tool_names(&listed[0]).contains(&"lookup"), "listed as the server lists it, for its snapshot");
    assert_eq!(listed[1].tier, Tier::None);
    assert_eq!(listed[1].error.as_deref(), Some("not allowed to start: allow it in the Sources panel"));
    assert!(!marker.exists(), "a source not allowed never runs");

    let mut changed = template.clone();
    changed.sources[0].mcp.as_mut().unwrap().command = Some(vec!["touch".to_owned(), marker.display().to_string()]);
    let views = permissions.view(&changed, Some(&path), None);
    assert_eq!(views[0].permission, Permission::Changed, "a changed definition asks again");
    assert!(!permissions.consent(&changed, Some(&path)).start);
    let other_file = dir.path().join("copy.unfold.json");
    assert_eq!(permissions.view(&template, Some(&other_file), None)[0].permission, Permission::NotAllowed);

    permissions.revoke(Some(&path), "ide").unwrap();
    assert_eq!(permissions.view(&template, Some(&path), None)[0].permission, Permission::NotAllowed);
    let unsaved = permissions.allow(&template, None, "ide").unwrap_err();
    assert_eq!(unsaved.message, "cannot allow source 'ide': save the template first: an answer is kept for its file");
    assert_eq!(permissions.view(&template, None, None)[0].permission, Permission::Unsaved);
}

#[test]
fn a_relay_source_needs_no_answer_and_cannot_be_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tables.unfold.json");
    std::fs::copy(unfold_test_support::repo("examples/relay-plugin/tables.unfold.json"), &path).unwrap();
    let template = Template::load(&path).unwrap();
    let permissions = Consents::at(Some(dir.path().join("source-trust.json")));
    let views = permissions.view(&template, Some(&path), None);
    assert_eq!((views[0].permission, views[0].starts.as_str()), (Permission::NotNeeded, "the relay plugin 'tables'"));
    let refused = permissions.allow(&template, Some(&path), "tables").unwrap_err();
    assert_eq!(
        refused.message,
        "cannot allow source 'tables': a relay source starts nothing: attach a run to a relay session instead"
    );
    assert!(!permissions.consent(&template, Some(&path)).start, "and nothing starts for it");
}

/// Tools a started source lists reach the editor's preview and its economics without a snapshot
/// written into the file, until the source's permission is taken back.
#[test]
fn a_started_sources_tools_reach_the_preview_until_its_permission_goes() {
    let dir = tempfile::tempdir().unwrap();
    let (template, path) = template_with_servers(dir.path(), &dir.path().join("the-source-ran"));
    let templates = unfold_application::templates::Templates::default();
    let id = templates.open(path.to_str().unwrap()).unwrap().status.id;
    let offered = || -> Vec<String> {
        let preview = templates.preview(id, &[], true, None).unwrap();
        let tools = preview.tools.expect("a first preview lists its tools");
        tools.iter().map(|tool| tool["function"]["name"].as_str().unwrap().to_owned()).collect()
    };
    let has = |names: &[String], name: &str| names.iter().any(|n| n == name);
    let snapshot = offered();
    assert!(has(&snapshot, "grep") && !has(&snapshot, "unlock"), "the snapshot first: {snapshot:?}");
    let full = templates.economics(id).unwrap().all_full_tokens;

    let permissions = Consents::at(Some(dir.path().join("settings/source-trust.json")));
    permissions.allow(&template, Some(&path), "ide").unwrap();
    let (views, listed) = runtime().block_on(permissions.discover_listed(&template, Some(&path)));
    assert_eq!(views[0].tier, Tier::Live, "{:?}", views[0].error);
    templates.set_listed(id, listed).unwrap();
    let live = offered();
    assert!(has(&live, "unlock") && !has(&live, "grep"), "what the server listed: {live:?}");
    assert_ne!(templates.economics(id).unwrap().all_full_tokens, full, "the economics count them too");
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(!saved.contains("unlock"), "nothing is written into the file");

    templates.forget_listed(id, "ide").unwrap();
    assert_eq!(offered(), snapshot, "the snapshot again once the permission is taken back");
}
