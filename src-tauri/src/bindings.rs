//! The one tauri-specta builder: registers the commands at start-up and generates
//! `ui/src/bindings.ts` in a test that fails when the committed file is stale.

use tauri_specta::{collect_commands, collect_events, Builder};

use crate::{
    compare, editor, examples, files, forks, launch, providers, real_hosts, relay, run_history, skills, sources,
    studies, suites, template_exports,
};

/// The commands of `command_list.rs`, collected for tauri-specta.
macro_rules! collect_app_commands {
    ($($module:ident :: $command:ident),* $(,)?) => {
        collect_commands![$($module::$command),*]
    };
}

/// The commands and events the UI can use. `main` and the bindings test share it.
pub fn specta_builder() -> Builder<tauri::Wry> {
    Builder::<tauri::Wry>::new()
        .events(collect_events![files::CloseRequested, files::FilesDropped])
        .commands(with_app_commands!(collect_app_commands))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::path::PathBuf;

    use specta_typescript::Typescript;

    use super::*;

    const HEADER: &str = "// Owns the typed IPC surface between ui/ and src-tauri; only ui/src/platform/ imports it.\n\
         // Regenerate with `UNFOLD_BLESS=1 cargo test -p unfold-app bindings`.";

    /// Regenerates the bindings; fails if `ui/src/bindings.ts` differs, or rewrites it with
    /// `UNFOLD_BLESS=1`.
    #[test]
    fn bindings_are_up_to_date() {
        let committed_path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../ui/src/bindings.ts");
        let dir = tempfile::tempdir().expect("temp dir");
        let fresh_path = dir.path().join("bindings.ts");
        specta_builder()
            .export(Typescript::default().header(HEADER), &fresh_path)
            .expect("export the TypeScript bindings");
        let fresh = std::fs::read_to_string(&fresh_path).expect("read the fresh bindings");

        if std::env::var_os("UNFOLD_BLESS").is_some_and(|v| v == "1") {
            std::fs::write(&committed_path, &fresh).expect("write ui/src/bindings.ts");
            return;
        }
        let committed = std::fs::read_to_string(&committed_path).unwrap_or_default();
        assert!(
            committed == fresh,
            "ui/src/bindings.ts is stale: run `UNFOLD_BLESS=1 cargo test -p unfold-app bindings` \
             and commit the result\n--- fresh bindings ---\n{fresh}"
        );
    }

    /// The main window is granted exactly the registered commands, and the UI calls each of them:
    /// the capability file, the command list and the UI cannot drift apart.
    #[test]
    fn the_main_window_is_granted_exactly_the_commands_the_ui_calls() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let capability: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("capabilities/main-window.json")).unwrap()).unwrap();
        let granted: BTreeSet<String> = capability["permissions"]
            .as_array()
            .expect("a permissions list")
            .iter()
            .filter_map(|p| p.as_str()?.strip_prefix("allow-").map(|c| c.replace('-', "_")))
            .collect();
        let registered: BTreeSet<String> =
            with_app_commands!(command_names).iter().map(|name: &&str| (*name).to_owned()).collect();
        assert_eq!(granted, registered, "capabilities/main-window.json must grant exactly src/command_list.rs");
        let ui = ui_sources(&dir.join("../ui/src"));
        let unused: Vec<&String> =
            registered.iter().filter(|command| !ui.contains(&format!(".{}(", camel_case(command)))).collect();
        assert!(unused.is_empty(), "registered and granted, but the UI never calls: {unused:?}");
    }

    /// The text of the UI's own sources: no generated bindings, no tests or test doubles.
    fn ui_sources(folder: &std::path::Path) -> String {
        let mut text = String::new();
        for entry in std::fs::read_dir(folder).unwrap().map(Result::unwrap) {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() && name != "testing" {
                text.push_str(&ui_sources(&path));
            } else if (name.ends_with(".ts") || name.ends_with(".tsx"))
                && !name.contains(".test.")
                && name != "bindings.ts"
            {
                text.push_str(&std::fs::read_to_string(&path).unwrap());
            }
        }
        text
    }

    fn camel_case(name: &str) -> String {
        let mut words = name.split('_');
        let first = words.next().unwrap_or_default().to_owned();
        words.fold(first, |mut out, word| {
            let mut chars = word.chars();
            if let Some(c) = chars.next() {
                out.extend(c.to_uppercase());
                out.push_str(chars.as_str());
            }
            out
        })
    }
}
