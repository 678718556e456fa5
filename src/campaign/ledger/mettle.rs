//! METTLE in the ledger: a PC's record (statuses, Mettle lost) and what
//! happens between sessions — statuses carried or cleared, the Heal Check
//! in downtime for those at 0 Mettle or below, Downtime Vouchers for the
//! others, and Mettle refilled above zero.

use super::{Change, Start, change, play, record_stream, rule};
use crate::campaign::record::{PcRecord, RecordFile};
use crate::campaign::state::{HeldVoucher, State};
use crate::generators::voucher;

/// Apply `[[pc]]` entry `entry` to PC `k`.
pub(super) fn pc_record(state: &mut State, k: usize, entry: &PcRecord, changes: &mut Vec<Change>) {
    let name = state.pcs[k].name.clone();
    let Some(m) = state.pcs[k].mettle.as_mut() else {
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
    if entry.damage > 0 {
        let before = m.mettle;
        m.mettle -= entry.damage;
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

/// The serial of the campaign's `n`th Downtime Voucher: the campaign
/// seed's prefix and the number, `AC-0003` (a pack's own vouchers read
/// `AC-1F0B-77C2`, so the two never meet).
pub(crate) fn downtime_serial(start: &Start, n: u32) -> String {
    format!("{}-{n:04}", voucher::prefix(&start.seed))
}

/// Between session `n` and the next.
pub(super) fn between(
    start: &Start,
    state: &mut State,
    n: u32,
    record: &RecordFile,
    changes: &mut Vec<Change>,
) {
    let present: Vec<usize> = (0..state.pcs.len())
        .filter(|&k| state.pcs[k].is_present() && state.pcs[k].mettle.is_some())
        .collect();
    // Statuses bound to the Scene end with it.
    for &k in &present {
        let name = state.pcs[k].name.clone();
        let Some(m) = state.pcs[k].mettle.as_mut() else {
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
    // Those at 0 or below: the Heal Check in downtime.
    let mut involved: Vec<usize> = Vec::new();
    let mut downtime = 0u32;
    for &k in &present {
        let Some(m) = state.pcs[k].mettle.as_ref() else {
            continue;
        };
        if m.mettle > 0 {
            continue;
        }
        let name = state.pcs[k].name.clone();
        let mettle_now = m.mettle;
        let entry = record
            .record
            .pcs
            .iter()
            .find(|p| p.name.trim().eq_ignore_ascii_case(&name));
        involved.push(k);
        let edge = match entry.and_then(|e| e.heal_edge) {
            Some(edge) => {
                changes.push(change(
                    &name,
                    format!("Heal Check made at the table: success, Edge {edge}"),
                    rule::HEAL,
                ));
                edge
            }
            None => {
                let healer = healer(state, &present, k, entry.and_then(|e| e.healer.as_deref()));
                if !involved.contains(&healer) {
                    involved.push(healer);
                }
                let h = &state.pcs[healer];
                let hm = h.mettle.as_ref().expect("a METTLE PC");
                let culture = hm.block.CULTURE;
                // A Staggered healer (themselves, or another at 0 or
                // below) suffers a die penalty equal to negative Mettle.
                let penalty = u32::try_from((-hm.mettle).max(0)).unwrap_or(u32::MAX);
                let pool = culture.saturating_sub(penalty);
                let mut dice = record_stream(&start.seed, n, &name, "heal", 0);
                let heal = rule::heal(pool, &mut dice);
                let by = if healer == k {
                    format!("{name} alone")
                } else {
                    h.name.clone()
                };
                let penalty_words = if penalty > 0 {
                    format!(" (CULTURE {culture} − {penalty} for negative Mettle)")
                } else {
                    String::new()
                };
                changes.push(change(
                    &name,
                    format!(
                        "Heal Check by {by}: {pool}D{penalty_words} vs 3 — dice {:?}, Score {}, Edge {}: {}",
                        heal.dice,
                        heal.tally.score,
                        heal.tally.edge,
                        if heal.success { "success" } else { "failure" }
                    ),
                    rule::HEAL,
                ));
                if !heal.success {
                    play::die(
                        start,
                        state,
                        k,
                        n,
                        false,
                        "died: the Heal Check failed",
                        rule::HEAL,
                        changes,
                    );
                    downtime = downtime.max(1);
                    continue;
                }
                heal.tally.edge
            }
        };
        let m = state.pcs[k].mettle.as_mut().expect("a METTLE PC");
        match rule::recovery_days(mettle_now, edge) {
            Some(days) => {
                let after = mettle_now + i64::from(edge) * i64::from(days);
                changes.push(change(
                    &name,
                    format!(
                        "Mettle {mettle_now} → {after} after {} rest (Edge {edge}: {edge} a day)",
                        if days == 1 {
                            "1 day's".to_owned()
                        } else {
                            format!("{days} days'")
                        }
                    ),
                    rule::HEAL,
                ));
                m.mettle = after;
                downtime = downtime.max(days);
            }
            None => {
                changes.push(change(
                    &name,
                    format!("stable, but no Edge: Mettle stays at {mettle_now} until healed"),
                    rule::METTLE_STAYS,
                ));
                downtime = downtime.max(1);
            }
        }
    }
    if downtime > 0 {
        changes.push(change(
            "party",
            format!(
                "downtime: {downtime} day{} (day {} → {})",
                if downtime == 1 { "" } else { "s" },
                state.day,
                state.day + downtime
            ),
            rule::DOWNTIME,
        ));
        state.day += downtime;
        for &k in &present {
            if involved.contains(&k) || !state.pcs[k].is_present() {
                continue;
            }
            state.downtime_vouchers += 1;
            let serial = downtime_serial(start, state.downtime_vouchers);
            let holder = state.pcs[k].name.clone();
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
    // A new Scene: Mettle above zero refills.
    for &k in &present {
        if !state.pcs[k].is_present() {
            continue;
        }
        let name = state.pcs[k].name.clone();
        let Some(m) = state.pcs[k].mettle.as_mut() else {
            continue;
        };
        m.max_mettle = i64::from(m.block.mettle());
        if m.mettle > 0 {
            if m.mettle != m.max_mettle {
                changes.push(change(
                    &name,
                    format!("Mettle {} → {}", m.mettle, m.max_mettle),
                    rule::METTLE_REFILL,
                ));
            }
            m.mettle = m.max_mettle;
            if m.block.statuses.iter().any(|s| s == "Staggered") {
                m.block.statuses.retain(|s| s != "Staggered");
                changes.push(change(
                    &name,
                    "Staggered clears: Mettle is above zero",
                    format!("{}: Staggered", rule::STATUS),
                ));
            }
        } else {
            changes.push(change(
                &name,
                format!("Mettle stays at {}: the PC sits out until healed", m.mettle),
                rule::METTLE_STAYS,
            ));
        }
    }
}

/// Who makes PC `k`'s Heal Check: the PC the record names, else the
/// standing PC (Mettle above zero) with the largest CULTURE (the first in
/// party order on a tie), else the patient alone.
fn healer(state: &State, present: &[usize], k: usize, named: Option<&str>) -> usize {
    if let Some(name) = named
        && let Some(&h) = present
            .iter()
            .find(|&&h| state.pcs[h].name.eq_ignore_ascii_case(name.trim()))
    {
        return h;
    }
    present
        .iter()
        .copied()
        .filter(|&h| h != k && state.pcs[h].mettle.as_ref().is_some_and(|m| m.mettle > 0))
        .fold(None, |best: Option<usize>, h| {
            let culture = |i: usize| state.pcs[i].mettle.as_ref().map_or(0, |m| m.block.CULTURE);
            match best {
                Some(b) if culture(b) >= culture(h) => Some(b),
                _ => Some(h),
            }
        })
        .unwrap_or(k)
}
