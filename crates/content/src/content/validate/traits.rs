//! The NPC trait tables (`gen.npc.want`, `gen.npc.secret`,
//! `gen.npc.manner`, `gen.npc.look`): every row is tagged with the
//! archetype kinds it fits, from [`KINDS`] (an `era:` tag or any other tag
//! with a colon is left to its own checks). A kind tag outside the list, a
//! row that fits no kind (it could never be drawn) and a table with no row
//! for one of the person kinds (`human`, `townsfolk`: every NPC card would
//! miss it) are refused. A row may also be tagged [`ALIVE`] (`needs:alive`:
//! it fits only the living); any other `needs:` tag is refused.
//!
//! Bodies: an archetype row (`gen.npc.mettle`, `gen.npc.core`) may carry
//! one `body:` tag from [`BODIES`] for a body unlike a person's (an ooze is
//! `body:shapeless`); without one it has a person's body. A trait row
//! tagged `body:` fits only those bodies; without one, only a person's (a
//! hat, a broken nose, a secret deal). A `body:` tag outside the list is
//! refused on either.
//!
//! Archetypes: a trait row tagged [`FOR`] (`for:innkeeper`) fits only the
//! archetypes it names; a name that is no archetype of `gen.npc.mettle` or
//! `gen.npc.core` is refused, with the nearest name.

use std::collections::BTreeMap;

use super::{at_row, at_table, suggest};
use crate::content::{SourceFile, Table};
use crate::diagnostic::Diagnostic;

/// The trait tables, in the order an NPC shows them, with the key each
/// fills (`want`, `secret`, `manner`, `look`).
pub const TABLES: [(&str, &str); 4] = [
    ("gen.npc.want", "want"),
    ("gen.npc.secret", "secret"),
    ("gen.npc.manner", "manner"),
    ("gen.npc.look", "look"),
];

/// The archetype kinds (an archetype's first tag without a colon), which
/// are the kind tags a trait row may carry.
pub const KINDS: [&str; 8] = [
    "human",
    "townsfolk",
    "beast",
    "monster",
    "undead",
    "spirit",
    "swarm",
    "construct",
];

/// The tag of a trait row that fits only the living (a toothache, a
/// black eye, a fear of dying): no archetype of an [`UNLIVING`] kind
/// draws it.
pub const ALIVE: &str = "needs:alive";

/// The bodies an archetype may have besides a person's (the default):
/// `shapeless` (an ooze, a wisp, a walking heap), `beast` (a serpent, a
/// lurker: no hands, no clothes, no speech), `bones` (a skeleton),
/// `headless` (a rider without a head). Each draws only the trait rows
/// tagged `body:` with it.
pub const BODIES: [&str; 5] = ["person", "shapeless", "beast", "bones", "headless"];

/// The body of an archetype or the bodies a trait row fits, from its
/// `body:` tags; none: a person's.
pub fn bodies(tags: &[crate::content::Text]) -> Vec<&str> {
    let out: Vec<&str> = tags
        .iter()
        .filter_map(|t| t.strip_prefix("body:"))
        .collect();
    if out.is_empty() { vec!["person"] } else { out }
}

/// Whether the `body:` tags name `body` (none: a person's), as [`bodies`]
/// reads them, without collecting them (the NPC generator asks this of
/// every row it weighs).
pub fn fits_body(tags: &[crate::content::Text], body: &str) -> bool {
    let mut named = tags
        .iter()
        .filter_map(|t| t.strip_prefix("body:"))
        .peekable();
    match named.peek() {
        None => body == "person",
        Some(_) => named.any(|b| b == body),
    }
}

/// The tag prefix of a trait row that fits only the archetypes it names
/// (`for:innkeeper`).
pub const FOR: &str = "for:";

/// The kinds that are not alive: they never draw an [`ALIVE`] row.
pub const UNLIVING: [&str; 3] = ["undead", "spirit", "construct"];

/// The kinds every trait table must have a row for: the people on NPC cards.
const PEOPLE: [&str; 2] = ["human", "townsfolk"];

const HINT: &str = "tag each row with the archetype kinds it fits: human, townsfolk, beast, \
                    monster, undead, spirit, swarm or construct (undead and spirit also draw \
                    the monster rows)";

pub(super) fn check(
    tables: &BTreeMap<String, Table>,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) {
    for id in ["gen.npc.mettle", "gen.npc.core"] {
        if let Some(t) = tables.get(id) {
            for row in &t.rows {
                body_tags(files, t, row, problems);
            }
        }
    }
    let archetypes: Vec<&str> = ["gen.npc.mettle", "gen.npc.core"]
        .iter()
        .filter_map(|id| tables.get(*id))
        .flat_map(|t| t.rows.iter().map(|r| &*r.entry.name))
        .collect();
    for (id, _) in TABLES {
        let Some(t) = tables.get(id) else { continue };
        for row in &t.rows {
            row_tags(files, t, row, problems);
            for_tags(files, (t, row), &archetypes, problems);
        }
        for kind in PEOPLE {
            if !t
                .rows
                .iter()
                .any(|r| r.entry.tags.iter().any(|x| x == kind))
            {
                problems.push(at_table(
                    files,
                    t,
                    format!("`{id}` has no row tagged `{kind}`: an NPC card would go without it"),
                    &format!("add rows tagged `{kind}` (most rows fit `human` and `townsfolk`)"),
                ));
            }
        }
    }
}

/// A row's `body:` tags: each one of [`BODIES`].
fn body_tags(
    files: &[SourceFile],
    t: &Table,
    row: &crate::content::Row,
    problems: &mut Vec<Diagnostic>,
) {
    for tag in row.entry.tags.iter() {
        let Some(body) = tag.strip_prefix("body:") else {
            continue;
        };
        if !BODIES.contains(&body) {
            let d = at_row(
                files,
                t,
                Some(row),
                format!(
                    "row `{}` is tagged `{tag}`, which is no body",
                    row.entry.name
                ),
                &format!("a body is one of: {}", BODIES.join(", ")),
            );
            let known = BODIES.iter().copied();
            problems.push(d.with_suggestion(suggest(body, known).map(|b| format!("body:{b}"))));
        }
    }
}

/// A row's `for:` tags: each names an archetype.
fn for_tags(
    files: &[SourceFile],
    (t, row): (&Table, &crate::content::Row),
    archetypes: &[&str],
    problems: &mut Vec<Diagnostic>,
) {
    if archetypes.is_empty() {
        return;
    }
    for tag in row.entry.tags.iter() {
        let Some(name) = tag.strip_prefix(FOR) else {
            continue;
        };
        if archetypes.contains(&name) {
            continue;
        }
        let d = at_row(
            files,
            t,
            Some(row),
            format!(
                "row `{}` is tagged `{tag}`, but no archetype is named `{name}`",
                row.entry.name
            ),
            "a for: tag names an archetype of gen.npc.mettle or gen.npc.core (`for:innkeeper`);              the row then fits only the archetypes its for: tags name",
        );
        let near = suggest(name, archetypes.iter().copied()).map(|a| format!("{FOR}{a}"));
        problems.push(d.with_suggestion(near));
    }
}

/// One row's kind tags: each known, and at least one.
fn row_tags(
    files: &[SourceFile],
    t: &Table,
    row: &crate::content::Row,
    problems: &mut Vec<Diagnostic>,
) {
    body_tags(files, t, row, problems);
    let kinds: Vec<&str> = row
        .entry
        .tags
        .iter()
        .map(|t| t.as_ref())
        .filter(|t: &&str| !t.contains(':'))
        .collect();
    for kind in kinds.iter().filter(|k| !KINDS.contains(k)) {
        let d = at_row(
            files,
            t,
            Some(row),
            format!(
                "row `{}` is tagged `{kind}`, which is no archetype kind",
                row.entry.name
            ),
            HINT,
        );
        problems.push(d.with_suggestion(suggest(kind, KINDS.iter().copied())));
    }
    for need in row.entry.tags.iter().filter(|t| t.starts_with("needs:")) {
        if **need != *ALIVE {
            problems.push(at_row(
                files,
                t,
                Some(row),
                format!(
                    "row `{}` is tagged `{need}`, but the one need a trait row may have is \
                     `{ALIVE}`",
                    row.entry.name
                ),
                "write `needs:alive` for a row that fits only the living, or leave the tag out",
            ));
        }
    }
    if kinds.is_empty() {
        problems.push(at_row(
            files,
            t,
            Some(row),
            format!(
                "row `{}` fits no archetype kind, so no NPC could draw it",
                row.entry.name
            ),
            HINT,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `fits_body` answers as `bodies` reads the tags, for every body and
    /// tag set (none, one, two, with other tags around them).
    #[test]
    fn fits_body_agrees_with_bodies() {
        let sets: [&[&str]; 5] = [
            &[],
            &["beast"],
            &["body:beast"],
            &["for:innkeeper", "body:bones", "body:headless"],
            &["body:person", "alive"],
        ];
        for set in sets {
            let tags: Vec<crate::content::Text> = set.iter().map(|&t| t.into()).collect();
            for body in BODIES {
                assert_eq!(
                    fits_body(&tags, body),
                    bodies(&tags).contains(&body),
                    "{set:?} {body}"
                );
            }
        }
    }
}
