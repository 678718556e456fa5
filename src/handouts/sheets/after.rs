//! A campaign's "After the session" sheet: the session's record to mark
//! at the table, line for line what `record N` writes into
//! `sessions/N/record.toml` — where and on which day the party stopped,
//! a box for each item of the pack met, each NPC met and each voucher
//! spent, money and supplies, and for each PC a line of what they took.

use crate::generators::session::After;
use crate::page::layout::Flow;
use crate::rules::RulesSystem;

const BODY: f64 = 9.5;
const HEAD: f64 = 11.0;

/// The sheet, on a page of its own.
pub(super) fn after(f: &mut Flow, a: &After) {
    f.section("After the session");
    f.para(
        &format!(
            "Mark what happened, then copy it into sessions/{n}/record.toml (the command \
             \u{201c}tablewright record {n}\u{201d} writes the file with these lines, nothing met \
             yet). Every item not ticked was not met.",
            n = a.session
        ),
        BODY,
        false,
    );
    f.heading("Where and when", HEAD);
    let start = match &a.stop {
        Some(stop) => format!("Started on day {} at {stop}.", a.day),
        None => format!("Started on day {}.", a.day),
    };
    f.para(&start, BODY, false);
    if !a.legs.is_empty() {
        f.para(
            &format!("Planned legs: {}.", a.legs.join(" → ")),
            BODY,
            false,
        );
    }
    f.tracks_then(&[("Ended on day (day)".into(), 0)], BODY, true);
    f.tracks_then(&[("Stopped at (stop)".into(), 0)], BODY, true);
    if !a.items.is_empty() {
        f.heading("Met at the table (met)", HEAD);
        boxes(f, &a.items);
    }
    if !a.npcs.is_empty() {
        f.heading("NPCs met (npcs_met)", HEAD);
        boxes(f, &a.npcs);
    }
    if a.system == RulesSystem::Mettle && !a.vouchers.is_empty() {
        f.heading("Vouchers spent (vouchers_spent)", HEAD);
        let rows: Vec<(String, String)> = a
            .vouchers
            .iter()
            .map(|(serial, holder)| (serial.clone(), holder.clone()))
            .collect();
        boxes(f, &rows);
    }
    f.heading("The party's purse and supplies", HEAD);
    f.tracks_then(
        &[("Shillings gained (+) or spent (−) (money)".into(), 0)],
        BODY,
        true,
    );
    f.tracks_then(&[("Rations left (rations)".into(), 0)], BODY, true);
    f.tracks_then(&[("Water left (water)".into(), 0)], BODY, true);
    f.heading("Each PC ([[pc]])", HEAD);
    let fields = match a.system {
        RulesSystem::Mettle => vec![
            "Mettle lost (damage)",
            "statuses gained",
            "fate: dead / left",
        ],
        RulesSystem::Core => vec![
            "health lost (damage)",
            "conditions",
            "injuries (slip or roll)",
            "mutations",
            "corruption gained",
            "omens spent (omens)",
            "fate: dead / left",
        ],
    };
    for (name, start) in &a.pcs {
        f.keep(BODY * 2.0 * (fields.len() as f64 + 2.0));
        f.para(&format!("{name} — at the start: {start}"), BODY, true);
        for field in &fields {
            f.tracks_then(&[((*field).to_owned(), 0)], BODY, true);
        }
    }
    f.note_lines("Notes", 2);
}

/// A line per entry, a box to tick before it: `☐ encounter/1 Salt trader`.
fn boxes(f: &mut Flow, rows: &[(String, String)]) {
    for (at, what) in rows {
        f.tracks(&[(String::new(), 1), (format!("{at}: {what}"), 0)], BODY);
    }
}
