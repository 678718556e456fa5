//! `prep`: read the session file (or a bundle) into [`Sources`], build the
//! pack ([`crate::pack`]) and write every file (or nothing) into
//! OUT/<seed slug>/ — with the pack's own `bundle.toml`. `--only ADDRESS`
//! writes just those items' files; `--reroll ADDRESS` rerolls items,
//! records it in the session file's `[rerolls]` and rewrites the files
//! that change. `--md FLAVOUR` adds a folder of that Markdown flavour
//! (a render option: not in the bundle, so it never changes the bundle's
//! hash; `--reroll` and `verify` keep every flavour folder the pack
//! already has).

use std::io::Write;
use std::path::{Path, PathBuf};

use super::request::PrepWhat;
use crate::error::{Error, UsageError};
use crate::output::{self, Scope};
use crate::pack::{self, Asked, Reroll, Sources};
use crate::workspace::Workspace;

pub(crate) fn run(
    ws: &Workspace,
    what: &PrepWhat,
    asked: &Asked,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    let mut src = read(ws, what, asked, err)?;
    let dir = pack_dir(ws, &src);
    if let Some(c) = &src.campaign
        && c.plan_of != c.number
    {
        writeln!(
            err,
            "note: session {} has no plan of its own, so it takes session {}'s \
             (sessions/{}/plan.toml) without its [rerolls]",
            c.number, c.plan_of, c.plan_of
        )?;
    }
    if !asked.reroll.is_empty() {
        src.flavours.extend(pack::flavours_in(&dir));
        return reroll(ws, src.reroll(&asked.reroll, &dir)?, &dir, out);
    }
    let (made, mut files) = src.build()?;
    // `--only` writes part of a pack; without it the set is the whole pack.
    let scope = if asked.only.is_empty() {
        Scope::Whole
    } else {
        files = src.only(&made, files, &asked.only);
        Scope::Part
    };
    let mut force = ws.force;
    if !force && scope == Scope::Whole && pack::behind_rerolls(&dir, &src.bundle) {
        writeln!(
            err,
            "note: the pack in {} was made before the session's latest [rerolls] (a reroll \
             edited by hand, or one cut short): bringing it in step",
            dir.display()
        )?;
        force = true;
    }
    let written = output::publish(&dir, &files, scope, force)?.files;
    report(ws, &dir, &written, out)
}

/// The sources of what `prep` is asked to make.
pub(crate) fn read(
    ws: &Workspace,
    what: &PrepWhat,
    asked: &Asked,
    err: &mut dyn Write,
) -> Result<Sources, Error> {
    match what {
        PrepWhat::File(path, number) => Sources::read(ws, path, *number, asked, err),
        PrepWhat::Session(n) if ws.campaign.is_some() => Sources::read_campaign(ws, *n, asked),
        PrepWhat::Session(None) => Sources::read(ws, Path::new("session.toml"), None, asked, err),
        PrepWhat::Session(Some(_)) => Err(UsageError::NotInCampaign {
            what: "`prep N` (a session's number)",
        }
        .into()),
    }
}

/// Where a pack goes: OUT/<seed slug>/, or a campaign's session N to
/// `out/session-N/` in the campaign folder (OUT/session-N/ with `--out`,
/// or outside the campaign, as a campaign's bundle is made).
pub(crate) fn pack_dir(ws: &Workspace, src: &Sources) -> PathBuf {
    match &src.campaign {
        None => ws.pack_dir(&src.seed),
        Some(c) => {
            let name = format!("session-{}", c.number);
            match &ws.campaign {
                Some(root) if ws.out == Path::new("out") => root.join("out").join(name),
                _ => ws.out.join(name),
            }
        }
    }
}

/// What was written: file names, or their paths as JSON.
fn report(
    ws: &Workspace,
    dir: &Path,
    written: &[PathBuf],
    out: &mut dyn Write,
) -> Result<(), Error> {
    if ws.json {
        let names: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
        return super::json(out, &names);
    }
    writeln!(out, "wrote {} files to {}:", written.len(), dir.display())?;
    for p in written {
        // Named from the pack folder (`homebrewery/pack.md`).
        let name = p.strip_prefix(dir).unwrap_or(p).to_string_lossy();
        writeln!(out, "  {name}")?;
    }
    Ok(())
}

/// `--reroll`: the session file written first (replaced in one step), then
/// the files that change: a kill between leaves the session ahead of its
/// pack, which the next plain `prep` brings in step
/// ([`pack::behind_rerolls`]). A pack that cannot be written puts the
/// session file back as it was. Items the reroll changed besides the
/// rerolled ones are named.
fn reroll(ws: &Workspace, r: Reroll, dir: &Path, out: &mut dyn Write) -> Result<(), Error> {
    write_session(&r.path, &r.after)?;
    let written = match output::publish(dir, &r.changed, Scope::Part, true) {
        Ok(p) => p.files,
        Err(e) => {
            write_session(&r.path, &r.before)?;
            return Err(e.into());
        }
    };
    let also: Vec<String> = r.knock_on.iter().map(ToString::to_string).collect();
    if ws.json {
        #[derive(serde::Serialize)]
        struct Rerolled<'a> {
            rerolled: &'a std::collections::BTreeMap<String, u32>,
            changed_too: &'a [String],
            written: Vec<String>,
        }
        let written = written.iter().map(|p| p.display().to_string()).collect();
        let report = Rerolled {
            rerolled: &r.counts,
            changed_too: &also,
            written,
        };
        return super::json(out, &report);
    }
    for (a, n) in &r.counts {
        let file = r.path.display();
        writeln!(out, "rerolled {a} (reroll {n}, recorded in {file})")?;
    }
    for at in &also {
        writeln!(
            out,
            "{at} changed too: it repeated, or no longer repeats, what a rerolled item says"
        )?;
    }
    report(ws, dir, &written, out)
}

/// The session file, edited, written in place (replaced in one step; a
/// session file that is a link is refused, never written through).
fn write_session(path: &Path, text: &str) -> Result<(), Error> {
    output::write_file(path, text.as_bytes())?;
    Ok(())
}
