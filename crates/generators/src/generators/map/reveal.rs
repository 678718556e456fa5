//! What a campaign's party knows of its region, for the atlas (issue 30):
//! the stops it has **visited**, the stops it has **heard of** — the far
//! ends of the paths leading out of a visited stop (a party knows where
//! the roads from places it has been lead) and the stop it sets out for
//! this session — the paths it has **travelled**, and its **trail**, a
//! step a session. The players' atlas draws only what the party knows; the
//! GM's draws everything with the trail over it.
//!
//! Stops are the map's ids (0-based, as the map's JSON has them) and
//! paths its indices into `paths`, so the numbers printed stay the GM's.

use serde::Serialize;

use super::Map;

/// What the party knows of a map, and where it went.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Reveal {
    /// Stops the party has been at, in the order first reached.
    pub visited: Vec<usize>,
    /// Stops heard of but not visited, in the order of their numbers.
    pub heard: Vec<usize>,
    /// Paths travelled, in the order first travelled.
    pub travelled: Vec<usize>,
    /// The trail: a step a recorded session, in order.
    pub trail: Vec<TrailStep>,
}

/// One session of the trail: the days it ran and the stops passed, in
/// order (the first where the session started).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TrailStep {
    /// The session's number.
    pub session: u32,
    /// The day it started on.
    pub day_start: u32,
    /// The day it ended on.
    pub day_end: u32,
    /// The stops passed (indices into the map's stops), the first where the
    /// session started.
    pub stops: Vec<usize>,
}

impl TrailStep {
    /// The days it ran, as printed: `day 4` or `days 1–4`.
    pub fn days(&self) -> String {
        if self.day_start == self.day_end {
            format!("day {}", self.day_end)
        } else {
            format!("days {}–{}", self.day_start, self.day_end)
        }
    }

    /// The stops passed, each by its number and name.
    pub fn stop_labels(&self, map: &Map) -> Vec<String> {
        self.stops
            .iter()
            .filter_map(|&i| map.stops.get(i))
            .map(|s| format!("{} {}", s.id + 1, s.name))
            .collect()
    }
}

impl Reveal {
    /// What a party knows that has visited `visited`, travelled
    /// `travelled` (both in the order first done) and sets out for
    /// `heading` (a stop it has heard of, if not visited).
    pub fn new(
        map: &Map,
        visited: Vec<usize>,
        travelled: Vec<usize>,
        heading: Option<usize>,
        trail: Vec<TrailStep>,
    ) -> Reveal {
        let mut heard = vec![false; map.stops.len()];
        for &v in &visited {
            for (_, far) in map.neighbours(v) {
                heard[far] = true;
            }
        }
        if let Some(h) = heading.filter(|&h| h < map.stops.len()) {
            heard[h] = true;
        }
        for &v in &visited {
            heard[v] = false;
        }
        Reveal {
            heard: (0..map.stops.len()).filter(|&i| heard[i]).collect(),
            visited,
            travelled,
            trail,
        }
    }

    /// Whether the party has visited stop `i`.
    pub fn visited(&self, i: usize) -> bool {
        self.visited.contains(&i)
    }

    /// Whether the party knows stop `i` (visited or heard of).
    pub fn knows_stop(&self, i: usize) -> bool {
        self.visited(i) || self.heard.binary_search(&i).is_ok()
    }

    /// Whether the party has travelled path `p`.
    pub fn knows_path(&self, p: usize) -> bool {
        self.travelled.contains(&p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::map::{Path, Stop};

    /// 0 —— 1 —— 2 —— 3, and 1 —— 4.
    fn line() -> Map {
        let stop = |id: usize| Stop {
            id,
            name: format!("S{id}"),
            kind: "ruin".into(),
            terrain: "road".into(),
            hook: String::new(),
            x: id as f64,
            y: 0.0,
        };
        let path = |a: usize, b: usize| Path {
            a,
            b,
            regions: 2,
            watches: 1,
            days: 1,
            terrain: "road".into(),
            difficulty: 1,
            difficulty_word: "Routine".into(),
            encounter_chance: None,
        };
        Map {
            size: 10.0,
            stops: (0..5).map(stop).collect(),
            paths: vec![path(0, 1), path(1, 2), path(2, 3), path(1, 4)],
            start: 0,
            goal: 3,
        }
    }

    #[test]
    fn heard_of_are_the_far_ends_of_roads_from_visited_stops_and_the_heading() {
        let m = line();
        let r = Reveal::new(&m, vec![0, 1], vec![0], None, Vec::new());
        assert_eq!(r.heard, [2, 4]);
        assert!(r.knows_stop(4) && !r.knows_stop(3));
        assert!(r.knows_path(0) && !r.knows_path(1) && !r.knows_path(3));
        // Setting out for 3: heard of it too.
        let r = Reveal::new(&m, vec![0], vec![], Some(3), Vec::new());
        assert_eq!(r.heard, [1, 3]);
        // A heading already visited is not "heard of".
        let r = Reveal::new(&m, vec![0, 1], vec![0], Some(0), Vec::new());
        assert_eq!(r.heard, [2, 4]);
    }
}
