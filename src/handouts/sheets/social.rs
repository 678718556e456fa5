//! An encounter without foes (a trader on the road, a toll post) as a
//! compact card rather than a battle page: its title and address, the
//! situation, who is on stage, a hazard or trap if it has one, and a line to
//! write what came of it. Cards follow one another on a page while they
//! fit, each a section of the contents; note lines fill the page after
//! the last of a run.

use crate::generators::encounter::Encounter;
use crate::handouts::markdown::Wording;
use crate::page::layout::Flow;
use crate::wording::lines;

const BODY: f64 = 9.5;
const TITLE: f64 = 13.0;

/// Whether encounter `e` prints as a compact card: no foes to fight.
pub(super) fn is_compact(e: &Encounter) -> bool {
    e.foes.is_empty()
}

/// Encounter `number` (1-based) as a compact card.
pub(super) fn card(f: &mut Flow, number: usize, e: &Encounter, w: &Wording) {
    let title = format!("{} {number}", w.sheet.encounter);
    labelled(f, [&title, &format!("encounter/{number}")], e, w);
}

/// An encounter as a compact card titled `label[0]` and headed by its
/// address, `label[1]` (an encounter on the way: `journey/1/encounter/2`).
/// A card is kept whole: it starts on this page only when all of it fits
/// in what is left (measured, not guessed), else on a fresh page.
pub(super) fn labelled(f: &mut Flow, label: [&str; 2], e: &Encounter, w: &Wording) {
    let mut probe = f.probe();
    probe.new_page();
    let page = probe.room_left();
    card_at(&mut probe, label, e, w, 0.0);
    let height = if probe.page_count() == 1 {
        page - probe.room_left()
    } else {
        // Taller than a page: it starts on a fresh one and runs on.
        page
    };
    card_at(f, label, e, w, height);
    f.gap(BODY * 1.5);
}

/// The card, started on this page when `height` points are left.
fn card_at(f: &mut Flow, label: [&str; 2], e: &Encounter, w: &Wording, height: f64) {
    let title = format!("{}: {}", label[0], e.situation.row);
    f.section_here(&title, TITLE, height);
    f.para(&e.situation.text, BODY + 0.5, false);
    // The layers over the situation, as the battle page has them.
    for (word, layer) in [
        (super::encounter::weather_word(e, w), &e.weather),
        (&w.sheet.twist, &e.twist),
        (&w.sheet.ending, &e.ending),
    ] {
        if let Some(l) = layer {
            f.para(&format!("{word}: {}", l.text), BODY, false);
        }
    }
    f.para(
        &format!(
            "{} · {} · no foes · {}",
            label[1],
            e.terrain,
            e.situation.trail_text()
        ),
        BODY - 1.0,
        false,
    );
    for n in &e.others {
        let line = lines::foe_line(n);
        f.para(
            &format!("{} — {} · {}", lines::who(n), line.stats, line.attack),
            BODY,
            false,
        );
    }
    // The hazard and a trap lying in wait, as the battle page has them.
    for block in super::encounter::hazards(e, false) {
        for (text, bold) in block {
            f.para(&text, BODY, bold);
        }
    }
    f.tracks_then(&[("What came of it".into(), 0)], BODY, true);
}
