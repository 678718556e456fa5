//! Exact bounds of a Roll: the smallest and largest results it can give,
//! from the expression itself rather than from its distribution (whose far
//! tails underflow, or are cut for exploding dice). An exploding die's
//! largest value is the one the roller can reach: it stops after
//! [`MAX_EXPLOSIONS`] explosions.

use super::ast::{Keep, Quality, Roll, TermKind};
use super::limits::MAX_EXPLOSIONS;

/// Smallest and largest value of one term, before its sign.
pub fn term_bounds(kind: &TermKind) -> (i64, i64) {
    match kind {
        TermKind::Const(v) => (*v as i64, *v as i64),
        TermKind::D66 => (11, 66),
        TermKind::Dice {
            count,
            sides,
            explode,
            keep,
        } => {
            let hi_one = if *explode {
                i64::from(MAX_EXPLOSIONS) * i64::from(sides - 1) + i64::from(*sides)
            } else {
                i64::from(*sides)
            };
            let n = match keep {
                Some(Keep::Highest(k) | Keep::Lowest(k)) => *k,
                None => *count,
            };
            (i64::from(n), i64::from(n) * hi_one)
        }
    }
}

/// Smallest and largest result of a Roll: the signed terms added, floored
/// at zero, then halved or doubled; enhanced and impaired keep the range.
pub fn roll_bounds(r: &Roll) -> (i64, i64) {
    if r.quality() == Quality::Ineffective {
        return (0, 0);
    }
    let (mut lo, mut hi) = (0i64, 0i64);
    for term in &r.terms {
        let (a, b) = term_bounds(&term.kind);
        if term.negative {
            lo -= b;
            hi -= a;
        } else {
            lo += a;
            hi += b;
        }
    }
    let scale = |v: i64| r.scale.apply(v.max(0) as u64) as i64;
    (scale(lo), scale(hi))
}
