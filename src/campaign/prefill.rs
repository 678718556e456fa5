//! A session's record, pre-filled from its pack ([`after`]): the day
//! and stop it started at, each item of the pack by address (none met
//! yet), the NPCs, the planned legs, the vouchers in hand and each PC as
//! they started. `record N` writes it as `sessions/N/record.toml`
//! ([`record_text`]); the pack's "After the session" sheet prints
//! the same lines to mark at the table. The keys are those of
//! [`crate::campaign::record`].

use std::fmt::Write as _;

use crate::generators::journey::Wanting;
use crate::generators::session::{After, Pack};
use crate::rules::RulesSystem;

/// A PC's start as one line, from the pack's party.
fn pc_lines(pack: &Pack) -> Vec<(String, String)> {
    match pack.system {
        RulesSystem::Mettle => pack
            .party
            .mettle
            .iter()
            .map(|b| {
                let max = b.mettle();
                let mut line = format!("Mettle {max} of {max}");
                if !b.statuses.is_empty() {
                    let _ = write!(line, "; {}", b.statuses.join(", "));
                }
                (b.name.clone(), line)
            })
            .collect(),
        RulesSystem::Core => pack
            .party
            .core
            .iter()
            .map(|s| {
                let health = s.health.unwrap_or(s.STR);
                let mut line = format!(
                    "health {health} of {}, STR {} AGI {} WIT {}, omens {} of {}, corruption {}",
                    s.STR, s.STR, s.AGI, s.WIT, s.omens, s.max_omens, s.corruption
                );
                if !s.conditions.is_empty() {
                    let _ = write!(line, "; {}", s.conditions.join(", "));
                }
                (s.name.clone(), line)
            })
            .collect(),
    }
}

/// The record of session `session` of `pack`, starting on `day` at
/// `stop`; vouchers in hand carried from earlier sessions (`carried`)
/// come before the pack's own; `pcs`: each PC's state now (default: as
/// the pack's party stands).
pub(crate) fn after(
    session: usize,
    pack: &Pack,
    day: u32,
    stop: Option<String>,
    carried: &[(String, String)],
    pcs: Option<Vec<(String, String)>>,
) -> After {
    let mut items = Vec::new();
    let mut npcs = Vec::new();
    for at in pack.addresses() {
        let i = at.index();
        let name = match at.kind() {
            "encounter" => pack.encounters[i].situation.row.clone(),
            "trap" => pack.traps[i].name.clone(),
            "npc" => {
                npcs.push((at.to_string(), pack.npcs[i].name.clone()));
                continue;
            }
            "injury" => pack.injuries[i].name.clone(),
            "mutation" => pack.mutations[i]
                .gained
                .iter()
                .map(|g| g.name.clone())
                .collect::<Vec<_>>()
                .join(", "),
            _ => continue,
        };
        items.push((at.to_string(), name));
    }
    // Encounters on the way are items too, after the pack's own.
    for (note, (at, _)) in pack
        .journey
        .iter()
        .flat_map(|j| &j.encounters)
        .zip(pack.journey_encounters())
    {
        items.push((
            at,
            format!("{} (on the way, day {}: {})", note.name, note.day, note.leg),
        ));
    }
    let legs = pack.journey.as_ref().map_or_else(Vec::new, |j| {
        let mut stops: Vec<String> = j.legs.first().map(|l| l.from.clone()).into_iter().collect();
        stops.extend(j.legs.iter().map(|l| l.to.clone()));
        stops
    });
    let mut vouchers = carried.to_vec();
    vouchers.extend(
        pack.vouchers
            .iter()
            .map(|v| (v.serial.clone(), v.holder.clone())),
    );
    // What the journey left, as the party's totals (the pool the next
    // journey sets out with when the record says it).
    let (rations, water) = pack
        .journey
        .as_ref()
        .map_or((None, None), |j| (Some(j.rations_left), Some(j.water_left)));
    let (fasting, starved) = fasting_at_the_end(pack);
    After {
        fasting,
        starved,
        session,
        system: pack.system,
        day,
        stop,
        items,
        npcs,
        people: pack.people(),
        legs,
        vouchers,
        pcs: pcs.unwrap_or_else(|| pc_lines(pack)),
        rations,
        water,
    }
}

/// METTLE: each PC's days without food and water at the journey's end
/// (0 for one who set out Hungry or Thirsty and no longer is), and the
/// PCs it killed; nothing without a journey.
fn fasting_at_the_end(pack: &Pack) -> (Vec<Wanting>, Vec<String>) {
    let Some(last) = pack.journey.as_ref().and_then(|j| j.watches.last()) else {
        return (Vec::new(), Vec::new());
    };
    let mut out = Vec::new();
    for b in &pack.party.mettle {
        if last.dead.contains(&b.name) {
            continue;
        }
        let set_out = b.statuses.iter().any(|s| s == "Hungry" || s == "Thirsty");
        match last.wanting.iter().find(|w| w.name == b.name) {
            Some(w) => out.push(w.clone()),
            None if set_out => out.push(Wanting {
                name: b.name.clone(),
                hungry: 0,
                thirsty: 0,
            }),
            None => {}
        }
    }
    (out, last.dead.clone())
}

/// The record file, pre-filled: every key with its meaning beside it,
/// nothing met yet, each PC with no harm taken.
pub(crate) fn record_text(a: &After) -> String {
    let mut t = String::new();
    record_head(&mut t, a);
    record_items(&mut t, a);
    record_purse(&mut t, a);
    for (name, start) in &a.pcs {
        record_pc(&mut t, a.system, name, start);
        if let Some(w) = a.fasting.iter().find(|w| &w.name == name) {
            kv(
                &mut t,
                "hungry",
                &w.hungry.to_string(),
                "days without food at the end (the journey log's)",
            );
            kv(
                &mut t,
                "thirsty",
                &w.thirsty.to_string(),
                "days without water at the end",
            );
        }
        if a.starved.contains(name) {
            kv(
                &mut t,
                "fate",
                "\"dead\"",
                "hunger and thirst killed them on the journey",
            );
        } else {
            kv(
                &mut t,
                "# fate",
                "\"dead\"",
                "or \"left\" (the PC died or left)",
            );
        }
    }
    t
}

/// The comment on top, the session, its day and stop, the planned legs.
fn record_head(t: &mut String, a: &After) {
    let n = a.session;
    let _ = writeln!(
        t,
        "# Session {n}'s record: what happened at the table. Edit it after play (the\n\
         # pack's \"After the session\" sheet has the same lines to mark), then\n\
         # `tablewright prep` makes session {}. Every key is in the guide\n\
         # (chapter Campaigns, \"The session record\").",
        n + 1
    );
    let _ = writeln!(t, "session = {n}");
    kv(
        t,
        "day",
        &a.day.to_string(),
        &format!("the day the session ended on (it started on day {})", a.day),
    );
    if let Some(stop) = &a.stop {
        kv(
            t,
            "stop",
            &quoted(stop),
            "where the party stopped (it started here)",
        );
    }
    if !a.legs.is_empty() {
        let _ = writeln!(t, "# the planned legs: {}", a.legs.join(" → "));
    }
    kv(
        t,
        "# helped",
        "[]",
        "stops whose trouble the party dealt with, by name",
    );
    t.push('\n');
}

/// The items of the pack (`met`), its NPCs (`npcs_met`), the people who
/// could die (`slain`) and, in METTLE,
/// the vouchers in hand (`vouchers_spent`).
fn record_items(t: &mut String, a: &After) {
    let _ = writeln!(
        t,
        "# Items of the pack met at the table, by address; every other one was not met:"
    );
    for (at, name) in &a.items {
        let _ = writeln!(t, "#   {at}: {name} (not met)");
    }
    let _ = writeln!(t, "met = []");
    if !a.npcs.is_empty() {
        let _ = writeln!(
            t,
            "# The NPCs, by address (those met are remembered and can be brought back):"
        );
        for (at, name) in &a.npcs {
            let _ = writeln!(t, "#   {at}: {name}");
        }
    }
    let _ = writeln!(t, "npcs_met = []");
    if !a.people.is_empty() || !a.npcs.is_empty() {
        let _ = writeln!(
            t,
            "# People who died, by address or name (never brought back){}",
            match (a.npcs.is_empty(), a.people.is_empty()) {
                (false, false) => ": an NPC above, or",
                (false, true) => ": an NPC above",
                _ => ":",
            }
        );
        for (at, name) in &a.people {
            let _ = writeln!(t, "#   {at}: {name}");
        }
        let _ = writeln!(t, "slain = []");
    }
    if a.system == RulesSystem::Mettle {
        if !a.vouchers.is_empty() {
            let _ = writeln!(t, "# Vouchers in hand, by serial:");
            for (serial, holder) in &a.vouchers {
                let _ = writeln!(t, "#   {serial} ({holder})");
            }
        }
        let _ = writeln!(t, "vouchers_spent = []");
    }
}

/// The party's money and supplies.
fn record_purse(t: &mut String, a: &After) {
    kv(
        t,
        "money",
        "0",
        "shillings gained (+) or spent (-) by the party",
    );
    kv(
        t,
        "# rations",
        &a.rations.unwrap_or(4).to_string(),
        "the party's rations left (left out: as before)",
    );
    kv(
        t,
        "# water",
        &a.water.unwrap_or(3).to_string(),
        "the party's units of water left",
    );
}

/// One PC's `[[pc]]` entry, by the system's keys.
fn record_pc(t: &mut String, system: RulesSystem, name: &str, start: &str) {
    t.push('\n');
    let _ = writeln!(t, "[[pc]]");
    kv(t, "name", &quoted(name), &format!("at the start: {start}"));
    match system {
        RulesSystem::Mettle => {
            kv(t, "damage", "0", "Mettle lost and not recovered");
            kv(t, "statuses", "[]", "statuses gained (Afflicted, …)");
        }
        RulesSystem::Core => {
            kv(t, "damage", "0", "health lost and not healed");
            kv(t, "conditions", "[]", "conditions gained");
            kv(
                t,
                "injuries",
                "[]",
                "a slip by address (\"injury/1\"), a row's name, or \"roll\"",
            );
            kv(t, "mutations", "[]", "a slip by address, or \"roll\"");
            kv(t, "corruption", "0", "corruption gained");
            kv(t, "omens", "0", "omens spent (back at a full rest)");
        }
    }
}

/// `key = value` and its comment, the comments lined up.
pub(crate) fn kv(t: &mut String, key: &str, value: &str, comment: &str) {
    let line = format!("{key} = {value}");
    let pad = 25usize.saturating_sub(line.chars().count()).max(1);
    let _ = writeln!(t, "{line}{}# {comment}", " ".repeat(pad));
}

/// A TOML basic string.
pub(crate) fn quoted(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}
