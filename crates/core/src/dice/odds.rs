//! Exact odds for every expression, computed analytically.
//!
//! - Rolls: convolution of per-term distributions ([`Dist`], built in
//!   [`terms`] through every modifier, after a cheap estimate refuses
//!   what is past the limits), then the floor at zero, scaling and
//!   enhanced/impaired.
//! - METTLE pools: a die is Edge with chance 1/2 and otherwise adds 1, 2 or
//!   3 to the Score with chance 1/6 each, so the chance of `e` Edge with
//!   Score `s` from `n` dice is `C(n,e)/2^n × P(sum of n−e d3 = s)`. The
//!   Twist is a second pass over the failing (Score, Edge) states.
//! - Contests: the chance each contestant comes first, with ties settled by
//!   contesting again among the tied (solved exactly, not simulated).

use std::collections::BTreeMap;

use serde::Serialize;

use super::ast::*;
use super::bounds::roll_bounds;
use super::dist::{Dist, TooLarge, ln_factorials};
use crate::rules::mettle;
use crate::rules::status_cp::DiceValue;

/// Exact odds of one expression.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Odds {
    /// The expression in canonical form.
    pub expr: String,
    /// The house rules and readings the expression uses, in words.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The odds, by kind of expression.
    #[serde(flatten)]
    pub detail: OddsDetail,
}

/// The odds of one kind of expression.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OddsDetail {
    /// A Roll: its distribution.
    Roll(Summary),
    /// A METTLE pool with a Difficulty: a Check.
    Check(CheckOdds),
    /// A METTLE pool without one: a hazard or a bare pool.
    Hazard(HazardOdds),
    /// A d20 save: the chance to pass.
    Save(Binary),
    /// An x-in-y chance: the chance it happens.
    Chance(Binary),
    /// A contest: each entrant's chance to come first.
    Contest(ContestOdds),
    /// A CP reading: the dice value and its distribution.
    Cp(CpOdds),
}

/// A distribution as a table, with its summary numbers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// Smallest and largest possible values, exact (from the expression:
    /// an exploding die stops after 100 explosions), even where the table
    /// stops short of them (chances too small for a float, or the cut tail).
    pub min: i64,
    /// See [`Summary::min`].
    pub max: i64,
    /// The expected value.
    pub mean: f64,
    /// The standard deviation.
    pub sd: f64,
    /// Mass above the table's last value left out (exploding dice); 0 when
    /// exact.
    pub tail: f64,
    /// One row per listed value, lowest first.
    pub table: Vec<Row>,
}

/// One value of a distribution.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// The value.
    pub value: i64,
    /// The chance of exactly this value (0 to 1).
    pub chance: f64,
    /// The chance of this value or more (0 to 1).
    pub at_least: f64,
}

impl Summary {
    /// The distribution's table, with `min`/`max` the exact bounds `range`
    /// (the table lists the values whose chance a float can hold).
    pub fn bounded(d: &Dist, range: (i64, i64)) -> Summary {
        let mut s = Summary::of(d);
        (s.min, s.max) = range;
        s
    }

    /// The distribution's table; `min`/`max` are its listed values' range.
    pub fn of(d: &Dist) -> Summary {
        let (lo, hi) = d.range();
        let mut at_least = d.at_least(hi + 1);
        let mut table: Vec<Row> = (lo..=hi)
            .rev()
            .map(|v| {
                let chance = d.chance(v);
                at_least += chance;
                Row {
                    value: v,
                    chance,
                    at_least,
                }
            })
            .collect();
        table.reverse();
        Summary {
            min: lo,
            max: hi,
            mean: d.mean(),
            sd: d.sd(),
            tail: d.tail,
            table,
        }
    }
}

/// The odds of a METTLE Check (a pool against a Difficulty).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckOdds {
    /// Dice thrown (the raised dice not counted).
    pub dice: u32,
    /// Dice set to six before the throw.
    pub raised: u32,
    /// The Difficulty the Score must beat.
    pub difficulty: u32,
    /// The Difficulty's name on the METTLE ladder.
    pub difficulty_word: String,
    /// Whether the Check is taken with a Twist.
    pub twist: bool,
    /// Chance of success (0 to 1), after the Twist when one is taken.
    pub success: f64,
    /// Chance to fail with Edge showing, when a Twist could be called (for
    /// a Check taken with `twist`, this is before the Twist).
    pub twist_offered: f64,
    /// Mean Edge over the successes only.
    pub expected_edge_given_success: f64,
    /// Chance of success with exactly this Edge, and with at least it.
    pub by_edge: Vec<EdgeRow>,
    /// Damage (bonus + Edge) on a success, when the pool has a bonus.
    pub damage: Option<Vec<Row>>,
}

/// A success's chance at one Edge.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EdgeRow {
    /// The Edge (dice showing 4-6, raised dice included).
    pub edge: u32,
    /// What that Edge makes of a success, in METTLE's words.
    pub quality: &'static str,
    /// Chance of success with exactly this Edge.
    pub chance: f64,
    /// Chance of success with this Edge or more.
    pub at_least: f64,
}

/// The odds of a METTLE pool read without a Difficulty: a hazard's damage and
/// how long it lasts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HazardOdds {
    /// Dice thrown (the raised dice not counted).
    pub dice: u32,
    /// Dice set to six before the throw.
    pub raised: u32,
    /// The damage bonus added to Edge (`3D+3`).
    pub bonus: u32,
    /// Damage = Edge + bonus.
    pub damage: Summary,
    /// Chance a roll shows no Edge, ending an ongoing hazard.
    pub ends: f64,
    /// Expected rounds an ongoing hazard lasts, counting the round it ends.
    pub expected_rounds: f64,
    /// Score distribution of a bare pool (no bonus).
    pub score: Option<Summary>,
}

/// The chance of one yes-or-no event (a save passed, a chance that happens).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Binary {
    /// The chance, 0 to 1.
    pub chance: f64,
    /// What `chance` is the chance of.
    pub of: String,
}

/// The odds of a Core Rules contest.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContestOdds {
    /// Each entrant's chance to come first, in the order written.
    pub entrants: Vec<ContestChance>,
}

/// One entrant of a contest and its chance.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContestChance {
    /// The entrant's name, or `#N`.
    pub label: String,
    /// The entrant's ability score.
    pub ability: u32,
    /// Chance to come first.
    pub wins: f64,
}

/// The odds of a CP reading (Status chapter, the CP table).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CpOdds {
    /// Each source's CP (its degrees of success added up).
    pub cp: Vec<u32>,
    /// The sources' dice values added together.
    pub dice_value: DiceValue,
    /// Control potential, for a single degree of success.
    pub control_potential: Option<u32>,
    /// A source's CP is past the table's last row.
    pub beyond_table: bool,
    /// The distribution of the dice value rolled (d6s plus the bonus).
    pub value: Summary,
}

/// Exact odds of any expression.
pub fn odds(expr: &Expr) -> Result<Odds, TooLarge> {
    let detail = match expr {
        Expr::Roll(r) => OddsDetail::Roll(Summary::bounded(&roll_dist(r)?, roll_bounds(r))),
        Expr::Pool(p) => match p.difficulty {
            Some(_) => OddsDetail::Check(check_odds(p)?),
            None => OddsDetail::Hazard(hazard_odds(p)?),
        },
        Expr::Save(s) => OddsDetail::Save(Binary {
            chance: f64::from(s.target.min(20)) / 20.0,
            of: format!("passing (d20 ≤ {})", s.target),
        }),
        Expr::Chance(c) => OddsDetail::Chance(Binary {
            chance: f64::from(c.chances) / f64::from(c.out_of),
            of: format!("it happening (d{} ≤ {})", c.out_of, c.chances),
        }),
        Expr::Contest(c) => OddsDetail::Contest(contest_odds(c)),
        Expr::Cp(cp) => OddsDetail::Cp(cp_odds(cp)?),
    };
    Ok(Odds {
        expr: expr.to_string(),
        notes: super::notes::notes(expr),
        detail,
    })
}

/// The exact distribution of a Roll's result.
pub fn roll_dist(r: &Roll) -> Result<Dist, TooLarge> {
    let quality = r.quality();
    if quality == Quality::Ineffective {
        return Ok(Dist::point(0));
    }
    let sum = terms::sum_dist(&r.terms)?;
    let mut d = if r.floors() { sum.floor_zero() } else { sum };
    if r.scale != Scale::None {
        d = d.map_monotone(|v| r.scale.apply_signed(v))?;
    }
    Ok(match quality {
        Quality::Enhanced => d.max_of_two(),
        Quality::Impaired => d.min_of_two(),
        _ => d,
    })
}

/// The binomial(n, 1/2) chances. Up to 1,000 dice they come from plain
/// multiplications (2^-n is exact), so they are the same bits on every
/// platform; beyond that, through logarithms.
fn half_binomial(n: u32) -> Vec<f64> {
    if n <= 1000 {
        let mut b = vec![0.0f64; n as usize + 1];
        b[0] = 0.5f64.powi(n as i32);
        for k in 0..n as usize {
            b[k + 1] = b[k] * (n as usize - k) as f64 / (k + 1) as f64;
        }
        return b;
    }
    let n = n as usize;
    let ln_fact = ln_factorials(n);
    let ln_half_n = n as f64 * 0.5f64.ln();
    (0..=n)
        .map(|k| (ln_fact[n] - ln_fact[k] - ln_fact[n - k] + ln_half_n).exp())
        .collect()
}

/// Tails of sums of d3 (faces 1-3): `tails[k][t]` = P(sum of k d3 > t) for
/// `k ≤ max_k`, `t ≤ max_t`.
struct D3Tails {
    tails: Vec<Vec<f64>>,
    max_t: usize,
}

impl D3Tails {
    fn new(max_k: usize, max_t: usize) -> D3Tails {
        // Exact chances for sums up to max_t + 1 (the last slot saturates).
        let cap = max_t + 1;
        let mut row = vec![0.0f64; cap + 1];
        row[0] = 1.0;
        let mut tails = Vec::with_capacity(max_k + 1);
        for k in 0..=max_k {
            if k > 0 {
                let mut next = vec![0.0f64; cap + 1];
                for (s, &q) in row.iter().enumerate() {
                    if q == 0.0 {
                        continue;
                    }
                    for f in 1..=3 {
                        next[(s + f).min(cap)] += q / 3.0;
                    }
                }
                row = next;
            }
            // P(sum > t) = sum of row[t+1..].
            let mut tail = vec![0.0f64; max_t + 1];
            let mut above = row[cap];
            for t in (0..=max_t).rev() {
                tail[t] = above;
                above += row[t];
            }
            tails.push(tail);
        }
        D3Tails { tails, max_t }
    }

    /// P(sum of k d3 > t).
    fn above(&self, k: usize, t: i64) -> f64 {
        if t < 0 {
            return 1.0;
        }
        let t = t as usize;
        if k > t {
            return 1.0; // every die adds at least 1
        }
        if t >= 3 * k {
            return 0.0; // every die adds at most 3
        }
        if t > self.max_t || k >= self.tails.len() {
            // Only reachable when k ≤ t ≤ 3k is beyond the table: callers
            // size the table so this never happens.
            unreachable!("d3 tail table too small");
        }
        self.tails[k][t]
    }

    /// P(sum of k d3 = s), from the tails.
    fn exactly(&self, k: usize, s: i64) -> f64 {
        self.above(k, s - 1) - self.above(k, s)
    }
}

/// Exact chance of success for every pool in `1..=max_pool` against every
/// Difficulty in `0..=max_difficulty` (no raises, no Twist):
/// `table[pool − 1][difficulty]`.
pub fn success_table(max_pool: u32, max_difficulty: u32) -> Vec<Vec<f64>> {
    let d3 = D3Tails::new(max_pool as usize, max_difficulty as usize);
    (1..=max_pool)
        .map(|n| {
            let binom = half_binomial(n);
            (0..=max_difficulty)
                .map(|d| {
                    binom
                        .iter()
                        .enumerate()
                        .map(|(e, b)| b * d3.above(n as usize - e, i64::from(d)))
                        .sum()
                })
                .collect()
        })
        .collect()
}

/// The chance of success of the Check `pool` with each pool size in
/// `pools` and each Difficulty in `difficulties` (its own dice and
/// Difficulty replaced): `grid[i][j]` for the `i`-th size and the `j`-th
/// Difficulty, each the chance `check` gives for that one Check. Priced
/// before any cell is worked out: the whole grid within the limits.
pub fn check_grid(
    pool: &Pool,
    pools: (u32, u32),
    difficulties: (u32, u32),
) -> Result<Vec<Vec<f64>>, TooLarge> {
    let cell = |n: u32, d: u32| Pool {
        dice: n,
        difficulty: Some(d),
        ..pool.clone()
    };
    let mut work = 0u64;
    for n in pools.0..=pools.1 {
        for d in difficulties.0..=difficulties.1 {
            let p = cell(n, d);
            let total = u64::from(p.rolled_dice() + p.raised_dice());
            let t_max = u64::from(d).min(3 * total + 1);
            work = work.saturating_add((t_max + 2).pow(2) * (total + 1));
        }
    }
    if work > super::limits::MAX_WORK {
        return Err(TooLarge::work(format!(
            "about {work} steps for pools {}-{} against Difficulties {}-{}",
            pools.0, pools.1, difficulties.0, difficulties.1
        )));
    }
    (pools.0..=pools.1)
        .map(|n| {
            (difficulties.0..=difficulties.1)
                .map(|d| Ok(check_by_edge(&cell(n, d))?.0.iter().sum()))
                .collect()
        })
        .collect()
}

/// Chance of success with each final Edge (index = Edge), for a Check.
fn check_by_edge(p: &Pool) -> Result<(Vec<f64>, f64), TooLarge> {
    let n = p.rolled_dice() as usize;
    let r = p.raised_dice() as usize;
    let d = p.difficulty.expect("a Check has a Difficulty") as i64;
    let total = n + r;
    let mut by_edge = vec![0.0f64; total + 1];
    let binom = half_binomial(n as u32);
    // Beyond 3 × dice the Check cannot succeed; keep tables small.
    let t_max = (d.max(0) as usize).min(3 * total + 1);
    let work = (t_max as u64 + 2).pow(2) * (total as u64 + 1);
    if work > super::limits::MAX_WORK || (t_max + 2).pow(2) > super::limits::MAX_SUPPORT {
        return Err(TooLarge::work(format!(
            "about {work} steps for a {total}-dice Check against {d}"
        )));
    }
    let d3 = D3Tails::new(total.min(t_max + 1), t_max);
    let mut twist_offered = 0.0;
    for (thrown_edge, &b) in binom.iter().enumerate() {
        let k = n - thrown_edge; // dice adding to the Score
        let edge = thrown_edge + r;
        // Success on the first throw.
        by_edge[edge] += b * d3.above(k, d);
        if k as i64 > d {
            continue; // cannot fail
        }
        // Failing first throws: Score s ≤ d.
        for s in k as i64..=d {
            let q = b * d3.exactly(k, s);
            if q == 0.0 {
                continue;
            }
            if edge > 0 {
                twist_offered += q;
            }
            if !p.twist || edge == 0 {
                continue;
            }
            // Reroll the `edge` dice once and re-tally.
            let re_binom = half_binomial(edge as u32);
            for (e2, &b2) in re_binom.iter().enumerate() {
                by_edge[e2] += q * b2 * d3.above(edge - e2, d - s);
            }
        }
    }
    Ok((by_edge, twist_offered))
}

fn check_odds(p: &Pool) -> Result<CheckOdds, TooLarge> {
    let (by_edge_p, twist_offered) = check_by_edge(p)?;
    let success: f64 = by_edge_p.iter().sum();
    // Chance of at least each Edge, summed from the top (no cancellation).
    let mut suffix = vec![0.0f64; by_edge_p.len() + 1];
    for e in (0..by_edge_p.len()).rev() {
        suffix[e] = suffix[e + 1] + by_edge_p[e];
    }
    let weighted: f64 = by_edge_p
        .iter()
        .enumerate()
        .map(|(e, &q)| e as f64 * q)
        .sum();
    let by_edge = by_edge_p
        .iter()
        .enumerate()
        .map(|(e, &q)| EdgeRow {
            edge: e as u32,
            quality: mettle::edge_word(e as u32),
            chance: q,
            at_least: suffix[e],
        })
        .collect();
    let damage = (p.bonus > 0).then(|| {
        by_edge_p
            .iter()
            .enumerate()
            .map(|(e, &q)| Row {
                value: e as i64 + i64::from(p.bonus),
                chance: q,
                at_least: suffix[e],
            })
            .collect()
    });
    let difficulty = p.difficulty.expect("a Check");
    Ok(CheckOdds {
        dice: p.rolled_dice(),
        raised: p.raised_dice(),
        difficulty,
        difficulty_word: mettle::difficulty_word(difficulty),
        twist: p.twist,
        success,
        twist_offered,
        expected_edge_given_success: if success > 0.0 {
            weighted / success
        } else {
            0.0
        },
        by_edge,
        damage,
    })
}

fn hazard_odds(p: &Pool) -> Result<HazardOdds, TooLarge> {
    let n = p.rolled_dice();
    let binom = half_binomial(n);
    let damage = Dist {
        min: i64::from(p.raised_dice() + p.bonus),
        p: binom.clone(),
        tail: 0.0,
    };
    let ends = if p.raised_dice() > 0 { 0.0 } else { binom[0] };
    let score = if p.bonus == 0 {
        // Score: 0 with chance 1/2 (Edge), 1, 2, 3 with 1/6 each, per die.
        let one = Dist {
            min: 0,
            p: vec![0.5, 1.0 / 6.0, 1.0 / 6.0, 1.0 / 6.0],
            tail: 0.0,
        };
        Some(Summary::of(&one.repeat(n)?))
    } else {
        None
    };
    Ok(HazardOdds {
        dice: n,
        raised: p.raised_dice(),
        bonus: p.bonus,
        damage: Summary::of(&damage),
        ends,
        expected_rounds: if ends > 0.0 {
            1.0 / ends
        } else {
            f64::INFINITY
        },
        score,
    })
}

/// P(contestant i comes first) for every member of `group` (a bit mask),
/// memoised by group.
fn contest_wins(abilities: &[u32], group: u32, memo: &mut BTreeMap<u32, Vec<f64>>) -> Vec<f64> {
    if let Some(w) = memo.get(&group) {
        return w.clone();
    }
    let members: Vec<usize> = (0..abilities.len())
        .filter(|&i| group & (1 << i) != 0)
        .collect();
    let mut wins = vec![0.0f64; abilities.len()];
    if members.len() == 1 {
        wins[members[0]] = 1.0;
        memo.insert(group, wins.clone());
        return wins;
    }
    let top_chance = top_set_chances(abilities, &members, group);
    let self_tie = top_chance.get(&group).copied().unwrap_or(0.0);
    for (&top, &q) in &top_chance {
        if top == group {
            continue;
        }
        if top.count_ones() == 1 {
            wins[top.trailing_zeros() as usize] += q;
        } else {
            let sub = contest_wins(abilities, top, memo);
            for &i in &members {
                wins[i] += q * sub[i];
            }
        }
    }
    // The whole group tying starts the same contest again.
    for w in wins.iter_mut() {
        *w /= 1.0 - self_tie;
    }
    memo.insert(group, wins.clone());
    wins
}

/// For one contest among `members` (the bits of `group`): the chance that
/// exactly `top` (a sub-mask) shares the highest total, for every `top`
/// that can.
fn top_set_chances(abilities: &[u32], members: &[usize], group: u32) -> BTreeMap<u32, f64> {
    // Totals are ability − d20: uniform on ability−20 ..= ability−1.
    let p_eq = |i: usize, x: i64| -> f64 {
        let a = i64::from(abilities[i]);
        if (a - 20..=a - 1).contains(&x) {
            0.05
        } else {
            0.0
        }
    };
    let p_below = |i: usize, x: i64| -> f64 {
        // P(total < x)
        let a = i64::from(abilities[i]);
        ((x - (a - 20)).clamp(0, 20) as f64) * 0.05
    };
    // Only totals someone can actually reach: the union of each member's
    // ability−20 ..= ability−1.
    let mut totals: Vec<i64> = members
        .iter()
        .flat_map(|&i| (i64::from(abilities[i]) - 20)..=(i64::from(abilities[i]) - 1))
        .collect();
    totals.sort_unstable();
    totals.dedup();
    let mut top_chance: BTreeMap<u32, f64> = BTreeMap::new();
    for x in totals {
        // Enumerate subsets of the group as the top set at value x.
        let mut sub = group;
        loop {
            if sub != 0 {
                let mut q = 1.0;
                for &i in members {
                    q *= if sub & (1 << i) != 0 {
                        p_eq(i, x)
                    } else {
                        p_below(i, x)
                    };
                    if q == 0.0 {
                        break;
                    }
                }
                if q > 0.0 {
                    *top_chance.entry(sub).or_insert(0.0) += q;
                }
            }
            if sub == 0 {
                break;
            }
            sub = (sub - 1) & group;
        }
    }
    top_chance
}

fn contest_odds(c: &Contest) -> ContestOdds {
    let abilities: Vec<u32> = c.entrants.iter().map(|e| e.ability).collect();
    let full = (1u32 << abilities.len()) - 1;
    let wins = contest_wins(&abilities, full, &mut BTreeMap::new());
    ContestOdds {
        entrants: c
            .entrants
            .iter()
            .enumerate()
            .map(|(i, e)| ContestChance {
                label: e.label(i),
                ability: e.ability,
                wins: wins[i],
            })
            .collect(),
    }
}

fn cp_odds(cp: &Cp) -> Result<CpOdds, TooLarge> {
    let reading = cp.read();
    let dice_value = reading.dice_value;
    let d = Dist::dice(dice_value.dice, 6)?.add(&Dist::point(i64::from(dice_value.bonus)))?;
    Ok(CpOdds {
        beyond_table: reading.beyond_table,
        control_potential: reading.control_potential,
        cp: reading.sources.iter().map(|&(cp, _)| cp).collect(),
        dice_value,
        value: Summary::of(&d),
    })
}

pub mod terms;

#[cfg(test)]
mod tests;
