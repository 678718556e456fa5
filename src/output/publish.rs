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
//! What may be replaced or removed is decided by the manifest
//! ([`manifest`]): a file is the pack's *and unchanged* only when the
//! manifest lists it with the hash of the bytes it holds now. A pack
//! (`prep`) replaces a file that differs only when so proven
//! ([`Replace::Ours`]); a file the GM edited whose pack version did not
//! change is left as it is; with `--force` ([`Replace::Beside`]) a file the
//! GM edited is still kept, the pack's new version written beside it
//! (`npc-1.new.md`, see `beside.rs`). [`Replace::All`] (other commands'
//! `--force`) replaces whatever is at the set's names. A file the set lacks
//! is removed only when proven, never because the manifest names it. The old contents are removed entry by
//! entry after the exchange: an entry that is not as it was when the plan
//! was made (a note the GM saved into the folder while this run worked) is
//! moved into the new folder, never deleted.
//!
//! A file of the set may sit one folder down (`homebrewery/pack.md`, see
//! [`manifest::valid_path`]); such a folder is the pack's while the set
//! writes into it or the manifest lists a file in it, and goes with its
//! last file. Any other folder in the pack folder is refused, as before.

mod planned;

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use super::manifest::{self, MANIFEST};
use super::{OutputError, sys};
use planned::Plan;
pub(super) use planned::plan;

/// What a set of files stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    /// A whole pack: with `force`, the files the previous pack listed in
    /// its manifest and this set lacks are removed.
    Whole,
    /// Part of a pack (`--only`, `--reroll`): every other file stays.
    Part,
}

/// Which files that differ from the set a publication may replace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Replace {
    /// None: every file whose bytes differ is a conflict (a plain run).
    Nothing,
    /// Those the manifest proves are the pack's and unchanged since it
    /// wrote them; a file edited by hand (or not the pack's) is a
    /// conflict, unless the pack's bytes for it are the ones the manifest
    /// lists (its pack version did not change): then it is left as the GM
    /// has it. With [`Scope::Whole`], proven files the set lacks are
    /// removed.
    Ours,
    /// As [`Replace::Ours`], but a file edited by hand (or not the pack's)
    /// is kept and the set's new version written beside it
    /// (`npc-1.new.md`): a pack's `--force`, which never loses what the GM
    /// wrote.
    Beside,
    /// All (other commands' `--force`); with [`Scope::Whole`], the files
    /// the set lacks that the manifest proves are the pack's and unchanged
    /// are removed.
    All,
}

/// What a publication did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Published {
    /// The set's files written (or already there), in the set's order, at
    /// their place in the folder (a file written beside the GM's at its
    /// beside name).
    pub files: Vec<PathBuf>,
    /// Files of the set the GM edited, kept, with the name the pack's new
    /// version was written at beside each ([`Replace::Beside`]).
    pub beside: Vec<(String, String)>,
    /// Files of the set the GM edited whose pack version did not change:
    /// left as they are, not written.
    pub left: Vec<String>,
    /// The previous pack's files removed (`Scope::Whole` with `force`).
    pub removed: Vec<String>,
    /// False when the folder already held exactly this: nothing was
    /// written.
    pub changed: bool,
    /// Files of the previous pack the set lacks that were not removed
    /// because they are not as the pack wrote them (edited by hand): kept,
    /// and no longer listed as the pack's.
    pub kept: Vec<String>,
    /// Entries that appeared in (or changed in) the pack folder while
    /// this run worked, moved into the new folder: (where they were,
    /// where they are now), both named from the pack folder.
    pub rescued: Vec<(String, String)>,
}

/// Prefix of staging folders in OUT.
const STAGE: &str = ".tw-stage-";

/// Tries at a fresh staging name before giving up.
const TRIES: u32 = 16;

/// Publish `files` (name → bytes) as the folder `dir`, all or nothing;
/// see the module doc. Without `force`, a file whose name is taken by
/// different bytes (or by anything but a plain file) is refused before
/// anything is written; identical bytes are never a conflict. (The unit
/// tests' shorthand: the commands say what they replace with
/// [`publish_as`] or write into a folder with `publish_into`.)
#[cfg(test)]
pub(crate) fn publish(
    dir: &Path,
    files: &[(String, Vec<u8>)],
    scope: Scope,
    force: bool,
) -> Result<Published, OutputError> {
    let replace = if force {
        Replace::All
    } else {
        Replace::Nothing
    };
    publish_as(dir, files, scope, replace)
}

/// [`publish`], with what may be replaced said by [`Replace`].
pub(crate) fn publish_as(
    dir: &Path,
    files: &[(String, Vec<u8>)],
    scope: Scope,
    replace: Replace,
) -> Result<Published, OutputError> {
    publish_pack(dir, files, scope, replace, &|_| true)
}

/// [`publish_as`] for a pack whose files have names only a pack makes:
/// a file the set lacks is removed only when `removable` says its name
/// is such a name (besides being listed and unchanged), so that no
/// manifest, however edited, can have any other file removed.
pub(crate) fn publish_pack(
    dir: &Path,
    files: &[(String, Vec<u8>)],
    scope: Scope,
    replace: Replace,
    removable: &dyn Fn(&str) -> bool,
) -> Result<Published, OutputError> {
    let out = checked_out(dir, files)?;
    let created = make_folders(&out)?;
    let result = publish_in(&out, dir, files, (scope, replace, removable));
    if result.is_err() {
        for folder in &created {
            let _ = std::fs::remove_dir(folder);
        }
    }
    result
}

/// OUT, the folder the pack folder `dir` is in, after the refusals that
/// need no lock: a file name a pack cannot have, OUT or the pack folder a
/// file, the pack folder a link.
fn checked_out(dir: &Path, files: &[(String, Vec<u8>)]) -> Result<PathBuf, OutputError> {
    if let Some((bad, _)) = files.iter().find(|(n, _)| !manifest::valid_path(n)) {
        return Err(OutputError::Name(bad.clone()));
    }
    let out = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    check_places(&out, dir)?;
    Ok(out)
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

/// Whether [`publish_as`] would refuse (a conflict, a foreign entry),
/// checked without writing anything: a command that must change another
/// file first (`--reroll`, the session file) asks before it does.
pub(crate) fn check(
    dir: &Path,
    files: &[(String, Vec<u8>)],
    scope: Scope,
    replace: Replace,
) -> Result<(), OutputError> {
    checked_out(dir, files)?;
    let current = Current::read(dir)?;
    plan(dir, &current, files, (scope, replace, &|_| true)).map(|_| ())
}

/// What a publication stands for, may replace and may remove.
pub(super) type Rules<'a> = (Scope, Replace, &'a dyn Fn(&str) -> bool);

fn publish_in(
    out: &Path,
    dir: &Path,
    files: &[(String, Vec<u8>)],
    rules: Rules<'_>,
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
    let plan = plan(dir, &current, files, rules)?;
    let paths: Vec<PathBuf> = plan.writes.iter().map(|(n, _)| dir.join(n)).collect();
    if !plan.changed {
        return Ok(Published {
            files: paths,
            beside: plan.beside,
            left: plan.left,
            removed: Vec::new(),
            changed: false,
            kept: Vec::new(),
            rescued: Vec::new(),
        });
    }
    let stage = make_stage(out)?;
    if let Err(e) = fill_stage(&stage, dir, files, &plan) {
        let _ = sys::remove_tree(&stage);
        return Err(e);
    }
    let old = swap_in(out, &stage, dir, current.exists)?;
    let rescued = old.map_or_else(Vec::new, |old| clear_old(out, &old, dir, &current));
    sys::sync_dir(out).map_err(|e| OutputError::Write(out.to_owned(), e))?;
    Ok(Published {
        files: paths,
        beside: plan.beside,
        left: plan.left,
        removed: plan.removed,
        changed: true,
        kept: plan.kept,
        rescued,
    })
}

/// Staging folders left by runs that were killed (no run holds OUT's lock
/// but this one, so every one of them is stale). A link is removed, never
/// followed.
pub(super) fn remove_stale_stages(out: &Path) {
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

/// One entry of the current pack folder; a file or link with what tells
/// it from another at the same name or the same one changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entry {
    File(Ident),
    Link(Ident),
    Folder,
    Other,
}

/// A file's identity and state: its device and inode, length and
/// modification time. The same `Ident` later means the same, unchanged
/// file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Ident {
    len: u64,
    dev: u64,
    ino: u64,
    modified: Option<std::time::SystemTime>,
}

impl Ident {
    fn of(meta: &std::fs::Metadata) -> Ident {
        #[cfg(unix)]
        let (dev, ino) = {
            use std::os::unix::fs::MetadataExt;
            (meta.dev(), meta.ino())
        };
        #[cfg(not(unix))]
        let (dev, ino) = (0, 0);
        Ident {
            len: meta.len(),
            dev,
            ino,
            modified: meta.modified().ok(),
        }
    }
}

/// What is at `path` (a link not followed).
fn entry_at(path: &Path) -> Entry {
    match path.symlink_metadata() {
        Ok(m) if m.file_type().is_symlink() => Entry::Link(Ident::of(&m)),
        Ok(m) if m.is_file() => Entry::File(Ident::of(&m)),
        Ok(m) if m.is_dir() => Entry::Folder,
        _ => Entry::Other,
    }
}

/// The pack folder as it is now.
pub(super) struct Current {
    exists: bool,
    entries: BTreeMap<String, Entry>,
    /// The previous pack's files, from its manifest, with the hash of the
    /// bytes it wrote.
    listed: manifest::Listed,
    /// The folders in the pack folder (their entries are in `entries` as
    /// `folder/name`).
    folders: BTreeSet<String>,
    manifest: Option<Vec<u8>>,
}

impl Current {
    pub(super) fn read(dir: &Path) -> Result<Current, OutputError> {
        let mut current = Current {
            exists: false,
            entries: BTreeMap::new(),
            listed: manifest::Listed::new(),
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
        if let Some(Entry::File(_)) = current.entries.get(MANIFEST)
            && let Ok(bytes) = sys::read_regular(&dir.join(MANIFEST), 1 << 20)
        {
            current.listed = manifest::listed(&String::from_utf8_lossy(&bytes));
            current.manifest = Some(bytes);
        }
        Ok(current)
    }

    /// Whether the file at `name` is the previous pack's as it wrote it:
    /// a plain file the manifest lists with the hash of its bytes.
    fn unchanged(&self, dir: &Path, name: &str) -> bool {
        let (Some(Entry::File(id)), Some(Some(hash))) =
            (self.entries.get(name), self.listed.get(name))
        else {
            return false;
        };
        sys::read_regular(&dir.join(name), id.len)
            .is_ok_and(|bytes| manifest::digest(&bytes) == *hash)
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
        let kind = entry_at(&entry.path());
        out.insert(format!("{prefix}{name}"), kind);
    }
    Ok(out)
}

/// The folder a pack file sits in (`homebrewery` for
/// `homebrewery/pack.md`), if any.
fn folder_of(name: &str) -> Option<&str> {
    name.split_once('/').map(|(f, _)| f)
}

/// A new, empty staging folder in OUT, at a name no one could guess.
pub(super) fn make_stage(out: &Path) -> Result<PathBuf, OutputError> {
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
    for (name, i) in &plan.writes {
        let path = stage.join(name);
        let bytes = &files[*i].1;
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
pub(super) fn regular_file(path: &Path) -> Option<sys::Keep> {
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
    if matches!(kind, Entry::Link(_)) {
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
    let len = match kind {
        Entry::File(id) => id.len,
        _ => 0,
    };
    write_new(to, &sys::read_regular(from, len)?)
}

/// Put the staged folder at the pack's name in one step; where the old
/// contents now are (`None` when there were none).
fn swap_in(
    out: &Path,
    stage: &Path,
    dir: &Path,
    exists: bool,
) -> Result<Option<PathBuf>, OutputError> {
    let failed = |e| {
        let _ = sys::remove_tree(stage);
        OutputError::Write(dir.to_owned(), e)
    };
    if !exists {
        std::fs::rename(stage, dir).map_err(failed)?;
        return Ok(None);
    }
    match sys::exchange(stage, dir) {
        // The old contents now sit at the staging name.
        Ok(()) => Ok(Some(stage.to_owned())),
        Err(e) if e.kind() == std::io::ErrorKind::Unsupported => {
            // Two renames: between them the pack's name is empty for
            // an instant (documented; Linux never comes here).
            let old = out.join(format!("{STAGE}{}", sys::unpredictable()));
            std::fs::rename(dir, &old).map_err(failed)?;
            if let Err(e) = std::fs::rename(stage, dir) {
                let _ = std::fs::rename(&old, dir);
                return Err(failed(e));
            }
            Ok(Some(old))
        }
        Err(e) => Err(failed(e)),
    }
}

/// Remove the old contents at `old`, entry by entry: what is as it was
/// when the plan was made goes; anything else (a file the GM saved into
/// the pack folder, or edited, while this run worked) is moved into the
/// new folder `dir` — at its own name when that is free, else beside it
/// as `NAME.kept`, `NAME.kept-2`… When something cannot be moved, the old
/// folder is left in OUT as `<pack>-left-<16 hex>` rather than lose it.
/// What was moved, named from the pack folder.
fn clear_old(out: &Path, old: &Path, dir: &Path, current: &Current) -> Vec<(String, String)> {
    let mut rescued = Vec::new();
    let mut stuck = false;
    let mut folders = vec![String::new()];
    while let Some(prefix) = folders.pop() {
        let Ok(list) = std::fs::read_dir(old.join(&prefix)) else {
            stuck = true;
            continue;
        };
        for entry in list.flatten() {
            let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
            let now = entry_at(&entry.path());
            let was = current.entries.get(&name);
            if now == Entry::Folder && was == Some(&Entry::Folder) && prefix.is_empty() {
                folders.push(format!("{name}/"));
                continue;
            }
            if was == Some(&now) || same_file(&now, &dir.join(&name)) {
                continue;
            }
            match rescue(&entry.path(), dir, &name) {
                Some(to) => rescued.push((name, to)),
                None => stuck = true,
            }
        }
    }
    if stuck {
        let pack = dir
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let left = out.join(format!("{pack}-left-{}", sys::unpredictable()));
        let _ = std::fs::rename(old, left);
    } else {
        let _ = sys::remove_tree(old);
    }
    rescued.sort();
    rescued
}

/// Whether `entry` (of the old folder) is the very file at `path` (a file
/// carried into the new folder by a hard link).
fn same_file(entry: &Entry, path: &Path) -> bool {
    match (entry, entry_at(path)) {
        (Entry::File(a), Entry::File(b)) => a.dev == b.dev && a.ino == b.ino,
        _ => false,
    }
}

/// Move `from` into `dir` at `name`, or beside it when that is taken; the
/// name it got.
fn rescue(from: &Path, dir: &Path, name: &str) -> Option<String> {
    (1..=100)
        .map(|i| match i {
            1 => name.to_owned(),
            2 => format!("{name}.kept"),
            _ => format!("{name}.kept-{}", i - 1),
        })
        .find(|to| sys::rename_new(from, &dir.join(to)).is_ok())
}

#[cfg(test)]
mod tests {
    use super::planned::old_temporary;
    use super::*;

    #[test]
    fn old_temporaries_are_recognised() {
        assert!(old_temporary(".pack.md.1234.part"));
        assert!(old_temporary(".pack.md.1234-0.part"));
        assert!(!old_temporary("pack.md.part"));
        assert!(!old_temporary(".notes.part"));
        assert!(!old_temporary(".notes.draft.part"));
    }

    /// A file the GM saves into the pack folder (or rewrites there) after
    /// the plan was made and before the exchange is moved into the new
    /// folder, never removed with the old contents.
    #[test]
    fn what_is_saved_while_a_run_works_is_kept() {
        let root = std::env::temp_dir().join(format!("tw-publish-race-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let out = root.join("out");
        let dir = out.join("pack");
        let set = |f: &[(&str, &str)]| -> Vec<(String, Vec<u8>)> {
            f.iter()
                .map(|(n, b)| ((*n).to_owned(), b.as_bytes().to_vec()))
                .collect()
        };
        publish(
            &dir,
            &set(&[("a.md", "1"), ("b.md", "2"), ("c.md", "3")]),
            Scope::Whole,
            false,
        )
        .unwrap();
        let files = set(&[("a.md", "new")]);
        let current = Current::read(&dir).unwrap();
        let plan = plan(
            &dir,
            &current,
            &files,
            (Scope::Whole, Replace::All, &|_| true),
        )
        .unwrap();
        assert_eq!(plan.removed, ["b.md", "c.md"]);
        let stage = make_stage(&out).unwrap();
        fill_stage(&stage, &dir, &files, &plan).unwrap();
        // Meanwhile the GM saves a note, rewrites a.md and writes on b.md.
        std::fs::write(dir.join("notes.md"), "mine").unwrap();
        std::fs::write(dir.join("a.md"), "the GM's a").unwrap();
        std::fs::write(dir.join("b.md"), "the GM's b").unwrap();
        let old = swap_in(&out, &stage, &dir, true).unwrap().unwrap();
        let rescued = clear_old(&out, &old, &dir, &current);
        let read = |n: &str| std::fs::read_to_string(dir.join(n)).unwrap();
        assert_eq!(read("notes.md"), "mine");
        assert_eq!(read("a.md"), "new");
        assert_eq!(read("a.md.kept"), "the GM's a");
        assert_eq!(read("b.md"), "the GM's b");
        assert!(!dir.join("c.md").exists());
        assert_eq!(rescued.len(), 3, "{rescued:?}");
        let left: Vec<_> = std::fs::read_dir(&out).unwrap().flatten().collect();
        assert_eq!(left.len(), 1, "the old contents are gone");
        std::fs::remove_dir_all(&root).unwrap();
    }
}
