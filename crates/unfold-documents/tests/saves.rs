//! Saves of a user's file (`document::write_atomically`, which every file Unfold writes goes
//! through): through a symbolic link to the file it names, never over a folder, device, pipe or
//! socket, keeping the mode of the file replaced and giving a new one the umask's.

use std::fs::Permissions;
use std::os::unix::fs::{symlink, FileTypeExt, PermissionsExt};
use std::path::Path;

use unfold_documents::document::write_atomically;

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

/// The files in `folder`, sorted: a save leaves no temporary file behind.
fn names(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(folder).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

#[test]
fn a_save_through_a_symbolic_link_updates_the_file_it_names_and_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let (real, links) = (dir.path().join("real"), dir.path().join("links"));
    std::fs::create_dir_all(&real).unwrap();
    std::fs::create_dir_all(&links).unwrap();
    std::fs::write(real.join("t.unfold.json"), "old\n").unwrap();
    // A relative link to a link in another folder: both are followed.
    symlink("../real/t.unfold.json", links.join("hop.json")).unwrap();
    symlink("hop.json", links.join("t.unfold.json")).unwrap();

    write_atomically(&links.join("t.unfold.json"), "new\n").unwrap();
    assert_eq!(std::fs::read_to_string(real.join("t.unfold.json")).unwrap(), "new\n", "the file named is saved");
    for link in ["t.unfold.json", "hop.json"] {
        assert!(std::fs::symlink_metadata(links.join(link)).unwrap().file_type().is_symlink(), "{link} stays");
    }
    assert_eq!(names(&real), ["t.unfold.json"], "no temporary file left");
    assert_eq!(names(&links), ["hop.json", "t.unfold.json"]);

    // A link to a file not there yet creates that file.
    symlink("../real/new.json", links.join("new.json")).unwrap();
    write_atomically(&links.join("new.json"), "{}\n").unwrap();
    assert_eq!(std::fs::read_to_string(real.join("new.json")).unwrap(), "{}\n");
    assert!(std::fs::symlink_metadata(links.join("new.json")).unwrap().file_type().is_symlink());
}

#[test]
fn a_save_keeps_the_mode_of_the_file_it_replaces_and_a_new_file_gets_the_umasks() {
    let dir = tempfile::tempdir().unwrap();
    let shared = dir.path().join("shared.unfold.json");
    std::fs::write(&shared, "old\n").unwrap();
    std::fs::set_permissions(&shared, Permissions::from_mode(0o664)).unwrap();
    write_atomically(&shared, "new\n").unwrap();
    assert_eq!(mode(&shared), 0o664, "a group-writable template stays so");
    std::fs::set_permissions(&shared, Permissions::from_mode(0o444)).unwrap();
    write_atomically(&shared, "newer\n").unwrap();
    assert_eq!((mode(&shared), std::fs::read_to_string(&shared).unwrap().as_str()), (0o444, "newer\n"));

    let fresh = dir.path().join("fresh.unfold.json");
    write_atomically(&fresh, "{}\n").unwrap();
    assert_eq!(mode(&fresh), 0o666 & !umask(), "as any program creating a file");
}

/// This process's umask, as Linux reports it.
fn umask() -> u32 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find_map(|line| line.strip_prefix("Umask:")).expect("Linux reports the umask");
    u32::from_str_radix(line.trim(), 8).unwrap()
}

#[test]
fn a_save_refuses_a_pipe_a_socket_a_folder_and_a_loop_and_leaves_them_as_they_were() {
    let dir = tempfile::tempdir().unwrap();
    let pipe = dir.path().join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&pipe).status().unwrap();
    assert!(made.success());
    let socket = dir.path().join("socket");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let folder = dir.path().join("folder");
    std::fs::create_dir(&folder).unwrap();
    symlink("pipe", dir.path().join("to-pipe")).unwrap();
    symlink("loop-b", dir.path().join("loop-a")).unwrap();
    symlink("loop-a", dir.path().join("loop-b")).unwrap();

    let refusal = |name: &str| write_atomically(&dir.path().join(name), "x\n").unwrap_err().to_string();
    let named = |name: &str| dir.path().join(name).display().to_string();
    let pipe_is = "a FIFO (named pipe), not a regular file: give a file";
    assert_eq!(refusal("pipe"), format!("{}: cannot save: this is {pipe_is}", named("pipe")));
    assert_eq!(refusal("to-pipe"), format!("{}: cannot save: it names {}, {pipe_is}", named("to-pipe"), named("pipe")));
    let socket_is = "a socket, not a regular file: give a file";
    assert_eq!(refusal("socket"), format!("{}: cannot save: this is {socket_is}", named("socket")));
    let folder_is = "a folder, not a regular file: give a file";
    assert_eq!(refusal("folder"), format!("{}: cannot save: this is {folder_is}", named("folder")));
    assert!(refusal("loop-a").ends_with("cannot save: more than 40 symbolic links in a row: a loop?"));

    assert!(std::fs::symlink_metadata(&pipe).unwrap().file_type().is_fifo(), "the pipe is still a pipe");
    assert!(std::fs::symlink_metadata(&socket).unwrap().file_type().is_socket());
    assert!(std::fs::symlink_metadata(dir.path().join("to-pipe")).unwrap().file_type().is_symlink());
    assert_eq!(names(dir.path()), ["folder", "loop-a", "loop-b", "pipe", "socket", "to-pipe"], "nothing left");
}

#[test]
fn a_file_of_the_apps_own_is_created_for_its_owner_alone_and_a_replaced_one_keeps_its_mode() {
    let dir = tempfile::tempdir().unwrap();
    let private = dir.path().join("recent-files.json");
    unfold_documents::document::write_privately(&private, "{}\n").unwrap();
    assert_eq!(mode(&private), 0o600, "recovered work and allowed sources are nobody else's to read");
    std::fs::set_permissions(&private, Permissions::from_mode(0o640)).unwrap();
    unfold_documents::document::write_privately(&private, "{ }\n").unwrap();
    assert_eq!(mode(&private), 0o640, "a mode the user chose is kept");
}
