//! `prep`: read the session file (or a bundle) into [`Sources`], build the
//! pack ([`crate::pack`]) and write every file (or nothing) into
//! OUT/<seed slug>/ — with the pack's own `bundle.toml`. `--only ADDRESS`
//! writes just those items' files; `--reroll ADDRESS` rerolls items,
//! records it in the session file's `[rerolls]` and rewrites the files
//! that change. `--md FLAVOUR` adds a folder of that Markdown flavour
//! (a render option: not in the bundle, so it never changes the bundle's
//! hash; `--reroll` and `verify` keep every flavour folder the pack
//! already has).
//!
//! One writer at a time: a run holds a lock on the session file's folder
//! from before it reads the session file until its pack is written, so
//! two rerolls at once are one after the other (the second reads what the
//! first recorded), and a run that waits says so. A file of the pack is
//! replaced when its manifest proves it is as the pack wrote it; a sheet
//! the GM wrote on is refused by name, and with `--force` kept, the new
//! version written beside it (`npc-1.new.md`). In a campaign, `prep
//! --force` first makes again, in order, every pack made from an older
//! campaign state (an earlier record edited since: [`pack::stale`]).

use std::io::Write;
use std::path::{Path, PathBuf};

use super::request::PrepWhat;
use crate::error::{Error, UsageError};
use crate::generators::join_and;
use crate::handouts;
use crate::output::{self, Replace, Scope};
use crate::pack::{self, Asked, Reroll, Sources};
use crate::workspace::Workspace;

pub(crate) fn run(
    ws: &Workspace,
    what: &PrepWhat,
    asked: &Asked,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    let (folder, label) = lock_folder_of(ws, what);
    let _lock = output::lock_folder(&folder, || {
        let _ = writeln!(
            err,
            "waiting: another tablewright run is using {label} or its pack; this one goes on when \
             it is done"
        );
    })?;
    remove_temporaries(
        &folder,
        ws.campaign.is_some() && matches!(what, PrepWhat::Session(_)),
    );
    let Some(n) = remaking(ws, what, asked) else {
        return make(ws, what, asked, out, err);
    };
    // `prep [N] --force` in a campaign: every stale pack before N made
    // again, in order, then N; those after N are named.
    let found = pack::stale::find(ws)?;
    let n = n.unwrap_or(found.next);
    let plain = Asked {
        md: asked.md.clone(),
        ..Asked::default()
    };
    for s in found.packs.iter().filter(|s| s.session < n) {
        // Said once the pack is made: a record refused while reading it
        // prints no results.
        let mut said = Vec::new();
        writeln!(
            said,
            "session {}'s pack was made from an older campaign state ({} changed since): making \
             it again",
            s.session,
            join_and(&s.changed)
        )?;
        make(
            ws,
            &PrepWhat::Session(Some(s.session)),
            &plain,
            &mut said,
            err,
        )?;
        out.write_all(&said)?;
    }
    make(ws, &PrepWhat::Session(Some(n)), asked, out, err)?;
    let later: Vec<String> = found
        .packs
        .iter()
        .filter(|s| s.session > n)
        .map(|s| s.session.to_string())
        .collect();
    if !later.is_empty() {
        writeln!(
            err,
            "note: the packs of session(s) {} are still made from an older campaign state: \
             `tablewright prep --force` makes them again",
            join_and(&later)
        )?;
    }
    Ok(())
}

/// In a campaign, a plain `prep [N] --force` (no `--only`, `--reroll`)
/// makes the stale packs again first: `Some(N)` (`None`: the next).
fn remaking(ws: &Workspace, what: &PrepWhat, asked: &Asked) -> Option<Option<usize>> {
    match what {
        PrepWhat::Session(n)
            if ws.force
                && ws.campaign.is_some()
                && asked.only.is_empty()
                && asked.reroll.is_empty() =>
        {
            Some(*n)
        }
        _ => None,
    }
}

/// One pack: read, built and written (the lock is held by [`run`]).
fn make(
    ws: &Workspace,
    what: &PrepWhat,
    asked: &Asked,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    let mut src = read(ws, what, asked, err)?;
    let dir = pack_dir(ws, &src);
    notes(&src, err)?;
    if !asked.reroll.is_empty() {
        src.flavours.extend(pack::flavours_in(&dir));
        return reroll(ws, src.reroll(&asked.reroll, &dir)?, &dir, out, err);
    }
    let (made, mut files) = src.build()?;
    used_up_notes(&made, err)?;
    // `--only` writes part of a pack; without it the set is the whole pack.
    let scope = if asked.only.is_empty() {
        Scope::Whole
    } else {
        files = src.only(&made, files, &asked.only);
        Scope::Part
    };
    if !ws.force && scope == Scope::Whole && pack::behind_rerolls(&dir, &src.bundle) {
        // Only the files the [rerolls] change, and only those the pack
        // wrote and nobody edited since: a note on another sheet stays.
        let files = pack::in_step(&dir, files);
        writeln!(
            err,
            "note: the pack in {} was made before the session's latest [rerolls] (a reroll \
             edited by hand, or one cut short): bringing it in step ({} file(s) change; files \
             you edited that the [rerolls] do not change are left as they are)",
            dir.display(),
            files.len()
        )?;
        let written = output::publish_as(&dir, &files, Scope::Part, Replace::Ours)?.files;
        return report(ws, &dir, &written, out);
    }
    // The pack's own files, as it wrote them, are replaced when what it is
    // made from changed; a file the GM edited is refused by name, or with
    // --force kept, the new version written beside it.
    let replace = match ws.force {
        true => Replace::Beside,
        false if pack::same_source(&dir, &src.bundle) => Replace::Ours,
        // Another session file's pack (the same seed): nothing of it is
        // replaced without --force.
        false => Replace::Nothing,
    };
    let changed = pack::inputs_changed(&dir, &src.bundle);
    // The same inputs (another paper, a missing file): the pack's files
    // are written, none removed (an A4 `pack.pdf` stays beside
    // `pack-letter.pdf`).
    let scope = match scope {
        Scope::Whole if !ws.force && changed.is_empty() => Scope::Part,
        s => s,
    };
    // Only a file of a pack's own name is ever removed (and only as the
    // pack wrote it): an edited manifest cannot widen that.
    let published = match output::publish_pack(&dir, &files, scope, replace, &pack_shaped) {
        Ok(p) => p,
        Err(e) => {
            // Say why the pack there differs: what it was made from changed.
            if !changed.is_empty() {
                writeln!(
                    err,
                    "note: the pack in {} was made before {} changed",
                    dir.display(),
                    join_and(&changed)
                )?;
            }
            return Err(e.into());
        }
    };
    if published.changed && !changed.is_empty() {
        writeln!(
            err,
            "note: the pack in {} was made before {} changed: its own files are made again",
            dir.display(),
            join_and(&changed)
        )?;
    }
    published_notes(&published, err)?;
    report(ws, &dir, &published.files, out)
}

/// The notes a campaign's session reads with.
fn notes(src: &Sources, err: &mut dyn Write) -> Result<(), Error> {
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
    if let Some(c) = &src.campaign
        && !c.gone_holders.is_empty()
    {
        writeln!(
            err,
            "note: no voucher for {}: the plan (sessions/{}/plan.toml) names them, but they are \
             out of the party (`tablewright campaign` says when and why)",
            join_and(&c.gone_holders),
            c.plan_of
        )?;
    }
    if let Some(c) = &src.campaign
        && !c.down_holders.is_empty()
    {
        writeln!(
            err,
            "note: no voucher for {}: the plan names them, but they are at 0 Mettle or below and \
             sit out until healed",
            join_and(&c.down_holders)
        )?;
    }
    Ok(())
}

/// The tables a campaign's pack used up, said once: by the pack that used
/// their last unused rows; then what the pack repeats of what the party
/// met, by kind, with the items.
fn used_up_notes(
    made: &crate::generators::session::Pack,
    err: &mut dyn Write,
) -> Result<(), Error> {
    let Some(c) = &made.campaign else {
        return Ok(());
    };
    for table in &c.used_up {
        let what = if table.starts_with("gen.npc.") {
            "NPC concepts (the NPC cards' archetype lines and their `gen.npc.concept` rows)"
        } else {
            "situations"
        };
        writeln!(
            err,
            "note: this pack uses the last {what} of `{table}` the campaign had not used: \
             from the next one on they may repeat (add rows to the table to keep them fresh)"
        )?;
    }
    for (what, label) in [
        ("situation", "situations"),
        ("trap", "traps"),
        ("concept", "NPC concepts"),
        ("name", "names"),
    ] {
        let mut items: Vec<&str> = c
            .repeats
            .iter()
            .filter(|r| r.what == what)
            .map(|r| r.address.as_str())
            .collect();
        items.dedup();
        if !items.is_empty() {
            writeln!(
                err,
                "note: {label} the party met before come again in {}: their tables have \
                 nothing unused left (listed in the pack's campaign.repeats)",
                items.join(", ")
            )?;
        }
    }
    Ok(())
}

/// What a publication kept of the GM's, each named.
fn published_notes(published: &output::Published, err: &mut dyn Write) -> Result<(), Error> {
    for (theirs, new) in &published.beside {
        writeln!(
            err,
            "kept {theirs}: you edited it, so the pack's new version is beside it as {new} \
             (compare the two, keep what you want, delete the other)"
        )?;
    }
    for name in &published.left {
        writeln!(
            err,
            "note: left {name} as you edited it: the pack's version of it did not change"
        )?;
    }
    for name in &published.kept {
        writeln!(
            err,
            "note: kept {name}: the new pack has no such file, but it is not as the pack wrote it \
             (edited by hand), so it is yours now"
        )?;
    }
    for (was, now) in &published.rescued {
        writeln!(
            err,
            "note: kept {now}: {was} was saved into the pack folder while this run made it"
        )?;
    }
    Ok(())
}

/// The folder whose lock a `prep` holds from before it reads its session
/// (or plan) until its pack is written, and how the waiting line names it:
/// the campaign's, for `prep N` and for any file inside the campaign (a
/// plan named by its path: one lock, as `record N` takes), else the
/// session file's folder.
fn lock_folder_of(ws: &Workspace, what: &PrepWhat) -> (PathBuf, String) {
    lock_of(ws.campaign.as_deref(), what)
}

/// [`lock_folder_of`] for the campaign folder `campaign`.
fn lock_of(campaign: Option<&Path>, what: &PrepWhat) -> (PathBuf, String) {
    let here = |p: Option<&Path>| match p {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let root = campaign.map(|r| here(Some(r)));
    match (what, root) {
        (PrepWhat::File(path, _), Some(root)) if inside(&here(path.parent()), &root) => {
            (root, "the campaign".into())
        }
        (PrepWhat::File(path, _), _) => (here(path.parent()), path.display().to_string()),
        (PrepWhat::Session(_), Some(root)) => (root, "the campaign".into()),
        (PrepWhat::Session(_), None) => (PathBuf::from("."), "session.toml".into()),
    }
}

/// Whether folder `dir` is `root` or below it (by their real paths; a
/// folder that cannot be resolved is not).
fn inside(dir: &Path, root: &Path) -> bool {
    match (std::fs::canonicalize(dir), std::fs::canonicalize(root)) {
        (Ok(d), Ok(r)) => d.starts_with(r),
        _ => false,
    }
}

/// Remove what killed writes of a session file, plan or record left
/// (`.NAME.tw-<16 hex>.tmp`, [`output::remove_temporaries`]) in `folder`,
/// whose lock this run holds, and, for a campaign's root, in each
/// `sessions/N/` below it: every writer of those files holds that lock,
/// so none is a live run's.
pub(super) fn remove_temporaries(folder: &Path, campaign: bool) {
    output::remove_temporaries(folder);
    if !campaign {
        return;
    }
    let Ok(sessions) = std::fs::read_dir(folder.join("sessions")) else {
        return;
    };
    for entry in sessions.flatten() {
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            output::remove_temporaries(&entry.path());
        }
    }
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
        Some(c) => pack::campaign_pack_dir(ws, c.number)
            .unwrap_or_else(|| ws.out.join(format!("session-{}", c.number))),
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
    writeln!(
        out,
        "wrote {} to {}:",
        crate::generators::count(written.len(), "file", "files"),
        dir.display()
    )?;
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
fn reroll(
    ws: &Workspace,
    r: Reroll,
    dir: &Path,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    // A sheet the GM wrote on is refused before the session file changes
    // (with --force, kept: the new version goes beside it).
    let replace = if ws.force {
        Replace::Beside
    } else {
        Replace::Ours
    };
    output::check(dir, &r.all, Scope::Whole, replace)?;
    write_session(&r.path, &r.after)?;
    let published = match output::publish_as(dir, &r.all, Scope::Whole, replace) {
        Ok(p) => p,
        Err(e) => {
            write_session(&r.path, &r.before)?;
            return Err(e.into());
        }
    };
    published_notes(&published, err)?;
    for name in &published.removed {
        writeln!(err, "removed {name}: the rerolled pack has no such file")?;
    }
    // Named: the files the reroll wrote (the whole pack was published,
    // the rest as it was).
    let new: Vec<&str> = (published.beside.iter()).map(|(_, n)| n.as_str()).collect();
    let written: Vec<PathBuf> = (published.files.into_iter())
        .filter(|p| {
            let name = p.strip_prefix(dir).unwrap_or(p).to_string_lossy();
            r.changed.iter().any(|(n, _)| *n == name) || new.contains(&name.as_ref())
        })
        .collect();
    let also: Vec<String> = r.knock_on.iter().map(ToString::to_string).collect();
    // Files rewritten for neither a rerolled item nor a knocked-on one:
    // those the other inputs (a party file edited since) touch.
    let too: Vec<String> = r
        .changed
        .iter()
        .map(|(n, _)| n.clone())
        .filter(|n| !pack_wide(n))
        .filter(|n| {
            handouts::item_of(n).is_none_or(|a| {
                let a = a.to_string();
                !r.counts.contains_key(&a) && !also.contains(&a)
            })
        })
        .collect();
    if ws.json {
        #[derive(serde::Serialize)]
        struct Rerolled<'a> {
            rerolled: &'a std::collections::BTreeMap<String, u32>,
            changed_too: &'a [String],
            inputs_changed: &'a [String],
            rewritten_too: &'a [String],
            written: Vec<String>,
        }
        let written = written.iter().map(|p| p.display().to_string()).collect();
        let report = Rerolled {
            rerolled: &r.counts,
            changed_too: &also,
            inputs_changed: &r.inputs,
            rewritten_too: &too,
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
    if !too.is_empty() {
        let why = if r.inputs.is_empty() {
            "they were missing or not as the pack last wrote them".to_owned()
        } else {
            format!("{} changed since the pack was made", r.inputs.join(", "))
        };
        writeln!(out, "rewritten too: {} ({why})", too.join(", "))?;
    }
    report(ws, dir, &written, out)
}

/// A file every reroll rewrites (the whole pack's, or its bundle).
fn pack_wide(name: &str) -> bool {
    let name = name.rsplit('/').next().unwrap_or(name);
    name == "bundle.toml"
        || name.starts_with("pack.")
        || name.starts_with("pack-")
        || name.starts_with("downtime-")
        || name.starts_with("returning-")
}

/// A name a pack makes: the whole pack's files or an item's
/// (`npc-3.md`, `homebrewery/encounter-1.md`, `map-1-players.svg`); a
/// new version written beside a GM's file (`npc-3.new.md`) is one too
/// (`output` asks about the name it stands beside).
fn pack_shaped(name: &str) -> bool {
    pack_wide(name) || handouts::item_of(name).is_some()
}

/// The session file, edited, written in place (replaced in one step; a
/// session file that is a link is refused, never written through).
fn write_session(path: &Path, text: &str) -> Result<(), Error> {
    output::write_file(path, text.as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod lock_tests {
    use super::*;

    #[test]
    fn a_plan_named_by_its_path_takes_the_campaigns_lock_as_prep_n_does() {
        // Issue 51, finding 9: `prep sessions/3/plan.toml` locked
        // sessions/3/ while `prep 3` locked the campaign: two writers.
        let root = std::env::temp_dir().join(format!("tw-lock-{}", std::process::id()));
        let plan_dir = root.join("sessions/3");
        std::fs::create_dir_all(&plan_dir).unwrap();
        let by_path = PrepWhat::File(plan_dir.join("plan.toml"), None);
        let by_number = PrepWhat::Session(Some(3));
        let (a, said) = lock_of(Some(root.as_path()), &by_path);
        let (b, _) = lock_of(Some(root.as_path()), &by_number);
        assert_eq!(a, b);
        assert_eq!(said, "the campaign");
        // A session file outside the campaign keeps its own folder's lock.
        let outside = std::env::temp_dir().join(format!("tw-lock-out-{}", std::process::id()));
        std::fs::create_dir_all(&outside).unwrap();
        let (c, _) = lock_of(
            Some(root.as_path()),
            &PrepWhat::File(outside.join("s.toml"), None),
        );
        assert_eq!(c, outside);
        let _ = std::fs::remove_dir_all(&root);
        let _ = std::fs::remove_dir_all(&outside);
    }
}
