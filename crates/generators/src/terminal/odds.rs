//! Terminal text for exact odds: summaries, value tables with bars, and the
//! odds of a table's rows as an indented tree.

use std::fmt::Write;

use crate::dice::odds::{
    CheckOdds, ContestOdds, CpOdds, HazardOdds, Odds, OddsDetail, Row, Summary,
};
use crate::wording::lines::percent;

const MAX_ROWS: usize = 60;

fn table_text(rows: &[Row], out: &mut String) {
    let widest = rows
        .iter()
        .map(|r| r.value.to_string().len())
        .max()
        .unwrap_or(1);
    // Room for a grouped range such as `1000-1999` when the table is long.
    let width = if rows.len() > MAX_ROWS {
        2 * widest + 1
    } else {
        widest
    }
    .max(5);
    let _ = writeln!(
        out,
        "{:>width$}  {:>10}  {:>10}",
        "value", "chance", "at least"
    );
    table_rows(rows, width, out);
}

/// A bar of up to 30 blocks, as long as `chance` is against `peak`.
fn bar(chance: f64, peak: f64) -> String {
    if peak > 0.0 {
        "█".repeat(((chance / peak) * 30.0).round() as usize)
    } else {
        String::new()
    }
}

fn table_rows(rows: &[Row], width: usize, out: &mut String) {
    let peak = rows.iter().map(|r| r.chance).fold(0.0, f64::max);
    if rows.len() <= MAX_ROWS {
        for r in rows {
            let bar = bar(r.chance, peak);
            let _ = writeln!(
                out,
                "{:>width$}  {:>10}  {:>10}  {bar}",
                r.value,
                percent(r.chance),
                percent(r.at_least)
            );
        }
        return;
    }
    // A long, thin tail (exploding dice): list the values that matter and
    // sum up the rest in one line.
    if let Some(cut) = rows.iter().position(|r| r.at_least < 1e-6)
        && cut <= MAX_ROWS
        && cut > 0
    {
        table_rows(&rows[..cut], width, out);
        let rest = &rows[cut];
        let _ = writeln!(
            out,
            "{:>width$}  {:>10}  {:>10}",
            format!("{}+", rest.value),
            percent(rest.at_least),
            percent(rest.at_least)
        );
        return;
    }
    // Too many values to list: group them into even ranges.
    let bucket = rows.len().div_ceil(MAX_ROWS / 2);
    let groups: Vec<(String, f64, f64)> = rows
        .chunks(bucket)
        .map(|c| {
            let first = c.first().expect("chunk");
            let last = c.last().expect("chunk");
            (
                format!("{}-{}", first.value, last.value),
                c.iter().map(|r| r.chance).sum::<f64>(),
                first.at_least,
            )
        })
        .collect();
    let gpeak = groups.iter().map(|g| g.1).fold(0.0, f64::max);
    let gwidth = width.max(groups.iter().map(|g| g.0.len()).max().unwrap_or(5));
    for (label, chance, at_least) in groups {
        let bar = bar(chance, gpeak);
        let _ = writeln!(
            out,
            "{label:>gwidth$}  {:>10}  {:>10}  {bar}",
            percent(chance),
            percent(at_least)
        );
    }
}

fn summary_text(s: &Summary, out: &mut String) {
    let _ = writeln!(
        out,
        "min {}, max {}, mean {:.2}, sd {:.2}",
        s.min, s.max, s.mean, s.sd
    );
    if s.tail > 0.0 {
        let _ = writeln!(
            out,
            "exploding dice run long: values above {} (chance {} in all) are left out of this table",
            s.table.last().map_or(s.max, |r| r.value),
            percent(s.tail)
        );
    }
    table_text(&s.table, out);
}

/// The full odds report for the terminal.
pub fn odds_text(o: &Odds) -> String {
    let mut out = String::new();
    for n in &o.notes {
        let _ = writeln!(out, "note: {n}");
    }
    match &o.detail {
        OddsDetail::Roll(s) => {
            let _ = writeln!(out, "{}", o.expr);
            summary_text(s, &mut out);
        }
        OddsDetail::Check(c) => check_text(&o.expr, c, &mut out),
        OddsDetail::Hazard(h) => hazard_text(&o.expr, h, &mut out),
        OddsDetail::Save(b) | OddsDetail::Chance(b) => {
            let _ = writeln!(
                out,
                "{}: chance of {}: {:.4} ({})",
                o.expr,
                b.of,
                b.chance,
                percent(b.chance)
            );
        }
        OddsDetail::Contest(c) => contest_text(&o.expr, c, &mut out),
        OddsDetail::Cp(c) => cp_text(&o.expr, c, &mut out),
    }
    out
}

/// A METTLE check: the chance of success, Edge by quality, damage.
fn check_text(expr: &str, c: &CheckOdds, out: &mut String) {
    let raised = if c.raised > 0 {
        format!(", {} raised", c.raised)
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "{}: {} dice{raised} against Difficulty {} ({})",
        expr, c.dice, c.difficulty, c.difficulty_word
    );
    let with = if c.twist {
        " (taking the Twist on a failure)"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "success {:.4} ({}){with}",
        c.success,
        percent(c.success)
    );
    if c.success == 0.0 {
        let _ = writeln!(
            out,
            "impossible: the best Score is {} (3 per thrown die)",
            3 * c.dice
        );
    }
    let _ = writeln!(
        out,
        "expected Edge on a success: {:.2}",
        c.expected_edge_given_success
    );
    let _ = writeln!(
        out,
        "failure with Edge showing (a Twist can be called): {}",
        percent(c.twist_offered)
    );
    let _ = writeln!(
        out,
        "{:>4}  {:<10}  {:>10}  {:>10}",
        "Edge", "quality", "success", "at least"
    );
    for r in &c.by_edge {
        let _ = writeln!(
            out,
            "{:>4}  {:<10}  {:>10}  {:>10}",
            r.edge,
            r.quality,
            percent(r.chance),
            percent(r.at_least)
        );
    }
    if let Some(damage) = &c.damage {
        let _ = writeln!(out, "damage on a success (bonus + Edge):");
        table_text(damage, out);
    }
}

/// A pool read as a hazard: damage, and how long an ongoing hazard lasts.
fn hazard_text(expr: &str, h: &HazardOdds, out: &mut String) {
    let kind = if h.bonus > 0 {
        "hazard: Difficulty 0, damage = Edge + bonus"
    } else {
        "pool read as a hazard: Difficulty 0, damage = Edge"
    };
    let _ = writeln!(out, "{}: {kind}", expr);
    if h.raised == 0 {
        let _ = writeln!(
            out,
            "no Edge (an ongoing hazard ends): {} per roll; it lasts {:.2} rolls on average",
            percent(h.ends),
            h.expected_rounds
        );
    } else {
        let _ = writeln!(
            out,
            "raised dice always show Edge: an ongoing hazard never ends on its own"
        );
    }
    summary_text(&h.damage, out);
    if let Some(score) = &h.score {
        let _ = writeln!(out, "Score (faces 1-3 added):");
        summary_text(score, out);
    }
}

/// A contest: each entrant's chance to come first.
fn contest_text(expr: &str, c: &ContestOdds, out: &mut String) {
    let _ = writeln!(out, "{}: chance to come first (ties contest again)", expr);
    for e in &c.entrants {
        let _ = writeln!(
            out,
            "  {:<16} ability {:>2}  {:>10}",
            e.label,
            e.ability,
            percent(e.wins)
        );
    }
}

/// A CP roll: the dice value its CP give, then that value's distribution.
fn cp_text(expr: &str, c: &CpOdds, out: &mut String) {
    let cps: Vec<String> = c.cp.iter().map(|v| format!("{v} CP")).collect();
    let _ = writeln!(
        out,
        "{}: {} → dice value {}",
        expr,
        cps.join(" & "),
        c.dice_value
    );
    if let Some(cp) = c.control_potential {
        let _ = writeln!(out, "control potential: {cp}");
    }
    if c.beyond_table {
        let _ = writeln!(
            out,
            "past the table's last row (25 CP): that row's value is used"
        );
    }
    summary_text(&c.value, out);
}

fn table_odds_rows(t: &crate::tables::odds::TableOdds, indent: usize, top: bool, out: &mut String) {
    let pad = " ".repeat(indent);
    let _ = writeln!(out, "{pad}{} — {} ({})", t.id, t.title, t.dice);
    for r in &t.rows {
        let again = match r.reroll {
            Some(n) => format!("  (roll {n} times)"),
            None => String::new(),
        };
        let overall = if top {
            String::new()
        } else {
            format!("  overall {}", percent(r.overall))
        };
        if let Some(why) = &r.not_drawn {
            let _ = writeln!(
                out,
                "{pad}  {:>7}  {:>9}  not drawn ({why})  {}",
                r.label, "—", r.name
            );
            continue;
        }
        let _ = writeln!(
            out,
            "{pad}  {:>7}  {:>9}{overall}  avg {:.4}  {}{again}",
            r.label,
            percent(r.chance),
            r.expected,
            r.name
        );
        for sub in &r.sub {
            table_odds_rows(sub, indent + 4, false, out);
        }
    }
}

/// Exact odds of a table, as an indented tree.
pub fn table_odds_text(t: &crate::tables::odds::TableOdds) -> String {
    let mut out = String::new();
    table_odds_rows(t, 0, true, &mut out);
    match t.draws_per_result {
        Some(d) if d > 1.0 => {
            let _ = writeln!(
                out,
                "roll-again rows: one result holds {d:.4} rows on average; `avg` counts appearances per result"
            );
        }
        None => {
            let _ = writeln!(out, "roll-again rows could go on forever on average");
        }
        _ => {}
    }
    out
}
