//! Parties (`--party`, or a session's `party = …`): a party file of METTLE
//! stat blocks or Core Rules sheets, or a pool summary such as `3,4,4,5`;
//! read, checked against the rules core, every flaw pointed at. A party
//! file may also say how much water each PC can carry on a journey
//! (`water_capacity = 4`).

use std::path::Path;

use super::character::SHEET_HINT;
use super::{Step, flaw_diagnostics, from_toml, pointed, read_text};
use crate::diagnostic::{Diagnostic, Report};
use crate::error::Error;
use crate::generators::journey::MAX_SUPPLY;
use crate::rules::party::summary_hint;
use crate::rules::{Party, RulesSystem, core, mettle};

/// The most PCs a party file may hold (a pool summary holds 1 to 8).
pub(crate) const MAX_PCS: usize = 12;

const BLOCK_HINT: &str = "hint: METTLE attributes and CALLINGS are 1-12 dice, Armor at most 6, \
     weapon DM at most 10, Speed 1-10; fix the lines above and run again";

/// Where a party summary was written, for messages: the session file and
/// its text.
pub(crate) struct Origin<'a> {
    pub path: &'a Path,
    pub text: &'a str,
}

/// A party (`--party`): a party file, a pool summary such as `3,4,4,5`,
/// or the system's default.
pub(crate) fn party(arg: Option<&str>, system: RulesSystem) -> Result<Party, Error> {
    let default = match system {
        RulesSystem::Mettle => "3,3,3,3",
        RulesSystem::Core => "10,10,10,10",
    };
    let text = arg.unwrap_or(default);
    let path = Path::new(text);
    // Anything at that path is read as a file: a folder or a device gets
    // the reader's message, not "does not exist".
    if path.exists() {
        return party_file(path, system);
    }
    summary(text, system, None)
}

/// The party a session file names: a file read relative to the session
/// file, or a pool summary.
pub(crate) fn session_party(
    origin: &Origin,
    party: &str,
    system: RulesSystem,
) -> Result<Party, Error> {
    match session_party_file(origin, party)? {
        Some((path, text)) => party_in_file(origin, party, system, &path, &text),
        None => summary(party, system, Some(origin)),
    }
}

/// The party file a session names (its path and text), or `None` when
/// its `party` is a pool summary.
pub(crate) fn session_party_file(
    origin: &Origin,
    party: &str,
) -> Result<Option<(std::path::PathBuf, String)>, Error> {
    let candidate = origin.path.parent().unwrap_or(Path::new(".")).join(party);
    if !candidate.is_file() {
        return Ok(None);
    }
    let text = read_text(&candidate, "party file")?;
    Ok(Some((candidate, text)))
}

/// The session's party from its file's text (read from disk, or carried
/// in a bundle), checked: legal, and all of the session's system.
pub(crate) fn party_in_file(
    origin: &Origin,
    party: &str,
    system: RulesSystem,
    path: &Path,
    text: &str,
) -> Result<Party, Error> {
    let read = legal_party(path, text)?;
    let strangers = other_system(path, text, &read, system);
    if !strangers.is_empty() {
        return Err(mixed_party(origin, party, system, strangers));
    }
    system_check(path, read, system)
}

/// One diagnostic per PC of the other system in a party file: a session
/// is one system, so its party is too.
fn other_system(path: &Path, text: &str, party: &Party, system: RulesSystem) -> Vec<Diagnostic> {
    let (key, names, what) = match system {
        RulesSystem::Mettle => (
            "core",
            party.core.iter().map(|s| &s.name).collect::<Vec<_>>(),
            "a Core Rules sheet ([[core]])",
        ),
        RulesSystem::Core => (
            "mettle",
            party.mettle.iter().map(|b| &b.name).collect(),
            "a METTLE stat block ([[mettle]])",
        ),
    };
    names
        .into_iter()
        .enumerate()
        .map(|(i, name)| {
            let steps = [Step::Key(key), Step::Index(i), Step::Key("name")];
            pointed(path, text, &steps, format!("{name} is {what}"))
        })
        .collect()
}

/// The refusal of a party that mixes systems: at the session's `party`
/// key, then at each PC of the other system, with what the system offers.
fn mixed_party(
    origin: &Origin,
    party: &str,
    system: RulesSystem,
    strangers: Vec<Diagnostic>,
) -> Error {
    let (other, offer) = match system {
        RulesSystem::Mettle => (
            "core",
            "a METTLE party is [[mettle]] stat blocks (NATURE, CULTURE, POISE, MOTIVE, FRAME, \
             CALLINGS)",
        ),
        RulesSystem::Core => (
            "mettle",
            "a Core Rules party is [[core]] sheets (STR, AGI, WIT, health, armour, damage die)",
        ),
    };
    let first = about_party(
        Some(origin),
        format!(
            "the party file `{party}` holds PCs of another system, but this is a {} session \
             and a pack is one system",
            system.label()
        ),
    );
    Error::Input(Report {
        headline: Some("the party does not fit the session's system:".into()),
        diagnostics: std::iter::once(first).chain(strangers).collect(),
        closing: Some(format!(
            "hint: {offer}; rewrite those PCs that way, move them to a party file of their own \
             for a session with system = \"{other}\", or remove them"
        )),
    })
}

/// A diagnostic about the party value: at the session file's `party` key,
/// or about the `--party` argument.
fn about_party(origin: Option<&Origin>, message: String) -> Diagnostic {
    match origin {
        Some(o) => pointed(o.path, o.text, &[Step::Key("party")], message),
        None => Diagnostic::message(format!("--party: {message}")),
    }
}

/// A pool summary, or a party file that is not there.
pub(crate) fn summary(
    text: &str,
    system: RulesSystem,
    origin: Option<&Origin>,
) -> Result<Party, Error> {
    if text.contains(['/', '\\']) || text.ends_with(".toml") {
        let relative = if origin.is_some() {
            " (it is read relative to the session file)"
        } else {
            ""
        };
        let message = format!("the party file `{text}` does not exist{relative}");
        return Err(Error::input(about_party(origin, message).with_hint(
            "check the path, or give a pool summary such as `3,4,4,5`",
        )));
    }
    Party::from_summary(text, system)
        .map_err(|m| Error::input(about_party(origin, m).with_hint(summary_hint(system))))
}

fn party_file(path: &Path, system: RulesSystem) -> Result<Party, Error> {
    let text = read_text(path, "party file")?;
    party_from_text(path, &text, system)
}

/// A party file's text, checked against the rules core.
pub(crate) fn party_from_text(
    path: &Path,
    text: &str,
    system: RulesSystem,
) -> Result<Party, Error> {
    system_check(path, legal_party(path, text)?, system)
}

/// A party with PCs of the system (and all of them legal).
fn system_check(path: &Path, party: Party, system: RulesSystem) -> Result<Party, Error> {
    party
        .check(system)
        .map_err(|m| Error::input(Diagnostic::at(path.display().to_string(), 0, 0, m)))?;
    Ok(party)
}

/// A party file with more than [`MAX_PCS`] PCs, pointed at the first one
/// too many.
fn too_many(path: &Path, text: &str, party: &Party) -> Option<Diagnostic> {
    let (mettle, core) = (party.mettle.len(), party.core.len());
    if mettle + core <= MAX_PCS {
        return None;
    }
    let (key, index) = if mettle > MAX_PCS {
        ("mettle", MAX_PCS)
    } else if mettle == 0 {
        ("core", MAX_PCS)
    } else {
        ("core", MAX_PCS - mettle)
    };
    let steps = [Step::Key(key), Step::Index(index), Step::Key("name")];
    let message = format!(
        "the party file has {} PCs; a party has at most {MAX_PCS}, and this is PC {}",
        mettle + core,
        MAX_PCS + 1
    );
    Some(
        pointed(path, text, &steps, message)
            .with_hint("split the party, or bring the PCs who play this session"),
    )
}

/// A party file's text, every stat block and sheet checked against its
/// system's rules.
fn legal_party(path: &Path, text: &str) -> Result<Party, Error> {
    let party: Party = from_toml(path, text, "party file")?;
    if let Some(d) = too_many(path, text, &party) {
        return Err(Error::input(d));
    }
    let mut diagnostics = Vec::new();
    for (i, b) in party.mettle.iter().enumerate() {
        let prefix = [Step::Key("mettle"), Step::Index(i)];
        let flaws = mettle::block_flaws(b);
        diagnostics.extend(flaw_diagnostics(path, text, &prefix, &b.name, &flaws));
    }
    for (i, s) in party.core.iter().enumerate() {
        let prefix = [Step::Key("core"), Step::Index(i)];
        let flaws = core::sheet_flaws(s);
        diagnostics.extend(flaw_diagnostics(path, text, &prefix, &s.name, &flaws));
    }
    if let Some(c) = party.water_capacity
        && !(1..=MAX_SUPPLY).contains(&c)
    {
        diagnostics.push(
            pointed(
                path,
                text,
                &[Step::Key("water_capacity")],
                format!("water_capacity = {c}: each PC carries 1 to {MAX_SUPPLY} units of water"),
            )
            .with_hint("set how many units of water each PC can carry, such as 4"),
        );
    }
    if !diagnostics.is_empty() {
        let hint = if party.mettle.is_empty() {
            SHEET_HINT
        } else {
            BLOCK_HINT
        };
        return Err(Error::Input(Report {
            headline: Some("the party breaks the rules:".into()),
            diagnostics,
            closing: Some(hint.into()),
        }));
    }
    Ok(party)
}
