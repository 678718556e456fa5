//! A trap fitted to the party it is set for, the way an encounter's foes
//! are fitted (see [`crate::generators::encounter`]): every PC's exact
//! odds against the trap, one number for how hard it bites, and the
//! closest fit to a fair band kept.
//!
//! **Each PC's odds.** METTLE: the hazard's Check against the PC's POISE
//! (only a success does harm), damage Edge + bonus − Soak (FRAME + Armor;
//! POISE for a fall; FRAME for a poison, whose unsoaked potence is an
//! affliction, not lost Mettle). Core Rules: the chance to fail the d20
//! save, damage the exploding roll less armour (unless direct). From the
//! exact distributions: the chance the trap takes effect, the expected
//! damage one trigger does, and the chance one trigger kills outright —
//! METTLE: damage at or over the PC's Mettle (a Felling blow from full),
//! or an affliction over their Mettle (death, by the Affliction rule);
//! Core Rules: damage at or over the PC's maximum health (instant death).
//!
//! **The bite.** A trap that does damage is measured by the share of a
//! PC's Mettle (health) one trigger is expected to take, averaged over the
//! PCs (any of them may set it off): a fair trap takes a sixth to a third
//! ([`SHARE_FAIR`]). A trap that only brings a status or an alarm is
//! measured by its mean chance to take effect, fair from 35% to 70%
//! ([`HIT_FAIR`], the encounter band).
//!
//! **Sizing.** A grade is one step on the seeds' own ladders: METTLE `+1D+1`
//! (a metre more of fall, the next size of fire; a bonus of 0 stays 0),
//! Core Rules one damage die up or down d4 … d12, with impaired d4 below
//! and enhanced d12 above. Up to three grades either way, the table's own
//! numbers first, then one grade down, one up, and so on: the first grade
//! in the band is kept. A trap no grade brings into the band is drawn
//! again (up to [`MAX_CHOICES`] draws, at `<trap>/choice/<k>`), and the
//! closest fit of all is kept.

use serde::Serialize;

use super::Trap;
use crate::dice::{self, ast::Expr};
use crate::generators::GenError;
use crate::rules::{Party, RulesSystem};

/// The fair band for the expected share of a PC's Mettle (health) one
/// trigger takes.
pub const SHARE_FAIR: (f64, f64) = (0.15, 0.35);
/// The fair band for the chance a trap without damage takes effect.
pub const HIT_FAIR: (f64, f64) = (0.35, 0.7);
/// Most grades a trap is sized up or down.
pub(super) const MAX_GRADE: i8 = 3;
/// Most draws tried before the closest is kept.
pub(super) const MAX_CHOICES: usize = 3;
/// An exploding die can reach any number, so every Core trap with damage
/// could kill in theory: below one chance in a thousand it is not flagged.
pub const KILL_FLOOR: f64 = 0.001;
/// The Core Rules damage ladder, one grade a step.
const CORE_LADDER: [&str; 7] = [
    "d4! impaired",
    "d4!",
    "d6!",
    "d8!",
    "d10!",
    "d12!",
    "d12! enhanced",
];
/// METTLE's largest hazard pool (the fall rule's 15D+15).
const MAX_POOL: i64 = 15;

/// How a trap fits the party it was made for.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fit {
    /// Grades sized from the table's numbers (+ harder, − softer).
    pub grade: i8,
    /// The table's roll before sizing (`5D+7`, `d10!`), when sized.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table_roll: Option<String>,
    /// `damage` (mean share of a PC's Mettle or health one trigger takes),
    /// `effect` (mean chance it takes effect) or `none` (no roll).
    pub measure: String,
    /// That mean.
    pub bite: f64,
    /// trivial, easy, fair, hard, deadly (none without a roll).
    pub verdict: String,
    /// Each PC's odds, in party order.
    pub pcs: Vec<PcOdds>,
}

/// One PC's exact odds against a trap.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PcOdds {
    /// The PC's name.
    pub pc: String,
    /// Their POISE, or their score in the save's ability.
    pub value: u32,
    /// Chance the trap takes effect on them.
    pub hit: f64,
    /// Expected damage of one trigger, after Soak or armour.
    pub expected_damage: f64,
    /// What one trigger must reach to kill (fell) them outright: Mettle,
    /// Mettle + 1 for an affliction, maximum health (Core Rules).
    pub kill_at: i64,
    /// Chance one trigger kills (fells) them outright.
    pub kills: f64,
}

impl PcOdds {
    /// Whether the run sheet flags this PC: any chance to be killed
    /// (METTLE, whose damage has a maximum), or at least [`KILL_FLOOR`]
    /// (Core Rules, whose damage explodes).
    pub fn deadly(&self, system: RulesSystem) -> bool {
        match system {
            RulesSystem::Mettle => self.kills > 0.0,
            RulesSystem::Core => self.kills >= KILL_FLOOR,
        }
    }
}

/// Whether a trap's roll harms Mettle or health (not a status, an
/// alarm or an affliction only).
fn does_damage(t: &Trap, alarm: bool) -> bool {
    match t.system {
        RulesSystem::Mettle => {
            t.hazard.is_some() && !alarm && matches!(t.status.as_deref(), None | Some("Burning"))
        }
        RulesSystem::Core => t.damage.is_some(),
    }
}

/// Each PC's odds against `t`, and whether it does damage.
pub(super) fn measure(t: &Trap, party: &Party, alarm: bool) -> Result<Fit, GenError> {
    let damaging = does_damage(t, alarm);
    let (pcs, toughness) = match t.system {
        RulesSystem::Mettle => mettle_pcs(t, party, damaging)?,
        RulesSystem::Core => core_pcs(t, party)?,
    };
    let n = pcs.len().max(1) as f64;
    let (measure, bite, band) = if pcs.is_empty() {
        ("none", 0.0, None)
    } else if damaging {
        let share: f64 = pcs
            .iter()
            .zip(&toughness)
            .map(|(p, t)| p.expected_damage / (*t).max(1) as f64)
            .sum();
        ("damage", share / n, Some(SHARE_FAIR))
    } else {
        let hit: f64 = pcs.iter().map(|p| p.hit).sum();
        ("effect", hit / n, Some(HIT_FAIR))
    };
    Ok(Fit {
        grade: 0,
        table_roll: None,
        measure: measure.into(),
        bite,
        verdict: band.map_or("none", |b| verdict(bite, b)).into(),
        pcs,
    })
}

fn verdict(x: f64, (lo, hi): (f64, f64)) -> &'static str {
    match x {
        x if x < lo / 3.0 => "trivial",
        x if x < lo => "easy",
        x if x <= hi => "fair",
        x if x <= hi * 1.7 => "hard",
        _ => "deadly",
    }
}

/// How far a fit is from its band: 1 inside it, else the factor to its
/// nearer edge (no roll: 1, nothing to fit).
pub(super) fn distance(fit: &Fit) -> f64 {
    let (lo, hi) = match fit.measure.as_str() {
        "damage" => SHARE_FAIR,
        "effect" => HIT_FAIR,
        _ => return 1.0,
    };
    match fit.bite {
        x if x <= 0.0 => f64::INFINITY,
        x if x < lo => lo / x,
        x if x > hi => x / hi,
        _ => 1.0,
    }
}

/// METTLE: each PC's odds (POISE, Soak, Mettle), and each one's Mettle.
fn mettle_pcs(
    t: &Trap,
    party: &Party,
    damaging: bool,
) -> Result<(Vec<PcOdds>, Vec<i64>), GenError> {
    let Some(h) = &t.hazard else {
        return Ok((Vec::new(), Vec::new()));
    };
    let afflicted = t.status.as_deref() == Some("Afflicted");
    let mut out = Vec::new();
    let mut toughness = Vec::new();
    for b in &party.mettle {
        let o = super::hazard_odds(h, &[b.POISE.min(30)])?.remove(0);
        let soak = match t.soak.as_deref() {
            Some("POISE") => b.POISE,
            Some("FRAME") => b.FRAME,
            Some("none") => 0,
            _ => b.soak(),
        };
        let mettle = i64::from(b.mettle());
        let kill_at = if afflicted { mettle + 1 } else { mettle };
        let (mut expected, mut kills) = (0.0, 0.0);
        for &(v, q) in &o.damage {
            let dealt = (v - i64::from(soak)).max(0);
            if damaging {
                expected += q * dealt as f64;
            }
            if (damaging || afflicted) && dealt >= kill_at.max(1) {
                kills += q;
            }
        }
        out.push(PcOdds {
            pc: b.name.clone(),
            value: b.POISE,
            hit: o.hit,
            expected_damage: expected,
            kill_at,
            kills,
        });
        toughness.push(mettle);
    }
    Ok((out, toughness))
}

/// Core Rules: each PC's odds (the save's score, armour, maximum health),
/// and each one's health now.
fn core_pcs(t: &Trap, party: &Party) -> Result<(Vec<PcOdds>, Vec<i64>), GenError> {
    let table = match t.damage.as_deref() {
        Some(d) => super::core::damage_table(d)?.1,
        None => Vec::new(),
    };
    let mut out = Vec::new();
    let mut toughness = Vec::new();
    for s in &party.core {
        let score = match t.vs.as_str() {
            "STR" => s.STR,
            "AGI" => s.AGI,
            _ => s.WIT,
        }
        .clamp(0, 30) as u32;
        let fail = super::core::fail_chance(score);
        let armour = if t.direct { 0 } else { s.armour.max(0) };
        let max_health = s.STR.max(1);
        let (mut expected, mut kills) = (0.0, 0.0);
        for &(v, q) in &table {
            let dealt = (v - armour).max(0);
            expected += fail * q * dealt as f64;
            if dealt >= max_health {
                kills += fail * q;
            }
        }
        out.push(PcOdds {
            pc: s.name.clone(),
            value: score,
            hit: fail,
            expected_damage: expected,
            kill_at: max_health,
            kills,
        });
        toughness.push(s.current_health());
    }
    Ok((out, toughness))
}

/// The trap's roll `grade` grades from the table's: `None` when the ladder
/// has no such step (or the roll is not on one).
pub(super) fn sized_roll(t: &Trap, grade: i8) -> Option<String> {
    if grade == 0 {
        return t.hazard.clone().or_else(|| t.damage.clone());
    }
    match (&t.hazard, &t.damage) {
        (Some(h), _) => {
            let Ok(Expr::Pool(p)) = dice::parse(h) else {
                return None;
            };
            let g = i64::from(grade);
            let dice = i64::from(p.dice) + g;
            if !(1..=MAX_POOL).contains(&dice) {
                return None;
            }
            let bonus = if p.bonus == 0 {
                0
            } else {
                (i64::from(p.bonus) + g).max(0)
            };
            Some(if bonus == 0 {
                format!("{dice}D")
            } else {
                format!("{dice}D+{bonus}")
            })
        }
        (None, Some(d)) => {
            let at = CORE_LADDER.iter().position(|r| *r == d.trim())?;
            let to = at as i64 + i64::from(grade);
            usize::try_from(to)
                .ok()
                .and_then(|i| CORE_LADDER.get(i))
                .map(|r| (*r).to_owned())
        }
        (None, None) => None,
    }
}

/// The grades tried, the table's own first: 0, −1, +1, −2, +2, −3, +3.
pub(super) fn grades() -> impl Iterator<Item = i8> {
    (0..=MAX_GRADE).flat_map(|g| if g == 0 { vec![0] } else { vec![-g, g] })
}

/// What a grade says on a card: `one grade down from the table's 5D+7`.
pub fn sized_text(fit: &Fit) -> Option<String> {
    let from = fit.table_roll.as_deref()?;
    let n = fit.grade.unsigned_abs();
    let way = if fit.grade > 0 { "up" } else { "down" };
    let grades = match n {
        1 => "one grade".to_owned(),
        2 => "two grades".to_owned(),
        _ => "three grades".to_owned(),
    };
    Some(format!("sized {grades} {way} from the table's {from}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::mettle::StatBlock;

    fn pc(name: &str, poise: u32, frame: u32, motive: u32, nature: u32) -> StatBlock {
        StatBlock {
            name: name.into(),
            NATURE: nature,
            CULTURE: 0,
            POISE: poise,
            MOTIVE: motive,
            FRAME: frame,
            callings: Vec::new(),
            armor: 0,
            weapons: Vec::new(),
            speed: 1,
            statuses: Vec::new(),
        }
    }

    fn mettle_trap(hazard: &str) -> Trap {
        Trap {
            name: "Blade".into(),
            system: RulesSystem::Mettle,
            from: super::super::Source::Parts,
            terrain: "ruins".into(),
            trigger: "t".into(),
            clue: "c".into(),
            effect: "e".into(),
            disarm: None,
            hazard: Some(hazard.into()),
            vs: "POISE".into(),
            soak: None,
            status: None,
            damage: None,
            direct: false,
            condition: None,
            odds: Vec::new(),
            trail: Vec::new(),
            fit: None,
        }
    }

    fn party_of(blocks: Vec<StatBlock>) -> Party {
        Party {
            mettle: blocks,
            core: Vec::new(),
            water_capacity: None,
        }
    }

    /// Every face of `n` d6 (6ⁿ outcomes, each 6⁻ⁿ): (Score, Edge).
    fn faces(n: u32) -> Vec<(u32, u32)> {
        let mut out = vec![(0, 0)];
        for _ in 0..n {
            out = out
                .iter()
                .flat_map(|&(s, e)| {
                    (1..=6).map(move |f| if f <= 3 { (s + f, e) } else { (s, e + 1) })
                })
                .collect();
        }
        out
    }

    #[test]
    fn mettle_odds_match_a_count_of_every_face() {
        // 2D+2 vs POISE 1, Soak 2, Mettle 1, by hand: both dice low (9 of
        // 36) always beat 1 with no Edge; one low of 2-3 and one high (12
        // of 36) beat it with 1 Edge; both high score 0. Hit 21/36;
        // damage Edge + 2 − 2 = Edge: expected 12/36; Mettle 1 falls to
        // any 1 damage: 12/36.
        let party = party_of(vec![pc("Ada", 1, 2, 0, 1)]);
        let f = measure(&mettle_trap("2D+2"), &party, false).unwrap();
        let p = &f.pcs[0];
        assert!((p.hit - 21.0 / 36.0).abs() < 1e-12, "{p:?}");
        assert!((p.expected_damage - 12.0 / 36.0).abs() < 1e-12, "{p:?}");
        assert!((p.kills - 12.0 / 36.0).abs() < 1e-12, "{p:?}");
        // 5D+7 against a grid of PCs, against all 7,776 faces counted.
        for (poise, frame, motive) in [(2, 1, 2), (3, 3, 3), (4, 2, 4), (6, 5, 6), (1, 0, 1)] {
            let b = pc("Bram", poise, frame, motive, motive);
            let mettle = i64::from(b.mettle());
            let (mut hit, mut expected, mut kills) = (0.0, 0.0, 0.0);
            let all = faces(5);
            let each = 1.0 / all.len() as f64;
            for (score, edge) in all {
                if score > poise {
                    let dealt = (i64::from(edge) + 7 - i64::from(b.soak())).max(0);
                    hit += each;
                    expected += each * dealt as f64;
                    if dealt >= mettle {
                        kills += each;
                    }
                }
            }
            let soak = i64::from(b.soak());
            let f = measure(&mettle_trap("5D+7"), &party_of(vec![b]), false).unwrap();
            let p = &f.pcs[0];
            assert!((p.hit - hit).abs() < 1e-12, "POISE {poise}: {p:?}");
            assert!((p.expected_damage - expected).abs() < 1e-12, "{p:?}");
            assert!((p.kills - kills).abs() < 1e-12, "{p:?}");
            assert_eq!(p.kill_at, mettle);
            // The flag is up exactly when the largest damage a success
            // can do reaches Mettle: with k low dice needed to beat POISE
            // (3 each at most), at most 5 − k Edge.
            let k = (poise + 1).div_ceil(3);
            let max_dealt = i64::from(5 - k) + 7 - soak;
            assert_eq!(p.deadly(RulesSystem::Mettle), max_dealt >= mettle, "{p:?}");
        }
    }

    #[test]
    fn core_odds_match_the_hand_count() {
        // d6! vs AGI 10 (fails on 11-20: 1/2), armour 1, STR 4. An
        // exploding d6 averages 4 and never rolls under 1, so less armour
        // 3: expected 1/2 × 3. Instant death at 4 or more after armour,
        // 5 or more rolled: a 5 (1/6) or any explosion (1/6): 1/2 × 1/3.
        let sheet = crate::rules::core::Sheet {
            name: "Cress".into(),
            human: true,
            STR: 4,
            AGI: 10,
            WIT: 10,
            health: None,
            armour: 1,
            damage: "d6".into(),
            weapon: None,
            omens: 0,
            max_omens: 0,
            corruption: 0,
            skills: Vec::new(),
            traits: Vec::new(),
            conditions: Vec::new(),
        };
        let party = Party {
            mettle: Vec::new(),
            core: vec![sheet],
            water_capacity: None,
        };
        let mut t = mettle_trap("1D");
        t.system = RulesSystem::Core;
        t.hazard = None;
        t.vs = "AGI".into();
        t.damage = Some("d6!".into());
        let f = measure(&t, &party, false).unwrap();
        let p = &f.pcs[0];
        assert_eq!(p.hit, 0.5);
        assert!((p.expected_damage - 1.5).abs() < 1e-6, "{p:?}");
        assert!((p.kills - 1.0 / 6.0).abs() < 1e-9, "{p:?}");
        assert!(p.deadly(RulesSystem::Core));
        assert!((f.bite - 1.5 / 4.0).abs() < 1e-6, "{f:?}");
    }

    #[test]
    fn grades_step_along_the_seeds_ladders() {
        let mut t = mettle_trap("4D+4");
        assert_eq!(sized_roll(&t, -2).as_deref(), Some("2D+2"));
        assert_eq!(sized_roll(&t, 3).as_deref(), Some("7D+7"));
        assert_eq!(sized_roll(&t, -4), None);
        t.hazard = Some("4D".into());
        assert_eq!(sized_roll(&t, 1).as_deref(), Some("5D"));
        t.hazard = None;
        t.damage = Some("d10!".into());
        assert_eq!(sized_roll(&t, 2).as_deref(), Some("d12! enhanced"));
        assert_eq!(sized_roll(&t, 3), None);
        assert_eq!(sized_roll(&t, -3).as_deref(), Some("d4!"));
        let order: Vec<i8> = grades().collect();
        assert_eq!(order, [0, -1, 1, -2, 2, -3, 3]);
    }
}
