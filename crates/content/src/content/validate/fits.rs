//! Checks of the concepts a situation allows its people: every
//! `concept:<name>` tag of a situation (a `gen.encounter.<region>` row)
//! names a concept of an archetype one of the row's `npc:` tags names —
//! a `gen.npc.concept` row tagged `archetype:<that archetype>`, or the
//! archetype's own name for its own line.
//!
//! A misspelt name would let the person draw any concept again (the cattle
//! raid's drover bound for market with sixty pigs), without a word.

use std::collections::BTreeMap;

use super::{at_row, suggest};
use crate::content::{Row, SourceFile, Table};
use crate::diagnostic::Diagnostic;

/// The table of more concept lines, tagged by archetype.
const CONCEPTS: &str = "gen.npc.concept";

pub(super) fn check(
    tables: &BTreeMap<String, Table>,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) {
    for t in tables.values().filter(|t| t.region.is_some()) {
        for row in &t.rows {
            for name in tagged(row, "concept:") {
                let people = tagged(row, "npc:");
                let known = allowed(tables, &people);
                if known.contains(&name) {
                    continue;
                }
                problems.push(unknown(files, (t, row), name, &people, &known));
            }
        }
    }
}

/// The values of a row's tags with `prefix`.
fn tagged<'a>(row: &'a Row, prefix: &str) -> Vec<&'a str> {
    row.entry
        .tags
        .iter()
        .filter_map(|g| g.strip_prefix(prefix))
        .collect()
}

/// What `concept:` may name for the archetypes `people`: each archetype's
/// name and its concept rows' names.
fn allowed<'a>(tables: &'a BTreeMap<String, Table>, people: &[&'a str]) -> Vec<&'a str> {
    let mut out: Vec<&str> = people.to_vec();
    if let Some(t) = tables.get(CONCEPTS) {
        out.extend(
            t.rows
                .iter()
                .filter(|r| tagged(r, "archetype:").iter().any(|a| people.contains(a)))
                .map(|r| r.entry.name.as_ref()),
        );
    }
    out
}

fn unknown(
    files: &[SourceFile],
    (t, row): (&Table, &Row),
    name: &str,
    people: &[&str],
    known: &[&str],
) -> Diagnostic {
    let what = if people.is_empty() {
        format!(
            "row `{}` allows the concept `{name}`, but names no person (`npc:`) to have it",
            row.entry.name
        )
    } else {
        format!(
            "row `{}` allows the concept `{name}`, which is no concept of {}",
            row.entry.name,
            people.join(", ")
        )
    };
    let hint = format!(
        "a `concept:` tag names a `{CONCEPTS}` row tagged `archetype:<name>` with a person the row's `npc:` tags name, or that person's archetype for its own line"
    );
    at_row(files, t, Some(row), what, &hint).with_suggestion(suggest(name, known.iter().copied()))
}
