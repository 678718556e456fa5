//! One term of a Roll: a flat number, or `NdM` (`d%` for d100) with an
//! optional `!` (explode) and `khN`/`klN` (keep), or the `d66`.

use super::{ParseError, Parser};
use crate::dice::ast::{Keep, TermKind};
use crate::dice::limits;

impl Parser<'_> {
    pub(super) fn term(&mut self) -> Result<TermKind, ParseError> {
        let start = self.pos;
        // Either a flat number or a count of dice; a number past u64 is
        // read as u64::MAX so the message can say which limit it breaks.
        self.skip_digits();
        let digits = &self.s[start..self.pos];
        let count = (!digits.is_empty()).then(|| digits.parse::<u64>().unwrap_or(u64::MAX));
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
        let sides = self.sides(count)?;
        let explode = self.eat('!');
        if explode && sides == 1 {
            return Err(self.error_since(
                start,
                "a one-sided die always rolls its maximum, so it would explode forever".into(),
                Some("explode a die with two or more sides, e.g. `d6!`".into()),
            ));
        }
        let keep = self.keep(count)?;
        // `d66` is the tens-and-units die of table rolls (11-66); there is
        // no 66-sided die.
        if sides == 66 {
            if count == 1 && !explode && keep.is_none() {
                return Ok(TermKind::D66);
            }
            return Err(self.error_since(
                start,
                "`d66` is the tens-and-units die (11-66); it takes no count, `!` or keep".into(),
                Some("roll it alone, e.g. `d66`, or add several: `d66+d66`".into()),
            ));
        }
        if let Some(c) = self.peek().filter(|c| c.is_alphanumeric() || *c == '!') {
            return Err(self.error_here(
                format!("unexpected `{c}` after a die"),
                Some(
                    "a die may be followed by `!` (explode) and `khN`/`klN` (keep), in that order"
                        .into(),
                ),
            ));
        }
        Ok(TermKind::Dice {
            count,
            sides,
            explode,
            keep,
        })
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

    /// `khN` or `klN` after a die, if there is one.
    fn keep(&mut self, count: u32) -> Result<Option<Keep>, ParseError> {
        let keep_at = self.pos;
        if self.peek() != Some('k') {
            return Ok(None);
        }
        let highest = match self.peek_at(1) {
            Some('h') => true,
            Some('l') => false,
            _ => {
                return Err(self.error(
                    keep_at,
                    1,
                    "expected `kh` (keep highest) or `kl` (keep lowest)".into(),
                    Some("e.g. `4d6kh3`".into()),
                ));
            }
        };
        self.bump();
        self.bump();
        let k = self.number("how many dice to keep", limits::MAX_DICE)? as u32;
        if k == 0 || k > count {
            return Err(self.error_since(
                keep_at,
                format!("cannot keep {k} of {count} dice"),
                Some(format!("keep between 1 and {count}")),
            ));
        }
        Ok(Some(if highest {
            Keep::Highest(k)
        } else {
            Keep::Lowest(k)
        }))
    }
}
