//! The way: who leads, which stops the route passes (Dijkstra with a
//! binary heap, O(E log V), on fewest
//! regions or on −ln of the chance of no encounter), and each leg's exact
//! odds — the Travel Check with and without a Twist (METTLE), or no
//! encounter in any of the leg's watches (Core Rules).

use serde::Serialize;

use super::super::checks;
use super::super::map::{Map, Path};
use super::GenError;
use crate::content::Library;
use crate::rules::mettle::StatBlock;
use crate::rules::{Party, RulesSystem};

/// How a journey's way across the map is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Route {
    /// The fewest watches of travel.
    Shortest,
    /// The best chance of meeting no encounter.
    Safest,
}

impl Route {
    /// The route as the command line and the handouts write it.
    pub fn word(self) -> &'static str {
        match self {
            Route::Shortest => "shortest",
            Route::Safest => "safest",
        }
    }
}

/// One leg of the planned route, from stop to stop, with its exact odds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Leg {
    /// The stop the leg starts at.
    pub from: String,
    /// The stop it ends at.
    pub to: String,
    /// Length, in regions.
    pub regions: u32,
    /// Watches it takes.
    pub watches: u32,
    /// The terrain of the path's wilder end.
    pub terrain: String,
    /// The METTLE Travel Check's Difficulty.
    pub difficulty: u32,
    /// Chance of no encounter on the leg: METTLE, the Travel Check
    /// succeeds without a Twist; Core Rules, no encounter in any watch.
    pub safe: f64,
    /// METTLE: the same, taking a Twist on a failure with Edge (Core
    /// Rules: the same as `safe`).
    pub safe_with_twist: f64,
    /// Core Rules: the chance of an encounter each travelling watch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encounter_chance: Option<String>,
}

/// Who leads: the name, the pool (or WIT) and what it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Lead {
    /// The lead's name.
    pub name: String,
    /// The lead's pool (METTLE) or WIT (Core Rules).
    pub pool: u32,
    /// What the pool is (`POISE`, `CALLING Scout`, `WIT`).
    pub with: String,
    /// METTLE: the Difficulty Blinded adds to the lead's Travel Checks
    /// (0 for a lead who sees; [`BLINDED`] when every PC is Blinded).
    pub blind: u32,
}

/// METTLE Scenes, Status: a Blinded PC's Checks less reliant on sight are
/// at +4 Difficulty. The Engine's own status list says +3; the Travel
/// Check is an Action of the Scenes chapter, whose list this follows.
pub const BLINDED: u32 = 4;

/// Whether a METTLE PC is Blinded, or a Core Rules PC blind.
fn blinded(statuses: &[String]) -> bool {
    statuses.iter().any(|s| s == "Blinded" || s == "blind")
}

const NAVIGATION: [&str; 9] = [
    "guide", "navig", "scout", "track", "wood", "road", "ranger", "pathfind", "travel",
];

/// The lead traveller (METTLE: biggest POISE or navigation CALLING; Core
/// Rules: the best WIT, who tracks and searches for water). A PC who
/// cannot see (METTLE Blinded, Core Rules blind) leads only when no one
/// can: a METTLE lead then travels at +[`BLINDED`] Difficulty; the Core
/// Rules give the blind condition no number, so a blind Core lead rolls
/// as they are.
pub fn lead(party: &Party, system: RulesSystem) -> Option<Lead> {
    match system {
        RulesSystem::Mettle => party
            .mettle
            .iter()
            .map(mettle_pool)
            .max_by_key(|l| (l.blind == 0, l.pool, std::cmp::Reverse(l.name.clone()))),
        RulesSystem::Core => party
            .core
            .iter()
            .max_by_key(|s| {
                (
                    !blinded(&s.conditions),
                    s.WIT,
                    std::cmp::Reverse(s.name.clone()),
                )
            })
            .map(|s| Lead {
                name: s.name.clone(),
                pool: s.WIT.clamp(0, 19) as u32,
                with: "WIT".into(),
                blind: 0,
            }),
    }
}

fn mettle_pool(b: &StatBlock) -> Lead {
    let calling = b
        .callings
        .iter()
        .filter(|c| {
            let n = c.name.to_lowercase();
            NAVIGATION.iter().any(|w| n.contains(w))
        })
        .max_by_key(|c| c.dice);
    let (pool, with) = match calling {
        Some(c) if c.dice > b.POISE => (c.dice, format!("CALLING {}", c.name)),
        _ => (b.POISE, "POISE".to_owned()),
    };
    Lead {
        name: b.name.clone(),
        pool,
        with,
        blind: if blinded(&b.statuses) { BLINDED } else { 0 },
    }
}

/// Core Rules: the chance of an encounter each travelling watch on a
/// path, `x:y`: its region's `encounter_chance` when the region declares
/// one, else from the path's danger (see [`chance_by_difficulty`]).
pub fn core_chance(library: &Library, path: &Path) -> (u32, u32) {
    library
        .region(&path.terrain)
        .ok()
        .and_then(|r| r.encounter_chance)
        .unwrap_or_else(|| chance_by_difficulty(path.difficulty))
}

/// The chance of an encounter each watch from the path's danger (its
/// Difficulty rung: 1 → 1:8, 3 → 1:6, 6 → 1:4, 10 → 1:3, 15 → 1:2). Our
/// reading; see the README.
pub fn chance_by_difficulty(difficulty: u32) -> (u32, u32) {
    match difficulty {
        0..=2 => (1, 8),
        3..=5 => (1, 6),
        6..=9 => (1, 4),
        10..=14 => (1, 3),
        _ => (1, 2),
    }
}

/// Exact chance of no encounter on a path (`x:y` a watch, each watch).
pub(crate) fn core_safe(library: &Library, path: &Path) -> f64 {
    let (x, y) = core_chance(library, path);
    (1.0 - f64::from(x) / f64::from(y)).powi(path.watches as i32)
}

/// How the route is scored and each leg's odds: the system and (METTLE)
/// the lead's pool and whether Twists are taken.
#[derive(Debug, Clone, Copy)]
pub struct Odds<'a> {
    /// The rules the party travels by.
    pub system: RulesSystem,
    /// The lead's pool or WIT.
    pub pool: u32,
    /// METTLE: Difficulty added to every leg (a Blinded lead).
    pub blind: u32,
    /// METTLE: a Twist is taken on a failed Check with Edge.
    pub twist: bool,
    /// The tables (Core: a region may declare its encounter chance).
    pub library: &'a Library,
}

impl Odds<'_> {
    /// Chance of no encounter on a path (as the route plans it).
    fn safe(self, path: &Path) -> Result<f64, GenError> {
        match self.system {
            RulesSystem::Mettle => {
                checks::chance(self.pool, path.difficulty + self.blind, self.twist)
            }
            RulesSystem::Core => Ok(core_safe(self.library, path)),
        }
    }
}

/// The stops of the route, by Dijkstra on the chosen cost.
pub fn route(
    map: &Map,
    from: usize,
    to: usize,
    kind: Route,
    odds: Odds,
) -> Result<Vec<usize>, GenError> {
    let n = map.stops.len();
    let cost = |p: usize| -> Result<f64, GenError> {
        let path = &map.paths[p];
        Ok(match kind {
            Route::Shortest => f64::from(path.regions),
            // −ln P(safe): adding costs multiplies chances. A leg that can
            // never be crossed safely still has a (huge) finite cost.
            Route::Safest => -odds.safe(path)?.max(1e-300).ln(),
        })
    };
    let mut best = vec![f64::INFINITY; n];
    let mut prev = vec![usize::MAX; n];
    let mut done = vec![false; n];
    best[from] = 0.0;
    // A binary heap of (cost, stop), smallest first and the lower stop
    // first on a tie — the order the linear scan used, so routes are the
    // same — in O(E log V).
    let mut heap = std::collections::BinaryHeap::new();
    heap.push(std::cmp::Reverse(Queued(0.0, from)));
    // Each stop's paths, found once.
    let mut adjacent: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    for (i, p) in map.paths.iter().enumerate() {
        adjacent[p.a].push((i, p.b));
        if p.b != p.a {
            adjacent[p.b].push((i, p.a));
        }
    }
    while let Some(std::cmp::Reverse(Queued(d, v))) = heap.pop() {
        if done[v] || d > best[v] {
            continue;
        }
        done[v] = true;
        for &(p, w) in &adjacent[v] {
            let d = best[v] + cost(p)?;
            if d < best[w] {
                best[w] = d;
                prev[w] = v;
                heap.push(std::cmp::Reverse(Queued(d, w)));
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

/// A stop waiting in the route's queue: its cost so far, then its index.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Queued(f64, usize);

impl Eq for Queued {}

impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Queued {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0).then(self.1.cmp(&other.1))
    }
}

/// The path joining two neighbouring stops.
pub fn path_between(map: &Map, a: usize, b: usize) -> usize {
    map.neighbours(a)
        .into_iter()
        .find(|(_, other)| *other == b)
        .map(|(p, _)| p)
        .expect("consecutive route stops share a path")
}

/// The legs between consecutive stops of the route, with their exact odds.
pub fn legs(map: &Map, stops: &[usize], odds: Odds) -> Result<Vec<Leg>, GenError> {
    stops
        .windows(2)
        .map(|w| {
            let path = &map.paths[path_between(map, w[0], w[1])];
            let (safe, with_twist, chance) = match odds.system {
                RulesSystem::Mettle => (
                    checks::chance(odds.pool, path.difficulty + odds.blind, false)?,
                    checks::chance(odds.pool, path.difficulty + odds.blind, true)?,
                    None,
                ),
                RulesSystem::Core => {
                    let p = core_safe(odds.library, path);
                    let (x, y) = core_chance(odds.library, path);
                    (p, p, Some(format!("{x}:{y}")))
                }
            };
            Ok(Leg {
                from: map.stops[w[0]].name.clone(),
                to: map.stops[w[1]].name.clone(),
                regions: path.regions,
                watches: path.watches,
                terrain: path.terrain.clone(),
                difficulty: path.difficulty,
                safe,
                safe_with_twist: with_twist,
                encounter_chance: chance,
            })
        })
        .collect()
}
