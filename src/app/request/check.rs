//! `check`'s arguments read: one Check, or a [`Grid`] when the pool or
//! `--vs` is a range (`1-20`, `0-30`), each range and the pool's options
//! refused past the dice's limits.

use super::Request;
use crate::cli::CheckArgs;
use crate::dice::ast::{Expr, Pool};
use crate::dice::{self, limits};
use crate::error::{Error, UsageError};

/// A `check` grid: the Check's options, with every pool size and every
/// Difficulty of the ranges.
#[derive(Debug, Clone, PartialEq)]
pub struct Grid {
    /// The options (raises, Twist, Teamwork, bonus and penalty dice, DM);
    /// its own dice and Difficulty are the ranges' lows.
    pub pool: Pool,
    pub pools: (u32, u32),
    pub difficulties: (u32, u32),
}

/// `check`: one Check, or a grid when the pool or `--vs` is a range
/// (`1-20`, `0-30`).
pub(super) fn check_request(args: &CheckArgs) -> Result<Request, Error> {
    let pools = range_arg(&args.pool, true, limits::MAX_POOL, "POOL")?;
    let difficulties = range_arg(&args.vs, false, limits::MAX_DIFFICULTY, "--vs")?;
    if pools.is_none() && difficulties.is_none() {
        return Ok(Request::Check(check_pool(args)?));
    }
    // The ranges' lows stand in for the single values; the highs are
    // checked against the same limits.
    let low = |r: Option<(u32, u32)>, text: &str| r.map_or(text.to_owned(), |(a, _)| a.to_string());
    let high =
        |r: Option<(u32, u32)>, text: &str| r.map_or(text.to_owned(), |(_, b)| b.to_string());
    let pool = check_pool(&CheckArgs {
        pool: low(pools, &args.pool),
        vs: low(difficulties, &args.vs),
        team: args.team.clone(),
        ..*args
    })?;
    let top = check_pool(&CheckArgs {
        pool: high(pools, &args.pool),
        vs: high(difficulties, &args.vs),
        team: args.team.clone(),
        ..*args
    })?;
    let pools = pools.unwrap_or((pool.dice, pool.dice));
    let difficulties = difficulties.unwrap_or_else(|| {
        let d = pool.difficulty.expect("a Check");
        (d, d)
    });
    debug_assert_eq!(top.dice, pools.1);
    let cells = u64::from(pools.1 - pools.0 + 1) * u64::from(difficulties.1 - difficulties.0 + 1);
    if cells > limits::MAX_GRID_CELLS {
        return Err(UsageError::CheckGrid { cells }.into());
    }
    Ok(Request::CheckGrid(Grid {
        pool,
        pools,
        difficulties,
    }))
}

/// `LOW-HIGH` (whole numbers, low first, each at most `max`; a pool's may
/// end in `D`): `None` for text with no `-` (a single value, read as
/// before).
fn range_arg(
    text: &str,
    pool: bool,
    max: u64,
    arg: &'static str,
) -> Result<Option<(u32, u32)>, UsageError> {
    let Some((a, b)) = text.split_once('-') else {
        return Ok(None);
    };
    let number = |t: &str| {
        let t = t.trim();
        let t = if pool {
            t.strip_suffix(['D', 'd']).unwrap_or(t)
        } else {
            t
        };
        (!t.is_empty() && t.bytes().all(|c| c.is_ascii_digit()))
            .then(|| t.parse::<u32>().ok())
            .flatten()
            .filter(|&n| u64::from(n) <= max)
    };
    match (number(a), number(b)) {
        (Some(a), Some(b)) if a <= b => Ok(Some((a, b))),
        _ => Err(UsageError::CheckRange {
            arg,
            text: text.to_owned(),
            max: max as u32,
        }),
    }
}

/// The Check a `check` command describes. The Difficulty reads like the
/// notation's `vs` (numbers or ladder words), so a bad one is a dice
/// parse error.
fn check_pool(args: &CheckArgs) -> Result<Pool, Error> {
    let text = args.pool.trim();
    let digits = text.strip_suffix(['D', 'd']).unwrap_or(text);
    let dice: u32 = digits
        .parse()
        .ok()
        .filter(|&n: &u32| u64::from(n) <= limits::MAX_POOL)
        .ok_or_else(|| UsageError::CheckPool {
            pool: args.pool.clone(),
        })?;
    let vs = match dice::parse(&format!("0D vs {}", args.vs))? {
        Expr::Pool(p) if p.raises == 0 && !p.twist && p.team.is_empty() => {
            p.difficulty.expect("parsed a Difficulty")
        }
        _ => {
            return Err(UsageError::CheckVs {
                vs: args.vs.clone(),
            }
            .into());
        }
    };
    if u64::from(args.bonus_dice.max(args.penalty_dice)) > limits::MAX_POOL
        || u64::from(args.dm) > limits::MAX_BONUS
    {
        return Err(UsageError::CheckLimits.into());
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
    Ok(check_sizes(pool)?)
}

/// A Check's teammates, dice in all and raises within the limits.
fn check_sizes(pool: Pool) -> Result<Pool, UsageError> {
    if pool.team.len() > limits::MAX_CONTESTANTS
        || pool.team.iter().any(|&t| u64::from(t) > limits::MAX_POOL)
    {
        return Err(UsageError::CheckTeam);
    }
    let dice = pool.effective_dice();
    if u64::from(dice) > limits::MAX_POOL {
        return Err(UsageError::CheckDice { dice });
    }
    if pool.raises > dice {
        return Err(UsageError::CheckRaise {
            raises: pool.raises,
            dice,
        });
    }
    Ok(pool)
}
