//! Rolling an expression on a [`Stream`], keeping every die so the result
//! can be shown ("d6! [6→6→3] = 13") and serialized.
//!
//! [`Roll::total`] is the allocation-free fast path used by tables and
//! benchmarks; it draws from the stream in exactly the same order as
//! [`roll`], so both give the same number for the same stream.

use serde::Serialize;

use super::ast::*;
use super::limits::MAX_EXPLOSIONS;
use crate::rules::core_d20::{contest_total, explode_value, save_passes};
use crate::rules::mettle::{self, Tally, tally};
use crate::rules::status_cp::{self, DiceValue};
use crate::seed::DieSource;

/// The full record of one rolled expression.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rolled {
    pub expr: String,
    #[serde(flatten)]
    pub outcome: Outcome,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Outcome {
    Roll(RollOutcome),
    Pool(PoolOutcome),
    Save(SaveOutcome),
    Contest(ContestOutcome),
    Chance(ChanceOutcome),
    Cp(CpOutcome),
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RollOutcome {
    pub total: u64,
    pub quality: Quality,
    /// One attempt, or two when enhanced/impaired; none when ineffective.
    pub attempts: Vec<Attempt>,
    /// Index of the attempt that counts.
    pub kept_attempt: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Attempt {
    pub terms: Vec<TermOutcome>,
    /// Signed sum before the floor at zero.
    pub sum: i64,
    /// Result after the floor at zero and any halving or doubling.
    pub total: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TermOutcome {
    pub term: String,
    pub negative: bool,
    pub dice: Vec<DieOutcome>,
    pub value: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DieOutcome {
    /// Every face thrown for this die: one, or a chain of explosions, or the
    /// tens and units of a d66.
    pub rolls: Vec<u32>,
    pub value: u64,
    pub kept: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PoolOutcome {
    /// Faces of the thrown dice.
    pub dice: Vec<u32>,
    /// Dice set aside as sixes (Raises).
    pub raised: u32,
    /// Score and Edge of the first throw (raised dice count as Edge).
    pub first: Tally,
    pub twist: Option<TwistOutcome>,
    pub score: u32,
    pub edge: u32,
    pub difficulty: Option<u32>,
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

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TwistOutcome {
    pub rerolled: Vec<u32>,
    pub score: u32,
    pub edge: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SaveOutcome {
    pub roll: u32,
    pub target: u32,
    pub pass: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContestOutcome {
    pub entrants: Vec<ContestEntry>,
    /// Labels from first place to last.
    pub ranking: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContestEntry {
    pub label: String,
    pub ability: u32,
    /// The d20 of the contest, then one per tie-break this entrant joined.
    pub rolls: Vec<u32>,
    pub totals: Vec<i64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChanceOutcome {
    /// The die rolled (`4` for `1:4`).
    pub out_of: u32,
    pub roll: u32,
    pub happens: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CpOutcome {
    pub sources: Vec<CpSource>,
    pub dice_value: DiceValue,
    /// Control potential, for a single degree of success.
    pub control_potential: Option<u32>,
    pub rolls: Vec<u32>,
    pub total: u64,
    /// A source's CP is past the chapter's last row (25).
    pub beyond_table: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CpSource {
    /// Degrees of success from this source (their CP add up).
    pub parts: Vec<u32>,
    pub cp: u32,
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
        outcome,
    }
}

impl Rolled {
    /// The single number this roll stands for: a Roll's total, a pool's
    /// damage (or Edge), 1/0 for a pass or a chance that happens, the
    /// winner's position for a contest (1-based), a CP dice value's total.
    pub fn value(&self) -> i64 {
        match &self.outcome {
            Outcome::Roll(r) => r.total as i64,
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

fn roll_die<S: DieSource + ?Sized>(sides: u32, explode: bool, stream: &mut S) -> (u64, u32) {
    let mut face = stream.die(sides);
    if !explode || face != sides {
        return (u64::from(face), 1);
    }
    let mut value = 0u64;
    let mut thrown = 1;
    while face == sides && thrown <= MAX_EXPLOSIONS {
        value += u64::from(sides - 1);
        face = stream.die(sides);
        thrown += 1;
    }
    (value + u64::from(face), thrown)
}

fn roll_die_detail<S: DieSource + ?Sized>(sides: u32, explode: bool, stream: &mut S) -> DieOutcome {
    let mut rolls = vec![stream.die(sides)];
    if explode {
        while *rolls.last().expect("non-empty") == sides && rolls.len() as u32 <= MAX_EXPLOSIONS {
            rolls.push(stream.die(sides));
        }
    }
    let value = if explode {
        explode_value(&rolls, sides)
    } else {
        u64::from(rolls[0])
    };
    DieOutcome {
        rolls,
        value,
        kept: true,
    }
}

/// Mark which dice a keep rule keeps: the highest (or lowest) values, ties
/// broken by position (earlier dice first).
fn apply_keep(dice: &mut [DieOutcome], keep: Keep) {
    let mut order: Vec<usize> = (0..dice.len()).collect();
    let k = match keep {
        Keep::Highest(k) => {
            order.sort_by(|&a, &b| dice[b].value.cmp(&dice[a].value).then(a.cmp(&b)));
            k
        }
        Keep::Lowest(k) => {
            order.sort_by(|&a, &b| dice[a].value.cmp(&dice[b].value).then(a.cmp(&b)));
            k
        }
    };
    for d in dice.iter_mut() {
        d.kept = false;
    }
    for &i in order.iter().take(k as usize) {
        dice[i].kept = true;
    }
}

fn finish(sum: i64, scale: Scale) -> u64 {
    let floored = sum.max(0) as u64;
    match scale {
        Scale::None => floored,
        Scale::Divide(n) => floored.div_ceil(u64::from(n)),
        Scale::Multiply(n) => floored * u64::from(n),
    }
}

fn roll_attempt<S: DieSource + ?Sized>(r: &Roll, stream: &mut S) -> Attempt {
    let mut terms = Vec::with_capacity(r.terms.len());
    let mut sum = 0i64;
    for term in &r.terms {
        let (dice, value) = match &term.kind {
            TermKind::Const(v) => (Vec::new(), *v),
            TermKind::D66 => {
                let tens = stream.die(6);
                let units = stream.die(6);
                let value = u64::from(tens * 10 + units);
                (
                    vec![DieOutcome {
                        rolls: vec![tens, units],
                        value,
                        kept: true,
                    }],
                    value,
                )
            }
            TermKind::Dice {
                count,
                sides,
                explode,
                keep,
            } => {
                let mut dice: Vec<DieOutcome> = (0..*count)
                    .map(|_| roll_die_detail(*sides, *explode, stream))
                    .collect();
                if let Some(keep) = keep {
                    apply_keep(&mut dice, *keep);
                }
                let value = dice.iter().filter(|d| d.kept).map(|d| d.value).sum();
                (dice, value)
            }
        };
        sum += if term.negative {
            -(value as i64)
        } else {
            value as i64
        };
        terms.push(TermOutcome {
            term: term.to_string(),
            negative: term.negative,
            dice,
            value,
        });
    }
    Attempt {
        terms,
        sum,
        total: finish(sum, r.scale),
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
    fn attempt_total<S: DieSource + ?Sized>(&self, stream: &mut S) -> u64 {
        let mut sum = 0i64;
        for term in &self.terms {
            let value = match &term.kind {
                TermKind::Const(v) => *v,
                TermKind::D66 => u64::from(stream.die(6) * 10 + stream.die(6)),
                TermKind::Dice {
                    count,
                    sides,
                    explode,
                    keep: None,
                } => (0..*count)
                    .map(|_| roll_die(*sides, *explode, stream).0)
                    .sum(),
                TermKind::Dice {
                    count,
                    sides,
                    explode,
                    keep: Some(keep),
                } => {
                    let mut values: Vec<u64> = (0..*count)
                        .map(|_| roll_die(*sides, *explode, stream).0)
                        .collect();
                    let k = match keep {
                        Keep::Highest(k) => {
                            values.sort_unstable_by(|a, b| b.cmp(a));
                            *k
                        }
                        Keep::Lowest(k) => {
                            values.sort_unstable();
                            *k
                        }
                    };
                    values.iter().take(k as usize).sum()
                }
            };
            sum += if term.negative {
                -(value as i64)
            } else {
                value as i64
            };
        }
        finish(sum, self.scale)
    }

    /// Roll for the total only (no record kept). Draws exactly as [`roll`].
    pub fn total<S: DieSource + ?Sized>(&self, stream: &mut S) -> u64 {
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
    let sources: Vec<CpSource> = cp
        .sources
        .iter()
        .map(|parts| {
            let total: u32 = parts.iter().sum();
            CpSource {
                parts: parts.clone(),
                cp: total,
                dice_value: status_cp::dice_value(total).expect("CP is at least 1"),
            }
        })
        .collect();
    let dice_value = sources
        .iter()
        .map(|s| s.dice_value)
        .reduce(DiceValue::combine)
        .expect("at least one source");
    let rolls: Vec<u32> = (0..dice_value.dice).map(|_| stream.die(6)).collect();
    let total = rolls.iter().map(|&r| u64::from(r)).sum::<u64>() + u64::from(dice_value.bonus);
    let single = cp.sources.len() == 1 && cp.sources[0].len() == 1;
    CpOutcome {
        control_potential: if single {
            status_cp::control_potential(cp.sources[0][0])
        } else {
            None
        },
        beyond_table: sources.iter().any(|s| s.cp > status_cp::CP_TABLE_TOP),
        sources,
        dice_value,
        rolls,
        total,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::dice::odds::{OddsDetail, odds};
    use crate::dice::parse;

    /// Replays the given faces, in order.
    struct Script<'a>(std::iter::Copied<std::slice::Iter<'a, u32>>);

    impl DieSource for Script<'_> {
        fn die(&mut self, sides: u32) -> u32 {
            let face = self.0.next().expect("the script ran out of faces");
            assert!((1..=sides).contains(&face), "{face} on a d{sides}");
            face
        }
    }

    fn scripted(text: &str, faces: &[u32]) -> Rolled {
        let mut script = Script(faces.iter().copied());
        let rolled = roll(&parse(text).unwrap(), &mut script);
        assert!(script.0.next().is_none(), "faces left over for {text}");
        rolled
    }

    #[test]
    fn core_rules_exploding_example() {
        // Balthasar: 6, 6, 3 on a d6 → 13.
        let r = scripted("d6!", &[6, 6, 3]);
        assert_eq!(r.value(), 13);
        let Outcome::Roll(o) = &r.outcome else {
            panic!()
        };
        assert_eq!(o.attempts[0].terms[0].dice[0].rolls, vec![6, 6, 3]);
    }

    #[test]
    fn core_rules_enhanced_and_impaired_examples() {
        // Sybilla: d6 enhanced (exploding), 4 and 6→3 → 8.
        assert_eq!(scripted("d6! enhanced", &[4, 6, 3]).value(), 8);
        // Balthasar: d8 impaired, 3 and 7 → 3.
        assert_eq!(scripted("d8 impaired", &[3, 7]).value(), 3);
        // Enhanced and impaired cancel; impaired twice is ineffective.
        assert_eq!(scripted("d8 enhanced impaired", &[5]).value(), 5);
        assert_eq!(scripted("d8 impaired impaired", &[]).value(), 0);
    }

    #[test]
    fn engine_twist_example() {
        // [1, 4, 4, 5, 6] vs 3 fails; the four Edge dice reroll to
        // [1, 3, 5, 5]: Score 5, Edge 2, success.
        let r = scripted("5D vs 3 twist", &[1, 4, 4, 5, 6, 1, 3, 5, 5]);
        let Outcome::Pool(p) = &r.outcome else {
            panic!()
        };
        assert_eq!(p.first, Tally { score: 1, edge: 4 });
        let twist = p.twist.as_ref().unwrap();
        assert_eq!(twist.rerolled, vec![1, 3, 5, 5]);
        assert_eq!((p.score, p.edge), (5, 2));
        assert_eq!(p.success, Some(true));
        assert_eq!(p.quality, Some("Great"));
        // Without the twist it is a failure.
        let r = scripted("5D vs 3", &[1, 4, 4, 5, 6]);
        let Outcome::Pool(p) = &r.outcome else {
            panic!()
        };
        assert_eq!(p.success, Some(false));
    }

    #[test]
    fn raises_go_straight_to_edge_and_can_be_twisted() {
        // 4D, raise 2: two thrown dice [1, 2] (Score 3), Edge 2 from raises.
        let r = scripted("4D vs 3 raise 2 twist", &[1, 2, 2, 5]);
        let Outcome::Pool(p) = &r.outcome else {
            panic!()
        };
        assert_eq!(p.raised, 2);
        assert_eq!(p.first, Tally { score: 3, edge: 2 });
        assert_eq!(p.twist.as_ref().unwrap().rerolled, vec![2, 5]);
        assert_eq!((p.score, p.edge, p.success), (5, 1, Some(true)));
    }

    #[test]
    fn hazards_count_edge_and_add_the_bonus() {
        let r = scripted("3D+3", &[1, 5, 6]);
        let Outcome::Pool(p) = &r.outcome else {
            panic!()
        };
        assert_eq!((p.damage, p.hazard_ends), (Some(5), Some(false)));
        let r = scripted("3D+3", &[1, 2, 3]);
        let Outcome::Pool(p) = &r.outcome else {
            panic!()
        };
        assert_eq!((p.damage, p.hazard_ends), (Some(3), Some(true)));
        // A trap checks vs POISE: damage only on a success.
        let r = scripted("5D+7 vs 3", &[1, 1, 1, 4, 5]);
        let Outcome::Pool(p) = &r.outcome else {
            panic!()
        };
        assert_eq!((p.success, p.damage), (Some(false), None));
        let r = scripted("5D+7 vs 3", &[2, 2, 1, 4, 5]);
        let Outcome::Pool(p) = &r.outcome else {
            panic!()
        };
        assert_eq!((p.success, p.damage), (Some(true), Some(9)));
    }

    #[test]
    fn core_rules_contest_example() {
        // Balthasar 10 rolls 8, Sybilla 10 rolls 19, Theobald 6 rolls 2.
        let r = scripted("contest Balthasar=10 Sybilla=10 Theobald=6", &[8, 19, 2]);
        let Outcome::Contest(c) = &r.outcome else {
            panic!()
        };
        assert_eq!(c.ranking, vec!["Theobald", "Balthasar", "Sybilla"]);
        // A tie is contested again among the tied only.
        let r = scripted("contest A=10 B=10 C=1", &[5, 5, 20, 9, 3]);
        let Outcome::Contest(c) = &r.outcome else {
            panic!()
        };
        assert_eq!(c.ranking, vec!["B", "A", "C"]);
        assert_eq!(c.entrants[0].rolls, vec![5, 9]);
        assert_eq!(c.entrants[2].rolls, vec![20]);
    }

    #[test]
    fn penalties_floor_at_zero_and_halving_rounds_up() {
        assert_eq!(scripted("2d6-4", &[1, 2]).value(), 0);
        assert_eq!(scripted("2d6-4", &[6, 6]).value(), 8);
        assert_eq!(scripted("(2d6+1)/2", &[1, 1]).value(), 2);
        assert_eq!(scripted("d6*2", &[4]).value(), 8);
        assert_eq!(scripted("1:4", &[1]).value(), 1);
        assert_eq!(scripted("1:4", &[2]).value(), 0);
        assert_eq!(scripted("save 12", &[12]).value(), 1);
        assert_eq!(scripted("d20<=12", &[13]).value(), 0);
        assert_eq!(scripted("cp 18", &[3]).value(), 7);
        assert_eq!(scripted("d66", &[3, 5]).value(), 35);
        assert_eq!(scripted("4d6kh3", &[2, 6, 2, 5]).value(), 13);
        assert_eq!(scripted("4d6kl3", &[2, 6, 2, 5]).value(), 9);
    }

    /// Every face sequence a (non-exploding) expression can draw, with its
    /// chance: a depth-first walk over the choices.
    fn enumerate(expr: &Expr, mut visit: impl FnMut(&Rolled, f64)) {
        struct Walk {
            choices: Vec<(u32, u32)>,
            at: usize,
        }
        impl DieSource for Walk {
            fn die(&mut self, sides: u32) -> u32 {
                if self.at == self.choices.len() {
                    self.choices.push((1, sides));
                }
                let face = self.choices[self.at].0;
                self.at += 1;
                face
            }
        }
        let mut walk = Walk {
            choices: Vec::new(),
            at: 0,
        };
        loop {
            walk.at = 0;
            let rolled = roll(expr, &mut walk);
            walk.choices.truncate(walk.at);
            let chance = walk
                .choices
                .iter()
                .map(|&(_, sides)| 1.0 / f64::from(sides))
                .product();
            visit(&rolled, chance);
            // Advance the odometer from the last choice.
            loop {
                match walk.choices.last_mut() {
                    None => return,
                    Some((face, sides)) if *face < *sides => {
                        *face += 1;
                        break;
                    }
                    Some(_) => {
                        walk.choices.pop();
                    }
                }
            }
        }
    }

    #[test]
    fn exact_odds_match_full_enumeration() {
        for text in [
            "2d6-4",
            "3d6",
            "4d6kh3",
            "3d4kl2",
            "(2d6+1)/2",
            "d6*3",
            "d8 impaired",
            "2d4 enhanced",
            "d6 enhanced impaired",
            "d4 impaired impaired",
            "d66",
            "d6+2d4-3",
            "-d6+4",
            "d10-d4",
            "cp 4 & 5",
            "cp 4+5",
            "2D+1",
            "4D",
        ] {
            let expr = parse(text).unwrap();
            let mut counted: BTreeMap<i64, f64> = BTreeMap::new();
            enumerate(&expr, |r, q| *counted.entry(r.value()).or_default() += q);
            let table = match odds(&expr).unwrap().detail {
                OddsDetail::Roll(s) => s.table,
                OddsDetail::Hazard(h) => h.damage.table,
                OddsDetail::Cp(c) => c.value.table,
                other => panic!("{other:?}"),
            };
            let exact: BTreeMap<i64, f64> = table
                .iter()
                .filter(|r| r.chance > 0.0)
                .map(|r| (r.value, r.chance))
                .collect();
            assert_eq!(
                counted.keys().collect::<Vec<_>>(),
                exact.keys().collect::<Vec<_>>(),
                "{text}"
            );
            for (v, q) in &counted {
                assert!(
                    (q - exact[v]).abs() < 1e-12,
                    "{text}: P({v}) {q} ≠ {}",
                    exact[v]
                );
            }
        }
    }

    #[test]
    fn check_odds_match_full_enumeration() {
        for text in [
            "3D vs 2",
            "4D vs 3 twist",
            "4D-1D vs 1 raise 1 twist",
            "2D+1D vs 4 team 5",
            "3D+2 vs 3 raise 1",
        ] {
            let expr = parse(text).unwrap();
            let mut by_edge: BTreeMap<u32, f64> = BTreeMap::new();
            enumerate(&expr, |r, q| {
                let Outcome::Pool(p) = &r.outcome else {
                    panic!()
                };
                if p.success == Some(true) {
                    *by_edge.entry(p.edge).or_default() += q;
                }
            });
            let OddsDetail::Check(c) = odds(&expr).unwrap().detail else {
                panic!()
            };
            for row in &c.by_edge {
                let counted = by_edge.get(&row.edge).copied().unwrap_or(0.0);
                assert!(
                    (row.chance - counted).abs() < 1e-12,
                    "{text} Edge {}",
                    row.edge
                );
            }
            let total: f64 = by_edge.values().sum();
            assert!((c.success - total).abs() < 1e-12, "{text}");
        }
    }

    #[test]
    fn fast_total_matches_the_recorded_roll() {
        use crate::seed::Seed;
        let seed = Seed::new("fast-path").unwrap();
        for text in [
            "3d6",
            "4d6kh3",
            "d6! enhanced",
            "2d10!kl1-3",
            "(d66+d%)/3",
            "d8 impaired",
        ] {
            let Expr::Roll(r) = parse(text).unwrap() else {
                panic!()
            };
            for i in 0..200 {
                let path = format!("{text}/{i}");
                let fast = r.total(&mut seed.stream(&path));
                let full = roll(&Expr::Roll(r.clone()), &mut seed.stream(&path));
                assert_eq!(fast as i64, full.value(), "{text} #{i}");
            }
        }
    }
}
