//! The METTLE leg (Scenes: Travel): the lead's Travel Check against the
//! path's Difficulty plus hunger and thirst, its exact odds as rolled, and
//! on a failure with Edge the Twist — the Edge dice rerolled and a price
//! drawn from `mettle.twists.travel`.

use super::super::checks;
use super::super::map::Path;
use super::Twist;
use super::trip::Trip;
use super::{GenError, Passage};

impl Trip<'_> {
    /// The leg's Travel Check, logged with its odds. Returns whether it
    /// succeeds (no encounter on the way) and the Twist taken, if any.
    pub(super) fn travel_check(
        &mut self,
        k: usize,
        path: &Path,
        passage: &mut Passage,
    ) -> Result<(bool, Option<Twist>), GenError> {
        let mut s = self.at.stream(self.seed, &format!("leg/{k}"));
        let pool = self.lead.pool;
        let penalty = self.clock.larder.penalty();
        let blind = self.lead.blind;
        let difficulty = path.difficulty + penalty + blind;
        let safe = checks::chance(pool, difficulty, false)?;
        let with_twist = checks::chance(pool, difficulty, true)?;
        passage.difficulty = Some(difficulty);
        passage.penalty = Some(penalty);
        passage.safe = safe;
        passage.safe_with_twist = Some(with_twist);
        let o = checks::roll(pool, difficulty, self.req.twist, &mut s);
        let mut extra = String::new();
        if penalty > 0 {
            extra.push_str(&format!(" (+{penalty} for hunger and thirst)"));
        }
        if blind > 0 {
            extra.push_str(&format!(" (+{blind}: Blinded)"));
        }
        let mut line = format!(
            "Leg {}: {} → {} ({} regions, {} terrain). Travel Check {pool}D vs {difficulty}{extra}, {} to pass ({} with a Twist): dice {:?}, Score {}",
            k + 1,
            passage.from,
            passage.to,
            path.regions,
            path.terrain,
            checks::percent(safe),
            checks::percent(with_twist),
            o.dice,
            o.first.score
        );
        let mut twist = None;
        if let Some(t) = &o.twist {
            let price = self.library.roll_table("mettle.twists.travel", &mut s)?;
            let kind = Twist::from_row(&price.row);
            line.push_str(&format!(
                "; failed with Edge, so they take a Twist ({}: {}) and reroll {:?} → Score {}",
                price.row, price.text, t.rerolled, t.score
            ));
            twist = Some((kind, price.row));
        }
        let success = o.success == Some(true);
        line.push_str(if success {
            " — they arrive safely."
        } else {
            " — trouble on the way."
        });
        self.clock.log(line);
        if let Some((kind, name)) = twist {
            passage.twist = Some(super::TwistNote {
                twist: kind,
                name,
                price: String::new(),
            });
            return Ok((success, Some(kind)));
        }
        Ok((success, None))
    }
}
