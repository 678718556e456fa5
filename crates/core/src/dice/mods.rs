//! The dice modifiers the VTTs taught GMs (Roll20, Foundry VTT,
//! rpg-dice-roller) and the Core Rules explosion: their types, canonical
//! printing, and the one reading of each that the roller, the exact odds and
//! the bounds share.
//!
//! One die goes through a fixed pipeline, whatever order the modifiers were
//! written in: **throw** (a face; `r`/`ro` reroll it; `min`/`max` clamp it)
//! → **explode** (while the throw triggers, throw again and add: the chain
//! is still one die) → the term's dice are **kept or dropped** by value →
//! kept dice are **counted** (successes/failures) or added → **sorted** for
//! display only.

use std::fmt;

use serde::Serialize;

/// A comparison against a number: `=6` (or a bare `6`), `>5`, `>=5`, `<3`,
/// `<=3`. `>` is strictly greater (rpg-dice-roller, Foundry; Roll20 reads
/// `>` as "at least", which is written `>=` here).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "op", content = "n", rename_all = "snake_case")]
pub enum Compare {
    /// Equal to the number (`=6`, or a bare `6`).
    Eq(i64),
    /// Strictly greater (`>5`).
    Gt(i64),
    /// Greater or equal (`>=5`).
    Ge(i64),
    /// Strictly less (`<3`).
    Lt(i64),
    /// Less or equal (`<=3`).
    Le(i64),
}

impl Compare {
    /// Whether the value `v` passes the comparison.
    pub fn matches(self, v: i64) -> bool {
        match self {
            Compare::Eq(n) => v == n,
            Compare::Gt(n) => v > n,
            Compare::Ge(n) => v >= n,
            Compare::Lt(n) => v < n,
            Compare::Le(n) => v <= n,
        }
    }

    /// Whether every value above some point matches (so a cut tail of an
    /// exploding die, which lies above the listed values, matches).
    pub(crate) fn open_above(self) -> bool {
        matches!(self, Compare::Gt(_) | Compare::Ge(_))
    }

    /// The comparison in words: "6", "above 5", "5 or more", "below 3",
    /// "3 or less".
    pub fn words(self) -> String {
        match self {
            Compare::Eq(n) => format!("{n}"),
            Compare::Gt(n) => format!("above {n}"),
            Compare::Ge(n) => format!("{n} or more"),
            Compare::Lt(n) => format!("below {n}"),
            Compare::Le(n) => format!("{n} or less"),
        }
    }

    /// Printed with a bare number for `=` (`r1`, `!!5`; `r=-1` keeps its
    /// `=`, as a bare `-1` would read as a subtraction).
    fn fmt_bare(self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Compare::Eq(n) if n >= 0 => write!(f, "{n}"),
            other => write!(f, "{other}"),
        }
    }
}

impl fmt::Display for Compare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Compare::Eq(n) => write!(f, "={n}"),
            Compare::Gt(n) => write!(f, ">{n}"),
            Compare::Ge(n) => write!(f, ">={n}"),
            Compare::Lt(n) => write!(f, "<{n}"),
            Compare::Le(n) => write!(f, "<={n}"),
        }
    }
}

/// Which dice (or group items) count toward the total.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Keep {
    /// `khN` (also `kN`, `k`, `kh`: one).
    Highest(u32),
    /// `klN` (`kl`: one).
    Lowest(u32),
    /// `dlN` (also `dN`, `d`, `dl`: one).
    DropLowest(u32),
    /// `dhN` (`dh`: one).
    DropHighest(u32),
}

impl Keep {
    /// How many of `n` are kept, and whether the highest are.
    pub(crate) fn kept_of(self, n: u32) -> (u32, bool) {
        match self {
            Keep::Highest(k) => (k.min(n), true),
            Keep::Lowest(k) => (k.min(n), false),
            Keep::DropLowest(d) => (n.saturating_sub(d), true),
            Keep::DropHighest(d) => (n.saturating_sub(d), false),
        }
    }

    /// The number written after the letters.
    pub fn number(self) -> u32 {
        match self {
            Keep::Highest(k) | Keep::Lowest(k) | Keep::DropLowest(k) | Keep::DropHighest(k) => k,
        }
    }
}

impl fmt::Display for Keep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Keep::Highest(k) => write!(f, "kh{k}"),
            Keep::Lowest(k) => write!(f, "kl{k}"),
            Keep::DropLowest(k) => write!(f, "dl{k}"),
            Keep::DropHighest(k) => write!(f, "dh{k}"),
        }
    }
}

/// `r` / `rr` (until the face no longer matches: Roll20, rpg-dice-roller,
/// Foundry's `rr`) or `ro` (once, keeping the new face: Roll20,
/// rpg-dice-roller, Foundry's `r`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Reroll {
    /// `ro`: reroll once and keep the new face; otherwise reroll until the face
    /// no longer matches.
    pub once: bool,
    /// The faces that are rerolled.
    pub when: Compare,
}

impl fmt::Display for Reroll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.once { "ro" } else { "r" })?;
        self.when.fmt_bare(f)
    }
}

/// How an explosion adds up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ExplodeStyle {
    /// The Core Rules' exploding damage (`!`, also `!p`, "penetrating"): an
    /// exploding throw counts one less (a 6 on a d6 counts 5) and the die
    /// is thrown again.
    Core,
    /// The common reading (`!!`, `!>=N`, Foundry's `x`): the full face is
    /// added and the die is thrown again.
    Full,
}

/// An explosion: the style and what triggers it (`None`: the die's
/// highest face).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Explode {
    /// Whether an exploding throw counts in full or one less.
    pub style: ExplodeStyle,
    /// The faces that explode; `None` for the die's highest face.
    pub on: Option<Compare>,
}

impl fmt::Display for Explode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.style, self.on) {
            (ExplodeStyle::Core, None) => f.write_str("!"),
            (ExplodeStyle::Core, Some(c)) => {
                f.write_str("!p")?;
                c.fmt_bare(f)
            }
            (ExplodeStyle::Full, None) => f.write_str("!!"),
            (ExplodeStyle::Full, Some(c)) => {
                f.write_str("!!")?;
                c.fmt_bare(f)
            }
        }
    }
}

/// Counting instead of adding: each kept die (or group item) that matches
/// `success` counts 1; one that matches `failure` (and not `success`)
/// counts −1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// What a counting die (or item) must show to count 1.
    pub success: Compare,
    /// What makes it count −1 (`f<=1`), if anything.
    pub failure: Option<Compare>,
}

impl Tally {
    /// What one die (or item) showing `v` counts.
    pub fn score(self, v: i64) -> i64 {
        if self.success.matches(v) {
            1
        } else if self.failure.is_some_and(|c| c.matches(v)) {
            -1
        } else {
            0
        }
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.success.fmt(f)?;
        if let Some(c) = self.failure {
            f.write_str("f")?;
            c.fmt_bare(f)?;
        }
        Ok(())
    }
}

/// Display order of the dice in the trail (`sa`/`s`, `sd`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Sort {
    /// Lowest first (`s`, `sa`).
    Ascending,
    /// Highest first (`sd`).
    Descending,
}

/// Everything written after a dice term or a group, and the leading
/// multiplier (`2*1d8`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Mods {
    /// `N*` before the term: its value is multiplied (1 when not written).
    pub times: u32,
    /// `r`/`ro`: faces thrown again.
    pub reroll: Option<Reroll>,
    /// `minN`: a throw below N counts N.
    pub min: Option<i64>,
    /// `maxN`: a throw above N counts N.
    pub max: Option<i64>,
    /// `!`, `!!`, `!p`: exploding dice.
    pub explode: Option<Explode>,
    /// `kh`/`kl`/`dh`/`dl`: dice (or items) kept or dropped by value.
    pub keep: Option<Keep>,
    /// `>=N` (with `fN`): dice counted as successes and failures instead of
    /// added.
    pub tally: Option<Tally>,
    /// `s`/`sd`: the order the trail shows the dice in.
    pub sort: Option<Sort>,
    /// `[fire]`: a label carried to the trail; it changes nothing.
    pub label: Option<String>,
}

impl Mods {
    /// No modifier at all.
    pub fn none() -> Mods {
        Mods {
            times: 1,
            ..Mods::default()
        }
    }

    /// Whether only the Core Rules explosion, keep/drop and a label are
    /// used (the roller's allocation-free path).
    pub(crate) fn is_classic(&self) -> bool {
        self.times == 1
            && self.reroll.is_none()
            && self.min.is_none()
            && self.max.is_none()
            && self.explode.is_none_or(|e| e == CORE_EXPLOSION)
            && self.tally.is_none()
            && self.sort.is_none()
    }

    /// Whether a failure can take the count below zero.
    pub fn signed(&self) -> bool {
        self.tally.is_some_and(|t| t.failure.is_some())
    }

    /// The modifiers written after the term, in canonical order.
    pub(crate) fn fmt_after(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(r) = self.reroll {
            write!(f, "{r}")?;
        }
        if let Some(n) = self.min {
            write!(f, "min{n}")?;
        }
        if let Some(n) = self.max {
            write!(f, "max{n}")?;
        }
        if let Some(e) = self.explode {
            write!(f, "{e}")?;
        }
        if let Some(k) = self.keep {
            write!(f, "{k}")?;
        }
        if let Some(t) = self.tally {
            // `d6!>=8` would read as an explosion on 8 or more: a count
            // right after a bare explosion is written `cs>=8`.
            if self.keep.is_none() && self.explode.is_some_and(|e| e.on.is_none()) {
                f.write_str("cs")?;
            }
            write!(f, "{t}")?;
        }
        match self.sort {
            Some(Sort::Ascending) => f.write_str("sa")?,
            Some(Sort::Descending) => f.write_str("sd")?,
            None => {}
        }
        if let Some(l) = &self.label {
            write!(f, "[{l}]")?;
        }
        Ok(())
    }
}

/// The Core Rules' exploding damage as written `!`.
pub(crate) const CORE_EXPLOSION: Explode = Explode {
    style: ExplodeStyle::Core,
    on: None,
};

/// A die's faces: `dN` (1..=N) or Fudge `dF` (−1, 0, +1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Faces {
    /// A die numbered 1 to N.
    Sides(u32),
    /// A Fudge die: −1, 0 or +1.
    Fudge,
}

impl Faces {
    /// The lowest face (1, or −1 for Fudge).
    pub fn lowest(self) -> i64 {
        match self {
            Faces::Sides(_) => 1,
            Faces::Fudge => -1,
        }
    }

    /// The highest face (N, or +1 for Fudge).
    pub fn highest(self) -> i64 {
        match self {
            Faces::Sides(s) => i64::from(s),
            Faces::Fudge => 1,
        }
    }

    /// How many faces (the die drawn from the stream).
    pub fn count(self) -> u32 {
        match self {
            Faces::Sides(s) => s,
            Faces::Fudge => 3,
        }
    }

    /// The face a stream's `1..=count` draw stands for.
    pub fn face(self, drawn: u32) -> i64 {
        self.lowest() + i64::from(drawn) - 1
    }
}

/// One die's throw rules, as the roller and the exact odds both read them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThrowRule {
    /// The die's faces.
    pub faces: Faces,
    /// The reroll written on the die, if any.
    pub reroll: Option<Reroll>,
    /// `minN`: a lower throw counts N.
    pub min: Option<i64>,
    /// `maxN`: a higher throw counts N.
    pub max: Option<i64>,
}

impl ThrowRule {
    /// Whether a throw can end on `face` (before `min`/`max`): only a
    /// reroll-until takes faces away (a reroll-once can still show any).
    pub(crate) fn keeps_face(&self, face: i64) -> bool {
        !matches!(self.reroll, Some(Reroll { once: false, when }) if when.matches(face))
    }

    /// A face after `min`/`max`.
    pub fn clamp(&self, v: i64) -> i64 {
        let v = self.min.map_or(v, |m| v.max(m));
        self.max.map_or(v, |m| v.min(m))
    }

    /// Faces a reroll-until may end on (`r`, `rr`): `(first, last, hole)` —
    /// every face from `first` to `last` but `hole`. `None` when every face
    /// matches (refused by the parser).
    pub fn allowed(&self) -> Option<(i64, i64, Option<i64>)> {
        let (lo, hi) = (self.faces.lowest(), self.faces.highest());
        let (a, b, hole) = match self.reroll {
            Some(Reroll { once: false, when }) => match when {
                Compare::Eq(n) if n == lo => (lo + 1, hi, None),
                Compare::Eq(n) if n == hi => (lo, hi - 1, None),
                Compare::Eq(n) if (lo..=hi).contains(&n) => (lo, hi, Some(n)),
                Compare::Eq(_) => (lo, hi, None),
                Compare::Gt(n) => (lo, hi.min(n), None),
                Compare::Ge(n) => (lo, hi.min(n - 1), None),
                Compare::Lt(n) => (lo.max(n), hi, None),
                Compare::Le(n) => (lo.max(n + 1), hi, None),
            },
            _ => (lo, hi, None),
        };
        (a <= b && !(a == b && hole == Some(a))).then_some((a, b, hole))
    }

    /// How many faces a reroll-until may end on, and the `i`-th of them
    /// (from 0).
    pub(crate) fn allowed_count(&self) -> u32 {
        match self.allowed() {
            Some((a, b, hole)) => (b - a + 1) as u32 - u32::from(hole.is_some()),
            None => 0,
        }
    }

    /// The `i`-th face (from 0) a reroll-until may end on; panics when no face
    /// is allowed (the parser refuses such dice).
    pub(crate) fn nth_allowed(&self, i: u32) -> i64 {
        let (a, _, hole) = self.allowed().expect("some face is allowed");
        let v = a + i64::from(i);
        match hole {
            Some(h) if v >= h => v + 1,
            _ => v,
        }
    }

    /// The chance of each value a throw can show (index 0 is `lo`), exact:
    /// faces are equally likely; a reroll-until leaves the faces it does not
    /// match equally likely, a reroll-once moves the matching faces' share
    /// onto a fresh throw; `min`/`max` pile the clamped faces onto the bound.
    pub fn chances(&self) -> (i64, Vec<f64>) {
        let lo_face = self.faces.lowest();
        let n = self.faces.count() as usize;
        let each = 1.0 / n as f64;
        let matches = |face: i64| self.reroll.is_some_and(|r| r.when.matches(face));
        // Every face has one of two chances, as it matches the reroll or
        // not; count the faces landing on each value and multiply once
        // (adding 872,195 equal chances one by one drifted by 1e-10).
        let (plain, matching) = match self.reroll {
            Some(Reroll { once: true, .. }) => {
                let again = (0..n).filter(|&i| matches(lo_face + i as i64)).count() as f64 * each;
                (each + again * each, again * each)
            }
            Some(Reroll { once: false, .. }) => {
                let allowed = (0..n).filter(|&i| !matches(lo_face + i as i64)).count();
                (
                    if allowed == 0 {
                        0.0
                    } else {
                        1.0 / allowed as f64
                    },
                    0.0,
                )
            }
            None => (each, each),
        };
        let (lo, hi) = self.range();
        let mut counts = vec![(0u64, 0u64); (hi - lo + 1) as usize];
        for i in 0..n {
            let face = lo_face + i as i64;
            let hit = matches(face);
            // A face that cannot be shown may lie outside the range.
            if (if hit { matching } else { plain }) == 0.0 {
                continue;
            }
            let slot = &mut counts[(self.clamp(face) - lo) as usize];
            if hit {
                slot.1 += 1;
            } else {
                slot.0 += 1;
            }
        }
        let out = counts
            .iter()
            .map(|&(a, b)| a as f64 * plain + b as f64 * matching)
            .collect();
        (lo, out)
    }

    /// Smallest and largest value a throw can show.
    pub fn range(&self) -> (i64, i64) {
        let (lo, hi) = match self.allowed() {
            Some((a, b, _)) => (a, b),
            None => (self.faces.lowest(), self.faces.highest()),
        };
        (self.clamp(lo), self.clamp(hi))
    }

    /// Whether an explosion `e` triggers on a throw showing `v`; `top` is
    /// the highest value a throw can show (`range().1`).
    pub fn explodes(e: Explode, v: i64, top: i64) -> bool {
        match e.on {
            Some(c) => c.matches(v),
            None => v == top,
        }
    }
}
