//! The Core Rules between sessions: the funerals due and the full rest
//! (a week in a settlement, 32ʂ + 16ʂ per temporary condition cleared),
//! one step per rule — where the party rests, the funerals paid, the
//! price of the rest, the funerals left unpaid, each PC's rest, the week.

use super::{Change, Start, change, road, rule};
use crate::campaign::record::RecordFile;
use crate::campaign::state::{CorePc, PcRules, State};

/// Between session `n` and the next: the funerals due and the full rest,
/// in a settlement with the money; otherwise the party carries its state,
/// and the ledger says why. One step per rule: where the party rests,
/// the funerals paid, the price of the rest, the funerals left unpaid,
/// each PC's rest, and the week it takes.
pub(super) fn between(
    start: &Start,
    state: &mut State,
    _n: u32,
    record: &RecordFile,
    changes: &mut Vec<Change>,
) {
    let at = state
        .stop
        .clone()
        .unwrap_or_else(|| "where it stopped".into());
    if !may_rest(start, state, record, &at, changes) {
        return;
    }
    let prices = rest_prices(state);
    let rest: i64 = prices.iter().map(|p| p.price).sum();
    let left = pay_funerals(state, changes);
    if left < rest {
        changes.push(change(
            "party",
            format!(
                "no full rest: it costs {rest}ʂ ({}), the party has {left}ʂ; everyone carries their state",
                breakdown(state, &prices)
            ),
            rule::FULL_REST_PRICE,
        ));
        return;
    }
    unpaid_funerals(state, &prices, changes);
    for p in &prices {
        rest_one(state, p, changes);
    }
    week_of_rest(state, &at, rest, changes);
}

/// Whether the party takes a full rest where it stopped: in a settlement
/// (the record's `settlement`, else the stop's kind on the map), unless
/// the record says `full_rest = false`; if not, the ledger says why.
fn may_rest(
    start: &Start,
    state: &State,
    record: &RecordFile,
    at: &str,
    changes: &mut Vec<Change>,
) -> bool {
    let r = &record.record;
    if !road::in_settlement(start, state, record) {
        changes.push(change(
            "party",
            format!("no full rest: {at} is not a settlement, so everyone carries their state"),
            rule::FULL_REST_WILD,
        ));
        return false;
    }
    if r.full_rest == Some(false) {
        changes.push(change(
            "party",
            "no full rest (the record says full_rest = false): everyone carries their state",
            rule::RECORD,
        ));
        return false;
    }
    true
}

/// One PC's full rest and its price.
struct RestPrice {
    /// The PC.
    k: usize,
    /// Temporary conditions it clears.
    cleared: usize,
    /// `32ʂ + 16ʂ × cleared`.
    price: i64,
}

/// The price of each present PC's full rest.
fn rest_prices(state: &State) -> Vec<RestPrice> {
    (0..state.pcs.len())
        .filter(|&k| state.pcs[k].is_present())
        .filter_map(|k| {
            let cleared = state.pcs[k].core()?.temporary_conditions().len();
            Some(RestPrice {
                k,
                cleared,
                price: rule::full_rest_cost(cleared),
            })
        })
        .collect()
}

/// The funerals due, paid when the purse holds them all; the money left
/// for the rest.
fn pay_funerals(state: &mut State, changes: &mut Vec<Change>) -> i64 {
    let funerals: i64 = state.funerals_due.iter().map(|f| f.cost).sum();
    if funerals == 0 || state.money < funerals {
        return state.money;
    }
    for f in std::mem::take(&mut state.funerals_due) {
        changes.push(change(
            "party",
            format!(
                "paid {}ʂ for {}'s funeral (money {}ʂ → {}ʂ)",
                f.cost,
                f.pc,
                state.money,
                state.money - f.cost
            ),
            rule::FUNERAL_PAID,
        ));
        state.money -= f.cost;
    }
    state.money
}

/// The rest is taken: a funeral still owed is now unpaid, and every PC
/// resting who was in the party when that PC died loses a maximum omen
/// for good. One who joined in that session or after owes the dead
/// nothing: a record cannot say whether they came before the death, and
/// as for Heal Checks ([`super::heal`]) a PC joins for the sessions after
/// the record that adds them.
fn unpaid_funerals(state: &mut State, prices: &[RestPrice], changes: &mut Vec<Change>) {
    for f in std::mem::take(&mut state.funerals_due) {
        for p in prices {
            let pc = &mut state.pcs[p.k];
            if pc.joined_in >= f.session {
                continue;
            }
            let Some(c) = pc.core_mut() else { continue };
            let before = c.sheet.max_omens;
            let what = if before > 0 {
                c.sheet.max_omens -= 1;
                c.sheet.omens = c.sheet.omens.min(c.sheet.max_omens);
                format!(
                    "{}'s funeral ({}ʂ) unpaid: maximum omens {before} → {} for good",
                    f.pc,
                    f.cost,
                    before - 1
                )
            } else {
                format!(
                    "{}'s funeral ({}ʂ) unpaid: maximum omens already 0, no further penalty",
                    f.pc, f.cost
                )
            };
            changes.push(change(&pc.name, what, rule::FUNERAL_UNPAID));
        }
    }
}

/// One PC's full rest: its price, and what it restores.
fn rest_one(state: &mut State, p: &RestPrice, changes: &mut Vec<Change>) {
    let pc = &mut state.pcs[p.k];
    let PcRules::Core(c) = &mut pc.rules else {
        return;
    };
    changes.push(change(
        &pc.name,
        format!(
            "full rest: {}ʂ (32ʂ + 16ʂ × {} condition{})",
            p.price,
            p.cleared,
            if p.cleared == 1 { "" } else { "s" }
        ),
        rule::FULL_REST_PRICE,
    ));
    let restored = restore(c);
    if !restored.is_empty() {
        changes.push(change(&pc.name, restored, rule::FULL_REST));
    }
}

/// The week of full rest: paid from the purse, the days gone.
fn week_of_rest(state: &mut State, at: &str, rest: i64, changes: &mut Vec<Change>) {
    changes.push(change(
        "party",
        format!(
            "a week of full rest at {at}: {rest}ʂ (money {}ʂ → {}ʂ), day {} → {}",
            state.money,
            state.money - rest,
            state.day,
            state.day + rule::FULL_REST_DAYS
        ),
        rule::FULL_REST,
    ));
    state.money -= rest;
    state.day += rule::FULL_REST_DAYS;
}

/// `32ʂ + 16ʂ × 1 (Viktor), 32ʂ (Ada)`.
fn breakdown(state: &State, prices: &[RestPrice]) -> String {
    prices
        .iter()
        .map(|&RestPrice { k, cleared, .. }| {
            let who = &state.pcs[k].name;
            if cleared == 0 {
                format!("32ʂ {who}")
            } else {
                format!("32ʂ + 16ʂ × {cleared} {who}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A full rest on one PC: abilities back to base, health and omens to
/// their maximum, temporary conditions and injuries gone. What changed,
/// in words.
fn restore(c: &mut CorePc) -> String {
    let mut what = Vec::new();
    for (ability, base) in c.base.each() {
        if let Some(score) = c.sheet.ability_mut(ability)
            && *score != base
        {
            what.push(format!("{ability} {} → {base}", *score));
            *score = base;
        }
    }
    let health = c.health();
    let max = c.sheet.max_health();
    if health != max {
        what.push(format!("health {health} → {max}"));
    }
    c.sheet.health = Some(max);
    if c.sheet.omens != c.sheet.max_omens {
        what.push(format!("omens {} → {}", c.sheet.omens, c.sheet.max_omens));
        c.sheet.omens = c.sheet.max_omens;
    }
    let cleared: Vec<String> = c
        .temporary_conditions()
        .iter()
        .map(|s| s.to_string())
        .collect();
    if !cleared.is_empty() {
        what.push(format!("cleared {}", cleared.join(", ")));
    }
    let permanent = c.permanent.clone();
    c.sheet.conditions.retain(|x| permanent.contains(x));
    let healed: Vec<String> = c
        .injuries
        .iter()
        .filter(|i| !i.permanent)
        .map(|i| i.name.clone())
        .collect();
    if !healed.is_empty() {
        what.push(format!("injuries healed: {}", healed.join(", ")));
    }
    c.injuries.retain(|i| i.permanent);
    what.join(", ")
}
