//! What is cut and folded on a card sheet: each card's outline, a folded
//! pair's outline and fold, and the crop marks at the ends of every cut
//! line.

use super::{CARD_H, CARD_W, COLS};
use crate::page::Shape;

/// Space between a crop mark and the card edge, and its longest length.
const CROP_GAP: f64 = 3.0;
const CROP_LEN: f64 = 12.0;

/// A card's outline, `w` wide, from its top-left corner.
pub(super) fn card_outline((x, y): (f64, f64), w: f64) -> Shape {
    Shape::Rect {
        x,
        y,
        w,
        h: CARD_H,
        filled: false,
        width: 0.3,
    }
}

/// A folded pair's outline: `faces` cards wide, a dashed fold between
/// each face and the next (folded along it, the back comes upright behind
/// the front).
pub(super) fn fold_outline((x, y): (f64, f64), faces: usize) -> Vec<Shape> {
    let mut shapes = vec![card_outline((x, y), faces as f64 * CARD_W)];
    for i in 1..faces {
        let fx = x + i as f64 * CARD_W;
        shapes.push(Shape::line((fx, y), (fx, y + CARD_H), 0.3, true));
    }
    shapes
}

/// How many cards fit from grid cell `slot` to the end of its row.
pub(super) fn slot_room(slot: usize) -> usize {
    COLS - slot % COLS
}

/// Crop marks for cards `cells` (top-left corner and width; a folded pair
/// is one card two cells wide): at both ends of every cut line, a short
/// line in line with it, clear of every card and inside the page
/// (`width` × `height`). A fold is no cut: no mark points at it.
pub(super) fn crop_marks(cells: &[(f64, f64, f64)], (width, height): (f64, f64)) -> Vec<Shape> {
    let mut shapes = Vec::new();
    let near = |a: f64, b: f64| (a - b).abs() < 0.01;
    let mut xs: Vec<f64> = cells.iter().flat_map(|(x, _, w)| [*x, x + w]).collect();
    let mut ys: Vec<f64> = cells
        .iter()
        .flat_map(|(_, y, _)| [*y, y + CARD_H])
        .collect();
    for v in [&mut xs, &mut ys] {
        v.sort_by(f64::total_cmp);
        v.dedup_by(|a, b| near(*a, *b));
    }
    // A mark from `from` to `to` along one axis, shortened to `room`
    // (the space to the page edge less 2 pt), left out when under 3 pt.
    let mut mark = |(x1, y1): (f64, f64), (x2, y2): (f64, f64)| {
        if (x2 - x1).abs() + (y2 - y1).abs() >= 3.0 {
            shapes.push(Shape::line((x1, y1), (x2, y2), 0.5, false));
        }
    };
    let len = |room: f64| CROP_LEN.min(room - CROP_GAP - 2.0).max(0.0);
    for &x in &xs {
        // The cards this vertical cut runs along.
        let along = cells
            .iter()
            .filter(|(cx, _, w)| near(*cx, x) || near(cx + w, x));
        let (top, bottom) = along.fold((f64::INFINITY, f64::NEG_INFINITY), |(t, b), (_, y, _)| {
            (t.min(*y), b.max(y + CARD_H))
        });
        let (up, down) = (len(top), len(height - bottom));
        mark((x, top - CROP_GAP - up), (x, top - CROP_GAP));
        mark((x, bottom + CROP_GAP), (x, bottom + CROP_GAP + down));
    }
    for &y in &ys {
        let along = cells
            .iter()
            .filter(|(_, cy, _)| near(*cy, y) || near(cy + CARD_H, y));
        let (left, right) = along.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, r), (x, _, w)| {
            (l.min(*x), r.max(x + w))
        });
        let (before, after) = (len(left), len(width - right));
        mark((left - CROP_GAP - before, y), (left - CROP_GAP, y));
        mark((right + CROP_GAP, y), (right + CROP_GAP + after, y));
    }
    shapes
}
