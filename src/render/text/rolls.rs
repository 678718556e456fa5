//! Terminal text for rolled expressions and table results: the total, then
//! the dice that made it.

use std::fmt::Write;

use crate::dice::roll::{ContestOutcome, CpOutcome, Outcome, PoolOutcome, RollOutcome, Rolled};

fn list(faces: impl IntoIterator<Item = String>) -> String {
    format!("[{}]", faces.into_iter().collect::<Vec<_>>().join(", "))
}

fn roll_text(expr: &str, r: &RollOutcome) -> String {
    let mut out = format!("{expr} = {}", r.total);
    if r.attempts.is_empty() {
        out.push_str("  ← impaired twice: completely ineffective");
        return out;
    }
    let show_attempt = |a: &crate::dice::roll::Attempt| {
        let mut parts = Vec::new();
        for (i, t) in a.terms.iter().enumerate() {
            let sign = match (i, t.negative) {
                (_, true) => "− ",
                (0, false) => "",
                (_, false) => "+ ",
            };
            if t.dice.is_empty() {
                parts.push(format!("{sign}{}", t.value));
                continue;
            }
            let faces = t.dice.iter().map(|d| {
                let chain = d
                    .rolls
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(if t.term.contains("d66") { "" } else { "→" });
                if d.kept { chain } else { format!("({chain})") }
            });
            let single_term = a.terms.len() == 1;
            if single_term {
                parts.push(list(faces));
            } else {
                parts.push(format!("{sign}{} {}", t.term, list(faces)));
            }
        }
        let mut s = parts.join(" ");
        if a.sum < 0 {
            let _ = write!(s, " = {}, floored at 0", a.sum);
        }
        if a.total != a.sum.max(0) as u64 {
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

/// A table result: the row, its resolved text, and the trail of dice.
pub fn table_roll_text(r: &crate::tables::TableRoll) -> String {
    let mut s = format!("{} [{}] {}: {}", r.table, r.label, r.row, r.text);
    let _ = write!(s, "\n    trail: {}", r.trail_text());
    s
}
