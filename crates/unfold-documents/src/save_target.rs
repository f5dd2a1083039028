//! Where a save of a user's file goes, and what of the file it replaces it keeps (and the folder a
//! file is in, which a bare file name makes easy to get wrong). A save writes a
//! temporary file and renames it over the path (`document::write_atomically`); done naively, that
//! replaces whatever the path names: a symbolic link becomes a regular file (its target never
//! updated), a device node or a pipe is replaced (as root, `--otel /dev/full` replaced the device),
//! and the file's mode becomes the temporary file's 0600. So a save follows symbolic links to the
//! file they name and saves that file (in its own folder, so the rename stays atomic), refuses
//! anything but a regular file, keeps the mode of the file it replaces, and gives a new file the
//! mode the user's umask gives (as any program creating a file does).
//!
//! What a save cannot keep: the owner, when another user saves the file (the new file is theirs),
//! and hard links (the other names keep the old text).

use std::fs::{Metadata, Permissions};
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// The folder the file at `path` is in: its parent, or `.` for a bare file name (whose parent is
/// the empty path, which names no folder: a process started there, or a file made there, fails).
pub fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    }
}

/// Who may read a file a save creates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NewFile {
    /// A user's document or output: as the umask says, as any program creating a file does.
    Shared,
    /// The app's own store (recovered work, recent files, allowed sources): its owner alone.
    Private,
}

/// How many symbolic links a save follows before giving up, as the kernel does (`ELOOP`).
const MAX_LINKS: usize = 40;

/// The file a save of a path writes.
#[derive(Debug)]
pub struct SaveTarget {
    /// The file itself: the path with every symbolic link followed.
    pub path: PathBuf,
    /// The regular file there now; none when the save creates it.
    existing: Option<Metadata>,
}

impl SaveTarget {
    /// The file a save of `path` writes: `path`, or the file its symbolic links name (that file
    /// may not exist yet). Refuses a path that names a folder, a device, a pipe or a socket, and
    /// a loop of links.
    pub fn of(given: &Path) -> io::Result<SaveTarget> {
        let mut path = given.to_owned();
        for _ in 0..=MAX_LINKS {
            let metadata = match std::fs::symlink_metadata(&path) {
                Ok(metadata) => metadata,
                Err(error) if error.kind() == io::ErrorKind::NotFound => {
                    return Ok(SaveTarget { path, existing: None })
                }
                Err(error) => return Err(error),
            };
            let kind = metadata.file_type();
            if kind.is_file() {
                return Ok(SaveTarget { path, existing: Some(metadata) });
            }
            if !kind.is_symlink() {
                return Err(not_a_file(given, &path, kind));
            }
            // A relative link is relative to the folder the link is in.
            path = folder_of(&path).join(std::fs::read_link(&path)?);
        }
        Err(io::Error::other(format!("more than {MAX_LINKS} symbolic links in a row: a loop?")))
    }

    /// The folder the file is in: where the temporary file goes, so the rename stays in one
    /// filesystem.
    pub fn folder(&self) -> &Path {
        folder_of(&self.path)
    }

    /// The mode to create the temporary file with: the replaced file's, else `new` (read and
    /// write for all for a user's file, which the umask then narrows; the owner's alone for the
    /// app's own).
    pub fn creation_permissions(&self, new: NewFile) -> Permissions {
        match (&self.existing, new) {
            (Some(existing), _) => existing.permissions(),
            (None, NewFile::Shared) => Permissions::from_mode(0o666),
            (None, NewFile::Private) => Permissions::from_mode(0o600),
        }
    }

    /// Gives `temp` the replaced file's mode exactly (the umask narrowed it at creation).
    pub fn keep_mode(&self, temp: &std::fs::File) -> io::Result<()> {
        match &self.existing {
            Some(existing) => temp.set_permissions(existing.permissions()),
            None => Ok(()),
        }
    }
}

/// Why `given`, which names `found`, cannot be saved to.
fn not_a_file(given: &Path, found: &Path, kind: std::fs::FileType) -> io::Error {
    let what = not_a_regular_file(kind).unwrap_or("not a regular file");
    if given == found {
        io::Error::other(format!("this is {what}: give a file"))
    } else {
        io::Error::other(format!("it names {}, {what}: give a file", found.display()))
    }
}

/// What a file that is not a regular file is, in words ("a FIFO (named pipe), not a regular
/// file"); `None` for a regular file. One wording wherever Unfold refuses one, to read or to save.
pub fn not_a_regular_file(kind: std::fs::FileType) -> Option<&'static str> {
    if kind.is_file() {
        return None;
    }
    if kind.is_dir() {
        return Some("a folder, not a regular file");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return Some("a FIFO (named pipe), not a regular file");
        } else if kind.is_char_device() || kind.is_block_device() {
            return Some("a device, not a regular file");
        } else if kind.is_socket() {
            return Some("a socket, not a regular file");
        }
    }
    Some("a special file, not a regular file")
}
