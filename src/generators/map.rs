//! Point-crawl travel maps (METTLE Travel, Core Rules scales).
//!
//! - **Stops** are placed by dart throwing (Poisson-disk spacing of at least
//!   2 regions, relaxed only if the field is full), on a square field sized
//!   for about one stop per 10 square regions. Each stop gets a terrain, a
//!   kind and a hook from `gen.poi` (filtered by the terrain), and a name
//!   (the point of interest's, or one from the place-name tables).
//! - **Paths** come from the Gabriel graph of the stops (planar, and it holds
//!   the minimum spanning tree), thinned: every spanning-tree edge stays, each
//!   other edge stays with chance 1/2, and at least two loops are kept where
//!   the graph has them, so there are real choices. No two paths cross.
//! - A path's **length** is its distance in regions (about 10 km), rounded
//!   up; two regions a watch gives its watches, and two travelling watches a
//!   day (the third is the daily rest) its days.
//! - Its **Difficulty** is a rung of the ladder (1, 3, 6, 10, 15): the
//!   wilder end's terrain (road and town 0, forest and hills 1, swamp and
//!   ruins 2, underground 3) plus one rung when an end lies two or more stops
//!   from safety (a village, town, inn or the start). Only underground ways
//!   reach Nigh Impossible.
//! - The **start** is the first village, town or inn (else the first stop);
//!   the **goal** is the stop farthest from it by road.
//!
//! All geometry is integer-seeded `f64` arithmetic (`+ − × ÷ √`, which IEEE
//! rounds the same everywhere) — no trigonometry — so a map is the same
//! bytes on every platform.

use serde::{Deserialize, Serialize};

use super::{Address, GenError, Generator};
use crate::content::Library;
use crate::rules::mettle::DIFFICULTY_LADDER;
use crate::seed::{DieSource, Seed, Stream};

/// Terrains a map may use: those with an encounter table.
pub use super::encounter::TERRAINS;
/// Fewest and most stops.
pub const STOPS: (usize, usize) = (4, 40);
/// Least distance between stops, in regions.
const SPACING: f64 = 2.0;
/// Kinds of stop where a party is safe and can resupply.
pub const SAFE_KINDS: [&str; 3] = ["village", "town", "inn"];

#[derive(Debug, Clone)]
pub struct Request {
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Map {
    /// Side of the square field, in regions.
    pub size: f64,
    pub stops: Vec<Stop>,
    pub paths: Vec<Path>,
    pub start: usize,
    pub goal: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stop {
    pub id: usize,
    pub name: String,
    pub kind: String,
    pub terrain: String,
    pub hook: String,
    /// Position in regions.
    pub x: f64,
    pub y: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Path {
    pub a: usize,
    pub b: usize,
    pub regions: u32,
    pub watches: u32,
    pub days: u32,
    pub terrain: String,
    pub difficulty: u32,
    pub difficulty_word: String,
}

impl Map {
    pub fn stop_named(&self, name: &str) -> Option<&Stop> {
        let lower = name.trim().to_lowercase();
        self.stops
            .iter()
            .find(|s| s.name.to_lowercase() == lower)
            .or_else(|| {
                name.trim()
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| self.stops.get(i))
            })
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

fn terrain_danger(terrain: &str) -> u32 {
    match terrain {
        "road" | "town" => 0,
        "forest" | "hills" => 1,
        "underground" => 3,
        _ => 2,
    }
}

fn dist(a: &Stop, b: &Stop) -> f64 {
    ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).sqrt()
}

/// A uniform coordinate in `0..size` on a fixed grid of a million steps.
fn coord(s: &mut Stream, size: f64) -> f64 {
    f64::from(s.below(1_000_000)) / 1_000_000.0 * size
}

/// Dart throwing with a spacing that relaxes only when the field is full.
fn place(n: usize, size: f64, s: &mut Stream) -> Vec<(f64, f64)> {
    let mut points: Vec<(f64, f64)> = Vec::with_capacity(n);
    let mut spacing = SPACING;
    let mut misses = 0;
    while points.len() < n {
        let p = (coord(s, size), coord(s, size));
        let free = points
            .iter()
            .all(|q| (p.0 - q.0) * (p.0 - q.0) + (p.1 - q.1) * (p.1 - q.1) >= spacing * spacing);
        if free {
            points.push(p);
            misses = 0;
        } else {
            misses += 1;
            if misses > 200 {
                spacing *= 0.9;
                misses = 0;
            }
        }
    }
    points
}

/// Edges of the Gabriel graph: no third stop inside the circle on the edge.
fn gabriel(stops: &[Stop]) -> Vec<(usize, usize)> {
    let mut edges = Vec::new();
    for i in 0..stops.len() {
        for j in i + 1..stops.len() {
            let d = dist(&stops[i], &stops[j]).powi(2);
            let blocked = (0..stops.len()).any(|k| {
                k != i
                    && k != j
                    && dist(&stops[i], &stops[k]).powi(2) + dist(&stops[j], &stops[k]).powi(2) <= d
            });
            if !blocked {
                edges.push((i, j));
            }
        }
    }
    edges
}

/// Kruskal's minimum spanning tree over the given edges (ties by index).
fn spanning_tree(stops: &[Stop], edges: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut sorted = edges.to_vec();
    sorted.sort_by(|a, b| {
        dist(&stops[a.0], &stops[a.1])
            .total_cmp(&dist(&stops[b.0], &stops[b.1]))
            .then(a.cmp(b))
    });
    let mut parent: Vec<usize> = (0..stops.len()).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    let mut tree = Vec::new();
    for (a, b) in sorted {
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        if ra != rb {
            parent[ra] = rb;
            tree.push((a, b));
        }
    }
    tree
}

/// Hops from the nearest safe stop, for every stop (breadth first).
fn hops_from_safety(n: usize, edges: &[(usize, usize)], safe: &[usize]) -> Vec<u32> {
    let mut hops = vec![u32::MAX; n];
    let mut queue = std::collections::VecDeque::new();
    for &s in safe {
        hops[s] = 0;
        queue.push_back(s);
    }
    while let Some(v) = queue.pop_front() {
        for &(a, b) in edges {
            let w = if a == v {
                b
            } else if b == v {
                a
            } else {
                continue;
            };
            if hops[w] == u32::MAX {
                hops[w] = hops[v] + 1;
                queue.push_back(w);
            }
        }
    }
    hops
}

/// Shortest road distance (regions) from `from` to every stop.
pub fn road_distances(map: &Map, from: usize) -> Vec<u32> {
    let mut best = vec![u32::MAX; map.stops.len()];
    let mut done = vec![false; map.stops.len()];
    best[from] = 0;
    for _ in 0..map.stops.len() {
        let Some(v) = (0..map.stops.len())
            .filter(|&i| !done[i] && best[i] != u32::MAX)
            .min_by_key(|&i| (best[i], i))
        else {
            break;
        };
        done[v] = true;
        for (p, w) in map.neighbours(v) {
            let d = best[v] + map.paths[p].regions;
            if d < best[w] {
                best[w] = d;
            }
        }
    }
    best
}

impl Generator for Request {
    const KIND: &'static str = "map";
    type Item = Map;

    /// The map at `at`: stops from the `places` and `names` streams, paths
    /// from the `paths` stream.
    fn make(&self, library: &Library, seed: &Seed, at: &Address) -> Result<Map, GenError> {
        let terrains = terrains(self)?;
        let n = self.stops;
        let size = ((n as f64) * 10.0).sqrt().ceil();
        let points = place(n, size, &mut at.stream(seed, "places"));
        let stops = name_stops(library, &terrains, points, &mut at.stream(seed, "names"))?;
        let kept = thin(&stops, &mut at.stream(seed, "paths"));
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
        let hops = hops_from_safety(n, &kept, &safe);
        let paths: Vec<Path> = kept
            .iter()
            .map(|&(a, b)| path(&stops, &hops, a, b))
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
fn terrains(req: &Request) -> Result<Vec<String>, GenError> {
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
    if let Some(bad) = terrains.iter().find(|t| !TERRAINS.contains(&t.as_str())) {
        return Err(GenError::Request(format!(
            "unknown terrain `{bad}`; choose from {}",
            TERRAINS.join(", ")
        )));
    }
    Ok(terrains)
}

/// Stops at the points: each a terrain, then a point of interest from
/// `gen.poi` that fits it (its kind and hook), and a name no other stop has.
fn name_stops(
    library: &Library,
    terrains: &[String],
    points: Vec<(f64, f64)>,
    ns: &mut Stream,
) -> Result<Vec<Stop>, GenError> {
    let poi = library.table("gen.poi")?;
    let mut used: Vec<String> = Vec::new();
    let mut stops = Vec::with_capacity(points.len());
    for (id, (x, y)) in points.into_iter().enumerate() {
        let terrain = terrains[ns.die(terrains.len() as u32) as usize - 1].clone();
        let fitting: Vec<usize> = poi
            .rows
            .iter()
            .enumerate()
            .filter(|(_, r)| r.tags.contains(&terrain))
            .map(|(i, _)| i)
            .collect();
        let candidates: Vec<usize> = if fitting.is_empty() {
            (0..poi.rows.len()).collect()
        } else {
            fitting
        };
        let weights: Vec<u64> = candidates
            .iter()
            .map(|&i| poi.rows[i].weight.unwrap_or(1))
            .collect();
        let chosen = candidates[ns.pick_weighted(&weights).expect("weights")];
        let row = &poi.rows[chosen];
        let hook = library.resolve("gen.poi", chosen, ns)?.text;
        let kind = row.tags.first().cloned().unwrap_or_else(|| "camp".into());
        let name = unique_name(library, &row.name, id, &used, ns)?;
        used.push(name.clone());
        stops.push(Stop {
            id,
            name,
            kind,
            terrain,
            hook,
            x,
            y,
        });
    }
    Ok(stops)
}

/// `name`, or while another stop has it a name from the place-name tables
/// (with the stop's number after twenty tries).
fn unique_name(
    library: &Library,
    name: &str,
    id: usize,
    used: &[String],
    ns: &mut Stream,
) -> Result<String, GenError> {
    let mut name = name.to_owned();
    let mut tries = 0;
    while used.contains(&name) {
        tries += 1;
        let prefix = library.roll_table("gen.names.place.prefix", ns)?;
        let suffix = library.roll_table("gen.names.place.suffix", ns)?;
        name = format!("{}{}", prefix.row, suffix.row);
        if tries > 20 {
            name = format!("{name} {id}");
        }
    }
    Ok(name)
}

/// The paths kept, sorted: the Gabriel graph's spanning tree, each other
/// edge with chance 1/2, and the shortest dropped ones back until there are
/// two loops.
fn thin(stops: &[Stop], es: &mut Stream) -> Vec<(usize, usize)> {
    let all = gabriel(stops);
    let tree = spanning_tree(stops, &all);
    let mut kept: Vec<(usize, usize)> = tree.clone();
    let mut dropped = Vec::new();
    for e in all.iter().filter(|e| !tree.contains(e)) {
        if es.die(2) == 1 {
            kept.push(*e);
        } else {
            dropped.push(*e);
        }
    }
    dropped.sort_by(|a, b| {
        dist(&stops[a.0], &stops[a.1])
            .total_cmp(&dist(&stops[b.0], &stops[b.1]))
            .then(a.cmp(b))
    });
    let mut dropped = dropped.into_iter();
    while kept.len() < stops.len() + 1 {
        match dropped.next() {
            Some(e) => kept.push(e),
            None => break,
        }
    }
    kept.sort();
    kept
}

/// Longest path a map may have, in regions (a field of 40 stops is far
/// smaller; the bound keeps a hand-edited map from running for ever).
pub const MAX_REGIONS: u32 = 1000;

/// What must hold before a saved map can be walked at all: a stop count
/// within [`STOPS`], ids in order, start, goal and path ends naming stops,
/// finite positions, at most as many paths as a planar map can have, and
/// lengths within [`MAX_REGIONS`] whose watches and days follow from them.
pub fn shape_flaws(m: &Map) -> Vec<String> {
    let n = m.stops.len();
    let (lo, hi) = STOPS;
    if !(lo..=hi).contains(&n) {
        return vec![format!("the map has {n} stops; a map has {lo} to {hi}")];
    }
    let mut out = Vec::new();
    for (i, s) in m.stops.iter().enumerate() {
        if s.id != i {
            out.push(format!(
                "stop {} has id {}; ids run 0, 1, 2… in order",
                s.name, s.id
            ));
        }
        if !(s.x.is_finite() && s.y.is_finite()) {
            out.push(format!("stop {} has no finite position", s.name));
        }
    }
    for (what, at) in [("start", m.start), ("goal", m.goal)] {
        if at >= n {
            out.push(format!(
                "the {what} is stop {at}, but the stops run 0-{}",
                n - 1
            ));
        }
    }
    if m.paths.len() > 3 * n {
        out.push(format!(
            "{} paths for {n} stops is more than a flat map can hold",
            m.paths.len()
        ));
    }
    for (i, p) in m.paths.iter().enumerate() {
        out.extend(path_shape_flaws(i, p, n));
    }
    out
}

fn path_shape_flaws(i: usize, p: &Path, n: usize) -> Vec<String> {
    let mut out = Vec::new();
    if p.a >= n || p.b >= n {
        out.push(format!(
            "path {i} joins stops {} and {}, but the stops run 0-{}",
            p.a,
            p.b,
            n - 1
        ));
    }
    if p.regions > MAX_REGIONS {
        out.push(format!(
            "path {i} is {} regions long; at most {MAX_REGIONS}",
            p.regions
        ));
    }
    if p.watches != p.regions.div_ceil(2) || p.days != p.watches.div_ceil(2) {
        out.push(format!(
            "path {i}: {} regions take {} watches over {} days, not {} over {}",
            p.regions,
            p.regions.div_ceil(2),
            p.regions.div_ceil(2).div_ceil(2),
            p.watches,
            p.days
        ));
    }
    out
}

/// The path from stop `a` to `b`: its length, and its Difficulty from the
/// wilder end's terrain and how far from safety the ends lie.
fn path(stops: &[Stop], hops: &[u32], a: usize, b: usize) -> Path {
    let regions = dist(&stops[a], &stops[b]).ceil().max(1.0) as u32;
    let watches = regions.div_ceil(2);
    let (wild, _) = [
        (a, terrain_danger(&stops[a].terrain)),
        (b, terrain_danger(&stops[b].terrain)),
    ]
    .into_iter()
    .max_by_key(|(i, d)| (*d, hops[*i], std::cmp::Reverse(*i)))
    .expect("two ends");
    let far = u32::from(hops[a].max(hops[b]) >= 2);
    let danger = terrain_danger(&stops[wild].terrain);
    // Only the deep places reach Nigh Impossible.
    let top = if danger == 3 { 4 } else { 3 };
    let rung = (danger + far).min(top) as usize;
    let rung = DIFFICULTY_LADDER[rung];
    Path {
        a,
        b,
        regions,
        watches,
        days: watches.div_ceil(2),
        terrain: stops[wild].terrain.clone(),
        difficulty: rung.difficulty,
        difficulty_word: rung.word.to_owned(),
    }
}

/// Segments ab and cd cross at a point inside both (not at shared ends).
fn crosses(a: (f64, f64), b: (f64, f64), c: (f64, f64), d: (f64, f64)) -> bool {
    let orient = |p: (f64, f64), q: (f64, f64), r: (f64, f64)| {
        (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0)
    };
    let (d1, d2) = (orient(a, b, c), orient(a, b, d));
    let (d3, d4) = (orient(c, d, a), orient(c, d, b));
    d1 * d2 < 0.0 && d3 * d4 < 0.0
}

/// What makes a map unusable: unreachable stops, crossing paths,
/// Difficulties off the ladder, paths of no length.
pub fn check(m: &Map) -> Vec<String> {
    let mut out = shape_flaws(m);
    if !out.is_empty() {
        // The checks below index stops by the paths' ends: not on a map
        // whose numbers do not hold together.
        return out;
    }
    let reach = road_distances(m, m.start);
    if let Some(lost) = reach.iter().position(|d| *d == u32::MAX) {
        out.push(format!("stop {} cannot be reached", m.stops[lost].name));
    }
    for (i, p) in m.paths.iter().enumerate() {
        if p.regions == 0 || p.watches == 0 || p.a == p.b {
            out.push(format!("path {i} has no length"));
        }
        if !DIFFICULTY_LADDER
            .iter()
            .any(|r| r.difficulty == p.difficulty)
        {
            out.push(format!(
                "path {i} Difficulty {} is not on the ladder",
                p.difficulty
            ));
        }
        let pa = (m.stops[p.a].x, m.stops[p.a].y);
        let pb = (m.stops[p.b].x, m.stops[p.b].y);
        for q in &m.paths[i + 1..] {
            if [q.a, q.b].contains(&p.a) || [q.a, q.b].contains(&p.b) {
                continue;
            }
            if crosses(
                pa,
                pb,
                (m.stops[q.a].x, m.stops[q.a].y),
                (m.stops[q.b].x, m.stops[q.b].y),
            ) {
                out.push(format!(
                    "paths {}–{} and {}–{} cross",
                    m.stops[p.a].name, m.stops[p.b].name, m.stops[q.a].name, m.stops[q.b].name
                ));
            }
        }
    }
    let mut names: Vec<&str> = m.stops.iter().map(|s| s.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    if names.len() != m.stops.len() {
        out.push("two stops share a name".into());
    }
    for (i, a) in m.stops.iter().enumerate() {
        for b in &m.stops[i + 1..] {
            if dist(a, b) < 0.5 {
                out.push(format!(
                    "{} and {} sit on top of each other",
                    a.name, b.name
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
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
            check(&m).iter().any(|p| p.contains("cross")),
            "{:?}",
            check(&m)
        );
        let mut island = nth(&library, &Request::default(), &seed, 1).unwrap();
        island.paths.retain(|p| p.a != 3 && p.b != 3);
        assert!(
            check(&island)
                .iter()
                .any(|p| p.contains("cannot be reached"))
        );
    }

    #[test]
    fn maps_whose_numbers_do_not_hold_are_refused_without_panicking() {
        let library = crate::content::test_library();
        let good = nth(
            &library,
            &Request::default(),
            &Seed::new("shape").unwrap(),
            0,
        )
        .unwrap();
        assert!(check(&good).is_empty(), "{:?}", check(&good));
        let n = good.stops.len();
        type Spoil = Box<dyn Fn(&mut Map)>;
        let cases: Vec<(&str, Spoil)> = vec![
            ("stops; a map has 4 to 40", Box::new(|m| m.stops.clear())),
            ("the start is stop", Box::new(move |m| m.start = n)),
            ("the goal is stop", Box::new(|m| m.goal = usize::MAX)),
            ("but the stops run", Box::new(move |m| m.paths[0].b = n + 7)),
            ("ids run 0, 1, 2", Box::new(|m| m.stops[1].id = 9)),
            ("no finite position", Box::new(|m| m.stops[2].x = f64::NAN)),
            (
                "at most 1000",
                Box::new(|m| {
                    m.paths[0].regions = u32::MAX;
                    m.paths[0].watches = u32::MAX.div_ceil(2);
                    m.paths[0].days = u32::MAX.div_ceil(2).div_ceil(2);
                }),
            ),
            (
                "watches over",
                Box::new(|m| m.paths[0].watches = 10_000_000),
            ),
            (
                "more than a flat map",
                Box::new(|m| {
                    let p = m.paths[0].clone();
                    m.paths.extend(std::iter::repeat_n(p, 200));
                }),
            ),
        ];
        for (want, spoil) in cases {
            let mut m = good.clone();
            spoil(&mut m);
            let flaws = check(&m);
            assert!(flaws.iter().any(|f| f.contains(want)), "{want}: {flaws:?}");
        }
    }
}
