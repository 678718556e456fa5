//! Files published into a folder in place (`import --to DIR`, `export
//! --to DIR`): for a folder a GM shares, which they may write in though
//! not in the folder that holds it, so no sibling can be built to take
//! its place. Under the same lock as [`super::publish`] (on the folder
//! that holds DIR), the set is staged inside DIR (`DIR/.tw-stage-<x>`,
//! every file written new and synced) and only then each file is renamed
//! into place, the manifest last.
//!
//! The promise, as far as one folder allows: a failure while staging (a
//! full disk, a file that cannot be written) leaves DIR as it was; a file
//! is never seen half-written (each arrives by one rename); a kill while
//! the files are moved in leaves some new and some old, each whole, and
//! running the same command again completes it. Stages a killed run left
//! in DIR are removed by the next run.

use std::path::{Path, PathBuf};

use super::manifest::{self, MANIFEST};
use super::publish::{
    Current, Published, Replace, Scope, make_stage, plan, regular_file, remove_stale_stages,
    write_new,
};
use super::{OutputError, sys};

/// Publish `files` (plain names, no folders) into the folder `dir` in
/// place; `replace` says which files that differ may be replaced (see
/// [`Replace`]), every other file of DIR stays.
pub(crate) fn publish_into(
    dir: &Path,
    files: &[(String, Vec<u8>)],
    replace: Replace,
) -> Result<Published, OutputError> {
    if let Some((bad, _)) = files
        .iter()
        .find(|(n, _)| !manifest::valid_path(n) || n.contains('/'))
    {
        return Err(OutputError::Name(bad.clone()));
    }
    match dir.symlink_metadata() {
        Ok(m) if m.file_type().is_symlink() => return Err(OutputError::Link(dir.to_owned())),
        Ok(m) if !m.is_dir() => return Err(OutputError::NotAFolder(dir.to_owned())),
        Ok(_) => {}
        Err(_) => std::fs::create_dir_all(dir)
            .map_err(|e| OutputError::CannotCreate(dir.to_owned(), e))?,
    }
    let out = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let waiting = || {
        eprintln!(
            "waiting: another tablewright run is writing in {}; this one goes on when it is done",
            out.display()
        );
    };
    let _lock = sys::lock(&out, waiting).map_err(|e| OutputError::Lock(out.clone(), e))?;
    remove_stale_stages(dir);
    let current = Current::read(dir)?;
    let plan = plan(dir, &current, files, (Scope::Part, replace, &|_| true))?;
    let paths: Vec<PathBuf> = files.iter().map(|(n, _)| dir.join(n)).collect();
    let published = |changed| Published {
        files: paths.clone(),
        removed: Vec::new(),
        changed,
        kept: Vec::new(),
        rescued: Vec::new(),
        beside: Vec::new(),
        left: Vec::new(),
    };
    if !plan.changed {
        return Ok(published(false));
    }
    let stage = make_stage(dir)?;
    let staged = stage_files(&stage, dir, files, &plan.manifest);
    if let Err(e) = staged {
        let _ = sys::remove_tree(&stage);
        return Err(e);
    }
    let names = files.iter().map(|(n, _)| n.as_str()).chain([MANIFEST]);
    for name in names {
        std::fs::rename(stage.join(name), dir.join(name))
            .map_err(|e| OutputError::Write(dir.join(name), e))?;
    }
    let _ = std::fs::remove_dir(&stage);
    sys::sync_dir(dir).map_err(|e| OutputError::Write(dir.to_owned(), e))?;
    Ok(published(true))
}

/// Every file of the set and the manifest written new in `stage`, each
/// keeping the permissions of the file it replaces, all synced.
fn stage_files(
    stage: &Path,
    dir: &Path,
    files: &[(String, Vec<u8>)],
    manifest: &str,
) -> Result<(), OutputError> {
    let all = files
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .chain([(MANIFEST, manifest.as_bytes())]);
    for (name, bytes) in all {
        let path = stage.join(name);
        write_new(&path, bytes).map_err(|e| OutputError::Write(dir.join(name), e))?;
        if let Some(keep) = regular_file(&dir.join(name)) {
            keep.apply(&path)
                .map_err(|e| OutputError::Write(dir.join(name), e))?;
        }
    }
    sys::sync_dir(stage).map_err(|e| OutputError::Write(stage.to_owned(), e))
}
