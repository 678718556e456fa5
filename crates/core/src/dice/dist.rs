//! Exact probability distributions over integers, and the operations the
//! notation needs: convolution (sums), negation, the floor at zero, halving
//! and doubling, keep-highest/lowest, and the max/min of two rolls.
//!
//! Probabilities are `f64` computed analytically, never by sampling. A
//! distribution with an infinite support (exploding dice) is cut where the
//! mass left out falls below [`EXPLODE_TAIL`];
//! that mass is kept in [`Dist::tail`] (it lies above the listed values) so
//! the listed chances plus the tail always sum to 1.

use super::limits::{EXPLODE_TAIL, MAX_SUPPORT, MAX_WORK};
use std::fmt;

/// Why an exact distribution was not computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooLarge {
    /// What was too large (or unsupported), in words for the GM.
    pub what: String,
    /// The exact odds of this shape are not computed at all (not a
    /// matter of size); `what` says which and what to write instead.
    pub unsupported: bool,
}

impl TooLarge {
    /// Past the work or support limit: `what` is the work it would take.
    pub fn work(what: String) -> TooLarge {
        TooLarge {
            what,
            unsupported: false,
        }
    }

    /// Exact odds this engine does not compute for this shape.
    pub fn unsupported(what: String) -> TooLarge {
        TooLarge {
            what,
            unsupported: true,
        }
    }
}

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.unsupported {
            return write!(f, "exact odds are not supported for {}", self.what);
        }
        write!(
            f,
            "exact odds would need {}; that is past the limit for exact odds (a support of {} values, a fraction of a second of work)",
            self.what, MAX_SUPPORT
        )
    }
}

impl std::error::Error for TooLarge {}

/// A distribution over the integers `min..min + p.len()`, plus the mass
/// `tail` that lies above them and was cut off.
#[derive(Debug, Clone, PartialEq)]
pub struct Dist {
    /// The lowest value listed.
    pub min: i64,
    /// The chance of each value, from `min` up.
    pub p: Vec<f64>,
    /// The mass cut off above the last listed value (exploding dice).
    pub tail: f64,
}

pub(super) fn check_support(len: u64, what: &str) -> Result<(), TooLarge> {
    if len > MAX_SUPPORT as u64 {
        return Err(TooLarge::work(format!("{len} possible values for {what}")));
    }
    Ok(())
}

pub(super) fn check_work(work: u64, what: &str) -> Result<(), TooLarge> {
    if work > MAX_WORK {
        return Err(TooLarge::work(format!("about {work} steps for {what}")));
    }
    Ok(())
}

impl Dist {
    /// Certainly `v`.
    pub fn point(v: i64) -> Dist {
        Dist {
            min: v,
            p: vec![1.0],
            tail: 0.0,
        }
    }

    /// Uniform on `1..=sides`.
    pub fn die(sides: u32) -> Dist {
        Dist {
            min: 1,
            p: vec![1.0 / f64::from(sides); sides as usize],
            tail: 0.0,
        }
    }

    /// One Core Rules exploding die: a maximum adds `sides − 1` and rolls
    /// again. Values are `k(sides−1) + r` with `r` in `1..sides`, each with
    /// chance `sides^-(k+1)`; levels are listed until the mass left is at
    /// most [`EXPLODE_TAIL`].
    pub(crate) fn exploding_die(sides: u32) -> Result<Dist, TooLarge> {
        debug_assert!(sides >= 2);
        let s = f64::from(sides);
        let mut levels = 1u32;
        let mut tail = 1.0 / s;
        while tail > EXPLODE_TAIL {
            levels += 1;
            tail /= s;
        }
        let len = u64::from(levels) * u64::from(sides - 1);
        check_support(len, &format!("d{sides}!"))?;
        let mut p = Vec::with_capacity(len as usize);
        let mut level_chance = 1.0 / s;
        for _ in 0..levels {
            p.extend(std::iter::repeat_n(level_chance, (sides - 1) as usize));
            level_chance /= s;
        }
        Ok(Dist { min: 1, p, tail })
    }

    /// Largest listed value.
    pub fn max(&self) -> i64 {
        self.min + self.p.len() as i64 - 1
    }

    /// Total listed mass (1 − tail, up to rounding).
    pub fn mass(&self) -> f64 {
        self.p.iter().sum()
    }

    /// Chance of exactly `v`.
    pub fn chance(&self, v: i64) -> f64 {
        if v < self.min {
            return 0.0;
        }
        self.p.get((v - self.min) as usize).copied().unwrap_or(0.0)
    }

    /// Chance of `v` or more (the cut tail counts as more).
    pub fn at_least(&self, v: i64) -> f64 {
        let from = (v - self.min).max(0) as usize;
        self.p.iter().skip(from).sum::<f64>() + self.tail
    }

    /// Mean of the listed values (the tail's contribution, at most
    /// `tail × (its values)`, is left out and reported separately).
    pub fn mean(&self) -> f64 {
        self.p
            .iter()
            .enumerate()
            .map(|(i, &q)| q * (self.min + i as i64) as f64)
            .sum::<f64>()
            / self.mass().max(f64::MIN_POSITIVE)
    }

    /// Standard deviation of the listed values.
    pub fn sd(&self) -> f64 {
        let mean = self.mean();
        let var = self
            .p
            .iter()
            .enumerate()
            .map(|(i, &q)| q * ((self.min + i as i64) as f64 - mean).powi(2))
            .sum::<f64>()
            / self.mass().max(f64::MIN_POSITIVE);
        var.sqrt()
    }

    /// Smallest and largest values with non-zero chance.
    pub fn range(&self) -> (i64, i64) {
        let lo = self.p.iter().position(|&q| q > 0.0).unwrap_or(0);
        let hi = self.p.iter().rposition(|&q| q > 0.0).unwrap_or(0);
        (self.min + lo as i64, self.min + hi as i64)
    }

    /// Drop zero-chance values from both ends (underflowed far tails).
    fn trim(mut self) -> Dist {
        let lo = self.p.iter().position(|&q| q > 0.0).unwrap_or(0);
        let hi = self.p.iter().rposition(|&q| q > 0.0).map_or(1, |h| h + 1);
        if lo > 0 || hi < self.p.len() {
            self.p = self.p[lo..hi.max(lo + 1)].to_vec();
            self.min += lo as i64;
        }
        self
    }

    /// Distribution of the sum of two independent values.
    pub fn add(&self, other: &Dist) -> Result<Dist, TooLarge> {
        let len = (self.p.len() + other.p.len() - 1) as u64;
        check_support(len, "a sum")?;
        check_work(self.p.len() as u64 * other.p.len() as u64, "a sum")?;
        let mut p = vec![0.0; len as usize];
        for (i, &a) in self.p.iter().enumerate() {
            if a == 0.0 {
                continue;
            }
            for (j, &b) in other.p.iter().enumerate() {
                p[i + j] += a * b;
            }
        }
        Ok(Dist {
            min: self.min + other.min,
            p,
            tail: 1.0 - (1.0 - self.tail) * (1.0 - other.tail),
        }
        .trim())
    }

    /// Add one fair die of `sides` faces in O(len + sides), with a sliding
    /// window sum. The window is slid up from the bottom for the values
    /// below the mode and down from the top for those above it, so a window
    /// only ever drops its smallest member: far tails keep their relative
    /// precision (sliding one way only cancelled the top of `40d6` to 0).
    pub(crate) fn add_die(&self, sides: u32) -> Result<Dist, TooLarge> {
        let s = sides as usize;
        let len = self.p.len() + s - 1;
        check_support(len as u64, "a sum")?;
        let up = slide_window(&self.p, s, len);
        let mut reversed = self.p.clone();
        reversed.reverse();
        let mut down = slide_window(&reversed, s, len);
        down.reverse();
        let mode = up
            .iter()
            .enumerate()
            .fold(0, |best, (i, &q)| if q > up[best] { i } else { best });
        let p = up
            .iter()
            .zip(&down)
            .enumerate()
            .map(|(i, (&a, &b))| if i <= mode { a } else { b })
            .collect();
        Ok(Dist {
            min: self.min + 1,
            p,
            tail: self.tail,
        }
        .trim())
    }

    /// Sum of `n` independent copies of `self`.
    pub fn repeat(&self, n: u32) -> Result<Dist, TooLarge> {
        // The last doubling costs about (final length / 2)²: refuse early
        // rather than after seconds of work.
        let final_len = u64::from(n) * (self.p.len() as u64 - 1) + 1;
        check_support(final_len, "a sum")?;
        check_work((final_len / 2).pow(2), "a sum")?;
        let mut result = Dist::point(0);
        let mut base = self.clone();
        let mut k = n;
        while k > 0 {
            if k & 1 == 1 {
                result = result.add(&base)?;
            }
            k >>= 1;
            if k > 0 {
                base = base.add(&base)?;
            }
        }
        Ok(result)
    }

    /// Sum of `n` fair dice.
    pub fn dice(n: u32, sides: u32) -> Result<Dist, TooLarge> {
        let approx_len = u64::from(n) * u64::from(sides);
        check_support(approx_len, &format!("{n}d{sides}"))?;
        check_work(
            u64::from(n) * approx_len.min(MAX_SUPPORT as u64),
            &format!("{n}d{sides}"),
        )?;
        let mut d = Dist::point(0);
        for _ in 0..n {
            d = d.add_die(sides)?;
        }
        Ok(d)
    }

    /// The distribution of −X (a tail, if any, now lies below: only
    /// distributions without a tail can be negated exactly, so the tail is
    /// carried as is and reported).
    pub(crate) fn negate(&self) -> Dist {
        let mut p = self.p.clone();
        p.reverse();
        Dist {
            min: -self.max(),
            p,
            tail: self.tail,
        }
    }

    /// Move every chance below zero onto zero (a penalty never takes a Roll
    /// below 0).
    pub(crate) fn floor_zero(&self) -> Dist {
        if self.min >= 0 {
            return self.clone();
        }
        // Index of the value 0; everything up to it lands on 0.
        let zero = (-self.min) as usize;
        let upto = (zero + 1).min(self.p.len());
        let at_zero: f64 = self.p[..upto].iter().sum();
        let mut p = vec![at_zero];
        p.extend_from_slice(&self.p[upto..]);
        Dist {
            min: 0,
            p,
            tail: self.tail,
        }
        .trim()
    }

    /// Map every value through `f` (non-decreasing), merging equal results.
    pub(crate) fn map_monotone(&self, f: impl Fn(i64) -> i64) -> Result<Dist, TooLarge> {
        let lo = f(self.min);
        let hi = f(self.max());
        check_support((hi - lo + 1) as u64, "a scaled Roll")?;
        let mut p = vec![0.0; (hi - lo + 1) as usize];
        for (i, &q) in self.p.iter().enumerate() {
            p[(f(self.min + i as i64) - lo) as usize] += q;
        }
        Ok(Dist {
            min: lo,
            p,
            tail: self.tail,
        })
    }

    /// The higher of two independent rolls.
    pub(crate) fn max_of_two(&self) -> Dist {
        let mut p = Vec::with_capacity(self.p.len());
        let mut below = 0.0;
        for &q in &self.p {
            let upto = below + q;
            p.push(upto * upto - below * below);
            below = upto;
        }
        Dist {
            min: self.min,
            p,
            tail: 1.0 - below * below,
        }
    }

    /// The lower of two independent rolls.
    pub(crate) fn min_of_two(&self) -> Dist {
        let mut p = vec![0.0; self.p.len()];
        let mut above = self.tail;
        for i in (0..self.p.len()).rev() {
            let from = above + self.p[i];
            p[i] = from * from - above * above;
            above = from;
        }
        Dist {
            min: self.min,
            p,
            tail: self.tail * self.tail,
        }
    }

    /// Sum of the `k` highest (or lowest) of `n` independent copies of
    /// `self`, by dynamic programming over the values in order (highest
    /// first for keep-highest). With `r` dice still to place, each shows the
    /// current value with chance `q / M` (`M`: the mass of this value and
    /// all values still to come), so the number showing it is
    /// Binomial(r, q/M) — every step is a probability distribution and
    /// nothing can overflow. At most `k` of them count toward the sum. The
    /// cut tail (exploding dice) lies above every listed value: for
    /// keep-highest a die in it makes the result unknown (that mass is the
    /// new tail); for keep-lowest it only matters when fewer than `k` listed
    /// dice were placed.
    pub fn keep(&self, n: u32, k: u32, highest: bool) -> Result<Dist, TooLarge> {
        let scores: Vec<i64> = (0..self.p.len() as i64).map(|i| self.min + i).collect();
        self.keep_scored(n, k, highest, &scores)
    }

    /// Like [`keep`](Dist::keep), but each kept die adds `scores[i]` for
    /// the value at index `i` (dice are still chosen by value): a count of
    /// successes among the kept dice.
    pub(crate) fn keep_scored(
        &self,
        n: u32,
        k: u32,
        highest: bool,
        scores: &[i64],
    ) -> Result<Dist, TooLarge> {
        let n_us = n as usize;
        let k_us = k as usize;
        let s_min = scores.iter().copied().min().unwrap_or(0);
        let s_max = scores.iter().copied().max().unwrap_or(0);
        let weights: Vec<usize> = scores.iter().map(|&v| (v - s_min) as usize).collect();
        let span = (s_max - s_min + 1) as u64;
        let sum_len = u64::from(k) * (span - 1) + 1;
        check_support(sum_len, "keeping dice")?;
        check_work(
            (self.p.len() as u64)
                .saturating_mul(u64::from(n) * u64::from(n))
                .saturating_mul(sum_len)
                / 2
                + 1,
            "keeping dice",
        )?;
        let sum_len = sum_len as usize;
        let ln_fact = ln_factorials(n_us);
        let order: Vec<usize> = if highest {
            (0..self.p.len()).rev().collect()
        } else {
            (0..self.p.len()).collect()
        };
        // Mass of each value and everything after it in the order; for
        // keep-highest the tail is set aside first.
        let mut remaining: f64 = self.p.iter().sum::<f64>() + if highest { 0.0 } else { self.tail };
        // state[j][sum]: j dice placed, sum of (value − min) over kept dice.
        let mut state = vec![vec![0.0f64; sum_len]; n_us + 1];
        let tail_mass = if highest && self.tail > 0.0 {
            let listed = 1.0 - self.tail;
            state[0][0] = listed.powi(n as i32);
            remaining = self.p.iter().sum::<f64>();
            1.0 - state[0][0]
        } else {
            state[0][0] = 1.0;
            0.0
        };
        for &vi in &order {
            let q = self.p[vi];
            if q == 0.0 || remaining <= 0.0 {
                continue;
            }
            let share = (q / remaining).min(1.0);
            remaining -= q;
            state = place_value(&state, weights[vi], share, k_us, &ln_fact);
        }
        let mut p = std::mem::take(&mut state[n_us]);
        let mut tail = tail_mass;
        if !highest && self.tail > 0.0 {
            // Dice not placed among the listed values lie in the tail; once
            // k listed dice are placed the sum is known.
            for row in state.iter().take(n_us).skip(k_us) {
                for (slot, &mass) in p.iter_mut().zip(row) {
                    *slot += mass;
                }
            }
            let listed_mass: f64 = p.iter().sum();
            tail = (1.0 - listed_mass).max(0.0);
        }
        Ok(Dist {
            min: i64::from(k) * s_min,
            p,
            tail,
        }
        .trim())
    }
}

/// `p` convolved with a uniform die of `s` faces, by a window of the last
/// `s` chances slid from index 0 up (`len` results).
fn slide_window(p: &[f64], s: usize, len: usize) -> Vec<f64> {
    let inv = 1.0 / s as f64;
    let mut out = vec![0.0; len];
    let mut window = 0.0;
    for (k, slot) in out.iter_mut().enumerate() {
        if k < p.len() {
            window += p[k];
        }
        if k >= s {
            window -= p[k - s];
        }
        *slot = window.max(0.0) * inv;
    }
    out
}

/// `ln k!` for `k` in `0..=n`.
pub(super) fn ln_factorials(n: usize) -> Vec<f64> {
    let mut ln_fact = vec![0.0f64; n + 1];
    for i in 1..=n {
        ln_fact[i] = ln_fact[i - 1] + (i as f64).ln();
    }
    ln_fact
}

/// Binomial(r, p) chances, through the logarithms of factorials
/// (`ln_fact` reaches at least `r`).
fn binomial(ln_fact: &[f64], r: usize, p: f64) -> Vec<f64> {
    if p >= 1.0 {
        let mut v = vec![0.0; r + 1];
        v[r] = 1.0;
        return v;
    }
    if p <= 0.0 {
        let mut v = vec![0.0; r + 1];
        v[0] = 1.0;
        return v;
    }
    let (lp, lq) = (p.ln(), (1.0 - p).ln());
    (0..=r)
        .map(|c| {
            (ln_fact[r] - ln_fact[c] - ln_fact[r - c] + c as f64 * lp + (r - c) as f64 * lq).exp()
        })
        .collect()
}

/// One step of [`Dist::keep_scored`]: of the dice not yet placed, each
/// shows the current value (adding `vi` to the sum when kept) with chance
/// `share`; at most `k` placed dice count toward the sum. `state[j][sum]` is the chance that `j` dice are placed
/// with kept sum `sum` (of value − min).
fn place_value(
    state: &[Vec<f64>],
    vi: usize,
    share: f64,
    k: usize,
    ln_fact: &[f64],
) -> Vec<Vec<f64>> {
    let n = state.len() - 1;
    let sum_len = state[0].len();
    let mut next = vec![vec![0.0f64; sum_len]; n + 1];
    for j in 0..=n {
        if state[j].iter().all(|&m| m == 0.0) {
            continue;
        }
        let dist = binomial(ln_fact, n - j, share);
        for (sum, &mass) in state[j].iter().enumerate() {
            if mass == 0.0 {
                continue;
            }
            for (c, &w) in dist.iter().enumerate() {
                if w == 0.0 {
                    continue;
                }
                let kept_now = c.min(k - j.min(k));
                next[j + c][sum + kept_now * vi] += mass * w;
            }
        }
    }
    next
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn three_d6() {
        let d = Dist::dice(3, 6).unwrap();
        assert_eq!(d.range(), (3, 18));
        assert!(close(d.chance(10), 27.0 / 216.0));
        assert!(close(d.chance(3), 1.0 / 216.0));
        assert!(close(d.mean(), 10.5));
        assert!(close(d.mass(), 1.0));
    }

    #[test]
    fn exploding_d6_staircase() {
        let d = Dist::exploding_die(6).unwrap();
        assert!(close(d.chance(1), 1.0 / 6.0));
        assert!(close(d.chance(5), 1.0 / 6.0));
        // 6 is never a final value on its own: 5 + 1 = 6 is one explosion.
        assert!(close(d.chance(6), 1.0 / 36.0));
        // 13 = 5 + 5 + 3: two explosions.
        assert!(close(d.chance(13), 1.0 / 216.0));
        assert!(d.tail <= EXPLODE_TAIL && d.tail > 0.0);
        assert!((d.mass() + d.tail - 1.0).abs() < 1e-12);
        // Mean of an exploding d6: 3 + 5 × (1/6)/(1 − 1/6) = 4.
        assert!((d.mean() - 4.0).abs() < 1e-9);
    }

    #[test]
    fn floor_and_scale() {
        let d = Dist::dice(2, 6)
            .unwrap()
            .add(&Dist::point(-4))
            .unwrap()
            .floor_zero();
        assert_eq!(d.range(), (0, 8));
        // 2..4 on 2d6 all floor to 0: 6/36.
        assert!(close(d.chance(0), 6.0 / 36.0));
        let half = Dist::die(6)
            .map_monotone(|v| (v + 1).div_euclid(2))
            .unwrap();
        assert!(close(half.chance(1), 2.0 / 6.0));
        assert!(close(half.chance(3), 2.0 / 6.0));
    }

    #[test]
    fn max_min_of_two() {
        let hi = Dist::die(6).max_of_two();
        assert!(close(hi.chance(6), 11.0 / 36.0));
        assert!(close(hi.chance(1), 1.0 / 36.0));
        let lo = Dist::die(8).min_of_two();
        assert!(close(lo.chance(1), 15.0 / 64.0));
        assert!(close(lo.chance(8), 1.0 / 64.0));
    }

    #[test]
    fn keep_highest_three_of_four() {
        let d = Dist::die(6).keep(4, 3, true).unwrap();
        assert_eq!(d.range(), (3, 18));
        assert!(close(d.chance(18), 21.0 / 1296.0));
        assert!(close(d.chance(3), 1.0 / 1296.0));
        assert!((d.mean() - 15869.0 / 1296.0).abs() < 1e-9);
        let lo = Dist::die(6).keep(2, 1, false).unwrap();
        assert!(close(lo.chance(1), 11.0 / 36.0));
    }

    #[test]
    fn big_sums_stay_normalised() {
        let d = Dist::dice(1000, 6).unwrap();
        assert!((d.mass() - 1.0).abs() < 1e-9);
        assert!((d.mean() - 3500.0).abs() < 1e-6);
        let wide = Dist::dice(2, 1_000_000).unwrap();
        assert!((wide.mass() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn limits_refuse_instead_of_hanging() {
        assert!(Dist::dice(10_000, 1_000_000).is_err());
    }
}
