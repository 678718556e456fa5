//! Stops the party comes back to: a campaign's earlier sessions told a
//! stop's hook (what [`super::Request::visits`] holds), so arriving there
//! again says what moved on since instead (`gen.place.since`), drawn on the
//! `since/<stop>` stream of the journey among the rows told nowhere yet in
//! the campaign, then among those not told at that stop, so nothing
//! repeats while rows are left.
//!
//! What moved on follows from what the party did there: at a stop whose
//! trouble a session record says they dealt with ([`super::Request::helped`])
//! it is what came of their help (rows tagged `helped`, "Since they dealt
//! with its trouble, …"); at one they left alone the trouble has grown
//! (rows tagged `ignored`, "Since they were last here, …"). A row tagged
//! neither fits both; rows tagged `folk` only where people live.

use super::trip::Trip;
use super::{GenError, Told};
use crate::content::Row;
use crate::generators::map::SAFE_KINDS;
use crate::seed::Stream;

/// What moved on at a stop the party comes back to.
pub(crate) const SINCE: &str = "gen.place.since";
/// The tag of a `gen.place.since` row that needs people living there.
pub(crate) const FOLK: &str = "folk";
/// The tags of `gen.place.since` rows for a stop whose trouble the party
/// dealt with, and for one they left alone.
pub(crate) const HELPED: &str = "helped";
pub(crate) const IGNORED: &str = "ignored";

/// How a line of a stop come back to begins, as the party helped there
/// or not.
fn intro(helped: bool) -> &'static str {
    if helped {
        "Since they dealt with its trouble,"
    } else {
        "Since they were last here,"
    }
}

/// Whether a `gen.place.since` row with `tags` fits a stop: people live
/// there (`folk`), the party dealt with its trouble (`helped`).
pub fn fits(tags: &[impl AsRef<str>], folk: bool, helped: bool) -> bool {
    let has = |tag: &str| tags.iter().any(|t| t.as_ref() == tag);
    let not = if helped { IGNORED } else { HELPED };
    (folk || !has(FOLK)) && !has(not)
}

impl Trip<'_> {
    /// The line for arriving at `stop` whose hook is not yet said on this
    /// journey: the hook on a first visit, else what moved on since (the
    /// hook again without a `gen.place.since` row for it).
    pub(super) fn arrival_line(&mut self, stop: usize) -> Result<String, GenError> {
        let s = self.stop(stop);
        let first = format!("{}: {}", self.reach(stop), s.hook);
        let helped = self.req.helped.contains(&s.name);
        let none = Vec::new();
        let before = match self.req.visits.get(&s.name) {
            Some(before) => before,
            // A stop whose trouble they dealt with was told of, whatever
            // the journeys said.
            None if helped => &none,
            None => {
                self.told.push(Told::hook(&s.name));
                return Ok(first);
            }
        };
        let folk = SAFE_KINDS.contains(&s.kind.as_str());
        let mut stream = self.at.stream(self.seed, &format!("since/{stop}"));
        let Some(k) = self.since_row(before, folk, helped, &mut stream) else {
            return Ok(first);
        };
        let roll = self.library.resolve(SINCE, k, &mut stream)?;
        self.told.push(Told {
            stop: s.name.clone(),
            since: Some(roll.row.clone()),
        });
        Ok(format!(
            "{}. {} {}",
            self.reach(stop),
            intro(helped),
            roll.text
        ))
    }

    /// The index of a `gen.place.since` row for a stop where `before` were
    /// told (`None` without the table or a row that fits): a weighted pick
    /// among the rows that fit and were told nowhere yet (at no stop of the
    /// campaign, nor earlier on this journey), else among those not told
    /// at this stop, else among all that fit.
    fn since_row(
        &self,
        before: &[String],
        folk: bool,
        helped: bool,
        stream: &mut Stream,
    ) -> Option<usize> {
        let table = self.library.get(SINCE)?;
        let fit = |r: &Row| self.library.drawable(r) && fits(&r.entry.tags, folk, helped);
        let all: Vec<usize> = (0..table.rows.len())
            .filter(|&i| fit(&table.rows[i]))
            .collect();
        let anywhere = self
            .req
            .visits
            .values()
            .flatten()
            .chain(self.told.iter().filter_map(|t| t.since.as_ref()));
        let told_anywhere: Vec<&String> = anywhere.collect();
        let not_in = |told: &[&String]| -> Vec<usize> {
            all.iter()
                .copied()
                .filter(|&i| !told.iter().any(|b| **b == table.rows[i].entry.name))
                .collect()
        };
        let here: Vec<&String> = before.iter().collect();
        let rows = [not_in(&told_anywhere), not_in(&here)]
            .into_iter()
            .find(|r| !r.is_empty())
            .unwrap_or(all);
        let weights: Vec<u64> = rows
            .iter()
            .map(|&i| table.rows[i].entry.weight.unwrap_or(1))
            .collect();
        stream.pick_weighted(&weights).map(|k| rows[k])
    }
}
