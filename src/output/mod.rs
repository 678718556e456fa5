//! The only code that writes files. Two ways in:
//!
//! - [`publish`]: a set of files becomes one folder (a session pack) all
//!   or nothing — staged beside it, synced, exchanged into place in one
//!   step, under a lock on OUT, with a manifest of the pack's files so
//!   that `--force` replaces exactly the previous pack (see `publish.rs`).
//! - [`write_file`]: one file outside a pack (a session file a command
//!   edits), replaced in one step through a fresh temporary file.
//! - [`Appender`]: a log appended a line at a time, each synced (`play`);
//!   [`Held`]: the lock file `play` holds beside it (one writer).
//! - [`Capped`]: output built whole in memory within a cap (a template's
//!   rendering, `table --times`) before anything is written.
//!
//! Neither ever opens an existing name for writing, follows a link, or
//! writes through one: temporary names are unpredictable and created new
//! (`O_EXCL`), a link at a file's name is a conflict (replaced, as a link,
//! only with `--force`), and a pack folder that is a link is refused.
//! Folder names come from slugs of the seed ([`slug`]), never raw user
//! text.
//!
//! - `publish`: staging, the exchange, stale staging folders, the plan.
//! - `into`: a set published into a folder in place ([`publish_into`],
//!   `import --to`), staged inside it, for a folder whose parent is not
//!   writable.
//! - `beside`: where a pack's new version of a file the GM edited goes
//!   (`npc-1.new.md`).
//! - `manifest`: the pack folder's list of its own files.
//! - `sys`: the exchange, the lock, syncing folders, unguessable names.

mod append;
mod beside;
mod capped;
mod held;
mod into;
mod manifest;
mod publish;
mod sys;

use std::fmt;
use std::path::{Path, PathBuf};

pub(crate) use append::Appender;
pub(crate) use capped::Capped;
pub(crate) use held::Held;
pub(crate) use into::publish_into;
pub(crate) use manifest::{Listed, MANIFEST, digest};
#[cfg(test)]
use publish::publish;
pub(crate) use publish::{Published, Replace, Scope, check, publish_as, publish_pack};
pub(crate) use sys::{Lock, read_regular};

#[derive(Debug)]
pub enum OutputError {
    NotAFolder(PathBuf),
    /// A handout's name is taken by a folder.
    NotAFile(PathBuf),
    CannotCreate(PathBuf, std::io::Error),
    Exists(Vec<PathBuf>),
    Write(PathBuf, std::io::Error),
    /// The pack folder (or a file to replace) is a link.
    Link(PathBuf),
    /// Something in the pack folder that is neither a file nor a link.
    Foreign(PathBuf),
    /// OUT cannot be locked.
    Lock(PathBuf, std::io::Error),
    /// A lock file another process holds, and what it says of itself.
    Held(PathBuf, String),
    /// No staging folder can be made in OUT (OUT is not writable).
    Stage(PathBuf, std::io::Error),
    /// A file name that cannot be a pack's (a bug, never user text).
    Name(String),
    /// Files a run would replace that are not as the pack wrote them
    /// (edited by hand, or never the pack's).
    Edited(Vec<PathBuf>),
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutputError::NotAFolder(p) => write!(
                f,
                "{} is a file, not a folder; choose another --out folder",
                p.display()
            ),
            OutputError::NotAFile(p) => write!(
                f,
                "{} is a folder, so no handout can be written there; move it away or choose another --out",
                p.display()
            ),
            OutputError::CannotCreate(p, e) => write!(
                f,
                "cannot create the folder {}: {e}; make the folder it goes in writable, or \
                 choose a folder you can write to",
                p.display()
            ),
            OutputError::Exists(files) => {
                let list: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
                write!(
                    f,
                    "refusing to overwrite {} existing file(s) that differ: {}; pass --force to replace them, or choose another --out",
                    files.len(),
                    list.join(", ")
                )
            }
            OutputError::Write(p, e) => write!(
                f,
                "cannot write {}: {e}; nothing was changed (the previous files are as they were)",
                p.display()
            ),
            OutputError::Link(p) => write!(
                f,
                "{} is a link; tablewright never writes through a link it did not make, so remove the link or choose another --out",
                p.display()
            ),
            OutputError::Foreign(p) => write!(
                f,
                "{} is in the pack folder but is not a file; move it out of the folder and run again",
                p.display()
            ),
            OutputError::Lock(p, e) => write!(
                f,
                "cannot lock {} to write the pack: {e}; choose a folder you can write to with --out",
                p.display()
            ),
            OutputError::Held(p, said) => write!(
                f,
                "another `tablewright play` is serving this session already, at {} (it holds {}); \
                 use that one, or stop it (Ctrl-C where it runs) and start again",
                match said.is_empty() {
                    true => "an address it has not written yet",
                    false => said,
                },
                p.display()
            ),
            OutputError::Stage(p, e) => write!(
                f,
                "cannot write in {}: {e}; a folder is built whole beside the one it replaces \
                 (so a failure leaves the old one as it was), which needs the folder that holds \
                 it to be writable: make {} writable, or write somewhere you can",
                p.display(),
                p.display()
            ),
            OutputError::Name(n) => write!(f, "`{n}` cannot be the name of a file in a pack"),
            OutputError::Edited(files) => {
                let list: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
                write!(
                    f,
                    "refusing to overwrite {} file(s) that are not as the pack wrote them \
                     (edited by hand, or not the pack's): {}; nothing was changed. To keep them, \
                     pass --force: the pack's new version of each is written beside it (as \
                     NAME.new.EXT); or move them elsewhere and run again",
                    files.len(),
                    list.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for OutputError {}

/// A file-system-safe folder name for a seed: lowercase ASCII letters and
/// digits joined by `-` (at most 48), then 64 bits of a hash of the whole
/// seed (16 hex digits), so that seeds differing only in punctuation or
/// case never share a folder.
pub fn slug(seed: &str) -> String {
    let mut out = String::new();
    for c in seed.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
        if out.len() >= 48 {
            break;
        }
    }
    let base = out.trim_matches('-');
    let tag = format!("{:016x}", crate::hash::short(seed.as_bytes()));
    if base.is_empty() {
        format!("seed-{tag}")
    } else {
        format!("{base}-{tag}")
    }
}

/// The pack file a new version written beside a GM's file stands beside
/// (`npc-1.new.md` → `npc-1.md`), or `None` for any other name.
pub(crate) fn beside_of(name: &str) -> Option<String> {
    beside::base(name)
}

/// The files the manifest in the pack folder `dir` lists, with the hash
/// of the bytes the pack wrote (empty when there is no manifest).
pub(crate) fn listed_in(dir: &Path) -> Listed {
    read_regular(&dir.join(MANIFEST), 1 << 20)
        .map(|b| manifest::listed(&String::from_utf8_lossy(&b)))
        .unwrap_or_default()
}

/// The manifest a pack folder holding exactly `files`, as written, has.
pub(crate) fn manifest_of(files: &[(String, Vec<u8>)]) -> String {
    manifest::of_files(files)
}

/// Lock the folder `dir` for one writer at a time (a session file's
/// folder, held across a whole read-modify-write); `waiting` is called
/// once, before waiting, when another run holds it. Released when the
/// lock is dropped or the process ends.
pub(crate) fn lock_folder(dir: &Path, waiting: impl FnOnce()) -> Result<Lock, OutputError> {
    sys::lock(dir, waiting).map_err(|e| OutputError::Lock(dir.to_owned(), e))
}

/// Replace the file at `path` with `bytes` in one step (for files outside
/// a pack, such as a session file a command edits): a temporary file at an
/// unguessable name beside it, created new, synced, renamed over it. A
/// link at `path` is refused, never written through or replaced.
pub(crate) fn write_file(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| OutputError::Name(path.display().to_string()))?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    match path.symlink_metadata() {
        Ok(m) if m.file_type().is_symlink() => return Err(OutputError::Link(path.to_owned())),
        Ok(m) if m.is_dir() => return Err(OutputError::NotAFile(path.to_owned())),
        _ => {}
    }
    remove_stale_temporaries(&dir, &name);
    let temp = dir.join(format!(
        ".{name}{TEMP_INFIX}{}{TEMP_SUFFIX}",
        sys::unpredictable()
    ));
    // The new file keeps the permissions and group of the one it replaces.
    let keep = path
        .symlink_metadata()
        .ok()
        .filter(std::fs::Metadata::is_file)
        .and_then(|_| sys::Keep::of(path));
    let written = publish::write_new(&temp, bytes)
        .and_then(|()| keep.map_or(Ok(()), |k| k.apply(&temp)))
        .and_then(|()| std::fs::rename(&temp, path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(OutputError::Write(path.to_owned(), e));
    }
    sys::sync_dir(&dir).map_err(|e| OutputError::Write(dir.clone(), e))
}

/// A temporary file of [`write_file`]: `.NAME` + this + 16 hex digits +
/// [`TEMP_SUFFIX`].
const TEMP_INFIX: &str = ".tw-";
const TEMP_SUFFIX: &str = ".tmp";

/// How old a temporary file of ours must be before it is taken for one a
/// killed run left (a live run renames its own within moments).
const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(60);

/// Remove the temporary files a killed [`write_file`] of `name` left in
/// `dir`: exactly our names (`.NAME.tw-<16 hex>.tmp`), plain files (never
/// links), older than a minute (a run that holds no lock cannot tell a
/// killed run's file from a live one's).
fn remove_stale_temporaries(dir: &Path, name: &str) {
    sweep_temporaries(dir, Some(name), STALE_AFTER);
}

/// Remove every temporary file a killed [`write_file`] left in `dir`,
/// whatever its age: exactly our names (`.NAME.tw-<16 hex>.tmp`, any
/// NAME), plain files only (never a link, never a folder). Call it only
/// while holding [`lock_folder`] on the folder that every writer of the
/// files in `dir` locks (as `prep` and `record` do), so no live run is
/// writing one of them. Returns how many were removed.
pub(crate) fn remove_temporaries(dir: &Path) -> usize {
    sweep_temporaries(dir, None, std::time::Duration::ZERO)
}

/// Whether `file` is a temporary name of [`write_file`]'s, for a file
/// named `name` (`None`: any name).
fn is_temporary(file: &str, name: Option<&str>) -> bool {
    let Some(rest) = file.strip_suffix(TEMP_SUFFIX) else {
        return false;
    };
    let Some((head, hex)) = rest.rsplit_once(TEMP_INFIX) else {
        return false;
    };
    let of = match head.strip_prefix('.') {
        Some(of) if !of.is_empty() => of,
        _ => return false,
    };
    hex.len() == 16 && hex.bytes().all(|b| b.is_ascii_hexdigit()) && name.is_none_or(|n| n == of)
}

fn sweep_temporaries(dir: &Path, name: Option<&str>, min_age: std::time::Duration) -> usize {
    let Ok(list) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in list.flatten() {
        if !entry
            .file_name()
            .to_str()
            .is_some_and(|f| is_temporary(f, name))
        {
            continue;
        }
        let path = entry.path();
        let old_enough = path.symlink_metadata().is_ok_and(|m| {
            m.is_file()
                && (min_age.is_zero()
                    || m.modified()
                        .ok()
                        .and_then(|t| t.elapsed().ok())
                        .is_some_and(|age| age >= min_age))
        });
        if old_enough && std::fs::remove_file(&path).is_ok() {
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests;
