//! The point-crawl map as a [`Drawing`]: paths as lines labelled with their
//! Difficulty and days (the players' version leaves Difficulties out),
//! stops as labelled marks (the start a square, the goal a double ring),
//! and a legend. The handouts' PDF page draws the same shapes.

use super::{Anchor, Drawing, Shape};
use crate::generators::map::Map;

/// Drawing size in points: a map fits a 7 × 7 inch square with a legend
/// strip below.
const SIDE: f64 = 504.0;
const MARGIN: f64 = 36.0;
const LEGEND: f64 = 54.0;

/// Draw a map. `players`: leave out Difficulties (for the players' copy).
pub fn draw(map: &Map, players: bool) -> Drawing {
    let scale = (SIDE - 2.0 * MARGIN) / map.size.max(1.0);
    let at = |x: f64, y: f64| (MARGIN + x * scale, MARGIN + y * scale);
    let mut shapes = paths(map, players, at);
    shapes.extend(stops(map, at));
    shapes.extend(legend(map, players));
    Drawing {
        width: SIDE,
        height: SIDE + LEGEND,
        shapes,
    }
}

/// Each path as a line (dashed from Daunting, thin from Formidable) with
/// its Difficulty and days (days only for the players).
fn paths(map: &Map, players: bool, at: impl Fn(f64, f64) -> (f64, f64)) -> Vec<Shape> {
    let mut shapes = Vec::new();
    for p in &map.paths {
        let (a, b) = (&map.stops[p.a], &map.stops[p.b]);
        let (x1, y1) = at(a.x, a.y);
        let (x2, y2) = at(b.x, b.y);
        shapes.push(Shape::Line {
            x1,
            y1,
            x2,
            y2,
            width: if p.difficulty >= 10 { 0.8 } else { 1.4 },
            dashed: p.difficulty >= 6,
        });
        let label = if players {
            format!("{}d", p.days)
        } else {
            format!("D{} · {}d", p.difficulty, p.days)
        };
        shapes.push(Shape::Text {
            x: (x1 + x2) / 2.0,
            y: (y1 + y2) / 2.0 + 3.0,
            size: 8.0,
            anchor: Anchor::Middle,
            bold: false,
            halo: true,
            text: label,
        });
    }
    shapes
}

/// Each stop as a mark (the start a square, the goal a double ring) with
/// its name underneath.
fn stops(map: &Map, at: impl Fn(f64, f64) -> (f64, f64)) -> Vec<Shape> {
    let mut shapes = Vec::new();
    for s in &map.stops {
        let (x, y) = at(s.x, s.y);
        if s.id == map.start {
            shapes.push(start_mark(x - 5.0, y - 5.0));
        } else if s.id == map.goal {
            shapes.extend(goal_mark(x, y));
        } else {
            shapes.push(Shape::Circle {
                cx: x,
                cy: y,
                r: 4.0,
                filled: false,
                width: 1.2,
            });
        }
        shapes.push(Shape::Text {
            x,
            y: y + 16.0,
            size: 9.0,
            anchor: Anchor::Middle,
            bold: s.id == map.start || s.id == map.goal,
            halo: true,
            text: s.name.clone(),
        });
    }
    shapes
}

/// The legend strip under the map: the marks, what the labels mean, the
/// scale.
fn legend(map: &Map, players: bool) -> Vec<Shape> {
    let ly = SIDE + 12.0;
    let mut shapes = vec![
        start_mark(MARGIN, ly),
        text(MARGIN + 16.0, ly + 9.0, "start"),
    ];
    shapes.extend(goal_mark(MARGIN + 85.0, ly + 5.0));
    shapes.push(text(MARGIN + 97.0, ly + 9.0, "goal"));
    let key = if players {
        "Nd: days on foot (two watches of travel a day, the third for rest)"
    } else {
        "DN · Nd: the way's Difficulty · days on foot (two watches a day)"
    };
    shapes.push(text(MARGIN + 140.0, ly + 9.0, key));
    if !players {
        shapes.push(text(
            MARGIN + 140.0,
            ly + 21.0,
            "dashed: Daunting or worse · thin: Formidable or worse",
        ));
    }
    shapes.push(text(
        MARGIN,
        ly + 36.0,
        &format!("1 region ≈ 10 km; the map is {} regions across", map.size),
    ));
    shapes
}

/// The start's mark: a black square with its top left corner at (x, y).
fn start_mark(x: f64, y: f64) -> Shape {
    Shape::Rect {
        x,
        y,
        w: 10.0,
        h: 10.0,
        filled: true,
        width: 1.0,
    }
}

/// The goal's mark: a ring around a black dot, centred on (x, y).
fn goal_mark(cx: f64, cy: f64) -> [Shape; 2] {
    [
        Shape::Circle {
            cx,
            cy,
            r: 7.0,
            filled: false,
            width: 1.2,
        },
        Shape::Circle {
            cx,
            cy,
            r: 3.5,
            filled: true,
            width: 1.0,
        },
    ]
}

fn text(x: f64, y: f64, t: &str) -> Shape {
    Shape::Text {
        x,
        y,
        size: 8.0,
        anchor: Anchor::Start,
        bold: false,
        halo: false,
        text: t.to_owned(),
    }
}
