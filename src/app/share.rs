//! `share`: print a session's bundle (everything its pack is made from, in
//! one file) on stdout. `verify`: rebuild a pack folder from its own
//! `bundle.toml` and name every file that does not match (one-item PDFs
//! that `prep --only` wrote included, and the pack PDF on each paper the
//! folder holds it on).

use std::io::Write;
use std::path::Path;

use super::Config;
use super::prep::{Asked, build, differences, flavours_in, item_pdf, mismatch, pack_pdf, sources};
use crate::diagnostic::Diagnostic;
use crate::error::Error;
use crate::page::pdf::Paper;

/// `share SESSION > bundle.toml`.
pub fn share(
    cfg: &Config,
    path: &Path,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    let src = sources(cfg, path, &Asked::default(), err)?;
    out.write_all(src.bundle.to_text().as_bytes())?;
    Ok(())
}

/// `verify DIR`: exit 0 when every file the bundle makes is in the folder
/// byte for byte (and nothing else is), 1 listing the files that are not.
pub fn verify(
    cfg: &Config,
    dir: &Path,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    let bundle = dir.join("bundle.toml");
    if !bundle.is_file() {
        return Err(Error::input(
            Diagnostic::message(format!(
                "{} has no bundle.toml, so there is nothing to check it against",
                dir.display()
            ))
            .with_hint("verify checks a pack folder made by `tablewright prep`, which writes its bundle.toml"),
        ));
    }
    let mut src = sources(cfg, &bundle, &Asked::default(), err)?;
    // A flavour is a render option the bundle does not record: the
    // folders the pack has are made again and compared too.
    src.flavours = flavours_in(dir);
    let (pack, mut files) = build(&src)?;
    // The paper is a print option: the folder's pack PDFs (A4
    // `pack.pdf`, `pack-letter.pdf`, or both) are each checked on theirs,
    // and a folder with neither is missing `pack.pdf`.
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
        files.insert(1 + i, pack_pdf(&src, &pack, paper));
    }
    // One-item PDFs that `prep --only` wrote are checked too, each on
    // the paper its name says.
    for name in item_pdfs(dir) {
        if let Some(at) = crate::handouts::item_of(&name)
            && let Some(paper) = PAPERS
                .into_iter()
                .find(|p| name == p.pdf_name(&at.file_stem()))
        {
            files.extend(item_pdf(&src, &pack, &at, paper));
        }
    }
    let diffs = differences(dir, &files);
    if !diffs.is_empty() {
        return Err(mismatch(dir, diffs));
    }
    writeln!(
        out,
        "ok: all {} files in {} match its bundle.toml",
        files.len(),
        dir.display()
    )?;
    Ok(())
}

/// The papers a pack folder may hold PDFs on.
const PAPERS: [Paper; 2] = [Paper::A4, Paper::Letter];

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
