//! Core Rules character sheets (`--character FILE`): read, checked against
//! the rules core, every flaw pointed at.

use std::path::Path;

use super::{flaw_diagnostics, from_toml, read_text};
use crate::diagnostic::Report;
use crate::error::Error;
use crate::rules::core::{self, Sheet};

/// What the Core Rules allow on a sheet, said after its flaws.
pub(super) const SHEET_HINT: &str = "hint: the Core Rules keep abilities at 0-19 (15 for a new human), \
     armour at 0-3, damage d4-d12 and omens at 0-4; fix the lines above and run again";

/// A Core Rules character sheet, checked (none when no file is given).
pub(crate) fn character(path: Option<&Path>) -> Result<Option<Sheet>, Error> {
    let Some(path) = path else { return Ok(None) };
    let text = read_text(path, "character sheet")?;
    character_from_text(path, &text).map(Some)
}

/// A character sheet's text, checked ([`character`] without the reading).
pub(crate) fn character_from_text(path: &Path, text: &str) -> Result<Sheet, Error> {
    let sheet: Sheet = from_toml(path, text, "character sheet")?;
    let flaws = core::sheet_flaws(&sheet);
    if !flaws.is_empty() {
        return Err(Error::Input(Report {
            headline: Some("the character breaks the Core Rules:".into()),
            diagnostics: flaw_diagnostics(path, text, &[], &sheet.name, &flaws),
            closing: Some(SHEET_HINT.into()),
        }));
    }
    Ok(sheet)
}
