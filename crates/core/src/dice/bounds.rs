//! Exact bounds of a Roll: the smallest and largest results it can give,
//! from the expression itself rather than from its distribution (whose far
//! tails underflow, or are cut for exploding dice). An exploding die's
//! largest value is the one the roller can reach: it stops after
//! [`MAX_EXPLOSIONS`] explosions. A count's bounds assume a die can show
//! any value between its smallest and largest.

use super::ast::{Dice, ExplodeStyle, Group, Quality, Roll, Term, TermKind, ThrowRule};
use super::limits::MAX_EXPLOSIONS;
use super::mods::{Mods, Tally};

/// Smallest and largest value of one die after its throw rules and
/// explosion.
pub(crate) fn die_bounds(d: &Dice) -> (i64, i64) {
    let rule = d.throw_rule();
    let (lo, hi) = rule.range();
    let Some(e) = d.mods.explode else {
        return (lo, hi);
    };
    // Throw values that trigger, and those that end the chain.
    let trig: Vec<i64> = trigger_values(&rule, lo, hi, |v| ThrowRule::explodes(e, v, hi));
    let (Some(&t_lo), Some(&t_hi)) = (trig.first(), trig.last()) else {
        return (lo, hi);
    };
    let ends: Vec<i64> = trigger_values(&rule, lo, hi, |v| !ThrowRule::explodes(e, v, hi));
    let pen = i64::from(e.style == ExplodeStyle::Core);
    let (c_lo, c_hi) = (t_lo - pen, t_hi - pen);
    let cap = i64::from(MAX_EXPLOSIONS);
    let mut best = (i64::MAX, i64::MIN);
    let mut take = |v_lo: i64, v_hi: i64| {
        best = (best.0.min(v_lo), best.1.max(v_hi));
    };
    if let (Some(&e_lo), Some(&e_hi)) = (ends.first(), ends.last()) {
        // k explosions then an ending throw, k in 0..cap (linear in k).
        for k in [0, cap - 1] {
            take(k * c_lo + e_lo, k * c_hi + e_hi);
        }
    }
    // The cap: `cap` explosions, then any throw ends the chain.
    take(cap * c_lo + lo, cap * c_hi + hi);
    best
}

/// The values in `lo..=hi` a throw can show that satisfy `keep`: at most
/// the two ends matter, so only the first and last are returned when the
/// span is large.
fn trigger_values(rule: &ThrowRule, lo: i64, hi: i64, keep: impl Fn(i64) -> bool) -> Vec<i64> {
    let (min, p) = rule.chances();
    let shows = |v: i64| p.get((v - min) as usize).is_some_and(|&q| q > 0.0);
    let first = (lo..=hi).find(|&v| shows(v) && keep(v));
    let last = (lo..=hi).rev().find(|&v| shows(v) && keep(v));
    first.into_iter().chain(last).collect()
}

/// Bounds of `n` units each in `lo..=hi` (dice or identical items) after
/// the keep and count rules, times the multiplier.
fn pool_bounds(n: u32, (lo, hi): (i64, i64), mods: &Mods) -> (i64, i64) {
    let (lo, hi) = match mods.tally {
        Some(t) => tally_bounds(t, lo, hi),
        None => (lo, hi),
    };
    let kept = mods.keep.map_or(n, |k| k.kept_of(n).0);
    let k = i64::from(kept);
    scale((k * lo, k * hi), mods.times)
}

fn scale((lo, hi): (i64, i64), times: u32) -> (i64, i64) {
    let t = i64::from(times.max(1));
    (lo * t, hi * t)
}

/// Bounds of a signed sum of terms (no floor).
pub fn sum_bounds(terms: &[Term]) -> (i64, i64) {
    let (mut lo, mut hi) = (0i64, 0i64);
    for term in terms {
        let (a, b) = term_bounds(&term.kind);
        if term.negative {
            lo -= b;
            hi -= a;
        } else {
            lo += a;
            hi += b;
        }
    }
    (lo, hi)
}

fn group_bounds(g: &Group) -> (i64, i64) {
    let items: Vec<(i64, i64)> = g.items.iter().map(|i| sum_bounds(i)).collect();
    let n = items.len() as u32;
    if let Some(t) = g.mods.tally {
        let per: Vec<(i64, i64)> = items.iter().map(|&(a, b)| tally_bounds(t, a, b)).collect();
        // Items are kept by value, not by what they count: any `k` of them
        // may be the kept ones (found by fuzzing: `{16,1}dl1<2` counts 0).
        let keep = g.mods.keep.map(|k| k.kept_of(n));
        let lo = kept_sum(&per, keep.map(|(k, _)| (k, false)), 1).0;
        let hi = kept_sum(&per, keep.map(|(k, _)| (k, true)), 1).1;
        return scale((lo, hi), g.mods.times);
    }
    kept_sum(&items, g.mods.keep.map(|k| k.kept_of(n)), g.mods.times)
}

/// What one die (or item) in `lo..=hi` can count under `t`: only the ends
/// and the values next to the comparisons' numbers are tried (between them
/// the count does not change).
fn tally_bounds(t: Tally, lo: i64, hi: i64) -> (i64, i64) {
    let mut probes = vec![lo, hi];
    for c in [Some(t.success), t.failure].into_iter().flatten() {
        let n = match c {
            super::mods::Compare::Eq(n)
            | super::mods::Compare::Gt(n)
            | super::mods::Compare::Ge(n)
            | super::mods::Compare::Lt(n)
            | super::mods::Compare::Le(n) => n,
        };
        probes.extend([n - 1, n, n + 1]);
    }
    let scores: Vec<i64> = probes
        .into_iter()
        .filter(|v| (lo..=hi).contains(v))
        .map(|v| t.score(v))
        .collect();
    (
        *scores.iter().min().expect("lo is probed"),
        *scores.iter().max().expect("lo is probed"),
    )
}

/// Bounds of the sum of the kept units (`keep`: how many, and whether the
/// highest) of units with the given bounds.
fn kept_sum(units: &[(i64, i64)], keep: Option<(u32, bool)>, times: u32) -> (i64, i64) {
    let mut lows: Vec<i64> = units.iter().map(|u| u.0).collect();
    let mut highs: Vec<i64> = units.iter().map(|u| u.1).collect();
    lows.sort_unstable();
    highs.sort_unstable();
    let (lo, hi) = match keep {
        None => (lows.iter().sum(), highs.iter().sum()),
        Some((k, true)) => (
            lows.iter().rev().take(k as usize).sum(),
            highs.iter().rev().take(k as usize).sum(),
        ),
        Some((k, false)) => (
            lows.iter().take(k as usize).sum(),
            highs.iter().take(k as usize).sum(),
        ),
    };
    scale((lo, hi), times)
}

/// Smallest and largest value of one term, before its sign.
pub(crate) fn term_bounds(kind: &TermKind) -> (i64, i64) {
    match kind {
        TermKind::Const(v) => (*v as i64, *v as i64),
        TermKind::D66 => (11, 66),
        TermKind::Dice(d) => pool_bounds(d.count, die_bounds(d), &d.mods),
        TermKind::Group(g) => group_bounds(g),
    }
}

/// Smallest and largest result of a Roll: the signed terms added, floored
/// at zero (unless the Roll is meant to go below it), then halved or
/// doubled; enhanced and impaired keep the range.
pub fn roll_bounds(r: &Roll) -> (i64, i64) {
    if r.quality() == Quality::Ineffective {
        return (0, 0);
    }
    let (lo, hi) = sum_bounds(&r.terms);
    let floor = r.floors();
    let finish = |v: i64| r.scale.apply_signed(if floor { v.max(0) } else { v });
    (finish(lo), finish(hi))
}
