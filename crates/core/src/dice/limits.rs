//! Abuse limits for the notation: big enough for any table at any game,
//! small enough that no expression can hang the tool or exhaust memory.

/// Dice thrown by one Roll, before explosions.
pub const MAX_DICE: u64 = 10_000;
/// Sides on one die.
pub const MAX_SIDES: u64 = 1_000_000;
/// Dice in one METTLE pool (after modifiers).
pub const MAX_POOL: u64 = 1_000;
/// A flat bonus or penalty, or a pool's damage bonus.
pub const MAX_BONUS: u64 = 1_000_000;
/// A Check's Difficulty.
pub const MAX_DIFFICULTY: u64 = 10_000;
/// Checks in one `check` grid (a range of pools by a range of
/// Difficulties).
pub const MAX_GRID_CELLS: u64 = 10_000;
/// A save target, ability score or degree of success.
pub(crate) const MAX_TARGET: u64 = 1_000_000;
/// Terms in one Roll.
pub(crate) const MAX_TERMS: usize = 100;
/// Contestants in one contest, teammates in one Check.
pub const MAX_CONTESTANTS: usize = 12;
/// A halving divisor or doubling multiplier.
pub(crate) const MAX_SCALE: u64 = 1_000;
/// `enhanced`/`impaired` words on one Roll.
pub(crate) const MAX_QUALITY_WORDS: u32 = 8;
/// Explosions of one die before the chain is cut. A d2 reaches this depth
/// with chance 2^-100: it never happens, but nothing can loop forever.
pub const MAX_EXPLOSIONS: u32 = 100;
/// Rerolls of one throw (`r`, `rr`) before the roller draws straight
/// from the faces that end the reroll (the same chances, in one draw).
pub const MAX_REROLLS: u32 = 100;
/// Bytes in one expression.
pub const MAX_EXPR_BYTES: usize = 1_000;
/// Tail mass left out of the exact distribution of one exploding die.
pub const EXPLODE_TAIL: f64 = 1e-12;
/// Points in an exact distribution's support.
pub const MAX_SUPPORT: usize = 4_000_000;
/// Inner-loop steps one exact computation may take (a fraction of a
/// second; found by fuzzing: more let `6d6116kh1` run for seconds).
pub const MAX_WORK: u64 = 200_000_000;

/// The limits in one line, for error hints.
pub const HINT: &str =
    "the limits are 10,000 dice per Roll, 1,000,000 sides per die and 1,000 dice per pool";
