//! Build script: lets tauri-build read tauri.conf.json and the capabilities, embed the icons, and
//! generate `allow-<command>` permissions for the app's own commands (the one list in
//! `src/command_list.rs`) so that each window gets only the commands its capability grants
//! (without an app manifest every window may call every command).

include!("src/command_list.rs");

fn main() {
    println!("cargo:rerun-if-changed=src/command_list.rs");
    let manifest = tauri_build::AppManifest::new().commands(with_app_commands!(command_names));
    tauri_build::try_build(tauri_build::Attributes::new().app_manifest(manifest))
        .expect("tauri-build: invalid tauri.conf.json, capabilities or icons");
}
