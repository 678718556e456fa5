//! The GM's own files — session files, party files, character sheets and
//! saved maps: reading them, checking them against the rules core, and
//! pointing every mistake at its file, line and column with a hint.

use std::path::Path;

use toml::de::{DeTable, DeValue};

use crate::content::line_col;
use crate::error::Error;
use crate::generators::encounter::Party;
use crate::generators::map::Map;
use crate::generators::npc::RulesSystem;
use crate::generators::pack::Session;
use crate::rules::Flaw;
use crate::rules::core_d20::{self, Sheet};
use crate::rules::mettle;

/// A file's text, read whole; bytes that are not UTF-8 are pointed at.
pub fn read_text(path: &Path, what: &str) -> Result<String, Error> {
    let bytes = std::fs::read(path)
        .map_err(|e| Error::Usage(format!("cannot read the {what} `{}`: {e}", path.display())))?;
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let text = String::from_utf8_lossy(&e.as_bytes()[..good]);
        let (line, col) = line_col(&text, good);
        Error::Usage(format!(
            "{}:{line}:{col}: the {what} is not UTF-8 text\n  hint: save it as UTF-8 in your editor",
            path.display()
        ))
    })
}

/// Parse TOML text that came from `path` (named in messages only), with
/// the line and column of any mistake.
pub fn from_toml<T: serde::de::DeserializeOwned>(
    path: &Path,
    text: &str,
    what: &str,
) -> Result<T, Error> {
    toml::from_str(text).map_err(|e| {
        let (line, col) = line_col(text, e.span().map_or(0, |s| s.start));
        Error::Usage(format!(
            "{}:{line}:{col}: the {what} is not valid: {}",
            path.display(),
            e.message().trim()
        ))
    })
}

/// One step into a TOML document: a key or a list index.
#[derive(Debug, Clone, Copy)]
pub enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// Line and column of the value at `steps` in a TOML document; when the
/// full path is missing (a default was used), the deepest part that exists.
pub fn locate(text: &str, steps: &[Step]) -> Option<(usize, usize)> {
    let root = DeTable::parse(text).ok()?;
    let root = DeValue::Table(root.into_inner());
    let mut value = &root;
    let mut span = None;
    for step in steps {
        let next = match step {
            Step::Key(k) => value.get(*k),
            Step::Index(i) => value.get(*i),
        };
        let Some(next) = next else { break };
        span = Some(next.span().start);
        value = next.get_ref();
    }
    span.map(|at| line_col(text, at))
}

/// `file:line:col` for a path of steps, or just `file` when nothing matches.
fn at(path: &Path, text: &str, steps: &[Step]) -> String {
    match locate(text, steps) {
        Some((line, col)) => format!("{}:{line}:{col}", path.display()),
        None => path.display().to_string(),
    }
}

/// The path to a flaw's field below `prefix`: its key, then its index.
fn flaw_steps<'a>(prefix: &[Step<'a>], f: &Flaw) -> Vec<Step<'a>> {
    let mut steps = prefix.to_vec();
    steps.push(Step::Key(f.key));
    steps.extend(f.index.map(Step::Index));
    steps
}

/// One line per flaw, each pointing at its field.
fn flaw_lines(path: &Path, text: &str, prefix: &[Step], who: &str, flaws: &[Flaw]) -> Vec<String> {
    flaws
        .iter()
        .map(|f| {
            let steps = flaw_steps(prefix, f);
            format!("{}: {who}: {}", at(path, text, &steps), f.message)
        })
        .collect()
}

const SHEET_HINT: &str = "hint: the Core Rules keep abilities at 0-19 (15 for a new human), \
     armour at 0-3, damage d4-d12 and omens at 0-4; fix the lines above and run again";
const BLOCK_HINT: &str = "hint: METTLE attributes and CALLINGs are 1-12 dice, Armor at most 6, \
     weapon DM at most 10, Speed 1-10; fix the lines above and run again";

/// A Core Rules character sheet (`--character FILE`), checked.
pub fn character(path: Option<&Path>) -> Result<Option<Sheet>, Error> {
    let Some(path) = path else { return Ok(None) };
    let text = read_text(path, "character sheet")?;
    character_from_text(path, &text).map(Some)
}

/// A character sheet's text, checked ([`character`] without the reading).
pub fn character_from_text(path: &Path, text: &str) -> Result<Sheet, Error> {
    let sheet: Sheet = from_toml(path, text, "character sheet")?;
    let flaws = core_d20::sheet_flaws(&sheet);
    if !flaws.is_empty() {
        let lines = flaw_lines(path, text, &[], &sheet.name, &flaws);
        return Err(Error::Usage(format!(
            "the character breaks the Core Rules:\n{}\n  {SHEET_HINT}",
            lines.join("\n")
        )));
    }
    Ok(sheet)
}

/// Where a party summary was written, for messages: the session file and
/// its text.
pub struct Origin<'a> {
    pub path: &'a Path,
    pub text: &'a str,
}

/// A party (`--party`): a party file, a pool summary such as `3,4,4,5`,
/// or the system's default.
pub fn party(arg: Option<&str>, system: RulesSystem) -> Result<Party, Error> {
    let default = match system {
        RulesSystem::Mettle => "3,3,3,3",
        RulesSystem::Core => "10,10,10,10",
    };
    let text = arg.unwrap_or(default);
    let path = Path::new(text);
    if path.is_file() {
        return party_file(path, system);
    }
    summary(text, system, None)
}

/// The party a session file names: a file read relative to the session
/// file, or a pool summary.
pub fn session_party(origin: &Origin, party: &str, system: RulesSystem) -> Result<Party, Error> {
    let candidate = origin.path.parent().unwrap_or(Path::new(".")).join(party);
    if candidate.is_file() {
        return party_file(&candidate, system);
    }
    summary(party, system, Some(origin))
}

/// A pool summary, or a party file that is not there.
fn summary(text: &str, system: RulesSystem, origin: Option<&Origin>) -> Result<Party, Error> {
    let shown = match origin {
        Some(o) => format!("{}: ", at(o.path, o.text, &[Step::Key("party")])),
        None => "--party: ".into(),
    };
    if text.contains(['/', '\\']) || text.ends_with(".toml") {
        let relative = if origin.is_some() {
            " (it is read relative to the session file)"
        } else {
            ""
        };
        return Err(Error::Usage(format!(
            "{shown}the party file `{text}` does not exist{relative}\n  \
             hint: check the path, or give a pool summary such as `3,4,4,5`"
        )));
    }
    Party::from_summary(text, system).map_err(|e| Error::Usage(format!("{shown}{e}")))
}

fn party_file(path: &Path, system: RulesSystem) -> Result<Party, Error> {
    let text = read_text(path, "party file")?;
    party_from_text(path, &text, system)
}

/// A party file's text, checked against the rules core.
pub fn party_from_text(path: &Path, text: &str, system: RulesSystem) -> Result<Party, Error> {
    let party: Party = from_toml(path, text, "party file")?;
    let mut lines = Vec::new();
    for (i, b) in party.mettle.iter().enumerate() {
        let prefix = [Step::Key("mettle"), Step::Index(i)];
        lines.extend(flaw_lines(
            path,
            text,
            &prefix,
            &b.name,
            &mettle::block_flaws(b),
        ));
    }
    for (i, s) in party.core.iter().enumerate() {
        let prefix = [Step::Key("core"), Step::Index(i)];
        lines.extend(flaw_lines(
            path,
            text,
            &prefix,
            &s.name,
            &core_d20::sheet_flaws(s),
        ));
    }
    if !lines.is_empty() {
        let hint = if party.mettle.is_empty() {
            SHEET_HINT
        } else {
            BLOCK_HINT
        };
        return Err(Error::Usage(format!(
            "the party breaks the rules:\n{}\n  {hint}",
            lines.join("\n")
        )));
    }
    party
        .check(system)
        .map_err(|e| Error::Usage(format!("{}: {e}", path.display())))?;
    Ok(party)
}

/// A session file (`prep SESSION.toml`), read and checked: every flaw is
/// pointed at by line and column. Returns the text too, for the party.
pub fn session(path: &Path) -> Result<(Session, String), Error> {
    let text = read_text(path, "session file")?;
    let session = session_from_text(path, &text)?;
    Ok((session, text))
}

/// A session file's text, checked ([`session`] without the reading).
pub fn session_from_text(path: &Path, text: &str) -> Result<Session, Error> {
    let session: Session = from_toml(path, text, "session file")?;
    let lines: Vec<String> = session
        .flaws()
        .into_iter()
        .map(|(table, f)| {
            let prefix: Vec<Step> = table.map(Step::Key).into_iter().collect();
            let steps = flaw_steps(&prefix, &f);
            format!("{}: {}", at(path, text, &steps), f.message)
        })
        .collect();
    if !lines.is_empty() {
        return Err(Error::Usage(format!(
            "the session file asks for what a pack cannot give:\n{}\n  \
             hint: fix the lines above (the README lists every session key) and run again",
            lines.join("\n")
        )));
    }
    Ok(session)
}

/// A map saved by `gen map --json` (the whole report or one map).
pub fn read_map(path: &Path) -> Result<Map, Error> {
    let shown = path.display();
    let text = read_text(path, "map")?;
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        Error::Usage(format!(
            "{shown}:{}:{}: the map is not JSON: {e}",
            e.line(),
            e.column()
        ))
    })?;
    let map_value = match value.get("items").and_then(|i| i.get(0)) {
        Some(first) => first.clone(),
        None => value,
    };
    let map: Map = serde_json::from_value(map_value).map_err(|e| {
        Error::Usage(format!(
            "{shown}: this is not a map saved by `gen map --json`: {e}"
        ))
    })?;
    let problems = crate::generators::map::check(&map);
    if !problems.is_empty() {
        return Err(Error::Usage(format!(
            "{shown}: the map is broken: {}",
            problems.join("; ")
        )));
    }
    Ok(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locate_finds_keys_in_arrays_of_tables() {
        let text = "title = \"x\"\n\n[[mettle]]\nname = \"A\"\nNATURE = 3\n\n[[mettle]]\nname = \"B\"\nNATURE = 40\n";
        assert_eq!(
            locate(
                text,
                &[Step::Key("mettle"), Step::Index(1), Step::Key("NATURE")]
            ),
            Some((9, 10))
        );
        // A missing key falls back to the deepest part that exists.
        let found = locate(
            text,
            &[Step::Key("mettle"), Step::Index(1), Step::Key("speed")],
        );
        assert!(matches!(found, Some((7 | 8, _))), "{found:?}");
        assert_eq!(locate(text, &[Step::Key("nothing")]), None);
        assert_eq!(locate("not [ toml", &[Step::Key("a")]), None);
    }
}
