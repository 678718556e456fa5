//! The dice commands: `roll` (every die shown), `odds` (the exact
//! distribution) and `check` (a METTLE Check, its chance first).

use std::io::Write;

use serde::Serialize;

use crate::dice;
use crate::dice::ast::{Expr, Pool};
use crate::error::Error;
use crate::terminal;
use crate::wording::lines;
use crate::workspace::Workspace;

#[derive(Serialize)]
struct RollReport<'a> {
    seed: &'a str,
    rolls: Vec<dice::Rolled>,
}

pub(crate) fn roll(
    ws: &Workspace,
    exprs: &[String],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    // Read everything before rolling anything: one typo rolls nothing.
    let parsed = exprs
        .iter()
        .map(|e| dice::parse(e).map_err(|err| split_by_shell(exprs, err)))
        .collect::<Result<Vec<_>, _>>()?;
    let seed = ws.roll_seed(err)?;
    let rolls: Vec<dice::Rolled> = parsed
        .iter()
        .enumerate()
        .map(|(i, e)| dice::roll(e, &mut seed.stream(&format!("roll/{i}"))))
        .collect();
    if ws.json {
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

pub(crate) fn odds(ws: &Workspace, expr: &str, out: &mut dyn Write) -> Result<(), Error> {
    let parsed = dice::parse(expr)?;
    let odds = dice::odds(&parsed)?;
    if ws.json {
        return super::json(out, &odds);
    }
    write!(out, "{}", terminal::odds_text(&odds))?;
    Ok(())
}

#[derive(Serialize)]
struct CheckReport<'a> {
    seed: &'a str,
    chance: f64,
    #[serde(flatten)]
    rolled: dice::Rolled,
}

/// `check`: the Check's chance, then the roll (the pool was checked
/// against the limits by [`super::request`]).
pub(crate) fn check(
    ws: &Workspace,
    pool: Pool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    let expr = Expr::Pool(pool.clone());
    let chance = match dice::odds(&expr)?.detail {
        dice::odds::OddsDetail::Check(c) => c.success,
        _ => unreachable!("a pool with a Difficulty is a Check"),
    };
    let seed = ws.roll_seed(err)?;
    let rolled = dice::roll(&expr, &mut seed.stream("check"));
    if ws.json {
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

#[derive(Serialize)]
struct GridReport<'a> {
    /// The pool sizes, one row of `chance` each.
    pools: Vec<u32>,
    /// The Difficulties, one column of `chance` each.
    difficulties: Vec<u32>,
    /// Bonus (+) or penalty (−) dice, raised dice, teammates' pools and a
    /// Twist on a failure, as given.
    extra_dice: i32,
    raise: u32,
    team: &'a [u32],
    twist: bool,
    /// `chance[i][j]`: the chance of success with `pools[i]` dice against
    /// `difficulties[j]`.
    chance: Vec<Vec<f64>>,
}

/// `check LOW-HIGH --vs LOW-HIGH`: the chance of success of every Check in
/// the grid, each as `check` gives it alone (nothing is rolled).
pub(crate) fn check_grid(
    ws: &Workspace,
    grid: &super::request::Grid,
    out: &mut dyn Write,
) -> Result<(), Error> {
    let chance = dice::odds::check_grid(&grid.pool, grid.pools, grid.difficulties)?;
    let pools: Vec<u32> = (grid.pools.0..=grid.pools.1).collect();
    let difficulties: Vec<u32> = (grid.difficulties.0..=grid.difficulties.1).collect();
    let p = &grid.pool;
    if ws.json {
        return super::json(
            out,
            &GridReport {
                pools,
                difficulties,
                extra_dice: p.extra,
                raise: p.raises,
                team: &p.team,
                twist: p.twist,
                chance,
            },
        );
    }
    let mut options = Vec::new();
    if p.extra != 0 {
        options.push(format!("{:+}D", p.extra));
    }
    if p.raises > 0 {
        options.push(format!("raise {}", p.raises));
    }
    if !p.team.is_empty() {
        let team: Vec<String> = p.team.iter().map(u32::to_string).collect();
        options.push(format!(
            "team {} (+1D Teamwork when a teammate has more dice)",
            team.join(",")
        ));
    }
    if p.twist {
        options.push("taking a Twist on a failure".into());
    }
    let options = if options.is_empty() {
        String::new()
    } else {
        format!(", {}", options.join(", "))
    };
    writeln!(
        out,
        "METTLE Check: chance of success, pools {}D-{}D (rows) against Difficulties {}-{} (columns){options}",
        grid.pools.0, grid.pools.1, grid.difficulties.0, grid.difficulties.1
    )?;
    let cells: Vec<Vec<String>> = chance
        .iter()
        .map(|row| row.iter().map(|&c| lines::percent(c)).collect())
        .collect();
    let width = cells
        .iter()
        .flatten()
        .map(String::len)
        .chain(difficulties.iter().map(|d| d.to_string().len()))
        .max()
        .unwrap_or(1);
    let label = pools
        .iter()
        .map(|n| n.to_string().len() + 1)
        .max()
        .unwrap_or(2)
        .max("pool".len());
    let mut line = format!("{:>label$}", "pool");
    for d in &difficulties {
        line.push_str(&format!("  {d:>width$}"));
    }
    writeln!(out, "{line}")?;
    for (n, row) in pools.iter().zip(&cells) {
        let mut line = format!("{:>label$}", format!("{n}D"));
        for c in row {
            line.push_str(&format!("  {c:>width$}"));
        }
        writeln!(out, "{line}")?;
    }
    Ok(())
}
