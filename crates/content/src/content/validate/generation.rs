//! Checks that prove generation will succeed: every reference a generator
//! follows resolves, and no roll can nest or grow past the resolver's
//! limits.
//!
//! - `foe:` and `npc:` tags of `gen.encounter.<region>` rows name an
//!   archetype in the archetype table of every system the table claims
//!   (`any`: both `gen.npc.mettle` and `gen.npc.core`).
//! - Every archetype is in both archetype tables (an encounter may be made
//!   in either system).
//! - Every row of `gen.npc.concept` is tagged `archetype:<name>` with
//!   archetypes of both archetype tables (else it is never drawn).
//! - Every row of `gen.situation.returning` is tagged `was:foe` or
//!   `was:card` and otherwise only with the layer tags, and writes the
//!   person only with the markers an encounter fills in (`@name`, `@kind`,
//!   `@they`, `@them`, `@their`, capitalised or not).
//! - The rows of the situation layers (`gen.situation.twist`,
//!   `gen.situation.ending`) carry only the tags an encounter reads
//!   (`outdoor`, `indoor`, `foes`, `people`), and never both `outdoor`
//!   and `indoor` (no situation could take the row).
//! - Every region has places for a map: a `gen.poi` row with its `places`
//!   tag.
//! - Depth: the longest chain of `{table:…}` references from any table is
//!   at most [`MAX_REFERENCE_DEPTH`]; roll-again rows nest at most
//!   [`MAX_REROLL_DEPTH`] deep at roll time, so no validated
//!   roll goes past [`crate::tables::MAX_DEPTH`].
//! - Expansion: the expected number of table rolls one roll makes
//!   (references and roll-again rows, from the rows' exact chances) is at
//!   most [`MAX_EXPECTED_ROLLS`], and the most one roll can make without
//!   roll-again rows at most [`MAX_WORST_ROLLS`]; past them a roll could
//!   take minutes or all the memory there is.
//! - [`expected_rolls`]: the same expectation as the resolver really rolls
//!   (roll-again rows nest at most [`MAX_REROLL_DEPTH`]
//!   deep), which `tables` uses to price a command before rolling.

use std::collections::BTreeMap;

use super::{at_row, at_table, suggest};
use crate::content::region::{
    CAPTIVE, LAYER_TABLES, LAYER_TAGS, NEEDS_CAPTIVE, PREFIX, TERRAIN_TAG,
};
use crate::content::template::Segment;
use crate::content::{SourceFile, System, Table, rerolls_per_roll, row_chances};
use crate::diagnostic::Diagnostic;

/// The longest chain of `{table:…}` references a validated table may start.
pub const MAX_REFERENCE_DEPTH: usize = 12;
/// Deepest nesting of roll-again rows within one table: past it a drawn
/// roll-again row is drawn again (for validated tables, with chance well
/// under 10⁻¹²). `tables` rolls by it; it lives here, with the checks
/// that price it, so validation need not reach up into `tables`.
pub const MAX_REROLL_DEPTH: usize = 12;
/// The most table rolls one roll may make on average.
pub const MAX_EXPECTED_ROLLS: f64 = 1_000.0;
/// The most table rolls one roll may make at worst (roll-again rows aside).
pub const MAX_WORST_ROLLS: f64 = 100_000.0;

/// The archetype tables, by system.
const ARCHETYPES: [(&str, System); 2] = [
    ("gen.npc.mettle", System::Mettle),
    ("gen.npc.core", System::Core),
];

pub(super) fn check(
    tables: &BTreeMap<String, Table>,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) {
    archetype_tags(tables, files, problems);
    concept_tags(tables, files, problems);
    returning_rows(tables, files, problems);
    layer_tags(tables, files, problems);
    archetypes_in_both(tables, files, problems);
    growth(tables, files, problems);
}

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
fn archetype_tags(
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

/// The table of more concept lines, tagged by archetype.
const CONCEPTS: &str = "gen.npc.concept";

/// Each `gen.npc.concept` row's `archetype:` tags name archetypes of both
/// archetype tables, and it has at least one.
fn concept_tags(
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

/// The table of returning faces, the ways a person was met, and the
/// markers a row may write.
const RETURNING: &str = "gen.situation.returning";
const WAS: [&str; 2] = ["was:foe", "was:card"];
const MARKERS: [&str; 10] = [
    "@name", "@kind", "@they", "@them", "@their", "@Name", "@Kind", "@They", "@Them", "@Their",
];

/// Each `gen.situation.returning` row: a `was:` tag, only layer tags
/// besides, and only the markers an encounter fills in.
fn returning_rows(
    tables: &BTreeMap<String, Table>,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) {
    let Some(t) = tables.get(RETURNING) else {
        return;
    };
    let known = || WAS.iter().chain(LAYER_TAGS.iter()).copied();
    for row in &t.rows {
        let tags = &row.entry.tags;
        let name = &row.entry.name;
        let mut said = |what: String, hint: &str, near: Option<&str>, from: &[&str]| {
            let d = at_row(files, t, Some(row), what, hint);
            let d = match near {
                Some(w) => d.with_suggestion(suggest(w, from.iter().copied())),
                None => d,
            };
            problems.push(d);
        };
        if !tags.iter().any(|g| WAS.contains(&g.as_ref())) {
            said(
                format!(
                    "row `{name}` says neither `was:foe` nor `was:card`, so nobody comes back by it"
                ),
                "tag it `was:foe` (a foe group's leader), `was:card` (an NPC card) or both",
                None,
                &[],
            );
        }
        let all: Vec<&str> = known().collect();
        for g in tags.iter().filter(|g| !all.contains(&g.as_ref())) {
            said(
                format!("row `{name}` is tagged `{g}`, which no returning face reads"),
                &format!("its tags: was:foe, was:card, {}", LAYER_TAGS.join(", ")),
                Some(g),
                &all,
            );
        }
        let text = row.entry.text.as_ref();
        for m in text.split(|c: char| !c.is_alphanumeric() && c != '@') {
            if m.starts_with('@') && !MARKERS.contains(&m) {
                said(
                    format!("row `{name}` writes `{m}`, which no returning face fills in"),
                    "write the person as @name, @kind, @they, @them or @their (@They … at a sentence's start)",
                    Some(m),
                    &MARKERS,
                );
            }
        }
    }
}

/// The spoils tables: their rows carry layer tags too (what the scene
/// needs for them), and [`NEEDS_CAPTIVE`].
const SPOILS_TABLES: [&str; 3] = [
    "gen.treasure.core",
    "gen.treasure.mettle",
    "gen.treasure.trinket",
];

/// The terrains: the `gen.encounter.<name>` tables' names.
pub(super) fn terrains(tables: &BTreeMap<String, Table>) -> Vec<&str> {
    tables
        .keys()
        .filter_map(|id| id.strip_prefix(PREFIX))
        .collect()
}

/// A layer or spoils row's tags: each one an encounter reads, `terrain:`
/// naming a terrain, not both places.
fn layer_tags(
    tables: &BTreeMap<String, Table>,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) {
    let terrains = terrains(tables);
    let layers = LAYER_TABLES.iter().map(|id| (id, CAPTIVE));
    let spoils = SPOILS_TABLES.iter().map(|id| (id, NEEDS_CAPTIVE));
    for (t, own) in layers
        .chain(spoils)
        .filter_map(|(id, own)| Some((tables.get(*id)?, own)))
    {
        for row in &t.rows {
            let tags = &row.entry.tags;
            let mut said = |what: String, hint: String, near: &str, from: &[&str]| {
                let d = at_row(files, t, Some(row), what, &hint);
                problems.push(d.with_suggestion(suggest(near, from.iter().copied())));
            };
            for tag in tags.iter().map(|g| g.as_ref()) {
                if let Some(name) = tag.strip_prefix(TERRAIN_TAG) {
                    if !terrains.contains(&name) {
                        said(
                            format!(
                                "row `{}` is tagged `{tag}`, but there is no terrain `{name}`",
                                row.entry.name
                            ),
                            format!(
                                "the terrains are the gen.encounter.<name> tables: {}",
                                terrains.join(", ")
                            ),
                            name,
                            &terrains,
                        );
                    }
                } else if !LAYER_TAGS.contains(&tag) && tag != own {
                    said(
                        format!(
                            "row `{}` is tagged `{tag}`, which no encounter reads",
                            row.entry.name
                        ),
                        format!(
                            "a situation layer's or spoils row's tags say what it needs of the scene: {}, \
                             {TERRAIN_TAG}<terrain> (and `{own}`)",
                            LAYER_TAGS.join(", ")
                        ),
                        tag,
                        &LAYER_TAGS,
                    );
                }
            }
            if ["outdoor", "indoor"]
                .iter()
                .all(|p| tags.iter().any(|g| g == p))
            {
                problems.push(at_row(
                    files,
                    t,
                    Some(row),
                    format!(
                        "row `{}` is tagged both `outdoor` and `indoor`, so no situation takes it",
                        row.entry.name
                    ),
                    "keep the one place it needs, or neither for a row that fits anywhere",
                ));
            }
        }
    }
}

/// An archetype in one system's table and not the other's.
fn archetypes_in_both(
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

/// A region with no `gen.poi` row of its own: a warning, not a problem —
/// everything works there but a map's stops, which fall back to the
/// untagged places (the `gen.poi` rows tagged with no region's places).
pub(super) fn place_warnings(
    tables: &BTreeMap<String, Table>,
    files: &[SourceFile],
) -> Vec<Diagnostic> {
    let Some(poi) = tables.get("gen.poi") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for t in tables.values() {
        let Some(region) = &t.region else { continue };
        if poi
            .rows
            .iter()
            .any(|r| r.entry.tags.iter().any(|t| *t == region.places))
        {
            continue;
        }
        out.push(at_table(
            files,
            t,
            format!(
                "region `{}` has no places of its own: no `gen.poi` row is tagged `{}`, so a map's stops there are drawn from the untagged places",
                region.name, region.places
            ),
            &format!(
                "to give it its own, add rows tagged `{}` to gen.poi with a [[table]] `extends = \"gen.poi\"`, or set `places` under [table.region] to another region's tag",
                region.places
            ),
        ));
    }
    out
}

/// Reference depth and expected and worst-case expansion of every table.
fn growth(tables: &BTreeMap<String, Table>, files: &[SourceFile], problems: &mut Vec<Diagnostic>) {
    let mut memo = Memo::default();
    for t in tables.values() {
        let g = memo.of(tables, &t.id);
        if g.depth >= usize::MAX / 4 {
            // A loop of references, reported as such.
            continue;
        }
        if g.depth > MAX_REFERENCE_DEPTH {
            problems.push(at_table(
                files,
                t,
                format!(
                    "a roll on this table follows {} references deep ({}); the most is {MAX_REFERENCE_DEPTH}",
                    g.depth,
                    memo.chain(tables, &t.id).join(" → ")
                ),
                "shorten the chain of {table:…} references (roll the deeper tables in a row's text instead)",
            ));
        } else if g.expected > MAX_EXPECTED_ROLLS || g.worst > MAX_WORST_ROLLS {
            problems.push(at_table(
                files,
                t,
                format!(
                    "one roll on this table makes {} table rolls on average and up to {} at worst; the most is {MAX_EXPECTED_ROLLS} on average, {MAX_WORST_ROLLS} at worst",
                    big(g.expected),
                    big(g.worst)
                ),
                "rows that each refer to several tables multiply: refer to fewer tables per row, or use {pick: …} to choose one",
            ));
        }
    }
}

/// A count that may be astronomically large, readably.
fn big(x: f64) -> String {
    if !x.is_finite() {
        "without end".into()
    } else if x < 1e6 {
        format!("{x:.0}")
    } else {
        format!("{x:.1e}")
    }
}

/// Expected rolls of one roll as the resolver nests roll-again rows: a
/// roll at nesting level `m` (0 for the first) makes itself, `below` more
/// on average through its row's references, and `breed` rolls at level
/// `m + 1`; a roll past [`MAX_REROLL_DEPTH`] is drawn among
/// the plain rows only, making itself and `plain_below`.
fn rolled_with_nesting(below: f64, breed: f64, plain_below: f64) -> f64 {
    let mut rolled = 1.0 + plain_below;
    for _ in 0..=MAX_REROLL_DEPTH {
        rolled = 1.0 + below + breed * rolled;
    }
    rolled
}

/// What one roll on a table grows into.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Growth {
    /// The longest chain of references below it (0: none).
    depth: usize,
    /// Expected table rolls, this one included.
    expected: f64,
    /// Most table rolls without roll-again rows, this one included.
    worst: f64,
    /// Expected table rolls as the resolver makes them: past
    /// [`MAX_REROLL_DEPTH`] nested roll-again rows, a drawn
    /// roll-again row is drawn again, so only plain rows are made there.
    rolled: f64,
}

/// The table rolls one roll on table `id` makes on average (itself, its
/// references and its roll-again rows), as the resolver rolls them: with
/// roll-again rows nested at most [`MAX_REROLL_DEPTH`] deep.
/// Unbounded (a loop of references) is infinity; an unknown table is 1.
pub fn expected_rolls(tables: &BTreeMap<String, Table>, id: &str) -> f64 {
    Memo::default().of(tables, id).rolled
}

/// Growth of each table, worked out once (references have no loops here:
/// loops are refused before, and a table met again on the way counts as
/// unbounded).
#[derive(Default)]
struct Memo {
    done: BTreeMap<String, Growth>,
    busy: Vec<String>,
}

impl Memo {
    fn of(&mut self, tables: &BTreeMap<String, Table>, id: &str) -> Growth {
        if let Some(g) = self.done.get(id) {
            return *g;
        }
        let Some(t) = tables.get(id) else {
            return Growth {
                depth: 0,
                expected: 1.0,
                worst: 1.0,
                rolled: 1.0,
            };
        };
        if self.busy.iter().any(|b| b == id) {
            return Growth {
                depth: usize::MAX / 2,
                expected: f64::INFINITY,
                worst: f64::INFINITY,
                rolled: f64::INFINITY,
            };
        }
        self.busy.push(id.to_owned());
        let chances = row_chances(&t.rows, t.dice_expr());
        let breed = rerolls_per_roll(&t.rows, &chances);
        let (mut depth, mut below, mut worst) = (0, 0.0, 0.0f64);
        // Rolled below one draw: any row, or (past the nesting limit) a
        // plain row, drawn again until one comes up.
        let (mut rolled_below, mut plain_below, mut plain_chance) = (0.0, 0.0, 0.0);
        for (row, p) in t.rows.iter().zip(&chances) {
            let g = self.segments(tables, &row.segments());
            depth = depth.max(g.depth);
            below += p * g.expected;
            worst = worst.max(g.worst);
            rolled_below += p * g.rolled;
            if row.entry.reroll.is_none() {
                plain_below += p * g.rolled;
                plain_chance += p;
            }
        }
        self.busy.pop();
        let rolled = rolled_with_nesting(
            rolled_below,
            breed,
            if plain_chance > 0.0 {
                plain_below / plain_chance
            } else {
                f64::INFINITY
            },
        );
        // Each roll makes itself and its row's references; a roll-again row
        // makes on average `breed` more rolls of this table, each the same.
        let expected = if breed < 1.0 {
            (1.0 + below) / (1.0 - breed)
        } else {
            f64::INFINITY
        };
        let g = Growth {
            depth,
            expected,
            worst: 1.0 + worst,
            rolled,
        };
        self.done.insert(id.to_owned(), g);
        g
    }

    /// Growth of a row's text: references add up; a pick takes the average
    /// (expected) and the largest (worst) of its options.
    fn segments(&mut self, tables: &BTreeMap<String, Table>, segments: &[Segment]) -> Growth {
        let mut sum = Growth {
            depth: 0,
            expected: 0.0,
            worst: 0.0,
            rolled: 0.0,
        };
        for s in segments {
            let g = match s {
                Segment::Table { id, .. } => {
                    let g = self.of(tables, id);
                    Growth {
                        depth: g.depth.saturating_add(1),
                        ..g
                    }
                }
                Segment::Pick { options } => {
                    let gs: Vec<Growth> =
                        options.iter().map(|o| self.segments(tables, o)).collect();
                    Growth {
                        depth: gs.iter().map(|g| g.depth).max().unwrap_or(0),
                        expected: gs.iter().map(|g| g.expected).sum::<f64>()
                            / gs.len().max(1) as f64,
                        worst: gs.iter().map(|g| g.worst).fold(0.0, f64::max),
                        rolled: gs.iter().map(|g| g.rolled).sum::<f64>() / gs.len().max(1) as f64,
                    }
                }
                _ => continue,
            };
            sum.depth = sum.depth.max(g.depth);
            sum.expected += g.expected;
            sum.worst += g.worst;
            sum.rolled += g.rolled;
        }
        sum
    }

    /// The longest chain of references from `id`, for the message.
    fn chain(&mut self, tables: &BTreeMap<String, Table>, id: &str) -> Vec<String> {
        let mut out = vec![id.to_owned()];
        let mut here = id.to_owned();
        while let Some(t) = tables.get(&here) {
            let want = self.of(tables, &here).depth;
            if want == 0 || out.len() > MAX_REFERENCE_DEPTH + 2 {
                break;
            }
            let next = t
                .rows
                .iter()
                .flat_map(|r| {
                    crate::content::template::references(&r.segments())
                        .into_iter()
                        .map(|(next, _)| next.to_owned())
                        .collect::<Vec<_>>()
                })
                .find(|next| self.of(tables, next).depth + 1 == want);
            match next {
                Some(n) => {
                    out.push(n.clone());
                    here = n;
                }
                None => break,
            }
        }
        if out.len() > MAX_REFERENCE_DEPTH + 2 {
            out.truncate(4);
            out.push("…".into());
        }
        out
    }
}
