//! Skills' folders on disk: read whole (every file of every skill, within bounds), and written
//! so that no file of the user's is lost: into a new or empty folder, or over a folder only when
//! asked, and then only the files the skills hold are written (each atomically, an unchanged one
//! left untouched), never a file removed, never through a symbolic link. Everything is checked
//! before the first file is written, so a refused export writes nothing.

use std::path::{Path, PathBuf};

use unfold_documents::document::{create_folder, write_bytes_atomically};
use unfold_documents::{Error, Location, Problem};

use crate::conversion::{SkillFile, SkillFolder, SKILL_MD};

/// The most bytes the files of a skills folder may hold together: what a template file may.
pub const MAX_TOTAL_BYTES: u64 = 16 * 1024 * 1024;
/// The most files a skills folder may hold.
pub const MAX_FILES: usize = 10_000;
/// How deep folders nest inside a skill's folder.
pub const MAX_DEPTH: usize = 16;

/// The skills of a folder and what of it was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillsRead {
    /// Each subfolder with a `SKILL.md`, by name.
    pub skills: Vec<SkillFolder>,
    /// What was passed over, in words (a file beside the skills, a folder with no `SKILL.md`,
    /// a symbolic link).
    pub passed_over: Vec<String>,
}

fn io<'p>(path: &'p Path, action: &'static str) -> impl FnOnce(std::io::Error) -> Error + 'p {
    move |source| Error::Io { path: path.display().to_string(), action, source }
}

fn invalid(path: &Path, message: impl Into<String>) -> Error {
    Error::from(Problem::at("", message)).in_file(path)
}

/// The entries of `folder`, by name.
fn entries(folder: &Path) -> Result<Vec<(String, PathBuf, std::fs::Metadata)>, Error> {
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(folder).map_err(io(folder, "cannot read the folder"))? {
        let entry = entry.map_err(io(folder, "cannot read the folder"))?;
        let path = entry.path();
        let metadata = std::fs::symlink_metadata(&path).map_err(io(&path, "cannot read"))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        entries.push((name, path, metadata));
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(entries)
}

/// Reads the skills of `root`: each subfolder holding a `SKILL.md`, with every file in it.
pub fn read_skills(root: &Path) -> Result<SkillsRead, Error> {
    let mut read = SkillsRead { skills: Vec::new(), passed_over: Vec::new() };
    let mut budget = Budget { bytes: 0, files: 0 };
    for (name, path, metadata) in entries(root)? {
        if metadata.file_type().is_symlink() {
            read.passed_over.push(format!("{name} (a symbolic link)"));
        } else if !metadata.is_dir() {
            read.passed_over.push(format!("{name} (a file, not a skill's folder)"));
        } else if !path.join(SKILL_MD).is_file() {
            read.passed_over.push(format!("{name}/ (no {SKILL_MD} in it)"));
        } else {
            let mut files = Vec::new();
            read_files(&path, "", 1, &mut files, &mut read.passed_over, &mut budget, &name)?;
            read.skills.push(SkillFolder { dir: name, files });
        }
    }
    if read.skills.is_empty() {
        let message = if root.join(SKILL_MD).is_file() {
            "this folder is a skill: give the folder that holds it"
        } else {
            "no skill in this folder: a skill is a folder with a SKILL.md"
        };
        return Err(invalid(root, message));
    }
    Ok(read)
}

struct Budget {
    bytes: u64,
    files: usize,
}

fn read_files(
    folder: &Path,
    prefix: &str,
    depth: usize,
    files: &mut Vec<SkillFile>,
    passed_over: &mut Vec<String>,
    budget: &mut Budget,
    skill: &str,
) -> Result<(), Error> {
    if depth > MAX_DEPTH {
        return Err(invalid(folder, format!("folders nest deeper than {MAX_DEPTH} in a skill")));
    }
    for (name, path, metadata) in entries(folder)? {
        let relative = format!("{prefix}{name}");
        if metadata.file_type().is_symlink() {
            passed_over.push(format!("{skill}/{relative} (a symbolic link)"));
        } else if metadata.is_dir() {
            read_files(&path, &format!("{relative}/"), depth + 1, files, passed_over, budget, skill)?;
        } else if !metadata.is_file() {
            passed_over.push(format!("{skill}/{relative} (not a regular file)"));
        } else {
            budget.files += 1;
            budget.bytes += metadata.len();
            if budget.files > MAX_FILES || budget.bytes > MAX_TOTAL_BYTES {
                return Err(invalid(
                    &path,
                    format!("the skills hold more than {MAX_FILES} files or {} MiB", MAX_TOTAL_BYTES >> 20),
                ));
            }
            let bytes = std::fs::read(&path).map_err(io(&path, "cannot read"))?;
            files.push(SkillFile { path: relative, bytes, executable: is_executable(&metadata) });
        }
    }
    Ok(())
}

#[cfg(unix)]
fn is_executable(metadata: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    metadata.permissions().mode() & 0o100 != 0
}

#[cfg(not(unix))]
fn is_executable(_: &std::fs::Metadata) -> bool {
    false
}

/// What writing the skills did, each file by its path in the skills folder.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SkillsWritten {
    /// The files written (new, or with other bytes than they had).
    pub written: Vec<String>,
    /// The files that already held these very bytes, left as they were.
    pub unchanged: Vec<String>,
}

/// Where the request to write over a folder's files is named in a problem (the CLI says
/// `--force`).
pub const OVERWRITE: &str = "overwrite";

/// Whether `folder` is missing or holds nothing.
pub fn is_empty_or_missing(folder: &Path) -> Result<bool, Error> {
    match std::fs::read_dir(folder) {
        Ok(mut entries) => Ok(entries.next().is_none()),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(true),
        Err(error) => Err(io(folder, "cannot read the folder")(error)),
    }
}

/// Writes `skills` into `root`: a new or empty folder, or, with `overwrite`, one that holds files
/// already, whose files the skills do not hold are left as they are.
pub fn write_skills(root: &Path, skills: &[SkillFolder], overwrite: bool) -> Result<SkillsWritten, Error> {
    if root.exists() && !root.is_dir() {
        return Err(invalid(root, "not a folder"));
    }
    if !overwrite && !is_empty_or_missing(root)? {
        let problem = Problem {
            location: Location::Argument(OVERWRITE.to_owned()),
            message: "the folder is not empty: nothing was written".to_owned(),
        };
        return Err(Error::from(problem).in_file(root));
    }
    // Every target first: a folder where a file goes, a file where a folder goes, a symbolic link
    // on the way refuse the export before anything is written.
    let mut plan = Vec::new();
    for skill in skills {
        for file in &skill.files {
            let relative = format!("{}/{}", skill.dir, file.path);
            let target = root.join(&relative);
            check_target(root, &relative)?;
            let same = std::fs::read(&target).is_ok_and(|bytes| bytes == file.bytes);
            plan.push((relative, target, file, same));
        }
    }
    let mut written = SkillsWritten::default();
    for (relative, target, file, same) in plan {
        if same {
            written.unchanged.push(relative);
            continue;
        }
        if let Some(parent) = target.parent() {
            create_folder(parent)?;
        }
        write_bytes_atomically(&target, &file.bytes)?;
        if file.executable {
            make_executable(&target)?;
        }
        written.written.push(relative);
    }
    Ok(written)
}

/// Refuses to write `relative` under `root` when something on its way is not a folder, is a
/// symbolic link, or the file itself is not a regular file.
fn check_target(root: &Path, relative: &str) -> Result<(), Error> {
    let parts: Vec<&str> = relative.split('/').collect();
    let mut path = root.to_path_buf();
    for (index, part) in parts.iter().enumerate() {
        path.push(part);
        let last = index + 1 == parts.len();
        let Ok(metadata) = std::fs::symlink_metadata(&path) else { return Ok(()) };
        let refused = if metadata.file_type().is_symlink() {
            Some("a symbolic link is in the way: nothing was written")
        } else if last && !metadata.is_file() {
            Some("not a regular file, where a skill's file goes: nothing was written")
        } else if !last && !metadata.is_dir() {
            Some("a file, where a skill's folder goes: nothing was written")
        } else {
            None
        };
        if let Some(message) = refused {
            return Err(invalid(&path, message));
        }
    }
    Ok(())
}

#[cfg(unix)]
fn make_executable(path: &Path) -> Result<(), Error> {
    use std::os::unix::fs::PermissionsExt;
    let metadata = std::fs::metadata(path).map_err(io(path, "cannot read"))?;
    let mode = metadata.permissions().mode();
    let executable = mode | ((mode & 0o444) >> 2);
    if executable != mode {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(executable))
            .map_err(io(path, "cannot make executable"))?;
    }
    Ok(())
}

#[cfg(not(unix))]
fn make_executable(_: &Path) -> Result<(), Error> {
    Ok(())
}
