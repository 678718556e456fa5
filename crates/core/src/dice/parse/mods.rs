//! The modifiers after a die or a group, in any order, each at most once:
//! `!`, `!!`, `!p`, `!>=N`, `x` (explosions), `r`, `rr`, `ro` (rerolls),
//! `minN`, `maxN`, `k`, `kh`, `kl`, `d`, `dl`, `dh` (keep and drop),
//! `>=N`, `cs>=N`, `cf<N`, `f<N`, `df<N` (counting), `s`, `sa`, `sd`
//! (sorting) and `[label]`. Modifiers the peers have and this notation does
//! not are named in the error, with what to write instead.

use super::{ParseError, Parser};
use crate::dice::ast::{Compare, Explode, ExplodeStyle, Keep, Mods, Reroll, Sort, Tally};
use crate::dice::limits;

/// Longest label (`[fire]`), in bytes.
const MAX_LABEL: usize = 60;

/// Modifiers that the peers have and this notation refuses: the text that
/// starts them, the feature's name, and what to write instead.
const UNSUPPORTED: &[(&str, &str, &str)] = &[
    (
        "xo",
        "explode once (`xo`)",
        "write `!!` to explode on every maximum, or `ro` to reroll once",
    ),
    (
        "!o",
        "explode once (`!o`)",
        "write `!!` to explode on every maximum, or `ro` to reroll once",
    ),
    (
        "mt",
        "counting matches (`mt`)",
        "count a face with `=N`, e.g. `5d6=6`",
    ),
    (
        "ms",
        "margin of success (`ms`)",
        "subtract the target yourself, e.g. `d20-12`",
    ),
    (
        "sf",
        "subtracting failures from the total (`sf`)",
        "count successes and failures with `>=8f1`",
    ),
    (
        "even",
        "counting even faces (`even`)",
        "count faces with a comparison, e.g. `>=4`",
    ),
    (
        "odd",
        "counting odd faces (`odd`)",
        "count faces with a comparison, e.g. `>=4`",
    ),
    ("uo", "unique rolls (`uo`)", "roll the dice as they fall"),
    ("u", "unique rolls (`u`)", "roll the dice as they fall"),
    (
        "m",
        "marking matches (`m`)",
        "count a face with `=N`, e.g. `5d6=6`",
    ),
];

/// What a modifier may apply to.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Target {
    Dice { count: u32 },
    Group { items: u32 },
}

impl Parser<'_> {
    /// Read every modifier after a die or a group into `mods`.
    pub(super) fn modifiers(&mut self, mods: &mut Mods, target: Target) -> Result<(), ParseError> {
        loop {
            let at = self.pos;
            let Some(c) = self.peek() else { return Ok(()) };
            match c {
                '!' | 'x' | 'X' => self.explode_mod(mods, target)?,
                'r' => self.reroll_mod(mods, target)?,
                'k' => self.keep_mod(mods, target, true)?,
                'd' => self.drop_or_deduct(mods, target)?,
                '>' | '<' | '=' => self.count_mod(mods, None)?,
                'c' if self.rest().starts_with("cs") || self.rest().starts_with("cf") => {
                    self.pos += 2;
                    self.count_mod(mods, Some(at))?
                }
                'f' => self.failure_mod(mods, at)?,
                's' if !self.rest().starts_with("sf") => self.sort_mod(mods)?,
                'm' if self.rest().starts_with("min") || self.rest().starts_with("max") => {
                    self.clamp_mod(mods, target)?
                }
                '[' => self.label_mod(mods)?,
                c if c.is_alphanumeric() || c == '!' => return Err(self.unknown_modifier(target)),
                _ => return Ok(()),
            }
            if self.pos == at {
                return Ok(());
            }
        }
    }

    fn rest(&self) -> &str {
        &self.s[self.pos..]
    }

    /// An error for a letter that starts no modifier: the feature's name
    /// when it is a peer's modifier, otherwise the list of modifiers.
    fn unknown_modifier(&self, target: Target) -> ParseError {
        let rest = self.rest();
        for &(start, feature, instead) in UNSUPPORTED {
            if rest.starts_with(start) {
                return self.error(
                    self.pos,
                    start.len(),
                    format!("{feature} is not supported"),
                    Some(instead.into()),
                );
            }
        }
        let c = self.peek().unwrap_or(' ');
        let what = match target {
            Target::Dice { .. } => "a die",
            Target::Group { .. } => "a group",
        };
        self.error_here(
            format!("`{c}` is not a modifier of {what}"),
            Some(MODIFIERS_HINT.into()),
        )
    }

    /// A modifier that only dice take, written after a group.
    fn dice_only(&self, at: usize, target: Target, what: &str) -> Result<(), ParseError> {
        if let Target::Group { .. } = target {
            return Err(self.error(
                at,
                self.pos.max(at + 1) - at,
                format!("{what} applies to dice, not to a group"),
                Some("write it inside the group, after the die, e.g. `{2d6!, 1d8!}kh1`".into()),
            ));
        }
        Ok(())
    }

    fn once(&self, at: usize, taken: bool, what: &str) -> Result<(), ParseError> {
        if taken {
            return Err(self.error(
                at,
                self.pos - at,
                format!("a die takes one {what}"),
                Some("write it once".into()),
            ));
        }
        Ok(())
    }

    /// `>=8`, `>8`, `<3`, `<=3`, `=6` or a bare `6`: a comparison, if one
    /// is here.
    pub(super) fn compare(&mut self) -> Result<Option<Compare>, ParseError> {
        let make: fn(i64) -> Compare = match self.peek() {
            Some('>') => {
                self.bump();
                if self.eat('=') {
                    Compare::Ge
                } else {
                    Compare::Gt
                }
            }
            Some('<') => {
                self.bump();
                if self.eat('=') {
                    Compare::Le
                } else {
                    Compare::Lt
                }
            }
            Some('=') => {
                self.bump();
                Compare::Eq
            }
            Some(c) if c.is_ascii_digit() => Compare::Eq,
            _ => return Ok(None),
        };
        let negative = self.eat('-');
        let n = self.number("a number to compare with", limits::MAX_SIDES)? as i64;
        Ok(Some(make(if negative { -n } else { n })))
    }

    fn explode_mod(&mut self, mods: &mut Mods, target: Target) -> Result<(), ParseError> {
        let at = self.pos;
        let bang = self.bump() == Some('!');
        if self.peek() == Some('o') {
            self.pos = at;
            return Err(self.unknown_modifier(target));
        }
        let style = if !bang || self.eat('!') {
            ExplodeStyle::Full
        } else {
            self.eat('p');
            ExplodeStyle::Core
        };
        let bare_core = bang && self.pos - at == 1;
        let on = self.compare()?;
        // `!>=9` and `!6` follow the common reading: the full face is added.
        let style = if bare_core && on.is_some() {
            ExplodeStyle::Full
        } else {
            style
        };
        self.dice_only(at, target, "an explosion")?;
        self.once(at, mods.explode.is_some(), "explosion")?;
        mods.explode = Some(Explode { style, on });
        Ok(())
    }

    fn reroll_mod(&mut self, mods: &mut Mods, target: Target) -> Result<(), ParseError> {
        let at = self.pos;
        self.bump();
        let once = if self.eat('o') {
            true
        } else {
            self.eat('r');
            false
        };
        let when = self.compare()?;
        self.dice_only(at, target, "a reroll")?;
        self.once(at, mods.reroll.is_some(), "reroll")?;
        mods.reroll = Some(Reroll {
            once,
            // Bare `r`: the lowest face (Foundry, rpg-dice-roller); fixed
            // by the caller, which knows the die.
            when: when.unwrap_or(Compare::Eq(i64::MIN)),
        });
        Ok(())
    }

    /// `k`, `kh`, `kl` (`keep` true) or `d`, `dl`, `dh`, with an optional
    /// number (1 when left out).
    fn keep_mod(&mut self, mods: &mut Mods, target: Target, keep: bool) -> Result<(), ParseError> {
        let at = self.pos;
        self.bump();
        let high = match self.peek() {
            Some('h') => {
                self.bump();
                true
            }
            Some('l') => {
                self.bump();
                false
            }
            _ => keep,
        };
        let n = if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.number("how many to keep or drop", limits::MAX_DICE)? as u32
        } else {
            1
        };
        let rule = match (keep, high) {
            (true, true) => Keep::Highest(n),
            (true, false) => Keep::Lowest(n),
            (false, false) => Keep::DropLowest(n),
            (false, true) => Keep::DropHighest(n),
        };
        self.once(at, mods.keep.is_some(), "keep or drop")?;
        let (units, noun) = match target {
            Target::Dice { count } => (count, "dice"),
            Target::Group { items } => (items, "items"),
        };
        if n == 0 || n > units || (!keep && n == units) {
            let verb = if keep { "keep" } else { "drop" };
            let most = if keep { units } else { units.saturating_sub(1) };
            return Err(self.error_since(
                at,
                format!("cannot {verb} {n} of {units} {noun}"),
                Some(if most == 0 {
                    "a single die cannot drop any: leave the drop out".into()
                } else {
                    format!("{verb} between 1 and {most}")
                }),
            ));
        }
        mods.keep = Some(rule);
        Ok(())
    }

    /// `d…` after a die: drop (`d`, `dl`, `dh`), or `df`, Foundry's deducted
    /// failures (the same as `f`).
    fn drop_or_deduct(&mut self, mods: &mut Mods, target: Target) -> Result<(), ParseError> {
        if self.rest().starts_with("df") {
            let at = self.pos;
            self.pos += 1;
            return self.failure_mod(mods, at);
        }
        self.keep_mod(mods, target, false)
    }

    /// A success count: `>=8`, or `cs>=8` / `cf<3` (`from`: where the `cs`
    /// or `cf` started).
    fn count_mod(&mut self, mods: &mut Mods, from: Option<usize>) -> Result<(), ParseError> {
        let at = from.unwrap_or(self.pos);
        let Some(success) = self.compare()? else {
            return Err(self.error_here(
                "expected a comparison after `cs`/`cf`, e.g. `cs>=8`".into(),
                Some("`cs>=8` counts the dice showing 8 or more".into()),
            ));
        };
        self.once(at, mods.tally.is_some(), "count")?;
        mods.tally = Some(Tally {
            success,
            failure: None,
        });
        Ok(())
    }

    /// `f<2`, `f1`: each die that matches (and is no success) takes one
    /// success away (Roll20, rpg-dice-roller; Foundry's `df`).
    fn failure_mod(&mut self, mods: &mut Mods, at: usize) -> Result<(), ParseError> {
        self.bump();
        let failure = self.compare()?;
        let Some(failure) = failure else {
            return Err(self.error_here(
                "expected a comparison after `f`, e.g. `f1` or `f<2`".into(),
                None,
            ));
        };
        let Some(tally) = mods.tally.as_mut() else {
            return Err(self.error_since(
                at,
                "failures are counted against successes: write the success first".into(),
                Some("e.g. `5d10>=8f1` counts 8+ as a success and each 1 as one less".into()),
            ));
        };
        if tally.failure.is_some() {
            return Err(self.error_since(at, "a die takes one failure rule".into(), None));
        }
        tally.failure = Some(failure);
        Ok(())
    }

    fn sort_mod(&mut self, mods: &mut Mods) -> Result<(), ParseError> {
        let at = self.pos;
        self.bump();
        let sort = if self.eat('d') {
            Sort::Descending
        } else {
            self.eat('a');
            Sort::Ascending
        };
        self.once(at, mods.sort.is_some(), "sort")?;
        mods.sort = Some(sort);
        Ok(())
    }

    fn clamp_mod(&mut self, mods: &mut Mods, target: Target) -> Result<(), ParseError> {
        let at = self.pos;
        let is_min = self.rest().starts_with("min");
        self.pos += 3;
        let negative = self.eat('-');
        let n = self.number("a face value", limits::MAX_SIDES)? as i64;
        let n = if negative { -n } else { n };
        self.dice_only(at, target, if is_min { "`min`" } else { "`max`" })?;
        let slot = if is_min { &mut mods.min } else { &mut mods.max };
        self.once(at, slot.is_some(), if is_min { "`min`" } else { "`max`" })?;
        *slot = Some(n);
        Ok(())
    }

    fn label_mod(&mut self, mods: &mut Mods) -> Result<(), ParseError> {
        let at = self.pos;
        self.bump();
        let Some(end) = self.rest().find(']') else {
            return Err(self.error(
                at,
                1,
                "a label's `[` is never closed".into(),
                Some("write a label as `2d6[fire]`".into()),
            ));
        };
        let text = self.rest()[..end].to_owned();
        if text.len() > MAX_LABEL
            || text.is_empty()
            || text
                .chars()
                .any(|c| c.is_control() || matches!(c, '[' | '{' | '}'))
        {
            return Err(self.error(
                at,
                end + 2,
                format!("a label is 1 to {MAX_LABEL} bytes of plain text"),
                Some("e.g. `2d6[fire]`".into()),
            ));
        }
        self.pos += end + 1;
        self.once(at, mods.label.is_some(), "label")?;
        mods.label = Some(text);
        Ok(())
    }
}

/// The list of modifiers, for errors.
pub(super) const MODIFIERS_HINT: &str = "after a die: `!` `!!` `!p` `!>=N` `x` (explode), `r` `rr` `ro` (reroll), `minN` `maxN`, `kN` `khN` `klN` `dN` `dlN` `dhN` (keep/drop), `>=N` `cs>=N` `f<N` (count), `s` `sd` (sort), `[label]`";
