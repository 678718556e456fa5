//! Traps and hazards as lines, written once for every output (terminal
//! text, Markdown, PDF), each in its own system: a METTLE hazard (against
//! POISE for a trap, Difficulty 0 for a situation's hazard), or a Core
//! Rules save against STR, AGI or WIT.

use super::lines::percent;
use crate::generators::encounter::HazardNote;
use crate::generators::trap::{Trap, TrapOdds};
use crate::rules::RulesSystem;

/// What happens when the trap springs: `Hazard 4D+4 vs POISE, Burning on
/// a hit`, `no roll: Suffocating`, or `AGI save (d20 at or under AGI) or
/// d8! damage less armour`.
pub fn roll(t: &Trap) -> String {
    let line = match t.system {
        RulesSystem::Mettle => mettle_roll(t),
        RulesSystem::Core => core_roll(t),
    };
    match t.fit.as_ref().and_then(crate::generators::trap::sized_text) {
        Some(sized) => format!("{line} ({sized})"),
        None => line,
    }
}

/// What `trap-N.md`'s template reads: the trap `t`, `roll`,
/// `odds_head`, `odds_rows` and `fit` ([`fit_line`], or null).
pub fn trap_lines(t: &Trap) -> [(&'static str, serde_json::Value); 5] {
    [
        ("t", serde_json::to_value(t).unwrap_or_default()),
        ("roll", roll(t).into()),
        ("odds_head", odds_head(t).to_vec().into()),
        (
            "odds_rows",
            odds_rows(t)
                .iter()
                .map(|r| r.to_vec())
                .collect::<Vec<_>>()
                .into(),
        ),
        ("fit", fit_line(t).into()),
    ]
}

/// How the trap fits the party it was made for, on one line: `fair: one
/// trigger takes 24% of a PC's Mettle on average` (`None`: made for no
/// party, or nothing to measure).
pub fn fit_line(t: &Trap) -> Option<String> {
    let f = t.fit.as_ref()?;
    let what = match (f.measure.as_str(), t.system) {
        ("damage", RulesSystem::Mettle) => "of a PC's Mettle one trigger takes, on average",
        ("damage", RulesSystem::Core) => "of a PC's health one trigger takes, on average",
        ("effect", _) => "chance it takes effect, on average over the party",
        _ => return None,
    };
    Some(format!("{}: {} {what}", f.verdict, percent(f.bite)))
}

/// The run sheet's flag for a trap that can kill a PC outright, or
/// `None`: `trap/1 Scything blade can fell Ada (Mettle 6) in one go:
/// 12.34%; Bram (Mettle 7): 3.10%`.
pub fn deadly_line(t: &Trap, address: &str) -> Option<String> {
    let f = t.fit.as_ref()?;
    let who: Vec<String> = f
        .pcs
        .iter()
        .filter(|p| p.deadly(t.system))
        .map(|p| match t.system {
            RulesSystem::Mettle => format!("{} (Mettle {}) {}", p.pc, p.kill_at, percent(p.kills)),
            RulesSystem::Core => format!("{} (STR {}) {}", p.pc, p.kill_at, percent(p.kills)),
        })
        .collect();
    if who.is_empty() {
        return None;
    }
    let verb = match t.system {
        RulesSystem::Mettle => "can fell in one go",
        RulesSystem::Core => "can kill outright",
    };
    Some(format!("{address} {} {verb}: {}", t.name, who.join(", ")))
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
    save_rule(&t.vs, t.damage.as_deref(), t.direct, t.condition.as_deref())
}

/// A Core Rules save and what failing it costs: `AGI save (d20 at or
/// under AGI) or d8! damage less armour and blind until …`.
fn save_rule(save: &str, damage: Option<&str>, direct: bool, condition: Option<&str>) -> String {
    let damage = damage.map(|d| {
        if direct {
            format!("{d} direct damage (armour does not help)")
        } else {
            format!("{d} damage less armour")
        }
    });
    let effects: Vec<String> = damage
        .into_iter()
        .chain(condition.map(str::to_owned))
        .collect();
    format!(
        "{save} save (d20 at or under {save}) or {}",
        effects.join(" and ")
    )
}

/// A situation's hazard on one line: `3D+2, soaked with FRAME, Afflicted
/// (ends on no Edge: 12.50%)` or `STR save (d20 at or under STR) or d6!
/// damage less armour (fails: STR 8 60.00%, STR 9 55.00%)`.
pub fn hazard(h: &HazardNote) -> String {
    match h {
        HazardNote::Mettle {
            hazard,
            soak,
            status,
            ends,
            ..
        } => {
            let soak = match soak.as_deref() {
                Some("none") => ", no Soak".to_owned(),
                Some(x) => format!(", soaked with {x}"),
                None => String::new(),
            };
            let status = status
                .as_deref()
                .map(|s| format!(", {s}"))
                .unwrap_or_default();
            format!(
                "{hazard}{soak}{status} (ends on no Edge: {})",
                percent(*ends)
            )
        }
        HazardNote::Core {
            save,
            damage,
            direct,
            condition,
            odds,
        } => format!(
            "{} (fails: {})",
            save_rule(save, damage.as_deref(), *direct, condition.as_deref()),
            fails(save, odds)
        ),
    }
}

/// `STR 8 60.00%, STR 9 55.00%`: the chance each score fails its save.
fn fails(save: &str, odds: &[TrapOdds]) -> String {
    odds.iter()
        .map(|o| format!("{save} {} {}", o.value, percent(o.hit)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The heading of the odds table: what the odds are for, the chance, the
/// mean damage.
pub fn odds_head(t: &Trap) -> [String; 3] {
    if t.fit.as_ref().is_some_and(|f| !f.pcs.is_empty()) {
        let chance = match t.system {
            RulesSystem::Mettle => "hit",
            RulesSystem::Core => "fails the save",
        };
        return [
            format!("PC ({})", t.vs),
            chance.into(),
            "expected damage".into(),
        ];
    }
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
    if let Some(f) = t.fit.as_ref().filter(|f| !f.pcs.is_empty()) {
        return f
            .pcs
            .iter()
            .map(|p| {
                let damage = if f.measure == "damage" {
                    format!("{:.2}", p.expected_damage)
                } else {
                    "—".to_owned()
                };
                [format!("{} ({})", p.pc, p.value), percent(p.hit), damage]
            })
            .collect();
    }
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
