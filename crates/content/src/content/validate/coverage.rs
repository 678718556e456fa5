//! The table's die and its rows: the die's possible results (it must have
//! exact, finite odds), then every result covered by exactly one row — no
//! gaps, no overlaps, no row outside the die or on results that never come
//! up.

use std::collections::BTreeMap;

use toml::Spanned;

use super::{Head, Spot, parse_range};
use crate::content::Row;
use crate::content::schema::RowRaw;
use crate::diagnostic::Diagnostic;
use crate::dice::ast::{Quality, Roll, TermKind};
use crate::dice::odds;

/// The table die as written, and its possible results in order.
pub(super) struct Die<'a> {
    pub name: &'a str,
    pub support: &'a [i64],
}

/// The table die's possible results.
pub(super) fn die_support(roll: &Roll) -> Result<Vec<i64>, String> {
    if roll
        .terms
        .iter()
        .any(|t| matches!(&t.kind, TermKind::Dice(d) if d.mods.explode.is_some()))
    {
        return Err("a table die cannot explode: its results never end".into());
    }
    if roll.quality() != Quality::Plain
        && roll.quality() != Quality::Enhanced
        && roll.quality() != Quality::Impaired
    {
        return Err("a table die that is always 0 picks nothing".into());
    }
    let dist = odds::roll_dist(roll).map_err(|e| e.to_string())?;
    if dist.p.len() > 100_000 {
        return Err(format!(
            "a table die with {} possible results is too large to list",
            dist.p.len()
        ));
    }
    let support: Vec<i64> = dist
        .p
        .iter()
        .enumerate()
        .filter(|(_, q)| **q > 0.0)
        .map(|(i, _)| dist.min + i as i64)
        .collect();
    if support.is_empty() || (dist.mass() - 1.0).abs() > 1e-9 {
        return Err("its exact odds cannot be listed (too many dice for a table die)".into());
    }
    Ok(support)
}

/// One row as coverage sees it: its label, its range, and where its
/// `roll` is written.
pub(super) struct Entry<'a> {
    pub label: String,
    pub range: (i64, i64),
    pub spot: Spot<'a>,
    pub at: usize,
    pub width: usize,
}

impl<'a> Entry<'a> {
    /// A raw row with a readable range (whatever else is wrong with it).
    pub(super) fn of_raw(spot: Spot<'a>, raw: &Spanned<RowRaw>) -> Option<Entry<'a>> {
        let roll = raw.get_ref().roll.as_ref()?;
        let range = parse_range(roll.get_ref())?;
        Some(Entry {
            label: label(range),
            range,
            spot,
            at: roll.span().start,
            width: spot.width(roll.span()),
        })
    }

    /// A checked row, written in the file `spot` names.
    pub(super) fn of_row(spot: Spot<'a>, row: &Row) -> Option<Entry<'a>> {
        let range = row.entry.range?;
        Some(Entry {
            label: row.label(),
            range,
            spot,
            at: row.roll_at,
            width: row.width,
        })
    }
}

fn label((a, b): (i64, i64)) -> String {
    if a == b {
        a.to_string()
    } else {
        format!("{a}-{b}")
    }
}

/// Every row against the die, then the results no row covers.
pub(super) fn check(
    spot: Spot,
    head: Head,
    die: &Die,
    rows: &[Entry],
    problems: &mut Vec<Diagnostic>,
) {
    let support = die.support;
    // The first row covering each result.
    let mut covered: BTreeMap<i64, usize> = BTreeMap::new();
    for (index, row) in rows.iter().enumerate() {
        let range = row.range;
        let place = |message: String, hint: String| row.spot.at(row.at, row.width, message, hint);
        check_row(die, &row.label, range, &place, problems);
        // Results this row shares with earlier rows, by earlier row.
        let mut shared: BTreeMap<usize, Vec<i64>> = BTreeMap::new();
        let from = support.partition_point(|v| *v < range.0);
        for &v in support[from..].iter().take_while(|v| **v <= range.1) {
            match covered.get(&v) {
                Some(&first) => shared.entry(first).or_default().push(v),
                None => {
                    covered.insert(v, index);
                }
            }
        }
        for (first, values) in shared {
            problems.push(place(
                format!(
                    "row `{}` overlaps row `{}` on {}",
                    row.label,
                    rows[first].label,
                    ranges_of(&values, support).join(", ")
                ),
                "each result belongs to exactly one row".into(),
            ));
        }
    }
    let gaps: Vec<i64> = support
        .iter()
        .copied()
        .filter(|v| !covered.contains_key(v))
        .collect();
    if !gaps.is_empty() && !rows.is_empty() {
        problems.push(spot.at(
            head.at,
            head.width,
            format!("no row covers {}", ranges_of(&gaps, support).join(", ")),
            "add rows for these results, or widen a neighbour's range",
        ));
    }
}

/// A row's range outside the die, or on results the die never rolls.
fn check_row(
    die: &Die,
    label: &str,
    (a, b): (i64, i64),
    place: &dyn Fn(String, String) -> Diagnostic,
    problems: &mut Vec<Diagnostic>,
) {
    let (lo, hi) = (
        die.support[0],
        *die.support.last().expect("non-empty support"),
    );
    let name = die.name;
    if a < lo || b > hi {
        problems.push(place(
            format!("row `{label}` falls outside {name} ({lo}-{hi})"),
            format!("keep every range within {lo}-{hi}"),
        ));
    }
    let first = die.support.partition_point(|v| *v < a);
    if a >= lo && b <= hi && die.support.get(first).is_none_or(|v| *v > b) {
        problems.push(place(
            format!("row `{label}` can never come up on {name}"),
            "every row needs at least one possible result".into(),
        ));
    }
}

/// Group sorted values into `a-b` runs (consecutive in the die's support).
fn ranges_of(values: &[i64], support: &[i64]) -> Vec<String> {
    let index: BTreeMap<i64, usize> = support.iter().enumerate().map(|(i, v)| (*v, i)).collect();
    let run = |start: i64, end: i64| {
        if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        }
    };
    let mut out = Vec::new();
    let mut start = values[0];
    let mut prev = values[0];
    for &v in &values[1..] {
        if index[&v] != index[&prev] + 1 {
            out.push(run(start, prev));
            start = v;
        }
        prev = v;
    }
    out.push(run(start, prev));
    out
}
