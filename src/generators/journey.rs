//! Journeys across a point-crawl map (METTLE Travel with the Core Rules'
//! clock and larder).
//!
//! - **Route**: `shortest` (fewest regions) or `safest` (the greatest chance
//!   of no encounter on the way), by Dijkstra with ties broken by stop
//!   order. Each leg states the exact chance that the lead traveller's Check
//!   beats the path's Difficulty, with and without a Twist.
//! - **Lead traveller**: the PC with the biggest POISE, or a navigation
//!   CALLING (a CALLING whose name speaks of guiding, scouting, tracking,
//!   woodcraft, roads or ranging) if that is bigger.
//! - **Each leg**: the Travel Check (POISE or CALLING vs the Difficulty,
//!   plus Hungry +1 and Thirsty +2 per day without); on a failure with Edge
//!   the party takes the Twist (reroll the Edge dice) unless told not to,
//!   and its price is drawn from `mettle.twists.travel`; a failure means an
//!   encounter on the way, rolled from the leg's terrain table.
//! - **The clock**: two regions a watch; a day is three watches, the third
//!   the daily rest. At each rest every PC eats a ration and drinks a unit
//!   of water; when food runs out the party forages (each PC one watch, the
//!   Core Rules foraging table, perishable finds eaten first); when water
//!   runs out someone searches for a source (a watch and a WIT save).
//!   Villages, towns and inns refill water and feed the party. A day without
//!   food makes the party Hungry, without water Thirsty.

use serde::Serialize;

use super::encounter;
use super::forage;
use super::map::{Map, SAFE_KINDS, Stop};
use super::{Address, GenError, Generator};
use crate::content::Library;
use crate::dice::ast::{Expr, Pool};
use crate::dice::odds::OddsDetail;
use crate::dice::{self};
use crate::rules::Party;
use crate::rules::RulesSystem;
use crate::rules::mettle::StatBlock;
use crate::seed::{DieSource, Seed, Stream};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Route {
    Shortest,
    Safest,
}

#[derive(Debug, Clone)]
pub struct Request {
    pub map: Map,
    pub from: usize,
    pub to: usize,
    pub party: Party,
    pub route: Route,
    /// Rations and water units each PC carries at the start.
    pub rations: u32,
    pub water: u32,
    /// The forager's WIT (METTLE PCs have none of their own).
    pub wit: u32,
    pub kits: Vec<String>,
    /// Take the Twist on a failed Travel Check with Edge.
    pub twist: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Journey {
    pub from: String,
    pub to: String,
    pub route: Route,
    pub lead: String,
    /// The lead's pool and where it comes from (`POISE` or a CALLING).
    pub lead_pool: u32,
    pub lead_with: String,
    pub legs: Vec<Leg>,
    /// Exact chance of no encounter on the whole route (taking Twists as
    /// the request says, before hunger or thirst).
    pub no_encounter: f64,
    pub days: Vec<Day>,
    pub arrived: bool,
    pub arrival: Option<String>,
    pub encounters: Vec<EncounterNote>,
    pub rations_left: u32,
    pub water_left: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Leg {
    pub from: String,
    pub to: String,
    pub regions: u32,
    pub watches: u32,
    pub terrain: String,
    pub difficulty: u32,
    /// Chance the Travel Check succeeds (no encounter), without a Twist.
    pub safe: f64,
    /// The same, taking a Twist on a failure with Edge.
    pub safe_with_twist: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Day {
    pub day: u32,
    pub entries: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EncounterNote {
    pub day: u32,
    pub leg: String,
    pub situation: String,
    pub foes: Vec<String>,
    pub threat: String,
}

const NAVIGATION: [&str; 9] = [
    "guide", "navig", "scout", "track", "wood", "road", "ranger", "pathfind", "travel",
];

/// The lead traveller: biggest POISE or navigation CALLING.
fn lead(party: &Party) -> Option<(&StatBlock, u32, String)> {
    party
        .mettle
        .iter()
        .map(|b| {
            let calling = b
                .callings
                .iter()
                .filter(|c| {
                    let n = c.name.to_lowercase();
                    NAVIGATION.iter().any(|w| n.contains(w))
                })
                .max_by_key(|c| c.dice);
            match calling {
                Some(c) if c.dice > b.POISE => (b, c.dice, format!("CALLING {}", c.name)),
                _ => (b, b.POISE, "POISE".to_owned()),
            }
        })
        .max_by_key(|(b, pool, _)| (*pool, std::cmp::Reverse(b.name.clone())))
}

fn check_chance(pool: u32, difficulty: u32, twist: bool) -> Result<f64, GenError> {
    let expr = Expr::Pool(Pool {
        dice: pool,
        extra: 0,
        bonus: 0,
        difficulty: Some(difficulty),
        raises: 0,
        twist,
        team: Vec::new(),
    });
    match dice::odds(&expr)
        .map_err(|e| GenError::Request(e.to_string()))?
        .detail
    {
        OddsDetail::Check(c) => Ok(c.success),
        _ => unreachable!("a Check"),
    }
}

/// The stops of the route, by Dijkstra on the chosen cost.
fn route(
    map: &Map,
    from: usize,
    to: usize,
    kind: Route,
    pool: u32,
    twist: bool,
) -> Result<Vec<usize>, GenError> {
    let n = map.stops.len();
    let cost = |p: usize| -> Result<f64, GenError> {
        let path = &map.paths[p];
        Ok(match kind {
            Route::Shortest => f64::from(path.regions),
            // −ln P(safe): adding costs multiplies chances. A leg that can
            // never be crossed safely still has a (huge) finite cost.
            Route::Safest => -check_chance(pool, path.difficulty, twist)?.max(1e-300).ln(),
        })
    };
    let mut best = vec![f64::INFINITY; n];
    let mut prev = vec![usize::MAX; n];
    let mut done = vec![false; n];
    best[from] = 0.0;
    for _ in 0..n {
        let Some(v) = (0..n)
            .filter(|&i| !done[i] && best[i].is_finite())
            .min_by(|&a, &b| best[a].total_cmp(&best[b]).then(a.cmp(&b)))
        else {
            break;
        };
        done[v] = true;
        for (p, w) in map.neighbours(v) {
            let d = best[v] + cost(p)?;
            if d < best[w] {
                best[w] = d;
                prev[w] = v;
            }
        }
    }
    if !best[to].is_finite() {
        return Err(GenError::Request(format!(
            "there is no road from {} to {}",
            map.stops[from].name, map.stops[to].name
        )));
    }
    let mut stops = vec![to];
    while *stops.last().expect("non-empty") != from {
        stops.push(prev[*stops.last().expect("non-empty")]);
    }
    stops.reverse();
    Ok(stops)
}

struct Clock {
    /// Watches since the start: day = watch / 3 + 1; watch 2 of a day is the rest.
    watch: u32,
    days: Vec<Day>,
}

impl Clock {
    fn day(&self) -> u32 {
        self.watch / 3 + 1
    }

    fn log(&mut self, entry: String) {
        let day = self.day();
        match self.days.last_mut() {
            Some(d) if d.day == day => d.entries.push(entry),
            _ => self.days.push(Day {
                day,
                entries: vec![entry],
            }),
        }
    }

    fn is_rest(&self) -> bool {
        self.watch % 3 == 2
    }
}

struct Larder {
    rations: u32,
    /// Foraged rations, spoiled if not eaten at the next rest.
    perishable: u32,
    water: u32,
    hungry: u32,
    thirsty: u32,
}

impl Generator for Request {
    const KIND: &'static str = "journey";
    type Item = Journey;

    /// The journey at `at`.
    fn make(&self, library: &Library, seed: &Seed, at: &Address) -> Result<Journey, GenError> {
        check_request(self)?;
        let map = &self.map;
        let (leader, pool, with) =
            lead(&self.party).ok_or_else(|| GenError::Request("the party is empty".into()))?;
        let stops = route(map, self.from, self.to, self.route, pool, self.twist)?;
        let legs = legs(map, &stops, pool)?;
        let no_encounter = legs
            .iter()
            .map(|l| {
                if self.twist {
                    l.safe_with_twist
                } else {
                    l.safe
                }
            })
            .product();
        let mut trip = Trip::new(library, self, seed, at, pool);
        trip.clock.log(format!(
            "The party sets out from {} for {} by the {} road; {} leads ({} {}D).",
            legs[0].from,
            legs.last().expect("a leg").to,
            match self.route {
                Route::Shortest => "shortest",
                Route::Safest => "safest",
            },
            leader.name,
            with,
            pool
        ));
        let mut arrived = true;
        for (k, leg) in legs.iter().enumerate() {
            if !trip.travel(k, leg, &map.stops[stops[k]], &map.stops[stops[k + 1]])? {
                arrived = false;
                break;
            }
        }
        let Trip {
            mut clock,
            larder,
            encounters,
            ..
        } = trip;
        let arrival =
            arrived.then(|| format!("day {}, watch {}", clock.day(), clock.watch % 3 + 1));
        if arrived {
            clock.log(format!(
                "Arrived at {} ({}).",
                legs.last().expect("a leg").to,
                arrival.as_deref().unwrap_or("")
            ));
        }
        Ok(Journey {
            from: map.stops[self.from].name.clone(),
            to: map.stops[self.to].name.clone(),
            route: self.route,
            lead: leader.name.clone(),
            lead_pool: pool,
            lead_with: with,
            legs,
            no_encounter,
            days: clock.days,
            arrived,
            arrival,
            encounters,
            rations_left: larder.rations + larder.perishable,
            water_left: larder.water,
        })
    }
}

/// What the rules refuse before setting out: a party that is not a METTLE
/// party, the same or missing stops, a WIT off the scale.
fn check_request(req: &Request) -> Result<(), GenError> {
    req.party
        .check(RulesSystem::Mettle)
        .map_err(GenError::Request)?;
    let stops = req.map.stops.len();
    if req.from >= stops || req.to >= stops || req.from == req.to {
        return Err(GenError::Request(
            "choose two different stops of the map".into(),
        ));
    }
    if !(1..=19).contains(&req.wit) {
        return Err(GenError::Request(format!(
            "--wit {}: WIT runs 1-19",
            req.wit
        )));
    }
    Ok(())
}

/// The legs between consecutive stops of the route, with their exact odds.
fn legs(map: &Map, stops: &[usize], pool: u32) -> Result<Vec<Leg>, GenError> {
    stops
        .windows(2)
        .map(|w| {
            let (p, _) = map
                .neighbours(w[0])
                .into_iter()
                .find(|(_, other)| *other == w[1])
                .expect("consecutive route stops share a path");
            let path = &map.paths[p];
            Ok(Leg {
                from: map.stops[w[0]].name.clone(),
                to: map.stops[w[1]].name.clone(),
                regions: path.regions,
                watches: path.watches,
                terrain: path.terrain.clone(),
                difficulty: path.difficulty,
                safe: check_chance(pool, path.difficulty, false)?,
                safe_with_twist: check_chance(pool, path.difficulty, true)?,
            })
        })
        .collect()
}

/// A journey under way: the clock, the larder and what happened.
struct Trip<'a> {
    library: &'a Library,
    req: &'a Request,
    seed: &'a Seed,
    at: &'a Address,
    /// The lead traveller's pool.
    pool: u32,
    /// PCs in the party.
    n: u32,
    clock: Clock,
    larder: Larder,
    encounters: Vec<EncounterNote>,
}

impl<'a> Trip<'a> {
    /// Setting out: every PC with the rations and water the request gives.
    fn new(
        library: &'a Library,
        req: &'a Request,
        seed: &'a Seed,
        at: &'a Address,
        pool: u32,
    ) -> Self {
        let n = req.party.mettle.len() as u32;
        Trip {
            library,
            req,
            seed,
            at,
            pool,
            n,
            larder: Larder {
                rations: req.rations * n,
                perishable: 0,
                water: req.water * n,
                hungry: 0,
                thirsty: 0,
            },
            clock: Clock {
                watch: 0,
                days: Vec::new(),
            },
            encounters: Vec::new(),
        }
    }

    /// Travel leg `k` from `here` to `next` (each leg draws from its own
    /// `leg/<k>` stream). False when the party cannot go on.
    fn travel(&mut self, k: usize, leg: &Leg, here: &Stop, next: &Stop) -> Result<bool, GenError> {
        let mut s = self.at.stream(self.seed, &format!("leg/{k}"));
        // Rest first if the clock says so.
        rest_if_due(&mut self.clock, &mut self.larder, self.n, &here.kind);
        let safe = self.travel_check(k, leg, &mut s)?;
        for w in 0..leg.watches {
            rest_if_due(&mut self.clock, &mut self.larder, self.n, "");
            if !safe && w == leg.watches / 2 {
                self.encounter(k, leg)?;
            }
            self.clock.watch += 1;
        }
        self.clock.log(format!(
            "They reach {} ({}): {}",
            next.name, next.kind, next.hook
        ));
        if SAFE_KINDS.contains(&next.kind.as_str()) {
            self.larder.water = self.req.water * self.n;
            self.clock
                .log(format!("{} has food and water: water refilled.", next.name));
        }
        // Food and water for the next day, found by foraging or searching.
        if self.larder.rations + self.larder.perishable < self.n {
            self.forage(k, next)?;
        }
        if self.larder.water < self.n && next.terrain != "swamp" {
            self.search_water(&mut s);
        }
        if self.larder.hungry + 2 * self.larder.thirsty > self.pool + 6 {
            self.clock.log(
                "Starving and parched, the party cannot go on; they turn back or perish.".into(),
            );
            return Ok(false);
        }
        Ok(true)
    }

    /// The leg's Travel Check (with a Twist and its price, if taken), logged.
    /// True when it succeeds: no encounter on the way.
    fn travel_check(&mut self, k: usize, leg: &Leg, s: &mut Stream) -> Result<bool, GenError> {
        let penalty = self.larder.hungry + 2 * self.larder.thirsty;
        let difficulty = leg.difficulty + penalty;
        let check = Expr::Pool(Pool {
            dice: self.pool,
            extra: 0,
            bonus: 0,
            difficulty: Some(difficulty),
            raises: 0,
            twist: self.req.twist,
            team: Vec::new(),
        });
        let rolled = dice::roll(&check, s);
        let crate::dice::roll::Outcome::Pool(o) = &rolled.outcome else {
            unreachable!("a pool")
        };
        let extra = if penalty > 0 {
            format!(" (+{penalty} for hunger and thirst)")
        } else {
            String::new()
        };
        let mut line = format!(
            "Leg {}: {} → {} ({} regions, {} terrain). Travel Check {}D vs {}{extra}: dice {:?}, Score {}",
            k + 1,
            leg.from,
            leg.to,
            leg.regions,
            leg.terrain,
            self.pool,
            difficulty,
            o.dice,
            o.first.score
        );
        if let Some(t) = &o.twist {
            let price = self.library.roll_table("mettle.twists.travel", s)?;
            line.push_str(&format!(
                "; failed with Edge, so they take a Twist ({}: {}) and reroll {:?} → Score {}",
                price.row, price.text, t.rerolled, t.score
            ));
        }
        let safe = o.success == Some(true);
        line.push_str(if safe {
            " — they arrive safely."
        } else {
            " — trouble on the way."
        });
        self.clock.log(line);
        Ok(safe)
    }

    /// An encounter on leg `k`, from its terrain's table.
    fn encounter(&mut self, k: usize, leg: &Leg) -> Result<(), GenError> {
        let req = encounter::Request {
            terrain: leg.terrain.clone(),
            system: RulesSystem::Mettle,
            party: self.req.party.clone(),
        };
        let e = req.make(
            self.library,
            self.seed,
            &self.at.child("leg", k).only("encounter"),
        )?;
        let foes: Vec<String> = e.foes.iter().map(|f| f.name.clone()).collect();
        self.clock.log(format!(
            "Encounter on the way: {} — {}{}",
            e.situation.row,
            e.situation.text,
            if foes.is_empty() {
                String::new()
            } else {
                format!(" (threat: {})", e.threat.verdict)
            }
        ));
        self.encounters.push(EncounterNote {
            day: self.clock.day(),
            leg: format!("{} → {}", leg.from, leg.to),
            situation: e.situation.text.clone(),
            foes,
            threat: e.threat.verdict.clone(),
        });
        Ok(())
    }

    /// Food is short: every PC forages for a watch at `stop`.
    fn forage(&mut self, k: usize, stop: &Stop) -> Result<(), GenError> {
        let forage_req = forage::Request {
            terrain: stop.terrain.clone(),
            kits: self.req.kits.clone(),
            water: stop.terrain == "swamp",
            wit: self.req.wit,
            damage: "d6".into(),
        };
        let mut found = 0;
        for pc in 0..self.n {
            let f = forage_req.make(
                self.library,
                self.seed,
                &self.at.child("leg", k).child("forage", pc as usize),
            )?;
            found += f.rations;
        }
        self.larder.perishable += found;
        self.clock.log(format!(
            "Food is short: everyone forages for a watch and finds {found} perishable ration(s)."
        ));
        self.clock.watch += 1;
        Ok(())
    }

    /// Water is short: a watch spent searching, and a WIT save.
    fn search_water(&mut self, s: &mut Stream) {
        let d20 = s.die(20);
        let pass = d20 <= self.req.wit;
        if pass {
            self.larder.water = self.req.water * self.n;
        }
        self.clock.log(format!(
            "Water is short: a watch spent searching, WIT save d20 = {d20} vs {} → {}.",
            self.req.wit,
            if pass {
                "a spring, water refilled"
            } else {
                "nothing"
            }
        ));
        self.clock.watch += 1;
    }
}

/// At the third watch of a day: the daily rest, eating and drinking.
fn rest_if_due(clock: &mut Clock, larder: &mut Larder, n: u32, stop_kind: &str) {
    if !clock.is_rest() {
        return;
    }
    if SAFE_KINDS.contains(&stop_kind) {
        larder.hungry = 0;
        larder.thirsty = 0;
        clock.log("Daily rest under a roof: a meal and a bed bought in town.".into());
        clock.watch += 1;
        return;
    }
    let from_fresh = larder.perishable.min(n);
    let from_packs = (n - from_fresh).min(larder.rations);
    larder.perishable = 0; // what was not eaten spoils
    larder.rations -= from_packs;
    let fed = from_fresh + from_packs;
    let drank = larder.water.min(n);
    larder.water -= drank;
    larder.hungry = if fed >= n { 0 } else { larder.hungry + 1 };
    larder.thirsty = if drank >= n { 0 } else { larder.thirsty + 1 };
    let mut note = format!(
        "Daily rest: {fed} of {n} eat ({from_fresh} foraged), {drank} drink; {} rations and {} water left.",
        larder.rations, larder.water
    );
    if larder.hungry > 0 {
        note.push_str(&format!(" Hungry: +{} Difficulty.", larder.hungry));
    }
    if larder.thirsty > 0 {
        note.push_str(&format!(" Thirsty: +{} Difficulty.", 2 * larder.thirsty));
    }
    clock.log(note);
    clock.watch += 1;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::map;
    use crate::generators::nth;

    #[test]
    fn journeys_arrive_and_add_up() {
        let library = crate::content::test_library();
        let seed = Seed::new("journeys").unwrap();
        for i in 0..300 {
            let m = nth(&library, &map::Request::default(), &seed, i).unwrap();
            let req = Request {
                from: m.start,
                to: m.goal,
                map: m,
                party: Party::from_summary("3,4,4,5", RulesSystem::Mettle).unwrap(),
                route: if i % 2 == 0 {
                    Route::Shortest
                } else {
                    Route::Safest
                },
                rations: 3,
                water: 3,
                wit: 10,
                kits: vec!["trapping".into()],
                twist: i % 3 != 0,
            };
            let j = nth(&library, &req, &seed, i).unwrap();
            assert!(!j.legs.is_empty());
            assert_eq!(j.legs[0].from, j.from);
            assert_eq!(j.legs.last().unwrap().to, j.to);
            for l in &j.legs {
                assert!(l.safe <= l.safe_with_twist + 1e-12);
                assert!((0.0..=1.0).contains(&l.safe));
            }
            let failures = j
                .days
                .iter()
                .flat_map(|d| &d.entries)
                .filter(|e| e.contains("trouble on the way"))
                .count();
            assert_eq!(failures, j.encounters.len(), "#{i}");
            let days: Vec<u32> = j.days.iter().map(|d| d.day).collect();
            assert!(days.windows(2).all(|w| w[0] < w[1]), "#{i}: {days:?}");
        }
    }

    #[test]
    fn safest_is_never_less_safe_than_shortest() {
        let (library, _) = Library::load(&[]);
        let seed = Seed::new("routes").unwrap();
        for i in 0..300 {
            let m = nth(
                &library,
                &map::Request {
                    stops: 20,
                    terrains: vec![],
                },
                &seed,
                i,
            )
            .unwrap();
            let mk = |route| Request {
                from: m.start,
                to: m.goal,
                map: m.clone(),
                party: Party::from_summary("3,4", RulesSystem::Mettle).unwrap(),
                route,
                rations: 5,
                water: 5,
                wit: 10,
                kits: vec![],
                twist: true,
            };
            let safe = nth(&library, &mk(Route::Safest), &seed, i).unwrap();
            let short = nth(&library, &mk(Route::Shortest), &seed, i).unwrap();
            assert!(safe.no_encounter >= short.no_encounter - 1e-12, "#{i}");
            let regions = |j: &Journey| j.legs.iter().map(|l| l.regions).sum::<u32>();
            assert!(regions(&short) <= regions(&safe), "#{i}");
        }
    }
}
