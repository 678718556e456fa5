//! Rolling an expression on a [`Stream`](crate::seed::Stream), keeping every die so the result
//! can be shown ("d6! [6→6→3] = 13") and serialized.
//!
//! [`Roll::total`] is the allocation-free fast path used by tables and
//! benchmarks; it draws from the stream in exactly the same order as
//! [`roll`], so both give the same number for the same stream.

use serde::Serialize;

use super::ast::*;
use crate::rules::core::{contest_total, save_passes};
use crate::rules::mettle::{self, Tally, tally};
use crate::rules::status_cp::DiceValue;
use crate::seed::DieSource;

/// The full record of one rolled expression.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rolled {
    /// The expression in canonical form.
    pub expr: String,
    /// The house rules and readings the expression uses, in words.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// What was rolled, by kind of expression.
    #[serde(flatten)]
    pub outcome: Outcome,
}

/// The result of one kind of expression.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Outcome {
    /// A Roll: its attempts and total.
    Roll(RollOutcome),
    /// A METTLE pool: Score, Edge and what they mean.
    Pool(PoolOutcome),
    /// A d20 save.
    Save(SaveOutcome),
    /// A Core Rules contest, tie-breaks included.
    Contest(ContestOutcome),
    /// An x-in-y chance.
    Chance(ChanceOutcome),
    /// A CP reading: the dice value and its roll.
    Cp(CpOutcome),
}

/// A rolled Roll.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RollOutcome {
    /// The result: the kept attempt's total (0 when ineffective).
    pub total: i64,
    /// The net effect of the enhanced and impaired words.
    pub quality: Quality,
    /// One attempt, or two when enhanced/impaired; none when ineffective.
    pub attempts: Vec<Attempt>,
    /// Index of the attempt that counts.
    pub kept_attempt: Option<usize>,
}

/// One evaluation of a Roll's terms.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Attempt {
    /// Each term as rolled, in the order written.
    pub terms: Vec<TermOutcome>,
    /// Signed sum before the floor at zero.
    pub sum: i64,
    /// Result after the floor at zero and any halving or doubling.
    pub total: i64,
}

/// One term of a Roll as rolled.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TermOutcome {
    /// The term as written, in canonical form.
    pub term: String,
    /// Whether the term is subtracted.
    pub negative: bool,
    /// Each die as thrown (none for a flat number or a group).
    pub dice: Vec<DieOutcome>,
    /// What the term adds before its sign: the kept dice's sum or count, times
    /// its multiplier.
    pub value: i64,
    /// A group's items, each rolled and totalled.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<ItemOutcome>,
    /// The label written after the term (`2d6[fire]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// One die as thrown, with its rerolls and explosions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DieOutcome {
    /// Every throw that counts for this die: one, or a chain of explosions,
    /// or the tens and units of a d66.
    pub rolls: Vec<i64>,
    /// What the die counts (an exploding chain added up, a clamp applied).
    pub value: i64,
    /// Whether a keep or drop left it in.
    pub kept: bool,
    /// Faces thrown and rerolled away (`r`, `ro`), in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rerolled: Vec<i64>,
    /// What this die counts under a success/failure count (1, 0 or −1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counts: Option<i64>,
}

impl DieOutcome {
    fn plain(rolls: Vec<i64>, value: i64) -> DieOutcome {
        DieOutcome {
            rolls,
            value,
            kept: true,
            rerolled: Vec::new(),
            counts: None,
        }
    }
}

/// One item of a group: its terms, its total, and whether it was kept.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ItemOutcome {
    /// The item's terms as rolled.
    pub terms: Vec<TermOutcome>,
    /// The item's signed sum.
    pub value: i64,
    /// Whether the group's keep or drop left it in.
    pub kept: bool,
    /// What the item counts under a success/failure count (1, 0 or −1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counts: Option<i64>,
}

/// A rolled METTLE pool.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PoolOutcome {
    /// Faces of the thrown dice.
    pub dice: Vec<u32>,
    /// Dice set aside as sixes (Raises).
    pub raised: u32,
    /// Score and Edge of the first throw (raised dice count as Edge).
    pub first: Tally,
    /// The Twist, when one was taken.
    pub twist: Option<TwistOutcome>,
    /// The Score that counts (after the Twist, if taken).
    pub score: u32,
    /// The Edge that counts (after the Twist, if taken).
    pub edge: u32,
    /// The Difficulty of a Check; `None` for a hazard or bare pool.
    pub difficulty: Option<u32>,
    /// The Difficulty's name on the ladder.
    pub difficulty_word: Option<String>,
    /// `None` for a hazard or bare pool (no Check against a Difficulty).
    pub success: Option<bool>,
    /// Edge quality word on a success.
    pub quality: Option<&'static str>,
    /// Damage: Edge + bonus for a hazard, or on a successful Check with a bonus.
    pub damage: Option<u32>,
    /// A hazard that rolls no Edge (before the bonus) ends if it is ongoing.
    pub hazard_ends: Option<bool>,
}

/// A Twist: the Edge dice thrown again once, and the new reading.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TwistOutcome {
    /// The faces of the rethrown Edge dice.
    pub rerolled: Vec<u32>,
    /// The first throw's Score plus the rethrown dice's.
    pub score: u32,
    /// Edge from the rethrown dice alone.
    pub edge: u32,
}

/// A rolled d20 save.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SaveOutcome {
    /// The d20.
    pub roll: u32,
    /// The ability to roll at or under.
    pub target: u32,
    /// Whether the roll was at or under the target.
    pub pass: bool,
}

/// A rolled contest.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContestOutcome {
    /// The entrants, in the order written.
    pub entrants: Vec<ContestEntry>,
    /// Labels from first place to last.
    pub ranking: Vec<String>,
}

/// One entrant of a rolled contest.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContestEntry {
    /// The entrant's name, or `#N`.
    pub label: String,
    /// The entrant's ability score.
    pub ability: u32,
    /// The d20 of the contest, then one per tie-break this entrant joined.
    pub rolls: Vec<u32>,
    /// Ability minus each d20 of [`ContestEntry::rolls`], in the same order.
    pub totals: Vec<i64>,
}

/// A rolled x-in-y chance.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChanceOutcome {
    /// The die rolled (`4` for `1:4`).
    pub out_of: u32,
    /// The face the die showed.
    pub roll: u32,
    /// Whether it showed the chances or lower.
    pub happens: bool,
}

/// A rolled CP reading.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CpOutcome {
    /// Each source with its CP and dice value.
    pub sources: Vec<CpSource>,
    /// The sources' dice values added together.
    pub dice_value: DiceValue,
    /// Control potential, for a single degree of success.
    pub control_potential: Option<u32>,
    /// The d6s thrown for the dice value.
    pub rolls: Vec<u32>,
    /// The dice plus the bonus.
    pub total: u64,
    /// A source's CP is past the chapter's last row (25).
    pub beyond_table: bool,
}

/// One source of a CP reading.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CpSource {
    /// Degrees of success from this source (their CP add up).
    pub parts: Vec<u32>,
    /// Its CP: the degrees added up.
    pub cp: u32,
    /// The dice value the CP table gives it.
    pub dice_value: DiceValue,
}

/// Roll any expression, recording every die.
pub fn roll<S: DieSource + ?Sized>(expr: &Expr, stream: &mut S) -> Rolled {
    let outcome = match expr {
        Expr::Roll(r) => Outcome::Roll(roll_roll(r, stream)),
        Expr::Pool(p) => Outcome::Pool(roll_pool(p, stream)),
        Expr::Save(s) => {
            let roll = stream.die(20);
            Outcome::Save(SaveOutcome {
                roll,
                target: s.target,
                pass: save_passes(roll, s.target),
            })
        }
        Expr::Contest(c) => Outcome::Contest(roll_contest(c, stream)),
        Expr::Chance(c) => {
            let roll = stream.die(c.out_of);
            Outcome::Chance(ChanceOutcome {
                out_of: c.out_of,
                roll,
                happens: roll <= c.chances,
            })
        }
        Expr::Cp(cp) => Outcome::Cp(roll_cp(cp, stream)),
    };
    Rolled {
        expr: expr.to_string(),
        notes: super::notes::notes(expr),
        outcome,
    }
}

impl Rolled {
    /// The single number this roll stands for: a Roll's total, a pool's
    /// damage (or Edge), 1/0 for a pass or a chance that happens, the
    /// winner's position for a contest (1-based), a CP dice value's total.
    pub fn value(&self) -> i64 {
        match &self.outcome {
            Outcome::Roll(r) => r.total,
            Outcome::Pool(p) => i64::from(p.damage.unwrap_or(p.edge)),
            Outcome::Save(s) => i64::from(s.pass),
            Outcome::Chance(c) => i64::from(c.happens),
            Outcome::Contest(c) => c
                .entrants
                .iter()
                .position(|e| Some(&e.label) == c.ranking.first())
                .map_or(0, |i| i as i64 + 1),
            Outcome::Cp(c) => c.total as i64,
        }
    }
}

/// A Roll's result from its signed sum: floored at zero (when the Roll
/// floors), then scaled.
fn finish(sum: i64, r: &Roll) -> i64 {
    let sum = if r.floors() { sum.max(0) } else { sum };
    r.scale.apply_signed(sum)
}

fn roll_attempt<S: DieSource + ?Sized>(r: &Roll, stream: &mut S) -> Attempt {
    let (terms, sum) = terms::roll_terms(&r.terms, stream);
    Attempt {
        terms,
        sum,
        total: finish(sum, r),
    }
}

fn roll_roll<S: DieSource + ?Sized>(r: &Roll, stream: &mut S) -> RollOutcome {
    let quality = r.quality();
    match quality {
        Quality::Ineffective => RollOutcome {
            total: 0,
            quality,
            attempts: Vec::new(),
            kept_attempt: None,
        },
        Quality::Plain => {
            let a = roll_attempt(r, stream);
            RollOutcome {
                total: a.total,
                quality,
                attempts: vec![a],
                kept_attempt: Some(0),
            }
        }
        Quality::Enhanced | Quality::Impaired => {
            let a = roll_attempt(r, stream);
            let b = roll_attempt(r, stream);
            let second = if quality == Quality::Enhanced {
                b.total > a.total
            } else {
                b.total < a.total
            };
            let kept = usize::from(second);
            let total = if second { b.total } else { a.total };
            RollOutcome {
                total,
                quality,
                attempts: vec![a, b],
                kept_attempt: Some(kept),
            }
        }
    }
}

impl Roll {
    fn attempt_total<S: DieSource + ?Sized>(&self, stream: &mut S) -> i64 {
        let mut sum = 0i64;
        for term in &self.terms {
            let value = terms::term_value(&term.kind, stream);
            sum += if term.negative { -value } else { value };
        }
        finish(sum, self)
    }

    /// Roll for the total only (no record kept). Draws exactly as [`roll`].
    pub fn total<S: DieSource + ?Sized>(&self, stream: &mut S) -> i64 {
        match self.quality() {
            Quality::Ineffective => 0,
            Quality::Plain => self.attempt_total(stream),
            Quality::Enhanced => self.attempt_total(stream).max(self.attempt_total(stream)),
            Quality::Impaired => self.attempt_total(stream).min(self.attempt_total(stream)),
        }
    }
}

fn roll_pool<S: DieSource + ?Sized>(p: &Pool, stream: &mut S) -> PoolOutcome {
    let raised = p.raised_dice();
    let dice: Vec<u32> = (0..p.rolled_dice()).map(|_| stream.die(6)).collect();
    let thrown = tally(&dice);
    let first = Tally {
        score: thrown.score,
        edge: thrown.edge + raised,
    };
    let difficulty = p.difficulty;
    let mut twist = None;
    let (mut score, mut edge) = (first.score, first.edge);
    if let Some(d) = difficulty
        && p.twist
        && first.score <= d
        && first.edge > 0
    {
        let rerolled: Vec<u32> = (0..first.edge).map(|_| stream.die(6)).collect();
        let again = tally(&rerolled);
        score = first.score + again.score;
        edge = again.edge;
        twist = Some(TwistOutcome {
            rerolled,
            score,
            edge,
        });
    }
    let success = difficulty.map(|d| score > d);
    let damage = match success {
        None => Some(edge + p.bonus),
        Some(true) if p.bonus > 0 => Some(edge + p.bonus),
        _ => None,
    };
    PoolOutcome {
        dice,
        raised,
        first,
        twist,
        score,
        edge,
        difficulty,
        difficulty_word: difficulty.map(mettle::difficulty_word),
        success,
        quality: (success == Some(true)).then(|| mettle::edge_word(edge)),
        damage,
        hazard_ends: difficulty.is_none().then_some(edge == 0),
    }
}

/// Most tie-break rounds before a tie is left in the order written (the
/// chance of reaching it is below 10^-600).
const MAX_TIE_ROUNDS: u32 = 500;

fn roll_contest<S: DieSource + ?Sized>(c: &Contest, stream: &mut S) -> ContestOutcome {
    let mut entries: Vec<ContestEntry> = c
        .entrants
        .iter()
        .enumerate()
        .map(|(i, e)| ContestEntry {
            label: e.label(i),
            ability: e.ability,
            rolls: Vec::new(),
            totals: Vec::new(),
        })
        .collect();
    let all: Vec<usize> = (0..entries.len()).collect();
    let order = rank(&all, &mut entries, stream, 0);
    ContestOutcome {
        ranking: order.iter().map(|&i| entries[i].label.clone()).collect(),
        entrants: entries,
    }
}

/// Order a group by a fresh contest, settling ties by contesting again
/// among the tied (recursively).
fn rank<S: DieSource + ?Sized>(
    group: &[usize],
    entries: &mut [ContestEntry],
    stream: &mut S,
    depth: u32,
) -> Vec<usize> {
    let mut scored: Vec<(usize, i64)> = group
        .iter()
        .map(|&i| {
            let roll = stream.die(20);
            let total = contest_total(entries[i].ability, roll);
            entries[i].rolls.push(roll);
            entries[i].totals.push(total);
            (i, total)
        })
        .collect();
    scored.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut order = Vec::with_capacity(group.len());
    let mut start = 0;
    while start < scored.len() {
        let end = scored[start..]
            .iter()
            .position(|s| s.1 != scored[start].1)
            .map_or(scored.len(), |p| start + p);
        let tied: Vec<usize> = scored[start..end].iter().map(|s| s.0).collect();
        if tied.len() > 1 && depth < MAX_TIE_ROUNDS {
            order.extend(rank(&tied, entries, stream, depth + 1));
        } else {
            order.extend(tied);
        }
        start = end;
    }
    order
}

fn roll_cp<S: DieSource + ?Sized>(cp: &Cp, stream: &mut S) -> CpOutcome {
    let reading = cp.read();
    let sources: Vec<CpSource> = cp
        .sources
        .iter()
        .zip(&reading.sources)
        .map(|(parts, &(cp, dice_value))| CpSource {
            parts: parts.clone(),
            cp,
            dice_value,
        })
        .collect();
    let dice_value = reading.dice_value;
    let rolls: Vec<u32> = (0..dice_value.dice).map(|_| stream.die(6)).collect();
    let total = rolls.iter().map(|&r| u64::from(r)).sum::<u64>() + u64::from(dice_value.bonus);
    CpOutcome {
        control_potential: reading.control_potential,
        beyond_table: reading.beyond_table,
        sources,
        dice_value,
        rolls,
        total,
    }
}

mod terms;

#[cfg(test)]
mod tests;
