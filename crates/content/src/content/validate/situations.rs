//! A situation's bare tags (a `gen.encounter.<region>` row's tags without
//! a `prefix:`): each is one of [`SITUATION_TAGS`], which the encounter,
//! its layers and the journey read, and no row says it is two kinds that
//! cannot both hold (a hazard that both stays and runs its course, people
//! who both keep the place and are passing through). A misspelt `fixtur`
//! or `indor` would otherwise do nothing and say nothing.

use std::collections::BTreeMap;

use super::{at_row, stray_tag};
use crate::content::region::{PREFIX, SITUATION_TAGS};
use crate::content::{SourceFile, Table};
use crate::diagnostic::Diagnostic;

/// Kinds a situation cannot be at once.
const APART: [[&str; 2]; 3] = [
    ["event", "fixture"],
    ["holding", "moving"],
    ["night", "day"],
];

pub(super) fn check(
    tables: &BTreeMap<String, Table>,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) {
    let regions = tables.iter().filter(|(id, _)| id.starts_with(PREFIX));
    for (_, t) in regions {
        for row in &t.rows {
            let tags: Vec<&str> = row.entry.tags.iter().map(|g| g.as_ref()).collect();
            for tag in tags.iter().filter(|g| !g.contains(':')) {
                if SITUATION_TAGS.contains(tag) {
                    continue;
                }
                let hint = format!(
                    "a situation's tags without a prefix are any of: {}",
                    SITUATION_TAGS.join(", ")
                );
                let why = "which no encounter reads";
                let near = (*tag, SITUATION_TAGS.iter().copied());
                problems.push(stray_tag((files, t, row), (tag, why), &hint, near));
            }
            for [a, b] in APART.iter().filter(|p| p.iter().all(|k| tags.contains(k))) {
                let what = format!(
                    "row `{}` is tagged both `{a}` and `{b}`, which cannot both hold",
                    row.entry.name
                );
                problems.push(at_row(
                    files,
                    t,
                    Some(row),
                    what,
                    "keep the one the scene is",
                ));
            }
        }
    }
}
