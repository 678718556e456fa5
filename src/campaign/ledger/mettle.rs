//! METTLE in the ledger: a PC's record (statuses, Mettle lost) and what
//! happens between sessions, a small function a rule — statuses carried
//! or cleared, the Heal Check in downtime for those at 0 Mettle or below
//! ([`super::heal`]), Downtime Vouchers for the others, and Mettle
//! refilled above zero.

use super::{Change, Start, change, heal, rule, want};
use crate::campaign::record::{PcRecord, RecordFile};
use crate::campaign::state::{HeldVoucher, State};
use crate::generators::voucher;

/// Apply `[[pc]]` entry `entry` to PC `k`.
pub(super) fn pc_record(state: &mut State, k: usize, entry: &PcRecord, changes: &mut Vec<Change>) {
    let name = state.pcs[k].name.clone();
    let Some(m) = state.pcs[k].mettle_mut() else {
        return;
    };
    for cured in &entry.cured {
        m.block.statuses.retain(|s| s != cured);
        changes.push(change(
            &name,
            format!("status ended: {cured}"),
            rule::RECORD,
        ));
    }
    for s in &entry.statuses {
        if !m.block.statuses.contains(s) {
            m.block.statuses.push(s.clone());
        }
        changes.push(change(&name, format!("status: {s}"), rule::RECORD));
    }
    want::record(&name, m, entry, changes);
    if entry.damage > 0 {
        let before = m.mettle;
        m.mettle -= entry.damage;
        // Hurt again: a stable PC is due a Heal Check again.
        m.stable = false;
        changes.push(change(
            &name,
            format!(
                "Mettle {before} → {} ({} lost){}",
                m.mettle,
                entry.damage,
                if m.mettle <= 0 { ": at 0 or below" } else { "" }
            ),
            rule::METTLE_DAMAGE,
        ));
    }
}

/// The serial of the Downtime Voucher `holder` takes after session
/// `session`, derived from what it names — the campaign seed's prefix, the
/// session and the holder's name (its first six letters or digits, in
/// capitals): `AC-S7-BRANNO`. No running count: correcting an earlier
/// record never renumbers a later session's vouchers. A pack's own
/// vouchers read `AC-1F0B-77C2`, so the two never meet; two holders
/// whose names begin alike in one session are told apart by `-2`, `-3`
/// in party order (see [`vouchers`]).
pub(crate) fn downtime_serial(start: &Start, session: u32, holder: &str) -> String {
    let mut stem: String = holder
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .take(6)
        .collect::<String>()
        .to_uppercase();
    if stem.is_empty() {
        stem = "PC".into();
    }
    format!("{}-S{session}-{stem}", voucher::prefix(&start.seed))
}

/// Between session `n` and the next: the Scene's statuses end, those at
/// 0 or below are healed or die ([`heal::downtime`]), the others take
/// Downtime Vouchers for the days that took, and Mettle above zero
/// refills.
pub(super) fn between(
    start: &Start,
    state: &mut State,
    n: u32,
    record: &RecordFile,
    changes: &mut Vec<Change>,
) {
    let present: Vec<usize> = (0..state.pcs.len())
        .filter(|&k| state.pcs[k].is_present() && state.pcs[k].mettle().is_some())
        .collect();
    end_scene_statuses(state, &present, changes);
    want::starving(start, state, n, &present, changes);
    let downtime = heal::downtime(start, state, n, record, &present, changes);
    if downtime.days > 0 {
        rest_days(state, downtime.days, changes);
        vouchers(start, state, n, &present, &downtime.involved, changes);
    }
    refill(state, &present, changes);
}

/// Statuses bound to the Scene end with it.
fn end_scene_statuses(state: &mut State, present: &[usize], changes: &mut Vec<Change>) {
    for &k in present {
        let name = state.pcs[k].name.clone();
        let Some(m) = state.pcs[k].mettle_mut() else {
            continue;
        };
        let mut kept = Vec::new();
        for s in std::mem::take(&mut m.block.statuses) {
            match rule::status_rule(&s) {
                Some((false, why)) => changes.push(change(
                    &name,
                    format!("{s} clears: {why}"),
                    format!("{}: {s}", rule::STATUS),
                )),
                _ => kept.push(s),
            }
        }
        m.block.statuses = kept;
    }
}

/// The long Scene of the healing: `days` pass.
fn rest_days(state: &mut State, days: u32, changes: &mut Vec<Change>) {
    changes.push(change(
        "party",
        format!(
            "downtime: {days} day{} (day {} → {})",
            if days == 1 { "" } else { "s" },
            state.day,
            state.day + days
        ),
        rule::DOWNTIME,
    ));
    state.day += days;
}

/// Downtime: a Downtime Voucher for each PC present not involved in the
/// healing (patients and healers are), each serial derived from the
/// session and its holder ([`downtime_serial`]).
fn vouchers(
    start: &Start,
    state: &mut State,
    n: u32,
    present: &[usize],
    involved: &[usize],
    changes: &mut Vec<Change>,
) {
    for &k in present {
        if involved.contains(&k) || !state.pcs[k].is_present() {
            continue;
        }
        state.downtime_vouchers += 1;
        let holder = state.pcs[k].name.clone();
        let base = downtime_serial(start, n, &holder);
        let taken = |s: &str| state.vouchers.iter().any(|v| v.serial == s);
        let serial = (1..)
            .map(|i| {
                if i == 1 {
                    base.clone()
                } else {
                    format!("{base}-{i}")
                }
            })
            .find(|s| !taken(s))
            .expect("a free serial");
        changes.push(change(
            &holder,
            format!("took Downtime Voucher {serial}"),
            rule::DOWNTIME_VOUCHER,
        ));
        state.vouchers.push(HeldVoucher {
            serial,
            holder,
            issued_in: n,
            downtime: true,
        });
    }
}

/// A new Scene: Mettle above zero refills (and Staggered clears); at 0 or
/// below it stays, and the PC sits out.
fn refill(state: &mut State, present: &[usize], changes: &mut Vec<Change>) {
    for &k in present {
        if !state.pcs[k].is_present() {
            continue;
        }
        let name = state.pcs[k].name.clone();
        let Some(m) = state.pcs[k].mettle_mut() else {
            continue;
        };
        m.max_mettle = want::max_mettle(m);
        if m.mettle <= 0 {
            changes.push(change(
                &name,
                format!("Mettle stays at {}: the PC sits out until healed", m.mettle),
                rule::METTLE_STAYS,
            ));
            continue;
        }
        if m.mettle != m.max_mettle {
            changes.push(change(
                &name,
                format!("Mettle {} → {}", m.mettle, m.max_mettle),
                rule::METTLE_REFILL,
            ));
        }
        m.mettle = m.max_mettle;
        m.stable = false;
        if m.block.statuses.iter().any(|s| s == "Staggered") {
            m.block.statuses.retain(|s| s != "Staggered");
            changes.push(change(
                &name,
                "Staggered clears: Mettle is above zero",
                format!("{}: Staggered", rule::STATUS),
            ));
        }
    }
}
