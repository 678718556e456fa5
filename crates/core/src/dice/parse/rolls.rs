//! A Roll as a whole: signed terms, an optional bracket, the `d20<=N` save
//! notation, halving or doubling (`/2`, `*2`), the `enhanced`/`impaired`
//! words, and the limit on dice thrown.

use super::{ParseError, Parser};
use crate::dice::ast::{Compare, Dice, Expr, Roll, Save, Scale, Tally, Term, TermKind};
use crate::dice::limits;

impl Parser<'_> {
    pub(super) fn roll(&mut self) -> Result<Expr, ParseError> {
        let start = self.pos;
        let parens = self.eat('(');
        if parens {
            self.skip_ws();
        }
        let terms = self.terms()?;
        if parens {
            self.close_bracket()?;
        }
        // `d20<=12` is the save notation.
        if !parens && let Some(target) = save_target(&terms) {
            return Ok(Expr::Save(Save { target }));
        }
        let save = self.pos;
        self.skip_ws();
        if self.s[self.pos..].starts_with("<=") {
            return self.roll_under(start, parens, terms);
        }
        self.pos = save;
        let scale = self.scale(terms.len(), parens)?;
        let mut roll = Roll {
            terms,
            scale,
            enhanced: 0,
            impaired: 0,
        };
        self.quality_words(&mut roll)?;
        if roll.dice_count() > limits::MAX_DICE {
            return Err(self.over_limit(
                start,
                format!(
                    "this Roll throws {} dice; the limit is {}",
                    roll.dice_count(),
                    limits::MAX_DICE
                ),
            ));
        }
        Ok(Expr::Roll(roll))
    }

    /// The signed terms of a Roll, up to the first thing that is not a sign.
    fn terms(&mut self) -> Result<Vec<Term>, ParseError> {
        let mut terms = Vec::new();
        loop {
            let sign_at = self.pos;
            let Some(negative) = self.sign(terms.is_empty()) else {
                return Ok(terms);
            };
            terms.push(Term {
                negative,
                kind: self.term()?,
            });
            if terms.len() > limits::MAX_TERMS {
                return Err(self.error_since(
                    sign_at,
                    format!("a Roll takes at most {} terms", limits::MAX_TERMS),
                    None,
                ));
            }
        }
    }

    /// The sign before a term (whether it is negative), or `None` when no
    /// further term follows. The first term may have a `-`; later ones need
    /// `+` or `-`, with spaces around allowed.
    fn sign(&mut self, first: bool) -> Option<bool> {
        if first {
            return Some(self.eat('-'));
        }
        let save = self.pos;
        self.skip_ws();
        let negative = match self.peek() {
            Some('+') => false,
            Some('-') => true,
            _ => {
                self.pos = save;
                return None;
            }
        };
        self.bump();
        self.skip_ws();
        Some(negative)
    }

    fn close_bracket(&mut self) -> Result<(), ParseError> {
        self.skip_ws();
        if !self.eat(')') {
            return Err(self.error_here(
                "expected `)` to close the bracket".into(),
                Some("brackets wrap a whole Roll before halving, e.g. `(2d6+1)/2`".into()),
            ));
        }
        Ok(())
    }

    /// `d20<=12`, read at the `<=`: the Roll before it must be one d20.
    fn roll_under(
        &mut self,
        start: usize,
        parens: bool,
        terms: Vec<Term>,
    ) -> Result<Expr, ParseError> {
        let d20 = Term {
            negative: false,
            kind: TermKind::Dice(Dice::plain(1, 20)),
        };
        if parens || terms.len() != 1 || terms[0] != d20 {
            let lhs = Roll {
                terms,
                scale: Scale::None,
                enhanced: 0,
                impaired: 0,
            };
            return Err(self.error_since(
                start,
                format!("only a single d20 can be rolled under a target, not `{lhs}`"),
                Some("write a save as `d20<=12` or `save 12`; to count dice, put the comparison right after the die, e.g. `d100<=45`".into()),
            ));
        }
        self.pos += 2;
        self.skip_ws();
        let target = self.number("a save target", limits::MAX_TARGET)? as u32;
        Ok(Expr::Save(Save { target }))
    }

    /// `/N` or `*N` after the terms (a sum of several needs brackets).
    fn scale(&mut self, terms: usize, parens: bool) -> Result<Scale, ParseError> {
        let scale_at = self.pos;
        let Some(op) = self.peek().filter(|c| matches!(c, '/' | '*')) else {
            return Ok(Scale::None);
        };
        if terms > 1 && !parens {
            return Err(self.error_here(
                format!("`{op}` after a sum of several terms is ambiguous"),
                Some(
                    "wrap the Roll in brackets to halve or double all of it, e.g. `(2d6+4)/2`"
                        .into(),
                ),
            ));
        }
        self.bump();
        let n = self.number("a divisor or multiplier", limits::MAX_SCALE)? as u32;
        if n == 0 {
            return Err(self.error_since(scale_at, "cannot divide or multiply by 0".into(), None));
        }
        Ok(if op == '/' {
            Scale::Divide(n)
        } else {
            Scale::Multiply(n)
        })
    }

    /// ` enhanced` and ` impaired`, each after a space, any number of times.
    fn quality_words(&mut self, roll: &mut Roll) -> Result<(), ParseError> {
        loop {
            let save = self.pos;
            if !self.skip_ws() {
                return Ok(());
            }
            if self.eat_word("enhanced") {
                roll.enhanced += 1;
            } else if self.eat_word("impaired") {
                roll.impaired += 1;
            } else {
                self.pos = save;
                return Ok(());
            }
            if roll.enhanced + roll.impaired > limits::MAX_QUALITY_WORDS {
                return Err(self.error_here("too many enhanced/impaired words".into(), None));
            }
        }
    }
}

/// The target of `d20<=N` written as one term: a d20 counting `<=N` and
/// nothing else is the Core Rules save (pass on N or less).
fn save_target(terms: &[Term]) -> Option<u32> {
    let [term] = terms else { return None };
    let TermKind::Dice(d) = &term.kind else {
        return None;
    };
    // Looked at before anything is cloned: nearly every Roll stops here.
    let Some(Tally {
        success: Compare::Le(n),
        failure: None,
    }) = d.mods.tally
    else {
        return None;
    };
    let mut plain = d.clone();
    plain.mods.tally = None;
    (!term.negative && plain == Dice::plain(1, 20) && (0..=limits::MAX_TARGET as i64).contains(&n))
        .then_some(n as u32)
}
