//! Terminal text for rolled expressions and table results: the total, then
//! the dice that made it.

use std::fmt::Write;

use crate::dice::roll::{
    ContestOutcome, CpOutcome, DieOutcome, Outcome, PoolOutcome, RollOutcome, Rolled, TermOutcome,
};

fn list(faces: impl IntoIterator<Item = String>) -> String {
    format!("[{}]", faces.into_iter().collect::<Vec<_>>().join(", "))
}

/// One die: its throws (`6→6→3`, a d66's tens and units run together),
/// faces rerolled away before them (`1↻4`), a count mark, and brackets
/// when dropped.
fn die_text(d: &DieOutcome, d66: bool) -> String {
    let mut chain: String = d
        .rerolled
        .iter()
        .map(|f| format!("{f}↻"))
        .collect::<Vec<_>>()
        .join("");
    chain.push_str(
        &d.rolls
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(if d66 { "" } else { "→" }),
    );
    chain.push_str(count_mark(d.counts));
    if d.kept { chain } else { format!("({chain})") }
}

/// `✓` for a success, `✗` for a failure, nothing otherwise.
fn count_mark(counts: Option<i64>) -> &'static str {
    match counts {
        Some(1) => "✓",
        Some(-1) => "✗",
        _ => "",
    }
}

/// A group's items: `{3d6 [1, 2, 3] = 6, (3d6 [2, 2, 1] = 5)}`.
fn items_text(t: &TermOutcome) -> String {
    let items: Vec<String> = t
        .items
        .iter()
        .map(|i| {
            let s = format!(
                "{} = {}{}",
                terms_text(&i.terms),
                i.value,
                count_mark(i.counts)
            );
            if i.kept { s } else { format!("({s})") }
        })
        .collect();
    format!("{{{}}}", items.join(", "))
}

/// Signed terms with their dice: `2d6 [3, 4] + 2`.
fn terms_text(terms: &[TermOutcome]) -> String {
    let mut parts = Vec::new();
    for (i, t) in terms.iter().enumerate() {
        let sign = match (i, t.negative) {
            (_, true) => "− ",
            (0, false) => "",
            (_, false) => "+ ",
        };
        if t.dice.is_empty() && t.items.is_empty() {
            parts.push(format!("{sign}{}", t.value));
            continue;
        }
        let shown = if t.items.is_empty() {
            let d66 = t.term.contains("d66");
            list(t.dice.iter().map(|d| die_text(d, d66)))
        } else {
            items_text(t)
        };
        // A label is part of the term as written (`2d6[fire] [3, 4]`).
        if terms.len() == 1 && !t.negative && t.items.is_empty() && t.label.is_none() {
            parts.push(shown);
        } else {
            parts.push(format!("{sign}{} {shown}", t.term));
        }
    }
    parts.join(" ")
}

fn roll_text(expr: &str, r: &RollOutcome) -> String {
    let mut out = format!("{expr} = {}", r.total);
    if r.attempts.is_empty() {
        out.push_str("  ← impaired twice: completely ineffective");
        return out;
    }
    let show_attempt = |a: &crate::dice::roll::Attempt| {
        let mut s = terms_text(&a.terms);
        if a.sum < 0 && a.total == 0 {
            let _ = write!(s, " = {}, floored at 0", a.sum);
        } else if a.total != a.sum {
            let _ = write!(s, " → {}", a.total);
        }
        s
    };
    match r.kept_attempt {
        Some(_) if r.attempts.len() == 1 => {
            let _ = write!(out, "  ← {}", show_attempt(&r.attempts[0]));
        }
        Some(k) => {
            let word = if r.quality == crate::dice::ast::Quality::Enhanced {
                "higher"
            } else {
                "lower"
            };
            let _ = write!(
                out,
                "  ← {} = {} | {} = {}; keep the {word}: #{}",
                show_attempt(&r.attempts[0]),
                r.attempts[0].total,
                show_attempt(&r.attempts[1]),
                r.attempts[1].total,
                k + 1
            );
        }
        None => {}
    }
    out
}

fn pool_text(expr: &str, p: &PoolOutcome) -> String {
    let faces = list(p.dice.iter().map(u32::to_string));
    let raised = if p.raised > 0 {
        format!(" + {} raised", p.raised)
    } else {
        String::new()
    };
    let mut detail = format!(
        "{faces}{raised}: Score {}, Edge {}",
        p.first.score, p.first.edge
    );
    if let Some(t) = &p.twist {
        let _ = write!(
            detail,
            "; failed, Twist rerolls {} Edge dice {} → Score {}, Edge {}",
            t.rerolled.len(),
            list(t.rerolled.iter().map(u32::to_string)),
            t.score,
            t.edge
        );
    }
    let head = match (p.success, p.damage) {
        (Some(true), Some(dmg)) => format!(
            "success · {} (Edge {}) · {} damage",
            p.quality.unwrap_or("OK"),
            p.edge,
            dmg
        ),
        (Some(true), None) => format!("success · {} (Edge {})", p.quality.unwrap_or("OK"), p.edge),
        (Some(false), _) => {
            let twist = if p.twist.is_none() && p.edge > 0 {
                " (Edge showing: a Twist may be called)"
            } else {
                ""
            };
            format!("failure{twist}")
        }
        (None, dmg) => {
            let ends = if p.hazard_ends == Some(true) {
                "; no Edge, so an ongoing hazard ends"
            } else {
                ""
            };
            format!("{} (Edge {}){ends}", dmg.unwrap_or(p.edge), p.edge)
        }
    };
    let versus = match (p.difficulty, &p.difficulty_word) {
        (Some(d), Some(w)) => format!(" against {d} ({w})"),
        _ => String::new(),
    };
    format!("{expr} → {head}  ← {detail}{versus}")
}

/// One line (or a few) describing a rolled expression.
pub fn rolled_text(r: &Rolled) -> String {
    let mut line = outcome_text(r);
    if !r.notes.is_empty() {
        let _ = write!(line, "\n    ({})", r.notes.join("; "));
    }
    line
}

fn outcome_text(r: &Rolled) -> String {
    match &r.outcome {
        Outcome::Roll(o) => roll_text(&r.expr, o),
        Outcome::Pool(p) => pool_text(&r.expr, p),
        Outcome::Save(s) => format!(
            "{} → {}  ← d20 = {} {} {}",
            r.expr,
            if s.pass { "pass" } else { "fail" },
            s.roll,
            if s.pass { "≤" } else { ">" },
            s.target
        ),
        Outcome::Chance(c) => format!(
            "{} → {}  ← d{} = {}",
            r.expr,
            if c.happens { "yes" } else { "no" },
            c.out_of,
            c.roll
        ),
        Outcome::Contest(c) => contest_text(&r.expr, c),
        Outcome::Cp(c) => cp_text(&r.expr, c),
    }
}

/// A contest: each place, with the rounds that decided it.
fn contest_text(expr: &str, c: &ContestOutcome) -> String {
    let places: Vec<String> = c
        .ranking
        .iter()
        .enumerate()
        .map(|(place, label)| {
            let e = c
                .entrants
                .iter()
                .find(|e| &e.label == label)
                .expect("ranked entrant");
            let rounds: Vec<String> = e
                .rolls
                .iter()
                .zip(&e.totals)
                .map(|(roll, total)| format!("{}−{} = {}", e.ability, roll, total))
                .collect();
            format!("{}. {} ({})", place + 1, label, rounds.join(", then "))
        })
        .collect();
    format!("{} → {}", expr, places.join("; "))
}

/// A CP roll: the dice value and total, then how the sources added up.
fn cp_text(expr: &str, c: &CpOutcome) -> String {
    let mut s = format!(
        "{} → {} = {}  ← {}",
        expr,
        c.dice_value,
        c.total,
        list(c.rolls.iter().map(u32::to_string))
    );
    if c.sources.len() > 1 {
        let parts: Vec<String> = c
            .sources
            .iter()
            .map(|s| format!("{} CP = {}", s.cp, s.dice_value))
            .collect();
        let _ = write!(
            s,
            "; different sources add dice values: {}",
            parts.join(" + ")
        );
    } else if c.sources[0].parts.len() > 1 {
        let _ = write!(s, "; same source adds CP: {} CP", c.sources[0].cp);
    }
    if let Some(cp) = c.control_potential {
        let _ = write!(s, "; control potential {cp}");
    }
    if c.beyond_table {
        s.push_str("; past the table's last row (25 CP), which is used");
    }
    s
}

/// A table result: the row, its resolved text, and the trail of dice. A
/// row whose name is its text or its text's first words (a name list, an
/// imported generator's row) is said once.
pub fn table_roll_text(r: &crate::tables::TableRoll) -> String {
    let mut s = if r.text.starts_with(r.row.as_str()) {
        format!("{} [{}] {}", r.table, r.label, r.text)
    } else {
        format!("{} [{}] {}: {}", r.table, r.label, r.row, r.text)
    };
    let _ = write!(s, "\n    trail: {}", r.trail_text());
    s
}
