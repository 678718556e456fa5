//! METTLE pools: `5D`, die modifiers `+2D`/`-1D`, a damage bonus `+3`, and
//! the options `vs N` (a number or a word from the Difficulty ladder),
//! `raise N`, `twist` and `team N,N`, in any order.

use super::{ParseError, Parser};
use crate::dice::ast::{Expr, Pool};
use crate::dice::limits;

impl Parser<'_> {
    pub(super) fn pool(&mut self) -> Result<Expr, ParseError> {
        let start = self.pos;
        let dice = self.pool_size()?;
        let mut pool = Pool {
            dice,
            extra: 0,
            bonus: 0,
            difficulty: None,
            raises: 0,
            twist: false,
            team: Vec::new(),
        };
        self.pool_modifiers(&mut pool)?;
        self.pool_options(&mut pool)?;
        self.check_pool(start, &pool)?;
        Ok(Expr::Pool(pool))
    }

    /// `5D`: the pool as written (an uppercase `D` takes no die size).
    fn pool_size(&mut self) -> Result<u32, ParseError> {
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
        Ok(dice)
    }

    /// `+2D`, `-1D` modifiers, then an optional `+3` bonus.
    fn pool_modifiers(&mut self, pool: &mut Pool) -> Result<(), ParseError> {
        let mut extra: i64 = 0;
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
                    return Err(self.over_limit(
                        num_at,
                        format!("die modifiers add up to more than {}", limits::MAX_POOL),
                    ));
                }
                continue;
            }
            pool.bonus = self.pool_bonus(negative, sign_at, num_at, v)?;
            break;
        }
        pool.extra = extra as i32;
        Ok(())
    }

    /// The number `v` just read after a sign, as a pool's damage bonus.
    fn pool_bonus(
        &self,
        negative: bool,
        sign_at: usize,
        num_at: usize,
        v: u64,
    ) -> Result<u32, ParseError> {
        if negative {
            return Err(self.error_since(
                sign_at,
                "a pool takes a bonus (`3D+3`) but not a penalty".into(),
                Some("raise the Difficulty or take dice away (`-1D`) instead".into()),
            ));
        }
        if v > limits::MAX_BONUS {
            return Err(self.error_since(
                num_at,
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
        Ok(v as u32)
    }

    /// Options in any order: `vs`, `raise`, `twist`, `team`.
    fn pool_options(&mut self, pool: &mut Pool) -> Result<(), ParseError> {
        loop {
            let save = self.pos;
            if !self.skip_ws() || self.at_end() {
                self.pos = save;
                return Ok(());
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
                self.team(&mut pool.team)?;
            } else {
                return Err(self.unknown_option(word_at, word));
            }
        }
    }

    /// `team 5,4`: teammates' pools (added to any named before).
    fn team(&mut self, team: &mut Vec<u32>) -> Result<(), ParseError> {
        loop {
            team.push(self.number("a teammate's pool", limits::MAX_POOL)? as u32);
            if team.len() > limits::MAX_CONTESTANTS {
                return Err(self.error_here("too many teammates".into(), None));
            }
            if !self.eat(',') {
                return Ok(());
            }
        }
    }

    fn unknown_option(&self, word_at: usize, word: &str) -> ParseError {
        let shown = if word.is_empty() {
            self.peek().map(String::from).unwrap_or_default()
        } else {
            word.to_owned()
        };
        self.error(
            word_at,
            shown.len().max(1),
            format!("unknown pool option `{shown}`"),
            Some("a pool takes `vs N`, `raise N`, `twist` and `team N,N`, e.g. `5D vs 3 raise 1 twist`".into()),
        )
    }

    /// The limits and rules that hold for the pool as a whole.
    fn check_pool(&self, start: usize, pool: &Pool) -> Result<(), ParseError> {
        if u64::from(pool.effective_dice()) > limits::MAX_POOL {
            return Err(self.over_limit(
                start,
                format!(
                    "this pool throws {} dice; the limit is {}",
                    pool.effective_dice(),
                    limits::MAX_POOL
                ),
            ));
        }
        if pool.raises > pool.effective_dice() {
            return Err(self.error_since(
                start,
                format!(
                    "cannot raise {} dice from a pool of {}",
                    pool.raises,
                    pool.effective_dice()
                ),
                Some("raised dice come out of the pool".into()),
            ));
        }
        if pool.twist && pool.difficulty.is_none() {
            return Err(self.error_since(
                start,
                "a Twist rerolls the Edge dice after a failed Check, so it needs a Difficulty"
                    .into(),
                Some(format!("e.g. `{}D vs 3 twist`", pool.dice)),
            ));
        }
        Ok(())
    }

    /// A Difficulty: a number, or a rung of the ladder (`Challenging+1`).
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
}
