//! One table: its id, its die (which must have exact, finite odds), its
//! rows (see [`rows`](super::rows)), the die's coverage (see
//! [`coverage`](super::coverage)), its weights, and roll-again rows that
//! could never stop.

use toml::Spanned;

use super::{Spot, coverage, rows};
use crate::content::schema::{RowRaw, TableRaw};
use crate::content::{Origin, Row, SourceFile, Table, rerolls_per_roll, row_chances, template};
use crate::diagnostic::Diagnostic;
use crate::dice::ast::{Expr, Roll};
use crate::dice::{self};

/// Check one raw table; `None` when it has a problem (all are reported).
pub(super) fn compile(
    file: &SourceFile,
    raw: TableRaw,
    problems: &mut Vec<Diagnostic>,
) -> Option<Table> {
    let id = raw.id.get_ref().clone();
    let spot = Spot {
        file,
        table: Some(id.as_str()),
    };
    // Problems about the table as a whole point at its id.
    let head = Head {
        at: raw.id.span().start,
        width: spot.width(raw.id.span()),
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
    let die = raw.dice.as_ref().and_then(|d| table_die(spot, d, problems));
    if raw.row.is_empty() {
        problems.push(spot.at(
            head.at,
            head.width,
            "the table has no rows",
            "add [[table.row]] entries under it",
        ));
    }
    // Each compiled row with the raw row behind it (rows with problems are
    // left out).
    let (rows, kept): (Vec<Row>, Vec<&Spanned<RowRaw>>) = raw
        .row
        .iter()
        .filter_map(|r| Some((rows::compile(spot, &raw, r, problems)?, r)))
        .unzip();
    if let (Some((_, support)), Some(dice)) = (&die, &raw.dice) {
        let die = coverage::Die {
            name: dice.get_ref(),
            support,
        };
        coverage::check(spot, head, &die, &rows, &kept, problems);
    }
    let dice_expr = die.map(|(roll, _)| roll);
    roll_again(spot, head, &rows, &kept, dice_expr.as_ref(), problems);
    if problems.len() > before {
        return None;
    }
    Some(Table {
        id: id.clone(),
        title: raw.title.clone(),
        system: raw.system,
        source: raw.source.clone(),
        dice: raw.dice.as_ref().map(|d| d.get_ref().clone()),
        dice_expr,
        notes: raw.notes.clone(),
        deck: raw.deck,
        rows,
        origin: Origin {
            file: file.name.clone(),
            line: file.line_col(head.at).0,
            layer: file.layer,
        },
    })
}

/// Where problems about a whole table point: its id.
#[derive(Clone, Copy)]
pub(super) struct Head {
    pub at: usize,
    pub width: usize,
}

fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.chars().all(template::is_id_char)
        && !id.starts_with('.')
        && !id.ends_with('.')
}

/// The table's die and its possible results, or `None` after reporting why
/// it cannot pick a row.
fn table_die(
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
            let mut d = e
                .diagnostic_in(&spot.file.name, line, column)
                .in_table(spot.table.map(str::to_owned))
                .with_source(&spot.file.text, e.width());
            d.message = format!("dice `{text}`: {}", e.message);
            problems.push(d);
        }
    }
    None
}

/// Roll-again rows that could never stop, weights the odds cannot hold
/// exactly, and `distinct` rows asking for more rows than there are.
fn roll_again(
    spot: Spot,
    head: Head,
    rows: &[Row],
    kept: &[&Spanned<RowRaw>],
    dice: Option<&Roll>,
    problems: &mut Vec<Diagnostic>,
) {
    let plain = rows.iter().filter(|r| r.reroll.is_none()).count();
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
        .try_fold(0u64, |t, r| t.checked_add(r.weight.unwrap_or(0)));
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
    if plain > 0 && exact && rows.iter().any(|r| r.reroll.is_some()) {
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
    for (row, raw_row) in rows.iter().zip(kept) {
        if let Some(n) = row.reroll
            && row.distinct
            && n as usize > plain
        {
            problems.push(spot.at(
                raw_row.span().start,
                1,
                format!("`reroll = {n}` with `distinct` needs {n} different rows, but only {plain} rows do not roll again"),
                "lower `reroll`, drop `distinct`, or add rows",
            ));
        }
    }
}
