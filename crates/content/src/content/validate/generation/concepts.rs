//! The concept lines of `gen.npc.concept`: every row is tagged
//! `archetype:<name>` with archetypes of both archetype tables (else it is
//! never drawn).

use std::collections::BTreeMap;

use super::archetypes::ARCHETYPES;
use crate::content::validate::{at_row, suggest};
use crate::content::{SourceFile, Table};
use crate::diagnostic::Diagnostic;

/// The table of more concept lines, tagged by archetype.
const CONCEPTS: &str = "gen.npc.concept";

/// Each `gen.npc.concept` row's `archetype:` tags name archetypes of both
/// archetype tables, and it has at least one.
pub(super) fn concept_tags(
    tables: &BTreeMap<String, Table>,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) {
    let Some(t) = tables.get(CONCEPTS) else {
        return;
    };
    for row in &t.rows {
        let named: Vec<&str> = row
            .entry
            .tags
            .iter()
            .filter_map(|g| g.strip_prefix("archetype:"))
            .collect();
        if named.is_empty() {
            problems.push(at_row(
                files,
                t,
                Some(row),
                format!(
                    "row `{}` names no archetype, so no NPC draws it",
                    row.entry.name
                ),
                "tag it `archetype:<name>` with a row of `gen.npc.mettle` and `gen.npc.core`",
            ));
        }
        for name in named {
            let missing = ARCHETYPES.iter().map(|(id, _)| *id).find(|id| {
                tables
                    .get(*id)
                    .is_some_and(|a| !a.rows.iter().any(|r| r.entry.name == name))
            });
            let Some(id) = missing else { continue };
            let names = tables[id].rows.iter().map(|r| r.entry.name.as_ref());
            let d = at_row(
                files,
                t,
                Some(row),
                format!(
                    "row `{}` is tagged `archetype:{name}`, but `{id}` has no archetype `{name}`",
                    row.entry.name
                ),
                &format!("name a row of `{id}`, as the archetype's `name` is written there"),
            );
            problems.push(d.with_suggestion(suggest(name, names)));
        }
    }
}
