//! Publishing a set of files as one pack folder, all or nothing.
//!
//! The new folder is built whole in a staging folder beside it (inside the
//! same OUT, so on the same file system): every file of the set written
//! fresh (`create_new`, never through an existing name), the files kept
//! from the previous folder hard-linked (links recreated as links, never
//! followed), the manifest last, everything synced. Then the staging
//! folder and the pack folder are exchanged in one step, and the old
//! contents (now in the staging folder) are removed. A kill at any instant
//! leaves either the previous folder or the new one at the pack's name;
//! staging folders a killed run left behind are removed by the next
//! publication into that OUT, which holds OUT's lock while it works, so
//! two runs never publish into one OUT at once.
//!
//! A file of the set may sit one folder down (`homebrewery/pack.md`, see
//! [`manifest::valid_path`]); such a folder is the pack's while the set
//! writes into it or the manifest lists a file in it, and goes with its
//! last file. Any other folder in the pack folder is refused, as before.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use super::manifest::{self, MANIFEST};
use super::{OutputError, sys};

/// What a set of files stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// A whole pack: with `force`, the files the previous pack listed in
    /// its manifest and this set lacks are removed.
    Whole,
    /// Part of a pack (`--only`, `--reroll`): every other file stays.
    Part,
}

/// What a publication did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Published {
    /// The set's files, in the set's order, at their place in the folder.
    pub files: Vec<PathBuf>,
    /// The previous pack's files removed (`Scope::Whole` with `force`).
    pub removed: Vec<String>,
    /// False when the folder already held exactly this: nothing was
    /// written.
    pub changed: bool,
}

/// Prefix of staging folders in OUT.
const STAGE: &str = ".tw-stage-";

/// Tries at a fresh staging name before giving up.
const TRIES: u32 = 16;

/// Publish `files` (name → bytes) as the folder `dir`, all or nothing;
/// see the module doc. Without `force`, a file whose name is taken by
/// different bytes (or by anything but a plain file) is refused before
/// anything is written; identical bytes are never a conflict.
pub fn publish(
    dir: &Path,
    files: &[(String, Vec<u8>)],
    scope: Scope,
    force: bool,
) -> Result<Published, OutputError> {
    if let Some((bad, _)) = files.iter().find(|(n, _)| !manifest::valid_path(n)) {
        return Err(OutputError::Name(bad.clone()));
    }
    let out = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    check_places(&out, dir)?;
    let created = make_folders(&out)?;
    let result = publish_in(&out, dir, files, scope, force);
    if result.is_err() {
        for folder in &created {
            let _ = std::fs::remove_dir(folder);
        }
    }
    result
}

/// Refusals that need no lock: OUT or the pack folder is a file, the pack
/// folder is a link.
fn check_places(out: &Path, dir: &Path) -> Result<(), OutputError> {
    if out.exists() && !out.is_dir() {
        return Err(OutputError::NotAFolder(out.to_owned()));
    }
    match dir.symlink_metadata() {
        Ok(m) if m.file_type().is_symlink() => Err(OutputError::Link(dir.to_owned())),
        Ok(m) if !m.is_dir() => Err(OutputError::NotAFolder(dir.to_owned())),
        _ => Ok(()),
    }
}

/// Create OUT and its missing ancestors; the folders made, deepest first.
fn make_folders(out: &Path) -> Result<Vec<PathBuf>, OutputError> {
    let created: Vec<PathBuf> = out
        .ancestors()
        .take_while(|a| !a.as_os_str().is_empty() && a.symlink_metadata().is_err())
        .map(Path::to_path_buf)
        .collect();
    if let Err(e) = std::fs::create_dir_all(out) {
        for folder in &created {
            let _ = std::fs::remove_dir(folder);
        }
        return Err(OutputError::CannotCreate(out.to_owned(), e));
    }
    Ok(created)
}

fn publish_in(
    out: &Path,
    dir: &Path,
    files: &[(String, Vec<u8>)],
    scope: Scope,
    force: bool,
) -> Result<Published, OutputError> {
    let waiting = || {
        eprintln!(
            "waiting: another tablewright run is writing in {}; this one goes on when it is done",
            out.display()
        );
    };
    let _lock = sys::lock(out, waiting).map_err(|e| OutputError::Lock(out.to_owned(), e))?;
    remove_stale_stages(out);
    // Checked again under the lock: another run may have made it.
    check_places(out, dir)?;
    let current = Current::read(dir)?;
    let plan = plan(dir, &current, files, scope, force)?;
    let paths: Vec<PathBuf> = files.iter().map(|(n, _)| dir.join(n)).collect();
    if !plan.changed {
        return Ok(Published {
            files: paths,
            removed: Vec::new(),
            changed: false,
        });
    }
    let stage = make_stage(out)?;
    if let Err(e) = fill_stage(&stage, dir, files, &plan) {
        let _ = sys::remove_tree(&stage);
        return Err(e);
    }
    swap_in(out, &stage, dir, current.exists)?;
    Ok(Published {
        files: paths,
        removed: plan.removed,
        changed: true,
    })
}

/// Staging folders left by runs that were killed (no run holds OUT's lock
/// but this one, so every one of them is stale). A link is removed, never
/// followed.
fn remove_stale_stages(out: &Path) {
    let Ok(entries) = std::fs::read_dir(out) else {
        return;
    };
    for entry in entries.flatten() {
        if !entry.file_name().to_string_lossy().starts_with(STAGE) {
            continue;
        }
        let path = entry.path();
        match entry.file_type() {
            Ok(t) if t.is_dir() => {
                let _ = sys::remove_tree(&path);
            }
            _ => {
                let _ = std::fs::remove_file(&path);
            }
        }
    }
}

/// One entry of the current pack folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entry {
    File(u64),
    Link,
    Folder,
    Other,
}

/// The pack folder as it is now.
struct Current {
    exists: bool,
    entries: BTreeMap<String, Entry>,
    /// The previous pack's files, from its manifest.
    ours: BTreeSet<String>,
    /// The folders in the pack folder (their entries are in `entries` as
    /// `folder/name`).
    folders: BTreeSet<String>,
    manifest: Option<Vec<u8>>,
}

impl Current {
    fn read(dir: &Path) -> Result<Current, OutputError> {
        let mut current = Current {
            exists: false,
            entries: BTreeMap::new(),
            ours: BTreeSet::new(),
            folders: BTreeSet::new(),
            manifest: None,
        };
        match std::fs::read_dir(dir) {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(current),
            Err(e) => return Err(OutputError::Write(dir.to_owned(), e)),
        };
        current.exists = true;
        current.entries = entries(dir, "")?;
        let folders: Vec<String> = current
            .entries
            .iter()
            .filter(|(_, k)| **k == Entry::Folder)
            .map(|(n, _)| n.clone())
            .collect();
        for folder in folders {
            current
                .entries
                .extend(entries(&dir.join(&folder), &format!("{folder}/"))?);
            current.folders.insert(folder);
        }
        if let Some(Entry::File(len)) = current.entries.get(MANIFEST)
            && *len < 1 << 20
            && let Ok(bytes) = std::fs::read(dir.join(MANIFEST))
        {
            current.ours = manifest::names(&String::from_utf8_lossy(&bytes));
            current.manifest = Some(bytes);
        }
        Ok(current)
    }
}

/// The entries of one folder, each named `prefix` + its name; links are
/// never followed.
fn entries(dir: &Path, prefix: &str) -> Result<BTreeMap<String, Entry>, OutputError> {
    let mut out = BTreeMap::new();
    let list = std::fs::read_dir(dir).map_err(|e| OutputError::Write(dir.to_owned(), e))?;
    for entry in list {
        let entry = entry.map_err(|e| OutputError::Write(dir.to_owned(), e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let kind = match entry.path().symlink_metadata() {
            Ok(m) if m.file_type().is_symlink() => Entry::Link,
            Ok(m) if m.is_file() => Entry::File(m.len()),
            Ok(m) if m.is_dir() => Entry::Folder,
            _ => Entry::Other,
        };
        out.insert(format!("{prefix}{name}"), kind);
    }
    Ok(out)
}

/// The folder a pack file sits in (`homebrewery` for
/// `homebrewery/pack.md`), if any.
fn folder_of(name: &str) -> Option<&str> {
    name.split_once('/').map(|(f, _)| f)
}

/// How the new folder is made from the set and the current folder.
struct Plan {
    /// Entries of the current folder kept (name, what it is).
    carry: Vec<(String, Entry)>,
    /// Folders to make in the new folder (`homebrewery`).
    folders: BTreeSet<String>,
    manifest: String,
    removed: Vec<String>,
    changed: bool,
}

fn plan(
    dir: &Path,
    current: &Current,
    files: &[(String, Vec<u8>)],
    scope: Scope,
    force: bool,
) -> Result<Plan, OutputError> {
    let mut changed = !current.exists;
    let mut conflicts = Vec::new();
    for folder in files.iter().filter_map(|(n, _)| folder_of(n)) {
        match current.entries.get(folder) {
            None | Some(Entry::Folder) => {}
            Some(Entry::Link) => return Err(OutputError::Link(dir.join(folder))),
            Some(_) => return Err(OutputError::NotAFolder(dir.join(folder))),
        }
    }
    for (name, bytes) in files {
        match current.entries.get(name) {
            None => changed = true,
            Some(Entry::Folder) => return Err(OutputError::NotAFile(dir.join(name))),
            Some(Entry::File(len)) if same_bytes(&dir.join(name), *len, bytes) => {}
            Some(_) => {
                changed = true;
                conflicts.push(dir.join(name));
            }
        }
    }
    if !conflicts.is_empty() && !force {
        return Err(OutputError::Exists(conflicts));
    }
    let in_set: BTreeSet<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    let mut carry = Vec::new();
    let mut removed = Vec::new();
    let mut listed: BTreeSet<String> = in_set.iter().map(|n| (*n).to_owned()).collect();
    // A folder is the pack's while the set writes into it or the previous
    // manifest lists a file in it.
    let ours_folder = |f: &str| {
        in_set
            .iter()
            .copied()
            .chain(current.ours.iter().map(String::as_str))
            .any(|n| folder_of(n) == Some(f))
    };
    for (name, kind) in &current.entries {
        if name == MANIFEST || in_set.contains(name.as_str()) {
            continue;
        }
        if current.folders.contains(name) && ours_folder(name) {
            continue;
        }
        if folder_of(name).is_some_and(|f| !ours_folder(f)) {
            // Inside a folder that is refused as a whole below.
            continue;
        }
        if current.ours.contains(name) && scope == Scope::Whole && force {
            removed.push(name.clone());
            changed = true;
            continue;
        }
        if old_temporary(name) {
            changed = true;
            continue;
        }
        match kind {
            Entry::File(_) | Entry::Link => carry.push((name.clone(), *kind)),
            Entry::Folder | Entry::Other => {
                return Err(OutputError::Foreign(dir.join(name)));
            }
        }
        if current.ours.contains(name) {
            listed.insert(name.clone());
        }
    }
    let manifest = manifest::text(&listed);
    if current.manifest.as_deref() != Some(manifest.as_bytes()) {
        changed = true;
    }
    let folders: BTreeSet<String> = in_set
        .iter()
        .copied()
        .chain(carry.iter().map(|(n, _)| n.as_str()))
        .filter_map(folder_of)
        .map(str::to_owned)
        .collect();
    if folders != current.folders {
        changed = true;
    }
    Ok(Plan {
        carry,
        folders,
        manifest,
        removed,
        changed,
    })
}

/// Whether the file at `path` (`len` bytes long) holds exactly `bytes`.
fn same_bytes(path: &Path, len: u64, bytes: &[u8]) -> bool {
    len == bytes.len() as u64 && std::fs::read(path).is_ok_and(|b| b == bytes)
}

/// A temporary file of the versions that wrote handouts one by one
/// (`.NAME.PID.part`, `.NAME.PID-N.part`): left by a kill, never a GM's.
fn old_temporary(name: &str) -> bool {
    let Some(rest) = name.strip_prefix('.').and_then(|n| n.strip_suffix(".part")) else {
        return false;
    };
    let Some((_, tail)) = rest.rsplit_once('.') else {
        return false;
    };
    !tail.is_empty() && tail.chars().all(|c| c.is_ascii_digit() || c == '-')
}

/// A new, empty staging folder in OUT, at a name no one could guess.
fn make_stage(out: &Path) -> Result<PathBuf, OutputError> {
    let mut last = None;
    for _ in 0..TRIES {
        let stage = out.join(format!("{STAGE}{}", sys::unpredictable()));
        match std::fs::create_dir(&stage) {
            Ok(()) => return Ok(stage),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(OutputError::Stage(out.to_owned(), e)),
        }
    }
    let e = last.unwrap_or_else(|| std::io::Error::other("no staging name"));
    Err(OutputError::Write(out.to_owned(), e))
}

/// Write the set, keep what the plan carries, write the manifest, sync.
fn fill_stage(
    stage: &Path,
    dir: &Path,
    files: &[(String, Vec<u8>)],
    plan: &Plan,
) -> Result<(), OutputError> {
    // The new folder (and each of its folders) gets the permissions and
    // group of the one it replaces; the folder's group first, so that
    // what is made in a setgid folder takes its group.
    let kept = sys::Keep::of(dir);
    if let Some(keep) = kept {
        keep.apply_open(stage)
            .map_err(|e| OutputError::Write(dir.to_owned(), e))?;
    }
    let mut folders_kept = Vec::new();
    for folder in &plan.folders {
        let path = stage.join(folder);
        std::fs::create_dir(&path).map_err(|e| OutputError::Write(dir.join(folder), e))?;
        if let Some(keep) = sys::Keep::of(&dir.join(folder)).filter(|_| dir.join(folder).is_dir()) {
            keep.apply_open(&path)
                .map_err(|e| OutputError::Write(dir.join(folder), e))?;
            folders_kept.push((path, keep));
        }
    }
    for (name, bytes) in files {
        let path = stage.join(name);
        write_new(&path, bytes).map_err(|e| OutputError::Write(dir.join(name), e))?;
        // A file replaced keeps its permissions (a handout the GM made
        // private stays private).
        if let Some(keep) = regular_file(&dir.join(name)) {
            keep.apply(&path)
                .map_err(|e| OutputError::Write(dir.join(name), e))?;
        }
    }
    for (name, kind) in &plan.carry {
        carry(&dir.join(name), &stage.join(name), *kind)
            .map_err(|e| OutputError::Write(dir.join(name), e))?;
    }
    write_new(&stage.join(MANIFEST), plan.manifest.as_bytes())
        .map_err(|e| OutputError::Write(dir.join(MANIFEST), e))?;
    if let Some(keep) = regular_file(&dir.join(MANIFEST)) {
        keep.apply(&stage.join(MANIFEST))
            .map_err(|e| OutputError::Write(dir.join(MANIFEST), e))?;
    }
    for folder in &plan.folders {
        let path = stage.join(folder);
        sys::sync_dir(&path).map_err(|e| OutputError::Write(path.clone(), e))?;
    }
    // Exact modes last: a read-only folder is read-only again only now.
    for (path, keep) in folders_kept {
        keep.apply(&path)
            .map_err(|e| OutputError::Write(path.clone(), e))?;
    }
    if let Some(keep) = kept {
        keep.apply(stage)
            .map_err(|e| OutputError::Write(dir.to_owned(), e))?;
    }
    sys::sync_dir(stage).map_err(|e| OutputError::Write(stage.to_owned(), e))
}

/// What to keep of the regular file (not a link) at `path`, if one is
/// there.
fn regular_file(path: &Path) -> Option<sys::Keep> {
    path.symlink_metadata()
        .ok()
        .filter(std::fs::Metadata::is_file)
        .and_then(|_| sys::Keep::of(path))
}

/// Create `path` (it must not exist: a link or file there is never
/// opened), write `bytes` and sync them.
pub(super) fn write_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// Keep one entry of the old folder in the new one: a file by a hard link
/// (or a copy read without following links), a link as the same link.
fn carry(from: &Path, to: &Path, kind: Entry) -> std::io::Result<()> {
    if kind == Entry::Link {
        #[cfg(unix)]
        {
            return std::os::unix::fs::symlink(std::fs::read_link(from)?, to);
        }
        #[cfg(not(unix))]
        {
            return Err(std::io::Error::other("cannot keep a link here"));
        }
    }
    if std::fs::hard_link(from, to).is_ok() {
        return Ok(());
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW);
    }
    let mut source = options.open(from)?;
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut source, &mut bytes)?;
    write_new(to, &bytes)
}

/// Put the staged folder at the pack's name in one step and remove the
/// old contents.
fn swap_in(out: &Path, stage: &Path, dir: &Path, exists: bool) -> Result<(), OutputError> {
    let failed = |e| {
        let _ = sys::remove_tree(stage);
        OutputError::Write(dir.to_owned(), e)
    };
    if !exists {
        std::fs::rename(stage, dir).map_err(failed)?;
    } else {
        match sys::exchange(stage, dir) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::Unsupported => {
                // Two renames: between them the pack's name is empty for
                // an instant (documented; Linux never comes here).
                let old = out.join(format!("{STAGE}{}", sys::unpredictable()));
                std::fs::rename(dir, &old).map_err(failed)?;
                if let Err(e) = std::fs::rename(stage, dir) {
                    let _ = std::fs::rename(&old, dir);
                    return Err(failed(e));
                }
                let _ = sys::remove_tree(&old);
            }
            Err(e) => return Err(failed(e)),
        }
        // The old contents now sit at the staging name.
        let _ = sys::remove_tree(stage);
    }
    sys::sync_dir(out).map_err(|e| OutputError::Write(out.to_owned(), e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_temporaries_are_recognised() {
        assert!(old_temporary(".pack.md.1234.part"));
        assert!(old_temporary(".pack.md.1234-0.part"));
        assert!(!old_temporary("pack.md.part"));
        assert!(!old_temporary(".notes.part"));
        assert!(!old_temporary(".notes.draft.part"));
    }
}
