//! A PC's fate in the ledger, shared by every step that can end a PC's
//! part in the campaign (the record's `fate`, soulblight, a failed Heal
//! Check): out of the party, a Core funeral due, their vouchers retired.
//! It sits below the steps that call it, so none of them reaches another
//! through it.

use super::{Change, Start, change, rule};
use crate::campaign::state::{Funeral, Presence, RetiredVoucher, State};
use crate::rules::RulesSystem;

/// PC `k` dies in session `n` (`how` and `why` say how): out of the
/// party; a Core funeral falls due; their vouchers go.
#[allow(clippy::too_many_arguments)]
pub(super) fn die(
    start: &Start,
    state: &mut State,
    k: usize,
    n: u32,
    remains: bool,
    how: &str,
    why: &str,
    changes: &mut Vec<Change>,
) {
    let name = state.pcs[k].name.clone();
    state.pcs[k].presence = Presence::Dead;
    state.pcs[k].gone_in = Some(n);
    changes.push(change(&name, how, why));
    if start.system == RulesSystem::Core {
        funeral_due(state, name, n, remains, changes);
    }
    retire_vouchers(state, k, changes);
}

/// Core Rules: a funeral for `name` falls due by the next full rest.
fn funeral_due(state: &mut State, name: String, n: u32, remains: bool, changes: &mut Vec<Change>) {
    let cost = rule::funeral_cost(remains);
    changes.push(change(
        "party",
        format!(
            "a funeral for {name} is due by the next full rest: {cost}ʂ{}",
            if remains {
                " (512ʂ halved: the remains were brought back)"
            } else {
                ""
            }
        ),
        rule::FUNERAL_DUE,
    ));
    state.funerals_due.push(Funeral {
        pc: name,
        session: n,
        remains,
        cost,
    });
}

/// PC `k` leaves the party in session `n`; their vouchers go.
pub(super) fn leave(state: &mut State, k: usize, n: u32, changes: &mut Vec<Change>) {
    let pc = &mut state.pcs[k];
    pc.presence = Presence::Left;
    pc.gone_in = Some(n);
    changes.push(change(&pc.name.clone(), "left the party", rule::LEFT));
    retire_vouchers(state, k, changes);
}

/// The vouchers PC `k` held go with them.
fn retire_vouchers(state: &mut State, k: usize, changes: &mut Vec<Change>) {
    let name = state.pcs[k].name.clone();
    let (gone, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut state.vouchers)
        .into_iter()
        .partition(|v| v.holder.eq_ignore_ascii_case(&name));
    state.vouchers = kept;
    for v in gone {
        changes.push(change(
            &name,
            format!("voucher {} retired unspent", v.serial),
            rule::VOUCHER_GONE,
        ));
        state.retired.push(RetiredVoucher {
            serial: v.serial,
            holder: v.holder,
        });
    }
}
