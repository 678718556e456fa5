//! How far one roll on a table reaches: the depth of its `{table:…}`
//! references and the table rolls it makes, expected and at worst, as
//! checked at validation (within [`MAX_REFERENCE_DEPTH`],
//! [`MAX_EXPECTED_ROLLS`], [`MAX_WORST_ROLLS`]) and as the resolver rolls
//! them, roll-again rows nested at most [`MAX_REROLL_DEPTH`] deep
//! ([`expected_rolls`], which `tables` prices a command by).

use std::collections::BTreeMap;

use crate::content::template::Segment;
use crate::content::validate::at_table;
use crate::content::{SourceFile, Table, rerolls_per_roll, row_chances};
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

/// Reference depth and expected and worst-case expansion of every table.
pub(super) fn growth(
    tables: &BTreeMap<String, Table>,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) {
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
