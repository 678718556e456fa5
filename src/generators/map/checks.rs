//! What a map must satisfy: the shape checks a saved map passes before a
//! journey walks it ([`shape_flaws`]), and the full check every generated
//! map passes ([`check`]): reachable, planar, on the ladder, no two stops
//! with one name or one place.

use super::graph::{crosses, road_distances};
use super::placement::dist;
use super::{Map, Path, STOPS};
use crate::rules::mettle::DIFFICULTY_LADDER;

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

/// What makes a map unusable: unreachable stops, crossing paths,
/// Difficulties off the ladder, paths of no length, two stops with one
/// name, stops on top of each other.
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
        out.extend(path_flaws(m, i, p));
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

/// A path of no length, off the ladder, or crossing a later path.
fn path_flaws(m: &Map, i: usize, p: &Path) -> Vec<String> {
    let mut out = Vec::new();
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
    let at = |s: usize| (m.stops[s].x, m.stops[s].y);
    for q in &m.paths[i + 1..] {
        if [q.a, q.b].contains(&p.a) || [q.a, q.b].contains(&p.b) {
            continue;
        }
        if crosses(at(p.a), at(p.b), at(q.a), at(q.b)) {
            out.push(format!(
                "paths {}–{} and {}–{} cross",
                m.stops[p.a].name, m.stops[p.b].name, m.stops[q.a].name, m.stops[q.b].name
            ));
        }
    }
    out
}
