//! `table --times N` output, bounded: results are rolled one at a time
//! (`Library::roll_each`) and written, as text or JSON, into a buffer of
//! at most [`MAX_OUTPUT`] bytes that reaches the terminal only when every
//! result is in. Memory holds the output and one result's tree, never
//! every result's tree; a refusal prints nothing.

use std::cell::RefCell;
use std::io::Write;

use serde::Serialize;
use serde::ser::{Error as _, SerializeSeq, Serializer};

use crate::content::Library;
use crate::error::{Error, UsageError};
use crate::output::Capped;
use crate::seed::Seed;
use crate::tables::{RollError, TableRoll};
use crate::terminal;

/// The most bytes `table` prints in one run (64 MiB).
pub(crate) const MAX_OUTPUT: usize = 64 << 20;

/// What to roll: `times` results of table `id` (only rows tagged `tag`).
pub(crate) struct Ask<'a> {
    pub library: &'a Library,
    pub id: &'a str,
    pub times: usize,
    pub tag: Option<&'a str>,
    pub seed: &'a Seed,
}

/// The results as `table` prints them (text, or pretty JSON when `json`),
/// built whole in memory within [`MAX_OUTPUT`], then written to `out`.
pub(crate) fn print(ask: &Ask, json: bool, out: &mut dyn Write) -> Result<(), Error> {
    let mut buf = Capped::new(MAX_OUTPUT);
    let done = if json {
        write_json(ask, &mut buf)
    } else {
        write_text(ask, &mut buf)
    };
    if buf.over() {
        return Err(UsageError::TableOutput {
            times: ask.times,
            id: ask.id.to_owned(),
            max_mib: MAX_OUTPUT >> 20,
        }
        .into());
    }
    done?;
    out.write_all(buf.bytes())?;
    Ok(())
}

/// One line and its trail per result.
fn write_text(ask: &Ask, buf: &mut Capped) -> Result<(), Error> {
    ask.library
        .roll_each(ask.id, ask.times, ask.tag, ask.seed, |r| {
            writeln!(buf, "{}", terminal::table_roll_text(&r))?;
            Ok::<(), Error>(())
        })
}

/// `{ "seed", "table", "results": [...] }`, pretty, as `--json` prints
/// every report; the results are serialised as they are rolled.
fn write_json(ask: &Ask, buf: &mut Capped) -> Result<(), Error> {
    let results = Lazy {
        ask,
        failed: RefCell::new(None),
    };
    let report = Report {
        seed: ask.seed.as_str(),
        table: ask.id,
        results: &results,
    };
    // Through `&mut dyn Write`, as the crate writes all its JSON.
    let written = serde_json::to_writer_pretty(buf as &mut dyn Write, &report);
    if let Some(e) = results.failed.into_inner() {
        return Err(e.into());
    }
    written.map_err(std::io::Error::from)?;
    writeln!(buf)?;
    Ok(())
}

#[derive(Serialize)]
struct Report<'a> {
    seed: &'a str,
    table: &'a str,
    results: &'a Lazy<'a>,
}

/// The results, rolled while they are serialised; a roll's refusal is
/// kept in `failed` (the serialiser only carries a message).
struct Lazy<'a> {
    ask: &'a Ask<'a>,
    failed: RefCell<Option<RollError>>,
}

/// Why serialising the results stopped.
enum Stop<E> {
    Roll(RollError),
    Write(E),
}

impl<E> From<RollError> for Stop<E> {
    fn from(e: RollError) -> Self {
        Stop::Roll(e)
    }
}

impl Serialize for Lazy<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let ask = self.ask;
        let mut seq = serializer.serialize_seq(Some(ask.times))?;
        let rolled = ask
            .library
            .roll_each(ask.id, ask.times, ask.tag, ask.seed, |r: TableRoll| {
                seq.serialize_element(&r).map_err(Stop::Write)
            });
        match rolled {
            Ok(()) => seq.end(),
            Err(Stop::Write(e)) => Err(e),
            Err(Stop::Roll(e)) => {
                let message = e.to_string();
                *self.failed.borrow_mut() = Some(e);
                Err(S::Error::custom(message))
            }
        }
    }
}
