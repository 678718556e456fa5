//! `share`: print a session's bundle (everything its pack is made from, in
//! one file) on stdout. `verify`: rebuild a pack folder from its own
//! `bundle.toml` and name every file that does not match (one-item PDFs
//! that `prep --only` wrote included).

use std::io::Write;
use std::path::Path;

use super::Config;
use super::prep::{Asked, build, differences, item_pdf, mismatch, sources};
use crate::diagnostic::Diagnostic;
use crate::error::Error;

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
    let src = sources(cfg, &bundle, &Asked::default(), err)?;
    let (pack, mut files) = build(&src)?;
    // One-item PDFs that `prep --only` wrote are checked too.
    for name in item_pdfs(dir) {
        if let Some(at) = crate::render::handouts::item_of(&name)
            && name == format!("{}.pdf", at.file_stem())
        {
            files.extend(item_pdf(&src, &pack, &at));
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

/// The names of the PDFs in a folder other than `pack.pdf`.
fn item_pdfs(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".pdf") && n != "pack.pdf")
        .collect();
    names.sort();
    names
}
