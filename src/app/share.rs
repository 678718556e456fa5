//! `share`: print a session's bundle (everything its pack is made from, in
//! one file) on stdout. `verify`: rebuild a pack folder from its own
//! `bundle.toml` and name every file that does not match (one-item PDFs
//! that `prep --only` wrote included, and the pack PDF on each paper the
//! folder holds it on) — the comparison is [`Sources::compare`].

use std::io::Write;
use std::path::Path;

use crate::diagnostic::Diagnostic;
use crate::error::Error;
use crate::pack::{self, Asked, Sources};
use crate::workspace::Workspace;

/// `share SESSION > bundle.toml`.
pub(crate) fn share(
    ws: &Workspace,
    path: &Path,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    let src = Sources::read(ws, path, &Asked::default(), err)?;
    out.write_all(src.bundle.to_text().as_bytes())?;
    Ok(())
}

/// `verify DIR`: exit 0 when every file the bundle makes is in the folder
/// byte for byte (and nothing else is), 1 listing the files that are not.
pub(crate) fn verify(
    ws: &Workspace,
    dir: &Path,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    let bundle = dir.join("bundle.toml");
    // Never through a link: what is checked is the folder's own bundle.
    if bundle
        .symlink_metadata()
        .is_ok_and(|m| m.file_type().is_symlink())
    {
        return Err(Error::input(
            Diagnostic::message(format!(
                "{} is a link, not the pack's own bundle",
                bundle.display()
            ))
            .with_hint("a pack folder holds its own files: put the bundle itself there"),
        ));
    }
    if !bundle.is_file() {
        return Err(Error::input(
            Diagnostic::message(format!(
                "{} has no bundle.toml, so there is nothing to check it against",
                dir.display()
            ))
            .with_hint("verify checks a pack folder made by `tablewright prep`, which writes its bundle.toml"),
        ));
    }
    let compared = Sources::read(ws, &bundle, &Asked::default(), err)?.compare(dir)?;
    if !compared.differences.is_empty() {
        return Err(pack::mismatch(dir, compared.differences));
    }
    writeln!(
        out,
        "ok: all {} files in {} match its bundle.toml",
        compared.files,
        dir.display()
    )?;
    Ok(())
}
