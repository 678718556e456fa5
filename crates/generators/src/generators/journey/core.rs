//! The Core Rules leg: no Check — the party moves two regions a watch, and
//! every travelling watch has an `x:y` chance of an encounter from the
//! region or the path's danger (see [`super::route::core_chance`]), drawn from the leg's
//! terrain table.

use super::super::map::Path;
use super::Passage;
use super::route::{core_chance, core_safe};
use super::trip::Trip;
use crate::seed::{DieSource, Stream};

impl Trip<'_> {
    /// The leg's line in the log, with its exact odds.
    pub(super) fn core_leg_line(&mut self, path: &Path, passage: &mut Passage) {
        let (x, y) = core_chance(self.library, path);
        let safe = core_safe(self.library, path);
        passage.safe = safe;
        passage.encounter_chance = Some(format!("{x}:{y}"));
        self.clock.log(format!(
            "Leg {}: {} → {} ({} regions, {}, {} terrain): a {x}:{y} chance of an encounter each watch; {} to cross without one.",
            passage.leg,
            passage.from,
            passage.to,
            path.regions,
            super::count(path.watches, "watch", "watches"),
            path.terrain,
            super::super::checks::percent(safe)
        ));
    }

    /// One travelling watch's chance roll: an encounter?
    pub(super) fn core_watch(&self, path: &Path, s: &mut Stream) -> bool {
        let (x, y) = core_chance(self.library, path);
        let d = s.die(y);
        d <= x
    }
}
