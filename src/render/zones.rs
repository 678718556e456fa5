//! The encounter's zone diagram as a [`Drawing`]: METTLE Quick Zones as
//! three boxes side by side (left flank, the middle, right flank), or ACS
//! range bands as a centre (Close) with two to four arms of Short, Medium
//! and Long boxes. Each zone lists who starts there and the terrain tiles
//! and sporadics placed in it; whole-field tiles go in a line underneath.
//! (Only glyphs the embedded font has: no stars or emoji.)

use super::{Anchor, Drawing, Shape};
use crate::generators::encounter::Encounter;

const W: f64 = 500.0;

fn label(x: f64, y: f64, size: f64, bold: bool, text: &str) -> Shape {
    Shape::Text {
        x,
        y,
        size,
        anchor: Anchor::Middle,
        bold,
        halo: false,
        text: text.to_owned(),
    }
}

/// Names, tiles and sporadics that belong in a zone, as short lines.
fn contents(e: &Encounter, zone: &str) -> Vec<String> {
    let mut lines: Vec<String> = e
        .layout
        .zones
        .iter()
        .find(|z| z.name == zone)
        .map(|z| z.starts.clone())
        .unwrap_or_default();
    for d in &e.terrain_cards {
        for t in d.tiles.iter().filter(|t| t.at == zone) {
            lines.push(format!(
                "[{}{}]",
                t.name,
                if t.benny { ", benny" } else { "" }
            ));
        }
    }
    for s in e.sporadics.iter().filter(|s| s.at == zone) {
        lines.push(format!("({})", s.name));
    }
    lines
}

fn zone_box(
    shapes: &mut Vec<Shape>,
    x: f64,
    y: f64,
    w: f64,
    h: f64,
    title: &str,
    lines: &[String],
) {
    shapes.push(Shape::Rect {
        x,
        y,
        w,
        h,
        filled: false,
        width: 1.0,
    });
    shapes.push(label(x + w / 2.0, y + 12.0, 8.5, true, title));
    let size = if lines.len() > 6 { 6.0 } else { 7.0 };
    for (i, l) in lines
        .iter()
        .take(((h - 18.0) / (size * 1.25)) as usize)
        .enumerate()
    {
        shapes.push(label(
            x + w / 2.0,
            y + 24.0 + i as f64 * size * 1.25,
            size,
            false,
            l,
        ));
    }
}

/// Draw an encounter's zones.
pub fn draw(e: &Encounter) -> Drawing {
    let mut shapes = Vec::new();
    let height = if e.layout.kind == "quick zones" {
        quick_zones(e, &mut shapes)
    } else {
        range_bands(e, &mut shapes)
    };
    footer(e, height, &mut shapes);
    Drawing {
        width: W,
        height: height + 22.0,
        shapes,
    }
}

/// METTLE Quick Zones: three boxes side by side. Returns the height used.
fn quick_zones(e: &Encounter, shapes: &mut Vec<Shape>) -> f64 {
    let (w, h) = (150.0, 120.0);
    for (i, name) in ["Left flank", "The middle", "Right flank"]
        .iter()
        .enumerate()
    {
        let x = 10.0 + i as f64 * (w + 15.0);
        zone_box(shapes, x, 10.0, w, h, name, &contents(e, name));
    }
    150.0
}

/// ACS range bands: the centre, with each arm as a row of Short, Medium and
/// Long boxes to its right. Returns the height used.
fn range_bands(e: &Encounter, shapes: &mut Vec<Shape>) -> f64 {
    let arms: Vec<u32> = (1..=4)
        .filter(|a| {
            e.layout
                .zones
                .iter()
                .any(|z| z.name.starts_with(&format!("Arm {a}:")))
        })
        .collect();
    let row_h = 70.0;
    let total_h = row_h * arms.len() as f64;
    zone_box(
        shapes,
        10.0,
        10.0,
        110.0,
        total_h - 10.0,
        "Close (the centre)",
        &contents(e, "Close (the centre)"),
    );
    for (r, arm) in arms.iter().enumerate() {
        let y = 10.0 + r as f64 * row_h;
        for (b, band) in ["Short", "Medium (−2)", "Long (−4)"].iter().enumerate() {
            let name = format!("Arm {arm}: {band}");
            let x = 135.0 + b as f64 * 120.0;
            zone_box(
                shapes,
                x,
                y,
                110.0,
                row_h - 10.0,
                &name,
                &contents(e, &name),
            );
        }
        shapes.push(Shape::Line {
            x1: 120.0,
            y1: y + row_h / 2.0 - 5.0,
            x2: 135.0,
            y2: y + row_h / 2.0 - 5.0,
            width: 1.0,
            dashed: false,
        });
    }
    total_h + 20.0
}

/// Under the zones: the whole-field tiles, then the key.
fn footer(e: &Encounter, height: f64, shapes: &mut Vec<Shape>) {
    let field: Vec<String> = e
        .terrain_cards
        .iter()
        .flat_map(|d| {
            d.tiles
                .iter()
                .filter(|t| t.at == "whole field")
                .map(|t| t.name.clone())
        })
        .collect();
    if !field.is_empty() {
        shapes.push(Shape::Text {
            x: 10.0,
            y: height + 4.0,
            size: 8.0,
            anchor: Anchor::Start,
            bold: false,
            halo: false,
            text: format!("Whole field: {}", field.join(", ")),
        });
    }
    shapes.push(Shape::Text {
        x: 10.0,
        y: height + 16.0,
        size: 7.0,
        anchor: Anchor::Start,
        bold: false,
        halo: false,
        text: "[tile]  [tile, benny]: starts with a benny  (sporadic)".into(),
    });
}
