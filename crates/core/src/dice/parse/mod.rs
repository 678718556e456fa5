//! The notation parser: text → [`Expr`], with errors that point at the
//! character that is wrong and say what to write instead.
//!
//! Case matters where the rules say it does: a lowercase `d` is a Roll
//! (`3d6`), an uppercase `D` is a METTLE pool (`5D`). Words (`vs`, `save`,
//! `raise`, Difficulty names…) are read in any case.
//!
//! Modules:
//! - `error`: [`ParseError`] and the [`Diagnostic`](crate::diagnostic::Diagnostic)
//!   it is shown as.
//! - `lexer`: the cursor over the text — characters, words, numbers, and
//!   errors pointed at a span.
//! - `rolls`: a Roll as a whole — signed terms, brackets, `d20<=N`, halving
//!   or doubling, enhanced/impaired words, the dice limit.
//! - `terms`: one term of a Roll — a number, `NdM`, `NdF`, `d66`, a leading
//!   multiplier, a group `{…}`, math functions named in errors.
//! - `mods`: the modifiers after a die or a group (explode, reroll,
//!   keep/drop, count, `min`/`max`, sort, label), peers' others named in
//!   errors.
//! - `pools`: METTLE pools — `5D+2D+3`, `vs`, `raise`, `twist`, `team`, the
//!   Difficulty ladder.
//! - `short`: the one-word notations — `contest`, `cp` and `x:y` chances.
//! - `tests`: the error text to the byte, and diagnostics for files.

mod error;
mod lexer;
mod mods;
mod pools;
mod rolls;
mod short;
mod terms;

pub use error::ParseError;

use super::ast::{Expr, Save};
use super::limits;

/// Parse one expression in any of the notations.
pub fn parse(input: &str) -> Result<Expr, ParseError> {
    if input.len() > limits::MAX_EXPR_BYTES {
        return Err(ParseError {
            input: input.chars().take(60).collect::<String>() + "…",
            at: 0,
            len: 1,
            message: format!(
                "the expression is {} bytes long; the limit is {}",
                input.len(),
                limits::MAX_EXPR_BYTES
            ),
            hint: Some("split it into several expressions".into()),
        });
    }
    let mut p = Parser { s: input, pos: 0 };
    let expr = p.expr()?;
    p.skip_ws();
    if p.pos < input.len() {
        return Err(p.trailing());
    }
    Ok(expr)
}

/// The text being read and the byte offset reached.
struct Parser<'a> {
    s: &'a str,
    pos: usize,
}

/// Operators the peers have after a term: the text, the feature's name and
/// what to write instead.
const OPERATORS: &[(&str, &str, &str)] = &[
    ("**", "powers (`**`)", "multiply instead, e.g. `d6*2`"),
    ("^", "powers (`^`)", "multiply instead, e.g. `d6*2`"),
    (
        "%",
        "the remainder operator (`%`)",
        "`d%` is a d100; there is no remainder",
    ),
    (
        "[",
        "a label on a number",
        "label dice or a group, e.g. `2d6[fire]+3`",
    ),
    (
        "#",
        "comments (`#`)",
        "leave the comment out, or label the dice: `2d6[fire]`",
    ),
];

impl Parser<'_> {
    /// The error for text left after a complete expression: the feature it
    /// looks like when a peer has it, otherwise "unexpected".
    fn trailing(&self) -> ParseError {
        let rest = &self.s[self.pos..];
        for &(op, feature, instead) in OPERATORS {
            if rest.starts_with(op) {
                return self.error(
                    self.pos,
                    op.len(),
                    format!("{feature} is not supported"),
                    Some(instead.into()),
                );
            }
        }
        let c = self.peek().unwrap_or(' ');
        self.error_here(
            format!("unexpected `{c}` after a complete expression"),
            Some(
                "remove it, or check the notation table in the guide, Dice notation and exact odds"
                    .into(),
            ),
        )
    }

    /// Any expression: the leading word or the character after a leading
    /// number says which notation it is.
    fn expr(&mut self) -> Result<Expr, ParseError> {
        self.skip_ws();
        if self.at_end() {
            return Err(self.error_here(
                "the expression is empty".into(),
                Some("try `3d6`, `5D vs 3`, `save 12` or `1:4`".into()),
            ));
        }
        let word = self.peek_word();
        if word.eq_ignore_ascii_case("save") {
            self.pos += word.len();
            self.skip_ws();
            let target = self.number("a save target", limits::MAX_TARGET)? as u32;
            return Ok(Expr::Save(Save { target }));
        }
        if word.eq_ignore_ascii_case("contest") {
            self.pos += word.len();
            return self.contest();
        }
        if word.eq_ignore_ascii_case("cp") {
            self.pos += word.len();
            return self.cp();
        }
        // A number followed by `D` is a pool, by `:` a chance.
        let rest = &self.s[self.pos..];
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        if digits > 0 {
            match rest[digits..].chars().next() {
                Some('D') => return self.pool(),
                Some(':') => return self.chance(),
                _ => {}
            }
        }
        self.roll()
    }
}

#[cfg(test)]
mod tests;
