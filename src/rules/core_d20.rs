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
pub fn explode_value(chain: &[u32], sides: u32) -> u64 {
    let (last, maxes) = chain.split_last().expect("a chain has at least one roll");
    debug_assert!(maxes.iter().all(|&r| r == sides));
    maxes.len() as u64 * u64::from(sides - 1) + u64::from(*last)
}

/// Whether a d20 roll passes a save against `ability`.
pub fn save_passes(roll: u32, ability: u32) -> bool {
    roll <= ability
}

/// A contestant's total: ability − d20.
pub fn contest_total(ability: u32, roll: u32) -> i64 {
    i64::from(ability) - i64::from(roll)
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
}
