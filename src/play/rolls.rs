//! The rolls of play, each on its own stream `<session seed>/play/<k>`
//! (k the action's number): a table with its trail, any dice expression,
//! a Check with its exact odds first (METTLE: a pool against a
//! Difficulty; Core Rules: a save under an ability), the Twist of a
//! failed METTLE Check with Edge (the same Check rolled again on its own
//! stream with the Twist: the same first dice, its Edge dice rerolled),
//! a Heal Check due, and the Core Rules' initiative cards.

use super::Play;
use super::action::Action;
use super::marks::{Combatant, Marks, Tracker, pc, pc_combatant};
use super::outcome::{Checked, Healing, Kept, Outcome};
use crate::dice::{self, Expr, odds::OddsDetail, roll::Outcome as Fell};
use crate::generators::npc::NpcRules;
use crate::rules::RulesSystem;
use crate::seed::Stream;
use crate::terminal::rolls::{rolled_text, table_roll_text};
use crate::wording::lines::percent;

/// The Difficulty of a Heal Check.
const HEAL_DIFFICULTY: u32 = 3;

fn stream(play: &Play, k: usize) -> Stream {
    play.fixed.seed.stream(&format!("play/{k}"))
}

/// A roll on a table of the campaign (or the pack's own).
pub(crate) fn table(play: &Play, k: usize, id: &str) -> Result<(String, Outcome), String> {
    let roll = play
        .fixed
        .library
        .roll_table(id, &mut stream(play, k))
        .map_err(|e| e.to_string())?;
    let summary = format!(
        "{:?} [{}]",
        format!("{}: {}", roll.label, roll.text),
        roll.trail_text()
    );
    let result = Outcome::Table {
        text: table_roll_text(&roll),
        roll: Box::new(roll),
    };
    Ok((summary, result))
}

/// Any expression of the notation.
pub(crate) fn dice(play: &Play, k: usize, expr: &str) -> Result<(String, Outcome), String> {
    let e = dice::parse(expr).map_err(|e| format!("`{expr}` is not a dice expression: {e}"))?;
    let rolled = dice::roll(&e, &mut stream(play, k));
    let text = rolled_text(&rolled);
    let first = text.lines().next().unwrap_or_default();
    let summary = first.split_once(" → ").map_or(first, |(_, r)| r).to_owned();
    Ok((
        summary,
        Outcome::Dice {
            value: rolled.value(),
            text,
            rolled,
        },
    ))
}

/// The expression of a Check by `pc` with `pool`: METTLE `<pool> vs
/// <difficulty>`; Core Rules `save <ability>` (the pool names the
/// ability, or is the number to roll under).
fn check_expr(play: &Play, i: usize, pool: &str, difficulty: Option<u32>) -> Result<Expr, String> {
    let text = match play.fixed.system {
        RulesSystem::Mettle => {
            let d = difficulty
                .ok_or("a METTLE Check needs its `difficulty` (the Score must beat it)")?;
            format!("{pool} vs {d}")
        }
        RulesSystem::Core => {
            let p = &play.fixed.pcs[i];
            let n = p
                .abilities
                .iter()
                .find(|(a, _)| a.eq_ignore_ascii_case(pool))
                .map(|(_, v)| *v)
                .or_else(|| pool.parse().ok())
                .ok_or_else(|| format!("a Core Rules check is a save under STR, AGI, WIT or a number (not `{pool}`)"))?;
            format!("save {n}")
        }
    };
    match dice::parse(&text) {
        Ok(Expr::Pool(p)) if p.twist => {
            Err("the Twist is its own action (`twist`), after a failed Check".into())
        }
        Ok(e @ (Expr::Pool(_) | Expr::Save(_))) => Ok(e),
        _ => Err(format!(
            "`{pool}` is not a pool of dice such as 4D or 5D-1D"
        )),
    }
}

/// The chance the check succeeds.
fn chance(e: &Expr) -> Result<f64, String> {
    match dice::odds(e).map_err(|e| e.to_string())?.detail {
        OddsDetail::Check(c) => Ok(c.success),
        OddsDetail::Save(b) => Ok(b.chance),
        _ => Err("not a check".into()),
    }
}

/// A Check: the odds first, then the dice.
pub(crate) fn check(
    play: &Play,
    k: usize,
    name: &str,
    pool: &str,
    difficulty: Option<u32>,
) -> Result<(String, Outcome), String> {
    let i = pc(play, name)?;
    let e = check_expr(play, i, pool, difficulty)?;
    let odds = percent(chance(&e)?);
    let rolled = dice::roll(&e, &mut stream(play, k));
    Ok(outcome(rolled, &odds))
}

/// The words and answer of a rolled check.
fn outcome(rolled: dice::Rolled, odds: &str) -> (String, Outcome) {
    let text = rolled_text(&rolled);
    let first = text.lines().next().unwrap_or_default();
    let (success, edge, score, offered) = match &rolled.outcome {
        Fell::Pool(p) => {
            let success = p.success == Some(true);
            (
                success,
                p.edge,
                p.score,
                !success && p.twist.is_none() && p.edge > 0,
            )
        }
        Fell::Save(s) => (s.pass, 0, s.roll, false),
        _ => (false, 0, 0, false),
    };
    let said = if success { "success" } else { "failure" };
    let summary = format!(
        "odds {odds}; {said}: {}",
        first.split_once(" → ").map_or(first, |(_, r)| r)
    );
    let result = Outcome::Check(Box::new(Checked {
        odds: odds.to_owned(),
        expr: rolled.expr.clone(),
        success,
        score,
        edge,
        twist_offered: offered,
        text,
        rolled,
    }));
    (summary, result)
}

/// The Twist of check `of` (or of Heal Check `of`): that Check again on
/// its own stream with the Twist — the first dice as they fell, the Edge
/// dice rerolled.
pub(crate) fn twist(play: &Play, marks: &Marks, of: usize) -> Result<(String, Outcome), String> {
    let entry = play
        .entries
        .get(of.wrapping_sub(1))
        .ok_or_else(|| format!("there is no action {of} yet"))?;
    if let Action::Heal { pc: name, .. } = &entry.action {
        return heal_twist(play, marks, of, name);
    }
    let Action::Check {
        pc: name,
        pool,
        difficulty,
    } = &entry.action
    else {
        return Err(format!("action {of} is not a check or a Heal Check"));
    };
    if marks.twisted.contains(&of) {
        return Err(format!("the Twist of check {of} was taken already"));
    }
    let Some(odds) = entry.kept.twist_offered() else {
        return Err(format!(
            "check {of} cannot take a Twist: only a failed METTLE Check with Edge can"
        ));
    };
    let odds = odds.to_owned();
    let i = pc(play, name)?;
    let Expr::Pool(mut p) = check_expr(play, i, pool, *difficulty)? else {
        return Err(format!("check {of} is not a METTLE Check"));
    };
    p.twist = true;
    let e = Expr::Pool(p);
    let rolled = dice::roll(&e, &mut stream(play, of));
    Ok(outcome(rolled, &odds))
}

/// The Twist called after the plain roll of Heal Check `of`, as for any
/// Check (METTLE: on a failure with Edge): the same first dice, the Edge
/// dice rerolled; its outcome is the Heal Check's.
fn heal_twist(
    play: &Play,
    marks: &Marks,
    of: usize,
    name: &str,
) -> Result<(String, Outcome), String> {
    if marks.struck.contains(&of) {
        return Err(format!(
            "Heal Check {of} is struck: roll the Heal Check again"
        ));
    }
    if marks.twisted.contains(&of) {
        return Err(format!("the Twist of Heal Check {of} was taken already"));
    }
    let Some(odds) = play.entries[of - 1].kept.twist_offered() else {
        return Err(format!(
            "Heal Check {of} cannot take a Twist: only a failed Heal Check with Edge can, once"
        ));
    };
    heal_roll(play, of, name, true, Some(odds.to_owned()))
}

/// The Heal Check of `name`: the ledger's row naming them, or one for any
/// PC who falls (by someone else).
fn heal_row<'a>(play: &'a Play, name: &str) -> Result<&'a super::load::HealRow, String> {
    play.fixed
        .heal
        .iter()
        .find(|h| h.patient.as_deref() == Some(name))
        .or_else(|| {
            play.fixed
                .heal
                .iter()
                .find(|h| h.patient.is_none() && h.healer != name)
        })
        .ok_or_else(|| {
            format!("no one can heal {name} here: the ledger rolls the Heal in downtime")
        })
}

/// A Heal Check due, rolled here (with the Twist when `twist`).
pub(crate) fn heal(
    play: &Play,
    marks: &Marks,
    k: usize,
    name: &str,
    twist: bool,
) -> Result<(String, Outcome), String> {
    let i = pc(play, name)?;
    if play.fixed.system != RulesSystem::Mettle || !play.fixed.campaign {
        return Err("Heal Checks are METTLE's, in a campaign".into());
    }
    if marks.now(play, i) > 0 {
        return Err(format!(
            "{name} is at Mettle {}: a Heal Check is for a PC at 0 or below",
            marks.now(play, i)
        ));
    }
    if marks.pcs[i].healed.is_some() {
        return Err(format!("{name}'s Heal Check was made already this session"));
    }
    heal_roll(play, k, name, twist, None)
}

/// The dice of a Heal Check on stream `k` (with the Twist when `twist`),
/// with its odds (`None`: worked out here; a Twist called after the plain
/// roll keeps the plain roll's).
fn heal_roll(
    play: &Play,
    k: usize,
    name: &str,
    twist: bool,
    odds: Option<String>,
) -> Result<(String, Outcome), String> {
    let row = heal_row(play, name)?;
    let text = format!(
        "{}D vs {HEAL_DIFFICULTY}{}",
        row.pool,
        if twist { " twist" } else { "" }
    );
    let e = dice::parse(&text).map_err(|e| e.to_string())?;
    let odds = match odds {
        Some(o) => o,
        None => percent(chance(&e)?),
    };
    let rolled = dice::roll(&e, &mut stream(play, k));
    let Fell::Pool(p) = &rolled.outcome else {
        unreachable!("a pool")
    };
    let passed = p.success == Some(true);
    let twisted = p.twist.is_some();
    let offered = !passed && !twisted && p.edge > 0;
    let summary = format!(
        "by {}, odds {odds}; {}: {}",
        row.healer,
        if passed { "lives" } else { "dies" },
        rolled_text(&rolled).lines().next().unwrap_or_default()
    );
    let edge = p.edge;
    let result = Outcome::Heal(Box::new(Healing {
        healer: row.healer.clone(),
        odds,
        passed,
        edge,
        twist: twisted,
        twist_offered: offered,
        rolled,
    }));
    Ok((summary, result))
}

/// A tracker starting: the Core Rules deal each combatant a card from a
/// shuffled deck of 54 (METTLE: no draw; whoever calls the first attack
/// acts first).
pub(crate) fn deal(
    play: &Play,
    marks: &Marks,
    k: usize,
    at: Option<&str>,
) -> Result<(String, Outcome), String> {
    let t = start(play, marks, at, &Kept::Nothing);
    if let Some(a) = at
        && foes_of(play, a).is_none()
    {
        return Err(format!("`{a}` is not an encounter of this pack"));
    }
    if play.fixed.system == RulesSystem::Mettle {
        return Ok((
            format!("{} combatants", t.combatants.len()),
            Outcome::Nothing {},
        ));
    }
    let mut deck: Vec<u32> = (0..54).collect();
    stream(play, k).shuffle(&mut deck);
    let cards: Vec<u32> = deck.into_iter().take(t.combatants.len()).collect();
    let words: Vec<String> = t
        .combatants
        .iter()
        .zip(&cards)
        .map(|(c, &d)| format!("{} {}", c.name, card(d)))
        .collect();
    Ok((words.join(", "), Outcome::Cards { cards }))
}

/// Card `d` of 54 (0–51: rank 2 to Ace in ♠ ♥ ♦ ♣; 52, 53: Jokers), and
/// its place in the turn order (higher goes first).
fn card(d: u32) -> String {
    if d >= 52 {
        return "Joker".into();
    }
    let ranks = [
        "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A",
    ];
    format!(
        "{}{}",
        ranks[(d / 4) as usize],
        ["♠", "♥", "♦", "♣"][(d % 4) as usize]
    )
}

fn order(d: u32) -> i64 {
    if d >= 52 {
        100 + i64::from(d)
    } else {
        i64::from(d / 4) * 4 + 3 - i64::from(d % 4)
    }
}

/// The foes of encounter `at`: name, track label, Mettle or health.
fn foes_of(play: &Play, at: &str) -> Option<Vec<(String, &'static str, i64)>> {
    let pack = &play.fixed.pack;
    let e = match at
        .strip_prefix("encounter/")
        .and_then(|n| n.parse::<usize>().ok())
    {
        Some(n) => pack.encounters.get(n.checked_sub(1)?)?,
        None => {
            pack.journey_encounters()
                .into_iter()
                .find(|(a, _)| a == at)?
                .1
        }
    };
    Some(
        e.foes
            .iter()
            .map(|f| match &f.rules {
                NpcRules::Mettle(m) => (f.name.clone(), "Mettle", i64::from(m.mettle)),
                NpcRules::Core(c) => (f.name.clone(), "health", c.max_health),
            })
            .collect(),
    )
}

/// The tracker a start makes: the PCs, then the encounter's foes; with
/// the Core Rules' cards (in `result`), in turn order.
pub(crate) fn start(play: &Play, marks: &Marks, at: Option<&str>, kept: &Kept) -> Tracker {
    let mut combatants: Vec<Combatant> = (0..play.fixed.pcs.len())
        .map(|i| pc_combatant(play, marks, i))
        .collect();
    for (name, label, now) in at.and_then(|a| foes_of(play, a)).unwrap_or_default() {
        combatants.push(Combatant {
            name,
            side: "foe",
            init: None,
            card: None,
            label,
            now,
            max: now,
        });
    }
    if let Kept::Cards(cards) = kept {
        for (c, &d) in combatants.iter_mut().zip(cards) {
            c.init = Some(order(d));
            c.card = Some(card(d));
        }
        combatants.sort_by_key(|c| std::cmp::Reverse(c.init));
    }
    Tracker {
        round: 1,
        turn: None,
        combatants,
        acted: Vec::new(),
    }
}

/// The next turn: METTLE, the one named (the target of the last Action);
/// the Core Rules, the next card down (a new round after the last).
pub(crate) fn next(system: RulesSystem, t: &mut Tracker, name: Option<&str>) {
    let n = t.combatants.len();
    let to = match (system, name) {
        (RulesSystem::Mettle, Some(name)) => t.combatants.iter().position(|c| c.name == name),
        _ => Some(t.turn.map_or(0, |i| (i + 1) % n.max(1))),
    };
    let Some(to) = to else { return };
    let wrapped = match system {
        RulesSystem::Mettle => t.acted.contains(&to),
        RulesSystem::Core => t.turn.is_some() && to == 0,
    };
    if wrapped {
        t.round += 1;
        t.acted.clear();
    }
    t.acted.push(to);
    t.turn = Some(to);
}
