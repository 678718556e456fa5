//! What a checked record says happened during its session, applied to
//! the state: the day, the stop and the stops passed, the stops whose
//! trouble the party dealt with, NPCs met, people slain, vouchers
//! printed and spent, the purse and the supplies, PCs who joined, and
//! each PC's own entry (by the system's rules), then who died or left.

use super::{Change, PackFacts, Start, change, checks, core, fate, mettle, road, rule, vouchers};
use crate::campaign::record::{Fate, PcRecord, RecordFile};
use crate::campaign::state::{HeldVoucher, MetNpc, State, TrailLeg, Travelled};
use crate::generators::count;
use crate::rules::RulesSystem;

/// Apply session `n`'s record: one step per thing a record says, in
/// this order (a PC who joins has their own entry applied; a PC's entry
/// is applied before their fate).
pub(super) fn session(
    start: &Start,
    state: &mut State,
    n: u32,
    pack: &PackFacts,
    record: &RecordFile,
    changes: &mut Vec<Change>,
) {
    let day_start = state.day;
    advance_day(state, record.record.day, changes);
    let walked = travel(start, state, pack, record, changes);
    state.trail.push(TrailLeg {
        session: n,
        day_start,
        day_end: record.record.day,
        stops: walked,
    });
    help(start, state, &record.record.helped, changes);
    meet(state, pack, &record.record.npcs_met, n, changes);
    slay(state, pack, &record.record.slain, changes);
    issue_vouchers(state, pack, n);
    vouchers::spend(state, n, record, changes);
    purse(state, record.record.money, changes);
    supplies(state, record, changes);
    join(start, state, record, changes);
    pc_entries(start, state, n, pack, &record.record.pcs, changes);
    fates(start, state, n, record, changes);
}

/// The record's day: the session ended on it.
fn advance_day(state: &mut State, day: u32, changes: &mut Vec<Change>) {
    if day != state.day {
        changes.push(change(
            "party",
            format!(
                "day {} → {day} ({})",
                state.day,
                count(day - state.day, "day", "days")
            ),
            rule::RECORD,
        ));
        state.day = day;
    }
}

/// The vouchers the pack printed are in their holders' hands.
fn issue_vouchers(state: &mut State, pack: &PackFacts, n: u32) {
    for v in &pack.vouchers {
        state.vouchers.push(HeldVoucher {
            serial: v.serial.clone(),
            holder: v.holder.clone(),
            issued_in: n,
            downtime: false,
        });
    }
}

/// The record's `money`: gained or spent by the party.
fn purse(state: &mut State, money: i64, changes: &mut Vec<Change>) {
    if money != 0 {
        changes.push(change(
            "party",
            format!(
                "money {}ʂ → {}ʂ ({:+}ʂ)",
                state.money,
                state.money + money,
                money
            ),
            rule::RECORD,
        ));
        state.money += money;
    }
}

/// The record's `rations` and `water` left.
fn supplies(state: &mut State, record: &RecordFile, changes: &mut Vec<Change>) {
    let r = &record.record;
    for (what, left, now) in [
        ("rations", r.rations, &mut state.rations),
        ("water", r.water, &mut state.water),
    ] {
        if let Some(v) = left
            && *now != Some(v)
        {
            changes.push(change("party", format!("{what} left: {v}"), rule::RECORD));
            *now = Some(v);
        }
    }
}

/// The record's `[[joined]]` PCs join the party.
fn join(start: &Start, state: &mut State, record: &RecordFile, changes: &mut Vec<Change>) {
    if let Ok(joined) = checks::joined(start, state, record) {
        for pc in joined {
            changes.push(change(&pc.name, "joined the party", rule::JOINED));
            state.pcs.push(pc);
        }
    }
}

/// The present PC a `[[pc]]` entry names.
fn present_pc(state: &State, name: &str) -> Option<usize> {
    state
        .pcs
        .iter()
        .position(|p| p.is_present() && p.name.eq_ignore_ascii_case(name.trim()))
}

/// Each `[[pc]]` entry applied to its PC, by the system's rules.
fn pc_entries(
    start: &Start,
    state: &mut State,
    n: u32,
    pack: &PackFacts,
    entries: &[PcRecord],
    changes: &mut Vec<Change>,
) {
    for entry in entries {
        let Some(k) = present_pc(state, &entry.name) else {
            continue;
        };
        match start.system {
            RulesSystem::Core => core::pc_record(start, state, k, n, pack, entry, changes),
            RulesSystem::Mettle => mettle::pc_record(state, k, entry, changes),
        }
    }
}

/// Each `[[pc]]` entry's `fate`: the PC died or left.
fn fates(start: &Start, state: &mut State, n: u32, record: &RecordFile, changes: &mut Vec<Change>) {
    for entry in &record.record.pcs {
        let Some(fate) = entry.fate else { continue };
        let Some(k) = present_pc(state, &entry.name) else {
            continue;
        };
        match fate {
            Fate::Dead => fate::die(
                start,
                state,
                k,
                n,
                entry.remains,
                "died",
                rule::RECORD,
                changes,
            ),
            Fate::Left => fate::leave(state, k, n, changes),
        }
    }
}

/// The record's stop: where the party is now, and the stops it passed
/// (along the planned journey when the stop is on it, else along the
/// quickest road) added to those visited, the paths between them to those
/// travelled. Returns the stops walked, in order, from where the session
/// started (just that stop when the record names none or the same one;
/// empty when the party has no stop).
fn travel(
    start: &Start,
    state: &mut State,
    pack: &PackFacts,
    record: &RecordFile,
    changes: &mut Vec<Change>,
) -> Vec<String> {
    let Some(stop) = &record.record.stop else {
        return state.stop.iter().cloned().collect();
    };
    let (name, passed) = match &start.map {
        Some(map) => {
            let to = map
                .stop_named(stop)
                .expect("checked: the stop is on the map");
            let from = state.stop.as_deref().and_then(|s| map.stop_named(s));
            // The planned journey, when it set out from where the party is.
            let along_legs = pack
                .legs
                .iter()
                .position(|l| l.eq_ignore_ascii_case(&to.name))
                .filter(|_| {
                    from.is_some_and(|f| {
                        pack.legs
                            .first()
                            .is_some_and(|l| l.eq_ignore_ascii_case(&f.name))
                    })
                })
                .map(|i| pack.legs[..=i].to_vec());
            let passed = along_legs.unwrap_or_else(|| match from {
                Some(f) => road::quickest(map, f.id, to.id)
                    .map(|(stops, _)| stops.iter().map(|&s| map.stops[s].name.clone()).collect())
                    .unwrap_or_else(|| vec![to.name.clone()]),
                None => vec![to.name.clone()],
            });
            (to.name.clone(), passed)
        }
        None => (stop.trim().to_owned(), vec![stop.trim().to_owned()]),
    };
    if state.stop.as_deref() != Some(name.as_str()) {
        changes.push(change(
            "party",
            match &state.stop {
                Some(from) => format!("travelled from {from} to {name}"),
                None => format!("stopped at {name}"),
            },
            rule::RECORD,
        ));
    }
    let mut walked: Vec<String> = Vec::new();
    if let Some(from) = &state.stop
        && passed.first() != Some(from)
        && start.map.is_none()
    {
        walked.push(from.clone());
    }
    walked.extend(passed);
    if walked.last() != Some(&name) {
        walked.push(name.clone());
    }
    if let Some(map) = &start.map {
        for pair in walked.windows(2) {
            let (Some(a), Some(b)) = (map.stop_named(&pair[0]), map.stop_named(&pair[1])) else {
                continue;
            };
            let known = state.travelled.iter().any(|t| {
                (t.from == a.name && t.to == b.name) || (t.from == b.name && t.to == a.name)
            });
            if a.id != b.id && map.path_between(a.id, b.id).is_some() && !known {
                state.travelled.push(Travelled {
                    from: a.name.clone(),
                    to: b.name.clone(),
                    session: state.session,
                });
            }
        }
    }
    for s in &walked {
        if !state.visited.contains(s) {
            state.visited.push(s.clone());
        }
    }
    state.stop = Some(name);
    walked
}

/// The record's `helped`: the stops whose trouble the party dealt with,
/// by the map's names, each kept once.
fn help(start: &Start, state: &mut State, helped: &[String], changes: &mut Vec<Change>) {
    let Some(map) = &start.map else { return };
    for stop in helped.iter().filter_map(|name| map.stop_named(name)) {
        if !state.helped.contains(&stop.name) {
            changes.push(change(
                "party",
                format!("dealt with the trouble at {}", stop.name),
                rule::RECORD,
            ));
            state.helped.push(stop.name.clone());
        }
    }
}

/// The people a record says died (`slain`), by name, each kept once: the
/// campaign never brings them back.
fn slay(state: &mut State, pack: &PackFacts, slain: &[String], changes: &mut Vec<Change>) {
    for name in slain.iter().filter_map(|e| checks::slain_person(pack, e)) {
        if !state.slain.iter().any(|s| s == name) {
            changes.push(change("party", format!("{name} died"), rule::RECORD));
            state.slain.push(name.to_owned());
        }
    }
}

/// The NPCs a record says the party met, remembered by where their pack
/// made them: a returning NPC (`npc/2 of session 1`) as `npc/2` of
/// session 1, never met twice.
fn meet(
    state: &mut State,
    pack: &PackFacts,
    npcs_met: &[String],
    n: u32,
    changes: &mut Vec<Change>,
) {
    for address in npcs_met {
        let Some(npc) = pack.npcs.iter().find(|p| &p.address == address) else {
            continue;
        };
        // A returning NPC (`npc/2 of session 1`) is remembered by where
        // their pack made them; met again, they are not met twice.
        let (own, made_in) = match address.split_once(" of session ") {
            Some((at, k)) => (at.to_owned(), k.parse().unwrap_or(n)),
            None => (address.clone(), n),
        };
        let known = state
            .npcs_met
            .iter()
            .any(|m| m.address == own && m.session == made_in);
        let what = match (made_in == n, known) {
            (true, _) => format!("met {} ({own} of session {n})", npc.name),
            (false, false) => format!(
                "met {}, brought back ({own} of session {made_in})",
                npc.name
            ),
            (false, true) => format!("met {} again ({own} of session {made_in})", npc.name),
        };
        if !known || made_in != n {
            changes.push(change("party", what, rule::RECORD));
        }
        if !known {
            state.npcs_met.push(MetNpc {
                address: own,
                name: npc.name.clone(),
                session: made_in,
            });
        }
    }
}
