//! Checks across the trap tables, so that every terrain can be given a
//! trap whose parts hang together ([`crate::content::traps`]):
//!
//! - the METTLE and Core Rules effect tables hold the same rows by name,
//!   with the same coherence tags (`mech:`, `place:`, `terrain:`,
//!   `touch:`, `never:`): a trap is the same trap in either system;
//! - every effect names its mechanism (`mech:`) and fits some terrain;
//! - in every terrain an effect fits, a trigger there suits it (`by:` for
//!   each `touch:`, none for a `never:`) and, for each of its `mech:`
//!   tags, a clue there points at that mechanism;
//! - every tag says something the generator reads: a trigger's `by:`, an
//!   effect's `touch:` and `never:` name a kind of [`traps::KINDS`], an
//!   effect (or a rules trap) carries no tag but `mech:`, `place:`,
//!   `terrain:`, `touch:`, `never:`, `era:`, `alarm` and `once`, a way to
//!   deal with a trap does one of [`traps::DOES`], and no table but the
//!   trap tables carries a `mech:` tag.

use std::collections::BTreeMap;

use super::{at_row, suggest};
use crate::content::region::Region;
use crate::content::traps::{self, CLUES, DISARM, DOES, EFFECT_FLAGS, EFFECTS, KINDS, TRIGGERS};
use crate::content::{Row, SourceFile, Table, Text};
use crate::diagnostic::Diagnostic;

pub(super) fn check(
    tables: &BTreeMap<String, Table>,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) {
    for t in tables.values() {
        for row in &t.rows {
            for (message, hint, near) in tag_problems(&t.id, &row.entry.name, &row.entry.tags) {
                let d = at_row(files, t, Some(row), message, &hint);
                problems.push(d.with_suggestion(near));
            }
        }
    }
    let [mettle, core] = EFFECTS.map(|id| tables.get(id));
    if let (Some(m), Some(c)) = (mettle, core) {
        same_effects(m, c, files, problems);
    }
    let regions: Vec<&Region> = tables.values().filter_map(|t| t.region.as_ref()).collect();
    let parts = Parts {
        triggers: tables.get(TRIGGERS).map_or(&[][..], |t| &t.rows[..]),
        clues: tables.get(CLUES).map_or(&[][..], |t| &t.rows[..]),
        regions: &regions,
    };
    for t in [mettle, core].into_iter().flatten() {
        for row in t.rows.iter().filter(|r| !checked_as_mettle(r, t, mettle)) {
            for (message, hint) in parts.problems(row) {
                problems.push(at_row(files, t, Some(row), message, &hint));
            }
        }
    }
}

/// A Core effect with a METTLE row of its name and tags: its problems are
/// that row's, said once.
fn checked_as_mettle(row: &Row, t: &Table, mettle: Option<&Table>) -> bool {
    let Some(m) = mettle.filter(|m| m.id != t.id) else {
        return false;
    };
    m.rows.iter().any(|r| {
        r.entry.name == row.entry.name
            && traps::coherence(&r.entry.tags) == traps::coherence(&row.entry.tags)
    })
}

/// Each row of one effect table missing from the other, and each row of
/// the Core table whose coherence tags differ from the METTLE row's.
fn same_effects(m: &Table, c: &Table, files: &[SourceFile], problems: &mut Vec<Diagnostic>) {
    for (here, there) in [(m, c), (c, m)] {
        for row in &here.rows {
            if !there.rows.iter().any(|r| r.entry.name == row.entry.name) {
                problems.push(at_row(
                    files,
                    here,
                    Some(row),
                    format!(
                        "trap effect `{}` is in `{}` but not in `{}`",
                        row.entry.name, here.id, there.id
                    ),
                    &format!(
                        "a trap is the same trap in either system: add a row named `{}` to `{}` (with `extends = \"{}\"`), with the same mech:, place:, terrain:, touch: and never: tags",
                        row.entry.name, there.id, there.id
                    ),
                ));
            }
        }
    }
    for row in &c.rows {
        let Some(other) = m.rows.iter().find(|r| r.entry.name == row.entry.name) else {
            continue;
        };
        let (ours, theirs) = (
            traps::coherence(&row.entry.tags),
            traps::coherence(&other.entry.tags),
        );
        if ours != theirs {
            problems.push(at_row(
                files,
                c,
                Some(row),
                format!(
                    "trap effect `{}` is tagged [{}] here but [{}] in `{}`",
                    row.entry.name,
                    ours.join(", "),
                    theirs.join(", "),
                    m.id
                ),
                "give the row of each system the same mech:, place:, terrain:, touch: and never: tags, so a trap fits the same places and parts in both",
            ));
        }
    }
}

/// The trap parts an effect is paired with, and the terrains.
struct Parts<'a> {
    triggers: &'a [Row],
    clues: &'a [Row],
    regions: &'a [&'a Region],
}

impl Parts<'_> {
    /// What stops `effect` making a trap that hangs together: each a
    /// message and a hint.
    fn problems(&self, effect: &Row) -> Vec<(String, String)> {
        let name = &effect.entry.name;
        let tags = &effect.entry.tags;
        let mechs: Vec<&str> = traps::values(tags, "mech:").collect();
        let mut out = Vec::new();
        if mechs.is_empty() {
            out.push((
                format!("trap effect `{name}` names no mechanism"),
                "tag it with its mechanism (`mech:darts`, `mech:pit`…) so its clues and the ways to disarm it can be matched to it".to_owned(),
            ));
        }
        let homes: Vec<&Region> = self
            .regions
            .iter()
            .copied()
            .filter(|r| traps::fits(tags, r))
            .collect();
        if homes.is_empty() {
            out.push((
                format!("trap effect `{name}` fits no terrain"),
                format!(
                    "its terrain: and place: tags name none of the terrains ({}); a region is place:wild or place:built",
                    self.names()
                ),
            ));
        }
        let unsprung: Vec<&str> = homes
            .iter()
            .filter(|r| !self.triggers.iter().any(|t| springs(t, tags, r)))
            .map(|r| r.name.as_str())
            .collect();
        if !unsprung.is_empty() {
            out.push((
                format!(
                    "no trigger can spring trap effect `{name}` in {}",
                    unsprung.join(", ")
                ),
                format!(
                    "a trigger there must carry by:<kind> for each of its touch: tags ({}) and none of its never: tags ({}): add such a trigger to {TRIGGERS}, or tag the effect for fewer terrains",
                    listed(traps::values(tags, "touch:")),
                    listed(traps::values(tags, "never:")),
                ),
            ));
        }
        for mech in mechs {
            let blind: Vec<&str> = homes
                .iter()
                .filter(|r| !self.clues.iter().any(|c| shows(c, mech, r)))
                .map(|r| r.name.as_str())
                .collect();
            if !blind.is_empty() {
                out.push((
                    format!(
                        "no clue points at mech:{mech} of trap effect `{name}` in {}",
                        blind.join(", ")
                    ),
                    format!(
                        "add a row tagged `mech:{mech}` to {CLUES} that fits those terrains, or tag the effect for fewer terrains"
                    ),
                ));
            }
        }
        out
    }

    fn names(&self) -> String {
        let names: Vec<&str> = self.regions.iter().map(|r| r.name.as_str()).collect();
        names.join(", ")
    }
}

/// Whether `trigger` fits `region` and suits an effect with `effect` tags.
fn springs(trigger: &Row, effect: &[Text], region: &Region) -> bool {
    traps::fits(&trigger.entry.tags, region) && traps::suits(effect, &trigger.entry.tags)
}

/// Whether `clue` fits `region` and shows `mech`.
fn shows(clue: &Row, mech: &str, region: &Region) -> bool {
    traps::fits(&clue.entry.tags, region)
        && traps::values(&clue.entry.tags, "mech:").any(|m| m == mech)
}

fn listed<'a>(values: impl Iterator<Item = &'a str>) -> String {
    let v: Vec<&str> = values.collect();
    if v.is_empty() {
        "none".into()
    } else {
        v.join(", ")
    }
}

/// The tables that hold trap parts: they may carry `mech:` tags.
const TRAP_TABLES: [&str; 6] = [
    TRIGGERS,
    CLUES,
    EFFECTS[0],
    EFFECTS[1],
    DISARM,
    "mettle.traps",
];

/// The tag prefixes an effect (or a rules trap) may carry.
const EFFECT_PREFIXES: [&str; 6] = ["mech:", "place:", "terrain:", "touch:", "never:", "era:"];

/// A problem with a tag: message, hint, the nearest right tag.
type TagProblem = (String, String, Option<String>);

/// What is wrong with the trap tags of row `name` of table `id`.
fn tag_problems(id: &str, name: &str, tags: &[Text]) -> Vec<TagProblem> {
    let mut out = Vec::new();
    let is_effect = EFFECTS.contains(&id) || id == "mettle.traps";
    for tag in tags.iter().map(AsRef::as_ref) {
        if tag.starts_with("mech:") && !TRAP_TABLES.contains(&id) {
            out.push((
                format!(
                    "row `{name}` is tagged `{tag}`, but only a trap table's rows have a mechanism"
                ),
                format!(
                    "mech: tags belong to {}: leave it out here, or move the row there",
                    TRAP_TABLES.join(", ")
                ),
                None,
            ));
        }
        out.extend(kind_problem(id, name, tag));
        if id == DISARM {
            out.extend(do_problem(name, tag));
        }
        if is_effect {
            out.extend(effect_problem(name, tag));
        }
    }
    out
}

/// A `by:` (trigger), `touch:` or `never:` (effect) tag naming no kind.
fn kind_problem(id: &str, name: &str, tag: &str) -> Option<TagProblem> {
    let prefixes: &[&str] = match id {
        TRIGGERS | DISARM => &["by:"],
        _ if EFFECTS.contains(&id) || id == "mettle.traps" => &["touch:", "never:"],
        _ => &[],
    };
    let (prefix, kind) = prefixes
        .iter()
        .find_map(|p| tag.strip_prefix(p).map(|k| (*p, k)))?;
    if KINDS.contains(&kind) {
        return None;
    }
    Some((
        format!("row `{name}` is tagged `{tag}`, but `{kind}` is no kind of trigger"),
        format!(
            "a trigger's by: tags and an effect's touch: and never: tags name one of: {}",
            KINDS.join(", ")
        ),
        suggest(kind, KINDS.iter().copied()).map(|k| format!("{prefix}{k}")),
    ))
}

/// A `do:` tag of a way to deal with a trap naming nothing it can do.
fn do_problem(name: &str, tag: &str) -> Option<TagProblem> {
    let does = tag.strip_prefix("do:")?;
    if DOES.contains(&does) {
        return None;
    }
    Some((
        format!("row `{name}` is tagged `{tag}`, which is nothing a party does to a trap"),
        format!(
            "a do: tag is one of: {}",
            DOES.map(|d| format!("do:{d}")).join(", ")
        ),
        suggest(does, DOES.iter().copied()).map(|d| format!("do:{d}")),
    ))
}

/// A tag an effect carries that the generator does not read.
fn effect_problem(name: &str, tag: &str) -> Option<TagProblem> {
    let known = EFFECT_PREFIXES.iter().any(|p| tag.starts_with(p)) || EFFECT_FLAGS.contains(&tag);
    if known {
        return None;
    }
    let flags = EFFECT_FLAGS.iter().copied();
    Some((
        format!("trap effect `{name}` is tagged `{tag}`, which no trap reads"),
        format!(
            "an effect's tags are mech:, place:, terrain:, touch:, never:, era: and the words {}",
            EFFECT_FLAGS.join(", ")
        ),
        suggest(tag, flags),
    ))
}
