//! The map pages of a map of up to a dozen stops (a bigger one prints as
//! an atlas: `atlas`). The GM's: the map with its stops numbered and its paths
//! beside it (one a row: regions, days, Difficulty) over the map's legend,
//! path labels at 7 pt at least, and under both the numbered key (number,
//! name, kind, terrain, hook). The
//! players': the map with one line style and no Difficulty, then ruled
//! lines to write on.
//!
//! The map is drawn as large as leaves room for the key on the shorter
//! paper (letter); the key's height is measured with the PDF fonts.

use super::map_rows::{key_rows, path_rows};
use crate::generators::map::Map;
use crate::handouts::drawings::chart::{self, View};
use crate::handouts::markdown::Wording;
use crate::page::layout::Flow;
use crate::page::pdf::{LINE_HEIGHT, wrap};
use crate::page::{Drawing, Shape};

/// Content width on A4 (the narrower), for measuring wrapped cells.
const WIDTH: f64 = 595.28 - 72.0;
/// Type size of the key and the paths table.
const KEY_SIZE: f64 = 7.5;
/// Key columns: number, stop (with kind and terrain), hook.
const KEY_COLUMNS: [f64; 3] = [0.04, 0.28, 0.68];
/// Smallest share of its full size the GM's map may be drawn at: its path
/// labels (8 pt at full size) print at 7 pt at least; a key that does not
/// fit under it runs on to the next page.
const LEAST_SCALE: f64 = 7.0 / chart::PATH_SIZE;
/// Largest share of its full size the GM's map is drawn at across the
/// page (path labels at 10 pt).
const MOST_SCALE: f64 = 1.25;
/// Size of the players' map, as a share of its full size (its path labels
/// and legend print at 7 pt), and the ruled lines' type size (their
/// spacing follows from it).
const PLAYERS_SCALE: f64 = 7.0 / chart::PATH_SIZE;
const RULE_SIZE: f64 = 12.0;

pub(super) fn map_pages(f: &mut Flow, m: &Map, view: View, w: &Wording) {
    if super::atlas::is_atlas(m) {
        super::atlas::atlas_pages(f, m, view);
    } else if view.players {
        players_page(f, m, view, w);
    } else {
        gm_page(f, m, view, w);
    }
}

/// The GM's map with its paths beside it (one a row) and its legend under
/// the paths, the key under both (a long key flows on). The map takes the
/// width the paths leave and the height the key leaves, never so little
/// that a path label prints under 7 pt. A map too wide for that (a wide
/// region) takes the full width instead, with its paths in three columns
/// and its legend beside them under it: whichever draws it larger, and
/// always when beside its paths it would print under 7 pt.
fn gm_page(f: &mut Flow, m: &Map, view: View, w: &Wording) {
    f.section(&format!("{} · map/1", w.sheet.map));
    let key = key_rows(m, view);
    let paths = path_rows(m);
    let d = cropped(&chart::draw_bare_view(m, view));
    let legend = chart::legend_lines(m, view);
    let head = paths_head(m);
    // As wide as its widest path (the heading wraps to that), and never
    // narrower than the legend's marks set under it (a Core map's short
    // paths, `1–2 · 3 · 1 · 1:4`, would push them onto the next page).
    let paths_w = paths
        .iter()
        .map(|r| f.text_width(&r[0], KEY_SIZE, false))
        .fold(0.0, f64::max)
        .max(chart::MARKS_WIDTH)
        + 8.0;
    let gap = 12.0;
    let map_w = f.content_width() - paths_w - gap;
    let columns = path_columns(&paths);
    let legend_w = f.content_width() - 3.0 * paths_w - gap;
    let beside = |f: &mut Flow| {
        f.table(&[head], &paths, &[1.0], KEY_SIZE);
        map_legend(f, &legend, view);
    };
    let under = |f: &mut Flow| {
        f.columns_sized(
            gap,
            &[3.0 * paths_w, legend_w],
            &mut [
                &mut |f: &mut Flow| {
                    f.table(&[head; 3], &columns, &[1.0 / 3.0; 3], KEY_SIZE);
                },
                &mut |f: &mut Flow| map_legend(f, &legend, view),
            ],
        );
    };
    // The key (and what goes between it and the map) laid out on a probe
    // of this paper gives its height; the map takes the rest of the page.
    // The party's trail goes under the key: the map leaves it room, so
    // that it never runs onto a page of its own.
    let trail = trail_height(f, m, view);
    let room = f.room_left() - probed_height(f, &key, None) - 2.0 * KEY_SIZE - trail;
    let narrow = (map_w / d.width).min(room / d.height).min(1.0);
    let wide_room =
        f.room_left() - probed_height(f, &key, Some(&under)) - 2.0 * KEY_SIZE - 8.0 - trail;
    let wide = (f.content_width() / d.width)
        .min(wide_room / d.height)
        .min(MOST_SCALE);
    if map_w / d.width < LEAST_SCALE || wide > narrow * 1.05 {
        let scale = wide.max(LEAST_SCALE);
        f.drawing_scaled(&d, scale, scale);
        under(f);
    } else {
        let scale = narrow.max(LEAST_SCALE);
        f.columns_sized(
            gap,
            &[map_w, paths_w],
            &mut [
                &mut |f: &mut Flow| f.drawing_scaled(&d, scale, scale),
                &mut |f: &mut Flow| beside(f),
            ],
        );
    }
    f.table(&["#", "stop", "hook"], &key, &KEY_COLUMNS, KEY_SIZE);
    // The trail as a table when it fits under the key, else in a few
    // lines: never a page of its own for a trail's last rows.
    if let Some(r) = view.trail() {
        if trail_height(f, m, view) <= f.room_left() {
            super::atlas::trail_table(f, m, r, KEY_SIZE);
        } else if let Some(words) = trail_fitted(f, m, r) {
            f.para(&words, KEY_SIZE, false);
        }
    }
}

/// The trail's paragraph, or as many of its latest runs as fit the lines
/// left on the page (`None`: not one line left; the map draws the trail
/// and labels each stop with its sessions).
fn trail_fitted(f: &Flow, m: &Map, r: &crate::generators::map::Reveal) -> Option<String> {
    let line = crate::page::pdf::LINE_HEIGHT * KEY_SIZE;
    let lines = ((f.room_left() - KEY_SIZE * 0.4) / line).floor();
    let room = lines * f.content_width() * 0.9;
    let runs = trail_runs(m, r);
    let full = format!("The party's trail: {}.", runs.join(" · "));
    if f.text_width(&full, KEY_SIZE, false) <= room {
        return Some(full);
    }
    (1..runs.len())
        .map(|k| format!("The party's trail, latest: {}.", runs[k..].join(" · ")))
        .find(|t| f.text_width(t, KEY_SIZE, false) <= room)
}

/// The party's trail in runs, sessions spent at one stop in a row folded
/// into one: `s1 days 1–3, 1 Hobb's Cross → 2 The Whispering Adit`, `s3–5
/// days 9–18, stayed at 3 Kettlebottom Mine`.
fn trail_runs(m: &Map, r: &crate::generators::map::Reveal) -> Vec<String> {
    // (first session, last session, first day, last day, stops)
    let mut runs: Vec<(u32, u32, u32, u32, Vec<String>)> = Vec::new();
    for step in &r.trail {
        let stops = step.stop_labels(m);
        match runs.last_mut() {
            Some(last) if stops.len() == 1 && last.4 == stops => {
                last.1 = step.session;
                last.3 = step.day_end;
            }
            _ => runs.push((
                step.session,
                step.session,
                step.day_start,
                step.day_end,
                stops,
            )),
        }
    }
    runs.into_iter()
        .map(|(a, b, d0, d1, stops)| {
            let sessions = if a == b {
                format!("s{a}")
            } else {
                format!("s{a}–{b}")
            };
            let days = if d0 == d1 {
                format!("day {d1}")
            } else {
                format!("days {d0}–{d1}")
            };
            let walked = match stops.as_slice() {
                [one] => format!("stayed at {one}"),
                _ => stops.join(" → "),
            };
            format!("{sessions} {days}, {walked}")
        })
        .collect()
}

/// How tall the party's trail table sets on this paper (0 without one).
fn trail_height(f: &Flow, m: &Map, view: View) -> f64 {
    let Some(r) = view.trail() else {
        return 0.0;
    };
    let mut probe = f.probe();
    probe.new_page();
    let top = probe.y();
    super::atlas::trail_table(&mut probe, m, r, KEY_SIZE);
    probe.y() - top
}

/// The map's legend in a column: the start's and goal's marks, then what
/// a path's label and line say, and the scale.
fn map_legend(f: &mut Flow, lines: &[String], view: View) {
    f.drawing_scaled(&chart::legend_marks(f.content_width(), view), 1.0, 1.0);
    for line in lines {
        f.para(line, KEY_SIZE, false);
    }
}

/// The paths three to a row (the wide layout's table), in reading order
/// down the rows.
fn path_columns(paths: &[Vec<String>]) -> Vec<Vec<String>> {
    paths
        .chunks(3)
        .map(|row| {
            let mut cells: Vec<String> = row.iter().map(|r| r[0].clone()).collect();
            cells.resize(3, String::new());
            cells
        })
        .collect()
}

/// The paths table's heading (each column's, when in three).
/// The heading of the paths' table: the last column is the way's METTLE
/// Difficulty, or in a Core pack its chance of an encounter a watch.
fn paths_head(m: &Map) -> &'static str {
    if m.core_chances() {
        "path · regions · days · chance"
    } else {
        "path · regions · days · Difficulty"
    }
}

/// How tall the key (and `between`, when given, over it) sets on this
/// paper (measured on a probe; the estimate for the shorter paper when
/// the key takes more than a page).
fn probed_height(f: &Flow, key: &[Vec<String>], between: Option<&dyn Fn(&mut Flow)>) -> f64 {
    let mut probe = f.probe();
    probe.new_page();
    let top = probe.y();
    let mut over = 0.0;
    if let Some(between) = between {
        between(&mut probe);
        over = probe.y() - top;
    }
    probe.table(&["#", "stop", "hook"], key, &KEY_COLUMNS, KEY_SIZE);
    if probe.page_count() == 1 {
        probe.y() - top
    } else {
        over + table_height(key, &KEY_COLUMNS)
    }
}

/// The players' map, then ruled lines for their notes to the foot.
fn players_page(f: &mut Flow, m: &Map, view: View, w: &Wording) {
    f.section(&format!("{} ({}) · map/1", w.sheet.map, w.sheet.players));
    let d = cropped(&chart::draw_view(m, view));
    f.drawing(&framed(&d, PLAYERS_SCALE));
    let row = LINE_HEIGHT * RULE_SIZE + 3.0;
    // As many lines as the page has room for under the map, on either paper.
    let left = f.room_left() - row - RULE_SIZE;
    let lines = (left / row).floor().max(3.0) as usize;
    let rows = vec![vec![String::new()]; lines];
    f.table(&[w.sheet.notes.as_str()], &rows, &[1.0], RULE_SIZE);
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
    for s in &d.shapes {
        let ((l, t), (r, b)) = fonts.ink_box(s);
        lo = (lo.0.min(l), lo.1.min(t));
        hi = (hi.0.max(r), hi.1.max(b));
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
