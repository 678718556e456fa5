//! Supplies stocked where the party stopped (issue 51, finding 9). In a
//! settlement — a village, town or inn of the map, or the record's
//! `settlement` ([`road::in_settlement`], the rule the Core full rest
//! uses too) — the skins are filled to what they hold and rations are
//! bought up to the campaign's `[map]` figure a PC, so the next journey
//! never sets out from a town empty-handed. Core Rules: water is to hand
//! in a settlement, and a ration costs a meal's 2ʂ (the rules price a
//! meal, not a ration: our reading), paid from what the purse holds after
//! the funerals and the full rest; METTLE: the Engine prices nothing, so
//! a settlement's food is to hand, as the journey's meals there are.
//!
//! Each step is a ledger line that names what was left and what the party
//! holds now, so the supplies stay conserved: what the record left, plus
//! what this step stocked, is what the next journey carries.

use super::{Change, Start, Stock, change, road, rule};
use crate::campaign::record::RecordFile;
use crate::campaign::state::State;
use crate::generators::count;
use crate::generators::journey::Request;
use crate::rules::RulesSystem;

/// Stock up in a settlement: water, then rations (never more than the
/// campaign's figure a PC for each PC present; nothing is taken away).
/// Supplies never recorded need nothing: the next journey sets out with
/// the full figure already.
pub(super) fn restock(
    start: &Start,
    state: &mut State,
    record: &RecordFile,
    changes: &mut Vec<Change>,
) {
    let Some(stock) = start.stock else { return };
    let pcs = state.present().count() as u32;
    if pcs == 0 || !road::in_settlement(start, state, record) {
        return;
    }
    let at = state
        .stop
        .clone()
        .unwrap_or_else(|| "the settlement".into());
    fill_water(start, state, stock, pcs, &at, changes);
    buy_rations(start, state, stock, pcs, &at, changes);
}

/// The skins filled: the party file's capacity a PC (else the journey's
/// default), for each PC present; water over it is kept.
fn fill_water(
    start: &Start,
    state: &mut State,
    stock: Stock,
    pcs: u32,
    at: &str,
    changes: &mut Vec<Change>,
) {
    let Some(water) = state.water else { return };
    let room = Request::capacity_for(&start.party, stock.water) * pcs;
    if water >= room {
        return;
    }
    changes.push(change(
        "party",
        format!("water {water} → {room}: the skins filled at {at}, where water is to hand"),
        rule::STOCK_WATER,
    ));
    state.water = Some(room);
}

/// Rations up to the figure a PC: bought at 2ʂ each with what the purse
/// holds (Core Rules), or to hand (METTLE).
fn buy_rations(
    start: &Start,
    state: &mut State,
    stock: Stock,
    pcs: u32,
    at: &str,
    changes: &mut Vec<Change>,
) {
    let Some(rations) = state.rations else { return };
    let want = (stock.rations * pcs).saturating_sub(rations);
    if want == 0 {
        return;
    }
    let rations_word = |n: u32| count(n, "ration", "rations");
    if start.system == RulesSystem::Mettle {
        changes.push(change(
            "party",
            format!(
                "rations {rations} → {}: {} stocked at {at} (the Engine prices nothing: a \
                 settlement's food is to hand)",
                rations + want,
                rations_word(want)
            ),
            rule::STOCK_METTLE,
        ));
        state.rations = Some(rations + want);
        return;
    }
    let afford = u32::try_from(state.money.max(0) / rule::RATION_PRICE).unwrap_or(u32::MAX);
    let bought = want.min(afford);
    if bought == 0 {
        changes.push(change(
            "party",
            format!(
                "no rations bought at {at}: {} wanted at {}ʂ each, and the party has {}ʂ",
                rations_word(want),
                rule::RATION_PRICE,
                state.money
            ),
            rule::STOCK_CORE,
        ));
        return;
    }
    let cost = i64::from(bought) * rule::RATION_PRICE;
    changes.push(change(
        "party",
        format!(
            "rations {rations} → {}: {} bought at {at} at {}ʂ each, {cost}ʂ (money {}ʂ → {}ʂ){}",
            rations + bought,
            rations_word(bought),
            rule::RATION_PRICE,
            state.money,
            state.money - cost,
            if bought < want {
                format!(
                    "; {} more wanted, but the purse holds no more",
                    want - bought
                )
            } else {
                String::new()
            }
        ),
        rule::STOCK_CORE,
    ));
    state.money -= cost;
    state.rations = Some(rations + bought);
}
