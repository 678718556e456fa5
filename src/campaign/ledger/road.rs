//! The campaign map as the ledger reads it: which stops are settlements,
//! and how long the road between two stops is.
//!
//! A path takes its `watches` (two regions a watch); the party travels two
//! watches a day (the third is the daily rest), so a trip of `w` watches
//! over any number of paths takes `⌈w / 2⌉` days: the rule lives once, in
//! `generators::map::reach`, for the journey, `play` and the record check.

/// Kinds of stop that are settlements, where a Core full rest can be
/// taken: the journey's own (village, town, inn — meals, water and beds
/// for sale), one rule for both.
pub(crate) const SETTLEMENT_KINDS: [&str; 3] = crate::generators::map::SAFE_KINDS;

/// Whether the party stopped in a settlement: the record's `settlement`,
/// else the kind of its stop on the map — one rule for the full rest and
/// for stocking up ([`super::provisions`]).
pub(super) fn in_settlement(
    start: &super::Start,
    state: &crate::campaign::state::State,
    record: &crate::campaign::record::RecordFile,
) -> bool {
    record
        .record
        .settlement
        .unwrap_or_else(|| match (start.map.as_ref(), &state.stop) {
            (Some(map), Some(stop)) => map
                .stop_named(stop)
                .is_some_and(|s| SETTLEMENT_KINDS.contains(&s.kind.as_str())),
            _ => false,
        })
}

/// The quickest road and a trip's days: the map's one reachability rule
/// ([`crate::generators::map::reach`]), which the journey and `play` use too.
pub(crate) use crate::generators::map::reach::quickest;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::map::reach::days;
    use crate::generators::map::{Map, Path, Stop};

    fn stop(id: usize, kind: &str) -> Stop {
        Stop {
            id,
            name: format!("S{id}"),
            kind: kind.into(),
            terrain: "road".into(),
            hook: String::new(),
            x: id as f64,
            y: 0.0,
        }
    }

    fn path(a: usize, b: usize, watches: u32) -> Path {
        Path {
            a,
            b,
            regions: watches * 2,
            watches,
            days: days(watches),
            terrain: "road".into(),
            difficulty: 1,
            difficulty_word: "Routine".into(),
            encounter_chance: None,
        }
    }

    /// S0 —3— S1 —1— S2, S0 —5— S2, S3 alone.
    pub(crate) fn line() -> Map {
        Map {
            size: 10.0,
            stops: vec![
                stop(0, "village"),
                stop(1, "ford"),
                stop(2, "town"),
                stop(3, "ruin"),
            ],
            paths: vec![path(0, 1, 3), path(1, 2, 1), path(0, 2, 5)],
            start: 0,
            goal: 2,
        }
    }

    #[test]
    fn the_quickest_road_counts_watches_and_days_for_the_whole_trip() {
        let map = line();
        // Through the ford: 3 + 1 = 4 watches (2 days), not the 5-watch path.
        assert_eq!(quickest(&map, 0, 2), Some((vec![0, 1, 2], 4)));
        assert_eq!(days(4), 2);
        assert_eq!(days(3), 2);
        assert_eq!(quickest(&map, 1, 1), Some((vec![1], 0)));
        assert_eq!(quickest(&map, 0, 3), None);
    }
}
