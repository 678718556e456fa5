//! Journeys across a point-crawl map, by the rules of the party's system.
//!
//! - [`route`]: the way (`shortest` or `safest`, Dijkstra), the lead
//!   traveller and each leg's exact odds.
//! - `clock`: the one clock every watch goes through (Core Rules
//!   watches, daily rests, groggy third watch, forced fourth-watch rest) and
//!   the larder (rations, perishable finds, water up to the party's
//!   capacity, the Core Rules' ability losses, shillings).
//! - `trip`: walking the route leg by leg, arriving, resupplying in
//!   settlements, foraging and searching for water.
//! - `mettle`: the METTLE leg — the Travel Check, its Twist and price.
//! - `twists`: what each Travel Twist's price does to the journey.
//! - `core`: the Core Rules leg — an encounter chance every watch.
//! - `way`: encounters on the way, never one already in the pack.
//! - `supplies`: settlements, foraging and the search for water.
//! - `visits`: a stop the party comes back to in a campaign says what
//!   moved on since its hook was told (`gen.place.since`): what came of
//!   the party's help, or how the trouble they left alone grew.
//! - `log`: how the log is worded: a routine night in camp in one short
//!   line, days in a row of nothing else folded into one entry.
//! - `rumours`: a rumour heard at each village, town or inn reached,
//!   naming someone or something of the pack or the campaign, or a stop
//!   the party met or will pass (`gen.place.rumour`).
//! - `hunger`: METTLE's Hungry and Thirsty PC by PC, who eats first when
//!   there is not enough, and who dies of it.
//!
//! **METTLE** (Scenes: Travel): one Travel Check per leg, POISE or a
//! navigation CALLING vs the path's Difficulty plus Hungry (+1 a day
//! without food) and Thirsty (+2 a day without water); a failure is an
//! encounter on the way; a failure with Edge takes the Twist (rerolling the
//! Edge dice) and pays its seeded price, which changes the journey.
//! Foraging and the search for water are METTLE Checks (see
//! [`super::forage`] for the reading).
//!
//! **Core Rules**: two regions a watch; an encounter chance each travelling
//! watch from the path's danger; foraging by the Core table with each PC's
//! WIT and damage die; water found with a watch and a WIT save; a daily rest
//! without food, water or sleep costs 1 STR, AGI or WIT until a full rest.
//!
//! Both: a day is three watches; the party rests on the third, eats (finds
//! first, spoiled if not eaten at that rest) and drinks; a settlement
//! (village, town, inn) sells meals and has water; a found source fills
//! every PC to the party's water capacity.

mod clock;
mod core;
mod hunger;
mod log;
mod mettle;
pub mod route;
pub mod rumours;
mod supplies;
mod trip;
mod twists;
mod visits;
mod way;

use serde::Serialize;

use super::map::Map;
pub use super::memory::{Told, Visits};
use super::{Address, GenError, Generator};
use crate::content::Library;
use crate::rules::{Party, RulesSystem};
use crate::seed::Seed;

pub use clock::{DaySupply, WatchState};
pub use hunger::Wanting;
pub use route::{Leg, Route};
pub use rumours::Hearsay;

/// Most units of rations or water a PC can carry, and the largest
/// water capacity.
pub const MAX_SUPPLY: u32 = 30;
/// Water capacity when neither the party nor the request sets one: at
/// least this, and never less than the water carried at the start.
pub(crate) const DEFAULT_CAPACITY: u32 = 3;
/// The kits a journey knows.
pub const KITS: [&str; 3] = ["fishing", "trapping", "camping"];

/// What a journey is asked for: the map, the two stops, the party and its
/// supplies, and what a campaign's pack must avoid repeating.
#[derive(Debug, Clone)]
pub struct Request {
    /// The map the journey crosses.
    pub map: Map,
    /// The season of the calendar's day 1: each day's encounters meet the
    /// weather of the season of their day
    /// ([`Season::on`](crate::generators::weather::Season::on)).
    pub first_season: crate::generators::weather::Season,
    /// The stop the party sets out from (an index into the map's stops).
    pub from: usize,
    /// The stop it means to reach (an index into the map's stops).
    pub to: usize,
    /// The party that travels.
    pub party: Party,
    /// The rules the party travels by.
    pub system: RulesSystem,
    /// How the way is chosen (shortest or safest).
    pub route: Route,
    /// Rations and water units each PC carries at the start.
    pub rations: u32,
    /// See [`Request::rations`].
    pub water: u32,
    /// A campaign's party supplies, rations and water for the whole party
    /// as its last record left them: carried as one pool (no unit lost to
    /// a share per PC, none leaving with a PC who sits out), which
    /// replaces `rations` and `water` a PC. Water over what the skins hold
    /// (`capacity` a PC) is carried as load until drunk, never thrown away.
    pub pool: Option<(u32, u32)>,
    /// Units of water each PC can carry: a source found fills to this.
    pub capacity: u32,
    /// `fishing`, `trapping`, `camping`.
    pub kits: Vec<String>,
    /// Take the Twist on a failed Travel Check with Edge (METTLE).
    pub twist: bool,
    /// Encounter situations already used (the pack's encounters): an
    /// encounter on the way is drawn again rather than repeat one.
    pub used: Vec<String>,
    /// Situations a campaign's earlier packs used (`<table>/<row>`): an
    /// encounter on the way is drawn again while it repeats one.
    pub remembered: Vec<String>,
    /// Name words no foe or person on stage takes, besides the party's.
    pub shun: Vec<String>,
    /// Whole names no foe or person on stage repeats while the name
    /// tables have others (a campaign's, and the pack's own people).
    pub taken: Vec<String>,
    /// Trait rows met (a campaign's and the pack's, `<table>/<row>`): a
    /// leader on the way draws each trait among the others while any fit.
    pub heard: Vec<String>,
    /// The day the party sets out on, by the calendar the log counts in:
    /// 1 for a journey of its own, the campaign's day in a campaign's
    /// pack. Every day of the log, the arrival and each encounter's day
    /// are numbered from it.
    pub first_day: u32,
    /// METTLE: each PC's days without food and water at the start, as a
    /// campaign's last record left them (Hungry and Thirsty carry until
    /// they eat and drink); a PC not listed sets out with a day for a
    /// Hungry or Thirsty status of their stat block, else none.
    pub fasting: Vec<Wanting>,
    /// The stops a campaign's earlier sessions told the hook of, each with
    /// the `gen.place.since` rows told there since (`visits`).
    pub visits: Visits,
    /// The stops whose trouble a campaign's records say the party dealt
    /// with (`helped`): coming back, what came of it is told, not how
    /// the trouble grew.
    pub helped: Vec<String>,
    /// Who and what the rumours heard at settlements may name besides the
    /// map's stops (`rumours`).
    pub hearsay: Hearsay,
}

/// What a pack's journey avoids: the situations the pack used (row
/// names), those a campaign remembers (`<table>/<row>`), the name
/// words no NPC takes and the whole names taken.
#[derive(Debug, Clone, Default)]
pub struct Recall {
    /// See [`Request::used`].
    pub used: Vec<String>,
    /// See [`Request::remembered`].
    pub remembered: Vec<String>,
    /// See [`Request::shun`].
    pub shun: Vec<String>,
    /// See [`Request::taken`].
    pub taken: Vec<String>,
    /// See [`Request::visits`].
    pub visits: Visits,
    /// See [`Request::helped`].
    pub helped: Vec<String>,
    /// See [`Request::hearsay`].
    pub hearsay: Hearsay,
    /// See [`Request::heard`].
    pub heard: Vec<String>,
}

impl Request {
    /// The water capacity for a party: its own, or the default (never
    /// below the water carried at the start).
    pub fn capacity_for(party: &Party, water: u32) -> u32 {
        party
            .water_capacity
            .unwrap_or_else(|| DEFAULT_CAPACITY.max(water))
    }
}

/// A journey walked across a map: the route planned, the legs as walked,
/// the day-by-day log, the encounters and the supplies left.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Journey {
    /// The rules the party travels by.
    pub system: RulesSystem,
    /// The stop the party set out from.
    pub from: String,
    /// The stop it meant to reach.
    pub to: String,
    /// How the way was chosen.
    pub route: Route,
    /// METTLE: the lead traveller; Core Rules: the PC with the best WIT,
    /// who tracks and searches for water.
    pub lead: String,
    /// The lead's pool (METTLE) or WIT (Core Rules), and what it is.
    pub lead_pool: u32,
    /// What `lead_pool` is (an attribute, a CALLING, or WIT).
    pub lead_with: String,
    /// The route as planned at the start, each leg with its exact odds.
    pub legs: Vec<Leg>,
    /// Exact chance of no encounter on the whole planned route (METTLE:
    /// taking Twists as the request says, before hunger or thirst).
    pub no_encounter: f64,
    /// The legs as walked (a Twist can send the party elsewhere), each
    /// with the exact odds of its Check as rolled and what happened.
    pub passages: Vec<Passage>,
    /// The log, a day (or a run of routine days) an entry.
    pub days: Vec<Day>,
    /// The party's state after every watch, in order.
    pub watches: Vec<WatchState>,
    /// Rations and water at the end of each day (for tick boxes).
    pub supplies: Vec<DaySupply>,
    /// How many days the journey took (the days of the log, the first
    /// and the last counted).
    pub days_taken: u32,
    /// Whether the party reached `to`.
    pub arrived: bool,
    /// When the party arrived (`day 3, watch 2`); `None` when it did not.
    pub arrival: Option<String>,
    /// The encounters met on the way, in order.
    pub encounters: Vec<EncounterNote>,
    /// Rations left at the end.
    pub rations_left: u32,
    /// Water units left at the end.
    pub water_left: u32,
    /// Units of water each PC can carry.
    pub water_capacity: u32,
    /// Core Rules: shillings spent on meals and rooms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shillings_spent: Option<u32>,
    /// The stops whose hook (or what moved on since) the log told, for a
    /// campaign's memory.
    #[serde(skip)]
    pub told: Vec<Told>,
    /// The rumour frames heard (`gen.place.rumour` rows, by name), for a
    /// campaign's memory.
    #[serde(skip)]
    pub rumours: Vec<String>,
}

/// One leg as walked.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Passage {
    /// 1-based, in the order walked.
    pub leg: u32,
    /// Watches gone when the party sets off on it (after any rest).
    pub watch: u32,
    /// Where the leg started.
    pub from: String,
    /// Where the party meant to go.
    pub to: String,
    /// Where it came out (`to`, unless it got lost; `on the way to …` when
    /// hunger and thirst killed every PC on the leg).
    pub reached: String,
    /// The leg's terrain (its wilder end's region).
    pub terrain: String,
    /// How many regions the leg crosses.
    pub regions: u32,
    /// Watches the leg took.
    pub watches: u32,
    /// METTLE: the Check's Difficulty (the path's plus the penalties) and
    /// the penalty for hunger and thirst in it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<u32>,
    /// See [`Passage::difficulty`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub penalty: Option<u32>,
    /// Exact chance of no encounter on this leg as it was walked (METTLE:
    /// the Check as rolled, without a Twist; Core Rules: no encounter in
    /// any of its watches).
    pub safe: f64,
    /// METTLE: the same, taking a Twist.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub safe_with_twist: Option<f64>,
    /// Core Rules: the chance of an encounter each watch (`1:4`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encounter_chance: Option<String>,
    /// METTLE: the Twist taken and its price, as applied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub twist: Option<TwistNote>,
    /// Encounters met on the leg.
    pub encounters: u32,
    /// Someone waits in ambush where the party arrives.
    pub ambushed: bool,
}

/// A Travel Twist a row of `mettle.twists.travel` names, with its price
/// (`twists` pays it on the trip).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Twist {
    /// The journey takes a day more.
    ExtraDay,
    /// The party gets lost and comes out elsewhere.
    Lost,
    /// One more encounter on the leg.
    AnotherEncounter,
    /// The leg's encounter is a worse one.
    WorseEncounter,
    /// Someone waits in ambush on arrival.
    Ambushed,
    /// Some rations and water are lost.
    LostSupplies,
    /// A row this tool has no price for: told only.
    Other,
}

impl Twist {
    /// The Twist a row of `mettle.twists.travel` names.
    pub(crate) fn from_row(name: &str) -> Twist {
        match name.to_lowercase().as_str() {
            "extra day" => Twist::ExtraDay,
            "lost" => Twist::Lost,
            "another encounter" => Twist::AnotherEncounter,
            "worse encounter" => Twist::WorseEncounter,
            "ambushed on arrival" => Twist::Ambushed,
            "lost supplies" => Twist::LostSupplies,
            _ => Twist::Other,
        }
    }
}

/// A Travel Twist taken on a leg, and what its price did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TwistNote {
    /// The Twist, as the tool prices it.
    pub twist: Twist,
    /// The row's name as its table writes it.
    pub name: String,
    /// What the price did, as the log says it.
    pub price: String,
}

/// One entry of the journey's log.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Day {
    /// The day's number, on the log's calendar.
    pub day: u32,
    /// The last day of a run of days in a row that held nothing but a
    /// routine night in camp, told as one entry (`log`); `None` for a
    /// day of its own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub through: Option<u32>,
    /// What happened, an entry a line.
    pub entries: Vec<String>,
}

/// An encounter met on the way, as the log and the pack list it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EncounterNote {
    /// The day it happened.
    pub day: u32,
    /// The leg it happened on (`from → to`).
    pub leg: String,
    /// The situation's row name (what the pack compares to avoid repeats).
    pub name: String,
    /// The situation's text.
    pub situation: String,
    /// The names of the foes met.
    pub foes: Vec<String>,
    /// The threat, in words.
    pub threat: String,
    /// The encounter itself, an item of the pack like the others: its
    /// foes' stat blocks, zones and odds, at `journey/1/encounter/<k>`
    /// ([`EncounterNote::address`]).
    pub encounter: super::encounter::Encounter,
}

impl EncounterNote {
    /// The address of encounter `k` (0-based, in the order met) on the
    /// pack's journey: `journey/1/encounter/<k + 1>`, as the After-the-
    /// session sheet prints it and a record's `met` names it.
    pub fn address(k: usize) -> String {
        format!("journey/1/encounter/{}", k + 1)
    }
}

impl Generator for Request {
    const KIND: &'static str = "journey";
    type Item = Journey;

    /// The journey at `at`.
    fn make(&self, library: &Library, seed: &Seed, at: &Address) -> Result<Journey, GenError> {
        check_request(self)?;
        trip::walk(library, self, seed, at)
    }
}

/// What the rules refuse before setting out: a party not of the system,
/// the same or missing stops, supplies off the scale, unknown kits.
fn check_request(req: &Request) -> Result<(), GenError> {
    req.party.check(req.system).map_err(GenError::Request)?;
    let stops = req.map.stops.len();
    if req.from >= stops || req.to >= stops || req.from == req.to {
        return Err(GenError::Request(
            "choose two different stops of the map".into(),
        ));
    }
    for (what, v) in [
        ("rations", req.rations),
        ("water", req.water),
        ("water capacity", req.capacity),
    ] {
        if v > MAX_SUPPLY {
            return Err(GenError::Request(format!(
                "{what} {v}: a PC carries at most {MAX_SUPPLY}"
            )));
        }
    }
    if req.capacity == 0 {
        return Err(GenError::Request(
            "water capacity 0: every PC can carry at least 1 unit of water".into(),
        ));
    }
    if req.pool.is_none() && req.water > req.capacity {
        return Err(GenError::Request(format!(
            "water {}: more than the party's water capacity of {} a PC; carry less or raise the capacity",
            req.water, req.capacity
        )));
    }
    for k in &req.kits {
        kit_name(k)?;
    }
    Ok(())
}

pub use super::count;

/// A kit's name as the journey knows it (`fishing kit` → `fishing`).
pub(crate) fn kit_name(kit: &str) -> Result<String, GenError> {
    let k = kit.trim().trim_end_matches(" kit").to_lowercase();
    if KITS.contains(&k.as_str()) {
        Ok(k)
    } else {
        Err(GenError::Request(format!(
            "unknown kit `{kit}`; the kits are {}",
            KITS.join(", ")
        )))
    }
}

#[cfg(test)]
mod carried_tests;
#[cfg(test)]
mod reach_tests;
#[cfg(test)]
mod tests;
