//! A child's launch: its argument list as written, its folder relative to the template's, and a
//! minimal environment with `${env:NAME}` read from the user's.

use std::path::Path;

use unfold_sources::launch::Launch;
use unfold_sources::SourceError;

use crate::servers::command;

fn env_of(name: &str) -> Option<String> {
    match name {
        "PATH" => Some("/usr/bin".into()),
        "HOME" => Some("/home/u".into()),
        "OPENAI_API_KEY" => Some("sk-not-for-servers".into()),
        "DOCS_TOKEN" => Some("docs-secret".into()),
        _ => None,
    }
}

#[test]
fn a_child_gets_only_the_minimal_environment_and_what_its_definition_asks_for() {
    let mut server = command(&["python3", "docs server.py", "--flag"]);
    server.cwd = Some("servers".into());
    server.env.insert("TOKEN".into(), "${env:DOCS_TOKEN}".into());
    server.env.insert("MODE".into(), "read-only".into());
    let launch = Launch::of(&server, Path::new("/t/templates"), &env_of).unwrap();
    assert_eq!(launch.argv, ["python3", "docs server.py", "--flag"], "an argument list, never split by a shell");
    assert_eq!(launch.cwd, Path::new("/t/templates/servers"));
    let env: Vec<String> = launch.env.iter().map(|(k, v)| format!("{k}={v}")).collect();
    assert_eq!(env, ["PATH=/usr/bin", "HOME=/home/u", "TOKEN=docs-secret", "MODE=read-only"]);
}

#[test]
fn a_variable_the_user_has_not_set_is_named() {
    let mut server = command(&["srv"]);
    server.env.insert("TOKEN".into(), "${env:MISSING_TOKEN}".into());
    let error = Launch::of(&server, Path::new("/t"), &env_of).unwrap_err();
    assert!(matches!(error, SourceError::Definition(_)));
    assert_eq!(error.to_string(), "TOKEN takes ${env:MISSING_TOKEN}, and MISSING_TOKEN is not set");
}
