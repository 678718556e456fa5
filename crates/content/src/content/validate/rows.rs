//! One row of a table: its `roll` range (tables with `dice`) or its
//! `weight` (tables without), its text with inline placeholders, `reroll`
//! and `distinct`, then its effects and stat block (see
//! [`effects`](super::effects)).

use toml::Spanned;

use super::{Spot, effects, parse_range};
use crate::content::schema::{RowRaw, System};
use crate::content::template;
use crate::content::{Entry, Row};
use crate::diagnostic::Diagnostic;

/// What a row is read against: whether its table rolls dice (rows give
/// `roll`) or weights (rows give `weight`), the table's system, and the
/// file of an extension's row.
#[derive(Clone, Copy)]
pub(super) struct Ctx<'a> {
    pub dice: bool,
    pub system: System,
    pub from: Option<&'a str>,
}

/// Check one row; `None` when it has a problem (all are reported).
pub(super) fn compile(
    spot: Spot,
    ctx: Ctx,
    spanned: Spanned<RowRaw>,
    problems: &mut Vec<Diagnostic>,
) -> Option<Row> {
    let row_at = spanned.span().start;
    let raw = spanned.into_inner();
    let before = problems.len();
    let (range, weight) = roll_or_weight(spot, ctx.dice, &raw, row_at, problems);
    text(spot, &raw.text, problems);
    let reroll = reroll(spot, &raw, row_at, problems);
    for tag in &raw.tags {
        if let Some(message) = crate::content::era::tag_problem(tag) {
            problems.push(spot.at(
                row_at,
                1,
                message,
                "an era tag reads `era:<name>` in the row's `tags`; see the Table format chapter",
            ));
        }
    }
    for e in &raw.effects {
        effects::check_effect(spot, ctx.system, e.span().start, e.get_ref(), problems);
    }
    if let Some(s) = &raw.stats {
        let at = s.span().start;
        effects::check_stats(spot, ctx.system, at, s.get_ref(), &raw.tags, problems);
    }
    let (roll_at, width) = raw
        .roll
        .as_ref()
        .map_or((row_at, 1), |r| (r.span().start, spot.width(r.span())));
    if problems.len() > before {
        return None;
    }
    Some(Row {
        entry: Entry {
            range,
            weight,
            name: raw.name.into(),
            text: raw.text.into_inner().into(),
            tags: raw
                .tags
                .into_iter()
                .map(crate::content::Text::Owned)
                .collect(),
            reroll,
            distinct: raw.distinct,
            effects: raw
                .effects
                .into_iter()
                .map(Spanned::into_inner)
                .collect::<Vec<_>>()
                .into(),
            stats: raw.stats.map(|s| Box::new(s.into_inner())).into(),
        },
        // Parsed again on first use: a big table's parsed texts would
        // take several times its rows (see `Row::segments`).
        template: std::sync::OnceLock::new(),
        line: spot.file.line_col(row_at).0,
        from: ctx.from.map(str::to_owned),
        at: row_at,
        roll_at,
        width,
    })
}

/// The row's range (a table with `dice`) or weight (one without).
fn roll_or_weight(
    spot: Spot,
    dice: bool,
    raw: &RowRaw,
    row_at: usize,
    problems: &mut Vec<Diagnostic>,
) -> (Option<(i64, i64)>, Option<u64>) {
    let mut problem = |at: usize, width: usize, message: String, hint: &str| {
        problems.push(spot.at(at, width, message, hint));
    };
    match (dice, &raw.roll, &raw.weight) {
        (true, Some(r), None) => match parse_range(r.get_ref()) {
            Some(v) => return (Some(v), None),
            None => problem(
                r.span().start,
                spot.width(r.span()),
                format!("`roll = \"{}\"` is not a result or a range", r.get_ref()),
                "write a result like \"3\" or a range like \"13-14\" (low to high)",
            ),
        },
        (false, None, Some(w)) if *w.get_ref() > 0 => return (None, Some(*w.get_ref() as u64)),
        (false, None, Some(w)) => problem(
            w.span().start,
            spot.width(w.span()),
            format!("weight {} is not positive", w.get_ref()),
            "weights are whole numbers of 1 or more",
        ),
        (true, None, _) => problem(
            row_at,
            1,
            format!("row `{}` has no `roll`", raw.name),
            "the table has `dice`, so each row needs `roll = \"N\"` or `\"A-B\"`",
        ),
        (false, _, None) => problem(
            row_at,
            1,
            format!("row `{}` has no `weight`", raw.name),
            "the table has no `dice`, so each row needs `weight = N` (or give the table `dice`)",
        ),
        (_, _, Some(w)) => problem(
            w.span().start,
            spot.width(w.span()),
            format!("row `{}` has both a `roll` range and a `weight`", raw.name),
            "use `roll` with a `dice` table, `weight` without one",
        ),
    }
    (None, None)
}

/// The row's text, which must parse into segments.
fn text(spot: Spot, text: &Spanned<String>, problems: &mut Vec<Diagnostic>) {
    let text_at = text.span().start;
    let written = &spot.file.text[text_at..];
    let quote = if written.starts_with("\"\"\"") || written.starts_with("'''") {
        3
    } else {
        1
    };
    if let Err(e) = template::parse(text.get_ref()) {
        let mut d = spot
            .file
            .diagnostic(text_at + quote + e.at, e.width, spot.table, e.message);
        d.hint = e.hint;
        problems.push(d);
    }
}

/// `reroll = N` (1 to 10), and `distinct` only with it.
fn reroll(spot: Spot, raw: &RowRaw, row_at: usize, problems: &mut Vec<Diagnostic>) -> Option<u32> {
    let reroll = match &raw.reroll {
        None => None,
        Some(n) if (1..=10).contains(n.get_ref()) => Some(*n.get_ref() as u32),
        Some(n) => {
            problems.push(spot.at(
                n.span().start,
                spot.width(n.span()),
                format!(
                    "`reroll = {}`: a row can say to roll 1 to 10 times",
                    n.get_ref()
                ),
                "`reroll = 2` means \"roll twice on this table\"",
            ));
            None
        }
    };
    if raw.distinct && reroll.is_none() {
        problems.push(spot.at(
            row_at,
            1,
            "`distinct` only applies to a row with `reroll`",
            "remove it, or add `reroll = N`",
        ));
    }
    reroll
}
