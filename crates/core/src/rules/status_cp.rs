//! The status/control chapter: degree of success → character points (CP) →
//! dice value, combining status effects, and control potential.
//!
//! The degree of success is the CP. Between two rows the lower row's dice
//! value applies (6 → 1d6+1, because 1d6+2 needs 7). The chapter's table
//! ends at 25 CP (1d6+6); higher degrees read that last row, and the result
//! says so.

use serde::Serialize;

/// A dice value `Nd6+K`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct DiceValue {
    /// Number of d6.
    pub dice: u32,
    /// Flat bonus added to the dice.
    pub bonus: u32,
}

impl DiceValue {
    /// Different sources of the same status add their dice values.
    pub(crate) fn combine(self, other: DiceValue) -> DiceValue {
        DiceValue {
            dice: self.dice + other.dice,
            bonus: self.bonus + other.bonus,
        }
    }
}

impl std::fmt::Display for DiceValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}d6+{}", self.dice, self.bonus)
    }
}

/// The CP table: (least CP, dice value).
pub const CP_TABLE: [(u32, DiceValue); 10] = [
    (1, DiceValue { dice: 0, bonus: 1 }),
    (2, DiceValue { dice: 0, bonus: 2 }),
    (3, DiceValue { dice: 0, bonus: 3 }),
    (4, DiceValue { dice: 1, bonus: 0 }),
    (5, DiceValue { dice: 1, bonus: 1 }),
    (7, DiceValue { dice: 1, bonus: 2 }),
    (10, DiceValue { dice: 1, bonus: 3 }),
    (14, DiceValue { dice: 1, bonus: 4 }),
    (19, DiceValue { dice: 1, bonus: 5 }),
    (25, DiceValue { dice: 1, bonus: 6 }),
];

/// The highest CP the table lists.
pub const CP_TABLE_TOP: u32 = 25;

/// Dice value for a CP total (≥ 1); `None` for 0 (no effect).
pub fn dice_value(cp: u32) -> Option<DiceValue> {
    CP_TABLE
        .iter()
        .rev()
        .find(|(least, _)| *least <= cp)
        .map(|(_, v)| *v)
}

/// Control potential from a degree of success: 1, plus 1 for every further
/// 4 points (degree 5 → 2, degree 15 → 4). `None` for a failure (0).
pub fn control_potential(degree: u32) -> Option<u32> {
    (degree >= 1).then(|| 1 + (degree - 1) / 4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chapter_examples() {
        // Degree 6 → 1d6+1 (7 is needed for 1d6+2).
        assert_eq!(dice_value(6), Some(DiceValue { dice: 1, bonus: 1 }));
        // Arcane Silence: degree 18 → 1d6+4.
        assert_eq!(dice_value(18), Some(DiceValue { dice: 1, bonus: 4 }));
        // Same source: 4 CP + 5 CP = 9 CP → 1d6+2.
        assert_eq!(dice_value(4 + 5), Some(DiceValue { dice: 1, bonus: 2 }));
        // Different sources: 1d6+0 and 1d6+1 → 2d6+1.
        let combined = dice_value(4).unwrap().combine(dice_value(5).unwrap());
        assert_eq!(combined, DiceValue { dice: 2, bonus: 1 });
        assert_eq!(control_potential(5), Some(2));
        assert_eq!(control_potential(15), Some(4));
        assert_eq!(control_potential(1), Some(1));
        assert_eq!(control_potential(4), Some(1));
        assert_eq!(control_potential(0), None);
    }

    #[test]
    fn every_row_and_the_edges() {
        assert_eq!(dice_value(0), None);
        for (least, value) in CP_TABLE {
            assert_eq!(dice_value(least), Some(value));
        }
        assert_eq!(dice_value(24), Some(DiceValue { dice: 1, bonus: 5 }));
        assert_eq!(dice_value(1000), Some(DiceValue { dice: 1, bonus: 6 }));
    }
}
