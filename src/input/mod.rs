//! The GM's own files — session files, party files, character sheets and
//! saved maps: reading them, checking them against the rules core, and
//! pointing every mistake at its file, line and column (a
//! [`Diagnostic`] with the line and a caret). Generators never see these
//! files: they get the typed requests built here.
//!
//! - [`session`]: the session file's keys (a campaign plan's too) and the
//!   pack request it stands for.
//! - [`session_text`]: the one reader of a session file and a campaign's
//!   plan, and their checks.
//! - [`bundle`]: a bundle (`share`): session, party, tables and templates in
//!   one file; and `[rerolls]` written back into a session file.
//! - [`party`]: party files and pool summaries (`3,4,4,5`).
//! - [`character`]: Core Rules character sheets.
//! - [`map`]: maps saved by `gen map --json`.
//! - [`json_at`]: where a value sits in JSON text (for saved maps).
//! - [`limits`]: the bounds the command line checks too (rerolls,
//!   sessions).
//! - [`clean`]: no control characters in a GM file's text.
//!
//! Every file is read through [`crate::bounded`] (regular files only, at
//! most 32 MiB), which the content crate owns.

use crate::bounded;
pub(crate) mod bundle;
pub(crate) mod character;
pub(crate) mod clean;
pub(crate) mod json_at;
pub(crate) mod limits;
pub(crate) mod map;
pub(crate) mod party;
pub(crate) mod session;
pub(crate) mod session_text;

use std::path::Path;

use toml::de::{DeTable, DeValue};

pub(crate) use character::{character, character_from_text};
pub(crate) use map::{map_from_text, read_map};
pub(crate) use party::{
    Origin, party, party_from_text, party_in_file, session_party, session_party_file, summary,
};
pub use session::Session;
pub(crate) use session::{session_folders, session_terrains};
pub(crate) use session_text::{session, session_from_text};

use crate::content::line_col;
use crate::diagnostic::Diagnostic;
use crate::error::Error;
use crate::rules::Flaw;

/// A file's text, read whole; bytes that are not UTF-8 are pointed at.
/// A file holding NUL bytes is not text and is refused unread into any
/// message; a file reached through a link that leaves the folder it was
/// named from is read, but its lines are never shown under a message
/// ([`crate::diagnostic::withhold_lines`]).
pub(crate) fn read_text(path: &Path, what: &'static str) -> Result<String, Error> {
    let refused = |source| Error::Read {
        what,
        path: path.display().to_string(),
        source,
    };
    let bytes = bounded::read_bytes(path).map_err(refused)?;
    if bytes.contains(&0) {
        return Err(refused(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "it holds NUL bytes, so it is not a text file; give the path of a text file",
        )));
    }
    if bounded::leaves_its_folder(path, path.parent()) {
        crate::diagnostic::withhold_lines(&path.display().to_string());
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let text = String::from_utf8_lossy(&e.as_bytes()[..good]);
        let (line, col) = line_col(&text, good);
        Error::input(
            Diagnostic::at(
                path.display().to_string(),
                line,
                col,
                format!("the {what} is not UTF-8 text"),
            )
            .with_hint("save it as UTF-8 in your editor"),
        )
    })
}

/// Parse TOML text that came from `path` (named in messages only), with
/// the line and column of any mistake.
pub(crate) fn from_toml<T: serde::de::DeserializeOwned>(
    path: &Path,
    text: &str,
    what: &str,
) -> Result<T, Error> {
    let value = toml::from_str(text)
        .map_err(|e| not_valid(path, text, what, e.span().unwrap_or(0..0), e.message()))?;
    clean_text(path, text, what)?;
    Ok(value)
}

/// A TOML text that does not read as its type: serde's `message` at
/// `span`, with the closest known key or variant.
pub(crate) fn not_valid(
    path: &Path,
    text: &str,
    what: &str,
    span: std::ops::Range<usize>,
    message: &str,
) -> Error {
    let (line, col) = line_col(text, span.start);
    let width = text.get(span).map_or(1, |s| s.chars().count());
    Error::input(
        Diagnostic::at(
            path.display().to_string(),
            line,
            col,
            format!("the {what} is not valid: {}", message.trim()),
        )
        .with_source(text, width)
        .with_suggestion(meant(message)),
    )
}

/// No control characters in a GM file's text, each pointed at.
pub(crate) fn clean_text(path: &Path, text: &str, what: &str) -> Result<(), Error> {
    let unclean = clean::control_characters(path, text);
    if !unclean.is_empty() {
        return Err(Error::Input(crate::diagnostic::Report {
            headline: Some(format!("the {what} holds control characters:")),
            diagnostics: unclean,
            closing: None,
        }));
    }
    Ok(())
}

/// For serde's "unknown field `x`, expected one of `a`, `b`": the known
/// field closest to `x`, when it is close enough to be a typo.
/// The same for "unknown variant `x`, expected `a` or `b`" (a `system`
/// or `route` misspelled).
fn meant(message: &str) -> Option<String> {
    let rest = message
        .split("unknown field `")
        .nth(1)
        .or_else(|| message.split("unknown variant `").nth(1))?;
    let (word, rest) = rest.split_once('`')?;
    let known: Vec<&str> = rest.split('`').skip(1).step_by(2).collect();
    crate::content::validate::closest(word, known.into_iter()).map(str::to_owned)
}

/// A stop written by name (`"Brinewell"`) or by its number on the map
/// (`3` or `"3"`), as text.
pub(crate) fn name_or_number<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<String>, D::Error> {
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum Either {
        Name(String),
        Number(u64),
    }
    Ok(Some(
        match <Either as serde::Deserialize>::deserialize(d).map_err(|_| {
            serde::de::Error::custom("expected a stop's name (a string) or its number on the map")
        })? {
            Either::Name(s) => s,
            Either::Number(n) => n.to_string(),
        },
    ))
}

/// One step into a TOML or JSON document: a key or a list index.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// Line, column and width (in characters) of the value at `steps` in a
/// TOML document; when the full path is missing (a default was used), the
/// deepest part that exists.
pub(crate) fn locate(text: &str, steps: &[Step]) -> Option<(usize, usize, usize)> {
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
        span = Some(next.span());
        value = next.get_ref();
    }
    let span = span?;
    let (line, col) = line_col(text, span.start);
    let width = text.get(span).map_or(1, |s| s.chars().count());
    Some((line, col, width))
}

/// A diagnostic pointing at the value at `steps` (with its line and a
/// caret), or at the file alone when nothing there matches.
pub(crate) fn pointed(path: &Path, text: &str, steps: &[Step], message: String) -> Diagnostic {
    at_place(path, text, locate(text, steps), message)
}

/// A diagnostic at a line, column and width found in `text` (a TOML or
/// JSON lookup), with the line and a caret; at the file alone for `None`.
fn at_place(
    path: &Path,
    text: &str,
    place: Option<(usize, usize, usize)>,
    message: String,
) -> Diagnostic {
    match place {
        Some((line, col, width)) => {
            Diagnostic::at(path.display().to_string(), line, col, message).with_source(text, width)
        }
        None => Diagnostic::at(path.display().to_string(), 0, 0, message),
    }
}

/// The path to a flaw's field below `prefix`: its key, then its index.
fn flaw_steps<'a>(prefix: &[Step<'a>], f: &Flaw) -> Vec<Step<'a>> {
    let mut steps = prefix.to_vec();
    steps.push(Step::Key(f.at.key));
    steps.extend(f.at.index.map(Step::Index));
    steps
}

/// One diagnostic per flaw of `who`, each pointing at its field.
fn flaw_diagnostics(
    path: &Path,
    text: &str,
    prefix: &[Step],
    who: &str,
    flaws: &[Flaw],
) -> Vec<Diagnostic> {
    flaws
        .iter()
        .map(|f| {
            pointed(
                path,
                text,
                &flaw_steps(prefix, f),
                format!("{who}: {}", f.message),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_field_gets_the_closest_known_one() {
        let m = "unknown field `encounter`, expected one of `title`, `seed`, `encounters`, `traps`";
        assert_eq!(meant(m).as_deref(), Some("encounters"));
        assert_eq!(meant("unknown field `zzz`, expected `a` or `b`"), None);
        assert_eq!(meant("invalid type: integer"), None);
    }

    #[test]
    fn locate_finds_keys_in_arrays_of_tables() {
        let text = "title = \"x\"\n\n[[mettle]]\nname = \"A\"\nNATURE = 3\n\n[[mettle]]\nname = \"B\"\nNATURE = 40\n";
        assert_eq!(
            locate(
                text,
                &[Step::Key("mettle"), Step::Index(1), Step::Key("NATURE")]
            ),
            Some((9, 10, 2))
        );
        // A missing key falls back to the deepest part that exists.
        let found = locate(
            text,
            &[Step::Key("mettle"), Step::Index(1), Step::Key("speed")],
        );
        assert!(matches!(found, Some((7 | 8, _, _))), "{found:?}");
        assert_eq!(locate(text, &[Step::Key("nothing")]), None);
        assert_eq!(locate("not [ toml", &[Step::Key("a")]), None);
    }

    #[test]
    fn a_flaw_points_at_its_value_with_a_caret() {
        let text = "name = \"Giant\"\nSTR = 25\n";
        let flaw = Flaw::at("STR", "STR 25 is outside 0-19".into());
        let d = &flaw_diagnostics(Path::new("giant.toml"), text, &[], "Giant", &[flaw])[0];
        assert_eq!(
            d.to_string(),
            "giant.toml:2:7: Giant: STR 25 is outside 0-19\n    STR = 25\n          ^^"
        );
    }
}
