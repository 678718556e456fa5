//! The run sheet (page 1): title, seed and share line; the contents with
//! page numbers; each PC with a Mettle or health track to tick; one line
//! per encounter with its threat and the journey in one line; an
//! initiative ladder; a notes box filling the rest of the page.

use super::ShareLine;
use crate::generators::session::{CampaignPage, Pack};
use crate::handouts::markdown::Wording;
use crate::handouts::run;
use crate::page::layout::Flow;
use crate::wording::markup::Markup;

/// Body text on the run sheet (read at the table).
const BODY: f64 = 9.5;
const HEAD: f64 = 11.0;

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
            &mut |f: &mut Flow| contents_table(f, contents, w),
            &mut |f: &mut Flow| party(f, pack, w),
        ],
    );
    at_a_glance(f, pack, contents, w);
    deadly_traps(f, pack);
    ladder(f, pack, w);
    f.note_lines(&w.sheet.notes, 2);
}

/// A campaign's "Previously": where the party is, on which day, and what
/// changed since the last session with the rule that changed it.
fn previously(f: &mut Flow, c: &CampaignPage) {
    f.heading("Previously", HEAD);
    let at = match &c.stop {
        Some(stop) => format!("Session {} starts on day {} at {stop}.", c.session, c.day),
        None => format!("Session {} starts on day {}.", c.session, c.day),
    };
    f.para(&at, BODY, false);
    for line in &c.previously {
        f.para_at(&format!("• {line}"), BODY, false, 6.0);
    }
    if !c.vouchers_in_hand.is_empty() {
        let held: Vec<String> = c
            .vouchers_in_hand
            .iter()
            .map(|(serial, holder, n)| format!("{serial} ({holder}, session {n})"))
            .collect();
        f.para(
            &format!("Vouchers in hand: {}.", held.join(", ")),
            BODY,
            false,
        );
    }
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
    let now = pack.campaign.as_ref().map(|c| &c.party_now);
    for pc in run::party(pack, Markup::Plain) {
        f.para(&pc.name, 10.0, true);
        f.para(&pc.stats, BODY, false);
        if let Some((_, line)) = now.and_then(|n| n.iter().find(|(name, _)| *name == pc.name)) {
            f.para(&format!("Now: {line}"), BODY, false);
        }
        let tracks: Vec<(String, usize)> =
            pc.tracks.into_iter().map(|t| (t.label, t.boxes)).collect();
        f.tracks(&tracks, BODY);
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
        f.para(&line, BODY, false);
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
fn ladder(f: &mut Flow, pack: &Pack, w: &Wording) {
    let l = run::ladder(pack);
    f.keep(HEAD * 2.0 + BODY * 10.0);
    f.heading(&w.sheet.initiative, HEAD);
    f.para(l.rule, BODY, false);
    f.ladder(&l.names, l.blanks, l.rounds, BODY);
}
