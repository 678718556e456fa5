//! Extensions: a `[[table]]` with `extends = "<id>"` adds its rows to that
//! table, and a row named like one of the table's replaces it in place.
//! The merged table is checked like any table (its die tiled exactly, or
//! its weights; roll-again rows that could not stop), each problem
//! pointing at the row's own file. Extensions apply in load order, after
//! every override, so an extension of a built-in table also extends a
//! `--content` table that replaces it.

use std::collections::BTreeMap;

use super::table::{Pending, roll_again, table_die};
use super::{Head, Spot, coverage, file_of_name, regions, rows, suggest};
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
        let Some(table) = tables.get_mut(target.as_str()) else {
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
        merge(&mut p, spot, table, index, files, problems);
    }
}

/// Where the first row of each name is.
fn first_of_each_name(rows: &[Row]) -> BTreeMap<String, usize> {
    let mut index = BTreeMap::new();
    for (i, r) in rows.iter().enumerate() {
        index.entry(r.entry.name.to_string()).or_insert(i);
    }
    index
}

/// What an extension changed in its table, to put back when it does not
/// fit (the table is changed in place, not copied: a table extended by
/// many files would be copied once for each).
struct Undo {
    dice: Option<crate::content::Text>,
    dice_expr: Option<std::sync::OnceLock<Option<crate::dice::ast::Roll>>>,
    notes: Option<crate::content::Text>,
    region: Option<crate::content::Region>,
    /// How many rows the table had.
    len: usize,
    /// Rows replaced, by place, in the order replaced.
    replaced: Vec<(usize, Row)>,
}

impl Undo {
    fn put_back(self, table: &mut Table) {
        table.rows.truncate(self.len);
        // Last first: a row replaced twice gets its first self back.
        for (i, row) in self.replaced.into_iter().rev() {
            if i < self.len {
                table.rows[i] = row;
            }
        }
        table.dice = self.dice;
        if let Some(expr) = self.dice_expr {
            table.dice_expr = expr;
        }
        table.notes = self.notes;
        table.region = self.region;
    }
}

/// Add the extension's rows (and die, notes and region) to `table`, or
/// leave it as it was after reporting why they do not fit. `index` is the
/// table's rows by name, and is kept so.
fn merge(
    p: &mut Pending,
    spot: Spot,
    table: &mut Table,
    index: &mut BTreeMap<String, usize>,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) {
    let before = problems.len();
    let mut undo = Undo {
        dice: table.dice.clone(),
        dice_expr: None,
        notes: table.notes.clone(),
        region: table.region.clone(),
        len: table.rows.len(),
        replaced: Vec::new(),
    };
    if let Some(d) = &p.raw.dice {
        let die = table_die(spot, d, problems);
        table.dice = Some(d.get_ref().clone().into());
        let expr = die.map(|(roll, _)| roll).into();
        undo.dice_expr = Some(std::mem::replace(&mut table.dice_expr, expr));
    }
    if let Some(n) = &p.raw.notes {
        table.notes = Some(match &table.notes {
            Some(old) => format!("{old} {n}").into(),
            None => n.clone().into(),
        });
    }
    let ctx = rows::Ctx {
        dice: table.dice.is_some(),
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
        match index.get(&*row.entry.name) {
            Some(&i) => {
                contribution.replaced.push(row.entry.name.to_string());
                undo.replaced
                    .push((i, std::mem::replace(&mut table.rows[i], row)));
            }
            None => {
                contribution.added.push(row.entry.name.to_string());
                index.insert(row.entry.name.to_string(), table.rows.len());
                table.rows.push(row);
            }
        }
    }
    table.region = regions::compile(
        spot,
        &table.id,
        p.raw.region.as_ref(),
        table.region.clone(),
        problems,
    );
    check_merged(spot, p.head, table, files, problems);
    if problems.len() != before {
        for name in &contribution.added {
            index.remove(name);
        }
        undo.put_back(table);
        return;
    }
    table.extended_by.push(contribution);
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

#[cfg(test)]
mod tests {
    use crate::content::{Library, SourceFile};

    const BASE: &str = "[[table]]\nid = \"t.base\"\ntitle = \"B\"\nsystem = \"any\"\nsource = \"s\"\ndice = \"d4\"\nnotes = \"Base.\"\n\n[[table.row]]\nroll = \"1-2\"\nname = \"a\"\ntext = \"A\"\n\n[[table.row]]\nroll = \"3-4\"\nname = \"b\"\ntext = \"B\"\n";

    /// An extension of `t.base` with `head` (after `extends`) and `rows`.
    fn extension(head: &str, rows: &[(&str, &str, &str)]) -> String {
        let mut s = format!("[[table]]\nextends = \"t.base\"\n{head}\n");
        for (roll, name, text) in rows {
            s.push_str(&format!(
                "\n[[table.row]]\nroll = \"{roll}\"\nname = \"{name}\"\ntext = \"{text}\"\n"
            ));
        }
        s
    }

    /// A row as the test looks at it: its roll, name and text.
    type Seen = (Option<(i64, i64)>, String, String);

    fn rows(library: &Library) -> Vec<Seen> {
        let t = library.get("t.base").expect("the table");
        t.rows
            .iter()
            .map(|r| {
                (
                    r.entry.range,
                    r.entry.name.to_string(),
                    r.entry.text.to_string(),
                )
            })
            .collect()
    }

    /// Extensions change the table in place; one that does not fit is
    /// taken back whole — its die, notes, replaced and added rows — and
    /// those after it apply to the table as it was.
    #[test]
    fn an_extension_that_does_not_fit_leaves_the_table_as_it_was() {
        let files = |middle: &str| {
            vec![
                SourceFile::new("base.toml", BASE, 1),
                SourceFile::new(
                    "one.toml",
                    extension("", &[("1-2", "a", "A again")]).as_str(),
                    1,
                ),
                SourceFile::new("two.toml", middle, 1),
                SourceFile::new(
                    "three.toml",
                    extension("", &[("3-4", "b", "B again")]).as_str(),
                    1,
                ),
            ]
        };
        // The middle extension: a d6 die and notes, row `a` replaced, a
        // new row `x` twice (the second replaces the first) — but 6 is
        // covered by no row, so none of it applies.
        let bad = extension(
            "dice = \"d6\"\nnotes = \"More.\"",
            &[("1-2", "a", "A spoiled"), ("5", "x", "X"), ("5", "x", "X2")],
        );
        let (library, problems) = Library::from_user_files(files(&bad));
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].message.contains("no row covers 6"),
            "{problems:?}"
        );
        let t = library.get("t.base").expect("the table");
        assert_eq!(t.dice.as_deref(), Some("d4"));
        assert_eq!(t.notes.as_deref(), Some("Base."));
        assert_eq!(t.dice_expr().map(|r| format!("{r:?}")), {
            let (fine, _) = Library::from_user_files(vec![SourceFile::new("b.toml", BASE, 1)]);
            fine.get("t.base")
                .unwrap()
                .dice_expr()
                .map(|r| format!("{r:?}"))
        });
        let expect = |a: &str, b: &str| {
            vec![
                (Some((1, 2)), "a".to_owned(), a.to_owned()),
                (Some((3, 4)), "b".to_owned(), b.to_owned()),
            ]
        };
        assert_eq!(rows(&library), expect("A again", "B again"));
        let by: Vec<&str> = t.extended_by.iter().map(|c| c.file.as_str()).collect();
        assert_eq!(by, ["one.toml", "three.toml"]);
        // The same middle extension fitting (a d4 again, `x` dropped)
        // applies, which shows the first one failed for its die alone.
        let good = extension("notes = \"More.\"", &[("1-2", "a", "A spoiled")]);
        let (library, problems) = Library::from_user_files(files(&good));
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(rows(&library), expect("A spoiled", "B again"));
        assert_eq!(
            library.get("t.base").unwrap().notes.as_deref(),
            Some("Base. More.")
        );
    }
}
