//! What a map must satisfy: the shape checks a saved map passes before a
//! journey walks it ([`shape_flaws`]), and the full check every generated
//! map passes ([`check`]): reachable, planar, on the ladder, no two stops
//! with one name or one place. Each flaw says where it is ([`Place`]), so a
//! saved map's reader can point at the line.

use super::graph::{crosses, road_distances};
use super::placement::dist;
use super::{Map, PATHS_PER_STOP, Path, STOPS, Stop};
use crate::rules::mettle::DIFFICULTY_LADDER;

/// Longest path a map may have, in regions (a field of 40 stops is far
/// smaller; the bound keeps a hand-edited map from running for ever).
pub const MAX_REGIONS: u32 = 1000;

/// Where in a map a flaw sits: a field of the map, or a field of one stop
/// or path (`""`: the stop or path as a whole). The names are the fields'
/// names in a map saved with `gen map --json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A field of the map itself.
    Map(&'static str),
    /// A field of the stop at this index.
    Stop(usize, &'static str),
    /// A field of the path at this index.
    Path(usize, &'static str),
}

/// One thing wrong with a map, and where.
pub type Flaw = crate::rules::Flaw<Place>;

/// What must hold before a saved map can be walked at all: a stop count
/// within [`STOPS`], ids in order, start, goal and path ends naming stops,
/// finite positions, at most as many paths as a planar map can have, and
/// lengths within [`MAX_REGIONS`] whose watches and days follow from them.
/// A map with more paths than a flat map can hold gets that one flaw, not
/// one per path.
pub fn shape_flaws(m: &Map) -> Vec<Flaw> {
    let n = m.stops.len();
    let (lo, hi) = STOPS;
    if !(lo..=hi).contains(&n) {
        // (A saved map is read to one stop past the most: "more than".)
        let count = if n > hi {
            format!("more than {hi}")
        } else {
            n.to_string()
        };
        let message = format!("the map has {count} stops; a map has {lo} to {hi}");
        return vec![Flaw::new(Place::Map("stops"), message)];
    }
    let most = PATHS_PER_STOP * n;
    if m.paths.len() > most {
        let message =
            format!("a flat map of {n} stops holds at most {most} paths; this one has more");
        return vec![Flaw::new(Place::Path(most, ""), message)];
    }
    let mut out = Vec::new();
    for (i, s) in m.stops.iter().enumerate() {
        if s.id != i {
            let message = format!(
                "stop {} has id {}; ids run 0, 1, 2… in order",
                named(s),
                s.id
            );
            out.push(Flaw::new(Place::Stop(i, "id"), message));
        }
        if !(s.x.is_finite() && s.y.is_finite()) {
            let message = format!("stop {} has no finite position", named(s));
            out.push(Flaw::new(Place::Stop(i, "x"), message));
        }
    }
    for (what, at) in [("start", m.start), ("goal", m.goal)] {
        if at >= n {
            let message = format!("the {what} is stop {at}, but the stops run 0-{}", n - 1);
            out.push(Flaw::new(Place::Map(what), message));
        }
    }
    for (i, p) in m.paths.iter().enumerate() {
        out.extend(path_shape_flaws(i, p, n));
    }
    out
}

fn path_shape_flaws(i: usize, p: &Path, n: usize) -> Vec<Flaw> {
    let mut out = Vec::new();
    for (end, stop) in [("a", p.a), ("b", p.b)] {
        if stop >= n {
            let message = format!(
                "path {i} joins stops {} and {}, but the stops run 0-{}",
                p.a,
                p.b,
                n - 1
            );
            out.push(Flaw::new(Place::Path(i, end), message));
            break;
        }
    }
    if p.regions > MAX_REGIONS {
        let message = format!(
            "path {i} is {} regions long; at most {MAX_REGIONS}",
            p.regions
        );
        out.push(Flaw::new(Place::Path(i, "regions"), message));
    }
    let (watches, days) = (p.regions.div_ceil(2), p.regions.div_ceil(2).div_ceil(2));
    if p.regions <= MAX_REGIONS && (p.watches != watches || p.days != days) {
        let message = format!(
            "path {i}: {} take {} over {}, not {} over {}",
            count(p.regions, "region"),
            count(watches, "watch"),
            count(days, "day"),
            count(p.watches, "watch"),
            count(p.days, "day"),
        );
        let field = if p.watches != watches {
            "watches"
        } else {
            "days"
        };
        out.push(Flaw::new(Place::Path(i, field), message));
    }
    out
}

/// A stop's name as a message shows it: at most 40 characters (a
/// hand-edited map's name may be as long as the file).
fn named(s: &Stop) -> String {
    match s.name.char_indices().nth(40) {
        Some((cut, _)) => format!("{}…", &s.name[..cut]),
        None => s.name.clone(),
    }
}

/// `n` things, with the plural as English writes it.
fn count(n: u32, one: &str) -> String {
    match (n, one.ends_with("ch")) {
        (1, _) => format!("1 {one}"),
        (_, true) => format!("{n} {one}es"),
        _ => format!("{n} {one}s"),
    }
}

/// What makes a map unusable: unreachable stops, crossing paths,
/// Difficulties off the ladder, paths of no length, two stops with one
/// name, stops on top of each other.
pub fn check(m: &Map) -> Vec<Flaw> {
    let mut out = shape_flaws(m);
    if !out.is_empty() {
        // The checks below index stops by the paths' ends: not on a map
        // whose numbers do not hold together.
        return out;
    }
    let reach = road_distances(m, m.start);
    if let Some(lost) = reach.iter().position(|d| *d == u32::MAX) {
        let message = format!("stop {} cannot be reached", named(&m.stops[lost]));
        out.push(Flaw::new(Place::Stop(lost, ""), message));
    }
    for (i, p) in m.paths.iter().enumerate() {
        out.extend(path_flaws(m, i, p));
    }
    out.extend(stop_flaws(m));
    out
}

/// Two stops with one name, or in one place: the later one is pointed at.
fn stop_flaws(m: &Map) -> Vec<Flaw> {
    let mut out = Vec::new();
    for (j, b) in m.stops.iter().enumerate() {
        if let Some(a) = m.stops[..j].iter().find(|a| a.name == b.name) {
            let message = format!("stops {} and {j} share the name {}", a.id, named(b));
            out.push(Flaw::new(Place::Stop(j, "name"), message));
        }
        for a in m.stops[..j].iter().filter(|a| dist(a, b) < 0.5) {
            let message = format!("{} and {} sit on top of each other", named(a), named(b));
            out.push(Flaw::new(Place::Stop(j, "x"), message));
        }
    }
    out
}

/// A path of no length, off the ladder, or crossing a later path.
fn path_flaws(m: &Map, i: usize, p: &Path) -> Vec<Flaw> {
    let mut out = Vec::new();
    if p.regions == 0 || p.watches == 0 || p.a == p.b {
        let field = if p.a == p.b { "b" } else { "regions" };
        out.push(Flaw::new(
            Place::Path(i, field),
            format!("path {i} has no length"),
        ));
    }
    if !DIFFICULTY_LADDER
        .iter()
        .any(|r| r.difficulty == p.difficulty)
    {
        let message = format!("path {i} Difficulty {} is not on the ladder", p.difficulty);
        out.push(Flaw::new(Place::Path(i, "difficulty"), message));
    }
    let at = |s: usize| (m.stops[s].x, m.stops[s].y);
    for q in &m.paths[i + 1..] {
        if [q.a, q.b].contains(&p.a) || [q.a, q.b].contains(&p.b) {
            continue;
        }
        if crosses(at(p.a), at(p.b), at(q.a), at(q.b)) {
            let message = format!(
                "paths {}–{} and {}–{} cross",
                named(&m.stops[p.a]),
                named(&m.stops[p.b]),
                named(&m.stops[q.a]),
                named(&m.stops[q.b])
            );
            out.push(Flaw::new(Place::Path(i, ""), message));
        }
    }
    out
}
