//! The dice expression tree and its canonical printing.
//!
//! Every notation the seeds use parses into an [`Expr`]; `Display` prints the
//! canonical form, and parsing that form gives back the same tree (a property
//! test holds us to it).

use std::fmt;

use serde::Serialize;

pub use super::mods::{
    Compare, Explode, ExplodeStyle, Faces, Keep, Mods, Reroll, Sort, Tally, ThrowRule,
};
use crate::rules::status_cp::{self, DiceValue};

/// Any expression the notation can write.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Expr {
    /// A Roll: sum faces, add bonuses, floor at 0 (`3d6`, `2d6-4`, `d6!`,
    /// `4d6kh3`, `d8 impaired`, `(2d6+1)/2`).
    Roll(Roll),
    /// A METTLE pool: a Check (`5D vs 3`), a hazard (`3D+3`) or a bare pool
    /// reading (`5D`).
    Pool(Pool),
    /// A d20 roll-under save (`save 12`, `d20<=12`).
    Save(Save),
    /// A Core Rules contest: ability − d20, ranked, ties rolled again.
    Contest(Contest),
    /// An x-in-y chance (`1:4`).
    Chance(Chance),
    /// A degree of success read on the CP table (`cp 18`, `cp 4+5`, `cp 4 & 5`).
    Cp(Cp),
}

/// A Roll: signed terms, then floor at zero, then scaling, with optional
/// enhanced/impaired words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Roll {
    /// The signed terms, summed in order.
    pub terms: Vec<Term>,
    /// Halving or doubling applied after the floor at zero.
    pub scale: Scale,
    /// How many times the roll is enhanced (roll twice, keep the higher).
    pub enhanced: u32,
    /// How many times the roll is impaired (roll twice, keep the lower).
    pub impaired: u32,
}

/// The net effect of the enhanced/impaired words (Core Rules: they cancel
/// one for one; several enhancements act as one; impaired twice or more is
/// completely ineffective).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Quality {
    /// Neither, or as many enhancements as impairments.
    Plain,
    /// Enhanced on balance: roll twice, keep the higher.
    Enhanced,
    /// Impaired once on balance: roll twice, keep the lower.
    Impaired,
    /// Impaired twice or more on balance: the roll does nothing.
    Ineffective,
}

impl Roll {
    /// The net effect of the roll's enhanced and impaired words.
    pub fn quality(&self) -> Quality {
        let net = i64::from(self.enhanced) - i64::from(self.impaired);
        match net {
            0 => Quality::Plain,
            n if n > 0 => Quality::Enhanced,
            -1 => Quality::Impaired,
            _ => Quality::Ineffective,
        }
    }

    /// Total number of physical dice one evaluation rolls before explosions.
    pub(crate) fn dice_count(&self) -> u64 {
        self.terms
            .iter()
            .map(|t| t.kind.dice_count())
            .fold(0, u64::saturating_add)
    }

    /// Whether the floor at zero applies: the Engine's floor is for
    /// penalties on a Roll of ordinary dice; Fudge dice and failure counts
    /// are meant to go below zero (Roll20, Foundry, rpg-dice-roller).
    pub fn floors(&self) -> bool {
        !self.terms.iter().any(|t| t.kind.signed())
    }
}

impl TermKind {
    /// Physical dice one evaluation throws before explosions and rerolls.
    pub(crate) fn dice_count(&self) -> u64 {
        match self {
            TermKind::Dice(d) => u64::from(d.count),
            TermKind::D66 => 2,
            TermKind::Const(_) => 0,
            TermKind::Group(g) => g
                .items
                .iter()
                .flatten()
                .map(|t| t.kind.dice_count())
                .fold(0, u64::saturating_add),
        }
    }

    /// Whether this term is meant to go below zero (Fudge dice, failures).
    pub fn signed(&self) -> bool {
        match self {
            TermKind::Dice(d) => d.faces == Faces::Fudge || d.mods.signed(),
            TermKind::Group(g) => {
                g.mods.signed() || g.items.iter().flatten().any(|t| t.kind.signed())
            }
            _ => false,
        }
    }
}

/// A signed term of a Roll.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Term {
    /// Whether the term is subtracted (written after a `-`).
    pub negative: bool,
    /// What the term rolls or adds.
    pub kind: TermKind,
}

impl Term {
    /// What `value` (this term's dice or number) adds to the Roll's sum.
    pub fn signed(&self, value: u64) -> i64 {
        if self.negative {
            -(value as i64)
        } else {
            value as i64
        }
    }
}

/// What one term of a Roll is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TermKind {
    /// `NdM` or `NdF` with its modifiers (`!`, `kh3`, `ro<2`, `>=8`, …).
    Dice(Dice),
    /// `d66`: a tens die and a units die, read 11-66.
    D66,
    /// A flat bonus or penalty.
    Const(u64),
    /// `{3d6, 2d8+1}kh1`: several sums, each rolled and totalled, then kept,
    /// dropped or counted as wholes (Roll20's group rolls).
    Group(Group),
}

/// `NdM` (or `NdF`) and what is written after it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Dice {
    /// How many dice are thrown (the `N` of `NdM`).
    pub count: u32,
    /// The dice's faces: `M` sides, or Fudge.
    pub faces: Faces,
    /// What is written after the dice (explode, keep, reroll, count, sort, …).
    pub mods: Mods,
}

impl Dice {
    /// Plain `NdM` with at most the Core Rules explosion and `khN`/`klN`.
    pub fn plain(count: u32, sides: u32) -> Dice {
        Dice {
            count,
            faces: Faces::Sides(sides),
            mods: Mods::none(),
        }
    }

    /// The throw rules of one die.
    pub(crate) fn throw_rule(&self) -> ThrowRule {
        ThrowRule {
            faces: self.faces,
            reroll: self.mods.reroll,
            min: self.mods.min,
            max: self.mods.max,
        }
    }
}

/// A group's items (each a signed sum of terms) and its modifiers (keep,
/// drop, count, sort, label, multiplier).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Group {
    /// Each item, a signed sum of terms, totalled on its own.
    pub items: Vec<Vec<Term>>,
    /// What happens to the items' totals (keep, drop, count, sort).
    pub mods: Mods,
}

/// What happens to a Roll's total after the floor at zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Scale {
    /// The total as it is.
    None,
    /// Divide, rounding up (the Engine's halving rule).
    Divide(u32),
    /// Multiply the total (`*2`).
    Multiply(u32),
}

impl Scale {
    /// A total (after the floor at zero) halved, rounding up, or doubled.
    pub fn apply(self, total: u64) -> u64 {
        match self {
            Scale::None => total,
            Scale::Divide(n) => total.div_ceil(u64::from(n)),
            Scale::Multiply(n) => total * u64::from(n),
        }
    }

    /// A total that may be below zero (a Roll that does not floor: Fudge
    /// dice, failures) halved, rounding up, or doubled.
    pub(crate) fn apply_signed(self, total: i64) -> i64 {
        match self {
            Scale::None => total,
            Scale::Divide(n) => {
                let n = i64::from(n);
                total.div_euclid(n) + i64::from(total.rem_euclid(n) != 0)
            }
            Scale::Multiply(n) => total * i64::from(n),
        }
    }
}

/// A METTLE dice pool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Pool {
    /// The pool as written (`5D`).
    pub dice: u32,
    /// Net die bonus or penalty (`+2D`, `-1D`).
    pub extra: i32,
    /// Damage bonus added to Edge (`3D+3` hazards, a weapon's DM).
    pub bonus: u32,
    /// Difficulty the Score must beat; `None` reads the pool as a hazard
    /// (Difficulty 0, count Edge).
    pub difficulty: Option<u32>,
    /// Dice set to six before rolling (straight to Edge).
    pub raises: u32,
    /// Take a Twist on a failure with Edge: reroll the Edge dice once.
    pub twist: bool,
    /// Pools of teammates making the same Check (Teamwork: +1D when this
    /// pool is lower than the highest).
    pub team: Vec<u32>,
}

impl Pool {
    /// +1D from Teamwork when any teammate's pool is higher than ours.
    pub fn teamwork_bonus(&self) -> u32 {
        u32::from(self.team.iter().any(|&t| t > self.dice))
    }

    /// Dice in hand after modifiers and Teamwork (never below zero).
    pub fn effective_dice(&self) -> u32 {
        let total = i64::from(self.dice) + i64::from(self.extra) + i64::from(self.teamwork_bonus());
        total.max(0) as u32
    }

    /// Dice actually thrown (the raised dice are set aside as sixes).
    pub(crate) fn rolled_dice(&self) -> u32 {
        self.effective_dice().saturating_sub(self.raises)
    }

    /// Raised dice actually set aside (no more than the dice in hand).
    pub(crate) fn raised_dice(&self) -> u32 {
        self.raises.min(self.effective_dice())
    }
}

/// A d20 roll-under save (`save 12`, `d20<=12`): pass on the target or lower.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Save {
    /// Pass on a d20 roll equal to or under this.
    pub target: u32,
}

/// A Core Rules contest: each entrant's ability minus a d20, highest wins, ties
/// rolled again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Contest {
    /// The entrants, in the order written.
    pub entrants: Vec<Entrant>,
}

/// One side of a contest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entrant {
    /// The name written before the ability, if any.
    pub name: Option<String>,
    /// The ability score the d20 is taken from.
    pub ability: u32,
}

impl Entrant {
    /// The entrant's name, or `#N` when it has none (N = `index` + 1, its
    /// place in the contest).
    pub fn label(&self, index: usize) -> String {
        self.name
            .clone()
            .unwrap_or_else(|| format!("#{}", index + 1))
    }
}

/// An x-in-y chance (`1:4`): it happens when a dy rolls x or lower.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Chance {
    /// The chances out of [`Chance::out_of`] (the x).
    pub chances: u32,
    /// The die rolled (the y).
    pub out_of: u32,
}

/// Degrees of success read on the CP table. Each inner list is one source
/// whose CP add up; different sources add their dice values.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cp {
    /// The sources, each a list of degrees of success added together.
    pub sources: Vec<Vec<u32>>,
}

/// What the CP table says for a [`Cp`] expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CpReading {
    /// Each source's CP (its degrees of success added up) and dice value.
    pub sources: Vec<(u32, DiceValue)>,
    /// The sources' dice values added together.
    pub dice_value: DiceValue,
    /// Control potential, for a single degree of success.
    pub control_potential: Option<u32>,
    /// A source's CP is past the table's last row.
    pub beyond_table: bool,
}

impl Cp {
    /// Read every source on the CP table and combine them.
    pub fn read(&self) -> CpReading {
        let sources: Vec<(u32, DiceValue)> = self
            .sources
            .iter()
            .map(|parts| {
                let cp: u32 = parts.iter().sum();
                (cp, status_cp::dice_value(cp).expect("CP is at least 1"))
            })
            .collect();
        let dice_value = sources
            .iter()
            .map(|&(_, v)| v)
            .reduce(DiceValue::combine)
            .expect("at least one source");
        let single = self.sources.len() == 1 && self.sources[0].len() == 1;
        CpReading {
            control_potential: if single {
                status_cp::control_potential(self.sources[0][0])
            } else {
                None
            },
            beyond_table: sources.iter().any(|&(cp, _)| cp > status_cp::CP_TABLE_TOP),
            sources,
            dice_value,
        }
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Roll(r) => r.fmt(f),
            Expr::Pool(p) => p.fmt(f),
            Expr::Save(s) => write!(f, "save {}", s.target),
            Expr::Contest(c) => {
                f.write_str("contest")?;
                for e in &c.entrants {
                    match &e.name {
                        Some(name) => write!(f, " {name}={}", e.ability)?,
                        None => write!(f, " {}", e.ability)?,
                    }
                }
                Ok(())
            }
            Expr::Chance(c) => write!(f, "{}:{}", c.chances, c.out_of),
            Expr::Cp(cp) => {
                f.write_str("cp ")?;
                for (i, source) in cp.sources.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" & ")?;
                    }
                    for (j, v) in source.iter().enumerate() {
                        if j > 0 {
                            f.write_str("+")?;
                        }
                        write!(f, "{v}")?;
                    }
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            TermKind::Dice(d) => {
                if d.mods.times != 1 {
                    write!(f, "{}*", d.mods.times)?;
                }
                if d.count != 1 {
                    write!(f, "{}", d.count)?;
                }
                match d.faces {
                    Faces::Sides(s) => write!(f, "d{s}")?,
                    Faces::Fudge => f.write_str("dF")?,
                }
                d.mods.fmt_after(f)
            }
            TermKind::D66 => f.write_str("d66"),
            TermKind::Const(v) => write!(f, "{v}"),
            TermKind::Group(g) => {
                if g.mods.times != 1 {
                    write!(f, "{}*", g.mods.times)?;
                }
                f.write_str("{")?;
                for (i, item) in g.items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    fmt_terms(item, f)?;
                }
                f.write_str("}")?;
                g.mods.fmt_after(f)
            }
        }
    }
}

/// Signed terms as a sum: `2d6+4`, `-1d4`, `d8-d4`.
pub(crate) fn fmt_terms(terms: &[Term], f: &mut fmt::Formatter<'_>) -> fmt::Result {
    for (i, term) in terms.iter().enumerate() {
        match (i, term.negative) {
            (_, true) => f.write_str("-")?,
            (0, false) => {}
            (_, false) => f.write_str("+")?,
        }
        write!(f, "{term}")?;
    }
    Ok(())
}

impl fmt::Display for Roll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let wrap = self.scale != Scale::None && self.terms.len() > 1;
        if wrap {
            f.write_str("(")?;
        }
        fmt_terms(&self.terms, f)?;
        if wrap {
            f.write_str(")")?;
        }
        match self.scale {
            Scale::None => {}
            Scale::Divide(n) => write!(f, "/{n}")?,
            Scale::Multiply(n) => write!(f, "*{n}")?,
        }
        for _ in 0..self.enhanced {
            f.write_str(" enhanced")?;
        }
        for _ in 0..self.impaired {
            f.write_str(" impaired")?;
        }
        Ok(())
    }
}

impl fmt::Display for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}D", self.dice)?;
        if self.extra > 0 {
            write!(f, "+{}D", self.extra)?;
        } else if self.extra < 0 {
            write!(f, "-{}D", self.extra.unsigned_abs())?;
        }
        if self.bonus > 0 {
            write!(f, "+{}", self.bonus)?;
        }
        if let Some(d) = self.difficulty {
            write!(f, " vs {d}")?;
        }
        if self.raises > 0 {
            write!(f, " raise {}", self.raises)?;
        }
        if !self.team.is_empty() {
            f.write_str(" team ")?;
            for (i, t) in self.team.iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{t}")?;
            }
        }
        if self.twist {
            f.write_str(" twist")?;
        }
        Ok(())
    }
}
