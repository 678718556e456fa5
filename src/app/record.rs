//! `record N`: session N's record (`sessions/N/record.toml`) written for
//! the GM to edit after play, pre-filled from its pack — the day and stop
//! it started at, each item of the pack by address (none met yet), the
//! planned legs, the vouchers in hand, each PC as they started — never
//! over a record without `--force`. The pack's "After the session" sheet
//! prints the same record to mark at the table. A session played with
//! `play` has a play log: the record is made from it
//! ([`crate::play::record`]).

use std::io::Write;

use crate::diagnostic::Diagnostic;
use crate::error::{Error, UsageError};
use crate::output;
use crate::pack::Sources;
use crate::workspace::Workspace;

pub(crate) fn run(
    ws: &Workspace,
    n: usize,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    let Some(root) = &ws.campaign else {
        return Err(UsageError::NotInCampaign { what: "`record N`" }.into());
    };
    if !crate::pack::campaign_prepped(ws, n)
        && let Some(dir) = crate::pack::campaign_pack_dir(ws, n)
    {
        return Err(Error::input(
            Diagnostic::message(format!(
                "session {n} was never prepped: there is no pack in {} to record",
                dir.display()
            ))
            .with_hint(format!(
                "prep it first (`tablewright prep {n}`), play it, then `tablewright record {n}`"
            )),
        ));
    }
    // One writer at a time in the campaign, as `prep N` (which takes the
    // same lock): what killed writes left is removed, none is live.
    let folder = match root.as_os_str().is_empty() {
        true => std::path::Path::new("."),
        false => root.as_path(),
    };
    let _lock = output::lock_folder(folder, || {
        let _ = writeln!(
            err,
            "waiting: another tablewright run is using the campaign; this one goes on when it is \
             done"
        );
    })?;
    super::prep::remove_temporaries(folder, true);
    let src = Sources::read_campaign(ws, Some(n), &Default::default())?;
    let pack = src.generate()?;
    let text = crate::campaign::prefill::record_text(
        &pack.campaign.as_ref().expect("a campaign's pack").after,
    );
    let path = root
        .join("sessions")
        .join(n.to_string())
        .join("record.toml");
    if let Some(log) = crate::play::campaign_log(ws, n).filter(|l| l.is_file()) {
        let fixed = crate::play::fixed_of(n, &src, pack)?;
        return played(ws, fixed, &log, &path, out);
    }
    if path.exists() && !ws.force {
        return Err(output::OutputError::Exists(vec![path]).into());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| output::OutputError::CannotCreate(dir.to_owned(), e))?;
    }
    output::write_file(&path, text.as_bytes())?;
    writeln!(
        out,
        "wrote {}: mark what happened at the table, then `tablewright prep` makes session {}",
        path.display(),
        n + 1
    )?;
    Ok(())
}

/// `record N` for a session played with `play`: the record from its play
/// log, never over a record edited by hand.
fn played(
    ws: &Workspace,
    fixed: crate::play::Fixed,
    log: &std::path::Path,
    path: &std::path::Path,
    out: &mut dyn Write,
) -> Result<(), Error> {
    use crate::play::record::{Written, write_played};
    let n = fixed.session;
    match write_played(ws, fixed, log, path)? {
        Written::Record => writeln!(
            out,
            "wrote {} from the play log ({}): check it, then `tablewright prep` makes session {}",
            path.display(),
            log.display(),
            n + 1
        )?,
        Written::Same => writeln!(
            out,
            "{} already holds what the play log says: nothing written",
            path.display()
        )?,
        Written::Beside(p) => writeln!(
            out,
            "{} was edited by hand, so the play log's record went beside it: {}; merge the two \
             by hand",
            path.display(),
            p.display()
        )?,
    }
    Ok(())
}
