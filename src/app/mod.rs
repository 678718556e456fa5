//! The commands: each turns parsed arguments into text or JSON on the given
//! writers. The command line is read once into a [`Config`]; each command
//! family has its own file:
//!
//! - [`config`]: the global options made meaningful — the seed (chosen in
//!   one place), the tables, templates, paper and where handouts go.
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
//! - [`interop`]: `export` and `import`, tables in other tools' formats.
//! - [`shell`]: `completions` (a shell's completion script) and `manpage`
//!   (the roff manual), both on stdout.
//!
//! Randomness comes only from the seed's streams.

pub mod capped;
pub mod config;
pub mod dice;
pub mod generate;
pub mod init;
pub mod interop;
pub mod pack_item;
pub mod prep;
pub mod share;
pub mod shell;
pub mod tables;

use std::io::Write;

use serde::Serialize;

pub use config::Config;

use crate::cli::{Cli, Command};
use crate::error::Error;

/// Run one command. `out` receives the results, `err` the notes (the seed
/// that was chosen).
pub fn run(cli: &Cli, out: &mut dyn Write, err: &mut dyn Write) -> Result<(), Error> {
    let cfg = Config::from_cli(&cli.global);
    match &cli.command {
        Command::Roll { exprs } => dice::roll(&cfg, exprs, out, err),
        Command::Odds {
            expr: Some(expr), ..
        } => dice::odds(&cfg, expr, out),
        Command::Odds {
            table: Some(id), ..
        } => tables::table_odds(&cfg, id, out),
        Command::Odds { .. } => Err(Error::Usage(
            "odds: give an expression or --table ID".into(),
        )),
        Command::Check(args) => dice::check(&cfg, args, out, err),
        Command::Tables { terrains } => tables::list(&cfg, *terrains, out),
        Command::Table { id, times, tag } => {
            tables::roll(&cfg, id, *times, tag.as_deref(), out, err)
        }
        Command::Validate => tables::validate(&cfg, out),
        Command::Prep {
            session,
            only,
            reroll,
            md,
        } => {
            let md: Vec<_> = md.iter().map(|&m| m.into()).collect();
            let asked = prep::Asked { only, reroll, md };
            prep::run(&cfg, session, &asked, out, err)
        }
        Command::Share { session } => share::share(&cfg, session, out, err),
        Command::Verify { dir } => share::verify(&cfg, dir, out, err),
        Command::Gen {
            kind,
            count,
            item,
            reroll,
            session,
        } => {
            let items = match item {
                Some(n) => generate::Which::Item(*n),
                None => generate::Which::Count(*count),
            };
            let from = generate::ItemArgs {
                reroll: *reroll,
                session: session.as_deref(),
            };
            generate::run(&cfg, kind, items, &from, out, err)
        }
        Command::Init { dir } => init::run(&cfg, dir, out),
        Command::Export { ids, format, to } => {
            interop::export(&cfg, ids, (*format).into(), to.as_deref(), out)
        }
        Command::Import { files, to } => interop::import(&cfg, files, to, out),
        Command::Completions { shell } => shell::completions(*shell, out),
        Command::Manpage { to } => shell::manpage(&cfg, to.as_deref(), out),
    }
}

/// Pretty JSON and a newline.
pub(crate) fn json(out: &mut dyn Write, value: &impl Serialize) -> Result<(), Error> {
    serde_json::to_writer_pretty(&mut *out, value).map_err(std::io::Error::from)?;
    writeln!(out)?;
    Ok(())
}
