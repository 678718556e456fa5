//! `share`: print a session's bundle (everything its pack is made from, in
//! one file) on stdout. `verify`: rebuild a pack folder from its own
//! `bundle.toml` and name every file that does not match.

use std::io::Write;
use std::path::Path;

use super::Config;
use super::prep::{Asked, build, differences, mismatch, sources};
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
    let (_, files) = build(&src)?;
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
