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
    for s in &map.stops {
        let (x, y) = at(s.x, s.y);
        if s.id == map.start {
            shapes.push(Shape::Rect {
                x: x - 5.0,
                y: y - 5.0,
                w: 10.0,
                h: 10.0,
                filled: true,
                width: 1.0,
            });
        } else if s.id == map.goal {
            shapes.push(Shape::Circle {
                cx: x,
                cy: y,
                r: 7.0,
                filled: false,
                width: 1.2,
            });
            shapes.push(Shape::Circle {
                cx: x,
                cy: y,
                r: 3.5,
                filled: true,
                width: 1.0,
            });
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
    // Legend.
    let ly = SIDE + 12.0;
    shapes.push(Shape::Rect {
        x: MARGIN,
        y: ly,
        w: 10.0,
        h: 10.0,
        filled: true,
        width: 1.0,
    });
    shapes.push(text(MARGIN + 16.0, ly + 9.0, "start"));
    shapes.push(Shape::Circle {
        cx: MARGIN + 85.0,
        cy: ly + 5.0,
        r: 7.0,
        filled: false,
        width: 1.2,
    });
    shapes.push(Shape::Circle {
        cx: MARGIN + 85.0,
        cy: ly + 5.0,
        r: 3.5,
        filled: true,
        width: 1.0,
    });
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
    Drawing {
        width: SIDE,
        height: SIDE + LEGEND,
        shapes,
    }
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
