//! The recent files lists.

use unfold_application::recent::{Recent, RecentFileDto};

#[test]
fn recent_files_follow_opens_and_say_which_are_gone() {
    let dir = tempfile::tempdir().unwrap();
    let recent = Recent::at(Some(dir.path().join("recent.json")));
    let here = dir.path().join("here.unfold.json");
    std::fs::write(&here, "{}").unwrap();
    let gone = dir.path().join("gone.unfold.json");
    recent.remember(Some(&gone.to_string_lossy()));
    recent.remember(Some(&here.to_string_lossy()));
    recent.remember(None);
    assert_eq!(
        recent.list(),
        [
            RecentFileDto { path: here.to_string_lossy().into_owned(), exists: true },
            RecentFileDto { path: gone.to_string_lossy().into_owned(), exists: false },
        ]
    );
    assert_eq!(recent.forget(&gone.to_string_lossy()).unwrap().len(), 1);
    assert!(Recent::at(None).list().is_empty());
}
