//! One table: its id, its die (which must have exact, finite odds), its
//! rows (see [`rows`](super::rows)), the die's coverage (see
//! [`coverage`](super::coverage)), its weights, and roll-again rows that
//! could never stop.

use toml::Spanned;

use super::{Head, Spot, coverage, regions, rows};
use crate::content::schema::{System, TableRaw};
use crate::content::{Origin, Row, SourceFile, Table, rerolls_per_roll, row_chances, template};
use crate::diagnostic::Diagnostic;
use crate::dice::ast::{Expr, Roll};
use crate::dice::{self};

/// A `[[table]]` once read: a table of its own, or an extension waiting
/// for the tables it may extend.
pub(super) enum Compiled<'a> {
    Table(Table),
    Extension(Pending<'a>),
}

/// An `extends = "<id>"` table, applied once every table is known.
pub(super) struct Pending<'a> {
    pub file: &'a SourceFile,
    pub raw: TableRaw,
    pub head: Head,
}

/// Check one raw table (at byte `at` of its file); `None` when it has a
/// problem (all are reported).
pub(super) fn compile<'a>(
    file: &'a SourceFile,
    at: usize,
    raw: TableRaw,
    problems: &mut Vec<Diagnostic>,
) -> Option<Compiled<'a>> {
    let spot = Spot { file, table: None };
    match (&raw.id, &raw.extends) {
        (Some(id), Some(_)) => {
            problems.push(spot.at(
                id.span().start,
                spot.width(id.span()),
                "a [[table]] has either `id` (a table of its own) or `extends` (rows for another)",
                "remove one of them (see the guide, Table format › Extending a table)",
            ));
            None
        }
        (None, None) => {
            problems.push(spot.at(
                at,
                1,
                "this [[table]] has no `id`",
                "give it `id = \"...\"`, or `extends = \"<id>\"` to add rows to another table",
            ));
            None
        }
        (None, Some(ext)) => {
            let head = Head {
                at: ext.span().start,
                width: spot.width(ext.span()),
            };
            let ok = extension_keys(spot.with_table(ext.get_ref()), head, &raw, problems);
            ok.then_some(Compiled::Extension(Pending { file, raw, head }))
        }
        (Some(_), None) => own(file, raw, problems).map(Compiled::Table),
    }
}

/// An extension takes its title, system, source, deck and `text_only`
/// from the table it extends.
fn extension_keys(spot: Spot, head: Head, raw: &TableRaw, problems: &mut Vec<Diagnostic>) -> bool {
    let taken: Vec<&str> = [
        ("title", raw.title.is_some()),
        ("system", raw.system.is_some()),
        ("source", raw.source.is_some()),
        ("deck", raw.deck),
        ("text_only", raw.text_only),
    ]
    .into_iter()
    .filter_map(|(k, set)| set.then_some(k))
    .collect();
    if taken.is_empty() {
        return true;
    }
    problems.push(spot.at(
        head.at,
        head.width,
        format!(
            "an extension keeps the {} of the table it extends",
            taken.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
        ),
        "remove those keys; an extension may give `dice`, `notes`, `region` and rows",
    ));
    false
}

/// A table of its own (`id`).
fn own(file: &SourceFile, mut raw: TableRaw, problems: &mut Vec<Diagnostic>) -> Option<Table> {
    let id_spanned = raw.id.as_ref().expect("a table with an id");
    let id = id_spanned.get_ref().clone();
    let spot = Spot {
        file,
        table: Some(id.as_str()),
    };
    // Problems about the table as a whole point at its id.
    let head = Head {
        at: id_spanned.span().start,
        width: spot.width(id_spanned.span()),
    };
    let before = problems.len();
    if !valid_id(&id) {
        problems.push(spot.at(
            head.at,
            head.width,
            format!("`{id}` is not a table id"),
            "use lowercase letters, digits, `_`, `-` and dots, e.g. `core.injury`",
        ));
    }
    for (key, missing) in [
        ("title", raw.title.is_none()),
        ("system", raw.system.is_none()),
        ("source", raw.source.is_none()),
    ] {
        if missing {
            problems.push(spot.at(
                head.at,
                head.width,
                format!("the table has no `{key}`"),
                "every table has `id`, `title`, `system` and `source` (see the guide, Table format)",
            ));
        }
    }
    let system = raw.system.unwrap_or(System::Any);
    let die = raw.dice.as_ref().and_then(|d| table_die(spot, d, problems));
    if raw.row.is_empty() {
        problems.push(spot.at(
            head.at,
            head.width,
            "the table has no rows",
            "add [[table.row]] entries under it",
        ));
    }
    if let (Some((_, support)), Some(dice)) = (&die, &raw.dice) {
        let die = coverage::Die {
            name: dice.get_ref(),
            support,
        };
        // Every row that gives a range counts, even one with another
        // problem: a gap is what no row means to cover.
        let entries: Vec<coverage::Entry> = raw
            .row
            .iter()
            .filter_map(|r| coverage::Entry::of_raw(spot, r))
            .collect();
        coverage::check(spot, head, &die, &entries, problems);
    }
    let ctx = rows::Ctx {
        dice: raw.dice.is_some(),
        system,
        from: None,
    };
    // The rows read are moved into the table's, one by one.
    let read = std::mem::take(&mut raw.row);
    let mut rows: Vec<Row> = Vec::with_capacity(read.len());
    rows.extend(
        read.into_iter()
            .filter_map(|r| rows::compile(spot, ctx, r, problems)),
    );
    let dice_expr = die.map(|(roll, _)| roll);
    roll_again(spot, head, &rows, &|_| spot, dice_expr.as_ref(), problems);
    let region = regions::compile(spot, &id, raw.region.as_ref(), None, problems);
    if problems.len() > before {
        return None;
    }
    Some(Table {
        id: id.clone(),
        title: raw.title.clone().unwrap_or_default().into(),
        system,
        source: raw.source.clone().unwrap_or_default().into(),
        dice: raw.dice.as_ref().map(|d| d.get_ref().clone().into()),
        dice_expr: dice_expr.into(),
        notes: raw.notes.clone().map(Into::into),
        deck: raw.deck,
        text_only: raw.text_only,
        region,
        rows: rows.into(),
        origin: Origin {
            file: file.name.clone().into(),
            line: file.line_col(head.at).0,
            layer: file.layer,
        },
        extended_by: Vec::new(),
    })
}

pub(super) fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.chars().all(template::is_id_char)
        && !id.starts_with('.')
        && !id.ends_with('.')
}

/// The table's die and its possible results, or `None` after reporting why
/// it cannot pick a row.
pub(super) fn table_die(
    spot: Spot,
    d: &Spanned<String>,
    problems: &mut Vec<Diagnostic>,
) -> Option<(Roll, Vec<i64>)> {
    let text = d.get_ref();
    // Inside the opening quote.
    let at = d.span().start + 1;
    let width = text.chars().count();
    match dice::parse(text) {
        Ok(Expr::Roll(r)) => match coverage::die_support(&r) {
            Ok(s) => return Some((r, s)),
            Err(m) => problems.push(spot.at(
                at,
                width,
                format!("dice `{text}`: {m}"),
                "use a plain roll such as `d12`, `2d6` or `d66`",
            )),
        },
        Ok(_) => problems.push(spot.at(
            at,
            width,
            format!("dice `{text}` is not a Roll"),
            "a table rolls a plain roll such as `d12`, `2d6` or `d66` (a lowercase d)",
        )),
        Err(e) => {
            let (line, column) = spot.file.line_col(at);
            let mut d = spot.file.show(
                e.diagnostic_in(&spot.file.name, line, column)
                    .in_table(spot.table.map(str::to_owned)),
                e.width(),
            );
            d.message = format!("dice `{text}`: {}", e.message);
            problems.push(d);
        }
    }
    None
}

/// Roll-again rows that could never stop, weights the odds cannot hold
/// exactly, and `distinct` rows asking for more rows than there are.
pub(super) fn roll_again<'a>(
    spot: Spot<'a>,
    head: Head,
    rows: &[Row],
    spot_of: &dyn Fn(&Row) -> Spot<'a>,
    dice: Option<&Roll>,
    problems: &mut Vec<Diagnostic>,
) {
    let plain = rows.iter().filter(|r| r.entry.reroll.is_none()).count();
    if !rows.is_empty() && plain == 0 {
        problems.push(spot.at(
            head.at,
            head.width,
            "every row says to roll again, so a roll never ends",
            "give the table at least one row without `reroll`",
        ));
    }
    // Weights must add up to a number the odds can hold exactly.
    let total_weight = rows
        .iter()
        .try_fold(0u64, |t, r| t.checked_add(r.entry.weight.unwrap_or(0)));
    let exact = total_weight.is_some_and(|t| t <= 1 << 53);
    if !exact {
        problems.push(spot.at(
            head.at,
            head.width,
            "the weights add up to more than 2^53",
            "use smaller weights; only their proportions matter",
        ));
    }
    // Roll-again rows that, on average, breed more rolls than they end.
    if plain > 0 && exact && rows.iter().any(|r| r.entry.reroll.is_some()) {
        let breed = rerolls_per_roll(rows, &row_chances(rows, dice));
        if breed >= 1.0 {
            problems.push(spot.at(
                head.at,
                head.width,
                format!("roll-again rows ask for {breed:.2} new rolls per roll on average, so a roll may never end"),
                "make roll-again rows rarer or ask for fewer rolls (the sum of chance × rolls must stay below 1)",
            ));
        }
    }
    for row in rows {
        if let Some(n) = row.entry.reroll
            && row.entry.distinct
            && n as usize > plain
        {
            problems.push(spot_of(row).at(
                row.at,
                1,
                format!("`reroll = {n}` with `distinct` needs {n} different rows, but only {plain} rows do not roll again"),
                "lower `reroll`, drop `distinct`, or add rows",
            ));
        }
    }
}
