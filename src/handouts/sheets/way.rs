//! Encounter sheets by number (the pack's own), and a pack's encounters
//! on the way: each met on the journey gets
//! an encounter sheet of its own after the journey log (a compact card
//! when it has no foes), titled by the day it was met and headed by its
//! address (`journey/1/encounter/2`), which the After-the-session sheet
//! boxes and a record's `met` names.

use super::{encounter, social};
use crate::generators::encounter::Encounter;
use crate::generators::session::Pack;
use crate::handouts::markdown::Wording;
use crate::page::layout::Flow;

/// The pack's encounter `number`'s sheet, set as roomy as still fits one
/// page (the tightest fit when none does).
pub(super) fn numbered(f: &mut Flow, number: usize, e: &Encounter, w: &Wording) {
    let title = format!("{} {number}", w.sheet.encounter);
    encounter::labelled(f, [&title, &format!("encounter/{number}")], e, w);
}

/// Every encounter on the pack's journey, a sheet each: foes met on the
/// way have their stat blocks in the pack like any others.
pub(super) fn sheets(f: &mut Flow, pack: &Pack, w: &Wording) {
    let notes: Vec<_> = pack.journey.iter().flat_map(|j| &j.encounters).collect();
    for (k, (note, (at, e))) in notes.iter().zip(pack.journey_encounters()).enumerate() {
        let title = format!("{} on the way, day {}", w.sheet.encounter, note.day);
        if social::is_compact(e) {
            social::labelled(f, [&title, &at], e, w);
            // The last card of a run: notes fill the rest of its page.
            if !notes
                .get(k + 1)
                .is_some_and(|n| social::is_compact(&n.encounter))
            {
                f.note_lines(&w.sheet.notes, 2);
            }
        } else {
            encounter::labelled(f, [&title, &at], e, w);
        }
    }
}
