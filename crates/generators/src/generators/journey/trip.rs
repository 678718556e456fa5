//! Walking the route: leg after leg until the goal, a re-planned route
//! when a Twist sends the party astray, arriving (a stop's hook said once),
//! and giving up when hunger and thirst (METTLE) or lost abilities (Core
//! Rules) would kill.

use std::collections::BTreeSet;

use super::super::map::{Path, SAFE_KINDS, Stop, WATER_KINDS};
use super::clock::{self, Clock, Larder, Place};
use super::route::{self, Lead, Odds};
use super::{Address, EncounterNote, GenError, Journey, Passage, Request, Told, Twist};
use crate::content::Library;
use crate::rules::RulesSystem;
use crate::seed::Seed;

/// A journey under way.
pub(super) struct Trip<'a> {
    pub library: &'a Library,
    pub req: &'a Request,
    pub seed: &'a Seed,
    pub at: &'a Address,
    pub lead: Lead,
    pub clock: Clock,
    pub encounters: Vec<EncounterNote>,
    /// Situations drawn so far (the pack's and the journey's own).
    pub used: Vec<String>,
    /// Hooks already told.
    said: BTreeSet<String>,
    /// The stops whose hook (or what moved on since) this journey told.
    pub told: Vec<Told>,
    /// The rumour frames heard on this journey, by row name, and the
    /// stops they were heard at.
    pub rumoured: Vec<String>,
    pub heard_at: Vec<usize>,
    pub passages: Vec<Passage>,
    /// The stop the party is at.
    pub here: usize,
}

/// How a leg ended.
pub(super) enum Ended {
    /// At this stop.
    At(usize),
    /// The party cannot go on.
    Stopped,
}

/// Walk the request's journey.
pub(super) fn walk(
    library: &Library,
    req: &Request,
    seed: &Seed,
    at: &Address,
) -> Result<Journey, GenError> {
    let lead = route::lead(&req.party, req.system)
        .ok_or_else(|| GenError::Request("the party is empty".into()))?;
    let odds = Odds {
        system: req.system,
        pool: lead.pool,
        blind: lead.blind,
        twist: req.twist,
        library,
    };
    let mut plan = route::route(&req.map, req.from, req.to, req.route, odds)?;
    let legs = route::legs(&req.map, &plan, odds)?;
    let no_encounter = legs
        .iter()
        .map(|l| if req.twist { l.safe_with_twist } else { l.safe })
        .product();
    let mut trip = Trip::new(library, req, seed, at, lead);
    trip.set_out();
    let most_legs = 4 * req.map.stops.len() + 4;
    let mut arrived = false;
    loop {
        if trip.here == req.to {
            arrived = true;
            break;
        }
        if trip.passages.len() >= most_legs {
            trip.clock.log(format!(
                "After {most_legs} legs without reaching {} the party gives up.",
                req.map.stops[req.to].name
            ));
            break;
        }
        let next = plan[1];
        match trip.leg(next)? {
            Ended::Stopped => break,
            Ended::At(stop) if stop == next => {
                plan.remove(0);
            }
            Ended::At(stop) => {
                plan = route::route(&req.map, stop, req.to, req.route, odds)?;
                if stop != req.to {
                    let names: Vec<&str> = plan
                        .iter()
                        .map(|&s| req.map.stops[s].name.as_str())
                        .collect();
                    trip.clock
                        .log(format!("The route is planned anew: {}.", names.join(" → ")));
                }
            }
        }
    }
    Ok(trip.finish(legs, no_encounter, arrived))
}

impl<'a> Trip<'a> {
    pub(super) fn new(
        library: &'a Library,
        req: &'a Request,
        seed: &'a Seed,
        at: &'a Address,
        lead: Lead,
    ) -> Self {
        let camping = req
            .kits
            .iter()
            .any(|k| super::kit_name(k).is_ok_and(|k| k == "camping"));
        let larder = Larder::new(
            req.system,
            &req.party,
            (req.rations, req.water, req.pool),
            req.capacity,
            camping,
            (&lead.name, &req.fasting),
        );
        Trip {
            library,
            req,
            seed,
            at,
            lead,
            clock: Clock::new(larder, req.first_day),
            encounters: Vec::new(),
            used: req.used.clone(),
            said: BTreeSet::new(),
            told: Vec::new(),
            rumoured: Vec::new(),
            heard_at: Vec::new(),
            passages: Vec::new(),
            here: req.from,
        }
    }

    fn set_out(&mut self) {
        let map = &self.req.map;
        let l = &self.lead;
        let who = match self.req.system {
            RulesSystem::Mettle if l.blind > 0 => format!(
                "{} leads ({} {}D), Blinded like everyone: +{} Difficulty on every Travel Check",
                l.name, l.with, l.pool, l.blind
            ),
            RulesSystem::Mettle => format!("{} leads ({} {}D)", l.name, l.with, l.pool),
            RulesSystem::Core => format!(
                "{} (WIT {}) tracks and searches for water; two regions a watch",
                l.name, l.pool
            ),
        };
        let carried = match self.req.pool {
            None => format!(
                "Each carries {} and {} of water (room for {}).",
                super::count(self.req.rations, "ration", "rations"),
                super::count(self.req.water, "unit", "units"),
                self.req.capacity
            ),
            Some(_) => self.pool_line(),
        };
        self.clock.log(format!(
            "The party sets out from {} for {} by the {} road; {who}. {carried}",
            map.stops[self.req.from].name,
            map.stops[self.req.to].name,
            self.req.route.word(),
        ));
        let start = &map.stops[self.req.from];
        self.said.insert(start.hook.clone());
        self.carried_hunger();
    }

    /// METTLE: hunger and thirst carried from before the journey — eaten
    /// and drunk away before setting out from a settlement, else the
    /// Travel Checks carry them.
    fn carried_hunger(&mut self) {
        if !self.clock.larder.hunger.wants() {
            return;
        }
        let here = self.place(self.req.from);
        let line = self.clock.larder.hunger.carried_line(here.settlement);
        if here.settlement {
            self.clock.larder.hunger.fed_in_town();
            self.clock.log(format!(
                "Hunger and thirst from before:{line} They eat and drink at {} before setting out, and carry none of it.",
                here.name
            ));
        } else {
            self.clock.log(format!(
                "Hunger and thirst from before:{line} The Travel Checks carry it until they eat and drink."
            ));
        }
    }

    /// A campaign party's supplies as one pool, and the water over what
    /// its skins hold, carried as load.
    fn pool_line(&self) -> String {
        let l = &self.clock.larder;
        let room = l.capacity * l.n;
        let over = if l.water > room {
            format!(
                "; {} over what their skins hold, carried as load until drunk",
                super::count(l.water - room, "unit", "units")
            )
        } else {
            String::new()
        };
        format!(
            "The party carries {} and {} of water between them (room for {} a PC{over}).",
            super::count(l.rations, "ration", "rations"),
            super::count(l.water, "unit", "units"),
            l.capacity
        )
    }

    pub(super) fn stop(&self, i: usize) -> &'a Stop {
        let req: &'a Request = self.req;
        &req.map.stops[i]
    }

    pub(super) fn place(&self, i: usize) -> Place {
        let s = self.stop(i);
        Place {
            name: s.name.clone(),
            settlement: SAFE_KINDS.contains(&s.kind.as_str()),
        }
    }

    /// Walk one leg from here towards `next`.
    fn leg(&mut self, next: usize) -> Result<Ended, GenError> {
        let k = self.passages.len();
        let from = self.here;
        let req: &'a Request = self.req;
        let path = &req.map.paths[route::path_between(&req.map, from, next)];
        let here = self.place(from);
        self.clock.rest_if_due(&here);
        if !self.can_go_on() {
            return Ok(Ended::Stopped);
        }
        let mut passage = Passage {
            leg: k as u32 + 1,
            watch: self.clock.watch,
            from: self.stop(from).name.clone(),
            to: self.stop(next).name.clone(),
            reached: self.stop(next).name.clone(),
            terrain: path.terrain.clone(),
            regions: path.regions,
            watches: path.watches,
            difficulty: None,
            penalty: None,
            safe: 1.0,
            safe_with_twist: None,
            encounter_chance: None,
            twist: None,
            encounters: 0,
            ambushed: false,
        };
        let (safe, twist) = match self.req.system {
            RulesSystem::Mettle => self.travel_check(k, path, &mut passage)?,
            RulesSystem::Core => {
                self.core_leg_line(path, &mut passage);
                (true, None)
            }
        };
        let before = self.encounters.len();
        let walked = self.walk_watches(k, path, safe, twist)?;
        let met = self.encounters.len() > before;
        let reached = match twist {
            Some(t) if walked => self.pay(t, k, next, path, &mut passage, met)?,
            _ => next,
        };
        passage.encounters = (self.encounters.len() - before) as u32;
        if self.clock.larder.n == 0 {
            // No one is left (on the way, or in the day a Twist cost): the
            // journey ends on the way.
            passage.reached = format!("on the way to {}", passage.to);
            self.passages.push(passage);
            self.can_go_on();
            return Ok(Ended::Stopped);
        }
        passage.reached = self.stop(reached).name.clone();
        let ambushed = passage.ambushed.then_some((k, from));
        self.passages.push(passage);
        self.arrive(reached, ambushed)?;
        if let Some(p) = self.passages.last_mut() {
            p.encounters = (self.encounters.len() - before) as u32;
        }
        if reached != self.req.to && self.clock.larder.hunger.dead.is_empty() {
            self.resupply(k, reached)?;
        }
        Ok(if self.can_go_on() {
            Ended::At(reached)
        } else {
            Ended::Stopped
        })
    }

    /// The leg's travelling watches, resting when due, with the encounter
    /// a failed Check brings (METTLE, half way) or the chance each watch
    /// gives (Core Rules). False when hunger and thirst have killed every
    /// PC on the way (METTLE): the walk stops there.
    fn walk_watches(
        &mut self,
        k: usize,
        path: &Path,
        safe: bool,
        twist: Option<Twist>,
    ) -> Result<bool, GenError> {
        let way = Place::wild(format!("on the way to {}", self.stop_name_of(path)));
        let worse = twist == Some(Twist::WorseEncounter);
        let mut due = !safe;
        let mut watch_stream = self.at.stream(self.seed, &format!("leg/{k}/watches"));
        for w in 0..path.watches {
            self.clock.rest_if_due(&way);
            if self.clock.larder.n == 0 {
                return Ok(false);
            }
            self.clock.spend("travel", &way);
            if self.clock.larder.n == 0 {
                return Ok(false);
            }
            match self.req.system {
                RulesSystem::Mettle if due && w >= path.watches / 2 => {
                    let at = self.at.child("leg", k).only("encounter");
                    self.encounter(&at, path, worse)?;
                    due = false;
                }
                RulesSystem::Core if self.core_watch(path, &mut watch_stream) => {
                    let at = self
                        .at
                        .child("leg", k)
                        .child("watch", w as usize)
                        .only("encounter");
                    self.encounter(&at, path, false)?;
                }
                _ => {}
            }
        }
        if due {
            let at = self.at.child("leg", k).only("encounter");
            self.encounter(&at, path, worse)?;
        }
        Ok(true)
    }

    /// "They reach `stop` (its kind)", with the stop's own terrain when
    /// the leg that reached it was of another (the wilder end's), so a
    /// place in the hills is not read as standing in the swamp it was
    /// reached through: "(tower, hills terrain at the end of a swamp leg)".
    pub(super) fn reach(&self, stop: usize) -> String {
        let s = self.stop(stop);
        match self.passages.last() {
            Some(p) if p.terrain != s.terrain => format!(
                "They reach {} ({}, {} terrain at the end of a {} leg)",
                s.name, s.kind, s.terrain, p.terrain
            ),
            _ => format!("They reach {} ({})", s.name, s.kind),
        }
    }

    /// The name the way is going to (for the place of travelling watches).
    pub(super) fn stop_name_of(&self, path: &Path) -> String {
        let other = if path.a == self.here { path.b } else { path.a };
        self.stop(other).name.clone()
    }

    /// Arriving at a stop: its hook said the first time (and in a
    /// settlement a rumour heard), water in a settlement or on a river
    /// ([`WATER_KINDS`]), the foes lying
    /// in wait if a Twist said so (`ambushed`: on leg `k` from `from`).
    fn arrive(&mut self, stop: usize, ambushed: Option<(usize, usize)>) -> Result<(), GenError> {
        self.here = stop;
        let s = self.stop(stop);
        let line = if self.said.insert(s.hook.clone()) && !s.hook.is_empty() {
            self.arrival_line(stop)?
        } else {
            format!("{}.", self.reach(stop))
        };
        self.clock.log(line);
        if self.place(stop).settlement
            && !self.heard_at.contains(&stop)
            && let Some(rumour) = self.rumour(stop)?
        {
            self.clock.log(rumour);
        }
        if let Some((k, from)) = ambushed {
            let who = self.ambush(k, (from, stop))?;
            self.clock.log(format!(
                "An ambush waits for them on the way into {}: {}",
                s.name,
                who.unwrap_or_else(|| {
                    "no foe comes up on the tables; the GM says who strikes first.".into()
                })
            ));
        }
        let river = WATER_KINDS.contains(&s.kind.as_str());
        if self.place(stop).settlement || river {
            self.clock.larder.fill_water();
            let water = super::count(self.clock.larder.water, "unit", "units");
            self.clock.log(if river {
                format!(
                    "At {} the river runs clean: they fill their skins ({water}).",
                    s.name
                )
            } else {
                format!(
                    "{} has clean water: they fill their skins ({water}).",
                    s.name
                )
            });
        }
        Ok(())
    }

    /// Can the party go on? METTLE: not once hunger or thirst has killed a
    /// PC. Core Rules: not with a PC's STR, AGI or WIT at 0.
    fn can_go_on(&mut self) -> bool {
        let l = &self.clock.larder;
        let stop =
            match self.req.system {
                RulesSystem::Mettle => (!l.hunger.dead.is_empty()).then(|| {
                    format!(
                        "With {} dead of hunger or thirst, the party cannot go on.",
                        crate::generators::join_and(&l.hunger.dead)
                    )
                }),
                RulesSystem::Core => l.pcs.iter().find(|p| (0..3).any(|i| p.now(i) == 0)).map(
                    |p| {
                        format!(
                            "{} has nothing left (STR {}, AGI {}, WIT {}): the party cannot go on.",
                            p.name,
                            p.now(0),
                            p.now(1),
                            p.now(2)
                        )
                    },
                ),
            };
        match stop {
            Some(line) => {
                self.clock.log(line);
                false
            }
            None => true,
        }
    }

    fn finish(self, legs: Vec<route::Leg>, no_encounter: f64, arrived: bool) -> Journey {
        let Trip {
            mut clock,
            encounters,
            passages,
            lead,
            req,
            told,
            rumoured,
            ..
        } = self;
        let arrival =
            arrived.then(|| format!("day {}, watch {}", clock.day(), clock.watch % 3 + 1));
        if let Some(a) = &arrival {
            clock.log(format!("Arrived at {} ({a}).", req.map.stops[req.to].name));
        }
        let l = &clock.larder;
        Journey {
            system: req.system,
            from: req.map.stops[req.from].name.clone(),
            to: req.map.stops[req.to].name.clone(),
            route: req.route,
            lead: lead.name,
            lead_pool: lead.pool,
            lead_with: lead.with,
            legs,
            no_encounter,
            passages,
            days_taken: clock.days.last().map_or(1, |d| d.day + 1 - clock.first_day),
            supplies: clock::supplies(&clock.states),
            arrived,
            arrival,
            encounters,
            rations_left: l.rations + l.perishable,
            water_left: l.water,
            water_capacity: l.capacity,
            shillings_spent: (req.system == RulesSystem::Core).then_some(l.spent),
            watches: clock.states,
            days: super::log::fold(clock.days, &clock.routine),
            told,
            rumours: rumoured,
        }
    }
}
