//! The commands: the command line is read once ([`request::read`]) into the
//! [`Workspace`] and a typed [`Request`], and each command is a thin
//! reading of its request over the library — pack building is
//! [`crate::pack`]'s — that prints text or JSON on the given writers.
//!
//! - [`request`]: arguments checked once into typed per-command requests;
//!   a mistake is a [`crate::error::UsageError`].
//! - [`dice`]: `roll`, `odds`, `check`.
//! - [`tables`]: `tables`, `table`, `odds --table`, `validate`; [`capped`]:
//!   `table`'s results rolled one at a time into bounded output.
//! - [`generate`]: `gen <kind>` for every generator.
//! - [`pack_item`]: `gen <kind> --session SESSION --item N`, one item of a
//!   session's pack exactly.
//! - [`prep`]: `prep`, the session pack (`--only`, `--reroll`, bundles).
//! - [`share`]: `share` (a bundle on stdout) and `verify` (a pack folder
//!   against its bundle).
//! - [`init`]: `init`, a campaign folder to start from.
//! - [`record`]: `record N`, a campaign session's record pre-filled from
//!   its pack.
//! - [`play`]: `play`, the GM's and the players' screens served for a
//!   session at the table.
//! - [`campaign`]: `campaign`, the campaign's ledger: the state now and
//!   what each recorded session changed, by which rule.
//! - [`interop`]: `export` and `import`, tables in other tools' formats.
//! - [`shell`]: `completions` (a shell's completion script) and `manpage`
//!   (the roff manual), both on stdout.
//!
//! - [`fuzzing`]: what the fuzz targets in `fuzz/` call (hidden).
//!
//! Randomness comes only from the seed's streams.

pub(crate) mod campaign;
pub(crate) mod capped;
pub(crate) mod dice;
#[doc(hidden)]
pub mod fuzzing;
pub(crate) mod generate;
pub(crate) mod init;
pub(crate) mod interop;
pub(crate) mod pack_item;
pub(crate) mod play;
pub(crate) mod prep;
pub(crate) mod record;
pub(crate) mod request;
pub(crate) mod share;
pub(crate) mod shell;
pub(crate) mod tables;

use std::io::Write;

use serde::Serialize;

pub use request::Request;

use crate::cli::Cli;
use crate::error::Error;
use crate::terminal::clean::Clean;
use crate::workspace::Workspace;

/// Run one command. `out` receives the results, `err` the notes (the seed
/// that was chosen).
pub fn run(cli: &Cli, out: &mut dyn Write, err: &mut dyn Write) -> Result<(), Error> {
    let (ws, request) = request::read(cli)?;
    // Commands that read tables, templates or packs work in the campaign
    // found walking up from here; the dice and shell commands need none.
    let ws = match request {
        Request::Roll { .. }
        | Request::Odds { .. }
        | Request::Check(_)
        | Request::Init { .. }
        | Request::Completions { .. }
        | Request::Templates { .. }
        | Request::Manpage { .. } => ws,
        _ => ws.find_campaign()?,
    };
    // The terminal's escaping layer: no control character a table, a
    // name or a shared file holds reaches the terminal as itself.
    let mut out = Clean::new(out);
    let mut err = Clean::new(err);
    let done = run_request(&ws, request, &mut out, &mut err);
    let flushed = out.flush().and(err.flush());
    done?;
    Ok(flushed?)
}

/// An error as `main` prints it, through the terminal's escaping layer.
pub fn error_text(e: &Error) -> String {
    crate::terminal::clean::clean(&format!("error: {e}"))
}

/// Run one checked request in a workspace.
pub fn run_request(
    ws: &Workspace,
    request: Request,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    match request {
        Request::Roll { exprs } => dice::roll(ws, &exprs, out, err),
        Request::Odds { expr } => dice::odds(ws, &expr, out),
        Request::TableOdds { id } => {
            tables::table_odds(ws, &id, out).map_err(|e| naming_folders(ws, e))
        }
        Request::Check(pool) => dice::check(ws, pool, out, err),
        Request::CheckGrid(grid) => dice::check_grid(ws, &grid, out),
        Request::Tables { terrains } => tables::list(ws, terrains, out),
        Request::Table { id, times, tag } => tables::roll(ws, &id, times, tag.as_deref(), out, err)
            .map_err(|e| naming_folders(ws, e)),
        Request::Validate => tables::validate(ws, out),
        Request::Prep { what, asked } => prep::run(ws, &what, &asked, out, err),
        Request::Share { session } => share::share(ws, session.as_deref(), out, err),
        Request::Verify { dir } => share::verify(ws, dir.as_deref(), out, err),
        Request::Record { n } => record::run(ws, n, out, err),
        Request::Play(asked) => play::run(ws, asked, out, err),
        Request::Gen(g) => generate::run(ws, &g, out, err).map_err(|e| naming_folders(ws, e)),
        Request::GenItem(item) => pack_item::run(ws, &item, out, err),
        Request::Init { dir, system } => init::run(ws, &dir, system, out),
        Request::Campaign => campaign::run(ws, out),
        Request::Export { ids, format, to } => {
            interop::export(ws, &ids, format, to.as_deref(), out)
        }
        Request::Import {
            files,
            to,
            from,
            skip,
        } => interop::import(ws, &files, &to, interop::Generators { from, skip }, out),
        Request::Completions { shell } => shell::completions(shell, out),
        Request::Templates { to } => shell::templates(ws, to.as_deref(), out),
        Request::Manpage { to } => shell::manpage(ws, to.as_deref(), out),
    }
}

/// A table or archetype the tables lack: the message names the table
/// folders that were read (the campaign's among them), so a GM sees at
/// once whether their own folder was.
fn naming_folders(ws: &Workspace, e: Error) -> Error {
    use crate::generators::GenError;
    use crate::tables::RollError;
    let missing = match &e {
        Error::Table(RollError::UnknownTable { .. })
        | Error::Gen(GenError::Table(RollError::UnknownTable { .. })) => true,
        Error::Gen(GenError::Request(m)) => m.contains("no archetype"),
        _ => false,
    };
    if !missing {
        return e;
    }
    Error::Gen(GenError::Request(format!(
        "{e} (tables read: {})",
        ws.folders_read()
    )))
}

/// Pretty JSON and a newline.
pub(crate) fn json(out: &mut dyn Write, value: &impl Serialize) -> Result<(), Error> {
    serde_json::to_writer_pretty(&mut *out, value).map_err(std::io::Error::from)?;
    writeln!(out)?;
    Ok(())
}
