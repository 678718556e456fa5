//! The between-session rules of the seeds, as numbers and small pure
//! functions, and the names every [`super::Change`] gives them.
//!
//! - Core Rules, Full rests: a week, in a settlement only; 32ʂ, plus 16ʂ
//!   for each temporary condition the rest clears (each PC).
//! - Core Rules, Death of player characters: a funeral costs 512ʂ, halved
//!   when the remains are returned; unpaid by the next full rest, every
//!   other PC's maximum omens drop by 1 for good (not below 0).
//! - Core Rules, Corruption: a d12 at or under the corruption (with what
//!   was just suffered) is soulblight — direct damage equal to the roll,
//!   corruption lowered by it; critical damage from it brings a permanent
//!   mutation ([`crate::rules::core::suffer_corruption`]).
//! - Core Rules, Omens: omens spent in play come off the sheet until a
//!   full rest restores them to the maximum.
//! - METTLE Engine, Mettle: above zero it refills when a new Scene starts;
//!   at zero or below the PC stays so until healed.
//! - METTLE Scenes, Heal: CULTURE vs Difficulty 3; success keeps the
//!   patient alive and each Edge restores a point of Mettle per day's
//!   rest; failure is death. Staggered characters may Heal themselves
//!   with a die penalty equal to their negative Mettle. METTLE Engine,
//!   Twists: a failure with Edge may call a Twist and reroll the Edge
//!   dice ([`super::heal`] rolls it; the price from `mettle.twists.heal`).
//! - METTLE Scenes, Downtime: those not involved in a long Scene (the
//!   patients and their healers are) take a Downtime Voucher.
//! - Core Rules, Daily rests: a meal in a settlement costs 2ʂ (a ration
//!   bought there the same); water needs no tracking in a settlement.
//! - METTLE Scenes and Engine, Status: each status carries or clears
//!   between sessions as [`STATUS_RULES`] says.

/// What a record says happened.
pub(crate) const RECORD: &str = "record";
/// Full rest: the base price, per PC.
pub(crate) const FULL_REST_BASE: i64 = 32;
/// Full rest: the price of each temporary condition cleared.
pub(crate) const FULL_REST_PER_CONDITION: i64 = 16;
/// A full rest takes a week.
pub(crate) const FULL_REST_DAYS: u32 = 7;
/// A funeral's price; half with the remains.
pub(crate) const FUNERAL: i64 = 512;
/// Core Rules, Daily rests: a meal bought in a settlement costs 2ʂ; a
/// ration bought there costs the same (the rules price no ration).
pub(crate) const RATION_PRICE: i64 = 2;
/// The Heal Check's Difficulty (no hospital, no filth).
pub(crate) const HEAL_DIFFICULTY: u32 = 3;

pub(crate) const FULL_REST: &str = "Core Rules: full rests — a week in a settlement restores health, omens and abilities to their maximum and clears temporary injuries";
pub(crate) const FULL_REST_WILD: &str =
    "Core Rules: full rests — only in a settlement, not in the wilderness";
pub(crate) const FULL_REST_PRICE: &str =
    "Core Rules: full rests — 32ʂ, plus 16ʂ for each temporary condition cleared";
pub(crate) const DAMAGE: &str = "Core Rules: health and damage";
pub(crate) const INJURY: &str = "Core Rules: injuries";
pub(crate) const ABILITY: &str = "Core Rules: ability changes — restored by a full rest";
pub(crate) const SOULBLIGHT: &str = "Core Rules: corruption — a d12 at or under the corruption is soulblight: direct damage equal to the roll, corruption lowered by it";
pub(crate) const SOULBLIGHT_MUTATION: &str =
    "Core Rules: corruption — critical damage from soulblight brings a permanent mutation";
pub(crate) const MUTATION: &str = "Core Rules: mutations — permanent";
pub(crate) const OMENS_SPENT: &str = "Core Rules: omens — spent to re-roll, to cheat death or on sacred powers; recovered on a full rest";
pub(crate) const OMEN_SAVE: &str =
    "Core Rules: omens — an omen spent to save from death: health 1 and a permanent injury";
pub(crate) const DEATH: &str = "Core Rules: health and damage — death";
pub(crate) const FUNERAL_DUE: &str = "Core Rules: death of player characters — a funeral, 512ʂ (half with the remains), due by the next full rest";
pub(crate) const FUNERAL_PAID: &str =
    "Core Rules: death of player characters — the funeral paid by the full rest";
pub(crate) const FUNERAL_UNPAID: &str = "Core Rules: death of player characters — a funeral unpaid by the full rest: every other PC's maximum omens −1 for good";
pub(crate) const METTLE_REFILL: &str =
    "METTLE Engine: Mettle — above zero, it refills when a new Scene starts";
pub(crate) const METTLE_STAYS: &str =
    "METTLE Engine: Mettle — at 0 or below, it stays until healed";
pub(crate) const METTLE_DAMAGE: &str = "METTLE Engine: taking damage — Mettle lowered";
pub(crate) const HEAL: &str = "METTLE Scenes: Heal — CULTURE vs 3 in downtime; each Edge restores a point of Mettle per day's rest; failure is death";
pub(crate) const HEAL_TWIST: &str = "METTLE Scenes: Heal, and Engine: Twists — a failure with Edge calls a Twist: the Edge dice rerolled, the price from the Heal Twists";
pub(crate) const HEAL_STABLE: &str =
    "METTLE Scenes: Heal — success keeps the patient stable; rolled again only when hurt again";
pub(crate) const DOWNTIME: &str = "METTLE Scenes: Downtime — a long Scene while the fallen heal";
pub(crate) const DOWNTIME_VOUCHER: &str =
    "METTLE Scenes: Downtime — those not involved in a long Scene take a Downtime Voucher";
pub(crate) const VOUCHER_SPENT: &str =
    "METTLE Scenes: Downtime Vouchers — spent in play, then retired";
pub(crate) const VOUCHER_GONE: &str =
    "METTLE Scenes: Downtime Vouchers — the holder's Player's token, gone with the PC";
pub(crate) const STATUS: &str = "METTLE Scenes: Status";
pub(crate) const STARVING: &str = "METTLE Scenes: Status — Starving: every day without food lowers maximum Mettle by one, deadly at 0 or below; restored by food";
pub(crate) const LASTING: &str =
    "METTLE Scenes: Heal — a Twist's lasting price stays on the patient";
pub(crate) const STOCK_WATER: &str = "Core Rules: daily rests — water needs no tracking in a settlement: the skins are filled there (for METTLE too, as on the journey)";
pub(crate) const STOCK_CORE: &str = "Core Rules: daily rests — food: a ration, or a meal bought in a settlement for 2ʂ (a ration bought at a meal's price)";
pub(crate) const STOCK_METTLE: &str = "METTLE Scenes: Travel — rations keep Deprivation away; the Engine prices nothing, so a settlement's food is to hand";
pub(crate) const LEFT: &str = "record — the PC left the party";
pub(crate) const JOINED: &str = "record — a PC joined the party";

/// A full rest's price for one PC clearing `conditions` temporary
/// conditions: 32ʂ + 16ʂ each.
pub(crate) fn full_rest_cost(conditions: usize) -> i64 {
    FULL_REST_BASE + FULL_REST_PER_CONDITION * conditions as i64
}

/// A funeral's price: 512ʂ, or 256ʂ when the remains were returned.
pub(crate) fn funeral_cost(remains: bool) -> i64 {
    if remains { FUNERAL / 2 } else { FUNERAL }
}

/// Days of rest until Mettle `mettle` (0 or below) is above zero at
/// `edge` points a day; `None` without Edge (stable, not recovering).
pub(crate) fn recovery_days(mettle: i64, edge: u32) -> Option<u32> {
    if mettle > 0 {
        return Some(0);
    }
    // Points needed to reach 1.
    let need = (1 - mettle) as u32;
    (edge > 0).then(|| need.div_ceil(edge))
}

/// Whether a METTLE status carries to the next session, and why (the
/// Status rules: most last until their source is removed or addressed;
/// those bound to a Scene or a Round end with it).
pub(crate) const STATUS_RULES: [(&str, bool, &str); 16] = [
    ("Afflicted", true, "until cured or it runs its course"),
    ("Blinded", true, "until its source is removed or addressed"),
    (
        "Burning",
        false,
        "the fire ends when its Hazard rolls no Edge, within the Scene",
    ),
    ("Deafened", true, "until its source is removed or addressed"),
    ("Encumbered", true, "while the load is over FRAME"),
    (
        "Fallen",
        false,
        "it lasts for the Scene (Mettle at 0 or below stays until healed)",
    ),
    ("Fatigued", true, "until a good night's sleep"),
    ("Hungry", true, "until they eat"),
    (
        "Incapacitated",
        false,
        "a safer Fallen: it lasts for the Scene",
    ),
    ("Rattled", false, "it lasts for their next Action"),
    ("Shaken", false, "its source, the Scene's fear, is gone"),
    ("Staggered", true, "while Mettle is at 0 or below"),
    ("Starving", true, "until they eat"),
    ("Suffocating", false, "only while holding their breath"),
    (
        "Surprised",
        false,
        "next Scene, they are no longer Surprised",
    ),
    ("Thirsty", true, "until they drink"),
];

/// Whether `status` carries, and why.
pub(crate) fn status_rule(status: &str) -> Option<(bool, &'static str)> {
    STATUS_RULES
        .iter()
        .find(|(name, _, _)| *name == status)
        .map(|(_, carries, why)| (*carries, *why))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_rest_costs_32_plus_16_per_condition() {
        assert_eq!(full_rest_cost(0), 32);
        assert_eq!(full_rest_cost(1), 48);
        assert_eq!(full_rest_cost(3), 80);
    }

    #[test]
    fn a_funeral_costs_512_or_half_with_the_remains() {
        assert_eq!(funeral_cost(false), 512);
        assert_eq!(funeral_cost(true), 256);
    }

    #[test]
    fn each_edge_restores_a_point_a_day_until_mettle_is_above_zero() {
        // Mettle −2 needs 3 points: Edge 2 → 2 days, Edge 1 → 3, Edge 3 → 1.
        assert_eq!(recovery_days(-2, 2), Some(2));
        assert_eq!(recovery_days(-2, 1), Some(3));
        assert_eq!(recovery_days(-2, 3), Some(1));
        assert_eq!(recovery_days(0, 1), Some(1));
        assert_eq!(recovery_days(-2, 0), None);
        assert_eq!(recovery_days(4, 0), Some(0));
    }

    #[test]
    fn every_mettle_status_has_a_rule() {
        for s in crate::rules::mettle::STATUSES {
            assert!(status_rule(s).is_some(), "{s}");
        }
        assert_eq!(status_rule("Surprised").map(|r| r.0), Some(false));
        assert_eq!(status_rule("Afflicted").map(|r| r.0), Some(true));
    }
}
