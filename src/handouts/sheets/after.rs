//! A campaign's "After the session" sheet: the session's record to mark
//! at the table, line for line what `record N` writes into
//! `sessions/N/record.toml`, with a place for every key of the record
//! (each labelled with its key): where and on which day the party
//! stopped, a box for each item of the pack met, each NPC met, who died
//! and each voucher spent, the purse, supplies and rest, for each PC what they
//! took, and PCs who joined. One function a block, so a new kind of item
//! gets a block of its own.

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
             yet). Every item not ticked was not met. Each line names its key (session = {n} \
             is filled in).",
            n = a.session
        ),
        BODY,
        false,
    );
    where_and_when(f, a);
    ticked(f, "Met at the table (met)", &a.items);
    ticked(f, "NPCs met (npcs_met)", &a.npcs);
    write_ins(
        f,
        &["Who died, never to come back: foes and NPCs by name or address (slain)"],
    );
    if a.system == RulesSystem::Mettle {
        ticked(f, "Vouchers spent (vouchers_spent)", &a.vouchers);
    }
    purse_and_rest(f, a);
    each_pc(f, a);
    joined(f);
    f.note_lines("Notes", 2);
}

/// The day and stop at the start, the planned legs, and lines for where
/// and when the session ended.
fn where_and_when(f: &mut Flow, a: &After) {
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
    write_ins(
        f,
        &[
            "Ended on day (day)",
            "Stopped at (stop)",
            "Dealt with the trouble at (helped)",
        ],
    );
    f.tracks(
        &[
            (String::new(), 1),
            (
                "stopped in a settlement (settlement; left out: as the map says)".into(),
                0,
            ),
        ],
        BODY,
    );
}

/// A heading and a line per entry, a box to tick before it: `☐
/// encounter/1: Salt trader` (nothing without entries).
fn ticked(f: &mut Flow, heading: &str, rows: &[(String, String)]) {
    if rows.is_empty() {
        return;
    }
    f.heading(heading, HEAD);
    for (at, what) in rows {
        f.tracks(&[(String::new(), 1), (format!("{at}: {what}"), 0)], BODY);
    }
}

/// Money and supplies; for the Core Rules, whether the party takes a
/// full rest.
fn purse_and_rest(f: &mut Flow, a: &After) {
    f.heading("The party's purse and supplies", HEAD);
    f.tracks_then(
        &[("Shillings gained (+) or spent (−) (money)".into(), 0)],
        BODY,
        true,
    );
    write_ins(f, &["Rations left (rations)", "Water left (water)"]);
    if a.system == RulesSystem::Core {
        f.tracks(
            &[
                (String::new(), 1),
                (
                    "no full rest after the session, though it could (full_rest = false)".into(),
                    0,
                ),
            ],
            BODY,
        );
    }
}

/// The write-in fields of a `[[pc]]` entry in `system`, each naming its
/// key; `name` is the PC's own line.
pub(crate) fn pc_fields(system: RulesSystem) -> &'static [&'static str] {
    match system {
        RulesSystem::Mettle => &[
            "Mettle lost (damage)",
            "statuses gained (statuses)",
            "statuses ended (cured)",
            "days without food at the end (hungry)",
            "days without water at the end (thirsty)",
            "downtime healer (healer)",
            "Heal at the table: Edge (heal_edge)",
            "☐ that Heal passed after a Twist (heal_twist)",
            "fate: dead / left (fate)",
        ],
        RulesSystem::Core => &[
            "health lost (damage)",
            "conditions gained (conditions)",
            "conditions ended (cured)",
            "injuries: slip, row or roll (injuries)",
            "mutations: slip or roll (mutations)",
            "corruption gained (corruption)",
            "omens spent (omens)",
            "abilities lowered, e.g. STR 1 (lowered)",
            "fate: dead / left (fate)",
            "☐ the remains brought back (remains)",
        ],
    }
}

/// For each PC (`[[pc]]`, `name`), their fields in two columns.
fn each_pc(f: &mut Flow, a: &After) {
    f.heading("Each PC ([[pc]], name)", HEAD);
    let fields = pc_fields(a.system);
    let (left, right) = fields.split_at(fields.len().div_ceil(2));
    for (name, start) in &a.pcs {
        f.keep(BODY * 2.0 * (left.len() as f64 + 2.0));
        f.para(&format!("{name} — at the start: {start}"), BODY, true);
        f.columns(
            14.0,
            &mut [
                &mut |f: &mut Flow| write_ins(f, left),
                &mut |f: &mut Flow| write_ins(f, right),
            ],
        );
        f.gap(BODY * 0.6);
    }
}

/// PCs who joined during the session.
fn joined(f: &mut Flow) {
    f.heading("PCs who joined ([[joined]])", HEAD);
    write_ins(
        f,
        &["name, then their stat block or sheet as in the party file (name)"],
    );
}

/// A line to write on after each label (a label starting `☐ ` is a box
/// to tick instead).
fn write_ins(f: &mut Flow, labels: &[&str]) {
    for label in labels {
        match label.strip_prefix("☐ ") {
            Some(rest) => f.tracks(&[(String::new(), 1), (rest.to_owned(), 0)], BODY),
            None => f.tracks_then(&[((*label).to_owned(), 0)], BODY, true),
        }
    }
}
