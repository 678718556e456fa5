//! The first pass over a file: TOML syntax, then every key that is not in
//! the format (serde stops at the first; a GM wants them all, each with a
//! "did you mean"), then the typed read into [`TableRaw`]s.

use toml::Spanned;

use super::{Spot, suggest};
use crate::content::SourceFile;
use crate::content::schema::{self, FileRaw, TableRaw};
use crate::diagnostic::Diagnostic;

/// The raw tables of one file, or none when the file has problems.
pub(super) fn parse_file(
    file: &SourceFile,
    problems: &mut Vec<Diagnostic>,
) -> Vec<Spanned<TableRaw>> {
    let spot = Spot { file, table: None };
    let value: toml::Table = match toml::from_str(&file.text) {
        Ok(v) => v,
        Err(e) => {
            let span = e.span().unwrap_or(0..0);
            problems.push(spot.at(
                span.start,
                spot.width(span),
                format!("this is not valid TOML: {}", e.message().trim()),
                "fix the syntax at this line and column (see content/FORMAT.md)",
            ));
            return Vec::new();
        }
    };
    let before = problems.len();
    unknown_keys(spot, &value, problems);
    if problems.len() > before {
        return Vec::new();
    }
    match toml::from_str::<FileRaw>(&file.text) {
        Ok(raw) => raw.table,
        Err(e) => {
            let span = e.span().unwrap_or(0..0);
            problems.push(spot.at(
                span.start,
                spot.width(span),
                e.message().trim().to_owned(),
                "see content/FORMAT.md for each key's type",
            ));
            Vec::new()
        }
    }
}

/// Report every key that is not in the format, with a "did you mean".
fn unknown_keys(spot: Spot, value: &toml::Table, problems: &mut Vec<Diagnostic>) {
    let mut check = |table: &toml::Table, allowed: &[&str], place: &str| {
        for key in table.keys() {
            if !allowed.contains(&key.as_str()) {
                problems.push(unknown_key(spot, key, allowed, place));
            }
        }
    };
    check(value, schema::FILE_KEYS, "the file");
    let Some(toml::Value::Array(tables)) = value.get("table") else {
        return;
    };
    for t in tables {
        let Some(t) = t.as_table() else { continue };
        check(t, schema::TABLE_KEYS, "a [[table]]");
        let Some(toml::Value::Array(rows)) = t.get("row") else {
            continue;
        };
        for r in rows {
            let Some(r) = r.as_table() else { continue };
            check(r, schema::ROW_KEYS, "a [[table.row]]");
            if let Some(toml::Value::Array(effects)) = r.get("effects") {
                for e in effects.iter().filter_map(toml::Value::as_table) {
                    check(e, schema::EFFECT_KEYS, "an effect");
                }
            }
            if let Some(toml::Value::Table(s)) = r.get("stats") {
                check(s, schema::STATS_KEYS, "stats");
            }
        }
    }
}

/// One key that is not in the format.
fn unknown_key(spot: Spot, key: &str, allowed: &[&str], place: &str) -> Diagnostic {
    let suggestion = suggest(key, allowed.iter().copied());
    // After a "did you mean `x`?" the list starts a new sentence.
    let lead = if suggestion.is_some() { "Keys" } else { "keys" };
    spot.at(
        find_key(&spot.file.text, key),
        key.chars().count().max(1),
        format!("unknown key `{key}` in {place}"),
        format!("{lead} here: {}", allowed.join(", ")),
    )
    .with_suggestion(suggestion)
}

/// Byte offset of the first place `key` is written as a key.
fn find_key(text: &str, key: &str) -> usize {
    // An empty key (`"" = 1`) matches everywhere: point at the start.
    if key.is_empty() {
        return 0;
    }
    let mut from = 0;
    while let Some(found) = text[from..].find(key) {
        let at = from + found;
        let before = text[..at].chars().next_back();
        let after = text[at + key.len()..].trim_start();
        let starts_key = before
            .is_none_or(|c| c.is_whitespace() || c == '{' || c == ',' || c == '.' || c == '[');
        if starts_key && (after.starts_with('=') || after.starts_with(']')) {
            return at;
        }
        from = at + key.len();
    }
    0
}
