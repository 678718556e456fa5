//! METTLE Checks as generators make them: the exact chance that a pool's
//! Score beats a Difficulty (with or without a Twist), and one seeded roll
//! of it. Shared by journeys (Travel Checks) and foraging (tracking and
//! hunting Checks in METTLE terms).

use super::GenError;
use crate::dice::ast::{Expr, Pool};
use crate::dice::odds::OddsDetail;
use crate::dice::roll::{Outcome, PoolOutcome};
use crate::dice::{self};
use crate::seed::Stream;

fn expr(pool: u32, difficulty: u32, twist: bool) -> Expr {
    Expr::Pool(Pool {
        dice: pool,
        extra: 0,
        bonus: 0,
        difficulty: Some(difficulty),
        raises: 0,
        twist,
        team: Vec::new(),
    })
}

/// Exact chance that `pool` D beats `difficulty` (taking a Twist on a
/// failure with Edge when `twist`).
pub fn chance(pool: u32, difficulty: u32, twist: bool) -> Result<f64, GenError> {
    match dice::odds(&expr(pool, difficulty, twist))
        .map_err(|e| GenError::Request(e.to_string()))?
        .detail
    {
        OddsDetail::Check(c) => Ok(c.success),
        _ => Err(GenError::Request(format!(
            "{pool}D vs {difficulty} is not a Check"
        ))),
    }
}

/// One Check, rolled on `s`.
pub fn roll(pool: u32, difficulty: u32, twist: bool, s: &mut Stream) -> PoolOutcome {
    match dice::roll(&expr(pool, difficulty, twist), s).outcome {
        Outcome::Pool(o) => o,
        _ => unreachable!("a pool expression rolls a pool"),
    }
}

/// `3D vs 3: dice [1, 4, 2], Score 3 → fails` as a log reads it.
pub fn describe(pool: u32, difficulty: u32, o: &PoolOutcome) -> String {
    format!(
        "{pool}D vs {difficulty}: dice {:?}, Score {}",
        o.dice, o.first.score
    )
}

/// A chance as a percentage a person can read: `69.68%`, `0.0046%`,
/// `3.5e-13` (the one format every output uses; `wording::lines::percent`
/// is this).
pub fn percent(p: f64) -> String {
    if p <= 0.0 {
        "0%".to_owned()
    } else if (0.999_999_5..1.0).contains(&p) {
        ">99.9999%".to_owned()
    } else if p >= 0.0001 {
        format!("{:.2}%", p * 100.0)
    } else if p >= 1e-8 {
        format!("{:.6}%", p * 100.0)
    } else {
        format!("{p:.1e}")
    }
}
