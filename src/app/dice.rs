//! The dice commands: `roll` (every die shown), `odds` (the exact
//! distribution) and `check` (a METTLE Check, its chance first).

use std::io::Write;

use serde::Serialize;

use super::Config;
use crate::cli::CheckArgs;
use crate::dice::ast::{Expr, Pool};
use crate::dice::{self, limits};
use crate::error::Error;
use crate::terminal;
use crate::wording::lines;

#[derive(Serialize)]
struct RollReport<'a> {
    seed: &'a str,
    rolls: Vec<dice::Rolled>,
}

pub fn roll(
    cfg: &Config,
    exprs: &[String],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    // Read everything before rolling anything: one typo rolls nothing.
    let parsed = exprs
        .iter()
        .map(|e| dice::parse(e).map_err(|err| split_by_shell(exprs, err)))
        .collect::<Result<Vec<_>, _>>()?;
    let seed = cfg.roll_seed(err)?;
    let rolls: Vec<dice::Rolled> = parsed
        .iter()
        .enumerate()
        .map(|(i, e)| dice::roll(e, &mut seed.stream(&format!("roll/{i}"))))
        .collect();
    if cfg.json {
        return super::json(
            out,
            &RollReport {
                seed: seed.as_str(),
                rolls,
            },
        );
    }
    for r in &rolls {
        writeln!(out, "{}", terminal::rolled_text(r))?;
    }
    Ok(())
}

/// Words of one expression the shell split apart (`roll 2d6 + 1` arrives
/// as `2d6`, `+`, `1`): a word that cannot start an expression, after
/// another, gets a hint to quote the whole.
fn split_by_shell(exprs: &[String], mut err: dice::ParseError) -> dice::ParseError {
    const CONTINUES: [&str; 7] = ["vs", "raise", "twist", "team", "enhanced", "impaired", "kh"];
    let word = err.input.trim().to_lowercase();
    let continues = word.starts_with(['+', '-', '*', '/', ')', '&'])
        || CONTINUES.iter().any(|c| word.starts_with(c));
    if exprs.len() > 1 && continues {
        err.hint = Some(format!(
            "the shell split one expression into words; quote it whole: tablewright roll \"{}\"",
            exprs.join(" ")
        ));
    }
    err
}

pub fn odds(cfg: &Config, expr: &str, out: &mut dyn Write) -> Result<(), Error> {
    let parsed = dice::parse(expr)?;
    let odds = dice::odds(&parsed)?;
    if cfg.json {
        return super::json(out, &odds);
    }
    write!(out, "{}", terminal::odds_text(&odds))?;
    Ok(())
}

/// Build the pool a `check` command describes.
pub fn check_pool(args: &CheckArgs) -> Result<Pool, Error> {
    let text = args.pool.trim();
    let digits = text.strip_suffix(['D', 'd']).unwrap_or(text);
    let dice: u32 = digits
        .parse()
        .ok()
        .filter(|&n: &u32| u64::from(n) <= limits::MAX_POOL)
        .ok_or_else(|| {
            Error::Usage(format!(
                "check: `{}` is not a pool size; give a number of dice from 0 to {}, e.g. `check 5 --vs 3`",
                args.pool,
                limits::MAX_POOL
            ))
        })?;
    // The Difficulty reads like the notation's `vs` (numbers or ladder words).
    let vs = match dice::parse(&format!("0D vs {}", args.vs))? {
        Expr::Pool(p) if p.raises == 0 && !p.twist && p.team.is_empty() => {
            p.difficulty.expect("parsed a Difficulty")
        }
        _ => {
            return Err(Error::Usage(format!(
                "check --vs `{}`: give only a Difficulty (a number or a ladder word); raises, Twists and teammates have their own flags",
                args.vs
            )));
        }
    };
    if u64::from(args.bonus_dice.max(args.penalty_dice)) > limits::MAX_POOL
        || u64::from(args.dm) > limits::MAX_BONUS
    {
        return Err(Error::Usage(format!("check: {}", limits::HINT)));
    }
    let pool = Pool {
        dice,
        extra: args.bonus_dice as i32 - args.penalty_dice as i32,
        bonus: args.dm,
        difficulty: Some(vs),
        raises: args.raise,
        twist: args.twist,
        team: args.team.clone(),
    };
    if pool.team.len() > limits::MAX_CONTESTANTS
        || pool.team.iter().any(|&t| u64::from(t) > limits::MAX_POOL)
    {
        return Err(Error::Usage(format!(
            "check --team: at most {} teammates with pools up to {}",
            limits::MAX_CONTESTANTS,
            limits::MAX_POOL
        )));
    }
    if u64::from(pool.effective_dice()) > limits::MAX_POOL {
        return Err(Error::Usage(format!(
            "check: {} dice in all; {}",
            pool.effective_dice(),
            limits::HINT
        )));
    }
    if pool.raises > pool.effective_dice() {
        return Err(Error::Usage(format!(
            "check: cannot raise {} dice from a pool of {}; raised dice come out of the pool",
            pool.raises,
            pool.effective_dice()
        )));
    }
    Ok(pool)
}

#[derive(Serialize)]
struct CheckReport<'a> {
    seed: &'a str,
    chance: f64,
    #[serde(flatten)]
    rolled: dice::Rolled,
}

pub fn check(
    cfg: &Config,
    args: &CheckArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    let pool = check_pool(args)?;
    let expr = Expr::Pool(pool.clone());
    let chance = match dice::odds(&expr)?.detail {
        dice::odds::OddsDetail::Check(c) => c.success,
        _ => unreachable!("a pool with a Difficulty is a Check"),
    };
    let seed = cfg.roll_seed(err)?;
    let rolled = dice::roll(&expr, &mut seed.stream("check"));
    if cfg.json {
        return super::json(
            out,
            &CheckReport {
                seed: seed.as_str(),
                chance,
                rolled,
            },
        );
    }
    let twist = if pool.twist {
        ", taking a Twist on a failure"
    } else {
        ""
    };
    let team = if pool.teamwork_bonus() > 0 {
        " (+1D Teamwork)"
    } else {
        ""
    };
    writeln!(
        out,
        "Check {expr}{team}: chance of success {} ({:.4}){twist}",
        lines::percent(chance),
        chance
    )?;
    writeln!(out, "{}", terminal::rolled_text(&rolled))?;
    Ok(())
}
