//! The notation parser: text → [`Expr`], with errors that point at the
//! character that is wrong and say what to write instead.
//!
//! Case matters where the rules say it does: a lowercase `d` is a Roll
//! (`3d6`), an uppercase `D` is a METTLE pool (`5D`). Words (`vs`, `save`,
//! `raise`, Difficulty names…) are read in any case.

use std::fmt;

use super::ast::*;
use super::limits;

/// A parse or limit error, with the position of the offending text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub input: String,
    /// Byte offset of the first wrong character.
    pub at: usize,
    /// Byte length of the wrong text (at least 1 when inside the input).
    pub len: usize,
    pub message: String,
    pub hint: Option<String>,
}

impl ParseError {
    /// Column (in characters, from 1) of the wrong text.
    pub fn column(&self) -> usize {
        self.input[..self.at.min(self.input.len())].chars().count() + 1
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "cannot read `{}` (column {}): {}",
            self.input,
            self.column(),
            self.message
        )?;
        let width = self.input[self.at.min(self.input.len())..]
            .chars()
            .take(self.len.max(1))
            .count()
            .max(1);
        let clipped: String = self
            .input
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        writeln!(f, "    {clipped}")?;
        write!(
            f,
            "    {}{}",
            " ".repeat(self.column() - 1),
            "^".repeat(width.min(40))
        )?;
        if let Some(hint) = &self.hint {
            write!(f, "\n  hint: {hint}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ParseError {}

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
        let c = p.peek().unwrap_or(' ');
        return Err(p.error_here(
            format!("unexpected `{c}` after a complete expression"),
            Some(
                "remove it, or check the notation table in `tablewright --help` / the README"
                    .into(),
            ),
        ));
    }
    Ok(expr)
}

struct Parser<'a> {
    s: &'a str,
    pos: usize,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<char> {
        self.s[self.pos..].chars().next()
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.s[self.pos..].chars().nth(offset)
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn skip_ws(&mut self) -> bool {
        let start = self.pos;
        while matches!(self.peek(), Some(c) if c.is_whitespace()) {
            self.bump();
        }
        self.pos > start
    }

    fn at_end(&self) -> bool {
        self.pos >= self.s.len()
    }

    fn error(&self, at: usize, len: usize, message: String, hint: Option<String>) -> ParseError {
        ParseError {
            input: self.s.to_owned(),
            at,
            len,
            message,
            hint,
        }
    }

    fn error_here(&self, message: String, hint: Option<String>) -> ParseError {
        let len = self.peek().map_or(1, char::len_utf8);
        self.error(self.pos, len, message, hint)
    }

    /// Look at the next alphabetic word without consuming it.
    fn peek_word(&self) -> &'a str {
        let rest = &self.s[self.pos..];
        let end = rest
            .find(|c: char| !(c.is_alphabetic() || c == '_'))
            .unwrap_or(rest.len());
        &rest[..end]
    }

    fn eat_word(&mut self, word: &str) -> bool {
        let w = self.peek_word();
        if w.eq_ignore_ascii_case(word) {
            self.pos += w.len();
            true
        } else {
            false
        }
    }

    /// An unsigned number, with an error pointing at it when it is too big.
    fn number(&mut self, what: &str, max: u64) -> Result<u64, ParseError> {
        let start = self.pos;
        while matches!(self.peek(), Some(c) if c.is_ascii_digit()) {
            self.bump();
        }
        if start == self.pos {
            let found = match self.peek() {
                Some(c) => format!("`{c}`"),
                None => "the end".into(),
            };
            return Err(self.error_here(format!("expected {what}, found {found}"), None));
        }
        let digits = &self.s[start..self.pos];
        let message = match digits.parse::<u64>() {
            Ok(v) if v <= max => return Ok(v),
            Ok(_) => format!("{what} {digits} is too large; the limit is {max}"),
            Err(_) => format!("{what} {digits} is too large"),
        };
        Err(self.error(start, self.pos - start, message, Some(limits::HINT.into())))
    }

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

    fn contest(&mut self) -> Result<Expr, ParseError> {
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
            let name = if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                None
            } else {
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
                Some(name)
            };
            let ability = self.number("an ability score", limits::MAX_TARGET)? as u32;
            entrants.push(Entrant { name, ability });
            if entrants.len() > limits::MAX_CONTESTANTS {
                return Err(self.error(
                    word_start,
                    self.pos - word_start,
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

    fn cp(&mut self) -> Result<Expr, ParseError> {
        self.skip_ws();
        let mut sources = vec![Vec::new()];
        loop {
            let start = self.pos;
            let v = self.number("a degree of success", limits::MAX_TARGET)? as u32;
            if v == 0 {
                return Err(self.error(
                    start,
                    self.pos - start,
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

    fn chance(&mut self) -> Result<Expr, ParseError> {
        let start = self.pos;
        let chances = self.number("the number of chances", limits::MAX_SIDES)? as u32;
        self.eat(':');
        let out_of = self.number("how many chances in all", limits::MAX_SIDES)? as u32;
        if out_of == 0 || chances > out_of {
            return Err(self.error(
                start,
                self.pos - start,
                format!("`{chances}:{out_of}` is not a chance"),
                Some("write x:y with 1 ≤ y and x ≤ y, e.g. `1:4` for one chance in four".into()),
            ));
        }
        Ok(Expr::Chance(Chance { chances, out_of }))
    }

    fn pool(&mut self) -> Result<Expr, ParseError> {
        let start = self.pos;
        let dice = self.number("a pool size", limits::MAX_POOL)? as u32;
        self.eat('D');
        if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            return Err(self.error(
                start,
                self.pos - start + 1,
                "an uppercase `D` is a METTLE pool, which has no die size".into(),
                Some(format!(
                    "write `{dice}D` for a pool, or a lowercase `d` for a Roll such as `{dice}d6`"
                )),
            ));
        }
        let mut pool = Pool {
            dice,
            extra: 0,
            bonus: 0,
            difficulty: None,
            raises: 0,
            twist: false,
            team: Vec::new(),
        };
        let mut extra: i64 = 0;
        // `+2D`, `-1D` modifiers, then an optional `+3` bonus.
        loop {
            let save = self.pos;
            self.skip_ws();
            let sign_at = self.pos;
            let negative = match self.peek() {
                Some('+') => false,
                Some('-') => true,
                _ => {
                    self.pos = save;
                    break;
                }
            };
            self.bump();
            self.skip_ws();
            let num_at = self.pos;
            let v = self.number("a number", limits::MAX_POOL)?;
            if self.eat('D') {
                extra += if negative { -(v as i64) } else { v as i64 };
                if extra.unsigned_abs() > limits::MAX_POOL {
                    return Err(self.error(
                        num_at,
                        self.pos - num_at,
                        format!("die modifiers add up to more than {}", limits::MAX_POOL),
                        Some(limits::HINT.into()),
                    ));
                }
                continue;
            }
            if negative {
                return Err(self.error(
                    sign_at,
                    self.pos - sign_at,
                    "a pool takes a bonus (`3D+3`) but not a penalty".into(),
                    Some("raise the Difficulty or take dice away (`-1D`) instead".into()),
                ));
            }
            if v > limits::MAX_BONUS {
                return Err(self.error(
                    num_at,
                    self.pos - num_at,
                    format!(
                        "a bonus of {v} is too large; the limit is {}",
                        limits::MAX_BONUS
                    ),
                    None,
                ));
            }
            if self.peek().is_some_and(|c| c == 'd') {
                return Err(self.error_here(
                    "a pool cannot be mixed with a Roll".into(),
                    Some("roll them as two expressions, e.g. `5D vs 3` `1d6`".into()),
                ));
            }
            pool.bonus = v as u32;
            break;
        }
        pool.extra = extra as i32;
        // Options in any order.
        loop {
            let save = self.pos;
            if !self.skip_ws() || self.at_end() {
                self.pos = save;
                break;
            }
            let word_at = self.pos;
            let word = self.peek_word();
            if word.eq_ignore_ascii_case("vs") {
                self.pos += word.len();
                self.skip_ws();
                if pool.difficulty.is_some() {
                    return Err(self.error(
                        word_at,
                        2,
                        "the Difficulty is given twice".into(),
                        None,
                    ));
                }
                pool.difficulty = Some(self.difficulty()?);
            } else if word.eq_ignore_ascii_case("raise") || word.eq_ignore_ascii_case("raises") {
                self.pos += word.len();
                self.skip_ws();
                pool.raises = self.number("how many dice to raise", limits::MAX_POOL)? as u32;
            } else if word.eq_ignore_ascii_case("twist") {
                self.pos += word.len();
                pool.twist = true;
            } else if word.eq_ignore_ascii_case("team") {
                self.pos += word.len();
                self.skip_ws();
                loop {
                    let t = self.number("a teammate's pool", limits::MAX_POOL)? as u32;
                    pool.team.push(t);
                    if pool.team.len() > limits::MAX_CONTESTANTS {
                        return Err(self.error_here("too many teammates".into(), None));
                    }
                    if !self.eat(',') {
                        break;
                    }
                }
            } else {
                let shown = if word.is_empty() {
                    self.peek().map(String::from).unwrap_or_default()
                } else {
                    word.to_owned()
                };
                return Err(self.error(
                    word_at,
                    shown.len().max(1),
                    format!("unknown pool option `{shown}`"),
                    Some("a pool takes `vs N`, `raise N`, `twist` and `team N,N`, e.g. `5D vs 3 raise 1 twist`".into()),
                ));
            }
        }
        if u64::from(pool.effective_dice()) > limits::MAX_POOL {
            return Err(self.error(
                start,
                self.pos - start,
                format!(
                    "this pool throws {} dice; the limit is {}",
                    pool.effective_dice(),
                    limits::MAX_POOL
                ),
                Some(limits::HINT.into()),
            ));
        }
        if pool.raises > pool.effective_dice() {
            return Err(self.error(
                start,
                self.pos - start,
                format!(
                    "cannot raise {} dice from a pool of {}",
                    pool.raises,
                    pool.effective_dice()
                ),
                Some("raised dice come out of the pool".into()),
            ));
        }
        if pool.twist && pool.difficulty.is_none() {
            return Err(self.error(
                start,
                self.pos - start,
                "a Twist rerolls the Edge dice after a failed Check, so it needs a Difficulty"
                    .into(),
                Some(format!("e.g. `{}D vs 3 twist`", pool.dice)),
            ));
        }
        Ok(Expr::Pool(pool))
    }

    fn difficulty(&mut self) -> Result<u32, ParseError> {
        if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            return Ok(self.number("a Difficulty", limits::MAX_DIFFICULTY)? as u32);
        }
        let at = self.pos;
        let word = self.peek_word();
        if word.eq_ignore_ascii_case("nigh") {
            self.pos += word.len();
            let after_nigh = self.pos;
            self.skip_ws();
            self.eat('-');
            if self.eat_word("impossible") {
                return self.rung_plus(15);
            }
            self.pos = after_nigh;
        }
        if let Some(rung) = crate::rules::mettle::DIFFICULTY_LADDER
            .iter()
            .find(|r| r.word.eq_ignore_ascii_case(word))
        {
            self.pos += word.len();
            return self.rung_plus(rung.difficulty);
        }
        Err(self.error(
            at,
            word.len().max(1),
            "expected a Difficulty: a number or a word from the ladder".into(),
            Some("Routine 1, Challenging 3, Daunting 6, Formidable 10, Nigh Impossible 15".into()),
        ))
    }

    /// `Challenging+1`: a rung and steps above it, as the ladder prints it.
    fn rung_plus(&mut self, base: u32) -> Result<u32, ParseError> {
        if self.peek() == Some('+') && self.peek_at(1).is_some_and(|c| c.is_ascii_digit()) {
            self.bump();
            let extra = self.number("steps above the rung", limits::MAX_DIFFICULTY)? as u32;
            return Ok((base + extra).min(limits::MAX_DIFFICULTY as u32));
        }
        Ok(base)
    }

    fn roll(&mut self) -> Result<Expr, ParseError> {
        let start = self.pos;
        let parens = self.eat('(');
        if parens {
            self.skip_ws();
        }
        let mut terms = Vec::new();
        let mut first = true;
        loop {
            let sign_at = self.pos;
            let negative = if first {
                self.eat('-')
            } else {
                let save = self.pos;
                self.skip_ws();
                match self.peek() {
                    Some('+') => {
                        self.bump();
                        false
                    }
                    Some('-') => {
                        self.bump();
                        true
                    }
                    _ => {
                        self.pos = save;
                        break;
                    }
                }
            };
            if !first {
                self.skip_ws();
            }
            terms.push(Term {
                negative,
                kind: self.term()?,
            });
            if terms.len() > limits::MAX_TERMS {
                return Err(self.error(
                    sign_at,
                    self.pos - sign_at,
                    format!("a Roll takes at most {} terms", limits::MAX_TERMS),
                    None,
                ));
            }
            first = false;
        }
        if parens {
            self.skip_ws();
            if !self.eat(')') {
                return Err(self.error_here(
                    "expected `)` to close the bracket".into(),
                    Some("brackets wrap a whole Roll before halving, e.g. `(2d6+1)/2`".into()),
                ));
            }
        }
        // `d20<=12` is the save notation.
        let save = self.pos;
        self.skip_ws();
        if self.s[self.pos..].starts_with("<=") {
            let lhs = Roll {
                terms: terms.clone(),
                scale: Scale::None,
                enhanced: 0,
                impaired: 0,
            };
            let is_d20 = !parens
                && terms.len() == 1
                && terms[0]
                    == Term {
                        negative: false,
                        kind: TermKind::Dice {
                            count: 1,
                            sides: 20,
                            explode: false,
                            keep: None,
                        },
                    };
            if !is_d20 {
                return Err(self.error(
                    start,
                    self.pos - start,
                    format!("only a single d20 can be rolled under a target, not `{lhs}`"),
                    Some("write a save as `d20<=12` or `save 12`".into()),
                ));
            }
            self.pos += 2;
            self.skip_ws();
            let target = self.number("a save target", limits::MAX_TARGET)? as u32;
            return Ok(Expr::Save(Save { target }));
        }
        self.pos = save;
        let mut scale = Scale::None;
        let scale_at = self.pos;
        if let Some(op) = self.peek().filter(|c| matches!(c, '/' | '*')) {
            if terms.len() > 1 && !parens {
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
                return Err(self.error(
                    scale_at,
                    self.pos - scale_at,
                    "cannot divide or multiply by 0".into(),
                    None,
                ));
            }
            scale = if op == '/' {
                Scale::Divide(n)
            } else {
                Scale::Multiply(n)
            };
        }
        let mut roll = Roll {
            terms,
            scale,
            enhanced: 0,
            impaired: 0,
        };
        loop {
            let save = self.pos;
            if !self.skip_ws() {
                break;
            }
            if self.eat_word("enhanced") {
                roll.enhanced += 1;
            } else if self.eat_word("impaired") {
                roll.impaired += 1;
            } else {
                self.pos = save;
                break;
            }
            if roll.enhanced + roll.impaired > limits::MAX_QUALITY_WORDS {
                return Err(self.error_here("too many enhanced/impaired words".into(), None));
            }
        }
        if roll.dice_count() > limits::MAX_DICE {
            return Err(self.error(
                start,
                self.pos - start,
                format!(
                    "this Roll throws {} dice; the limit is {}",
                    roll.dice_count(),
                    limits::MAX_DICE
                ),
                Some(limits::HINT.into()),
            ));
        }
        Ok(Expr::Roll(roll))
    }

    fn term(&mut self) -> Result<TermKind, ParseError> {
        let start = self.pos;
        // Either a flat number or a count of dice; a number past u64 is
        // read as u64::MAX so the message can say which limit it breaks.
        while matches!(self.peek(), Some(c) if c.is_ascii_digit()) {
            self.bump();
        }
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
            _ => {
                return match count {
                    Some(v) if v <= limits::MAX_BONUS => Ok(TermKind::Const(v)),
                    Some(_) => Err(self.error(
                        start,
                        self.pos - start,
                        format!(
                            "the number {digits} is too large; the limit is {}",
                            limits::MAX_BONUS
                        ),
                        Some(limits::HINT.into()),
                    )),
                    None => {
                        let found = match self.peek() {
                            Some(c) => format!("`{c}`"),
                            None => "the end".into(),
                        };
                        Err(self.error_here(
                            format!("expected a die such as `d6` or a number, found {found}"),
                            None,
                        ))
                    }
                };
            }
        }
        let count_u64 = count.unwrap_or(1);
        if count_u64 > limits::MAX_DICE {
            return Err(self.error(
                start,
                self.pos - start,
                format!(
                    "{digits} dice is too many; the limit is {}",
                    limits::MAX_DICE
                ),
                Some(limits::HINT.into()),
            ));
        }
        if count_u64 == 0 {
            return Err(self.error(
                start,
                self.pos - start,
                "a Roll of zero dice".into(),
                Some("roll at least one die, or write a plain number".into()),
            ));
        }
        let count = count_u64 as u32;
        self.bump(); // the `d`
        let sides_at = self.pos;
        let sides = if self.eat('%') {
            100
        } else if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.number("a die size", u64::MAX).and_then(|s| {
                if s > limits::MAX_SIDES {
                    Err(self.error(
                        sides_at,
                        self.pos - sides_at,
                        format!(
                            "a die with {s} sides is too large; the limit is {}",
                            limits::MAX_SIDES
                        ),
                        Some(limits::HINT.into()),
                    ))
                } else {
                    Ok(s as u32)
                }
            })?
        } else {
            let hint = if count_u64 > 0 && self.peek().is_none_or(|c| !c.is_alphanumeric()) {
                Some(format!(
                    "write the die size, e.g. `{}d6`; for a METTLE pool use an uppercase D: `{}D`",
                    count.max(1),
                    count.max(1)
                ))
            } else {
                Some("write the die size after the `d`, e.g. `d6`".into())
            };
            return Err(self.error_here("expected the number of sides after `d`".into(), hint));
        };
        if sides == 0 {
            return Err(self.error(
                sides_at,
                self.pos - sides_at,
                "a die needs at least one side".into(),
                Some("e.g. `d6`".into()),
            ));
        }
        let explode = self.eat('!');
        if explode && sides == 1 {
            return Err(self.error(
                start,
                self.pos - start,
                "a one-sided die always rolls its maximum, so it would explode forever".into(),
                Some("explode a die with two or more sides, e.g. `d6!`".into()),
            ));
        }
        let keep_at = self.pos;
        let keep = if self.peek() == Some('k') {
            let kind = self.peek_at(1);
            let highest = match kind {
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
                return Err(self.error(
                    keep_at,
                    self.pos - keep_at,
                    format!("cannot keep {k} of {count} dice"),
                    Some(format!("keep between 1 and {count}")),
                ));
            }
            Some(if highest {
                Keep::Highest(k)
            } else {
                Keep::Lowest(k)
            })
        } else {
            None
        };
        // `d66` is the tens-and-units die of table rolls (11-66); there is
        // no 66-sided die.
        if sides == 66 {
            if count == 1 && !explode && keep.is_none() {
                return Ok(TermKind::D66);
            }
            return Err(self.error(
                start,
                self.pos - start,
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
}
