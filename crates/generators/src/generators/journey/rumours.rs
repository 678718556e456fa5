//! Rumours heard where people live: arriving at a village, town or inn
//! where they heard none yet on the journey, the party hears one rumour from
//! `gen.place.rumour`, drawn on the journey's `rumour/<stop>` stream. A
//! frame's `~` is its subject, of the kind its tag names:
//!
//! - `person`: a named person of the pack or the campaign — the session's
//!   NPC cards, the NPCs the records say the party met, the named people
//!   of the pack's encounters and of those met on the way so far
//!   ([`Hearsay::people`]);
//! - `creature`: a beast or monster of those encounters, with its article
//!   ("a bog horror");
//! - `place`: a stop of the map the party met or will pass — told of in
//!   an earlier session, passed on this journey, or the destination —
//!   never the stop they are at; a frame also tagged `folk` (a wedding, a
//!   fair) names only a village, town or inn.
//!
//! Only frames whose kind has a subject are drawn, so a rumour always
//! names someone or somewhere the party can find. A frame is drawn once a
//! journey while others are left, and in a campaign not again while
//! frames no earlier session told are left ([`Hearsay::heard`], from the
//! campaign's memory).

use super::trip::Trip;
use super::{EncounterNote, GenError};
use crate::content::Row;
use crate::generators::encounter::Encounter;
use crate::generators::map::SAFE_KINDS;
use crate::generators::npc::Npc;
use crate::seed::DieSource;

/// The rumour frames.
pub(crate) const RUMOURS: &str = "gen.place.rumour";
/// Where a frame takes its subject.
pub(crate) const MARK: &str = "~";
/// The kinds of subject, as frames are tagged; a `place` frame tagged
/// `folk` too takes a settlement.
pub const KINDS: [&str; 4] = ["person", "creature", "place", "folk"];

/// Who and what rumours may name besides the map's stops: people by name
/// and creatures with their article, of the session's pack and the
/// campaign.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hearsay {
    /// People, by name.
    pub people: Vec<String>,
    /// Creatures, each with its article (`a wolf`).
    pub creatures: Vec<String>,
    /// The frames (row names) a campaign's earlier sessions told: drawn
    /// after every other fitting frame.
    pub heard: Vec<String>,
}

impl Hearsay {
    /// Add the people and creatures of NPCs (cards, foes, people on
    /// stage), each once.
    pub fn add<'a>(&mut self, npcs: impl IntoIterator<Item = &'a Npc>) {
        for n in npcs {
            let (list, said) = if is_person(n) {
                (&mut self.people, n.name.clone())
            } else {
                (&mut self.creatures, creature(&n.name))
            };
            if !list.contains(&said) {
                list.push(said);
            }
        }
    }

    /// The people and creatures of a pack: its NPC cards and the foes and
    /// people of its encounters.
    pub(crate) fn of_pack(npcs: &[Npc], encounters: &[Encounter]) -> Hearsay {
        let mut h = Hearsay::default();
        h.add(npcs);
        h.add(
            encounters
                .iter()
                .flat_map(|e| e.foes.iter().chain(&e.others)),
        );
        h
    }
}

/// Whether an NPC is a person (with a name of their own), not a beast or
/// monster going by its kind.
fn is_person(n: &Npc) -> bool {
    n.kind == "human" || n.kind == "townsfolk"
}

/// A creature by the name it goes by, with its article and without the
/// number that tells several apart: `Drowned one 2` is "a drowned one".
fn creature(name: &str) -> String {
    let name = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == ' ');
    let mut chars = name.chars();
    let words: String = chars
        .next()
        .map(|c| c.to_lowercase().chain(chars).collect())
        .unwrap_or_default();
    let vowel = words
        .chars()
        .next()
        .is_some_and(|c| "aeiouAEIOU".contains(c));
    format!("{} {words}", if vowel { "an" } else { "a" })
}

impl Trip<'_> {
    /// The rumour heard at `stop` (a settlement where none was heard yet on
    /// this journey), or `None` without the table or a frame whose
    /// subject is known.
    pub(super) fn rumour(&mut self, stop: usize) -> Result<Option<String>, GenError> {
        let Some(table) = self.library.get(RUMOURS) else {
            return Ok(None);
        };
        let subjects = self.subjects(stop);
        let kind_of = |r: &Row| {
            let has = |k: &str| r.entry.tags.iter().any(|t| t == k);
            let k = match KINDS.iter().position(|k| has(k))? {
                2 if has(KINDS[3]) => 3,
                k => k,
            };
            (!subjects[k].is_empty()).then_some(k)
        };
        let fit: Vec<usize> = (0..table.rows.len())
            .filter(|&i| self.library.drawable(&table.rows[i]) && kind_of(&table.rows[i]).is_some())
            .collect();
        let unheard = |i: &usize, before: &[String]| {
            let name = table.rows[*i].entry.name.to_string();
            !self.rumoured.contains(&name) && !before.contains(&name)
        };
        let fresh: Vec<usize> = fit
            .iter()
            .copied()
            .filter(|i| unheard(i, &self.req.hearsay.heard))
            .collect();
        let new_here: Vec<usize> = fit.iter().copied().filter(|i| unheard(i, &[])).collect();
        let rows = [fresh, new_here, fit]
            .into_iter()
            .find(|r| !r.is_empty())
            .unwrap_or_default();
        let weights: Vec<u64> = rows
            .iter()
            .map(|&i| table.rows[i].entry.weight.unwrap_or(1))
            .collect();
        let mut stream = self.at.stream(self.seed, &format!("rumour/{stop}"));
        let Some(k) = stream.pick_weighted(&weights).map(|k| rows[k]) else {
            return Ok(None);
        };
        let of = &subjects[kind_of(&table.rows[k]).expect("a frame that fits")];
        let subject = of[stream.die(of.len() as u32) as usize - 1].clone();
        let roll = self.library.resolve(RUMOURS, k, &mut stream)?;
        self.rumoured.push(roll.row.clone());
        self.heard_at.push(stop);
        Ok(Some(format!(
            "Rumour at {}: {}",
            self.stop(stop).name,
            roll.text.replace(MARK, &subject)
        )))
    }

    /// The subjects a rumour at `stop` may name, by kind ([`KINDS`]).
    fn subjects(&self, stop: usize) -> [Vec<String>; 4] {
        let mut hearsay = self.req.hearsay.clone();
        hearsay.add(self.encounters.iter().flat_map(met));
        let map = &self.req.map;
        let here = &map.stops[stop].name;
        let mut places: Vec<String> = Vec::new();
        let passed = self.passages.iter().map(|p| &p.from);
        let known = self.req.visits.keys().chain(passed);
        for name in known.chain([&map.stops[self.req.to].name]) {
            if name != here && map.stops.iter().any(|s| &s.name == name) && !places.contains(name) {
                places.push(name.clone());
            }
        }
        let settled: Vec<String> = places
            .iter()
            .filter(|p| {
                map.stops
                    .iter()
                    .any(|s| &s.name == *p && SAFE_KINDS.contains(&s.kind.as_str()))
            })
            .cloned()
            .collect();
        [hearsay.people, hearsay.creatures, places, settled]
    }
}

/// The foes and people of an encounter met on the way.
fn met(e: &EncounterNote) -> impl Iterator<Item = &Npc> {
    e.encounter.foes.iter().chain(&e.encounter.others)
}
