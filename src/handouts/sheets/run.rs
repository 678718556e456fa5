//! The run sheet (page 1): title, seed and share line; a campaign's
//! "Previously" and Heal Checks; the contents with page numbers, one line
//! per encounter with its threat and the journey in one line, beside each
//! PC with a Mettle or health track to tick (damage already taken
//! filled); an initiative ladder; a notes box filling the rest of the
//! page.

use super::ShareLine;
use crate::generators::session::{CampaignPage, Pack};
use crate::handouts::markdown::Wording;
use crate::handouts::run;
use crate::page::layout::Flow;
use crate::wording::markup::Markup;

/// Body text on the run sheet (read at the table).
const BODY: f64 = 9.5;
const HEAD: f64 = 11.0;
/// The recap's lines: a screenful, under the body text.
const SMALL: f64 = 8.5;
/// More vouchers in hand than this are counted by holder on the run sheet.
const MANY_VOUCHERS: usize = 6;

/// The run sheet. `contents` holds each later section's title and page
/// (1-based); the first layout pass gives it (see `super::pack_pdf`).
pub(super) fn cover(
    f: &mut Flow,
    pack: &Pack,
    share: &ShareLine,
    contents: &[(String, usize)],
    w: &Wording,
) {
    f.section(&pack.title);
    f.para(
        &format!(
            "Session pack · {} · seed {}",
            pack.system.label(),
            share.seed
        ),
        11.0,
        true,
    );
    f.para(&share.plain(), 9.0, false);
    if let Some(c) = &pack.campaign {
        previously(f, c);
    }
    f.gap(4.0);
    f.columns(
        16.0,
        &mut [
            &mut |f: &mut Flow| {
                contents_table(f, contents, w);
                at_a_glance(f, pack, contents, w);
            },
            &mut |f: &mut Flow| party(f, pack, w),
        ],
    );
    deadly_traps(f, pack);
    ladder(f, pack, w);
    f.note_lines(&w.sheet.notes, 2);
}

/// A campaign's "Previously": the last session in a screenful (the
/// rule-by-rule audit is `tablewright campaign`'s), then the Heal Checks
/// the table may roll.
fn previously(f: &mut Flow, c: &CampaignPage) {
    let r = &c.recap;
    f.heading("Previously", HEAD);
    let each = if r.pcs.is_empty() {
        ""
    } else {
        " Each PC's change and state: under The party."
    };
    f.para(&format!("{} {}{each}", r.start, r.last), BODY, false);
    for line in r.losses.iter().chain(&r.lasting) {
        f.para_at(&format!("• {line}"), SMALL, false, 6.0);
    }
    let mut tail = r.purse.clone();
    // Many vouchers are counted by holder: their serials, each with a box,
    // are on the After-the-session sheet.
    match r.vouchers.len() {
        0 => {}
        1..=MANY_VOUCHERS => {
            tail.push_str(&format!(" Vouchers in hand: {}.", r.vouchers.join(", ")));
        }
        n => tail.push_str(&format!(
            " Vouchers in hand: {n} ({}; serials on the After-the-session sheet).",
            r.held.join(", ")
        )),
    }
    f.para(&tail, SMALL, false);
    heal_checks(f, c);
}

/// The Heal Checks a group may roll at the table (METTLE), each with its
/// dice and exact odds; the result goes in the record.
fn heal_checks(f: &mut Flow, c: &CampaignPage) {
    if c.recap.heal.is_empty() {
        return;
    }
    let lines: Vec<&str> = c.recap.heal.iter().map(|h| h.line.as_str()).collect();
    f.para(
        &format!(
            "Heal Checks, CULTURE vs 3, a Twist on a failure with Edge (rolled here: record \
             heal_edge, and heal_twist = true after a Twist; else the ledger rolls): {}.",
            lines.join("; ")
        ),
        SMALL,
        false,
    );
}

/// The contents: each section and the page it starts on.
fn contents_table(f: &mut Flow, contents: &[(String, usize)], w: &Wording) {
    f.heading(&w.sheet.contents, HEAD);
    let rows: Vec<Vec<String>> = contents
        .iter()
        .map(|(title, page)| vec![title.clone(), page.to_string()])
        .collect();
    f.table(&["section", "page"], &rows, &[0.84, 0.16], BODY);
}

/// Each PC with the numbers the GM needs and a track to tick.
fn party(f: &mut Flow, pack: &Pack, w: &Wording) {
    f.heading(&w.sheet.party, HEAD);
    let recap = pack.campaign.as_ref().map(|c| &c.recap);
    for pc in run::party(pack, Markup::Plain) {
        // Kept with its track: a PC's track never runs onto a page alone.
        f.keep(BODY * 6.0);
        f.para(&pc.name, 10.0, true);
        f.para(&pc.stats, SMALL, false);
        let tracks: Vec<(String, usize, usize)> = pc
            .tracks
            .into_iter()
            .map(|t| (t.label, t.boxes, t.filled))
            .collect();
        f.tracks_marked(&tracks, BODY, false);
        let p = recap.and_then(|r| r.pcs.iter().find(|p| p.name == pc.name));
        if let Some(line) = p.and_then(pc_recap) {
            f.para(&line, SMALL, false);
        }
    }
}

/// A PC's part of "Previously", under their track: `Last session: Mettle
/// 7 → −2; now Mettle −2 of 7 (stable; sits out until healed).` Nothing
/// for a METTLE PC unchanged, unhurt and without a status (the track
/// says it all).
fn pc_recap(p: &crate::generators::recap::PcRecap) -> Option<String> {
    match p.change.as_str() {
        "" | "no change" if p.taken == 0 && p.now.starts_with("Mettle") && !p.now.contains(';') => {
            None
        }
        "" | "no change" => Some(format!("Now: {}.", p.now)),
        change => Some(format!("Last session: {change}; now {}.", p.now)),
    }
}

/// One line per encounter with its threat, and the journey in one line,
/// each with the page it is on.
fn at_a_glance(f: &mut Flow, pack: &Pack, contents: &[(String, usize)], w: &Wording) {
    let page_of = |prefix: &str| {
        contents
            .iter()
            .find(|(t, _)| t.starts_with(prefix))
            .map_or(String::new(), |(_, p)| format!(" · p. {p}"))
    };
    if !pack.encounters.is_empty() {
        f.heading(&w.sheet.encounters, HEAD);
        for (i, e) in pack.encounters.iter().enumerate() {
            let page = page_of(&format!("{} {}:", w.sheet.encounter, i + 1));
            f.para(
                &format!("{}{page}", run::encounter_line(i + 1, e)),
                BODY,
                false,
            );
        }
    }
    if let Some(j) = &pack.journey {
        f.heading(&w.sheet.journey, HEAD);
        let line = format!(
            "{}{}",
            run::journey_line(j),
            page_of(&format!("{}:", w.sheet.journey_log))
        );
        f.para(&unbroken_names(line, pack), BODY, false);
    } else if let Some(note) = pack.campaign.as_ref().and_then(|c| c.journey_note.as_ref()) {
        f.heading(&w.sheet.journey, HEAD);
        f.para(note, BODY, false);
    }
}

/// A short flag for each trap that can kill a PC outright, with the
/// exact chance (nothing when none can).
fn deadly_traps(f: &mut Flow, pack: &Pack) {
    for line in run::deadly_traps(pack) {
        f.para(&format!("Deadly trap: {line}"), BODY, true);
    }
}

/// The initiative ladder: its rule, then a row per combatant (METTLE, a
/// box per round) or per initiative card (Core Rules, a line to write on).
///
/// Short of room, the ladder gives up rows to write foes on (down to one)
/// rather than run onto a page of its own; it is kept in one piece.
fn ladder(f: &mut Flow, pack: &Pack, w: &Wording) {
    let l = run::ladder(pack);
    let lay = |f: &mut Flow, blanks: usize| {
        f.heading(&w.sheet.initiative, HEAD);
        f.para(l.rule, BODY, false);
        f.ladder(&l.names, blanks, l.rounds, BODY);
    };
    let height = |blanks: usize| {
        let mut probe = f.probe();
        probe.new_page();
        let top = probe.y();
        lay(&mut probe, blanks);
        probe.y() - top
    };
    let room = f.room_left();
    let blanks = (1..=l.blanks)
        .rev()
        .find(|&b| height(b) <= room)
        .unwrap_or(l.blanks);
    f.keep(height(blanks));
    lay(f, blanks);
}

/// `text` with the spaces inside each PC's name made no-break, so a
/// narrow column never splits a name across lines (the lead's, say).
fn unbroken_names(text: String, pack: &Pack) -> String {
    let names = pack
        .party
        .mettle
        .iter()
        .map(|b| &b.name)
        .chain(pack.party.core.iter().map(|c| &c.name));
    names.filter(|n| n.contains(' ')).fold(text, |t, n| {
        t.replace(n.as_str(), &n.replace(' ', "\u{a0}"))
    })
}
