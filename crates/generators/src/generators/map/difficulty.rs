//! A path's Difficulty: METTLE's Travel has the Guide give each path a
//! Difficulty "based on the danger of the journey". Here that danger is
//! three things, counted in rungs of the Difficulty ladder (1 Routine,
//! 3 Challenging, 6 Daunting, 10 Formidable, 15 Nigh Impossible):
//!
//! - **the land**: the wilder end's region's `danger` (its
//!   `[table.region]`; built in: road and town 0, forest and hills 1, swamp
//!   and ruins 2, underground 3);
//! - **remoteness**: one rung more when an end lies two or more stops from
//!   safety (a village, town, inn or the start);
//! - **the danger roll**, one d6 per path ([`SHIFTS`]): 1 a watched way
//!   (two rungs down), 2-3 a quiet way (one down), 4-5 the way as the land
//!   makes it, 6 a troubled way (one up).
//!
//! The sum is held to the ladder: never below Routine, and never above
//! Formidable except in a region of the highest danger (underground),
//! where only the deep ways reach Nigh Impossible.

use super::placement::dist;
use super::{Path, Stop};
use crate::content::region::{self, Region};
use crate::rules::mettle::DIFFICULTY_LADDER;
use crate::seed::{DieSource, Stream};

/// Rungs added by the danger roll, by the face of a d6 (1 first).
pub const SHIFTS: [i32; 6] = [-2, -1, -1, 0, 0, 1];

/// Rungs the land adds: the region's own danger.
fn terrain_danger(regions: &[Region], terrain: &str) -> u32 {
    regions
        .iter()
        .find(|r| r.name == terrain)
        .map_or(region::DEFAULT_DANGER, |r| r.danger)
}

/// The path from stop `a` to `b`: its length, and its Difficulty from the
/// wilder end's terrain, how far from safety the ends lie, and one danger
/// roll from `danger`.
pub(super) fn path(
    lands: &[Region],
    stops: &[Stop],
    hops: &[u32],
    (a, b): (usize, usize),
    danger: &mut Stream,
) -> Path {
    let regions = dist(&stops[a], &stops[b]).ceil().max(1.0) as u32;
    let watches = regions.div_ceil(2);
    let (wild, land) = [
        (a, terrain_danger(lands, &stops[a].terrain)),
        (b, terrain_danger(lands, &stops[b].terrain)),
    ]
    .into_iter()
    .max_by_key(|(i, d)| (*d, hops[*i], std::cmp::Reverse(*i)))
    .expect("two ends");
    let far = i32::from(hops[a].max(hops[b]) >= 2);
    let shift = SHIFTS[danger.die(6) as usize - 1];
    let rung = DIFFICULTY_LADDER[rung(land, far, shift)];
    Path {
        a,
        b,
        regions,
        watches,
        days: watches.div_ceil(2),
        terrain: stops[wild].terrain.clone(),
        difficulty: rung.difficulty,
        difficulty_word: rung.word.to_owned(),
        encounter_chance: None,
    }
}

/// The rung (0 Routine … 4 Nigh Impossible) for the land's danger, the
/// remoteness and the danger roll's shift; only underground (land 3)
/// reaches the top rung.
fn rung(land: u32, far: i32, shift: i32) -> usize {
    let top = if land == region::MAX_DANGER { 4 } else { 3 };
    (land as i32 + far + shift).clamp(0, top) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sum_stays_on_the_ladder_and_only_the_deep_reach_the_top() {
        for land in 0..=3 {
            for far in 0..=1 {
                for shift in SHIFTS {
                    let r = rung(land, far, shift);
                    assert!(r < DIFFICULTY_LADDER.len());
                    assert_eq!(r == 4, land == 3 && far + shift >= 1);
                }
            }
        }
        assert_eq!(rung(0, 0, -2), 0, "a watched road is Routine");
        assert_eq!(rung(2, 1, 1), 3, "a troubled, far swamp is Formidable");
    }
}
