//! A pack folder against what its bundle makes: [`Sources::compare`]
//! builds every file the folder should hold — the flavour folders it has,
//! the pack PDF on each paper it holds one on, the one-item PDFs `prep
//! --only` wrote — and [`differences`] names each file that differs, is
//! missing or is not part of the pack.

use std::collections::BTreeSet;
use std::path::Path;

use super::{PackFiles, Sources};
use crate::diagnostic::{Diagnostic, Report};
use crate::error::Error;
use crate::handouts::{self, Flavour};
use crate::page::pdf::Paper;

/// The papers a pack folder may hold PDFs on.
const PAPERS: [Paper; 2] = [Paper::A4, Paper::Letter];

/// A folder compared with its bundle.
pub(crate) struct Comparison {
    /// How many files were compared.
    pub files: usize,
    /// Each file that does not match: (name, what is wrong).
    pub differences: Vec<(String, &'static str)>,
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
            .filter(|p| dir.join(p.pack_pdf()).is_file())
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
        Ok(Comparison {
            files: files.len(),
            differences: differences(dir, &files),
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
        .filter(|f| dir.join(f.name()).is_dir())
        .collect()
}

/// Every file of a pack folder that does not match `files` (what its
/// bundle makes): (name, what is wrong).
pub(crate) fn differences(dir: &Path, files: &PackFiles) -> Vec<(String, &'static str)> {
    let mut out = Vec::new();
    for (name, bytes) in files {
        match std::fs::read(dir.join(name)) {
            Ok(b) if &b == bytes => {}
            Ok(_) => out.push((name.clone(), "differs")),
            Err(_) => out.push((name.clone(), "is missing")),
        }
    }
    let made: BTreeSet<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    // The pack's own folders (a Markdown flavour's) are read too.
    let folders: BTreeSet<&str> = made
        .iter()
        .filter_map(|n| n.split_once('/').map(|(f, _)| f))
        .collect();
    let mut extra: Vec<String> = std::iter::once("")
        .chain(folders)
        .flat_map(|f| files_in(dir, f))
        .filter(|n| !made.contains(n.as_str()))
        .collect();
    extra.sort();
    out.extend(extra.into_iter().map(|n| (n, "is not part of the pack")));
    out
}

/// The visible files in `dir`'s folder `folder` (`""`: `dir` itself),
/// named from `dir` (`homebrewery/pack.md`).
fn files_in(dir: &Path, folder: &str) -> Vec<String> {
    let prefix = match folder {
        "" => String::new(),
        f => format!("{f}/"),
    };
    std::fs::read_dir(dir.join(folder))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
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
