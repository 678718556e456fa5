//! A record checked against the campaign as it stood when the session
//! started, before anything is folded: each refusal at its line and
//! column, with a hint. One small check per key, by concern:
//!
//! - this file: the session, day, stop, stops helped, items and people
//!   met, people slain and purse;
//! - [`joining`]: the `[[joined]]` PCs, each a legal stat block or sheet;
//! - [`pcs`]: each `[[pc]]` entry — in the party, once, with its own
//!   system's keys — and METTLE's statuses and healer;
//! - [`core_pc`]: a Core `[[pc]]` entry's slips, lowered abilities, cures and
//!   conditions.

mod core_pc;
mod joining;
mod pcs;

pub(super) use joining::joined;

use super::{PackFacts, SessionInput, Start};
use crate::campaign::record::RecordFile;
use crate::campaign::state::{PcState, State};
use crate::content::validate::closest;
use crate::diagnostic::Diagnostic;
use crate::generators::count;
use crate::generators::map::reach::{self, Unreachable};
use crate::rules::RulesSystem;

/// Every problem of `record` (session `s`) against `state`: one check
/// per key, a record of a session never prepped refused alone.
pub(crate) fn check(
    start: &Start,
    state: &State,
    s: &SessionInput,
    record: &RecordFile,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    out.extend(session_problem(s.number, record));
    let Some(pack) = &s.pack else {
        out.push(never_prepped(s.number, record));
        return out;
    };
    out.extend(day_problem(state, s.number, record));
    out.extend(stop_problems(start, state, s.number, record));
    out.extend(helped_problems(start, state, pack, record));
    out.extend(met_problems(pack, s.number, record));
    out.extend(slain_problems(pack, s.number, record));
    out.extend(super::vouchers::problems(state, pack, record));
    out.extend(money_problem(state, record));
    let joined = joining::joined(start, state, record);
    let joined_names: Vec<String> = match &joined {
        Ok(pcs) => pcs.iter().map(|p| p.name.clone()).collect(),
        Err(problems) => {
            out.extend(problems.iter().cloned());
            Vec::new()
        }
    };
    let joined_pcs: &[PcState] = joined.as_deref().unwrap_or(&[]);
    for (i, pc) in record.record.pcs.iter().enumerate() {
        out.extend(pcs::pc_problems(
            start,
            state,
            s,
            record,
            i,
            pc,
            &joined_names,
        ));
        if start.system == RulesSystem::Core {
            out.extend(super::omens::problems(state, joined_pcs, record, i, pc));
        }
    }
    out
}

/// `session`: the number of the session the record is read for.
fn session_problem(n: u32, record: &RecordFile) -> Option<Diagnostic> {
    let r = &record.record;
    (r.session != n).then(|| {
        record
            .at_key(
                "session",
                format!(
                    "session = {}, but this is the record of session {n}",
                    r.session
                ),
            )
            .with_hint(format!(
                "write `session = {n}`: a record is read from its session's folder"
            ))
    })
}

/// A record of a session that has no pack.
fn never_prepped(n: u32, record: &RecordFile) -> Diagnostic {
    record
        .at_key(
            "session",
            format!("a record of session {n}, which was never prepped"),
        )
        .with_hint(format!(
            "prep it first (`tablewright prep {n}`), play it, then record it"
        ))
}

/// `day`: not before the day the session started on.
fn day_problem(state: &State, n: u32, record: &RecordFile) -> Option<Diagnostic> {
    let day = record.record.day;
    (day < state.day).then(|| {
        record
            .at_key(
                "day",
                format!(
                    "day {day} is before day {}, the day session {n} started on",
                    state.day
                ),
            )
            .with_hint("`day` is the day the session ended on; days only go forward")
    })
}

/// `met` and `npcs_met`: items of the pack.
fn met_problems(pack: &PackFacts, n: u32, record: &RecordFile) -> Vec<Diagnostic> {
    let r = &record.record;
    let mut out = Vec::new();
    let has = |kind: &str, a: &str| pack.items.iter().any(|i| i == a && i.starts_with(kind));
    for (i, a) in r.met.iter().enumerate() {
        if !pack.items.contains(a) {
            out.push(unknown_item(record, "met", i, a, n, &pack.items));
        }
    }
    let npcs: Vec<String> = pack.npcs.iter().map(|n| n.address.clone()).collect();
    for (i, a) in r.npcs_met.iter().enumerate() {
        if !has("npc/", a) && !npcs.contains(a) {
            out.push(unknown_item(record, "npcs_met", i, a, n, &npcs));
        }
    }
    out
}

/// The person a record's `slain` entry names: an encounter's address (its
/// named leader, else the face it brings back), an NPC's address, or the
/// name of any of them (any case). `None`: the pack has no such person.
pub(crate) fn slain_person<'p>(pack: &'p PackFacts, entry: &str) -> Option<&'p str> {
    let people = || pack.people.iter().chain(&pack.npcs);
    people()
        .find(|p| p.address == entry)
        .or_else(|| people().find(|p| p.name.eq_ignore_ascii_case(entry.trim())))
        .map(|p| p.name.as_str())
}

/// `slain`: each entry a person of the pack ([`slain_person`]).
fn slain_problems(pack: &PackFacts, n: u32, record: &RecordFile) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let known: Vec<String> = pack
        .people
        .iter()
        .chain(&pack.npcs)
        .map(|p| format!("{} ({})", p.address, p.name))
        .collect();
    for (i, entry) in record.record.slain.iter().enumerate() {
        if slain_person(pack, entry).is_some() {
            continue;
        }
        let message = if entry.starts_with("encounter/") && pack.items.contains(entry) {
            format!(
                "slain: `{entry}` names no one who could die: its foes are beasts or monsters, \
                 or there are none, and nobody comes back in it"
            )
        } else {
            format!("slain: the pack of session {n} has no person `{entry}`")
        };
        let candidates = pack.people.iter().chain(&pack.npcs);
        let words = candidates.flat_map(|p| [p.address.as_str(), p.name.as_str()]);
        let d = record
            .at_item("slain", i, message)
            .with_suggestion(closest(entry, words).map(str::to_owned));
        out.push(if known.is_empty() {
            d.with_hint("this pack has no named person who could die: leave `slain` out")
        } else {
            d.with_hint(format!(
                "name an encounter with a named leader, an NPC, or a person by name: {}",
                known.join(", ")
            ))
        });
    }
    out
}

/// `money`: the purse never goes below zero.
fn money_problem(state: &State, record: &RecordFile) -> Option<Diagnostic> {
    let money = record.record.money;
    (state.money + money < 0).then(|| {
        record
            .at_key(
                "money",
                format!(
                    "money = {money}: the party had {}ʂ, which leaves {}ʂ — money never goes below zero",
                    state.money,
                    state.money + money
                ),
            )
            .with_hint(format!(
                "the party can spend at most {}ʂ; record what it gained as well",
                state.money
            ))
    })
}

/// The record's stop: on the map, and reachable by road from where the
/// session started in the days it took.
fn stop_problems(start: &Start, state: &State, n: u32, record: &RecordFile) -> Vec<Diagnostic> {
    let (Some(map), Some(stop)) = (&start.map, &record.record.stop) else {
        return Vec::new();
    };
    let Some(to) = map.stop_named(stop) else {
        let names = map.stops.iter().map(|s| s.name.as_str());
        return vec![
            record
                .at_key("stop", format!("the campaign map has no stop `{stop}`"))
                .with_suggestion(closest(stop, names).map(str::to_owned))
                .with_hint(format!(
                    "name a stop of the map or give its number (1 to {})",
                    map.stops.len()
                )),
        ];
    };
    let Some(from) = state.stop.as_deref().and_then(|s| map.stop_named(s)) else {
        return Vec::new();
    };
    // The session's days, the first and the last included.
    let (first, last) = (state.day, record.record.day);
    if last < first {
        return Vec::new();
    }
    let available = last - first + 1;
    match reach::check(map, from.id, to.id, first, last) {
        Err(Unreachable::NoRoad) => vec![
            record
                .at_key(
                    "stop",
                    format!(
                        "the party could not have reached {}: no road leads there from {}, where session {n} started",
                        to.name, from.name
                    ),
                )
                .with_hint("name a stop connected to the party's by the map's paths"),
        ],
        Err(Unreachable::TooFar { watches, days, soonest }) => vec![
            record
                .at_key(
                    "stop",
                    format!(
                        "the party could not have reached {}: it is {} ({}) by road from {}, \
                         where session {n} started, but the session ran from day {first} to day {last} ({})",
                        to.name,
                        count(watches, "watch", "watches"),
                        count(days, "day", "days"),
                        from.name,
                        count(available, "day", "days")
                    ),
                )
                .with_hint(format!("fix `stop`, or `day` (the day the session ended on: day {soonest} at the soonest); the party travels two watches a day")),
        ],
        Ok(()) => Vec::new(),
    }
}

/// `helped`: stops of the campaign map the party has been at — where a
/// session started or stopped, or a stop of this session's planned legs.
fn helped_problems(
    start: &Start,
    state: &State,
    pack: &PackFacts,
    record: &RecordFile,
) -> Vec<Diagnostic> {
    let helped = &record.record.helped;
    let Some(map) = &start.map else {
        return helped
            .iter()
            .take(1)
            .map(|_| {
                record
                    .at_item(
                        "helped",
                        0,
                        "helped: names stops of the campaign map, and this campaign has none",
                    )
                    .with_hint("leave `helped` out: without a map no journey comes back to a stop")
            })
            .collect();
    };
    let been = |id: usize| {
        state
            .visited
            .iter()
            .chain(&pack.legs)
            .chain(&record.record.stop)
            .any(|b| map.stop_named(b).is_some_and(|s| s.id == id))
    };
    let mut out = Vec::new();
    for (i, name) in helped.iter().enumerate() {
        match map.stop_named(name) {
            None => out.push(
                record
                    .at_item(
                        "helped",
                        i,
                        format!("helped: the campaign map has no stop `{name}`"),
                    )
                    .with_suggestion(
                        closest(name, map.stops.iter().map(|s| s.name.as_str())).map(str::to_owned),
                    )
                    .with_hint(format!(
                        "name a stop of the map or give its number (1 to {})",
                        map.stops.len()
                    )),
            ),
            Some(stop) if !been(stop.id) => out.push(
                record
                    .at_item(
                        "helped",
                        i,
                        format!(
                            "helped: the party was never at {}, so it cannot have dealt with its trouble",
                            stop.name
                        ),
                    )
                    .with_hint(
                        "name a stop the party has been at: where a session started or stopped, \
                         or a stop of this session's planned legs",
                    ),
            ),
            Some(_) => {}
        }
    }
    out
}

/// An address the pack does not hold.
fn unknown_item(
    record: &RecordFile,
    key: &str,
    i: usize,
    address: &str,
    n: u32,
    known: &[String],
) -> Diagnostic {
    let d = record.at_item(
        key,
        i,
        format!("the pack of session {n} has no item `{address}`"),
    );
    match closest(address, known.iter().map(String::as_str)) {
        Some(c) => d.with_suggestion(Some(c.to_owned())),
        None if known.is_empty() => d.with_hint("the pack has none of these"),
        None => d.with_hint(format!("the pack has {}", known.join(", "))),
    }
}
