//! One term of a Roll: a flat number, `NdM` (`d%` for d100, `dF` for
//! Fudge dice) with its modifiers (see `mods`), the `d66`, a leading
//! multiplier (`2*1d8`) or a group (`{3d6,3d6}kh1`).

use super::mods::Target;
use super::{ParseError, Parser};
use crate::dice::ast::{Compare, Dice, Faces, Group, Mods, Term, TermKind, ThrowRule};
use crate::dice::limits;

/// Groups inside groups, at most.
const MAX_GROUP_DEPTH: usize = 4;

/// Math functions the peers have: the name and what to write instead.
const FUNCTIONS: &[(&str, &str)] = &[
    (
        "floor",
        "halving here rounds up (the Engine's rule): write `(2d6+1)/2`; there is no rounding down",
    ),
    ("ceil", "halving already rounds up: write `(2d6+1)/2`"),
    (
        "round",
        "halving rounds up (the Engine's rule): write `(2d6+1)/2`",
    ),
    (
        "abs",
        "a Roll never goes below 0 (the floor), so write the Roll itself",
    ),
    ("min", "keep the lowest with a group: `{1d6,1d8}kl1`"),
    ("max", "keep the highest with a group: `{1d6,1d8}kh1`"),
    ("sqrt", "roll the dice and work the root out yourself"),
    ("pow", "multiply instead, e.g. `d6*2`"),
    ("repeat", "write several expressions: `roll 4d6kh3 4d6kh3`"),
];

impl Parser<'_> {
    pub(super) fn term(&mut self) -> Result<TermKind, ParseError> {
        let start = self.pos;
        if self.peek() == Some('{') {
            return self.group(start, 1);
        }
        if let Some(word) = self.function_word() {
            return Err(self.function_error(word));
        }
        // Either a flat number, a multiplier or a count of dice; a number
        // past u64 is read as u64::MAX so the message can say which limit
        // it breaks.
        self.skip_digits();
        let digits = &self.s[start..self.pos];
        let count = (!digits.is_empty()).then(|| digits.parse::<u64>().unwrap_or(u64::MAX));
        if let Some(times) = count
            && self.multiplier_follows()
        {
            return self.multiplied(start, times);
        }
        match self.peek() {
            Some('d') => {}
            Some('D') if count.is_some() => {
                return Err(self.error_here(
                    "an uppercase `D` (a METTLE pool) cannot be part of a Roll".into(),
                    Some("use a lowercase `d` for Roll dice, e.g. `2d6+4`; write pools on their own, e.g. `5D+2D vs 3`".into()),
                ));
            }
            _ => return self.constant(start, count),
        }
        let count = self.dice_count(start, count.unwrap_or(1))?;
        self.bump(); // the `d`
        let faces = self.faces(count)?;
        let mut mods = Mods::none();
        self.modifiers(&mut mods, Target::Dice { count })?;
        // `d66` is the tens-and-units die of table rolls (11-66); there is
        // no 66-sided die.
        if faces == Faces::Sides(66) {
            if count == 1 && mods == Mods::none() {
                return Ok(TermKind::D66);
            }
            return Err(self.error_since(
                start,
                "`d66` is the tens-and-units die (11-66); it takes no count or modifier".into(),
                Some("roll it alone, e.g. `d66`, or add several: `d66+d66`".into()),
            ));
        }
        let dice = Dice { count, faces, mods };
        self.check_dice(start, dice).map(TermKind::Dice)
    }

    /// A math function's name before `(`, if one is here.
    fn function_word(&self) -> Option<&'static str> {
        let word = self.peek_word();
        if word.is_empty() {
            return None;
        }
        let after = self.s[self.pos + word.len()..].trim_start();
        FUNCTIONS
            .iter()
            .map(|&(name, _)| name)
            .find(|name| word.eq_ignore_ascii_case(name) && after.starts_with('('))
    }

    fn function_error(&self, word: &str) -> ParseError {
        let instead = FUNCTIONS
            .iter()
            .find(|(name, _)| *name == word)
            .map_or("", |(_, i)| i);
        self.error(
            self.pos,
            word.len(),
            format!("the math function `{word}(…)` is not supported"),
            Some(instead.into()),
        )
    }

    /// `*` then dice or a group (`2*1d8`, `3*{d6,d6}kh1`): a leading
    /// multiplier. A `*` before a plain number is left for the Roll.
    fn multiplier_follows(&self) -> bool {
        let rest = &self.s[self.pos..];
        let Some(after) = rest.strip_prefix('*') else {
            return false;
        };
        let after = after.trim_start_matches(|c: char| c.is_ascii_digit());
        after.starts_with('d') || rest[1..].starts_with('{')
    }

    fn multiplied(&mut self, start: usize, times: u64) -> Result<TermKind, ParseError> {
        if times == 0 || times > limits::MAX_SCALE {
            return Err(self.over_limit(
                start,
                format!(
                    "a multiplier of {} is out of range; it is 1 to {}",
                    &self.s[start..self.pos],
                    limits::MAX_SCALE
                ),
            ));
        }
        self.bump(); // the `*`
        let inner_at = self.pos;
        let mut kind = self.term()?;
        let mods = match &mut kind {
            TermKind::Dice(d) => &mut d.mods,
            TermKind::Group(g) => &mut g.mods,
            _ => {
                return Err(self.error_since(
                    inner_at,
                    "a leading multiplier goes before dice or a group, e.g. `2*1d8`".into(),
                    None,
                ));
            }
        };
        if mods.times != 1 {
            return Err(self.error_since(start, "one multiplier per term".into(), None));
        }
        mods.times = times as u32;
        Ok(kind)
    }

    /// `{a, b, …}` and its modifiers; `depth` counts enclosing groups.
    fn group(&mut self, start: usize, depth: usize) -> Result<TermKind, ParseError> {
        if depth > MAX_GROUP_DEPTH {
            return Err(
                self.error_here(format!("groups nest at most {MAX_GROUP_DEPTH} deep"), None)
            );
        }
        self.bump(); // the `{`
        let mut items = Vec::new();
        loop {
            self.skip_ws();
            items.push(self.group_item(depth)?);
            self.skip_ws();
            if items.len() > limits::MAX_TERMS {
                return Err(self.error_since(
                    start,
                    format!("a group takes at most {} items", limits::MAX_TERMS),
                    None,
                ));
            }
            if self.eat(',') {
                continue;
            }
            if self.eat('}') {
                break;
            }
            let found = self.found();
            return Err(self.error_here(
                format!("expected `,` or `}}` in a group, found {found}"),
                Some("a group lists sums between braces: `{3d6, 2d8+1}kh1`".into()),
            ));
        }
        let mut mods = Mods::none();
        let n = items.len() as u32;
        self.modifiers(&mut mods, Target::Group { items: n })?;
        Ok(TermKind::Group(Group { items, mods }))
    }

    /// One item of a group: signed terms, a nested group allowed.
    fn group_item(&mut self, depth: usize) -> Result<Vec<Term>, ParseError> {
        let mut terms = Vec::new();
        loop {
            let negative = if terms.is_empty() {
                self.eat('-')
            } else {
                self.skip_ws();
                let negative = match self.peek() {
                    Some('+') => false,
                    Some('-') => true,
                    _ => return Ok(terms),
                };
                self.bump();
                negative
            };
            self.skip_ws();
            let at = self.pos;
            let kind = if self.peek() == Some('{') {
                self.group(at, depth + 1)?
            } else {
                self.term()?
            };
            terms.push(Term { negative, kind });
            if terms.len() > limits::MAX_TERMS {
                return Err(self.error_since(
                    at,
                    format!("a group item takes at most {} terms", limits::MAX_TERMS),
                    None,
                ));
            }
        }
    }

    /// A die's modifiers checked against its faces: a bare `r` rerolls the
    /// lowest face; no reroll or explosion may go on forever; `min`/`max`
    /// stay on the die.
    fn check_dice(&self, start: usize, mut dice: Dice) -> Result<Dice, ParseError> {
        let (lo, hi) = (dice.faces.lowest(), dice.faces.highest());
        let name = &self.s[start..self.pos];
        if let Some(r) = dice.mods.reroll.as_mut()
            && r.when == Compare::Eq(i64::MIN)
        {
            r.when = Compare::Eq(lo);
        }
        for (n, word) in [(dice.mods.min, "min"), (dice.mods.max, "max")] {
            if let Some(n) = n
                && !(lo..=hi).contains(&n)
            {
                return Err(self.error_since(
                    start,
                    format!("`{word}{n}` is outside the die's faces ({lo} to {hi})"),
                    Some(format!("write a face of the die, e.g. `{word}{lo}`")),
                ));
            }
        }
        if let (Some(a), Some(b)) = (dice.mods.min, dice.mods.max)
            && a > b
        {
            return Err(self.error_since(start, format!("`min{a}` is above `max{b}`"), None));
        }
        let rule = dice.throw_rule();
        if rule.allowed_count() == 0 {
            return Err(self.error_since(
                start,
                format!("every face of `{name}` is rerolled, so it would reroll forever"),
                Some("reroll only some faces, e.g. `d6r1` or `d6r<3`".into()),
            ));
        }
        if let Some(e) = dice.mods.explode {
            // Stops at the first face that does not explode: the lowest,
            // nearly always, so no work grows with the die's size.
            let top = rule.range().1;
            let all = (lo..=hi)
                .filter(|&face| rule.keeps_face(face))
                .all(|face| ThrowRule::explodes(e, rule.clamp(face), top));
            if all {
                return Err(self.error_since(
                    start,
                    format!("every throw of `{name}` explodes, so it would explode forever"),
                    Some("explode on some faces only, e.g. `d6!` or `d10!>=9`".into()),
                ));
            }
        }
        Ok(dice)
    }

    /// A term with no `d` after it: the number read from `start` (if any)
    /// as a flat bonus or penalty.
    fn constant(&self, start: usize, number: Option<u64>) -> Result<TermKind, ParseError> {
        match number {
            Some(v) if v <= limits::MAX_BONUS => Ok(TermKind::Const(v)),
            Some(_) => Err(self.over_limit(
                start,
                format!(
                    "the number {} is too large; the limit is {}",
                    &self.s[start..self.pos],
                    limits::MAX_BONUS
                ),
            )),
            None => {
                let found = self.found();
                Err(self.error_here(
                    format!("expected a die such as `d6` or a number, found {found}"),
                    None,
                ))
            }
        }
    }

    /// The count before a `d`, read from `start`: 1 to the dice limit.
    fn dice_count(&self, start: usize, count: u64) -> Result<u32, ParseError> {
        if count > limits::MAX_DICE {
            return Err(self.over_limit(
                start,
                format!(
                    "{} dice is too many; the limit is {}",
                    &self.s[start..self.pos],
                    limits::MAX_DICE
                ),
            ));
        }
        if count == 0 {
            return Err(self.error_since(
                start,
                "a Roll of zero dice".into(),
                Some("roll at least one die, or write a plain number".into()),
            ));
        }
        Ok(count as u32)
    }

    /// The die after the `d`: a number of sides, `%` (100) or `F` (Fudge).
    fn faces(&mut self, count: u32) -> Result<Faces, ParseError> {
        if self.eat('F') || self.eat('f') {
            return Ok(Faces::Fudge);
        }
        self.sides(count).map(Faces::Sides)
    }

    /// The die size after the `d`: a number or `%`.
    fn sides(&mut self, count: u32) -> Result<u32, ParseError> {
        let sides_at = self.pos;
        if self.eat('%') {
            return Ok(100);
        }
        if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
            let hint = if self.peek().is_none_or(|c| !c.is_alphanumeric()) {
                format!(
                    "write the die size, e.g. `{count}d6`; for a METTLE pool use an uppercase D: `{count}D`"
                )
            } else {
                "write the die size after the `d`, e.g. `d6`".into()
            };
            return Err(
                self.error_here("expected the number of sides after `d`".into(), Some(hint))
            );
        }
        let sides = self.number("a die size", u64::MAX)?;
        if sides > limits::MAX_SIDES {
            return Err(self.over_limit(
                sides_at,
                format!(
                    "a die with {sides} sides is too large; the limit is {}",
                    limits::MAX_SIDES
                ),
            ));
        }
        if sides == 0 {
            return Err(self.error_since(
                sides_at,
                "a die needs at least one side".into(),
                Some("e.g. `d6`".into()),
            ));
        }
        Ok(sides as u32)
    }
}
