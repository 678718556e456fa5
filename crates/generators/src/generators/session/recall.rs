//! What a session's pack draws from the campaign's memory: the people
//! met before who come back into its encounters, and who the rumours on
//! the way may name.

use super::super::encounter::{Encounter, returning};
use super::super::journey;
use super::super::memory::Memory;
use super::super::npc::{self, Npc};
use super::super::traits;
use super::super::{Address, GenError, Rerolls, Said, make_distinct_by};
use crate::content::Library;
use crate::seed::Seed;

/// `encounters` with the people of `memory` who come back into them
/// ([`returning`], on each encounter's `returning` stream, as rerolled):
/// each person once a pack.
pub(super) fn bring_back(
    library: &Library,
    memory: &Memory,
    mut encounters: Vec<Encounter>,
    seed: &Seed,
    rerolls: &Rerolls,
) -> Result<Vec<Encounter>, GenError> {
    let mut back: Vec<String> = Vec::new();
    for (i, e) in encounters.iter_mut().enumerate() {
        let at = Address::new("encounter", i);
        let at = at.rerolled(rerolls.of(&at));
        let faces = memory.faces(&back);
        e.returning = returning::draw(library, e, &faces, &mut at.stream(seed, "returning"))?;
        back.extend(e.returning.iter().map(|r| r.name.clone()));
    }
    Ok(encounters)
}

/// Who rumours on the way may name: the pack's people and creatures, and
/// the NPCs the party met in earlier sessions and not known to be dead.
pub(super) fn hearsay(npcs: &[Npc], encounters: &[Encounter], memory: &Memory) -> journey::Hearsay {
    let mut hearsay = journey::Hearsay::of_pack(npcs, encounters);
    hearsay.heard = memory.rumours.iter().cloned().collect();
    for name in &memory.people_met {
        // The dead are not about to be seen anywhere.
        if !hearsay.people.contains(name) && !memory.fallen.contains(name) {
            hearsay.people.push(name.clone());
        }
    }
    hearsay
}

/// The names of the people (foes and others on stage) of `encounters`.
pub(super) fn people_of(encounters: &[Encounter]) -> impl Iterator<Item = String> + '_ {
    encounters
        .iter()
        .flat_map(|e| e.foes.iter().chain(&e.others))
        .map(|n| n.name.clone())
}

/// The trait rows the people of `encounters` drew (their leaders':
/// the rest keep none).
pub(super) fn traits_of(encounters: &[Encounter]) -> impl Iterator<Item = String> + '_ {
    encounters
        .iter()
        .flat_map(|e| e.foes.iter().chain(&e.others))
        .flat_map(|n| n.traits.keys.iter().cloned())
}

/// The NPC cards of `cards` (their requests), each fresh against `said`,
/// each drawing its concept among those the cards before it have not
/// (they count as met), and in a campaign each drawing its traits apart
/// from the cards' before it ([`traits::also_heard`]).
pub(super) fn make_cards(
    cards: &[npc::Request],
    library: &Library,
    seed: &Seed,
    said: &mut Said,
    rerolls: &Rerolls,
) -> Result<Vec<Npc>, GenError> {
    make_distinct_by(
        cards.len(),
        |made: &[Npc]| {
            let mut req = cards[made.len()].clone();
            let before = made.iter().flat_map(|n| n.traits.keys.clone());
            req.heard = traits::also_heard(std::mem::take(&mut req.heard), before);
            // The cards before count as met: a terrain's own folk are drawn
            // among the concepts no card of the pack has yet.
            req.met.extend(made.iter().map(|n| n.concept_key.clone()));
            req
        },
        library,
        seed,
        said,
        rerolls,
    )
}
