//! `share`: print a session's bundle (everything its pack is made from, in
//! one file) on stdout; in a campaign, the whole campaign's (its plans,
//! records, party, tables and templates: `prep BUNDLE N` makes any
//! session's pack from it). `verify`: rebuild a pack folder from its own
//! `bundle.toml` and name every file that does not match (one-item PDFs
//! that `prep --only` wrote included, and the pack PDF on each paper the
//! folder holds it on) — the comparison is [`Sources::compare`]; in a
//! campaign without a folder named, every session's pack in `out/`, each
//! said to be ok, stale (made from an older campaign state,
//! [`pack::stale`]) or damaged (files changed or missing).

use std::io::Write;
use std::path::Path;

use crate::diagnostic::Diagnostic;
use crate::error::{Error, UsageError};
use crate::pack::stale::Stale;
use crate::pack::verify::Comparison;
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

/// `verify [DIR]`: without DIR in a campaign, every `out/session-N/`,
/// each told ok, stale (made from an older campaign state: an earlier
/// record edited since) or damaged (files changed or missing).
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
    let stale = match pack::stale::find(ws) {
        Ok(found) => found.packs,
        Err(e) => {
            writeln!(
                err,
                "note: which packs are stale is not known (the records do not fold: \
                 `tablewright campaign` says why): {}",
                e.to_string().lines().next().unwrap_or_default()
            )?;
            Vec::new()
        }
    };
    let mut problems = Vec::new();
    for (k, dir) in &packs {
        let compared = compared(ws, dir, err)?;
        let old = stale.iter().find(|s| s.session == *k);
        problems.extend(status(dir, &compared, old, out)?);
    }
    if problems.is_empty() {
        return Ok(());
    }
    Err(Error::Input(crate::diagnostic::Report {
        headline: Some(format!(
            "{} problem(s) in the campaign's {} pack(s):",
            problems.len(),
            packs.len()
        )),
        diagnostics: problems,
        closing: Some(
            "hint: a stale pack is as its bundle made it, from the campaign as it stood: \
             `tablewright prep --force` makes every stale pack again in order. A damaged one is \
             not as its bundle makes it: `tablewright prep N` puts its missing files back and \
             names the ones you changed"
                .into(),
        ),
    }))
}

/// One campaign pack's problems (damaged, stale), or its ok line.
fn status(
    dir: &Path,
    compared: &Comparison,
    stale: Option<&Stale>,
    out: &mut dyn Write,
) -> Result<Vec<Diagnostic>, Error> {
    let mut problems = Vec::new();
    let d = dir.display();
    if compared.differences.is_empty() && stale.is_none() {
        writeln!(out, "{}", ok_line(dir, compared))?;
    }
    if !compared.differences.is_empty() {
        let what: Vec<String> = compared
            .differences
            .iter()
            .map(|(n, w)| format!("{n} {w}"))
            .collect();
        problems.extend(
            what.iter()
                .map(|w| Diagnostic::message(format!("damaged: {d}: {w}"))),
        );
    }
    if let Some(s) = stale {
        let changed = crate::generators::join_and(&s.changed);
        let line = format!(
            "{d} was made from an older campaign state: {changed} changed since session {}'s \
             pack was made",
            s.session
        );
        problems.push(Diagnostic::message(format!("stale: {line}")));
    }
    Ok(problems)
}

/// The ok line of a pack folder with no damage: every file as its bundle
/// makes it, but for the GM's — files written on since the pack wrote
/// them (kept beside the pack's new version, or the pack's unchanged),
/// and the play log.
fn ok_line(dir: &Path, compared: &Comparison) -> String {
    let d = dir.display();
    let n = compared.files;
    let mut line = match compared.written_on.len() {
        0 => format!("ok: all {n} files in {d} match its bundle.toml"),
        k => format!("ok: {} of {n} files in {d} match its bundle.toml", n - k),
    };
    line.push_str(&yours_note(compared));
    if !compared.written_on.is_empty() {
        let one = compared.written_on.len() == 1;
        line.push_str(&format!(
            "; {} {} written on since the pack wrote {} (yours: the pack's own version of {} is \
             unchanged, so only your writing differs)",
            crate::generators::join_and(&compared.written_on),
            if one { "was" } else { "were" },
            if one { "it" } else { "them" },
            if one { "it" } else { "each" },
        ));
    }
    if !compared.played.is_empty() {
        line.push_str(&format!(
            "; {} {} the GM's, from `play`, not the pack's: left be",
            crate::generators::join_and(&compared.played),
            if compared.played.len() == 1 {
                "is"
            } else {
                "are"
            },
        ));
    }
    line
}

/// The GM's files a pack folder keeps beside the pack's, for its ok line.
fn yours_note(compared: &Comparison) -> String {
    if compared.yours.is_empty() {
        return String::new();
    }
    let each: Vec<String> = compared
        .yours
        .iter()
        .map(|(theirs, ours)| format!("{theirs} is yours, the pack's is {ours}"))
        .collect();
    format!(" ({})", each.join("; "))
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
/// byte for byte (and nothing else is), 1 listing the files that are not;
/// in a campaign, 1 too when DIR is a stale pack of it, told as `prep`
/// tells it ([`pack::stale::of_folder`]).
fn verify_one(
    ws: &Workspace,
    dir: &Path,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    let compared = compared(ws, dir, err)?;
    if !compared.differences.is_empty() {
        return Err(pack::mismatch(dir, compared.differences));
    }
    // One of the campaign's packs: stale is said as `prep` says it.
    if ws.campaign.is_some() {
        match pack::stale::of_folder(ws, dir) {
            Ok(Some(stale)) => return Err(Error::input(stale)),
            Ok(None) => {}
            Err(e) => writeln!(
                err,
                "note: whether {} is stale is not known (the records do not fold: \
                 `tablewright campaign` says why): {}",
                dir.display(),
                e.to_string().lines().next().unwrap_or_default()
            )?,
        }
    }
    writeln!(out, "{}", ok_line(dir, &compared))?;
    Ok(())
}

/// The pack folder `dir` compared with what its own `bundle.toml` makes.
fn compared(ws: &Workspace, dir: &Path, err: &mut dyn Write) -> Result<Comparison, Error> {
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
    Sources::read(ws, &bundle, None, &Asked::default(), err)?.compare(dir)
}
