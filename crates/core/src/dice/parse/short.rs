//! The notations led by a word or a colon: `contest 10 Sybilla=8`,
//! `cp 4+5 & 6` and `1:4` chances. (`save 12` is read where the word is
//! recognised, in [`Parser::expr`].)

use super::{ParseError, Parser};
use crate::dice::ast::{Chance, Contest, Cp, Entrant, Expr};
use crate::dice::limits;

impl Parser<'_> {
    /// `contest 10 8` or `contest Sybilla=10 Theobald=6`.
    pub(super) fn contest(&mut self) -> Result<Expr, ParseError> {
        let mut entrants = Vec::new();
        loop {
            let had_ws = self.skip_ws();
            if self.at_end() {
                break;
            }
            if !had_ws {
                return Err(self.error_here("expected a space between contestants".into(), None));
            }
            let word_start = self.pos;
            let name = self.contestant_name()?;
            let ability = self.number("an ability score", limits::MAX_TARGET)? as u32;
            entrants.push(Entrant { name, ability });
            if entrants.len() > limits::MAX_CONTESTANTS {
                return Err(self.error_since(
                    word_start,
                    format!(
                        "a contest takes at most {} contestants",
                        limits::MAX_CONTESTANTS
                    ),
                    None,
                ));
            }
        }
        if entrants.len() < 2 {
            return Err(self.error_here(
                "a contest needs at least two contestants".into(),
                Some("write their ability scores, e.g. `contest 10 8` or `contest Sybilla=10 Theobald=6`".into()),
            ));
        }
        Ok(Expr::Contest(Contest { entrants }))
    }

    /// `Name=` before a contestant's ability score, if there is one.
    fn contestant_name(&mut self) -> Result<Option<String>, ParseError> {
        if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            return Ok(None);
        }
        let rest = &self.s[self.pos..];
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-' || c == '\''))
            .unwrap_or(rest.len());
        if end == 0 {
            return Err(self.error_here(
                "expected a contestant's ability score, e.g. `10` or `Sybilla=10`".into(),
                None,
            ));
        }
        let name = rest[..end].to_owned();
        self.pos += end;
        if !self.eat('=') {
            return Err(self.error_here(
                format!("expected `=` and an ability score after `{name}`"),
                Some("write contestants as `Name=10` or just `10`".into()),
            ));
        }
        Ok(Some(name))
    }

    /// `cp 18`, `cp 4+5` (one source), `cp 4 & 5` (two sources).
    pub(super) fn cp(&mut self) -> Result<Expr, ParseError> {
        self.skip_ws();
        let mut sources = vec![Vec::new()];
        loop {
            let start = self.pos;
            let v = self.number("a degree of success", limits::MAX_TARGET)? as u32;
            if v == 0 {
                return Err(self.error_since(
                    start,
                    "a degree of success of 0 is a failure and places no status effect".into(),
                    Some("the CP table starts at 1".into()),
                ));
            }
            sources.last_mut().expect("one source").push(v);
            self.skip_ws();
            if self.eat('+') {
                self.skip_ws();
            } else if self.eat('&') || self.eat(',') {
                self.skip_ws();
                sources.push(Vec::new());
            } else {
                break;
            }
            if sources.iter().map(Vec::len).sum::<usize>() >= limits::MAX_TERMS {
                return Err(self.error_here("too many values".into(), None));
            }
        }
        Ok(Expr::Cp(Cp { sources }))
    }

    /// `1:4`: one chance in four.
    pub(super) fn chance(&mut self) -> Result<Expr, ParseError> {
        let start = self.pos;
        let chances = self.number("the number of chances", limits::MAX_SIDES)? as u32;
        self.eat(':');
        let out_of = self.number("how many chances in all", limits::MAX_SIDES)? as u32;
        if out_of == 0 || chances > out_of {
            return Err(self.error_since(
                start,
                format!("`{chances}:{out_of}` is not a chance"),
                Some("write x:y with 1 ≤ y and x ≤ y, e.g. `1:4` for one chance in four".into()),
            ));
        }
        Ok(Expr::Chance(Chance { chances, out_of }))
    }
}
