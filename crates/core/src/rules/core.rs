//! The d20 Core Rules: exploding damage, saves, contests and chances.
//!
//! - Exploding damage: rolling a die's maximum adds the maximum minus one
//!   and the die is rolled again, for as long as it keeps rolling maximum
//!   (6, 6, 3 on a d6 → 5 + 5 + 3 = 13).
//! - Enhanced/impaired damage: roll twice, keep the higher/lower.
//! - Save: pass on a d20 roll equal to or under the ability.
//! - Contest: ability − d20, ranked highest first; ties are settled by
//!   contesting again among the tied.
//! - Chance `x:y`: roll a dy; `x` or under happens (a 1 on a d4 for 1:4).

/// The value of one exploding die from its chain of rolls.
#[cfg_attr(
    not(test),
    allow(
        dead_code,
        reason = "rules of the seeds checked by tests; the campaign ledger (issue 29) applies them"
    )
)]
pub(crate) fn explode_value(chain: &[u32], sides: u32) -> u64 {
    let (last, maxes) = chain.split_last().expect("a chain has at least one roll");
    debug_assert!(maxes.iter().all(|&r| r == sides));
    maxes.len() as u64 * u64::from(sides - 1) + u64::from(*last)
}

/// Whether a d20 roll passes a save against `ability`.
pub fn save_passes(roll: u32, ability: u32) -> bool {
    roll <= ability
}

/// A contestant's total: ability − d20.
pub(crate) fn contest_total(ability: u32, roll: u32) -> i64 {
    i64::from(ability) - i64::from(roll)
}

use serde::{Deserialize, Serialize};

/// The highest any ability can reach; humans stop at [`HUMAN_MAX`].
pub const ABILITY_MAX: i64 = 19;
/// The highest a human's ability can reach.
pub const HUMAN_MAX: i64 = 15;
/// Armour value never exceeds 3.
pub const ARMOUR_MAX: i64 = 3;
/// Damage dice a Core Rules weapon may use.
pub const DAMAGE_DICE: [&str; 5] = ["d4", "d6", "d8", "d10", "d12"];

/// A Core Rules character sheet (`--character FILE`, party files, NPCs).
#[allow(non_snake_case)]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sheet {
    /// The character's name.
    pub name: String,
    /// Humans cap abilities at 15; other kinds at 19.
    #[serde(default = "default_human")]
    pub human: bool,
    /// Strength; also the maximum health.
    pub STR: i64,
    /// Agility.
    pub AGI: i64,
    /// Wits.
    pub WIT: i64,
    /// Current health; `None` reads as full (health = STR).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub health: Option<i64>,
    /// Armour, taken off each hit's damage (at most [`ARMOUR_MAX`]).
    #[serde(default)]
    pub armour: i64,
    /// The weapon's damage die.
    #[serde(default = "default_damage")]
    pub damage: String,
    /// The weapon's name, if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapon: Option<String>,
    /// Omens in hand (luck spent on rerolls).
    #[serde(default)]
    pub omens: i64,
    /// The most omens the character can hold.
    #[serde(default)]
    pub max_omens: i64,
    /// Corruption gathered so far.
    #[serde(default)]
    pub corruption: i64,
    /// Skills, as written.
    #[serde(default)]
    pub skills: Vec<String>,
    /// Traits, as written.
    #[serde(default)]
    pub traits: Vec<String>,
    /// Conditions the character suffers, as written.
    #[serde(default)]
    pub conditions: Vec<String>,
}

fn default_human() -> bool {
    true
}

fn default_damage() -> String {
    "d6".into()
}

impl Sheet {
    /// Maximum health = STR.
    pub fn max_health(&self) -> i64 {
        self.STR
    }

    /// Health now: the sheet's, or full (STR) when it gives none.
    pub fn current_health(&self) -> i64 {
        self.health.unwrap_or(self.STR)
    }

    /// The highest an ability may be: [`HUMAN_MAX`] for humans, else
    /// [`ABILITY_MAX`].
    pub fn ability_cap(&self) -> i64 {
        if self.human { HUMAN_MAX } else { ABILITY_MAX }
    }

    /// The ability named `name` (`STR`, `AGI`, `WIT`), to change it.
    pub fn ability_mut(&mut self, name: &str) -> Option<&mut i64> {
        match name {
            "STR" => Some(&mut self.STR),
            "AGI" => Some(&mut self.AGI),
            "WIT" => Some(&mut self.WIT),
            _ => None,
        }
    }

    /// Keep health within the (possibly lowered) STR: when STR drops below
    /// current health, health drops to match (without critical damage).
    pub fn settle_health(&mut self) {
        if let Some(h) = self.health
            && h > self.STR
        {
            self.health = Some(self.STR.max(0));
        }
    }
}

/// Everything that makes a sheet illegal under the Core Rules.
pub fn check_sheet(s: &Sheet) -> Vec<String> {
    super::messages(sheet_flaws(s))
}

/// [`check_sheet`], with the field each problem sits in.
pub fn sheet_flaws(s: &Sheet) -> Vec<super::Flaw> {
    use super::Flaw;
    let mut out = Vec::new();
    // Ability bonuses from mutations may pass 15 (never 19), so a
    // generated human sheet is held to 15 and a mutated one to 19 by the
    // caller's choice of `human`.
    for (name, v) in [("STR", s.STR), ("AGI", s.AGI), ("WIT", s.WIT)] {
        if !(0..=ABILITY_MAX).contains(&v) {
            out.push(Flaw::at(
                name,
                format!("{name} {v} is outside 0-{ABILITY_MAX}"),
            ));
        }
    }
    if let Some(h) = s.health
        && !(0..=s.STR.max(0)).contains(&h)
    {
        out.push(Flaw::at(
            "health",
            format!(
                "health {h} is outside 0-{} (health never exceeds STR)",
                s.STR
            ),
        ));
    }
    if !(0..=ARMOUR_MAX).contains(&s.armour) {
        out.push(Flaw::at(
            "armour",
            format!("armour {} is outside 0-{ARMOUR_MAX}", s.armour),
        ));
    }
    if !DAMAGE_DICE.contains(&s.damage.as_str()) {
        out.push(Flaw::at(
            "damage",
            format!("damage `{}` is not one of d4, d6, d8, d10, d12", s.damage),
        ));
    }
    // Omens start at most 2; mutations (Eye of the prophet) can raise the
    // maximum, so a sheet may hold up to 4.
    if !(0..=4).contains(&s.max_omens) || !(0..=s.max_omens.max(0)).contains(&s.omens) {
        out.push(Flaw::at(
            if (0..=4).contains(&s.max_omens) {
                "omens"
            } else {
                "max_omens"
            },
            format!(
                "omens {}/{} are outside 0-4 (or above the maximum)",
                s.omens, s.max_omens
            ),
        ));
    }
    if s.corruption < 0 {
        out.push(Flaw::at(
            "corruption",
            format!("corruption {} is negative", s.corruption),
        ));
    }
    for (key, list) in [
        ("skills", &s.skills),
        ("traits", &s.traits),
        ("conditions", &s.conditions),
    ] {
        for (i, k) in list.iter().enumerate() {
            if k.trim().is_empty() {
                out.push(Flaw::item(key, i, "an empty keyword".into()));
            }
        }
    }
    out
}

/// Check a freshly generated sheet: abilities 1-15 for humans, 1-19
/// otherwise.
pub fn check_generated_sheet(s: &Sheet) -> Vec<String> {
    let mut out = check_sheet(s);
    if s.max_omens > 2 {
        out.push(format!(
            "a new sheet starts with at most 2 omens, not {}",
            s.max_omens
        ));
    }
    for (name, v) in [("STR", s.STR), ("AGI", s.AGI), ("WIT", s.WIT)] {
        if !(1..=s.ability_cap()).contains(&v) {
            out.push(format!("{name} {v} is outside 1-{}", s.ability_cap()));
        }
    }
    out
}

/// What a hit did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(
    not(test),
    allow(
        dead_code,
        reason = "rules of the seeds checked by tests; the campaign ledger (issue 29) applies them"
    )
)]
pub enum Harm {
    /// No damage got through.
    None,
    /// Health went down, nothing more.
    Hurt,
    /// Half or more of the remaining health at once: incapacitated until
    /// the end of the stretch.
    Critical,
    /// All remaining health: critical damage and dying (dies at the end of
    /// the next round unless healed; an injury roll if they recover).
    MortalWound,
    /// Damage at or above maximum health at once: dead on the spot.
    InstantDeath,
}

/// Damage after armour (direct damage ignores armour).
#[cfg_attr(
    not(test),
    allow(
        dead_code,
        reason = "rules of the seeds checked by tests; the campaign ledger (issue 29) applies them"
    )
)]
pub(crate) fn after_armour(damage: i64, armour: i64, direct: bool) -> i64 {
    if direct {
        damage.max(0)
    } else {
        (damage - armour.clamp(0, ARMOUR_MAX)).max(0)
    }
}

/// Apply damage that got through: the new health and what it did.
#[cfg_attr(
    not(test),
    allow(
        dead_code,
        reason = "rules of the seeds checked by tests; the campaign ledger (issue 29) applies them"
    )
)]
pub(crate) fn take_damage(health: i64, max_health: i64, damage: i64) -> (i64, Harm) {
    if damage <= 0 {
        return (health, Harm::None);
    }
    let after = (health - damage).max(0);
    let harm = if damage >= max_health {
        Harm::InstantDeath
    } else if damage >= health {
        Harm::MortalWound
    } else if 2 * damage >= health {
        Harm::Critical
    } else {
        Harm::Hurt
    };
    (after, harm)
}

/// One bout of corruption and its soulblight check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(
    not(test),
    allow(
        dead_code,
        reason = "rules of the seeds checked by tests; the campaign ledger (issue 29) applies them"
    )
)]
pub struct Corruption {
    /// Corruption before this bout.
    pub before: i64,
    /// Corruption gained.
    pub gained: i64,
    /// The d12 rolled against the new total.
    pub roll: i64,
    /// Whether the roll was at most the new total (soulblight).
    pub soulblight: bool,
    /// Direct damage from soulblight (the roll), 0 without.
    pub damage: i64,
    /// Corruption after (lowered by the roll on soulblight).
    pub after: i64,
    /// What the soulblight damage did.
    pub harm: Harm,
    /// Health after the soulblight damage.
    pub health_after: i64,
    /// Soulblight that causes critical damage brings a mutation.
    pub mutation: bool,
}

/// Suffer `gained` corruption with a d12 `roll`: soulblight when the roll
/// is at most the new total — direct damage equal to the roll, and the
/// corruption drops by the same amount.
#[cfg_attr(
    not(test),
    allow(
        dead_code,
        reason = "rules of the seeds checked by tests; the campaign ledger (issue 29) applies them"
    )
)]
pub fn suffer_corruption(
    before: i64,
    gained: i64,
    roll: i64,
    health: i64,
    max_health: i64,
) -> Corruption {
    let total = before + gained;
    let soulblight = roll <= total;
    let damage = if soulblight { roll } else { 0 };
    let (health_after, harm) = take_damage(health, max_health, damage);
    Corruption {
        before,
        gained,
        roll,
        soulblight,
        damage,
        after: if soulblight { total - roll } else { total },
        harm,
        health_after,
        mutation: soulblight
            && matches!(
                harm,
                Harm::Critical | Harm::MortalWound | Harm::InstantDeath
            ),
    }
}

/// Sybilla of the Core Rules' worked examples (STR 8, health 6, armour 1),
/// for tests.
#[doc(hidden)]
pub fn sybilla() -> Sheet {
    Sheet {
        name: "Sybilla".into(),
        human: true,
        STR: 8,
        AGI: 10,
        WIT: 12,
        health: Some(6),
        armour: 1,
        damage: "d6".into(),
        weapon: None,
        omens: 2,
        max_omens: 2,
        corruption: 0,
        skills: vec![],
        traits: vec![],
        conditions: vec![],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balthasar_explodes_to_thirteen() {
        assert_eq!(explode_value(&[6, 6, 3], 6), 13);
        assert_eq!(explode_value(&[4], 6), 4);
        // Sybilla's d4: 4 then 2 → 5.
        assert_eq!(explode_value(&[4, 2], 4), 5);
        // Sybilla's enhanced d6: second roll 6 then 3 → 8.
        assert_eq!(explode_value(&[6, 3], 6), 8);
    }

    #[test]
    fn saves_and_contests() {
        assert!(save_passes(12, 12));
        assert!(!save_passes(13, 12));
        // Theobald AGI 6 rolls 2 → 4; Balthasar 10 − 8 = 2; Sybilla 10 − 19 = −9.
        assert_eq!(contest_total(6, 2), 4);
        assert_eq!(contest_total(10, 8), 2);
        assert_eq!(contest_total(10, 19), -9);
    }

    #[test]
    fn balthasar_corruption_example() {
        // 0 + 2 corruption, d12 = 5: nothing.
        let first = suffer_corruption(0, 2, 5, 10, 10);
        assert!(!first.soulblight);
        assert_eq!((first.after, first.damage), (2, 0));
        // + 3 more → 5, d12 = 1: soulblight, 1 direct damage, corruption 4.
        let second = suffer_corruption(first.after, 3, 1, 10, 10);
        assert!(second.soulblight);
        assert_eq!(
            (second.damage, second.after, second.health_after),
            (1, 4, 9)
        );
        assert_eq!(second.harm, Harm::Hurt);
        assert!(!second.mutation);
    }

    #[test]
    fn soulblight_that_cripples_brings_a_mutation() {
        // Corruption 4, health 6 of 10: a d12 of 4 deals 4 direct damage,
        // at least half the remaining 6 → critical → mutation.
        let c = suffer_corruption(3, 1, 4, 6, 10);
        assert_eq!(c.harm, Harm::Critical);
        assert!(c.mutation);
    }

    #[test]
    fn damage_thresholds() {
        assert_eq!(take_damage(8, 10, 3), (5, Harm::Hurt));
        assert_eq!(take_damage(8, 10, 4), (4, Harm::Critical));
        assert_eq!(take_damage(8, 10, 8), (0, Harm::MortalWound));
        assert_eq!(take_damage(8, 10, 10), (0, Harm::InstantDeath));
        // Sybilla (STR 8, health 6) takes 10: killed on the spot.
        assert_eq!(take_damage(6, 8, 10).1, Harm::InstantDeath);
        assert_eq!(after_armour(5, 2, false), 3);
        assert_eq!(after_armour(5, 2, true), 5);
        assert_eq!(after_armour(1, 3, false), 0);
    }

    #[test]
    fn sheets_are_checked() {
        let mut s = sybilla();
        s.skills = vec!["climb".into()];
        assert!(check_generated_sheet(&s).is_empty());
        s.armour = 4;
        s.damage = "d20".into();
        s.STR = 16;
        assert_eq!(
            check_generated_sheet(&s).len(),
            3,
            "{:?}",
            check_generated_sheet(&s)
        );
    }
}
