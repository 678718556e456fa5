//! The map pages of a map of up to a dozen stops (a bigger one prints as
//! an atlas: `atlas`). The GM's: the map with its stops numbered, and under it
//! on the same page the numbered key (number, name, kind, terrain, hook),
//! then the paths compactly (two to a row: regions, days, Difficulty). The
//! players': the map with one line style and no Difficulty, then ruled
//! lines to write on.
//!
//! The map is drawn as large as leaves room for the key on the shorter
//! paper (letter); the key's height is measured with the PDF fonts.

use crate::generators::map::{Map, Path};
use crate::handouts::drawings::chart;
use crate::page::layout::Flow;
use crate::page::pdf::{LINE_HEIGHT, wrap};
use crate::page::{Drawing, Shape};

/// Height for the page's body under the section heading on letter paper
/// (792 pt less margins, footer and heading), the shorter of the two.
const BODY: f64 = 792.0 - 36.0 - 20.0 - 36.0 - (16.0 * LINE_HEIGHT + 6.0);
/// Content width on A4 (the narrower), for measuring wrapped cells.
const WIDTH: f64 = 595.28 - 72.0;
/// How much larger the flow draws a frame on letter than on A4.
const LETTER_GROWTH: f64 = 540.0 / WIDTH;
/// Type size of the key and the paths table.
const KEY_SIZE: f64 = 7.5;
/// Key columns: number, stop (with kind and terrain), hook.
const KEY_COLUMNS: [f64; 3] = [0.04, 0.28, 0.68];
/// Paths table columns, three paths a row.
const PATH_COLUMNS: [f64; 3] = [1.0 / 3.0; 3];
/// Smallest share of its full size the map may be drawn at (the flow
/// starts a new page below 0.6).
const LEAST_SCALE: f64 = 0.62;
/// Size of the players' map, as a share of its full size, and the ruled
/// lines' type size (their spacing follows from it).
const PLAYERS_SCALE: f64 = 0.84;
const RULE_SIZE: f64 = 12.0;

pub(super) fn map_pages(f: &mut Flow, m: &Map, players: bool) {
    if super::atlas::is_atlas(m) {
        super::atlas::atlas_pages(f, m, players);
    } else if players {
        players_page(f, m);
    } else {
        gm_page(f, m);
    }
}

/// The GM's map, its key and its paths on one page (long keys flow on).
fn gm_page(f: &mut Flow, m: &Map) {
    f.section("Point-crawl map · map/1");
    let key = key_rows(m);
    let paths = path_rows(m);
    let d = cropped(&chart::draw(m, false));
    // The tables laid out on a probe of this paper give their height; the
    // map takes the rest of the page (a frame drawn at `scale` comes out
    // `scale × content width / WIDTH` of its size).
    let room = f.room_left() - tables_height(f, &key, &paths) - 2.0 * KEY_SIZE;
    let grow = f.content_width() / WIDTH;
    let scale = (room / (d.height * grow)).clamp(LEAST_SCALE, 1.0);
    f.drawing(&framed(&d, scale));
    key_tables(f, &key, &paths);
}

fn key_tables(f: &mut Flow, key: &[Vec<String>], paths: &[Vec<String>]) {
    f.table(&["#", "stop", "hook"], key, &KEY_COLUMNS, KEY_SIZE);
    let head = "path · regions · days · Difficulty";
    f.table(&[head, head, head], paths, &PATH_COLUMNS, KEY_SIZE);
}

/// How tall the key and paths tables set on this paper (measured on a
/// probe; the estimate for the shorter paper when they take more than a
/// page).
fn tables_height(f: &Flow, key: &[Vec<String>], paths: &[Vec<String>]) -> f64 {
    let mut probe = f.probe();
    probe.new_page();
    let top = probe.y();
    key_tables(&mut probe, key, paths);
    if probe.page_count() == 1 {
        probe.y() - top
    } else {
        table_height(key, &KEY_COLUMNS) + table_height(paths, &PATH_COLUMNS)
    }
}

/// The players' map, then ruled lines for their notes to the foot.
fn players_page(f: &mut Flow, m: &Map) {
    f.section("Point-crawl map (players) · map/1");
    let d = cropped(&chart::draw(m, true));
    f.drawing(&framed(&d, PLAYERS_SCALE));
    let row = LINE_HEIGHT * RULE_SIZE + 3.0;
    let left = BODY - d.height * PLAYERS_SCALE * LETTER_GROWTH - 8.0 - row - RULE_SIZE;
    let lines = (left / row).floor().max(3.0) as usize;
    let rows = vec![vec![String::new()]; lines];
    f.table(&["Notes"], &rows, &[1.0], RULE_SIZE);
}

/// One key row a stop: its number, name, kind and terrain, hook.
pub(super) fn key_rows(m: &Map) -> Vec<Vec<String>> {
    m.stops
        .iter()
        .map(|s| {
            let mut name = s.name.clone();
            if s.id == m.start {
                name.push_str(" (start)");
            } else if s.id == m.goal {
                name.push_str(" (goal)");
            }
            vec![
                (s.id + 1).to_string(),
                format!("{name}\n{}, {}", s.kind, s.terrain),
                s.hook.clone(),
            ]
        })
        .collect()
}

/// The paths three to a row, each as its stops' numbers, regions, days
/// and Difficulty.
pub(super) fn path_rows(m: &Map) -> Vec<Vec<String>> {
    let cell = |p: &Path| {
        format!(
            "{}–{} · {} · {} · D{} {}",
            p.a + 1,
            p.b + 1,
            p.regions,
            p.days,
            p.difficulty,
            p.difficulty_word
        )
    };
    m.paths
        .chunks(3)
        .map(|row| {
            let mut cells: Vec<String> = row.iter().map(cell).collect();
            cells.resize(3, String::new());
            cells
        })
        .collect()
}

/// Height a [`Flow::table`] of these rows takes at [`KEY_SIZE`]: each row
/// as tall as its longest cell, plus the header and the gap after.
fn table_height(rows: &[Vec<String>], widths: &[f64]) -> f64 {
    let fonts = chart::fonts();
    let row = |cells: &[String]| {
        let lines = cells
            .iter()
            .zip(widths)
            .map(|(c, w)| wrap(fonts, c, KEY_SIZE, false, w * WIDTH - 4.0).len())
            .max()
            .unwrap_or(1)
            .max(1);
        lines as f64 * LINE_HEIGHT * KEY_SIZE + 3.0
    };
    let header = LINE_HEIGHT * KEY_SIZE + 3.0;
    header + rows.iter().map(|r| row(r)).sum::<f64>() + KEY_SIZE
}

/// The drawing cut down to what is drawn on it (with a small margin), so
/// the blank edges of the field take no room on the page.
fn cropped(d: &Drawing) -> Drawing {
    let fonts = chart::fonts();
    let (mut lo, mut hi) = ((f64::MAX, f64::MAX), (f64::MIN, f64::MIN));
    let mut take = |l: f64, t: f64, r: f64, b: f64| {
        lo = (lo.0.min(l), lo.1.min(t));
        hi = (hi.0.max(r), hi.1.max(b));
    };
    for s in &d.shapes {
        match s {
            Shape::Line { x1, y1, x2, y2, .. } => {
                take(x1.min(*x2), y1.min(*y2), x1.max(*x2), y1.max(*y2))
            }
            Shape::Circle { cx, cy, r, .. } => take(cx - r, cy - r, cx + r, cy + r),
            Shape::Rect { x, y, w, h, .. } | Shape::Tint { x, y, w, h, .. } => {
                take(*x, *y, x + w, y + h)
            }
            Shape::Text {
                x,
                y,
                size,
                anchor,
                bold,
                text,
                ..
            } => {
                let ((l, t), (bw, bh)) = fonts.halo_box(text, *size, *bold, *anchor, (*x, *y));
                take(l, t, l + bw, t + bh);
            }
        }
    }
    if lo.0 > hi.0 {
        return d.clone();
    }
    let pad = 4.0;
    Drawing {
        width: hi.0 - lo.0 + 2.0 * pad,
        height: hi.1 - lo.1 + 2.0 * pad,
        shapes: d
            .shapes
            .iter()
            .map(|s| s.placed(pad - lo.0, pad - lo.1, 1.0, true))
            .collect(),
    }
}

/// The drawing inside a wider blank frame, so that the flow (which fits a
/// drawing to the page width) draws it at `scale` of its size, centred.
fn framed(d: &Drawing, scale: f64) -> Drawing {
    let width = WIDTH.max(d.width * scale) / scale;
    let dx = (width - d.width) / 2.0;
    Drawing {
        width,
        height: d.height,
        shapes: d
            .shapes
            .iter()
            .map(|s: &Shape| s.placed(dx, 0.0, 1.0, true))
            .collect(),
    }
}
