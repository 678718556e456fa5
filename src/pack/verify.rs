//! A pack folder against what its bundle makes: [`Sources::compare`]
//! builds every file the folder should hold — the flavour folders it has,
//! the pack PDF on each paper it holds one on, the one-item PDFs `prep
//! --only` wrote — and [`differences`] names each file that differs, is
//! missing or is not part of the pack.
//!
//! Nothing in the folder is trusted: an entry is looked at without
//! following a link, only a regular file is read, and never past the
//! length the file it stands for has, so a pipe, a device or a link to
//! `/dev/zero` is named, never waited on or read. A link (even to an
//! identical copy), a folder that is not a flavour's and any other entry
//! the pack does not make are named too, and so is a manifest
//! (`.tablewright-manifest`, which decides what a later run may replace or
//! remove) that does not list exactly the pack's files with the hashes of
//! their bytes.

use std::collections::BTreeSet;
use std::path::Path;

use super::{PackFiles, Sources};
use crate::diagnostic::{Diagnostic, Report};
use crate::error::Error;
use crate::handouts::{self, Flavour};
use crate::output;
use crate::page::pdf::Paper;

/// The papers a pack folder may hold PDFs on.
const PAPERS: [Paper; 2] = [Paper::A4, Paper::Letter];

/// A folder compared with its bundle.
pub(crate) struct Comparison {
    /// How many files were compared.
    pub files: usize,
    /// Each file that does not match: (name, what is wrong).
    pub differences: Vec<(String, &'static str)>,
    /// Files the GM edited that `prep --force` kept, each with the name
    /// the pack's own version is beside it at (`npc-1.new.md`), holding
    /// exactly the bytes the bundle makes: (the GM's, the pack's).
    pub yours: Vec<(String, String)>,
    /// The GM's play log and its lock, when `play PACKDIR` left them
    /// ([`PLAYED`]): named, never compared.
    pub played: Vec<String>,
    /// Markdown sheets the GM wrote on since the pack wrote them
    /// ([`edited`]): the manifest holds the hash of exactly the bytes the
    /// bundle makes for them today, so the pack is as its seed makes it
    /// and only the GM's writing differs. Named on the ok line, never
    /// called damage. (A PDF, SVG, JSON or the bundle that differs is
    /// damage whatever the manifest says: nobody writes notes in those.)
    pub written_on: Vec<String>,
}

impl Sources {
    /// Compare the pack folder `dir` with what these sources make.
    pub(crate) fn compare(mut self, dir: &Path) -> Result<Comparison, Error> {
        // A flavour is a render option the bundle does not record: the
        // folders the pack has are made again and compared too.
        self.flavours = flavours_in(dir);
        let (pack, mut files) = self.build()?;
        // The paper is a print option: the folder's pack PDFs (A4
        // `pack.pdf`, `pack-letter.pdf`, or both) are each checked on
        // theirs, and a folder with neither is missing `pack.pdf`.
        files.retain(|(name, _)| !is_pack_pdf(name));
        let papers: Vec<Paper> = PAPERS
            .into_iter()
            .filter(|p| is_entry(&dir.join(p.pack_pdf()), |t| t.is_file()))
            .collect();
        let papers = if papers.is_empty() {
            vec![Paper::A4]
        } else {
            papers
        };
        for (i, paper) in papers.into_iter().enumerate() {
            files.insert(1 + i, self.pack_pdf(&pack, paper));
        }
        // One-item PDFs that `prep --only` wrote are checked too, each on
        // the paper its name says.
        for name in item_pdfs(dir) {
            if let Some(at) = handouts::item_of(&name)
                && let Some(paper) = PAPERS
                    .into_iter()
                    .find(|p| name == p.pdf_name(&at.file_stem()))
            {
                files.extend(self.item_pdf(&pack, &at, paper));
            }
        }
        let (files, yours) = beside_kept(dir, files);
        let edited = edited(dir, &files);
        let mut differences = differences(dir, &files);
        differences.retain(|(n, _)| !yours.iter().any(|(theirs, _)| theirs == n));
        // The GM's writing on a sheet whose pack version the manifest
        // proves unchanged is theirs, not damage: named, not a difference.
        let written_on: Vec<String> = differences
            .iter()
            .filter(|(n, _)| n.ends_with(".md") && edited.contains(n))
            .map(|(n, _)| n.clone())
            .collect();
        differences.retain(|(n, _)| !written_on.contains(n));
        let played = PLAYED
            .iter()
            .filter(|n| is_entry(&dir.join(n), |t| t.is_file()))
            .map(|n| n.to_string())
            .collect();
        Ok(Comparison {
            files: files.len(),
            differences,
            yours,
            played,
            written_on,
        })
    }
}

fn is_pack_pdf(name: &str) -> bool {
    PAPERS.iter().any(|p| p.pack_pdf() == name)
}

/// The names of the PDFs in a folder other than the pack PDFs.
fn item_pdfs(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".pdf") && !is_pack_pdf(n))
        .collect();
    names.sort();
    names
}

/// The flavours whose folder a pack folder has (`homebrewery/`).
pub(crate) fn flavours_in(dir: &Path) -> Vec<Flavour> {
    Flavour::FOLDERS
        .into_iter()
        .filter(|f| is_entry(&dir.join(f.name()), |t| t.is_dir()))
        .collect()
}

/// Whether `path` itself (a link not followed) is of the type `is`.
fn is_entry(path: &Path, is: impl Fn(&std::fs::FileType) -> bool) -> bool {
    path.symlink_metadata().is_ok_and(|m| is(&m.file_type()))
}

/// What is wrong with the entry at `path` that should hold `bytes`, if
/// anything. A link, a folder or anything but a regular file is named
/// without being followed or read; a regular file is read only when its
/// length is the one expected, and never past it.
fn check_file(path: &Path, bytes: &[u8]) -> Option<&'static str> {
    let meta = match path.symlink_metadata() {
        Ok(m) => m,
        Err(_) => return Some("is missing"),
    };
    let t = meta.file_type();
    if t.is_symlink() {
        return Some("is a link, not the pack's file (a pack holds its own files)");
    }
    if t.is_dir() {
        return Some("is a folder, not the pack's file");
    }
    if !t.is_file() {
        return Some("is not a regular file (a pipe, a socket or a device)");
    }
    if meta.len() != bytes.len() as u64 {
        return Some("differs");
    }
    match output::read_regular(path, bytes.len() as u64) {
        Ok(b) if b == bytes => None,
        Ok(_) => Some("differs"),
        Err(_) => Some("cannot be read as a regular file"),
    }
}

/// What is wrong with the folder's manifest, if anything: it must list
/// every one of the pack's `files` with the hash of its bytes, and nothing
/// else that is in the folder (a pack file the GM deleted may stay
/// listed: nothing is there to replace or remove), and no line that is not
/// one of those. A manifest of format 1, made before the hashes, is held
/// to the names alone.
fn check_manifest(dir: &Path, files: &PackFiles) -> Option<&'static str> {
    let path = dir.join(output::MANIFEST);
    let expected = output::manifest_of(files);
    // The manifest as the pack writes it: nothing to say.
    check_file(&path, expected.as_bytes())?;
    let meta = path.symlink_metadata().ok()?;
    if !meta.file_type().is_file() {
        return check_file(&path, expected.as_bytes());
    }
    let listed = output::listed_in(dir);
    // A name listed without a hash (format 1) proves nothing, so it can
    // never have a file replaced or removed: only its presence counts.
    let made_listed = files.iter().all(|(name, bytes)| match listed.get(name) {
        Some(Some(hash)) => *hash == output::digest(bytes),
        Some(None) => true,
        None => false,
    });
    let others_gone = listed.keys().all(|name| {
        files.iter().any(|(n, _)| n == name) || dir.join(name).symlink_metadata().is_err()
    });
    let read = output::read_regular(&path, 1 << 20).ok()?;
    let lines = String::from_utf8_lossy(&read).lines().count();
    if made_listed && others_gone && lines == listed.len() + 1 {
        return None;
    }
    Some(
        "does not list the pack's files as the pack wrote them (edited?): it decides what a \
         later run may replace or remove",
    )
}

/// The pack's `files` as the folder holds them when `prep --force` kept
/// a file the GM edited: a file that differs whose new version the
/// manifest lists beside it (`npc-1.new.md`) with exactly the bytes the
/// bundle makes is looked for there. The files so named, and each
/// (the GM's name, the pack's).
fn beside_kept(dir: &Path, files: PackFiles) -> (PackFiles, Vec<(String, String)>) {
    let listed = output::listed_in(dir);
    let mut yours = Vec::new();
    let files = files
        .into_iter()
        .map(|(name, bytes)| {
            if check_file(&dir.join(&name), &bytes).is_none() {
                return (name, bytes);
            }
            let hash = output::digest(&bytes);
            let beside = listed.iter().find(|(l, h)| {
                output::beside_of(l).as_deref() == Some(name.as_str())
                    && h.as_deref() == Some(hash.as_str())
                    && check_file(&dir.join(l.as_str()), &bytes).is_none()
            });
            match beside {
                Some((l, _)) => {
                    yours.push((name, l.clone()));
                    (l.clone(), bytes)
                }
                None => (name, bytes),
            }
        })
        .collect();
    (files, yours)
}

/// The pack's files the GM wrote on since the pack wrote them, as `prep`
/// judges it (`output::publish`: it leaves such a file as the GM has it):
/// a regular file (not a link) holding other bytes than the pack's, which
/// the manifest lists with the hash of exactly the pack's bytes.
fn edited(dir: &Path, files: &PackFiles) -> Vec<String> {
    let listed = output::listed_in(dir);
    files
        .iter()
        .filter(|(name, bytes)| {
            check_file(&dir.join(name), bytes) == Some("differs")
                && listed.get(name.as_str()) == Some(&Some(output::digest(bytes)))
        })
        .map(|(name, _)| name.clone())
        .collect()
}

/// The files `play PACKDIR` keeps in a pack folder: its play log and the
/// lock beside it. The GM's, not the pack's: `verify` leaves them be.
pub(crate) const PLAYED: [&str; 2] = ["play.log", "play.lock"];

/// Every file of a pack folder that does not match `files` (what its
/// bundle makes): (name, what is wrong); the play log aside ([`PLAYED`]).
pub(crate) fn differences(dir: &Path, files: &PackFiles) -> Vec<(String, &'static str)> {
    let mut out = Vec::new();
    for (name, bytes) in files {
        if let Some(what) = check_file(&dir.join(name), bytes) {
            out.push((name.clone(), what));
        }
    }
    if let Some(what) = check_manifest(dir, files) {
        out.push((output::MANIFEST.to_owned(), what));
    }
    let made: BTreeSet<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    // The pack's own folders (a Markdown flavour's) are read too.
    let folders: BTreeSet<&str> = made
        .iter()
        .filter_map(|n| n.split_once('/').map(|(f, _)| f))
        .collect();
    let mut extra: Vec<String> = std::iter::once("")
        .chain(folders.iter().copied())
        .flat_map(|f| files_in(dir, f))
        .filter(|n| !made.contains(n.as_str()))
        .filter(|n| !(PLAYED.contains(&n.as_str()) && is_entry(&dir.join(n), |t| t.is_file())))
        .collect();
    extra.sort();
    out.extend(
        extra
            .into_iter()
            .filter(|n| !folders.contains(n.as_str()))
            .map(|n| {
                let what = match dir.join(&n).symlink_metadata().map(|m| m.file_type()) {
                    Ok(t) if t.is_symlink() => "is a link that is not part of the pack",
                    Ok(t) if t.is_dir() => "is a folder that is not part of the pack",
                    Ok(t) if t.is_file() => "is not part of the pack",
                    _ => "is not part of the pack (nor a regular file)",
                };
                (n, what)
            }),
    );
    out
}

/// The visible entries in `dir`'s folder `folder` (`""`: `dir` itself),
/// of every kind, named from `dir` (`homebrewery/pack.md`); a link is
/// never followed (a flavour folder that is a link is not entered).
fn files_in(dir: &Path, folder: &str) -> Vec<String> {
    let prefix = match folder {
        "" => String::new(),
        f => format!("{f}/"),
    };
    if !folder.is_empty() && !is_entry(&dir.join(folder), |t| t.is_dir()) {
        return Vec::new();
    }
    std::fs::read_dir(dir.join(folder))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .map(|n| format!("{prefix}{n}"))
        .collect()
}

/// The files that differ, as the error `verify` exits 1 with.
pub(crate) fn mismatch(dir: &Path, diffs: Vec<(String, &'static str)>) -> Error {
    Error::Input(Report {
        headline: Some(format!(
            "{} file(s) in {} do not match what its bundle.toml makes:",
            diffs.len(),
            dir.display()
        )),
        diagnostics: diffs
            .into_iter()
            .map(|(n, what)| Diagnostic::message(format!("{n} {what}")))
            .collect(),
        closing: Some(
            "hint: make the pack again with `tablewright prep DIR/bundle.toml --force` (the same \
             tool version gives the same bytes)"
                .into(),
        ),
    })
}
