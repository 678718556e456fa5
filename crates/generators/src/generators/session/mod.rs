//! The session pack: everything a session file asks for, generated from one
//! seed — encounters, traps, NPCs, a map with a journey, downtime vouchers,
//! injury and mutation slips — each at its own address (`encounter/2` draws
//! from `gen/encounter/1/…`, the streams `gen encounter --item 2` uses), so
//! asking for one more encounter never changes the others. A rerolled item
//! draws from `gen/<address>/reroll/<n>/…` ([`super::Address::rerolled`]).
//!
//! Nothing is said twice in a pack: an encounter's situation, an NPC's
//! concept or name, a trap's name ([`super::Distinct`]). Items are made in
//! the order encounter, trap, npc, map, journey, voucher, injury, mutation;
//! an item whose draw repeats one at a lower address draws again on its own
//! `again/<n>` streams ([`super::make_distinct`]), so it depends only on
//! itself and the items before it. The pack's NPCs fit its terrain: they
//! are drawn among the archetypes its encounter table names while any has
//! a concept the campaign has not met ([`super::npc::Request::terrain`]).

mod recall;
mod requests;

use serde::{Serialize, Serializer};

use super::encounter::{self, Encounter, returning};
use super::injury::Injury;
use super::journey::{self, Journey, Route};
use super::map::{self, Map};
pub use super::memory::Repeat;
use super::memory::{self, Memory};
use super::mutation::{self, Mutation};
use super::npc::Npc;
use super::traits;
use super::trap::{self, Trap};
use super::voucher::{self, Voucher};
use super::weather::Season;
use super::{
    Address, GenError, Placed, Rerolls, Said, make_distinct, make_distinct_by, make_each,
    make_many, placed,
};
use crate::content::Library;
use crate::rules::Flaw;
use crate::rules::{Party, RulesSystem};
use crate::seed::Seed;
use recall::{bring_back, hearsay, make_cards, people_of, traits_of};
use requests::{encounter_requests, injury_requests, npc_requests, trap_requests};

/// What a pack holds: the typed form of a session file (see
/// the top crate's `input::session`), without its seed and party.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// The pack's title.
    pub title: String,
    /// The rules the pack is made for.
    pub system: RulesSystem,
    /// The terrain its encounters, traps and forage are drawn for.
    pub terrain: String,
    /// How many encounters.
    pub encounters: usize,
    /// How many traps.
    pub traps: usize,
    /// How many NPC cards.
    pub npcs: usize,
    /// How many injury slips.
    pub injuries: usize,
    /// How many mutation slips.
    pub mutations: usize,
    /// One voucher per name.
    pub vouchers: Vec<String>,
    /// The map, when the session asks for one.
    pub map: Option<MapPlan>,
    /// The season of the calendar's day 1 (a campaign's, or a session's
    /// own): the season of each day follows ([`Season::on`]).
    pub first_season: Season,
    /// How many times each item has been rerolled.
    pub rerolls: Rerolls,
    /// Items the session sets apart (`[[encounter]]`, `[[trap]]`,
    /// `[[npc]]`, `[[injury]]`): the first addresses of their kind.
    pub entries: Entries,
}

/// What a session sets for its first items of a kind; the counts
/// (`encounters = N`) are the totals, the rest made as the session says.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Entries {
    /// `[[encounter]]`: its own terrain (`None`: the session's) and pins.
    pub encounters: Vec<(Option<String>, encounter::Pin)>,
    /// `[[trap]]`: where it comes from (`None`: rules or parts).
    pub traps: Vec<Option<trap::Source>>,
    /// `[[npc]]`: its archetype and tier.
    pub npcs: Vec<(Option<String>, Option<u8>)>,
    /// `[[injury]]`: whether it is permanent (an omen spent to cheat
    /// death), and the row of the injury table pinned.
    pub injuries: Vec<(bool, Option<String>)>,
}

/// A map for the pack, and whether the party travels it.
#[derive(Debug, Clone, PartialEq)]
pub struct MapPlan {
    /// How many stops the map has.
    pub stops: usize,
    /// The terrains the map is drawn with (empty: the map's default ones).
    pub terrains: Vec<String>,
    /// Send the party from the start to the goal, in the pack's system.
    pub journey: bool,
    /// How the journey's way is chosen.
    pub route: Route,
    /// Rations and units of water each PC sets out with, and the kits.
    pub rations: u32,
    /// See [`MapPlan::rations`].
    pub water: u32,
    /// See [`MapPlan::rations`].
    pub kits: Vec<String>,
    /// A campaign's map, made once for the whole campaign, used instead of
    /// one drawn for the pack.
    pub fixed: Option<Fixed>,
}

/// A campaign's map in a pack: the map itself, the stop the party is at
/// and the stop it means to reach (a journey is made when that is another
/// stop and the plan asks for one).
#[derive(Debug, Clone, PartialEq)]
pub struct Fixed {
    /// The campaign's map.
    pub map: Map,
    /// The party's stop (an index into the map's stops).
    pub from: usize,
    /// The stop it means to reach, if any.
    pub to: Option<usize>,
    /// The campaign's day the session starts on: the journey's log counts
    /// its days from it.
    pub day: u32,
    /// The party's supplies as one pool ([`journey::Request::pool`]).
    pub supplies: Option<(u32, u32)>,
    /// Each PC's days without food and water at the start
    /// ([`journey::Request::fasting`]).
    pub fasting: Vec<journey::Wanting>,
}

/// Most items of one kind in a pack.
pub(crate) const MAX_PART: usize = 50;

/// A generated pack. Its JSON gives every item its address (and reroll
/// count): see [`Placed`].
#[derive(Debug, Clone, PartialEq)]
pub struct Pack {
    /// The pack's title.
    pub title: String,
    /// The rules it is made for.
    pub system: RulesSystem,
    /// The session's terrain.
    pub terrain: String,
    /// The party the pack was made for (its run sheet tracks each PC).
    pub party: Party,
    /// The encounters, by address order.
    pub encounters: Vec<Encounter>,
    /// The traps.
    pub traps: Vec<Trap>,
    /// The NPCs.
    pub npcs: Vec<Npc>,
    /// The map, if the session asks for one.
    pub map: Option<Map>,
    /// The journey across the map, if the party travels it.
    pub journey: Option<Journey>,
    /// The Downtime Vouchers issued.
    pub vouchers: Vec<Voucher>,
    /// The injury slips.
    pub injuries: Vec<Injury>,
    /// The mutation slips.
    pub mutations: Vec<Mutation>,
    /// How many times each item was rerolled.
    pub rerolls: Rerolls,
    /// A campaign's session: where the campaign is and the record to mark
    /// (`None` for a session file's pack).
    pub campaign: Option<CampaignPage>,
}

/// What a campaign's pack says besides its items: where the campaign is
/// at its start (the run sheet's "Previously"), the party as it is now,
/// vouchers in hand, NPCs brought back, and the record to mark at the
/// table (the "After the session" sheet, the same lines as `record N`
/// writes).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CampaignPage {
    /// The session's number in the campaign.
    pub session: usize,
    /// The day the session starts on.
    pub day: u32,
    /// The party's stop at the start (`None`: no map).
    pub stop: Option<String>,
    /// "Previously": the last session in a screenful (the rule-by-rule
    /// audit is `tablewright campaign`'s).
    pub recap: crate::generators::recap::Recap,
    /// The recap in lines ([`crate::generators::recap::Recap::lines`]), for
    /// a campaign's `pack.md.tera` written by an earlier `init`.
    pub previously: Vec<String>,
    /// Why the plan's journey was dropped: the party is already at its
    /// `to` (`None`: not dropped).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub journey_note: Option<String>,
    /// Each PC as they start the session: name and their state in one
    /// line (`Mettle 4 of 7; Afflicted`).
    pub party_now: Vec<(String, String)>,
    /// Vouchers in hand from earlier sessions: serial, holder and the
    /// session that issued it.
    pub vouchers_in_hand: Vec<(String, String, usize)>,
    /// The Downtime Vouchers the ledger issued after the last session
    /// (serials continuing the campaign's series), printed as voucher
    /// cards in this pack, since no pack printed them before.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub downtime_vouchers: Vec<super::voucher::Voucher>,
    /// NPCs of earlier packs brought back, their stat blocks kept.
    pub returning: Vec<Returning>,
    /// The record to mark.
    pub after: After,
    /// A fingerprint of the campaign's state the pack starts from: a
    /// record edited after the pack was made shows as a different one.
    pub start_digest: String,
    /// What the party knows of the region at the start, and its trail
    /// (`None`: no map): the players' map shows only what it knows, the
    /// GM's the trail.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reveal: Option<super::map::Reveal>,
    /// The tables (by id) whose last unused rows this pack used — a
    /// terrain's situations, the NPC cards' archetypes: from it on, their
    /// rows may repeat in the campaign.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub used_up: Vec<String>,
    /// What this pack repeats of what the campaign's earlier packs used,
    /// item by item ([`Pack::repeats`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub repeats: Vec<Repeat>,
}

/// An NPC of an earlier pack brought back by a plan's `bring_back`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Returning {
    /// The NPC as their pack made them.
    pub npc: Npc,
    /// The session whose pack made them, and their address there.
    pub session: usize,
    /// See [`Returning::session`].
    pub address: String,
    /// The session the party met them in (`None`: not recorded as met).
    pub met_in: Option<usize>,
}

/// A session's record pre-filled from its pack: what the "After the
/// session" sheet prints and `record N` writes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct After {
    /// The session's number.
    pub session: usize,
    /// The campaign's rules.
    pub system: RulesSystem,
    /// The day the session starts on.
    pub day: u32,
    /// The party's stop at the start (`None`: no map).
    pub stop: Option<String>,
    /// Every encounter, trap and slip of the pack by address, with what
    /// it is (`encounter/1`, `Crust-walkers`).
    pub items: Vec<(String, String)>,
    /// The pack's NPCs and those brought back (`npc/2`, `Mira Holt`).
    pub npcs: Vec<(String, String)>,
    /// The people of the encounters who could die ([`Pack::people`]).
    pub people: Vec<(String, String)>,
    /// The stops of the planned journey, in order from the party's stop.
    pub legs: Vec<String>,
    /// Vouchers in hand (carried, then the pack's), with their holders.
    pub vouchers: Vec<(String, String)>,
    /// Each PC present, with how they start.
    pub pcs: Vec<(String, String)>,
    /// The party's supplies at the start, when known.
    pub rations: Option<u32>,
    /// See [`After::rations`].
    pub water: Option<u32>,
    /// METTLE: each PC's days without food and water as the journey left
    /// them (those going without at its end, and 0 for those who set out
    /// Hungry or Thirsty and ate and drank on the way); empty without a
    /// journey.
    pub fasting: Vec<journey::Wanting>,
    /// METTLE: the PCs hunger and thirst killed on the journey.
    pub starved: Vec<String>,
}

/// The pack as its JSON shows it: every item placed at its address.
#[derive(Serialize)]
struct PackView<'a> {
    title: &'a str,
    system: RulesSystem,
    terrain: &'a str,
    party: &'a Party,
    encounters: Vec<Placed<&'a Encounter>>,
    traps: Vec<Placed<&'a Trap>>,
    npcs: Vec<Placed<&'a Npc>>,
    map: Option<Placed<&'a Map>>,
    journey: Option<Placed<&'a Journey>>,
    vouchers: Vec<Placed<&'a Voucher>>,
    injuries: Vec<Placed<&'a Injury>>,
    mutations: Vec<Placed<&'a Mutation>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    campaign: Option<&'a CampaignPage>,
}

impl Serialize for Pack {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = &self.rerolls;
        PackView {
            title: &self.title,
            system: self.system,
            terrain: &self.terrain,
            party: &self.party,
            encounters: placed("encounter", &self.encounters, r),
            traps: placed("trap", &self.traps, r),
            npcs: placed("npc", &self.npcs, r),
            map: placed("map", self.map.as_slice(), r).pop(),
            journey: placed("journey", self.journey.as_slice(), r).pop(),
            vouchers: placed("voucher", &self.vouchers, r),
            injuries: placed("injury", &self.injuries, r),
            mutations: placed("mutation", &self.mutations, r),
            campaign: self.campaign.as_ref(),
        }
        .serialize(s)
    }
}

impl Pack {
    /// Every item's address, in the pack's order (encounter, trap, npc,
    /// map, journey, voucher, injury, mutation).
    pub fn addresses(&self) -> Vec<Address> {
        let counts = [
            ("encounter", self.encounters.len()),
            ("trap", self.traps.len()),
            ("npc", self.npcs.len()),
            ("map", usize::from(self.map.is_some())),
            ("journey", usize::from(self.journey.is_some())),
            ("voucher", self.vouchers.len()),
            ("injury", self.injuries.len()),
            ("mutation", self.mutations.len()),
        ];
        counts
            .iter()
            .flat_map(|(kind, n)| (0..*n).map(|i| Address::new(kind, i)))
            .collect()
    }

    /// The encounters on the pack's journey, each with its address
    /// (`journey/1/encounter/2`), in the order met.
    pub fn journey_encounters(&self) -> Vec<(String, &Encounter)> {
        self.journey
            .iter()
            .flat_map(|j| {
                j.encounters
                    .iter()
                    .enumerate()
                    .map(|(k, n)| (journey::EncounterNote::address(k), &n.encounter))
            })
            .collect()
    }

    /// The people of the pack's encounters (its own, then those on the
    /// way) who could die at the table, by the encounter's address: its
    /// leader when a person (as the campaign's memory meets them), then
    /// the face it brings back. A record's `slain` names them (or the NPC
    /// cards).
    pub fn people(&self) -> Vec<(String, String)> {
        let own = self
            .encounters
            .iter()
            .enumerate()
            .map(|(i, e)| (Address::new("encounter", i).to_string(), e));
        let mut out = Vec::new();
        for (at, e) in own.chain(self.journey_encounters()) {
            if let Some(l) = e.person_leader() {
                out.push((at.clone(), l.name.clone()));
            }
            if let Some(r) = &e.returning {
                out.push((at, r.name.clone()));
            }
        }
        out
    }

    /// What the pack used that a campaign remembers: every encounter's
    /// situation (on the way too), every trap (lurking ones too) by its
    /// trigger and effect, every name of its people and the NPC cards'
    /// concepts, and the map stops its journey told of.
    pub fn used(&self) -> Memory {
        let mut m = Memory::default();
        for (_, (what, key)) in self.remembered_parts() {
            m.add(what, key);
        }
        if let Some(j) = &self.journey {
            m.told(&j.told);
            m.rumours.extend(j.rumours.iter().cloned());
        }
        for e in &self.encounters {
            m.meet_in(e);
        }
        for (_, e) in self.journey_encounters() {
            m.meet_in(e);
        }
        for n in &self.npcs {
            m.meet(n, returning::Was::Card);
            m.hear(&n.traits.keys);
        }
        m
    }

    /// What the pack repeats of what `memory` holds (the earlier packs of
    /// a campaign), part by part, in address order.
    pub fn repeats(&self, memory: &Memory) -> Vec<Repeat> {
        self.remembered_parts()
            .into_iter()
            .filter(|(_, (what, key))| memory.holds(what, key))
            .map(|(address, (what, text))| Repeat {
                address,
                what,
                text,
            })
            .collect()
    }

    /// Every part of the pack's items a campaign remembers, with the
    /// item's address: its encounters (then those on the way), traps and
    /// NPC cards.
    fn remembered_parts(&self) -> Vec<(String, memory::Part)> {
        let own = self
            .encounters
            .iter()
            .enumerate()
            .map(|(i, e)| (Address::new("encounter", i).to_string(), e));
        let encounters = own.chain(self.journey_encounters()).flat_map(|(at, e)| {
            memory::encounter_parts(e)
                .into_iter()
                .map(move |p| (at.clone(), p))
        });
        let traps = self.traps.iter().enumerate().flat_map(|(i, t)| {
            let at = Address::new("trap", i).to_string();
            memory::trap_parts(t)
                .into_iter()
                .map(move |p| (at.clone(), p))
        });
        let npcs = self.npcs.iter().enumerate().flat_map(|(i, n)| {
            let at = Address::new("npc", i).to_string();
            memory::card_parts(n)
                .into_iter()
                .map(move |p| (at.clone(), p))
        });
        encounters.chain(traps).chain(npcs).collect()
    }

    /// The JSON of the item at `at` (`None` if the pack has no such item),
    /// to tell which items a reroll changed.
    pub fn item_json(&self, at: &Address) -> Option<serde_json::Value> {
        let json = serde_json::to_value(self).ok()?;
        let list = match at.kind() {
            "map" | "journey" => return json.get(at.kind()).filter(|v| !v.is_null()).cloned(),
            "injury" => "injuries",
            kind => &format!("{kind}s"),
        };
        json.get(list)?.get(at.index()).cloned()
    }
}

impl Request {
    /// Everything in the request that asks for more than a pack can
    /// hold or names what does not exist, with the field (and the table it
    /// sits in: `None` for the top level, `Some("map")`).
    pub fn flaws(&self) -> Vec<(Option<&'static str>, Flaw)> {
        let mut out = Vec::new();
        for (what, n) in [
            ("encounters", self.encounters),
            ("traps", self.traps),
            ("npcs", self.npcs),
            ("injuries", self.injuries),
            ("mutations", self.mutations),
            ("vouchers", self.vouchers.len()),
        ] {
            if n > MAX_PART {
                out.push((
                    None,
                    Flaw::at(
                        what,
                        format!("{what} = {n}: a pack holds at most {MAX_PART}"),
                    ),
                ));
            }
        }
        out.extend(self.system_flaws().into_iter().map(|f| (None, f)));
        if let Some(m) = &self.map {
            let (lo, hi) = map::STOPS;
            if !(lo..=hi).contains(&m.stops) {
                out.push((
                    Some("map"),
                    Flaw::at(
                        "stops",
                        format!("stops = {}: a map has {lo} to {hi} stops", m.stops),
                    ),
                ));
            }
            for (what, v) in [("rations", m.rations), ("water", m.water)] {
                if v > journey::MAX_SUPPLY {
                    out.push((
                        Some("map"),
                        Flaw::at(
                            what,
                            format!("{what} = {v}: a PC carries at most {}", journey::MAX_SUPPLY),
                        ),
                    ));
                }
            }
            for (i, k) in m.kits.iter().enumerate() {
                if let Err(e) = journey::kit_name(k) {
                    out.push((Some("map"), Flaw::item("kits", i, e.to_string())));
                }
            }
        }
        out
    }

    /// Terrains the tables do not have (a terrain is any region: a
    /// `gen.encounter.<region>` table, built in or from `--content`).
    pub fn terrain_flaws(&self, library: &Library) -> Vec<(Option<&'static str>, Flaw)> {
        let mut out = Vec::new();
        if let Err(e) = library.region(&self.terrain) {
            out.push((None, Flaw::at("terrain", e)));
        }
        for (i, t) in self.map.iter().flat_map(|m| m.terrains.iter().enumerate()) {
            if let Err(e) = library.region(t) {
                out.push((Some("map"), Flaw::item("terrains", i, e)));
            }
        }
        if let Some(m) = &self.map {
            let req = map::Request {
                stops: m.stops,
                terrains: m.terrains.clone(),
            };
            if let Some(problem) = req.room_problem(library) {
                out.push((Some("map"), Flaw::at("stops", problem)));
            }
        }
        out
    }
}

impl Request {
    /// What the session asks for that its system does not have, each
    /// naming what the system offers instead: injuries and mutations are
    /// Core Rules slips, downtime vouchers are METTLE's.
    pub(crate) fn system_flaws(&self) -> Vec<Flaw> {
        let mut out = Vec::new();
        match self.system {
            RulesSystem::Mettle => {
                if self.injuries > 0 {
                    out.push(Flaw::at(
                        "injuries",
                        format!(
                            "injuries = {}: injury slips are Core Rules; METTLE has no injury table \
                             (its harm is lost Mettle and the Fallen or Staggered status, and the \
                             Afflicted status for poison and disease), so remove the line or make \
                             this a Core session (system = \"core\")",
                            self.injuries
                        ),
                    ));
                }
                if self.mutations > 0 {
                    out.push(Flaw::at(
                        "mutations",
                        format!(
                            "mutations = {}: mutations come from Core Rules corruption, which \
                             METTLE does not have (its lasting harm is the Afflicted status and \
                             the other statuses of the Scenes), so remove the line or make this \
                             a Core session (system = \"core\")",
                            self.mutations
                        ),
                    ));
                }
            }
            RulesSystem::Core => {
                if !self.vouchers.is_empty() {
                    out.push(Flaw::at(
                        "vouchers",
                        "downtime vouchers are METTLE's; the Core Rules spend downtime on a full \
                         rest instead (a week in a settlement: health, omens and abilities back, \
                         temporary injuries gone), so remove the line or make this a METTLE \
                         session (system = \"mettle\")"
                            .into(),
                    ));
                }
            }
        }
        out
    }
}

/// Generate a pack for a session's request and its party: every part at
/// its own addresses under `pack/` (the map and journey at `map/0` and
/// `journey/0`, the streams `gen map` and `gen journey` use). No NPC is
/// named like a PC of `party`.
pub fn generate(
    library: &Library,
    session: &Request,
    party: &Party,
    seed: &Seed,
) -> Result<Pack, GenError> {
    let names = party
        .mettle
        .iter()
        .map(|b| b.name.as_str())
        .chain(party.core.iter().map(|c| c.name.as_str()));
    generate_remembering(library, session, party, seed, &Memory::for_pcs(names))
}

/// [`generate`] for a campaign's session: what `memory` holds (the
/// earlier packs' situations, traps and names) is avoided while the
/// tables have unused rows, and no NPC takes a word of its PCs' names
/// ([`super::memory`]).
pub fn generate_remembering(
    library: &Library,
    session: &Request,
    party: &Party,
    seed: &Seed,
    memory: &Memory,
) -> Result<Pack, GenError> {
    let mut flaws = session.flaws();
    flaws.extend(session.terrain_flaws(library));
    if let Some((_, flaw)) = flaws.into_iter().next() {
        return Err(GenError::Request(flaw.message));
    }
    let system = session.system;
    let rerolls = &session.rerolls;
    let mut said = Said::remembering(memory.keys(library));
    let shun = &memory.pc_words;
    // Each encounter's people are named apart from the campaign's names
    // and from the people of the encounters before it.
    let requests = encounter_requests(session, party, shun);
    let remembered_names: Vec<String> = memory.names.iter().cloned().collect();
    let encounters = make_distinct_by(
        requests.len(),
        |made: &[Encounter]| {
            let mut req = requests[made.len()].clone();
            req.taken = remembered_names.clone();
            req.taken.extend(people_of(made));
            req.heard = traits::also_heard(memory.heard(), traits_of(made));
            req
        },
        library,
        seed,
        &mut said,
        rerolls,
    )?;
    let encounters = bring_back(library, memory, encounters, seed, rerolls)?;
    let mut taken = remembered_names;
    taken.extend(people_of(&encounters));
    let traps = make_distinct(
        &trap_requests(session, party),
        library,
        seed,
        &mut said,
        rerolls,
    )?;
    let heard = traits::also_heard(memory.heard(), traits_of(&encounters));
    // The people the encounters put on stage count as met: a card is
    // drawn among the concepts no one in the pack has yet.
    let mut met = memory.met_concepts(library);
    met.extend(
        encounters
            .iter()
            .flat_map(|e| &e.others)
            .map(|n| n.concept_key.clone()),
    );
    let cards = npc_requests(session, shun, &taken, &met, &heard);
    let npcs = make_cards(&cards, library, seed, &mut said, rerolls)?;
    let used: Vec<String> = encounters.iter().map(|e| e.situation.row.clone()).collect();
    let hearsay = hearsay(&npcs, &encounters, memory);
    let recall = journey::Recall {
        used,
        remembered: memory.live_situations(library),
        shun: shun.clone(),
        taken: taken
            .into_iter()
            .chain(npcs.iter().map(|n| n.name.clone()))
            .collect(),
        visits: memory.visits.clone(),
        helped: memory.helped.clone(),
        hearsay,
        heard: traits::also_heard(heard, npcs.iter().flat_map(|n| n.traits.keys.clone())),
    };
    let (map, journey) = map_and_journey(library, session, party, seed, recall)?;
    let vouchers = voucher::Request {
        holders: session.vouchers.clone(),
    };
    let mutation = mutation::Request::default();
    Ok(Pack {
        title: session.title.clone(),
        system,
        terrain: session.terrain.clone(),
        party: party.clone(),
        encounters,
        traps,
        npcs,
        map,
        journey,
        vouchers: make_distinct(
            &vec![vouchers; session.vouchers.len()],
            library,
            seed,
            &mut said,
            rerolls,
        )?,
        injuries: make_each(&injury_requests(session), library, seed, rerolls)?,
        mutations: make_many(&mutation, library, seed, session.mutations, rerolls)?,
        rerolls: rerolls.clone(),
        campaign: None,
    })
}

/// `map` as a pack of `system` shows it: in a Core pack each path carries
/// its encounter chance a watch, which its label and line show in place of
/// the METTLE Difficulty.
fn in_system(mut map: Map, system: RulesSystem, library: &Library) -> Map {
    if system == RulesSystem::Core {
        for p in &mut map.paths {
            p.encounter_chance = Some(journey::route::core_chance(library, p));
        }
    }
    map
}

/// The pack's map, and the party's journey across it in the pack's system
/// (its encounters on the way never repeat a situation the pack used, nor
/// one the campaign remembers while others are left).
fn map_and_journey(
    library: &Library,
    session: &Request,
    party: &Party,
    seed: &Seed,
    recall: journey::Recall,
) -> Result<(Option<Map>, Option<Journey>), GenError> {
    let Some(m) = &session.map else {
        return Ok((None, None));
    };
    let (first_day, pool) = m.fixed.as_ref().map_or((1, None), |f| (f.day, f.supplies));
    let fasting = m
        .fixed
        .as_ref()
        .map_or_else(Vec::new, |f| f.fasting.clone());
    let (generated, from, to) = match &m.fixed {
        Some(f) => {
            // The map marks where the party is and where it means to go.
            let mut map = in_system(f.map.clone(), session.system, library);
            map.start = f.from;
            map.goal = f.to.unwrap_or(f.from);
            match f.to.filter(|&t| t != f.from) {
                Some(to) => (map, f.from, to),
                None => return Ok((Some(map), None)),
            }
        }
        None => {
            let req = map::Request {
                stops: m.stops,
                terrains: m.terrains.clone(),
            };
            let generated = first(library, &req, seed, &session.rerolls)?;
            let generated = in_system(generated, session.system, library);
            let (from, to) = (generated.start, generated.goal);
            (generated, from, to)
        }
    };
    if !m.journey {
        return Ok((Some(generated), None));
    }
    let journey = journey::Request {
        from,
        to,
        map: generated.clone(),
        party: party.clone(),
        system: session.system,
        route: m.route,
        rations: m.rations,
        water: m.water,
        capacity: journey::Request::capacity_for(party, m.water),
        kits: m.kits.clone(),
        twist: true,
        used: recall.used,
        remembered: recall.remembered,
        shun: recall.shun,
        taken: recall.taken,
        pool,
        first_day,
        first_season: session.first_season,
        fasting,
        visits: recall.visits,
        helped: recall.helped,
        hearsay: recall.hearsay,
        heard: recall.heard,
    };
    let made = first(library, &journey, seed, &session.rerolls)?;
    Ok((Some(generated), Some(made)))
}

/// The first item of a kind (`map/1`, `journey/1`), rerolled as asked.
fn first<G: super::Generator>(
    library: &Library,
    req: &G,
    seed: &Seed,
    rerolls: &Rerolls,
) -> Result<G::Item, GenError> {
    let at = Address::new(G::KIND, 0);
    req.make(library, seed, &at.rerolled(rerolls.of(&at)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::test_library;
    use crate::generators::memory::situation_key;
    use crate::generators::npc;
    use crate::generators::{Distinct, Generator};

    fn request(encounters: usize, traps: usize, npcs: usize) -> Request {
        Request {
            title: "Test".into(),
            system: RulesSystem::Mettle,
            terrain: "swamp".into(),
            encounters,
            traps,
            npcs,
            injuries: 0,
            mutations: 0,
            vouchers: Vec::new(),
            map: None,
            first_season: Season::default(),
            rerolls: Rerolls::default(),
            entries: Entries::default(),
        }
    }

    fn pack(req: &Request, seed: &str) -> Pack {
        let party = Party::from_summary("3,4,4,5", RulesSystem::Mettle).unwrap();
        generate(&test_library(), req, &party, &Seed::new(seed).unwrap()).unwrap()
    }

    /// Everything a pack says that must be said once.
    fn keys(p: &Pack) -> Vec<String> {
        let encounters = p.encounters.iter().flat_map(Distinct::keys);
        let traps = p.traps.iter().flat_map(Distinct::keys);
        let npcs = p.npcs.iter().flat_map(Distinct::keys);
        encounters.chain(traps).chain(npcs).collect()
    }

    #[test]
    fn no_pack_says_anything_twice() {
        // Four encounters, four traps and eight NPCs in the swamp: 16
        // people from 19 archetypes leaves the redraw real work to do.
        let req = request(4, 4, 8);
        let mut redrawn = 0;
        for i in 0..50 {
            let p = pack(&req, &format!("distinct-{i}"));
            let all = keys(&p);
            let unique: std::collections::BTreeSet<&String> = all.iter().collect();
            assert_eq!(unique.len(), all.len(), "seed distinct-{i}: {all:?}");
            let first: Vec<String> = (0..8)
                .map(|n| {
                    let at = crate::generators::Address::new("npc", n);
                    let npc = npc_request(&req);
                    npc.make(
                        &test_library(),
                        &Seed::new(&format!("distinct-{i}")).unwrap(),
                        &at,
                    )
                    .unwrap()
                    .concept
                })
                .collect();
            let kept: Vec<&String> = p.npcs.iter().map(|n| &n.concept).collect();
            redrawn += first.iter().zip(kept).filter(|(a, b)| a != b).count();
        }
        assert!(
            redrawn > 0,
            "no NPC was ever drawn again: the test tests nothing"
        );
    }

    fn npc_request(req: &Request) -> npc::Request {
        npc::Request {
            system: req.system,
            archetype: None,
            tier: None,
            terrain: Some(req.terrain.clone()),
            people_only: true,
            fits: Vec::new(),
            met: Vec::new(),
            shun: Vec::new(),
            taken: Vec::new(),
            heard: Vec::new(),
        }
    }

    /// The personal names of a pack: NPC cards, people on stage and named
    /// foes (a beast or monster goes by its kind and is no name).
    fn personal_names(p: &Pack) -> Vec<String> {
        let people = p
            .encounters
            .iter()
            .flat_map(|e| e.foes.iter().chain(&e.others));
        people
            .chain(&p.npcs)
            .filter(|n| {
                !n.name
                    .starts_with(&crate::generators::display_name(&n.archetype))
            })
            .map(|n| n.name.clone())
            .collect()
    }

    #[test]
    fn no_name_a_campaign_used_is_given_again_nor_one_twice_in_a_pack() {
        // The same seed, remembering only the first pack's names: the same
        // situations come, and every person in them is named anew.
        let req = request(4, 0, 6);
        let party = Party::from_summary("3,4,4,5", RulesSystem::Mettle).unwrap();
        let library = test_library();
        let mut checked = 0;
        for i in 0..8 {
            let seed = Seed::new(&format!("names-{i}")).unwrap();
            let first = generate(&library, &req, &party, &seed).unwrap();
            let before = personal_names(&first);
            let mut unique = before.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(
                unique.len(),
                before.len(),
                "a name twice in one pack: {before:?}"
            );
            let memory = Memory {
                names: first.used().names,
                ..Memory::default()
            };
            let again = generate_remembering(&library, &req, &party, &seed, &memory).unwrap();
            let situations = |p: &Pack| -> Vec<String> {
                p.encounters
                    .iter()
                    .map(|e| e.situation.row.clone())
                    .collect()
            };
            assert_eq!(situations(&first), situations(&again));
            let after = personal_names(&again);
            assert!(
                after.iter().all(|n| !before.contains(n)),
                "{before:?} then {after:?}"
            );
            checked += after.len();
        }
        assert!(checked > 20, "only {checked} names were put to the test");
    }

    #[test]
    fn npc_concepts_and_traps_the_campaign_used_come_again_only_when_announced() {
        // The same seeds, remembering the first packs' NPC cards and
        // traps: no card's concept and no trap's trigger and effect come
        // again while the tables have others, and nothing is a repeat.
        let req = request(0, 2, 4);
        let party = Party::from_summary("3,4,4,5", RulesSystem::Mettle).unwrap();
        let library = test_library();
        let mut memory = Memory::default();
        let seeds: Vec<Seed> = (0..5)
            .map(|i| Seed::new(&format!("concepts-{i}")).unwrap())
            .collect();
        for seed in &seeds {
            memory.remember(generate(&library, &req, &party, seed).unwrap().used());
        }
        assert!(
            memory.concepts.len() >= 8 && memory.traps.len() >= 6,
            "{memory:?}"
        );
        assert!(memory.used_up(&library).is_empty());
        for seed in &seeds {
            let again = generate_remembering(&library, &req, &party, seed, &memory).unwrap();
            assert_eq!(again.repeats(&memory), Vec::new());
            let used = again.used();
            assert!(used.concepts.is_disjoint(&memory.concepts), "{used:?}");
            assert!(used.traps.is_disjoint(&memory.traps), "{used:?}");
        }
        // Every concept of every person of the archetype table
        // remembered: used up, so a card's concept may come again, and the
        // pack says which.
        let table = npc::table_for(RulesSystem::Mettle);
        memory
            .concepts
            .extend(crate::generators::concept::pool(&library, table));
        assert_eq!(
            memory.used_up(&library),
            vec![crate::generators::concept::TABLE.to_owned()]
        );
        let again = generate_remembering(&library, &req, &party, &seeds[0], &memory).unwrap();
        let repeats = again.repeats(&memory);
        assert_eq!(repeats.iter().filter(|r| r.what == "concept").count(), 4);
        assert_eq!(repeats[0].address, "npc/1");
    }

    #[test]
    fn a_hazard_the_campaign_met_is_not_met_again_while_its_table_has_others() {
        // The swamp's hazards (rows tagged `hazard`) remembered as the
        // situations they are: no encounter draws one again.
        let library = test_library();
        let table = library.table("gen.encounter.swamp").unwrap();
        let hazards: Vec<String> = table
            .rows
            .iter()
            .filter(|r| r.entry.tags.iter().any(|t| t == "hazard"))
            .map(|r| r.entry.name.to_string())
            .collect();
        assert!(hazards.len() >= 2, "the swamp has hazards: {hazards:?}");
        let mut memory = Memory::default();
        for h in &hazards {
            memory
                .situations
                .insert(situation_key("gen.encounter.swamp", h));
        }
        let req = request(3, 0, 0);
        let party = Party::from_summary("3,4,4,5", RulesSystem::Mettle).unwrap();
        let (mut met_before, mut met_after) = (0, 0);
        for i in 0..30 {
            let seed = Seed::new(&format!("hazard-{i}")).unwrap();
            let plain = generate(&library, &req, &party, &seed).unwrap();
            let again = generate_remembering(&library, &req, &party, &seed, &memory).unwrap();
            let count = |p: &Pack| {
                p.encounters
                    .iter()
                    .filter(|e| hazards.contains(&e.situation.row))
                    .count()
            };
            met_before += count(&plain);
            met_after += count(&again);
        }
        assert!(met_before > 0, "no seed drew a hazard: nothing was tested");
        assert_eq!(met_after, 0);
    }

    #[test]
    fn an_item_depends_only_on_lower_addresses() {
        for i in 0..10 {
            let seed = format!("lower-{i}");
            let small = pack(&request(2, 1, 3), &seed);
            let big = pack(&request(2, 1, 6), &seed);
            assert_eq!(small.encounters, big.encounters);
            assert_eq!(small.traps, big.traps);
            assert_eq!(small.npcs[..], big.npcs[..3]);
        }
    }
}
