//! Where the stops go: dart throwing on a square field with a least
//! spacing (Poisson-disk), relaxed only when the field is full.

use super::Stop;
use crate::seed::Stream;

/// Least distance between stops, in regions.
const SPACING: f64 = 2.0;

/// Straight-line distance between two stops, in regions.
pub(super) fn dist(a: &Stop, b: &Stop) -> f64 {
    ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).sqrt()
}

/// A uniform coordinate in `0..size` on a fixed grid of a million steps.
fn coord(s: &mut Stream, size: f64) -> f64 {
    f64::from(s.below(1_000_000)) / 1_000_000.0 * size
}

/// `n` points on a `size` × `size` field, at least [`SPACING`] apart while
/// there is room (the spacing shrinks by a tenth after 200 misses in a row).
pub(super) fn place(n: usize, size: f64, s: &mut Stream) -> Vec<(f64, f64)> {
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
