//! The prices of Travel Twists (Scenes: Travel, Outcomes), applied to the
//! journey — a Twist's price holds whether the reroll succeeds or not
//! (Engine: Twists are setbacks "regardless of success or failure"):
//!
//! - **Extra day**: three more watches on the way, so a daily rest and a
//!   day of food and water.
//! - **Lost**: the party comes out at a stop next to where it meant to go
//!   (seeded; the way back counts), having walked on as far as the road
//!   from there to it (its watches spent on the way, resting when due: so
//!   no arrival beats the map's reachability rule, `map::reach`), and the
//!   route is planned anew.
//! - **Another encounter**: one more encounter on the way.
//! - **Worse encounter**: the leg's encounter (one is rolled if the Check
//!   passed) is the more threatening of two draws.
//! - **Ambushed on arrival**: the arrival is marked; foes strike first.
//! - **Lost supplies**: a day of rations (one per PC) is gone; with no
//!   rations, foraged food; with neither, trade goods.
//!
//! A row the table gains by a GM's override is told, not applied.

use super::super::map::Path;
use super::clock::Place;
use super::trip::Trip;
use super::{GenError, Passage, Twist};

impl Trip<'_> {
    /// Pay the Twist's price on leg `k` (towards `next` by
    /// `path`, `met` when an encounter came already); returns the stop the
    /// party comes out at.
    pub(super) fn pay(
        &mut self,
        twist: Twist,
        k: usize,
        next: usize,
        path: &Path,
        passage: &mut Passage,
        met: bool,
    ) -> Result<usize, GenError> {
        let mut reached = next;
        let price = match twist {
            Twist::ExtraDay => self.lose_a_day(next),
            Twist::Lost => {
                reached = self.stray(k, next);
                let watches = self.wander(next, reached);
                format!(
                    "they wander off the path and come out at {} instead of {} ({} more on the way)",
                    self.stop(reached).name,
                    self.stop(next).name,
                    super::count(watches, "watch", "watches")
                )
            }
            Twist::AnotherEncounter => {
                self.encounter(&self.at.child("leg", k).only("another"), path, false)?;
                "one more encounter on the way".into()
            }
            Twist::WorseEncounter if met => "the encounter on the way was the worse of two".into(),
            Twist::WorseEncounter => {
                self.encounter(&self.at.child("leg", k).only("encounter"), path, true)?;
                "even on a safe crossing they run into trouble, the worse of two".into()
            }
            Twist::Ambushed => {
                passage.ambushed = true;
                format!("someone lies in wait at {}", self.stop(next).name)
            }
            Twist::LostSupplies => self.lose_supplies(),
            Twist::Other => "told only: the tool has no price for it".into(),
        };
        if twist != Twist::ExtraDay {
            self.clock.log(format!("Twist price: {price}."));
        }
        if let Some(t) = &mut passage.twist {
            t.price = price;
        }
        Ok(reached)
    }

    /// Three watches lost on the way to `next`: whatever falls in them,
    /// including a daily rest (a day of food and water).
    pub(super) fn lose_a_day(&mut self, next: usize) -> String {
        let way = Place::wild(format!("on the way to {}", self.stop(next).name));
        let (rations, water) = (self.clock.larder.rations, self.clock.larder.water);
        self.clock.log(
            "Twist price: a wrong turn costs a full day, three more watches on the way.".into(),
        );
        for _ in 0..3 {
            if self.clock.rest_due() {
                self.clock.rest(&way);
            } else {
                self.clock.spend("lost time", &way);
            }
        }
        let l = &self.clock.larder;
        format!(
            "a wrong turn costs a full day (three watches; rations {rations} → {}, water {water} → {})",
            l.rations, l.water
        )
    }

    /// A day of rations lost (one per PC), else foraged food, else goods.
    pub(super) fn lose_supplies(&mut self) -> String {
        let l = &mut self.clock.larder;
        let n = l.n;
        if l.rations > 0 {
            let lost = l.rations.min(n);
            l.rations -= lost;
            format!(
                "{} spoiled or left behind ({} left)",
                super::count(lost, "ration", "rations"),
                l.rations
            )
        } else if l.perishable > 0 {
            let lost = l.perishable.min(n);
            l.perishable -= lost;
            format!(
                "{} lost ({} left)",
                super::count(lost, "foraged ration", "foraged rations"),
                l.perishable
            )
        } else {
            "with no food to lose, their trade goods go instead".into()
        }
    }

    /// The watches a party that went astray spends walking on from near
    /// `next` to `to`, where it comes out (the path between them), resting
    /// when due; returns them.
    fn wander(&mut self, next: usize, to: usize) -> u32 {
        let Some(p) = self.req.map.path_between(next, to) else {
            return 0;
        };
        let watches = self.req.map.paths[p].watches;
        let way = Place::wild(format!("astray, on the way to {}", self.stop(to).name));
        for _ in 0..watches {
            self.clock.rest_if_due(&way);
            if self.clock.larder.n == 0 {
                break;
            }
            self.clock.spend("lost time", &way);
        }
        watches
    }

    /// A stop next to `next` (any but `next` itself; the one they came
    /// from counts), drawn
    /// from the leg's `lost` stream.
    pub(super) fn stray(&mut self, k: usize, next: usize) -> usize {
        let mut near: Vec<usize> = self
            .req
            .map
            .neighbours(next)
            .into_iter()
            .map(|(_, s)| s)
            .filter(|&s| s != next)
            .collect();
        near.sort_unstable();
        near.dedup();
        let mut s = self.at.stream(self.seed, &format!("leg/{k}/lost"));
        super::super::pick(&near, &mut s).copied().unwrap_or(next)
    }
}
