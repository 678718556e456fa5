//! The one reachability rule of a campaign's map, for the journey, `play`'s
//! arrival and the record check alike: a path takes its `watches` (two
//! regions a watch), the party travels two watches a day (the third is the
//! daily rest; Core Rules, Daily rests and Movement), so a stop whose
//! quickest road is `w` watches away is reached on the `⌈w / 2⌉`-th day of
//! travel at the soonest. A journey never arrives sooner (its Twists,
//! foraging and water searches only add watches; a "Lost" party walks on
//! to the stop it comes out at), so every arrival a pack prints is one the
//! record check and `play` accept.

use super::Map;

/// The quickest road from `from` to `to`: the stops along it (both ends
/// included) and its watches; `None` when no road connects them.
pub fn quickest(map: &Map, from: usize, to: usize) -> Option<(Vec<usize>, u32)> {
    let n = map.stops.len();
    if from >= n || to >= n {
        return None;
    }
    let mut best = vec![u32::MAX; n];
    let mut came = vec![usize::MAX; n];
    let mut done = vec![false; n];
    best[from] = 0;
    for _ in 0..n {
        let Some(v) = (0..n)
            .filter(|&i| !done[i] && best[i] != u32::MAX)
            .min_by_key(|&i| (best[i], i))
        else {
            break;
        };
        done[v] = true;
        for (p, w) in map.neighbours(v) {
            let d = best[v] + map.paths[p].watches;
            if d < best[w] {
                best[w] = d;
                came[w] = v;
            }
        }
    }
    if best[to] == u32::MAX {
        return None;
    }
    let mut stops = vec![to];
    while let Some(&last) = stops.last()
        && last != from
    {
        stops.push(came[last]);
    }
    stops.reverse();
    Some((stops, best[to]))
}

/// Days a trip of `watches` takes: two travelling watches a day.
pub fn days(watches: u32) -> u32 {
    watches.div_ceil(2)
}

/// Why a stop could not have been reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unreachable {
    /// No road connects the two stops.
    NoRoad,
    /// The quickest road is `watches` long: `days` days, so the soonest
    /// day of arrival is `soonest`.
    TooFar {
        /// The quickest road's length, in watches.
        watches: u32,
        /// The days it takes.
        days: u32,
        /// The soonest day the party could arrive.
        soonest: u32,
    },
}

/// The soonest day a party setting out from `from` on day `first` can be
/// at `to` (`first` itself when `to` is `from`).
pub fn soonest(map: &Map, from: usize, to: usize, first: u32) -> Option<u32> {
    quickest(map, from, to).map(|(_, w)| first + days(w).saturating_sub(1))
}

/// The rule: could a party that set out from `from` on day `first` be at
/// `to` on day `day`?
pub fn check(map: &Map, from: usize, to: usize, first: u32, day: u32) -> Result<(), Unreachable> {
    match quickest(map, from, to) {
        None => Err(Unreachable::NoRoad),
        Some((_, watches)) if first + days(watches).saturating_sub(1) > day => {
            Err(Unreachable::TooFar {
                watches,
                days: days(watches),
                soonest: first + days(watches).saturating_sub(1),
            })
        }
        Some(_) => Ok(()),
    }
}
