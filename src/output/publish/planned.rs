//! The plan of a publish: how the new folder is made from the set and
//! the folder as it is ([`Current`]) — which of the set's files are
//! written and where (the GM's changed files kept, the pack's version
//! beside them), which entries are carried over, removed or kept, the
//! folders to make and the new manifest — and whether anything changes
//! at all. Nothing is written here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::super::manifest::{self, MANIFEST};
use super::super::{OutputError, beside, sys};
use super::{Current, Entry, Replace, Rules, Scope, folder_of};

/// How the new folder is made from the set and the current folder.
pub(in crate::output) struct Plan {
    /// What is written: (name in the folder, index of the set's file).
    pub(super) writes: Vec<(String, usize)>,
    /// The GM's files kept with the pack's version beside: (name, beside).
    pub(super) beside: Vec<(String, String)>,
    /// The GM's files whose pack version did not change.
    pub(super) left: Vec<String>,
    /// Entries of the current folder kept (name, what it is).
    pub(super) carry: Vec<(String, Entry)>,
    /// Folders to make in the new folder (`homebrewery`).
    pub(super) folders: BTreeSet<String>,
    pub(in crate::output) manifest: String,
    pub(super) removed: Vec<String>,
    pub(super) kept: Vec<String>,
    pub(in crate::output) changed: bool,
}

pub(in crate::output) fn plan(
    dir: &Path,
    current: &Current,
    files: &[(String, Vec<u8>)],
    (scope, replace, removable): Rules<'_>,
) -> Result<Plan, OutputError> {
    for folder in files.iter().filter_map(|(n, _)| folder_of(n)) {
        match current.entries.get(folder) {
            None | Some(Entry::Folder) => {}
            Some(Entry::Link(_)) => return Err(OutputError::Link(dir.join(folder))),
            Some(_) => return Err(OutputError::NotAFolder(dir.join(folder))),
        }
    }
    let sorted = sort_set(dir, current, files, replace)?;
    let mut changed = sorted.changed;
    let (writes, beside, left) = (sorted.writes, sorted.beside, sorted.left);
    let in_set: BTreeSet<&str> = writes.iter().map(|(n, _)| n.as_str()).collect();
    // The GM's files at the set's names, kept as they are.
    let theirs: BTreeSet<&str> = left
        .iter()
        .map(String::as_str)
        .chain(beside.iter().map(|(n, _)| n.as_str()))
        .collect();
    let index: BTreeMap<&str, usize> = files
        .iter()
        .enumerate()
        .map(|(i, (n, _))| (n.as_str(), i))
        .collect();
    let mut listed: manifest::Listed = writes
        .iter()
        .map(|(n, i)| (n.clone(), Some(manifest::digest(&files[*i].1))))
        .chain(left.iter().map(|n| {
            let bytes = &files[index[n.as_str()]].1;
            (n.clone(), Some(manifest::digest(bytes)))
        }))
        .collect();
    let removing = scope == Scope::Whole && replace != Replace::Nothing;
    let others = others(
        dir,
        current,
        (&in_set, &theirs),
        removing,
        removable,
        &mut listed,
    )?;
    let (carry, removed, kept) = (others.carry, others.removed, others.kept);
    changed |= others.changed;
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
        writes,
        beside,
        left,
        carry,
        folders,
        manifest,
        removed,
        kept,
        changed,
    })
}

/// What becomes of the folder's entries outside the set.
struct Others {
    /// Carried into the new folder as they are.
    carry: Vec<(String, Entry)>,
    /// The previous pack's files, removed.
    removed: Vec<String>,
    /// The previous pack's files the GM changed: kept, no longer listed.
    kept: Vec<String>,
    changed: bool,
}

/// Sort the folder's entries outside the set (`in_set`; `theirs`, the
/// GM's files at the set's names): carried, removed (`removing`: the
/// previous pack's files that `removable` names and are as it wrote
/// them), or kept; a folder not the pack's refused. Files still listed
/// go to `listed`.
fn others(
    dir: &Path,
    current: &Current,
    (in_set, theirs): (&BTreeSet<&str>, &BTreeSet<&str>),
    removing: bool,
    removable: &dyn Fn(&str) -> bool,
    listed: &mut manifest::Listed,
) -> Result<Others, OutputError> {
    // A folder is the pack's while the set writes into it or the previous
    // manifest lists a file in it.
    let ours_folder = |f: &str| {
        in_set
            .iter()
            .copied()
            .chain(current.listed.keys().map(String::as_str))
            .any(|n| folder_of(n) == Some(f))
    };
    let mut out = Others {
        carry: Vec::new(),
        removed: Vec::new(),
        kept: Vec::new(),
        changed: false,
    };
    for (name, kind) in &current.entries {
        if name == MANIFEST || in_set.contains(name.as_str()) {
            continue;
        }
        if theirs.contains(name.as_str()) {
            out.carry.push((name.clone(), *kind));
            continue;
        }
        if current.folders.contains(name) && ours_folder(name) {
            continue;
        }
        if folder_of(name).is_some_and(|f| !ours_folder(f)) {
            // Inside a folder that is refused as a whole below.
            continue;
        }
        let was_listed = current.listed.get(name);
        if was_listed.is_some() && removing {
            out.changed = true;
            let pack_name = removable(name) || beside::base(name).is_some_and(|b| removable(&b));
            if pack_name && current.unchanged(dir, name) {
                out.removed.push(name.clone());
                continue;
            }
            // Not as the pack wrote it: the GM's now, kept and unlisted.
            out.kept.push(name.clone());
        }
        if old_temporary(name) {
            out.changed = true;
            continue;
        }
        match kind {
            Entry::File(_) | Entry::Link(_) => out.carry.push((name.clone(), *kind)),
            Entry::Folder | Entry::Other => {
                return Err(OutputError::Foreign(dir.join(name)));
            }
        }
        if let Some(hash) = was_listed
            && !removing
        {
            listed.insert(name.clone(), hash.clone());
        }
    }
    Ok(out)
}

/// The set sorted against the folder: what is written where, the GM's
/// files kept (with the new version beside, or left as they are), and
/// whether anything changes.
struct Sorted {
    writes: Vec<(String, usize)>,
    beside: Vec<(String, String)>,
    left: Vec<String>,
    changed: bool,
}

fn sort_set(
    dir: &Path,
    current: &Current,
    files: &[(String, Vec<u8>)],
    replace: Replace,
) -> Result<Sorted, OutputError> {
    let gentle = matches!(replace, Replace::Ours | Replace::Beside);
    let mut changed = !current.exists;
    let mut conflicts = Vec::new();
    let mut left = Vec::new();
    let mut beside: Vec<(String, String)> = Vec::new();
    for (name, bytes) in files {
        match current.entries.get(name) {
            None => changed = true,
            Some(Entry::Folder) => return Err(OutputError::NotAFile(dir.join(name))),
            Some(Entry::File(id)) if same_bytes(&dir.join(name), id.len, bytes) => {}
            Some(Entry::File(_)) if replace != Replace::Nothing && current.unchanged(dir, name) => {
                changed = true;
            }
            // The GM's edit of a file whose pack version is the one the
            // manifest lists: nothing new to write, so it stays.
            Some(Entry::File(_))
                if gentle && current.listed.get(name) == Some(&Some(manifest::digest(bytes))) =>
            {
                left.push(name.clone());
            }
            Some(Entry::Other) if replace == Replace::Beside => {
                return Err(OutputError::Foreign(dir.join(name)));
            }
            // A link is never written through; with --force it is
            // replaced, as a link (its target is untouched).
            Some(Entry::Link(_)) => {
                changed = true;
                if replace != Replace::Beside {
                    conflicts.push(name.clone());
                }
            }
            // The GM's file with the pack's version already beside it
            // (an earlier --force): both stay.
            Some(_) => match already_beside(dir, current, name, bytes).filter(|_| gentle) {
                Some(b) => beside.push((name.clone(), b)),
                None => {
                    changed = true;
                    conflicts.push(name.clone());
                }
            },
        }
    }
    let paths = || conflicts.iter().map(|n| dir.join(n)).collect();
    match replace {
        _ if conflicts.is_empty() => {}
        Replace::Nothing => return Err(OutputError::Exists(paths())),
        Replace::Ours => return Err(OutputError::Edited(paths())),
        Replace::Beside => {
            for name in &conflicts {
                let taken: Vec<&str> = beside
                    .iter()
                    .map(|(_, b): &(String, String)| b.as_str())
                    .collect();
                let free = (0..beside::TRIES)
                    .map(|i| beside::name(name, i))
                    .find(|b| {
                        !taken.contains(&b.as_str())
                            && (!current.entries.contains_key(b) || current.unchanged(dir, b))
                    })
                    .ok_or_else(|| OutputError::Exists(vec![dir.join(name)]))?;
                beside.push((name.clone(), free));
            }
        }
        Replace::All => {}
    }
    let writes = files
        .iter()
        .enumerate()
        .filter(|(_, (n, _))| !left.contains(n))
        .map(|(i, (n, _))| {
            let at = beside.iter().find(|(g, _)| g == n).map_or(n, |(_, b)| b);
            (at.clone(), i)
        })
        .collect();
    Ok(Sorted {
        writes,
        beside,
        left,
        changed,
    })
}

/// The beside name of `name` that the manifest lists, unchanged, with
/// exactly `bytes`: the pack's version put there by an earlier `--force`.
fn already_beside(dir: &Path, current: &Current, name: &str, bytes: &[u8]) -> Option<String> {
    let hash = manifest::digest(bytes);
    (0..beside::TRIES)
        .map(|i| beside::name(name, i))
        .take_while(|b| current.entries.contains_key(b))
        .find(|b| current.listed.get(b) == Some(&Some(hash.clone())) && current.unchanged(dir, b))
}

/// Whether the file at `path` (`len` bytes long) holds exactly `bytes`.
fn same_bytes(path: &Path, len: u64, bytes: &[u8]) -> bool {
    len == bytes.len() as u64 && sys::read_regular(path, len).is_ok_and(|b| b == bytes)
}

/// A temporary file of the versions that wrote handouts one by one
/// (`.NAME.PID.part`, `.NAME.PID-N.part`): left by a kill, never a GM's.
pub(super) fn old_temporary(name: &str) -> bool {
    let Some(rest) = name.strip_prefix('.').and_then(|n| n.strip_suffix(".part")) else {
        return false;
    };
    let Some((_, tail)) = rest.rsplit_once('.') else {
        return false;
    };
    !tail.is_empty() && tail.chars().all(|c| c.is_ascii_digit() || c == '-')
}
