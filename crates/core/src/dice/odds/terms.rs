//! Exact distributions of a Roll's terms: one die through its throw rules
//! and explosion, dice kept or counted, groups, multipliers, and signed sums
//! of terms. Work is estimated before it is done (see [`estimate`]), so an
//! expression past the limits is refused at once.

use crate::dice::ast::{Dice, ExplodeStyle, Faces, Group, Keep, Mods, Term, TermKind, ThrowRule};
use crate::dice::dist::{Dist, TooLarge, check_support, check_work};
use crate::dice::limits::{EXPLODE_TAIL, MAX_EXPLOSIONS};
use crate::dice::mods::{CORE_EXPLOSION, Tally};

/// The distribution of signed terms added up (no floor).
pub(crate) fn sum_dist(terms: &[Term]) -> Result<Dist, TooLarge> {
    estimate(terms)?;
    let mut sum = Dist::point(0);
    for term in terms {
        // A plain die added one at a time: a sliding window, O(length).
        if let TermKind::Dice(d) = &term.kind
            && !term.negative
            && d.mods == Mods::none()
            && let Faces::Sides(s) = d.faces
        {
            for _ in 0..d.count {
                sum = sum.add_die(s)?;
            }
            continue;
        }
        let d = term_dist(&term.kind)?;
        let d = if term.negative { d.negate() } else { d };
        sum = sum.add(&d)?;
    }
    Ok(sum)
}

/// Refuse, before any work, signed terms whose exact sum would take past
/// [`MAX_WORK`](crate::dice::limits::MAX_WORK) steps or [`MAX_SUPPORT`](crate::dice::limits::MAX_SUPPORT)
/// values: each term's own cost and the cost of adding it to the sum so far.
pub fn estimate(terms: &[Term]) -> Result<(), TooLarge> {
    let (len, work) = cost(terms);
    check_support(len, "a sum")?;
    check_work(work, "this Roll")
}

/// Rough (support length, steps) of the exact sum of signed terms.
pub fn cost(terms: &[Term]) -> (u64, u64) {
    let mut len: u64 = 1;
    let mut work: u64 = 0;
    for term in terms {
        let (t_len, t_work) = term_cost(&term.kind);
        let plain = matches!(&term.kind, TermKind::Dice(d) if d.mods == Mods::none());
        let add = if plain && !term.negative {
            len.saturating_add(t_len).saturating_mul(2)
        } else {
            len.saturating_mul(t_len)
        };
        work = work.saturating_add(t_work).saturating_add(add);
        len = len.saturating_add(t_len);
    }
    (len, work)
}

/// Rough (support length, steps) of one term's exact distribution.
fn term_cost(kind: &TermKind) -> (u64, u64) {
    match kind {
        TermKind::Const(_) => (1, 1),
        TermKind::D66 => (56, 56),
        TermKind::Dice(d) => dice_cost(d),
        TermKind::Group(g) => {
            let mut len = 0u64;
            let mut work = 0u64;
            for item in &g.items {
                let (l, w) = item.iter().fold((1u64, 0u64), |(l, w), t| {
                    let (tl, tw) = term_cost(&t.kind);
                    (
                        l.saturating_add(tl),
                        w.saturating_add(tw).saturating_add(l.saturating_mul(tl)),
                    )
                });
                len = len.saturating_add(l);
                work = work.saturating_add(w).saturating_add(len.saturating_mul(l));
            }
            let n = g.items.len() as u32;
            let alike = g.items.iter().all(|i| *i == g.items[0]);
            if let Some(k) = g.mods.keep.filter(|k| !alike && k.kept_of(n).0 > 1) {
                let kept = u64::from(k.kept_of(n).0);
                work = work.saturating_add(unlike_keep_cost(u64::from(n), kept, len));
            }
            (len.saturating_mul(u64::from(g.mods.times)), work)
        }
    }
}

fn dice_cost(d: &Dice) -> (u64, u64) {
    let n = u64::from(d.count);
    let (one_len, one_work) = die_cost(d);
    let (len, work) = match (d.mods.keep, d.mods.tally) {
        (Some(k), tally) => {
            let kept = u64::from(k.kept_of(d.count).0);
            let span = if tally.is_some() { 3 } else { one_len };
            let sum_len = kept.saturating_mul(span);
            (
                sum_len,
                one_len.saturating_mul(n * n).saturating_mul(sum_len) / 2,
            )
        }
        (None, Some(_)) => (2 * n + 1, (2 * n + 1).pow(2)),
        (None, None) if d.mods.explode.is_some() || d.mods != Mods::none() => {
            let len = n.saturating_mul(one_len);
            (len, (len / 2).saturating_pow(2))
        }
        (None, None) => {
            let len = n.saturating_mul(one_len);
            (len, n.saturating_mul(len))
        }
    };
    (
        len.saturating_mul(u64::from(d.mods.times)),
        work.saturating_add(one_work),
    )
}

/// (support length, steps) of one die after its explosion: levels of the
/// chain kept (until the chance left is below the cut, at most the cap),
/// each a convolution with the throw.
fn die_cost(d: &Dice) -> (u64, u64) {
    let rule = d.throw_rule();
    let (lo, hi) = rule.range();
    let span = (hi - lo + 1) as u64;
    let Some(e) = d.mods.explode else {
        return (span, span);
    };
    let (min, p) = rule.chances();
    let q: f64 = (lo..=hi)
        .filter(|&v| ThrowRule::explodes(e, v, hi))
        .map(|v| p[(v - min) as usize])
        .sum();
    let levels = if q <= 0.0 {
        1
    } else if q >= 1.0 {
        u64::from(MAX_EXPLOSIONS)
    } else {
        ((EXPLODE_TAIL.ln() / q.ln()).ceil() as u64).clamp(1, u64::from(MAX_EXPLOSIONS))
    };
    let len = levels.saturating_mul(span);
    let single = (lo..=hi).filter(|&v| ThrowRule::explodes(e, v, hi)).count() == 1;
    let work = if single {
        levels.saturating_mul(len)
    } else {
        levels.saturating_mul(len).saturating_mul(span)
    };
    (len, work)
}

/// The exact distribution of one term, before its sign.
pub(crate) fn term_dist(kind: &TermKind) -> Result<Dist, TooLarge> {
    match kind {
        TermKind::Const(v) => Ok(Dist::point(*v as i64)),
        TermKind::D66 => {
            let mut p = vec![0.0; 56];
            for tens in 1..=6 {
                for units in 1..=6 {
                    p[tens * 10 + units - 11] = 1.0 / 36.0;
                }
            }
            Ok(Dist {
                min: 11,
                p,
                tail: 0.0,
            })
        }
        TermKind::Dice(d) => times(dice_dist(d)?, d.mods.times),
        TermKind::Group(g) => times(group_dist(g)?, g.mods.times),
    }
}

/// A term's value multiplied (`2*1d8`).
fn times(d: Dist, t: u32) -> Result<Dist, TooLarge> {
    if t == 1 {
        return Ok(d);
    }
    let t = i64::from(t);
    d.map_monotone(|v| v * t)
}

/// One die's value: the throw's chances, then the explosion.
pub(crate) fn die_dist(d: &Dice) -> Result<Dist, TooLarge> {
    let rule = d.throw_rule();
    let classic = rule.reroll.is_none() && rule.min.is_none() && rule.max.is_none();
    match (d.faces, d.mods.explode) {
        (Faces::Sides(s), Some(e)) if classic && e == CORE_EXPLOSION => Dist::exploding_die(s),
        (Faces::Sides(s), None) if classic => Ok(Dist::die(s)),
        (_, explode) => {
            let (min, p) = rule.chances();
            let throw = Dist { min, p, tail: 0.0 };
            match explode {
                None => Ok(throw),
                Some(e) => explode_dist(&throw, &rule, e.style, |v, top| {
                    ThrowRule::explodes(e, v, top)
                }),
            }
        }
    }
}

/// The chain of throws of an exploding die: `k` explosions (each throw
/// that triggers adds its face, one less in the Core style) then a throw
/// that does not trigger, for every `k` until the chance left is below
/// [`EXPLODE_TAIL`]; at the roller's cap of [`MAX_EXPLOSIONS`] the last
/// throw ends the chain whatever it shows.
fn explode_dist(
    throw: &Dist,
    rule: &ThrowRule,
    style: ExplodeStyle,
    triggers: impl Fn(i64, i64) -> bool,
) -> Result<Dist, TooLarge> {
    let top = rule.range().1;
    let pen = i64::from(style == ExplodeStyle::Core);
    let split = |keep_trigger: bool| {
        let p: Vec<f64> = throw
            .p
            .iter()
            .enumerate()
            .map(|(i, &q)| {
                if triggers(throw.min + i as i64, top) == keep_trigger {
                    q
                } else {
                    0.0
                }
            })
            .collect();
        Dist {
            min: throw.min,
            p,
            tail: 0.0,
        }
    };
    let mut step = split(true);
    step.min -= pen;
    let ends = split(false);
    let q = step.mass();
    let mut acc = Dist::point(0);
    let mut out: Option<Dist> = None;
    for level in 0..MAX_EXPLOSIONS {
        out = Some(accumulate(out, &acc.add(&ends)?));
        let left = q.powi(level as i32 + 1);
        if left <= EXPLODE_TAIL {
            let mut d = out.expect("one level added");
            d.tail = left;
            return Ok(d);
        }
        acc = acc.add(&step)?;
    }
    let d = accumulate(out, &acc.add(throw)?);
    Ok(d)
}

/// `a + b` as measures (pointwise), over the union of their ranges.
fn accumulate(a: Option<Dist>, b: &Dist) -> Dist {
    let Some(a) = a else { return b.clone() };
    let min = a.min.min(b.min);
    let max = a.max().max(b.max());
    let mut p = vec![0.0; (max - min + 1) as usize];
    for d in [&a, b] {
        for (i, &q) in d.p.iter().enumerate() {
            p[(d.min - min) as usize + i] += q;
        }
    }
    Dist { min, p, tail: 0.0 }
}

/// What one unit with value distribution `d` counts under `t`: −1, 0 or 1
/// (the cut tail, above every listed value, counts as an open-above
/// comparison says).
fn tally_dist(d: &Dist, t: Tally) -> Dist {
    let mut p = [0.0f64; 3];
    for (i, &q) in d.p.iter().enumerate() {
        p[(t.score(d.min + i as i64) + 1) as usize] += q;
    }
    let tail_score = if t.success.open_above() {
        1
    } else if t.failure.is_some_and(|f| f.open_above()) {
        -1
    } else {
        0
    };
    p[(tail_score + 1) as usize] += d.tail;
    Dist {
        min: -1,
        p: p.to_vec(),
        tail: 0.0,
    }
}

/// `n` dice of one distribution, kept and counted as the modifiers say.
fn pool_dist(
    one: &Dist,
    n: u32,
    keep: Option<Keep>,
    tally: Option<Tally>,
) -> Result<Dist, TooLarge> {
    match (keep, tally) {
        (None, None) => one.repeat(n),
        (None, Some(t)) => tally_dist(one, t).repeat(n),
        (Some(k), None) => {
            let (kept, high) = k.kept_of(n);
            one.keep(n, kept, high)
        }
        (Some(k), Some(t)) => {
            let (kept, high) = k.kept_of(n);
            let scores: Vec<i64> = (0..one.p.len() as i64)
                .map(|i| t.score(one.min + i))
                .collect();
            one.keep_scored(n, kept, high, &scores)
        }
    }
}

fn dice_dist(d: &Dice) -> Result<Dist, TooLarge> {
    if d.mods.keep.is_none()
        && d.mods.tally.is_none()
        && d.mods.explode.is_none()
        && d.mods.reroll.is_none()
        && d.mods.min.is_none()
        && d.mods.max.is_none()
        && let Faces::Sides(s) = d.faces
    {
        return Dist::dice(d.count, s);
    }
    let one = die_dist(d)?;
    pool_dist(&one, d.count, d.mods.keep, d.mods.tally)
}

fn group_dist(g: &Group) -> Result<Dist, TooLarge> {
    let items: Vec<Dist> = g
        .items
        .iter()
        .map(|i| sum_dist(i))
        .collect::<Result<_, _>>()?;
    let n = items.len() as u32;
    let alike = g.items.iter().all(|i| *i == g.items[0]);
    if alike {
        return pool_dist(&items[0], n, g.mods.keep, g.mods.tally);
    }
    let units: Vec<Dist> = match g.mods.tally {
        Some(t) if g.mods.keep.is_none() => items.iter().map(|d| tally_dist(d, t)).collect(),
        _ => items,
    };
    match g.mods.keep {
        None => units.iter().try_fold(Dist::point(0), |acc, d| acc.add(d)),
        Some(k) if g.mods.tally.is_none() && k.kept_of(n).0 == 1 => {
            Ok(extreme_of(&units, k.kept_of(n).1))
        }
        Some(k) => {
            let (kept, high) = k.kept_of(n);
            let score = |v: i64| g.mods.tally.map_or(v, |t| t.score(v));
            keep_unlike(&units, kept as usize, high, &score)
        }
    }
}

/// Items that differ, `kept` of them kept by value (the highest when
/// `high`), each kept item adding `score(value)`. A walk over the items
/// carries every sorted multiset of values that could still be kept, with
/// its chance; [`unlike_keep_cost`] prices it before any work. An item's
/// cut tail (an exploding die's last ~10⁻¹² of mass) goes to the result's
/// tail.
fn keep_unlike(
    units: &[Dist],
    kept: usize,
    high: bool,
    score: &dyn Fn(i64) -> i64,
) -> Result<Dist, TooLarge> {
    use std::collections::BTreeMap;
    let mut states: BTreeMap<Vec<i64>, f64> = BTreeMap::from([(Vec::new(), 1.0)]);
    let mut tail = 0.0;
    for unit in units {
        let mut next: BTreeMap<Vec<i64>, f64> = BTreeMap::new();
        for (values, chance) in &states {
            tail += chance * unit.tail;
            for (i, &q) in unit.p.iter().enumerate().filter(|(_, q)| **q > 0.0) {
                let mut more = values.clone();
                let v = unit.min + i as i64;
                more.insert(more.partition_point(|&x| x < v), v);
                if more.len() > kept {
                    // Sorted ascending: the lowest goes when keeping the highest.
                    if high {
                        more.remove(0)
                    } else {
                        more.pop().expect("not empty")
                    };
                }
                *next.entry(more).or_insert(0.0) += chance * q;
            }
        }
        states = next;
    }
    let mut sums: BTreeMap<i64, f64> = BTreeMap::new();
    for (values, chance) in states {
        *sums
            .entry(values.iter().map(|&v| score(v)).sum())
            .or_insert(0.0) += chance;
    }
    let min = *sums.keys().next().expect("a group has items");
    let max = *sums.keys().next_back().expect("a group has items");
    let mut p = vec![0.0; (max - min + 1) as usize];
    for (v, chance) in sums {
        p[(v - min) as usize] = chance;
    }
    Ok(Dist { min, p, tail })
}

/// Steps [`keep_unlike`] may take: items × possible kept multisets ×
/// values, where `span` bounds the values one item takes (saturating).
fn unlike_keep_cost(items: u64, kept: u64, span: u64) -> u64 {
    // Multisets of at most `kept` values out of `span`: C(span + kept, kept).
    let mut multisets: u64 = 1;
    for i in 1..=kept {
        multisets = multisets.saturating_mul(span.saturating_add(i)) / i;
    }
    items.saturating_mul(multisets).saturating_mul(span)
}

/// The highest (or lowest) of independent values, from the product of
/// their distribution functions.
fn extreme_of(units: &[Dist], highest: bool) -> Dist {
    let min = units
        .iter()
        .map(|d| d.min)
        .min()
        .expect("a group has items");
    let max = units
        .iter()
        .map(Dist::max)
        .max()
        .expect("a group has items");
    let len = (max - min + 1) as usize;
    // P(X ≤ v) for each unit at each v, as running sums (the tail lies
    // above every value).
    let cdfs: Vec<Vec<f64>> = units
        .iter()
        .map(|d| {
            let mut acc = 0.0;
            (0..len as i64)
                .map(|i| {
                    acc += d.chance(min + i);
                    acc
                })
                .collect()
        })
        .collect();
    let mut at_most = vec![0.0f64; len + 1];
    for (i, slot) in at_most.iter_mut().enumerate().skip(1) {
        *slot = if highest {
            cdfs.iter().map(|c| c[i - 1]).product()
        } else {
            1.0 - cdfs.iter().map(|c| 1.0 - c[i - 1]).product::<f64>()
        };
    }
    let p: Vec<f64> = (0..len)
        .map(|i| (at_most[i + 1] - at_most[i]).max(0.0))
        .collect();
    let listed: f64 = p.iter().sum();
    Dist {
        min,
        p,
        tail: (1.0 - listed).max(0.0),
    }
}
