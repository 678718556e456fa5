//! METTLE's Hungry, Thirsty and Starving across sessions (Scenes,
//! Status): what a record says of a PC's days without food and water,
//! kept on the PC until a record or a rule ends them, so the next
//! journey's hunger clock starts where the last one stopped.
//!
//! - Hungry: +1 Difficulty a day without food; Thirsty: +2 a day without
//!   water. The days are the PC's (`hungry`, `thirsty`); the statuses
//!   follow them (a PC with days has the status; 0 days ends it).
//! - Starving: every day without food lowers maximum Mettle by one,
//!   deadly at 0 or below, restored by food. The ledger applies it to a PC
//!   the record calls Starving, counting their days without food; eating
//!   (`hungry = 0`) ends it and gives the maximum back.

use super::{Change, Start, change, fate, rule};
use crate::campaign::record::PcRecord;
use crate::campaign::state::{MettlePc, State};

/// Apply what `[[pc]]` entry `entry` says of PC `name`'s hunger and
/// thirst (after its `statuses` and `cured`): the days it gives, else at
/// least a day for a status gained, none for one cured.
pub(super) fn record(name: &str, m: &mut MettlePc, entry: &PcRecord, changes: &mut Vec<Change>) {
    for (status, days, given) in [
        ("Hungry", &mut m.hungry, entry.hungry),
        ("Thirsty", &mut m.thirsty, entry.thirsty),
    ] {
        let before = *days;
        if entry.cured.iter().any(|c| c == status) {
            *days = 0;
        }
        // Starving is a want of food: at least a day without it.
        let starving = status == "Hungry" && entry.statuses.iter().any(|s| s == "Starving");
        if starving || entry.statuses.iter().any(|s| s == status) {
            *days = (*days).max(1);
        }
        if let Some(d) = given {
            *days = d;
        }
        if *days != before {
            let without = if status == "Hungry" { "food" } else { "water" };
            changes.push(change(
                name,
                format!("days without {without}: {before} → {days}"),
                rule::RECORD,
            ));
        }
    }
    follow(name, m, changes);
}

/// The statuses follow the days: Hungry and Thirsty while there are
/// days; Starving ends when the PC has eaten.
fn follow(name: &str, m: &mut MettlePc, changes: &mut Vec<Change>) {
    let statuses = &mut m.block.statuses;
    for (status, days) in [("Hungry", m.hungry), ("Thirsty", m.thirsty)] {
        let has = statuses.iter().any(|s| s == status);
        if days > 0 && !has {
            statuses.push(status.to_owned());
        } else if days == 0 && has {
            statuses.retain(|s| s != status);
            changes.push(change(
                name,
                format!(
                    "{status} ends: they {}",
                    if status == "Hungry" { "ate" } else { "drank" }
                ),
                format!("{}: {status}", rule::STATUS),
            ));
        }
    }
    if m.hungry == 0 && statuses.iter().any(|s| s == "Starving") {
        statuses.retain(|s| s != "Starving");
        changes.push(change(
            name,
            "Starving ends: restored by food",
            rule::STARVING,
        ));
    }
}

/// The Difficulty `hungry` and `thirsty` days give against the best
/// CALLING (best attribute with none) a PC dies past, as the journey
/// reads it: `Some((difficulty, calling))` when it is past.
pub(crate) fn past_calling(
    block: &crate::rules::mettle::StatBlock,
    hungry: u32,
    thirsty: u32,
) -> Option<(u32, u32)> {
    let calling = match block.callings.iter().map(|c| c.dice).max() {
        Some(dice) => dice,
        None => block.attributes().iter().map(|a| a.1).max().unwrap_or(0),
    };
    let difficulty = hungry + 2 * thirsty;
    (difficulty > calling).then_some((difficulty, calling))
}

/// Maximum Mettle now: the stat block's, less a point a day without food
/// while Starving.
pub(crate) fn max_mettle(m: &MettlePc) -> i64 {
    let starving = m.block.statuses.iter().any(|s| s == "Starving");
    i64::from(m.block.mettle()) - if starving { i64::from(m.hungry) } else { 0 }
}

/// Between sessions: each Starving PC's maximum Mettle as their days
/// without food leave it; at 0 or below, they die of it.
pub(super) fn starving(
    start: &Start,
    state: &mut State,
    n: u32,
    present: &[usize],
    changes: &mut Vec<Change>,
) {
    for &k in present {
        if !state.pcs[k].is_present() {
            continue;
        }
        let name = state.pcs[k].name.clone();
        let Some(m) = state.pcs[k].mettle_mut() else {
            continue;
        };
        let max = max_mettle(m);
        if max == m.max_mettle {
            continue;
        }
        changes.push(change(
            &name,
            format!("maximum Mettle {} → {max}", m.max_mettle),
            rule::STARVING,
        ));
        m.max_mettle = max;
        m.mettle = m.mettle.min(max);
        if max <= 0 {
            fate::die(
                start,
                state,
                k,
                n,
                false,
                "starved to death: maximum Mettle at 0 or below",
                rule::STARVING,
                changes,
            );
        }
    }
}
