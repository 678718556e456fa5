//! An NPC's concept: one line, who they are and what they want, drawn
//! among its archetype row's own text and the rows of `gen.npc.concept`
//! tagged `archetype:<name>` with the archetype's name (both systems share
//! them), by weight (the archetype's own line weighs 1), on the NPC's
//! `concept` stream.
//!
//! A campaign remembers a concept by its key, `<table>/<row>`: the
//! archetype table and the archetype's name for its own line
//! (`gen.npc.mettle/bandit`), `gen.npc.concept/<row>` for a concept row.
//! A draw leaves out the concepts a campaign met while the archetype has
//! others; an archetype all of whose concepts were met is drawn only when
//! every one is ([`super::npc`]'s `met`). The concepts of every person
//! archetype met, the table is used up ([`used_up`]).

use crate::content::{Library, Row};
use crate::seed::Stream;

/// The table of more concept lines, tagged by archetype.
pub const TABLE: &str = "gen.npc.concept";

/// One concept: how a campaign remembers it, and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Concept {
    /// How a campaign remembers it (`<table>/<row>`).
    pub key: String,
    /// The concept line: who they are and what they want.
    pub text: String,
}

/// Every concept of the archetype `row` of `table` with its weight: its
/// own line first, then the concept rows tagged with it that may be drawn.
pub fn of(library: &Library, table: &str, row: &Row) -> Vec<(Concept, u64)> {
    let name = &row.entry.name;
    let own = Concept {
        key: format!("{table}/{name}"),
        text: row.entry.text.to_string(),
    };
    let mut out = vec![(own, 1)];
    let Some(rows) = library.get(TABLE) else {
        return out;
    };
    let tag = format!("archetype:{name}");
    out.extend(
        rows.rows
            .iter()
            .filter(|r| library.drawable(r) && r.entry.tags.iter().any(|t| **t == *tag))
            .map(|r| {
                let c = Concept {
                    key: format!("{TABLE}/{}", r.entry.name),
                    text: r.entry.text.to_string(),
                };
                (c, r.entry.weight.unwrap_or(1).max(1))
            }),
    );
    out
}

/// Whether the archetype `row` has a concept not in `met`.
pub(crate) fn has_fresh(library: &Library, table: &str, row: &Row, met: &[String]) -> bool {
    of(library, table, row)
        .iter()
        .any(|(c, _)| !met.contains(&c.key))
}

/// The concepts of `all` (an archetype's, [`of`]) that a situation's
/// `concept:` tags `fits` allow: those named (a concept row by its name,
/// the archetype's own line by the archetype's name), or all of them when
/// `fits` names none of them.
pub fn fitting(all: Vec<(Concept, u64)>, fits: &[String]) -> Vec<(Concept, u64)> {
    let named = |c: &Concept| {
        let name = c.key.split_once('/').map_or("", |(_, n)| n);
        fits.iter().any(|f| f == name)
    };
    if all.iter().any(|(c, _)| named(c)) {
        all.into_iter().filter(|(c, _)| named(c)).collect()
    } else {
        all
    }
}

/// A concept of the archetype `row`, among those a situation allows
/// (`fits`, [`fitting`]) and of those the ones not in `met` while there
/// are any, by weight, on `s`.
pub fn draw(
    library: &Library,
    table: &str,
    row: &Row,
    (met, fits): (&[String], &[String]),
    s: &mut Stream,
) -> Concept {
    let all = fitting(of(library, table, row), fits);
    let fresh: Vec<&(Concept, u64)> = all.iter().filter(|(c, _)| !met.contains(&c.key)).collect();
    let pool: Vec<&(Concept, u64)> = if fresh.is_empty() {
        all.iter().collect()
    } else {
        fresh
    };
    let weights: Vec<u64> = pool.iter().map(|(_, w)| *w).collect();
    let pick = s.pick_weighted(&weights).unwrap_or(0);
    pool[pick].0.clone()
}

/// The keys of every concept of the person archetypes of `table` (the
/// NPC cards' archetypes) that may be drawn.
pub fn pool(library: &Library, table: &str) -> Vec<String> {
    let Some(t) = library.get(table) else {
        return Vec::new();
    };
    let rows = by_archetype(library);
    t.rows
        .iter()
        .filter(|r| is_person(r) && library.drawable(r))
        .flat_map(|r| {
            let own = format!("{table}/{}", r.entry.name);
            let theirs = rows.get(&*r.entry.name).into_iter().flatten().cloned();
            std::iter::once(own).chain(theirs)
        })
        .collect()
}

/// The keys of the drawable concept rows by the archetype each names
/// (`archetype:<name>`), in the table's order: [`of`]'s rows for every
/// archetype at once, the concept table read once.
fn by_archetype(library: &Library) -> std::collections::BTreeMap<&str, Vec<String>> {
    let mut out: std::collections::BTreeMap<&str, Vec<String>> = Default::default();
    let Some(rows) = library.get(TABLE) else {
        return out;
    };
    for r in rows.rows.iter().filter(|r| library.drawable(r)) {
        let key = format!("{TABLE}/{}", r.entry.name);
        for name in r
            .entry
            .tags
            .iter()
            .filter_map(|t| t.strip_prefix("archetype:"))
        {
            let keys = out.entry(name).or_default();
            if keys.last() != Some(&key) {
                keys.push(key.clone());
            }
        }
    }
    out
}

/// Whether every concept of a system's person archetypes is among
/// `remembered`, for either system whose own lines are among them: the
/// NPC cards' concepts are used up.
pub fn used_up(library: &Library, remembered: &std::collections::BTreeSet<String>) -> bool {
    ARCHETYPES
        .into_iter()
        .map(|t| pool(library, t))
        .any(|p| !p.is_empty() && p.iter().all(|k| remembered.contains(k)))
}

/// The archetype tables of both systems (`npc::table_for`).
const ARCHETYPES: [&str; 2] = ["gen.npc.mettle", "gen.npc.core"];

/// Whether an archetype is a person (`human` or `townsfolk`), as
/// `npc::is_person` says (this module sits below `npc`).
fn is_person(row: &Row) -> bool {
    row.entry
        .tags
        .iter()
        .any(|t| **t == *"human" || **t == *"townsfolk")
}

/// The text of a concept remembered as `<table>/<row>`.
pub fn text(library: &Library, key: &str) -> Option<String> {
    let (table, name) = key.split_once('/')?;
    let row = library
        .get(table)?
        .rows
        .iter()
        .find(|r| r.entry.name == name)?;
    Some(row.entry.text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::test_library;

    /// Every person archetype has at least five concepts (its own line and
    /// four rows), the same rows in both systems, and every concept row
    /// names an archetype that exists.
    #[test]
    fn every_person_has_five_concepts_in_both_systems() {
        let library = test_library();
        for table in ARCHETYPES {
            for row in library.table(table).unwrap().rows.iter() {
                if !is_person(row) {
                    continue;
                }
                let n = of(&library, table, row).len();
                assert!(n >= 5, "{table}: {} has {n} concepts", row.entry.name);
            }
        }
        let names: Vec<String> = library
            .table(ARCHETYPES[0])
            .unwrap()
            .rows
            .iter()
            .map(|r| r.entry.name.to_string())
            .collect();
        for r in &library.table(TABLE).unwrap().rows {
            let tagged: Vec<&str> = r
                .entry
                .tags
                .iter()
                .filter_map(|t| t.strip_prefix("archetype:"))
                .collect();
            assert_eq!(tagged.len(), 1, "{}", r.entry.name);
            assert!(names.iter().any(|n| n == tagged[0]), "{}", r.entry.name);
        }
    }

    /// The pool read in one pass over the concept table is every person
    /// archetype's concepts ([`of`]), in order.
    #[test]
    fn the_pool_is_every_persons_concepts_in_order() {
        let library = test_library();
        for table in ARCHETYPES {
            let each: Vec<String> = library
                .table(table)
                .unwrap()
                .rows
                .iter()
                .filter(|r| is_person(r) && library.drawable(r))
                .flat_map(|r| of(&library, table, r).into_iter().map(|(c, _)| c.key))
                .collect();
            assert!(each.len() > 100, "{table}: {}", each.len());
            assert_eq!(pool(&library, table), each, "{table}");
        }
    }

    #[test]
    fn a_draw_leaves_out_what_was_met_until_nothing_else_is_left() {
        let library = test_library();
        let table = ARCHETYPES[1];
        let row = library
            .table(table)
            .unwrap()
            .rows
            .iter()
            .find(|r| r.entry.name == "bandit")
            .unwrap();
        let all: Vec<String> = of(&library, table, row)
            .into_iter()
            .map(|(c, _)| c.key)
            .collect();
        let seed = crate::seed::Seed::new("concepts").unwrap();
        let mut met = all[1..].to_vec();
        for i in 0..20 {
            let mut s = seed.stream(&format!("c/{i}"));
            assert_eq!(draw(&library, table, row, (&met, &[]), &mut s).key, all[0]);
        }
        assert!(has_fresh(&library, table, row, &met));
        met.push(all[0].clone());
        assert!(!has_fresh(&library, table, row, &met));
        let mut s = seed.stream("c/x");
        assert!(all.contains(&draw(&library, table, row, (&met, &[]), &mut s).key));
    }
}
