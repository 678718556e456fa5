//! The archetype tables (`gen.npc.mettle`, `gen.npc.core`) and what names
//! them: the `foe:` and `npc:` tags of `gen.encounter.<region>` rows name
//! an archetype in the archetype table of every system the table claims
//! (`any`: both), and every archetype is in both tables (an encounter may
//! be made in either system).

use std::collections::BTreeMap;

use crate::content::validate::{at_row, suggest};
use crate::content::{SourceFile, System, Table};
use crate::diagnostic::Diagnostic;

/// The archetype tables, by system.
pub(super) const ARCHETYPES: [(&str, System); 2] = [
    ("gen.npc.mettle", System::Mettle),
    ("gen.npc.core", System::Core),
];

/// The archetype tables an encounter table of `system` is made with.
fn archetype_tables(system: System) -> Vec<&'static str> {
    ARCHETYPES
        .iter()
        .filter(|(_, s)| system == *s || !matches!(system, System::Mettle | System::Core))
        .map(|(id, _)| *id)
        .collect()
}

/// `foe:`/`npc:` tags against the archetypes of each system the table
/// claims.
pub(super) fn archetype_tags(
    tables: &BTreeMap<String, Table>,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) {
    for t in tables.values().filter(|t| t.region.is_some()) {
        for row in &t.rows {
            for tag in &row.entry.tags {
                let Some(name) = tag
                    .strip_prefix("foe:")
                    .or_else(|| tag.strip_prefix("npc:"))
                else {
                    continue;
                };
                for id in archetype_tables(t.system) {
                    let Some(archetypes) = tables.get(id) else {
                        continue;
                    };
                    if archetypes.rows.iter().any(|r| r.entry.name == name) {
                        continue;
                    }
                    let names = archetypes.rows.iter().map(|r| r.entry.name.as_ref());
                    let d = at_row(
                        files,
                        t,
                        Some(row),
                        format!(
                            "row `{}` is tagged `{tag}`, but `{id}` has no archetype `{name}`",
                            row.entry.name
                        ),
                        &format!(
                            "name a row of `{id}`, or add `{name}` to it with a [[table]] `extends = \"{id}\"`"
                        ),
                    );
                    problems.push(d.with_suggestion(suggest(name, names)));
                }
            }
        }
    }
}

/// An archetype in one system's table and not the other's.
pub(super) fn archetypes_in_both(
    tables: &BTreeMap<String, Table>,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) {
    let (Some(a), Some(b)) = (tables.get(ARCHETYPES[0].0), tables.get(ARCHETYPES[1].0)) else {
        return;
    };
    for (here, there) in [(a, b), (b, a)] {
        for row in here
            .rows
            .iter()
            .filter(|r| !there.rows.iter().any(|o| o.entry.name == r.entry.name))
        {
            problems.push(at_row(
                files,
                here,
                Some(row),
                format!(
                    "archetype `{}` is in `{}` but not in `{}`",
                    row.entry.name, here.id, there.id
                ),
                &format!(
                    "an encounter may be made in either system: add a row named `{}` to `{}` (with `extends = \"{}\"`)",
                    row.entry.name, there.id, there.id
                ),
            ));
        }
    }
}
