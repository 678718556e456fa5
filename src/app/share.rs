//! `share`: print a session's bundle (everything its pack is made from, in
//! one file) on stdout; in a campaign, the whole campaign's (its plans,
//! records, party, tables and templates: `prep BUNDLE N` makes any
//! session's pack from it). `verify`: rebuild a pack folder from its own
//! `bundle.toml` and name every file that does not match (one-item PDFs
//! that `prep --only` wrote included, and the pack PDF on each paper the
//! folder holds it on) — the comparison is [`Sources::compare`]; in a
//! campaign without a folder named, every session's pack in `out/`.

use std::io::Write;
use std::path::Path;

use crate::diagnostic::Diagnostic;
use crate::error::{Error, UsageError};
use crate::pack::{self, Asked, Sources};
use crate::workspace::Workspace;

/// `share SESSION > bundle.toml`; `share` in a campaign: the campaign.
pub(crate) fn share(
    ws: &Workspace,
    path: Option<&Path>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    let bundle = match path {
        None if ws.campaign.is_some() => Sources::campaign_bundle(ws)?,
        _ => {
            let path = path.unwrap_or(Path::new("session.toml"));
            Sources::read(ws, path, None, &Asked::default(), err)?.bundle
        }
    };
    out.write_all(bundle.to_text().as_bytes())?;
    Ok(())
}

/// `verify [DIR]`: without DIR in a campaign, every `out/session-N/`.
pub(crate) fn verify(
    ws: &Workspace,
    dir: Option<&Path>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    if let Some(dir) = dir {
        return verify_one(ws, dir, out, err);
    }
    let Some(root) = &ws.campaign else {
        return Err(UsageError::NotInCampaign {
            what: "`verify` without a pack folder",
        }
        .into());
    };
    let packs = campaign_packs(&root.join("out"));
    if packs.is_empty() {
        return Err(Error::input(
            Diagnostic::message(format!(
                "{} holds no session's pack (out/session-N/) to verify",
                root.join("out").display()
            ))
            .with_hint("`tablewright prep` makes the next session's pack"),
        ));
    }
    for (_, dir) in packs {
        verify_one(ws, &dir, out, err)?;
    }
    Ok(())
}

/// The campaign's pack folders in `out` (`session-N`), by session.
fn campaign_packs(out: &Path) -> Vec<(usize, std::path::PathBuf)> {
    let Ok(entries) = std::fs::read_dir(out) else {
        return Vec::new();
    };
    let mut packs: Vec<(usize, std::path::PathBuf)> = entries
        .flatten()
        .filter_map(|e| {
            let n = e
                .file_name()
                .to_str()?
                .strip_prefix("session-")?
                .parse()
                .ok()?;
            e.path()
                .join("bundle.toml")
                .is_file()
                .then(|| (n, e.path()))
        })
        .collect();
    packs.sort();
    packs
}

/// `verify DIR`: exit 0 when every file the bundle makes is in the folder
/// byte for byte (and nothing else is), 1 listing the files that are not.
fn verify_one(
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
    let compared = Sources::read(ws, &bundle, None, &Asked::default(), err)?.compare(dir)?;
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
