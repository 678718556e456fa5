//! Each item's request in a session pack: the session's own settings, with
//! what its entries pin (an encounter's terrain and situation, an injury's
//! row, a trap's source, an NPC's archetype and tier).

use super::Request;
use crate::generators::weather::Season;
use crate::generators::{encounter, injury, npc, trap};
use crate::rules::Party;

/// Each encounter's request: the session's, with an entry's terrain and
/// pins for the first ones, in the season of the session's first day
/// (in the calendar whose day 1 is in `first_season`).
pub(super) fn encounter_requests(
    session: &Request,
    party: &Party,
    shun: &[String],
) -> Vec<encounter::Request> {
    let entries = &session.entries.encounters;
    // The season of the session's first day: a campaign's day, else day 1.
    let day = session
        .map
        .as_ref()
        .and_then(|m| m.fixed.as_ref())
        .map_or(1, |f| f.day);
    let season = Season::on(day, session.first_season);
    (0..session.encounters)
        .map(|i| {
            let (terrain, pin) = entries.get(i).cloned().unwrap_or_default();
            encounter::Request {
                terrain: terrain.unwrap_or_else(|| session.terrain.clone()),
                system: session.system,
                party: party.clone(),
                pin,
                shun: shun.to_vec(),
                taken: Vec::new(),
                heard: Vec::new(),
                season,
            }
        })
        .collect()
}

/// Each injury's request: permanent, or of a pinned row, where an entry
/// says so.
pub(super) fn injury_requests(session: &Request) -> Vec<injury::Request> {
    (0..session.injuries)
        .map(|i| {
            let (permanent, name) = session.entries.injuries.get(i).cloned().unwrap_or_default();
            injury::Request {
                character: None,
                permanent,
                name,
            }
        })
        .collect()
}

/// Each trap's request: odds for the party, in the session's terrain,
/// from where an entry says.
pub(super) fn trap_requests(session: &Request, party: &Party) -> Vec<trap::Request> {
    (0..session.traps)
        .map(|i| {
            let mut req = trap::Request::for_party(session.system, party);
            req.terrain = Some(session.terrain.clone());
            if let Some(Some(source)) = session.entries.traps.get(i) {
                req.source = *source;
            }
            req
        })
        .collect()
}

/// Each NPC's request: people of the session's terrain, of an entry's
/// archetype and tier.
pub(super) fn npc_requests(
    session: &Request,
    shun: &[String],
    taken: &[String],
    met: &[String],
    heard: &[String],
) -> Vec<npc::Request> {
    (0..session.npcs)
        .map(|i| {
            let (archetype, tier) = session.entries.npcs.get(i).cloned().unwrap_or_default();
            npc::Request {
                system: session.system,
                archetype,
                tier,
                terrain: Some(session.terrain.clone()),
                // Monsters and beasts belong on encounter sheets; NPC cards are people.
                people_only: true,
                fits: Vec::new(),
                met: met.to_vec(),
                shun: shun.to_vec(),
                taken: taken.to_vec(),
                heard: heard.to_vec(),
            }
        })
        .collect()
}
