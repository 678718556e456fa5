//! Checks of the places a situation needs: every `at:<word>` tag of a
//! situation (a `gen.encounter.<region>` row) names a kind of map stop
//! (the first tag of a `gen.place.site` or `gen.poi` row: `ruin`, `inn`,
//! …) or a part of one of their names (`gate`, `chapel`), so that a
//! journey's ambush waits only where it can (no gatehouse watch at a
//! barrow).
//!
//! A misspelt word would keep the situation from every stop, without a
//! word.

use std::collections::BTreeMap;

use super::{at_row, suggest};
use crate::content::{SourceFile, Table};
use crate::diagnostic::Diagnostic;

/// The tables a map's stops are made from.
const SITES: [&str; 2] = ["gen.place.site", "gen.poi"];

pub(super) fn check(
    tables: &BTreeMap<String, Table>,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) {
    let (kinds, names) = places(tables);
    for t in tables.values().filter(|t| t.region.is_some()) {
        for row in &t.rows {
            for tag in row.entry.tags.iter() {
                let Some(word) = tag.strip_prefix("at:") else {
                    continue;
                };
                let low = word.to_lowercase();
                if kinds.contains(&low) || names.iter().any(|n| n.contains(&low)) {
                    continue;
                }
                let what = format!(
                    "row `{}` happens at `{word}`, which is no kind of stop and in no stop's name",
                    row.entry.name
                );
                let hint = format!(
                    "an `at:` tag names a kind of stop (the first tag of a `{}` or `{}` row) or a part of one of their names",
                    SITES[0], SITES[1]
                );
                let d = at_row(files, t, Some(row), what, &hint);
                let words = names
                    .iter()
                    .flat_map(|n| n.split(' '))
                    .chain(kinds.iter().map(String::as_str));
                problems.push(d.with_suggestion(suggest(word, words)));
            }
        }
    }
}

/// The kinds of stop and the sites' names, lowercase.
fn places(tables: &BTreeMap<String, Table>) -> (Vec<String>, Vec<String>) {
    let rows = SITES
        .iter()
        .filter_map(|id| tables.get(*id))
        .flat_map(|t| t.rows.iter());
    let (mut kinds, mut names) = (Vec::new(), Vec::new());
    for r in rows {
        kinds.extend(r.entry.tags.first().map(|k| k.to_lowercase()));
        names.push(r.entry.name.replace('~', "").trim().to_lowercase());
    }
    kinds.sort();
    kinds.dedup();
    (kinds, names)
}
