//! Extensions: a `[[table]]` with `extends = "<id>"` adds its rows to that
//! table, and a row named like one of the table's replaces it in place.
//! The merged table is checked like any table (its die tiled exactly, or
//! its weights; roll-again rows that could not stop), each problem
//! pointing at the row's own file. Extensions apply in load order, after
//! every override, so an extension of a built-in table also extends a
//! `--content` table that replaces it.

use std::collections::BTreeMap;

use super::table::{Head, Pending, roll_again, table_die};
use super::{Spot, coverage, file_of_name, regions, rows, suggest};
use crate::content::{Contribution, Row, SourceFile, Table};
use crate::diagnostic::Diagnostic;

/// Apply every extension to the tables in effect.
pub(super) fn apply(
    pending: Vec<Pending>,
    tables: &mut BTreeMap<String, Table>,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) {
    // Each extended table's rows by name (the first row of a name, as a
    // search from the top finds it), made once and kept across its
    // extensions: an extension of n rows costs n lookups, not n scans.
    let mut names: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
    for mut p in pending {
        let target = p
            .raw
            .extends
            .as_ref()
            .expect("an extension")
            .get_ref()
            .clone();
        let spot = Spot {
            file: p.file,
            table: Some(target.as_str()),
        };
        let Some(table) = tables.get(target.as_str()) else {
            problems.push(
                spot.at(
                    p.head.at,
                    p.head.width,
                    format!("`extends = \"{target}\"`: there is no table `{target}`"),
                    "run `tablewright tables` to list the ids",
                )
                .with_suggestion(suggest(&target, tables.keys().map(String::as_str))),
            );
            continue;
        };
        let index = names
            .entry(target.clone())
            .or_insert_with(|| first_of_each_name(&table.rows));
        if let Some(merged) = merge(&mut p, spot, table, index, files, problems) {
            tables.insert(target.clone(), merged);
        }
    }
}

/// Where the first row of each name is.
fn first_of_each_name(rows: &[Row]) -> BTreeMap<String, usize> {
    let mut index = BTreeMap::new();
    for (i, r) in rows.iter().enumerate() {
        index.entry(r.entry.name.clone()).or_insert(i);
    }
    index
}

/// The table with the extension's rows (and die, notes and region) in; `None`
/// after reporting why they do not fit. `index` is the table's rows by
/// name, and is kept so (names added are taken out again when the
/// extension does not fit).
fn merge(
    p: &mut Pending,
    spot: Spot,
    table: &Table,
    index: &mut BTreeMap<String, usize>,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) -> Option<Table> {
    let before = problems.len();
    let mut merged = table.clone();
    if let Some(d) = &p.raw.dice {
        let die = table_die(spot, d, problems);
        merged.dice = Some(d.get_ref().clone());
        merged.dice_expr = die.map(|(roll, _)| roll).into();
    }
    if let Some(n) = &p.raw.notes {
        merged.notes = Some(match &table.notes {
            Some(old) => format!("{old} {n}"),
            None => n.clone(),
        });
    }
    let ctx = rows::Ctx {
        dice: merged.dice.is_some(),
        system: table.system,
        from: Some(p.file.name.as_str()),
    };
    let mut contribution = Contribution {
        file: p.file.name.clone(),
        line: p.file.line_col(p.head.at).0,
        added: Vec::new(),
        replaced: Vec::new(),
    };
    for raw in std::mem::take(&mut p.raw.row) {
        let Some(row) = rows::compile(spot, ctx, raw, problems) else {
            continue;
        };
        match index.get(&row.entry.name) {
            Some(&i) => {
                contribution.replaced.push(row.entry.name.clone());
                merged.rows[i] = row;
            }
            None => {
                contribution.added.push(row.entry.name.clone());
                index.insert(row.entry.name.clone(), merged.rows.len());
                merged.rows.push(row);
            }
        }
    }
    merged.region = regions::compile(
        spot,
        &table.id,
        p.raw.region.as_ref(),
        table.region.clone(),
        problems,
    );
    check_merged(spot, p.head, &merged, files, problems);
    if problems.len() != before {
        for name in &contribution.added {
            index.remove(name);
        }
        return None;
    }
    merged.extended_by.push(contribution);
    Some(merged)
}

/// The merged rows against the (possibly new) die, or as weights.
fn check_merged(
    spot: Spot,
    head: Head,
    merged: &Table,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) {
    let spot_of = |row: &Row| -> Spot {
        let name = row.from.as_deref().unwrap_or(&merged.origin.file);
        match file_of_name(files, name) {
            Some(file) => Spot {
                file,
                table: spot.table,
            },
            None => spot,
        }
    };
    let weights = merged
        .rows
        .iter()
        .filter(|r| r.entry.weight.is_some())
        .count();
    let ranged = merged
        .rows
        .iter()
        .filter(|r| r.entry.range.is_some())
        .count();
    if merged.dice.is_some() && weights > 0 || merged.dice.is_none() && ranged > 0 {
        problems.push(spot.at(
            head.at,
            head.width,
            "the extension mixes rolled and weighted rows",
            "rows of a table with `dice` give `roll`, rows of a weighted table give `weight`",
        ));
        return;
    }
    if let (Some(expr), Some(dice)) = (merged.dice_expr(), &merged.dice)
        && let Ok(support) = coverage::die_support(expr)
    {
        let die = coverage::Die {
            name: dice,
            support: &support,
        };
        let entries: Vec<coverage::Entry> = merged
            .rows
            .iter()
            .filter_map(|r| coverage::Entry::of_row(spot_of(r), r))
            .collect();
        coverage::check(spot, head, &die, &entries, problems);
    }
    roll_again(
        spot,
        head,
        &merged.rows,
        &spot_of,
        merged.dice_expr(),
        problems,
    );
}
