//! An encounter without foes (a trader on the road, a toll post) as a
//! compact card rather than a battle page: its title and address, the
//! situation, who is on stage, a hazard if it has one, and two lines to
//! write what came of it. Cards follow one another on a page while they
//! fit, each a section of the contents.

use crate::generators::encounter::Encounter;
use crate::handouts::markdown::Wording;
use crate::page::layout::Flow;
use crate::wording::{lines, perils};

const BODY: f64 = 9.5;
const TITLE: f64 = 13.0;

/// Whether encounter `e` prints as a compact card: no foes and no trap
/// to lay out in zones.
pub(super) fn is_compact(e: &Encounter) -> bool {
    e.foes.is_empty() && e.trap.is_none()
}

/// Encounter `number` (1-based) as a compact card.
pub(super) fn card(f: &mut Flow, number: usize, e: &Encounter, w: &Wording) {
    let title = format!("{} {number}: {}", w.sheet.encounter, e.situation.row);
    f.section_here(&title, TITLE, BODY * 14.0);
    f.para(&e.situation.text, BODY + 0.5, false);
    f.para(
        &format!(
            "encounter/{number} · {} · no foes · {}",
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
    if let Some(h) = &e.hazard {
        f.para(&format!("Hazard: {}", perils::hazard(h)), BODY, false);
    }
    f.tracks_then(&[("What came of it".into(), 0)], BODY, true);
    f.tracks_then(&[(String::new(), 0)], BODY, true);
    f.gap(BODY * 1.5);
}
