//! The journey log: the lead, the odds, and the way day by day.

use crate::generators::journey::Journey;
use crate::render::layout::Flow;
use crate::render::lines::{journey_lead, percent};

/// The journey's lead and odds, then the log day by day.
pub(super) fn journey(f: &mut Flow, j: &Journey) {
    f.section(&format!("Journey: {} → {}", j.from, j.to));
    f.para(
        &format!(
            "{} · chance of no encounter on the whole way: {}",
            journey_lead(j),
            percent(j.no_encounter)
        ),
        9.0,
        false,
    );
    for d in &j.days {
        f.para(&format!("Day {}", d.day), 10.0, true);
        for e in &d.entries {
            f.para_at(&format!("• {e}"), 8.5, false, 8.0);
        }
    }
}
