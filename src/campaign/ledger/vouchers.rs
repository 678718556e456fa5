//! Vouchers in a record (METTLE Scenes, Downtime Vouchers): the serials
//! of `vouchers_spent` checked against the vouchers in hand and spent.
//!
//! A serial is matched in any case and around spaces, as stop and PC
//! names are (`ac-0001` is `AC-0001`), and the ledger keeps the canonical
//! serial, the one printed on the card. A voucher whose holder died or
//! left went with them ([`State::retired`]): spending it is refused with
//! what happened to the holder, not as a serial never held.

use super::{Change, PackFacts, change, rule};
use crate::campaign::record::RecordFile;
use crate::campaign::state::{Presence, SpentVoucher, State};
use crate::content::validate::closest;
use crate::diagnostic::Diagnostic;

/// Whether two serials are the same voucher's: equal in any case, spaces
/// around them aside.
pub(crate) fn same_serial(a: &str, b: &str) -> bool {
    a.trim().eq_ignore_ascii_case(b.trim())
}

/// Every problem of the record's `vouchers_spent`: each in hand (carried,
/// or printed in this session's pack), and spent once.
pub(super) fn problems(state: &State, pack: &PackFacts, record: &RecordFile) -> Vec<Diagnostic> {
    let spent_now = &record.record.vouchers_spent;
    let mut held: Vec<&str> = state.vouchers.iter().map(|v| v.serial.as_str()).collect();
    held.extend(pack.vouchers.iter().map(|v| v.serial.as_str()));
    let mut out = Vec::new();
    for (i, serial) in spent_now.iter().enumerate() {
        let at = |message: String| record.at_item("vouchers_spent", i, message);
        let canonical = held
            .iter()
            .find(|h| same_serial(h, serial))
            .map_or(serial.as_str(), |h| h);
        if spent_now[..i].iter().any(|s| same_serial(s, serial)) {
            out.push(
                at(format!("voucher {canonical} is spent twice"))
                    .with_hint("a voucher has one use; list it once"),
            );
        } else if let Some(spent) = state.spent.iter().find(|v| same_serial(&v.serial, serial)) {
            out.push(
                at(format!(
                    "voucher {} was already spent in session {}",
                    spent.serial, spent.session
                ))
                .with_hint("a voucher has one use; remove it from this list"),
            );
        } else if let Some(gone) = state
            .retired
            .iter()
            .find(|v| same_serial(&v.serial, serial))
        {
            out.push(
                at(gone_with_holder(state, &gone.serial, &gone.holder)).with_hint(
                    "a voucher is its holder's and goes with them; remove it from this list",
                ),
            );
        } else if !held.iter().any(|h| same_serial(h, serial)) {
            let d = at(format!(
                "voucher {serial} was never held: no voucher in hand has that serial"
            ));
            out.push(match closest(serial, held.iter().copied()) {
                Some(c) => d.with_suggestion(Some(c.to_owned())),
                None if held.is_empty() => d.with_hint("the party holds no vouchers"),
                None => d.with_hint(format!("the vouchers in hand are {}", held.join(", "))),
            });
        }
    }
    out
}

/// `voucher AC-0002 went with Brannoc, who died in session 2`.
fn gone_with_holder(state: &State, serial: &str, holder: &str) -> String {
    let what = match state.pc(holder).filter(|pc| !pc.is_present()) {
        Some(pc) => {
            let how = if pc.presence == Presence::Dead {
                "died"
            } else {
                "left the party"
            };
            match pc.gone_in {
                Some(n) => format!("{how} in session {n}"),
                None => how.to_owned(),
            }
        }
        None => "is no longer in the party".to_owned(),
    };
    format!("voucher {serial} went with {holder}, who {what}: it is no longer in hand")
}

/// Spend the record's vouchers (checked: each in hand, once), each under
/// its canonical serial, in session `n`.
pub(super) fn spend(state: &mut State, n: u32, record: &RecordFile, changes: &mut Vec<Change>) {
    for serial in &record.record.vouchers_spent {
        let Some(i) = state
            .vouchers
            .iter()
            .position(|v| same_serial(&v.serial, serial))
        else {
            continue;
        };
        let v = state.vouchers.remove(i);
        changes.push(change(
            &v.holder,
            format!("spent voucher {}", v.serial),
            rule::VOUCHER_SPENT,
        ));
        state.spent.push(SpentVoucher {
            serial: v.serial,
            session: n,
        });
    }
}
