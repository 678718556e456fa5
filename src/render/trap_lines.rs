//! A trap's rule and odds as lines, written once for every output
//! (terminal text, Markdown, PDF), in the trap's own system: a METTLE
//! hazard against POISE, or a Core Rules save against STR, AGI or WIT.

use super::lines::percent;
use crate::generators::trap::Trap;
use crate::rules::RulesSystem;

/// What happens when the trap springs: `Hazard 4D+4 vs POISE, Burning on
/// a hit`, `no roll: Suffocating`, or `AGI save (d20 at or under AGI) or
/// d8! damage less armour`.
pub fn roll(t: &Trap) -> String {
    match t.system {
        RulesSystem::Mettle => mettle_roll(t),
        RulesSystem::Core => core_roll(t),
    }
}

fn mettle_roll(t: &Trap) -> String {
    let Some(h) = &t.hazard else {
        return match &t.status {
            Some(s) => format!("no roll: {s}"),
            None => "no roll".into(),
        };
    };
    let soak = t
        .soak
        .as_deref()
        .map(|x| format!(", soaked with {x}"))
        .unwrap_or_default();
    let status = t
        .status
        .as_deref()
        .map(|x| format!(", {x} on a hit"))
        .unwrap_or_default();
    format!("Hazard {h} vs {}{soak}{status}", t.vs)
}

fn core_roll(t: &Trap) -> String {
    let damage = t.damage.as_deref().map(|d| {
        if t.direct {
            format!("{d} direct damage (armour does not help)")
        } else {
            format!("{d} damage less armour")
        }
    });
    let effects: Vec<String> = damage.into_iter().chain(t.condition.clone()).collect();
    format!(
        "{v} save (d20 at or under {v}) or {}",
        effects.join(" and "),
        v = t.vs
    )
}

/// The heading of the odds table: what the odds are for, the chance, the
/// mean damage.
pub fn odds_head(t: &Trap) -> [String; 3] {
    match t.system {
        RulesSystem::Mettle => ["POISE".into(), "hit".into(), "mean damage on a hit".into()],
        RulesSystem::Core => [
            t.vs.clone(),
            "fails the save".into(),
            "mean damage on a failure".into(),
        ],
    }
}

/// One row per value: the value, the chance, the mean damage (`—` for a
/// trap that does no damage).
pub fn odds_rows(t: &Trap) -> Vec<[String; 3]> {
    t.odds
        .iter()
        .map(|o| {
            let mean = if o.damage.is_empty() {
                "—".to_owned()
            } else {
                format!("{:.2}", o.mean_damage_on_hit)
            };
            [o.value.to_string(), percent(o.hit), mean]
        })
        .collect()
}

/// The odds on one line, for cards: `POISE 2: 72.92% · POISE 5: 25.77%`
/// or `AGI 6 fails: 70.00% · AGI 10 fails: 50.00%`.
pub fn odds_short(t: &Trap) -> String {
    let verb = match t.system {
        RulesSystem::Mettle => "",
        RulesSystem::Core => " fails",
    };
    t.odds
        .iter()
        .map(|o| format!("{} {}{verb}: {}", t.vs, o.value, percent(o.hit)))
        .collect::<Vec<_>>()
        .join(" · ")
}
