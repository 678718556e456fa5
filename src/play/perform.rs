//! An action carried out: checked against the session (the PC, address,
//! serial, stop or check it names must exist and fit), its rolls made on
//! the session's streams (`rolls`), and its log line and answer made.

use super::action::{Action, Shown};
use super::marks::{Marks, Tracker, pc};
use super::outcome::Outcome;
use super::{Done, Entry, Play, log, rolls};
use crate::generators::count;
use crate::generators::map::reach::{self, Unreachable};
use crate::generators::map::{Map, Stop};
use crate::rules::RulesSystem;

/// Carry out `action` as action `k` of `play` (nothing kept: the caller
/// appends its line, then keeps it).
///
/// `fresh`: the action comes from the screen, not from a log line read
/// back; what only a new action must say (the PC who took a Core injury)
/// is asked of it alone, so that a log written before still replays.
pub(crate) fn perform(play: &Play, k: usize, action: Action, fresh: bool) -> Result<Done, String> {
    let marks = &play.marks;
    let (summary, result) = match &action {
        Action::Roll { table } => rolls::table(play, k, table)?,
        Action::Dice { expr } => rolls::dice(play, k, expr)?,
        Action::Check {
            pc,
            pool,
            difficulty,
        } => rolls::check(play, k, pc, pool, *difficulty)?,
        Action::Twist { k: of } => rolls::twist(play, marks, *of)?,
        Action::Heal { pc, twist } => rolls::heal(play, marks, k, pc, *twist)?,
        Action::Tracker { op, name, now } => {
            tracker(play, marks, k, (op, name.as_deref(), *now), fresh)?
        }
        _ => (mark(play, marks, &action, fresh)?, Outcome::Nothing {}),
    };
    let (verb, args) = action.args();
    Ok(Done {
        line: log::write(k, &verb, &args, &summary),
        entry: Entry {
            k,
            action,
            kept: result.kept(),
        },
        outcome: result,
    })
}

/// Whether the players' view could change with `action`.
pub(crate) fn players_see(_: &Play, action: &Action) -> bool {
    matches!(
        action,
        Action::Arrive { .. } | Action::Push { .. } | Action::Undo { .. }
    )
}

/// A mark checked against the session; its summary (empty: none).
fn mark(play: &Play, marks: &Marks, action: &Action, fresh: bool) -> Result<String, String> {
    let f = &play.fixed;
    match action {
        Action::Met { address, pc: taker } => {
            met(play, marks, address, taker.as_deref(), fresh).map(|()| String::new())
        }
        Action::Omens { pc: name, spent } => omens(play, marks, name, *spent),
        Action::Corruption { pc: name, amount } => {
            core_pc(play, name)?;
            match *amount {
                1.. => Ok(String::new()),
                _ => Err("`amount` of `corruption` is the corruption gained, from 1".into()),
            }
        }
        Action::Damage { pc: name, amount } => {
            let i = pc(play, name)?;
            if *amount == 0 {
                return Err("`amount` of `damage` is not 0 (negative heals)".into());
            }
            if marks.pcs[i].damage + amount < 0 {
                return Err(format!(
                    "{name} has lost {} in play: no more than that can be healed here",
                    marks.pcs[i].damage
                ));
            }
            Ok(format!(
                "{} {} → {}",
                f.pcs[i].label,
                marks.now(play, i),
                marks.now(play, i) - amount
            ))
        }
        Action::Status {
            pc: name,
            status,
            on,
        } => status_mark(play, marks, name, status, *on),
        Action::Spend { serial } => {
            let Some((serial, holder)) = voucher(f, serial) else {
                let held: Vec<&str> = f.vouchers.iter().map(|(s, _)| s.as_str()).collect();
                return Err(format!(
                    "there is no voucher `{serial}` in hand; the vouchers are: {}",
                    if held.is_empty() {
                        "none".into()
                    } else {
                        held.join(", ")
                    }
                ));
            };
            if marks.spent.contains(&serial) {
                return Err(format!("{serial} was spent already"));
            }
            Ok(format!("held by {holder}"))
        }
        Action::Supplies {
            money,
            rations,
            water,
        } => supplies(play, marks, *money, *rations, *water),
        Action::Arrive { stop, day } => arrive(play, marks, stop, *day),
        Action::Push(shown) => push(play, marks, shown),
        Action::Undo { k, reason } => undo(play, marks, *k, reason.as_deref()),
        _ => unreachable!("rolls are carried out in `rolls`"),
    }
}

/// The index of Core Rules PC `name`, or why not.
fn core_pc(play: &Play, name: &str) -> Result<usize, String> {
    if play.fixed.system != RulesSystem::Core {
        return Err("omens, corruption, injuries and mutations are the Core Rules'".into());
    }
    pc(play, name)
}

/// Omens a PC spent: never more than they had at the start.
fn omens(play: &Play, marks: &Marks, name: &str, spent: i64) -> Result<String, String> {
    let i = core_pc(play, name)?;
    if spent < 1 {
        return Err("`spent` of `omens` is how many omens were spent, from 1".into());
    }
    let had = play.fixed.pcs[i].omens.unwrap_or(0);
    let left = had - marks.pcs[i].omens;
    if spent > left {
        return Err(format!(
            "{name} has {left} omen(s) left of the {had} they started with: they cannot spend {spent}"
        ));
    }
    Ok(format!("omens {left} → {}", left - spent))
}

/// An item met; an injury or a mutation of the Core Rules with the PC
/// who took it (`taker`), who must be named when the action is `fresh`.
fn met(
    play: &Play,
    marks: &Marks,
    address: &str,
    taker: Option<&str>,
    fresh: bool,
) -> Result<(), String> {
    met_item(play, marks, address)?;
    let slip = play
        .fixed
        .items
        .iter()
        .find(|i| i.address == address)
        .is_some_and(|i| matches!(i.kind, "injury" | "mutation"));
    match taker {
        Some(name) if slip => {
            core_pc(play, name)?;
        }
        Some(_) => {
            return Err(format!(
                "`pc` of `met` names who took an injury or a mutation; {address} is neither"
            ));
        }
        None if slip && fresh && play.fixed.system == RulesSystem::Core => {
            return Err(format!(
                "{address} is taken by a PC: give `pc`, who took it (it goes to their record)"
            ));
        }
        None => {}
    }
    Ok(())
}

fn met_item(play: &Play, marks: &Marks, address: &str) -> Result<(), String> {
    let Some(item) = play.fixed.items.iter().find(|i| i.address == address) else {
        let all: Vec<&str> = play
            .fixed
            .items
            .iter()
            .map(|i| i.address.as_str())
            .collect();
        return Err(format!(
            "there is no item `{address}` in this pack; its items are: {}",
            all.join(", ")
        ));
    };
    if item.kind == "voucher" {
        return Err(format!(
            "{address} is a voucher: mark it with `spend` and its serial"
        ));
    }
    if marks
        .met
        .iter()
        .chain(&marks.npcs_met)
        .any(|a| a == address)
    {
        return Err(format!("{address} is marked met already"));
    }
    Ok(())
}

fn status_mark(
    play: &Play,
    marks: &Marks,
    name: &str,
    status: &str,
    on: bool,
) -> Result<String, String> {
    let i = pc(play, name)?;
    if play.fixed.system == RulesSystem::Mettle && !crate::rules::mettle::STATUSES.contains(&status)
    {
        return Err(format!(
            "`{status}` is not a METTLE status; they are: {}",
            crate::rules::mettle::STATUSES.join(", ")
        ));
    }
    let has = (play.fixed.pcs[i].statuses.iter().any(|s| s == status)
        && !marks.pcs[i].cured.iter().any(|s| s == status))
        || marks.pcs[i].gained.iter().any(|s| s == status);
    match (on, has) {
        (true, true) => Err(format!("{name} is {status} already")),
        (false, false) => Err(format!("{name} is not {status}")),
        _ => Ok(String::new()),
    }
}

/// Most rations or units of water the party's record keeps.
const MAX_SUPPLY: i64 = 1_000_000;

fn supplies(
    play: &Play,
    marks: &Marks,
    money: i64,
    rations: i64,
    water: i64,
) -> Result<String, String> {
    let f = &play.fixed;
    if !f.campaign {
        return Err(
            "a plain pack keeps no purse, rations or water: supplies are marked in a campaign's \
             session"
                .into(),
        );
    }
    if money == 0 && rations == 0 && water == 0 {
        return Err("`supplies` changes money, rations or water: give one that is not 0".into());
    }
    for (what, start, change, have) in [
        ("rations", f.rations, rations, marks.rations),
        ("units of water", f.water, water, marks.water),
    ] {
        let now = i64::from(start) + have;
        if now + change < 0 {
            return Err(format!(
                "the party has {now} {what}: it cannot lose {}",
                -change
            ));
        }
        // Only a gain is capped: a record already past the cap (a hand-kept
        // one may be) can still spend, and other supplies can still move.
        if change > 0 && now + change > MAX_SUPPLY {
            return Err(format!(
                "the party would have {} {what}, past the most a record keeps \
                 ({MAX_SUPPLY})",
                now + change
            ));
        }
    }
    if f.money + marks.money + money < 0 {
        return Err(format!(
            "the purse holds {}ʂ: it cannot pay {}ʂ",
            f.money + marks.money,
            -money
        ));
    }
    Ok(String::new())
}

fn arrive(play: &Play, marks: &Marks, stop: &str, day: u32) -> Result<String, String> {
    let (now, _) = marks.day_stop(play);
    if play.fixed.campaign && day < now {
        return Err(format!(
            "day {day} is before day {now}, the day the party is on"
        ));
    }
    let Some(map) = &play.fixed.map else {
        return Ok(String::new());
    };
    let found = map.stop_named(stop).or_else(|| {
        stop.parse::<usize>()
            .ok()
            .and_then(|n| n.checked_sub(1))
            .and_then(|i| map.stops.get(i))
    });
    match found {
        Some(s) if s.name == stop => reachable(play, map, s, day),
        Some(s) => Err(format!(
            "the stop is `{}`: write its name as the map does",
            s.name
        )),
        None => Err(format!("there is no stop `{stop}` on the map")),
    }
}

/// Whether the party could have reached `to` by `day` from where the
/// session started, as the ledger checks the record (two watches a day):
/// an arrival the record would refuse is refused here, at the table.
fn reachable(play: &Play, map: &Map, to: &Stop, day: u32) -> Result<String, String> {
    let from = play.fixed.stop.as_deref().and_then(|s| map.stop_named(s));
    let Some(from) = from.filter(|_| play.fixed.campaign) else {
        return Ok(String::new());
    };
    let first = play.fixed.day;
    match reach::check(map, from.id, to.id, first, day) {
        Err(Unreachable::NoRoad) => Err(format!(
            "the party could not have reached {}: no road leads there from {}, where the session started",
            to.name, from.name
        )),
        Err(Unreachable::TooFar {
            watches,
            days,
            soonest,
        }) => Err(format!(
            "the party could not have reached {} by day {day}: it is {} ({}) by road from {}, where the \
             session started on day {first}; mark the day it arrived (day {soonest} at the soonest)",
            to.name,
            count(watches, "watch", "watches"),
            count(days, "day", "days"),
            from.name,
        )),
        Ok(()) => Ok(String::new()),
    }
}

fn push(play: &Play, marks: &Marks, shown: &Shown) -> Result<String, String> {
    match shown {
        Shown::Item(a) => match play.fixed.items.iter().find(|i| i.address == *a) {
            Some(i) => Ok(i.players.0.clone()),
            None => Err(format!("there is no item `{a}` in this pack")),
        },
        Shown::Check(k) => match play.entries.get(k - 1).map(|e| &e.action) {
            Some(Action::Check { .. }) if !marks.struck.contains(k) => Ok(String::new()),
            _ => Err(format!(
                "action {k} is not a check: only a check's result can be shown by number"
            )),
        },
    }
}

fn undo(play: &Play, marks: &Marks, k: usize, reason: Option<&str>) -> Result<String, String> {
    let Some(e) = play.entries.get(k - 1) else {
        return Err(format!("there is no action {k} yet"));
    };
    match e.action {
        Action::Met { .. }
        | Action::Damage { .. }
        | Action::Status { .. }
        | Action::Spend { .. }
        | Action::Omens { .. }
        | Action::Corruption { .. }
        | Action::Supplies { .. }
        | Action::Arrive { .. }
        | Action::Push { .. }
        | Action::Heal { .. } => {}
        _ => {
            return Err(format!(
                "action {k} is not a mark: rolls, undos and the tracker are never undone"
            ));
        }
    }
    if marks.struck.contains(&k) {
        return Err(format!("action {k} is struck already"));
    }
    // A mark struck must leave the rest standing.
    let m = Marks::without(play, Some(k));
    if m.pcs.iter().any(|p| p.damage < 0) {
        return Err(format!(
            "action {k} cannot be struck: a heal marked after it would heal more than was lost"
        ));
    }
    Ok(match reason {
        Some(r) => format!("strikes {k}: {r}"),
        None => format!("strikes {k}"),
    })
}

/// The tracker after a tracker action (its cards, for the Core Rules,
/// in the action's result).
pub(crate) fn tracker_after(play: &Play, marks: &Marks, e: &Entry) -> Option<Tracker> {
    let Action::Tracker { op, name, now } = &e.action else {
        return marks.tracker.clone();
    };
    let mut t = marks.tracker.clone();
    match op.as_str() {
        "start" => t = Some(rolls::start(play, marks, name.as_deref(), &e.kept)),
        "end" => t = None,
        "next" => {
            if let Some(t) = &mut t {
                rolls::next(play.fixed.system, t, name.as_deref());
            }
        }
        _ => {
            if let (Some(t), Some(name), Some(now)) = (&mut t, name, now)
                && let Some(c) = t.combatants.iter_mut().find(|c| c.name == *name)
            {
                c.now = *now;
            }
        }
    }
    t
}

fn tracker(
    play: &Play,
    marks: &Marks,
    k: usize,
    (op, name, now): (&str, Option<&str>, Option<i64>),
    fresh: bool,
) -> Result<(String, Outcome), String> {
    let t = marks.tracker.as_ref();
    let named = |t: &Tracker| -> Result<(), String> {
        match name {
            Some(n) if t.combatants.iter().any(|c| c.name == n) => Ok(()),
            Some(n) => Err(format!("`{n}` is not in the encounter")),
            None => Err(format!("`tracker` `{op}` needs `name`")),
        }
    };
    match (op, t) {
        ("start", None) => rolls::deal(play, marks, k, name),
        ("start", Some(_)) => Err("an encounter is running: end it first".into()),
        (_, None) if ["next", "set", "end"].contains(&op) => {
            Err("no encounter is running: start one".into())
        }
        ("end", Some(_)) => Ok((String::new(), Outcome::Nothing {})),
        ("next", Some(t)) => {
            if play.fixed.system == RulesSystem::Mettle {
                named(t)?;
            }
            Ok((String::new(), Outcome::Nothing {}))
        }
        ("set", Some(t)) => {
            named(t)?;
            // A PC's track is the party's: no more healed than was lost
            // (asked of a new action: a log written before replays).
            if fresh
                && marks.tracks_pc(name)
                && let (Some(i), Some(now)) = (name.and_then(|n| pc(play, n).ok()), now)
                && marks.pcs[i].damage + marks.now(play, i) - now < 0
            {
                return Err(format!(
                    "{} has lost {} in play: no more than that can be healed here",
                    play.fixed.pcs[i].name, marks.pcs[i].damage
                ));
            }
            now.map(|_| (String::new(), Outcome::Nothing {}))
                .ok_or_else(|| "`tracker` `set` needs `now`".to_owned())
        }
        _ => Err(format!(
            "`op` of `tracker` is start, next, set or end (it is `{op}`)"
        )),
    }
}

/// The voucher in hand whose serial is `serial` in any case, spaces around
/// it aside (as a record's `vouchers_spent` is read): its serial as
/// printed, and its holder.
pub(super) fn voucher(f: &super::Fixed, serial: &str) -> Option<(String, String)> {
    f.vouchers
        .iter()
        .find(|(s, _)| s.trim().eq_ignore_ascii_case(serial.trim()))
        .cloned()
}
