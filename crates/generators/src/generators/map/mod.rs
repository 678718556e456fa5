//! Point-crawl travel maps (METTLE Travel, Core Rules scales). One module
//! per concern:
//!
//! - `placement`: **stops** are placed by dart throwing (Poisson-disk
//!   spacing of at least 2 regions, relaxed only if the field is full), on a
//!   square field sized for about one stop per 10 square regions.
//! - `naming`: each stop gets a terrain, a kind and a hook from `gen.poi`
//!   (filtered by the terrain), and a name (the point of interest's, or one
//!   from the place-name tables). No two stops share a point of interest, so
//!   no description repeats in a map; once the points of interest run out
//!   (maps of more than about 40 stops) stops are composed from a site and
//!   a trouble per terrain (`gen.place.site`, `gen.place.trouble`), never
//!   the same pair twice, so a region of 300 stops never repeats a name or
//!   a hook.
//! - `graph`: **paths** come from the Gabriel graph of the stops (planar,
//!   and it holds the minimum spanning tree), thinned: every spanning-tree
//!   edge stays, each other edge stays with chance 1/2, and at least two
//!   loops are kept where the graph has them, so there are real choices. No
//!   two paths cross.
//! - A path's **length** is its distance in regions (about 10 km), rounded
//!   up; two regions a watch gives its watches, and two travelling watches a
//!   day (the third is the daily rest) its days.
//! - `difficulty`: its **Difficulty** follows the danger of the journey:
//!   the wilder end's terrain (road and town 0 rungs, forest and hills 1,
//!   swamp and ruins 2, underground 3), one rung more when an end lies two
//!   or more stops from safety, and a danger roll of a d6 per path (1: two
//!   rungs down, 2-3: one down, 4-5: none, 6: one up), held between Routine
//!   and Formidable (only underground ways reach Nigh Impossible).
//! - The **start** is the first village, town or inn (else the first stop);
//!   the **goal** is the stop farthest from it by road.
//! - `checks`: what a saved or generated map must satisfy.
//! - `reach`: the one reachability rule (two travelling watches a day)
//!   the journey, `play` and the record check share.
//! - `reveal`: what a campaign's party knows of its map (stops visited and
//!   heard of, paths travelled) and its trail, for the players' and GM's
//!   atlas.
//!
//! All geometry is integer-seeded `f64` arithmetic (`+ − × ÷ √`, which IEEE
//! rounds the same everywhere) — no trigonometry — so a map is the same
//! bytes on every platform. Streams: `places` (positions), `names` (stops),
//! `paths` (which edges stay), `danger` (one d6 per kept path, in order).

use serde::{Deserialize, Serialize};

use super::{Address, GenError, Generator};
use crate::content::{Library, Region};
use crate::seed::Seed;

mod checks;
mod difficulty;
mod graph;
mod naming;
mod placement;
pub mod reach;
mod reveal;

pub use checks::{Flaw, MAX_REGIONS, Place, check, shape_flaws};
pub use difficulty::SHIFTS as DANGER_SHIFTS;
pub use graph::road_distances;
pub use reveal::{Reveal, TrailStep};

/// Fewest and most stops (a campaign's region: issue 30).
pub const STOPS: (usize, usize) = (4, 300);
/// Kinds of stop where a party is safe and can resupply.
pub const SAFE_KINDS: [&str; 3] = ["village", "town", "inn"];
/// Kinds of stop on running water (a river under the bridge, at the
/// ford), where a party arriving fills its skins as in a settlement.
pub const WATER_KINDS: [&str; 2] = ["ford", "bridge"];

/// What a map is asked for.
#[derive(Debug, Clone)]
pub struct Request {
    /// How many stops (see [`STOPS`]).
    pub stops: usize,
    /// Terrains to use (empty: road, forest, hills, swamp, ruins).
    pub terrains: Vec<String>,
}

impl Default for Request {
    fn default() -> Self {
        Request {
            stops: 12,
            terrains: Vec::new(),
        }
    }
}

/// Paths a stop may have on average: a flat map has fewer than three a
/// stop.
pub(crate) const PATHS_PER_STOP: usize = 3;
/// Most paths a map can hold.
pub const MAX_PATHS: usize = PATHS_PER_STOP * STOPS.1;

/// A point-crawl map: stops joined by paths on a square field of regions,
/// with a start and a goal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Map {
    /// Side of the square field, in regions.
    pub size: f64,
    /// (A saved map is read to one stop past the most, the rest skipped:
    /// enough to refuse it, with memory that does not grow with the file.)
    #[serde(deserialize_with = "read_stops")]
    pub stops: Vec<Stop>,
    /// The paths between stops.
    #[serde(deserialize_with = "read_paths")]
    pub paths: Vec<Path>,
    /// The stop the party starts at (an index into `stops`).
    pub start: usize,
    /// The stop it means to reach.
    pub goal: usize,
}

fn read_stops<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Stop>, D::Error> {
    d.deserialize_seq(AtMost(STOPS.1 + 1, std::marker::PhantomData))
}

fn read_paths<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Path>, D::Error> {
    d.deserialize_seq(AtMost(MAX_PATHS + 1, std::marker::PhantomData))
}

/// A list read to at most `.0` items; the rest are checked as JSON and
/// skipped.
struct AtMost<T>(usize, std::marker::PhantomData<T>);

impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for AtMost<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a list")
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let mut out = Vec::new();
        while out.len() < self.0 {
            match seq.next_element()? {
                Some(item) => out.push(item),
                None => return Ok(out),
            }
        }
        while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
        Ok(out)
    }
}

/// A stop of the map: a place with a hook.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stop {
    /// The stop's index in the map's stops; its number on the drawn map is one
    /// more.
    pub id: usize,
    /// The stop's name.
    pub name: String,
    /// What kind of place it is (`village`, `inn`, …).
    pub kind: String,
    /// The region it lies in.
    pub terrain: String,
    /// What is going on there, in one line.
    pub hook: String,
    /// Position in regions.
    pub x: f64,
    /// See [`Stop::x`].
    pub y: f64,
}

/// A path between two stops, with what walking it takes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Path {
    /// One end (an index into the map's stops).
    pub a: usize,
    /// The other end.
    pub b: usize,
    /// Length, in regions.
    pub regions: u32,
    /// Watches it takes to walk.
    pub watches: u32,
    /// Days it takes to walk (two travelling watches a day).
    pub days: u32,
    /// The terrain of its wilder end.
    pub terrain: String,
    /// The METTLE Travel Check's Difficulty.
    pub difficulty: u32,
    /// That Difficulty's name on the ladder.
    pub difficulty_word: String,
    /// Core Rules: the chance of an encounter each travelling watch,
    /// `x:y` in the JSON (set in a Core pack, where the map shows it in
    /// place of the METTLE Difficulty; absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "chance_text")]
    pub encounter_chance: Option<(u32, u32)>,
}

impl Path {
    /// What the GM's map prints for the way's danger: the Core chance
    /// (`1:4`) when the map is a Core pack's, else the METTLE Difficulty
    /// (`D6`).
    pub fn danger_label(&self) -> String {
        match self.encounter_chance {
            Some((x, y)) => format!("{x}:{y}"),
            None => format!("D{}", self.difficulty),
        }
    }

    /// Whether the way is drawn dashed (dangerous) and thin (very
    /// dangerous): METTLE from Daunting and Formidable; Core from a 1:4
    /// and a 1:3 chance a watch (the rungs' chances when the region sets
    /// none).
    pub fn danger_marks(&self) -> (bool, bool) {
        match self.encounter_chance {
            Some((x, y)) => (4 * x >= y, 3 * x >= y),
            None => (self.difficulty >= 6, self.difficulty >= 10),
        }
    }
}

/// A Core encounter chance as its `x:y` text.
mod chance_text {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(c: &Option<(u32, u32)>, s: S) -> Result<S::Ok, S::Error> {
        match c {
            Some((x, y)) => s.serialize_str(&format!("{x}:{y}")),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<(u32, u32)>, D::Error> {
        let Some(text) = Option::<String>::deserialize(d)? else {
            return Ok(None);
        };
        let pair = text
            .split_once(':')
            .and_then(|(x, y)| Some((x.trim().parse().ok()?, y.trim().parse().ok()?)));
        match pair {
            Some((x, y)) if x >= 1 && x <= y => Ok(Some((x, y))),
            _ => Err(serde::de::Error::custom(format!(
                "encounter_chance {text:?}: write it as x:y, a chance such as 1:4"
            ))),
        }
    }
}

impl Map {
    /// Whether the map is a Core pack's: its paths show their encounter
    /// chance a watch, not a METTLE Difficulty.
    pub fn core_chances(&self) -> bool {
        self.paths.iter().any(|p| p.encounter_chance.is_some())
    }

    /// A stop by its name (in any case) or by its number on the drawn map
    /// and in the key (counted from 1).
    pub fn stop_named(&self, name: &str) -> Option<&Stop> {
        let lower = name.trim().to_lowercase();
        self.stops
            .iter()
            .find(|s| s.name.to_lowercase() == lower)
            .or_else(|| {
                name.trim()
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| i.checked_sub(1))
                    .and_then(|i| self.stops.get(i))
            })
    }

    /// The path between two stops (either way round), by index.
    pub fn path_between(&self, a: usize, b: usize) -> Option<usize> {
        self.paths
            .iter()
            .position(|p| (p.a == a && p.b == b) || (p.a == b && p.b == a))
    }

    /// Paths touching a stop, as (path index, other end).
    pub fn neighbours(&self, stop: usize) -> Vec<(usize, usize)> {
        self.paths
            .iter()
            .enumerate()
            .filter_map(|(i, p)| match (p.a == stop, p.b == stop) {
                (true, _) => Some((i, p.b)),
                (_, true) => Some((i, p.a)),
                _ => None,
            })
            .collect()
    }
}

impl Generator for Request {
    const KIND: &'static str = "map";
    type Item = Map;

    /// The map at `at`: stops from the `places` and `names` streams, paths
    /// from the `paths` stream, their danger rolls from `danger`.
    fn make(&self, library: &Library, seed: &Seed, at: &Address) -> Result<Map, GenError> {
        let terrains = terrains(library, self)?;
        let n = self.stops;
        naming::check_room(library, &terrains, n)?;
        let size = ((n as f64) * 10.0).sqrt().ceil();
        let points = placement::place(n, size, &mut at.stream(seed, "places"));
        let stops = naming::name_stops(library, &terrains, points, &mut at.stream(seed, "names"))?;
        let kept = graph::thin(&stops, &mut at.stream(seed, "paths"));
        let start = stops
            .iter()
            .position(|s| SAFE_KINDS.contains(&s.kind.as_str()))
            .unwrap_or(0);
        let mut safe: Vec<usize> = stops
            .iter()
            .filter(|s| SAFE_KINDS.contains(&s.kind.as_str()))
            .map(|s| s.id)
            .collect();
        if !safe.contains(&start) {
            safe.push(start);
        }
        let hops = graph::hops_from_safety(n, &kept, &safe);
        let mut danger = at.stream(seed, "danger");
        let paths: Vec<Path> = kept
            .iter()
            .map(|&(a, b)| difficulty::path(&terrains, &stops, &hops, (a, b), &mut danger))
            .collect();
        let mut map = Map {
            size,
            stops,
            paths,
            start,
            goal: start,
        };
        let distances = road_distances(&map, start);
        map.goal = (0..n)
            .filter(|&i| distances[i] != u32::MAX)
            .max_by_key(|&i| (distances[i], std::cmp::Reverse(i)))
            .unwrap_or(start);
        Ok(map)
    }
}

/// The request's terrains (or the default five), once the number of stops
/// and every terrain are known to be allowed.
impl Request {
    /// Why these tables cannot make this map (too few points of interest
    /// for its stops), found before generating so that a session file can
    /// point at its `stops` line; `None` when they can. Unknown terrains
    /// and out-of-range counts are reported where they are read.
    pub(crate) fn room_problem(&self, library: &Library) -> Option<String> {
        let terrains = terrains(library, self).ok()?;
        naming::check_room(library, &terrains, self.stops)
            .err()
            .map(|e| e.to_string())
    }
}

fn terrains(library: &Library, req: &Request) -> Result<Vec<Region>, GenError> {
    if !(STOPS.0..=STOPS.1).contains(&req.stops) {
        return Err(GenError::Request(format!(
            "--stops {}: a map has {} to {} stops",
            req.stops, STOPS.0, STOPS.1
        )));
    }
    let terrains: Vec<String> = if req.terrains.is_empty() {
        ["road", "forest", "hills", "swamp", "ruins"]
            .map(String::from)
            .to_vec()
    } else {
        req.terrains.clone()
    };
    terrains
        .iter()
        .map(|t| library.region(t).cloned().map_err(GenError::Request))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::placement::dist;
    use super::*;
    use crate::generators::nth;

    #[test]
    fn thousands_of_maps_are_connected_planar_and_on_the_ladder() {
        let library = crate::content::test_library();
        let seed = Seed::new("maps").unwrap();
        let mut loops = 0;
        for i in 0..3000 {
            let req = Request {
                stops: STOPS.0 + i % 20,
                terrains: Vec::new(),
            };
            let m = nth(&library, &req, &seed, i).unwrap();
            let problems = check(&m);
            assert!(problems.is_empty(), "#{i}: {problems:?}");
            assert_eq!(m.stops.len(), req.stops);
            if m.paths.len() >= m.stops.len() {
                loops += 1;
            }
            assert_ne!(m.start, m.goal);
        }
        assert!(loops > 2500, "{loops} maps of 3000 have a loop");
    }

    /// A Core pack's path carries its chance as `x:y`; a hand-edited map
    /// with a chance that is no chance is refused with what to write.
    #[test]
    fn a_paths_core_chance_is_written_and_read_as_x_y() {
        let mut m = good_map();
        assert!(!m.core_chances());
        let mettle = serde_json::to_string(&m).unwrap();
        assert!(!mettle.contains("encounter_chance"), "{mettle}");
        m.paths[0].encounter_chance = Some((1, 4));
        assert!(m.core_chances());
        assert_eq!(m.paths[0].danger_label(), "1:4");
        assert_eq!(m.paths[0].danger_marks(), (true, false));
        let json = serde_json::to_string(&m).unwrap();
        assert!(json.contains(r#""encounter_chance":"1:4""#), "{json}");
        let back: Map = serde_json::from_str(&json).unwrap();
        assert_eq!(back, m);
        for bad in ["4:1", "0:4", "1:x", "one in four", ""] {
            let text = json.replace(r#""1:4""#, &format!("{bad:?}"));
            let e = serde_json::from_str::<Map>(&text).unwrap_err().to_string();
            assert!(e.contains("write it as x:y"), "{bad}: {e}");
        }
    }

    #[test]
    fn the_checker_sees_crossings_and_islands() {
        let (library, _) = Library::load(&[]);
        let seed = Seed::new("bad").unwrap();
        let mut m = nth(&library, &Request::default(), &seed, 0).unwrap();
        // A path across the whole map crosses something.
        let far = (0..m.stops.len())
            .max_by(|&a, &b| {
                dist(&m.stops[0], &m.stops[a]).total_cmp(&dist(&m.stops[0], &m.stops[b]))
            })
            .unwrap();
        let mut crossing = m.paths[0].clone();
        crossing.a = 0;
        crossing.b = far;
        m.paths.push(crossing);
        assert!(
            check(&m).iter().any(|p| p.message.contains("cross")),
            "{:?}",
            check(&m)
        );
        let mut island = nth(&library, &Request::default(), &seed, 1).unwrap();
        island.paths.retain(|p| p.a != 3 && p.b != 3);
        assert!(
            check(&island)
                .iter()
                .any(|p| p.message.contains("cannot be reached") && p.at == Place::Stop(3, ""))
        );
    }

    type Spoil = Box<dyn Fn(&mut Map)>;

    /// A good map for the shape tests.
    fn good_map() -> Map {
        let library = crate::content::test_library();
        let seed = Seed::new("shape").unwrap();
        let good = nth(&library, &Request::default(), &seed, 0).unwrap();
        assert!(check(&good).is_empty(), "{:?}", check(&good));
        good
    }

    /// Ways to spoil a map of `n` stops: what the flaw says, where it is,
    /// and the spoiling.
    fn spoils(n: usize) -> Vec<(&'static str, Place, Spoil)> {
        vec![
            (
                "stops; a map has 4 to 300",
                Place::Map("stops"),
                Box::new(|m| m.stops.clear()),
            ),
            (
                "the start is stop",
                Place::Map("start"),
                Box::new(move |m| m.start = n),
            ),
            (
                "the goal is stop",
                Place::Map("goal"),
                Box::new(|m| m.goal = usize::MAX),
            ),
            (
                "but the stops run",
                Place::Path(0, "b"),
                Box::new(move |m| m.paths[0].b = n + 7),
            ),
            (
                "ids run 0, 1, 2",
                Place::Stop(1, "id"),
                Box::new(|m| m.stops[1].id = 9),
            ),
            (
                "no finite position",
                Place::Stop(2, "x"),
                Box::new(|m| m.stops[2].x = f64::NAN),
            ),
            (
                "at most 1000",
                Place::Path(0, "regions"),
                Box::new(|m| {
                    m.paths[0].regions = u32::MAX;
                    m.paths[0].watches = u32::MAX.div_ceil(2);
                    m.paths[0].days = u32::MAX.div_ceil(2).div_ceil(2);
                }),
            ),
            (
                "not 10000000 watches",
                Place::Path(0, "watches"),
                Box::new(|m| m.paths[0].watches = 10_000_000),
            ),
            (
                " take ",
                Place::Path(1, "days"),
                Box::new(|m| m.paths[1].days += 1),
            ),
            (
                "holds at most",
                Place::Path(3 * n, ""),
                Box::new(|m| {
                    let p = m.paths[0].clone();
                    m.paths.extend(std::iter::repeat_n(p, 200));
                }),
            ),
            (
                "share the name",
                Place::Stop(2, "name"),
                Box::new(|m| m.stops[2].name = m.stops[0].name.clone()),
            ),
            (
                "sit on top of each other",
                Place::Stop(3, "x"),
                Box::new(|m| (m.stops[3].x, m.stops[3].y) = (m.stops[1].x, m.stops[1].y)),
            ),
            (
                "not on the ladder",
                Place::Path(1, "difficulty"),
                Box::new(|m| m.paths[1].difficulty = 7),
            ),
            (
                "has no length",
                Place::Path(0, "b"),
                Box::new(|m| m.paths[0].b = m.paths[0].a),
            ),
        ]
    }

    #[test]
    fn maps_whose_numbers_do_not_hold_are_refused_without_panicking() {
        let good = good_map();
        for (want, place, spoil) in spoils(good.stops.len()) {
            let mut m = good.clone();
            spoil(&mut m);
            let flaws = check(&m);
            assert!(
                flaws
                    .iter()
                    .any(|f| f.message.contains(want) && f.at == place),
                "{want} at {place:?}: {flaws:?}"
            );
        }
    }

    #[test]
    fn a_name_as_long_as_a_file_is_cut_short_in_the_message() {
        let mut m = good_map();
        m.stops[1].name = "x".repeat(100_000);
        m.stops[1].id = 9;
        let flaws = check(&m);
        assert!(
            flaws[0].message.contains("x…") && flaws[0].message.len() < 100,
            "{flaws:?}"
        );
    }

    #[test]
    fn far_too_many_paths_make_one_flaw_not_one_a_path() {
        let mut m = good_map();
        let p = m.paths[0].clone();
        m.paths.extend(std::iter::repeat_n(p, 100_000));
        assert_eq!(check(&m).len(), 1);
    }

    /// Issue 13: the danger roll spreads Difficulties. Over 100 maps of ten
    /// stops, at least 80 show three or more distinct Difficulties.
    #[test]
    fn difficulties_spread_over_three_rungs_on_most_maps() {
        let library = crate::content::test_library();
        let seed = Seed::new("spread").unwrap();
        let req = Request {
            stops: 10,
            terrains: Vec::new(),
        };
        let mut spread = 0;
        let mut seen = [0usize; 5];
        for i in 0..100 {
            let m = nth(&library, &req, &seed, i).unwrap();
            let mut ds: Vec<u32> = m.paths.iter().map(|p| p.difficulty).collect();
            for d in &ds {
                seen[DIFFICULTY_RUNGS.iter().position(|r| r == d).unwrap()] += 1;
            }
            ds.sort_unstable();
            ds.dedup();
            if ds.len() >= 3 {
                spread += 1;
            }
        }
        assert!(spread >= 80, "{spread} of 100 maps have three Difficulties");
        // Journeys are not near-certain encounters: Routine and Challenging
        // ways make up a real share (about 48% expected, 1,200 paths: a
        // standard error near 1.4 points; the old terrain-only rule gave 20%).
        let easy = (seen[0] + seen[1]) as f64 / seen.iter().sum::<usize>() as f64;
        assert!(easy > 0.30, "{seen:?}");
        // Every rung a land of road to ruins can reach is reached.
        assert!(seen[..4].iter().all(|&n| n > 0), "{seen:?}");
        assert_eq!(seen[4], 0, "only underground reaches Nigh Impossible");
    }

    const DIFFICULTY_RUNGS: [u32; 5] = [1, 3, 6, 10, 15];

    /// Issue 13: no two stops of a map share a point of interest, so no
    /// description repeats. Hooks are compared by their opening words, which
    /// rolled parts (`{d6+1}`, `{pick: …}`) later in the text do not change.
    #[test]
    fn no_two_stops_of_a_map_share_a_description() {
        let library = crate::content::test_library();
        let seed = Seed::new("hooks").unwrap();
        for i in 0..300 {
            let req = Request {
                stops: STOPS.0 + i % 25,
                terrains: Vec::new(),
            };
            let m = nth(&library, &req, &seed, i).unwrap();
            let mut openings: Vec<String> = m
                .stops
                .iter()
                .map(|s| s.hook.chars().take(24).collect())
                .collect();
            openings.sort();
            let before = openings.len();
            openings.dedup();
            assert_eq!(openings.len(), before, "#{i}: {:?}", m.stops);
        }
    }

    #[test]
    fn a_map_with_more_stops_than_places_is_refused_clearly() {
        // Without the parts of composed places, the points of interest are
        // all a map has.
        let mut library = crate::content::test_library();
        library.tables.remove(naming::SITES);
        let seed = Seed::new("dry").unwrap();
        let req = Request {
            stops: 20,
            terrains: vec!["underground".into()],
        };
        let err = nth(&library, &req, &seed, 0).unwrap_err().to_string();
        assert!(
            err.contains("a map of 20 stops needs 20 different places")
                && err.contains("for underground"),
            "{err}"
        );
        // As many stops as the terrain has places is fine, each used once.
        let have = {
            let poi = library.table("gen.poi").unwrap();
            naming_count(poi, "underground")
        };
        let req = Request {
            stops: have,
            terrains: vec!["underground".into()],
        };
        let m = nth(&library, &req, &seed, 0).unwrap();
        assert!(m.stops.iter().all(|s| s.terrain == "underground"));
        // With them, one terrain alone makes a region of the most stops.
        let library = crate::content::test_library();
        let req = Request {
            stops: STOPS.1,
            terrains: vec!["underground".into()],
        };
        let m = nth(&library, &req, &seed, 0).unwrap();
        assert!(check(&m).is_empty(), "{:?}", check(&m));
        assert!(m.stops.iter().all(|s| s.terrain == "underground"));
    }

    /// Issue 30: regions of 100 and 300 stops, 50 seeds each: connected and
    /// planar (the full check), at least three Difficulties, and no place
    /// name or hook twice; composed places (after the hand-written ones run
    /// out) never share a site and trouble, so no hook's halves repeat
    /// together either.
    #[test]
    fn regions_of_300_stops_are_planar_connected_spread_and_never_repeat() {
        let library = crate::content::test_library();
        let seed = Seed::new("regions").unwrap();
        for stops in [100, 300] {
            let req = Request {
                stops,
                terrains: Vec::new(),
            };
            for i in 0..50 {
                let m = nth(&library, &req, &seed, i).unwrap();
                assert_eq!(m.stops.len(), stops);
                let flaws = check(&m);
                assert!(flaws.is_empty(), "{stops} #{i}: {flaws:?}");
                let mut ds: Vec<u32> = m.paths.iter().map(|p| p.difficulty).collect();
                ds.sort_unstable();
                ds.dedup();
                assert!(ds.len() >= 3, "{stops} #{i}: Difficulties {ds:?}");
                let mut names: Vec<&str> = m.stops.iter().map(|s| s.name.as_str()).collect();
                let mut hooks: Vec<&str> = m.stops.iter().map(|s| s.hook.as_str()).collect();
                for list in [&mut names, &mut hooks] {
                    list.sort_unstable();
                    let before = list.len();
                    list.dedup();
                    assert_eq!(list.len(), before, "{stops} #{i}: a repeat");
                }
                // The composed halves: no (site, trouble) pair twice.
                let mut halves: Vec<&str> = m
                    .stops
                    .iter()
                    .filter(|s| s.hook.contains("; "))
                    .map(|s| s.hook.as_str())
                    .collect();
                assert!(halves.len() + 46 >= stops, "{stops} #{i}: too few composed");
                halves.sort_unstable();
                halves.dedup();
                // Some stops are safe, so Difficulty follows remoteness.
                assert!(
                    m.stops
                        .iter()
                        .any(|s| SAFE_KINDS.contains(&s.kind.as_str()))
                );
            }
        }
    }

    fn naming_count(poi: &crate::content::Table, terrain: &str) -> usize {
        poi.rows
            .iter()
            .filter(|r| r.entry.tags.iter().any(|t| t == terrain))
            .count()
    }
}
