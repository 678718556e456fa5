//! The house rules and readings an expression uses, in words: every output
//! that shows an expression (`roll`, `odds`, their JSON, table trails)
//! names them, so a GM used to another roller sees which reading applies
//! ("Core Rules explosion: a 6 counts 5 and rolls again", "floored at 0").

use std::collections::BTreeSet;

use super::ast::{Dice, ExplodeStyle, Expr, Faces, Group, Roll, Scale, Term, TermKind};
use super::bounds::sum_bounds;
use super::mods::{Compare, Mods};

/// The notes for an expression, in a fixed order, without repeats.
pub fn notes(expr: &Expr) -> Vec<String> {
    let Expr::Roll(r) = expr else {
        return Vec::new();
    };
    let mut out = Vec::new();
    terms_notes(&r.terms, &mut out);
    roll_notes(r, &mut out);
    let mut seen = BTreeSet::new();
    out.retain(|n| seen.insert(n.clone()));
    out
}

fn roll_notes(r: &Roll, out: &mut Vec<String>) {
    let (lo, _) = sum_bounds(&r.terms);
    if r.floors() && lo < 0 {
        out.push("floored at 0: a penalty never takes a Roll below 0 (Engine)".into());
    }
    if !r.floors() {
        out.push("not floored at 0: Fudge dice and failure counts may go below 0".into());
    }
    match r.scale {
        Scale::Divide(2) => out.push("halved, rounding up (Engine)".into()),
        Scale::Divide(n) => out.push(format!(
            "divided by {n}, rounding up (Engine's halving rule)"
        )),
        Scale::Multiply(2) => out.push("doubled".into()),
        Scale::Multiply(n) => out.push(format!("multiplied by {n}")),
        Scale::None => {}
    }
    match (r.enhanced, r.impaired) {
        (0, 0) => {}
        _ => out.push(
            "enhanced/impaired: rolled twice, the higher/lower kept; they cancel one for one, impaired twice is 0 (Core Rules)"
                .into(),
        ),
    }
}

fn terms_notes(terms: &[Term], out: &mut Vec<String>) {
    for t in terms {
        match &t.kind {
            TermKind::D66 => out.push("d66: tens and units (11-66), not a 66-sided die".into()),
            TermKind::Dice(d) => dice_notes(d, out),
            TermKind::Group(g) => group_notes(g, out),
            TermKind::Const(_) => {}
        }
    }
}

fn dice_notes(d: &Dice, out: &mut Vec<String>) {
    let top = d.throw_rule().range().1;
    if d.faces == Faces::Fudge {
        out.push("dF: Fudge dice, faces −1, 0, +1 (Roll20, Foundry)".into());
    }
    if let Some(r) = d.mods.reroll {
        out.push(if r.once {
            format!(
                "ro: a die showing {} is rerolled once, the new face kept",
                r.when.words()
            )
        } else {
            format!(
                "r: a die showing {} is rerolled until it does not (Roll20, rpg-dice-roller; Foundry's `r` rerolls once: write `ro`)",
                r.when.words()
            )
        });
    }
    let compares = [
        d.mods.reroll.map(|r| r.when),
        d.mods.explode.and_then(|e| e.on),
    ];
    for c in compares.into_iter().flatten() {
        strict_note(c, out);
    }
    if let Some(n) = d.mods.min {
        out.push(format!("min{n}: a throw below {n} counts {n}"));
    }
    if let Some(n) = d.mods.max {
        out.push(format!("max{n}: a throw above {n} counts {n}"));
    }
    if let Some(e) = d.mods.explode {
        let on = match e.on {
            None => format!("a {top}"),
            Some(c) => format!("a throw of {}", c.words()),
        };
        out.push(match e.style {
            ExplodeStyle::Core => match e.on {
                None => format!(
                    "Core Rules explosion: {on} counts {} and rolls again",
                    top - 1
                ),
                Some(_) => format!(
                    "Core Rules explosion (penetrating): {on} counts one less and rolls again"
                ),
            },
            ExplodeStyle::Full => format!(
                "explosion: {on} adds its full face and rolls again (Roll20, Foundry, rpg-dice-roller)"
            ),
        });
        if d.mods.keep.is_some() || d.mods.tally.is_some() {
            out.push(
                "an exploding die stays one die: keep, drop and counts use its whole chain (rpg-dice-roller would use the single throws)"
                    .into(),
            );
        }
    }
    mods_notes(&d.mods, "die", out);
}

fn group_notes(g: &Group, out: &mut Vec<String>) {
    out.push("group: each item is rolled and totalled, then kept, dropped or counted as a whole (Roll20)".into());
    for item in &g.items {
        terms_notes(item, out);
    }
    mods_notes(&g.mods, "item", out);
}

fn mods_notes(m: &Mods, unit: &str, out: &mut Vec<String>) {
    if let Some(t) = m.tally {
        let reading = if unit == "die" {
            " (each die, as Roll20 and rpg-dice-roller count; to compare a total, write a group: `{2d6}>=8`)"
        } else {
            ""
        };
        out.push(format!(
            "counting: each {unit} showing {} is 1 success{reading}",
            t.success.words()
        ));
        if let Some(f) = t.failure {
            out.push(format!(
                "failures: each {unit} showing {} (and no success) takes 1 away",
                f.words()
            ));
        }
        for c in [Some(t.success), t.failure].into_iter().flatten() {
            strict_note(c, out);
        }
    }
    if m.times > 1 {
        out.push(format!(
            "{}*: the term's value is multiplied by {}",
            m.times, m.times
        ));
    }
    if m.sort.is_some() {
        out.push("sorted for display only".into());
    }
}

/// `>` and `<` are strict here; Roll20 reads them as "or more" / "or less".
fn strict_note(c: Compare, out: &mut Vec<String>) {
    match c {
        Compare::Gt(n) => out.push(format!(
            "`>{n}` is strictly above {n} (rpg-dice-roller, Foundry); Roll20 reads `>` as {n} or more: write `>={n}` for that"
        )),
        Compare::Lt(n) => out.push(format!(
            "`<{n}` is strictly below {n} (rpg-dice-roller, Foundry); Roll20 reads `<` as {n} or less: write `<={n}` for that"
        )),
        _ => {}
    }
}
