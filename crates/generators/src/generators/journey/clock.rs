//! The one clock of a journey and the larder it eats from.
//!
//! Every watch — travel, foraging, searching for water, time lost to a
//! Twist, rest — goes through [`Clock`]. A day is three watches (Core
//! Rules, Tracking time). The party rests on the third watch awake; a
//! third watch spent on anything else is groggy, and on a fourth the party
//! is forced to rest (Core Rules, Daily rests). At a rest each PC eats
//! (foraged finds first; finds not eaten spoil), drinks a unit of water and
//! sleeps. In a settlement meals are bought and water needs no tracking.
//! A METTLE PC who goes without grows Hungry or Thirsty (see [`super::hunger`],
//! which also says who dies of it); in the Core Rules a rest without food,
//! water or sleep costs the PC 1 STR, AGI or WIT (no sleep: no camping kit
//! and no room) until a full rest.

use serde::Serialize;

use super::Day;
use super::hunger::{Hunger, Wanting};
use crate::rules::{Party, RulesSystem};

/// Where a watch is spent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Place {
    pub name: String,
    /// A village, town or inn: meals for sale, water, rooms.
    pub settlement: bool,
}

impl Place {
    pub(super) fn wild(name: String) -> Self {
        Place {
            name,
            settlement: false,
        }
    }
}

/// A Core Rules PC's abilities as the journey wears them down.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Pc {
    pub name: String,
    /// STR, AGI, WIT at the start.
    pub base: [i64; 3],
    /// Temporary losses (until a full rest).
    pub lost: [i64; 3],
}

impl Pc {
    pub(super) fn now(&self, i: usize) -> i64 {
        (self.base[i] - self.lost[i]).max(0)
    }
}

/// What the party carries and how it fares.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Larder {
    pub system: RulesSystem,
    /// PCs in the party (METTLE: those alive).
    pub n: u32,
    pub rations: u32,
    /// Foraged rations, spoiled if not eaten at the next rest.
    pub perishable: u32,
    pub water: u32,
    /// Units of water each PC can carry.
    pub capacity: u32,
    /// METTLE: each PC's days without food and water, and the dead.
    pub hunger: Hunger,
    /// Core Rules: each PC's abilities.
    pub pcs: Vec<Pc>,
    pub camping: bool,
    /// Core Rules: shillings spent on meals and rooms.
    pub spent: u32,
}

impl Larder {
    pub(super) fn new(
        system: RulesSystem,
        party: &Party,
        (rations, water, pool): (u32, u32, Option<(u32, u32)>),
        capacity: u32,
        camping: bool,
        (lead, carried): (&str, &[Wanting]),
    ) -> Self {
        let pcs: Vec<Pc> = party
            .core
            .iter()
            .map(|s| Pc {
                name: s.name.clone(),
                base: [s.STR, s.AGI, s.WIT],
                lost: [0; 3],
            })
            .collect();
        let n = match system {
            RulesSystem::Mettle => party.mettle.len(),
            RulesSystem::Core => pcs.len(),
        } as u32;
        Larder {
            system,
            n,
            rations: pool.map_or(rations * n, |p| p.0),
            perishable: 0,
            water: pool.map_or(water * n, |p| p.1),
            capacity,
            hunger: Hunger::new(party, lead, carried),
            pcs: if system == RulesSystem::Core {
                pcs
            } else {
                Vec::new()
            },
            camping,
            spent: 0,
        }
    }

    /// Food for everyone at the next rest?
    pub(super) fn food_short(&self) -> bool {
        self.rations + self.perishable < self.n
    }

    pub(super) fn water_short(&self) -> bool {
        self.water < self.n
    }

    /// Fill every PC's water to capacity (water carried over it as load
    /// stays: none is poured away).
    pub(super) fn fill_water(&mut self) {
        self.water = self.water.max(self.capacity * self.n);
    }

    /// METTLE: the Difficulty hunger and thirst add to the lead's
    /// Travel Check.
    pub(super) fn penalty(&self) -> u32 {
        self.hunger.penalty()
    }
}

/// The party after one watch.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WatchState {
    /// 1-based, since setting out.
    pub watch: u32,
    /// The day, by the calendar the journey counts in
    /// ([`super::Request::first_day`]).
    pub day: u32,
    /// 1 morning, 2 afternoon, 3 night.
    pub of_day: u32,
    /// `travel`, `rest`, `forage`, `water`, `lost time`.
    pub doing: String,
    /// Where the party is: a stop, or `on the way to …` a stop.
    pub at: String,
    /// The watch was the third awake and not spent resting (Core Rules).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub groggy: bool,
    /// Rations carried, foraged finds and units of water, for the party.
    pub rations: u32,
    /// Of the rations, found food that spoils at the next daily rest.
    pub perishable: u32,
    /// Units of water, for the party.
    pub water: u32,
    /// On a rest: how many ate and how many drank.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fed: Option<u32>,
    /// See [`WatchState::fed`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drank: Option<u32>,
    /// METTLE: the lead's days without food and without water (the
    /// Travel Check carries them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hungry: Option<u32>,
    /// See [`WatchState::hungry`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thirsty: Option<u32>,
    /// Core Rules: each PC's abilities now.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub abilities: Vec<Abilities>,
    /// METTLE: every living PC going without food or water.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub wanting: Vec<Wanting>,
    /// METTLE: the PCs hunger or thirst has killed so far.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dead: Vec<String>,
    /// Core Rules: shillings spent on meals and rooms so far.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shillings_spent: Option<u32>,
}

/// A Core Rules PC's abilities after a watch.
#[allow(non_snake_case)]
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Abilities {
    /// The PC's name.
    pub name: String,
    /// STR now.
    pub STR: i64,
    /// AGI now.
    pub AGI: i64,
    /// WIT now.
    pub WIT: i64,
}

/// Rations (carried and found) and water at the end of a day.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DaySupply {
    /// The day, by the journey's calendar.
    pub day: u32,
    /// Rations (carried and found) for the party.
    pub rations: u32,
    /// Units of water for the party.
    pub water: u32,
}

/// The clock: watches, the log by day, and the state after every watch.
#[derive(Debug, Clone)]
pub(super) struct Clock {
    /// The day of the first watch, by the calendar the log counts in.
    pub first_day: u32,
    /// Watches since the start.
    pub watch: u32,
    /// Waking watches since the last rest.
    pub awake: u32,
    pub days: Vec<Day>,
    pub states: Vec<WatchState>,
    pub larder: Larder,
    /// The routine camp rests logged (everyone fed and watered from the
    /// packs, nothing found or spoiled, nobody hungry, thirsty or worse):
    /// each day and its line, which [`super::log::fold`] folds when whole
    /// days in a row hold nothing else.
    pub routine: Vec<(u32, String)>,
}

impl Clock {
    pub(super) fn new(larder: Larder, first_day: u32) -> Self {
        Clock {
            first_day,
            watch: 0,
            awake: 0,
            days: Vec::new(),
            states: Vec::new(),
            larder,
            routine: Vec::new(),
        }
    }

    /// The day of the current watch, counted from the first day.
    pub(super) fn day(&self) -> u32 {
        self.first_day + self.watch / 3
    }

    pub(super) fn log(&mut self, entry: String) {
        let day = self.day();
        match self.days.last_mut() {
            Some(d) if d.day == day => d.entries.push(entry),
            _ => self.days.push(Day {
                day,
                through: None,
                entries: vec![entry],
            }),
        }
    }

    /// Rest now if this is the third watch awake (or later).
    pub(super) fn rest_if_due(&mut self, place: &Place) {
        if self.awake >= 2 {
            self.rest(place);
        }
    }

    /// Is the rest due (the next waking watch would be groggy)?
    pub(super) fn rest_due(&self) -> bool {
        self.awake >= 2
    }

    /// One waking watch spent `doing` at `place` ([`Clock::begin`], then
    /// [`Clock::end`]).
    pub(super) fn spend(&mut self, doing: &str, place: &Place) {
        let groggy = self.begin(doing, place);
        self.end(doing, place, groggy);
    }

    /// Start a waking watch: forced to rest first on the fourth watch
    /// awake; groggy (returned) on the third.
    pub(super) fn begin(&mut self, doing: &str, place: &Place) -> bool {
        self.rest_if_forced(place);
        let groggy = self.awake == 2;
        if groggy {
            self.log(format!(
                "Groggy: a third watch awake, {}, instead of resting.",
                spent(doing)
            ));
        }
        groggy
    }

    /// The forced daily rest of a fourth watch awake, if this is one.
    pub(super) fn rest_if_forced(&mut self, place: &Place) {
        if self.awake >= 3 {
            self.log("Too exhausted to do anything else: a forced daily rest.".into());
            self.rest(place);
        }
    }

    /// End the waking watch [`Clock::begin`] started; its state recorded.
    pub(super) fn end(&mut self, doing: &str, place: &Place, groggy: bool) {
        self.watch += 1;
        self.awake += 1;
        self.record(doing, &place.name, groggy, None);
    }

    /// The daily rest, at `place`.
    pub(super) fn rest(&mut self, place: &Place) {
        let (fed, drank, note) = if place.settlement {
            self.larder_in_town(place)
        } else {
            self.larder_in_camp()
        };
        if let Some(left) = note.strip_prefix(super::log::CAMP) {
            self.routine.push((self.day(), left.to_owned()));
        }
        self.log(note);
        self.watch += 1;
        self.awake = 0;
        self.record("rest", &place.name, false, Some((fed, drank)));
    }

    fn record(&mut self, doing: &str, at: &str, groggy: bool, rest: Option<(u32, u32)>) {
        let l = &self.larder;
        let mettle = l.system == RulesSystem::Mettle;
        let w = self.watch - 1;
        self.states.push(WatchState {
            watch: self.watch,
            day: self.first_day + w / 3,
            of_day: w % 3 + 1,
            doing: doing.to_owned(),
            at: at.to_owned(),
            groggy,
            rations: l.rations,
            perishable: l.perishable,
            water: l.water,
            fed: rest.map(|r| r.0),
            drank: rest.map(|r| r.1),
            hungry: mettle.then_some(l.hunger.lead_days().0),
            thirsty: mettle.then_some(l.hunger.lead_days().1),
            abilities: l
                .pcs
                .iter()
                .map(|p| Abilities {
                    name: p.name.clone(),
                    STR: p.now(0),
                    AGI: p.now(1),
                    WIT: p.now(2),
                })
                .collect(),
            wanting: l.hunger.wanting(),
            dead: l.hunger.dead.clone(),
            shillings_spent: (!mettle).then_some(l.spent),
        });
    }

    /// A rest in a settlement: finds eaten first, meals bought for the
    /// rest, water to hand, beds (Core Rules: 2ʂ a meal, 2ʂ a room unless
    /// they camp with a kit).
    fn larder_in_town(&mut self, place: &Place) -> (u32, u32, String) {
        let l = &mut self.larder;
        let n = l.n;
        let fresh = l.perishable.min(n);
        let meals = n - fresh;
        l.perishable = 0;
        l.hunger.fed_in_town();
        l.fill_water();
        let note = match l.system {
            RulesSystem::Mettle => format!(
                "Daily rest at {}: {} bought{}, water and beds to hand; water filled to {}.",
                place.name,
                super::count(meals, "meal", "meals"),
                eaten(fresh, " and ", ""),
                l.water
            ),
            RulesSystem::Core => {
                let rooms = if l.camping { 0 } else { n };
                let cost = 2 * meals + 2 * rooms;
                l.spent += cost;
                format!(
                    "Daily rest at {}: {} bought at 2ʂ{}, {} at 2ʂ: {cost}ʂ; water to hand, filled to {}.",
                    place.name,
                    super::count(meals, "meal", "meals"),
                    eaten(fresh, " (", ")"),
                    if rooms > 0 {
                        super::count(rooms, "room", "rooms")
                    } else {
                        "no rooms (they camp with their kits)".into()
                    },
                    l.water
                )
            }
        };
        (n, n, note)
    }

    /// A rest in the wild: finds first, then rations; finds not eaten
    /// spoil; a unit of water each. A routine rest (every PC fed from the
    /// packs and watered, nothing found or spoiled, no cost) is said
    /// shortly ([`super::log::CAMP`]); any other says every count.
    fn larder_in_camp(&mut self) -> (u32, u32, String) {
        let l = &mut self.larder;
        let n = l.n;
        let fresh = l.perishable.min(n);
        let packed = (n - fresh).min(l.rations);
        let spoiled = l.perishable - fresh;
        l.perishable = 0;
        l.rations -= packed;
        let fed = fresh + packed;
        let drank = l.water.min(n);
        l.water -= drank;
        let left = format!(
            "{} and {} water left.",
            super::count(l.rations, "ration", "rations"),
            l.water
        );
        let cost = match l.system {
            RulesSystem::Mettle => {
                let (said, alive) = l.hunger.rest_in_camp(fed, drank);
                // The dead no longer eat, drink or sleep with the party.
                l.n = alive;
                said
            }
            RulesSystem::Core => {
                let slept = if l.camping { n } else { 0 };
                core_costs(&mut l.pcs, fed, drank, slept)
            }
        };
        if fresh == 0 && spoiled == 0 && fed == n && drank == n && cost.is_empty() {
            return (fed, drank, format!("{}{left}", super::log::CAMP));
        }
        let mut note = format!(
            "Daily rest in camp: {fed} of {n} eat ({fresh} foraged), {drank} drink; {left}"
        );
        if spoiled > 0 {
            note.push_str(&format!(
                " {} uneaten: spoiled.",
                super::count(spoiled, "foraged ration", "foraged rations")
            ));
        }
        note.push_str(&cost);
        (fed, drank, note)
    }
}

/// The Core Rules cost of a rest short of food, water or sleep: the PCs
/// best able to bear it go without (the highest STR goes hungry, the
/// highest AGI thirsty; earlier in the party on ties); each loses 1 of the
/// ability until a full rest.
fn core_costs(pcs: &mut [Pc], fed: u32, drank: u32, slept: u32) -> String {
    let n = pcs.len() as u32;
    let mut out = String::new();
    for (ability, (had, name)) in [(fed, "STR"), (drank, "AGI"), (slept, "WIT")]
        .into_iter()
        .enumerate()
    {
        let without = n.saturating_sub(had) as usize;
        if without == 0 {
            continue;
        }
        let mut order: Vec<usize> = (0..pcs.len()).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(pcs[i].now(ability)), i));
        let mut names = Vec::new();
        for &i in order.iter().take(without) {
            pcs[i].lost[ability] += 1;
            names.push(format!("{} ({name} {})", pcs[i].name, pcs[i].now(ability)));
        }
        let need = ["food", "water", "sleep"][ability];
        out.push_str(&format!(
            " Without {need}: {} lose 1 {name} until a full rest.",
            names.join(", ")
        ));
    }
    out
}

/// Rations (carried and found) and water at the end of each day.
pub(super) fn supplies(states: &[WatchState]) -> Vec<DaySupply> {
    let mut out: Vec<DaySupply> = Vec::new();
    for s in states {
        let d = DaySupply {
            day: s.day,
            rations: s.rations + s.perishable,
            water: s.water,
        };
        match out.last_mut() {
            Some(last) if last.day == s.day => *last = d,
            _ => out.push(d),
        }
    }
    out
}

/// The foraged rations eaten at a rest, between `before` and `after`
/// (`" and 2 foraged rations"`, `" (1 foraged ration eaten)"`); empty
/// when none were.
fn eaten(fresh: u32, before: &str, after: &str) -> String {
    match fresh {
        0 => String::new(),
        n => format!(
            "{before}{} eaten{after}",
            super::count(n, "foraged ration", "foraged rations")
        ),
    }
}

/// What a watch is spent on, as the log says it (`water`: "searching for
/// water").
fn spent(doing: &str) -> &str {
    match doing {
        "travel" => "on the way",
        "water" => "searching for water",
        "forage" => "foraging",
        "wait" => "waiting",
        "lost time" => "making up lost time",
        other => other,
    }
}
