//! The map as an atlas, for regions too big for one page (more than
//! [`ONE_PAGE`] stops): an **overview** of the whole region (stops as
//! numbered points, the detail pages' outlines and page numbers over it)
//! and **detail tiles**, each a block of grid squares drawn at a scale
//! where every label prints at [`STOP_SIZE`] or [`PATH_SIZE`] points (7 pt
//! or more) and is placed clear of every other label and every stop
//! (the same placement as the one-page map, `labels`).
//!
//! - The region is cut into grid **squares** of [`SQUARE`] regions,
//!   columns lettered from A (west) and rows numbered from 1 (north), so
//!   "C4" names one square on every page.
//! - A **tile** (one detail page) is a block of whole squares, its
//!   **core**, drawn with [`OVERLAP`] regions of its neighbours round it
//!   (tinted), so a stop near an edge is seen with its roads on both
//!   pages. The stop belongs to the page whose core holds it: that is the
//!   page the index gives.
//! - Tiles are as many squares as fit the page at the least scale
//!   ([`LEAST_SCALE`] points a region), then shared out evenly (tiles of
//!   one row or column differ by one square at most, the larger first:
//!   seven squares across three pages are 3, 2 and 2, not 3, 3 and a
//!   sliver of 1) and drawn as large as the page allows.
//! - A path that leaves a tile says where it goes at the edge: "to 57 ·
//!   p. 6", the stop at its far end and the page whose core holds it.
//!
//! [`plan`] cuts the region into squares and tiles; this file draws them.

mod plan;

use plan::column;
pub(crate) use plan::{Area, Plan};

use super::labels::{BoxPt, FALLBACK, Placed, Scene, Want};
use super::{View, around_stop, fonts, label_shapes, mark_reach};
use crate::generators::map::Map;
use crate::page::{Anchor, Drawing, Shape};

/// Maps of up to this many stops print on one page, as before the atlas.
pub(crate) const ONE_PAGE: usize = 12;
/// Side of a grid square, in regions (about 50 km).
pub(crate) const SQUARE: f64 = 5.0;
/// Regions of the neighbouring tiles drawn round a tile's core.
pub(crate) const OVERLAP: f64 = 1.5;
/// Least scale of a detail tile, points a region.
pub(crate) const LEAST_SCALE: f64 = 24.0;
/// Type sizes: stop names and path labels on the tiles, stop numbers on
/// the overview, grid references, page numbers on the overview.
pub(crate) const STOP_SIZE: f64 = 7.5;
pub(crate) const PATH_SIZE: f64 = 7.0;
pub(crate) const NUMBER_SIZE: f64 = 7.0;
const REF_SIZE: f64 = 8.0;
const PAGE_SIZE: f64 = 11.0;
/// Band along the top and left edges for the grid references, points.
const BAND: f64 = 12.0;
/// Room inside the frame round the region shown, points: a stop's mark
/// on the edge stays inside, clear of the grid references.
const PAD: f64 = 9.0;
/// Grey of the overlap band (white with the ink saver).
const OVERLAP_GREY: f64 = 0.9;

/// Detail tile `k` as `view` sees it. `page` gives the printed page
/// number of a tile. The GM's in a campaign draws the party's trail under
/// the paths, each session's last stop labelled with the session and its
/// last day ("37 Stonestead Tor · s2 d9").
pub(crate) fn tile(
    map: &Map,
    plan: &Plan,
    k: usize,
    view: View,
    page: &dyn Fn(usize) -> usize,
) -> Drawing {
    let shown = plan.shown(k);
    let core = plan.core(k);
    let s = plan.scale;
    let at = |x: f64, y: f64| {
        (
            BAND + PAD + (x - shown.x0) * s,
            BAND + PAD + (y - shown.y0) * s,
        )
    };
    let (w, h) = (
        BAND + 2.0 * PAD + (shown.x1 - shown.x0) * s,
        BAND + 2.0 * PAD + (shown.y1 - shown.y0) * s,
    );
    // The frame, in regions: the area shown and the room round it.
    let framed = Area {
        x0: shown.x0 - PAD / s,
        y0: shown.y0 - PAD / s,
        x1: shown.x1 + PAD / s,
        y1: shown.y1 + PAD / s,
    };
    let mut shapes = overlap_band(&at, framed, core);
    shapes.extend(grid(plan, &at, framed, (w, h)));
    let (c0, c1) = (at(core.x0, core.y0), at(core.x1, core.y1));
    shapes.extend(outline(c0, c1, 0.8));
    let fonts = fonts();
    let mut asked = Asked::default();
    let inside: Vec<usize> = (0..map.stops.len())
        .filter(|&i| view.shows_stop(i) && shown.holds(map.stops[i].x, map.stops[i].y))
        .collect();
    for &i in &inside {
        let c = at(map.stops[i].x, map.stops[i].y);
        asked.push(KEEP, stop_want(map, i, view, c));
    }
    let paths = tile_paths(map, plan, view, (shown, framed), &at, page, &mut asked);
    shapes.extend(paths.trail);
    for (text, from, to, seg) in paths.exits {
        asked.push(KEEP, exit_want(text, from, to, seg));
    }
    shapes.extend(paths.lines);
    let centres: Vec<(f64, f64)> = inside
        .iter()
        .map(|&i| at(map.stops[i].x, map.stops[i].y))
        .collect();
    let marks: Vec<BoxPt> = inside
        .iter()
        .zip(&centres)
        .map(|(&i, c)| BoxPt::around(c.0, c.1, mark_reach(map, i, view)))
        .collect();
    for (&i, &(x, y)) in inside.iter().zip(&centres) {
        shapes.extend(super::stop_mark(map, i, view, x, y));
    }
    let (f0, f1) = (at(framed.x0, framed.y0), at(framed.x1, framed.y1));
    let scene = Scene {
        fonts,
        marks: marks.iter().map(|m| m.grown_by(1.0)).collect(),
        segments: paths.segments,
        frame: BoxPt {
            left: f0.0 + 1.0,
            top: f0.1 + 1.0,
            right: f1.0 - 1.0,
            bottom: f1.1 - 1.0,
        },
    };
    let labels = without_clashes(scene.place_each(&asked.wants), &asked.optional, &scene);
    shapes.extend(outline(f0, f1, 0.6));
    shapes.extend(label_shapes(&labels));
    Drawing {
        width: w + 2.0,
        height: h + 2.0,
        shapes,
    }
}

/// The labels a tile asks for, in order, each with what may become of it
/// when nothing else makes room: [`KEEP`], [`CUT_PATH`] or [`WHOLE_PATH`].
#[derive(Default)]
struct Asked {
    wants: Vec<Want>,
    optional: Vec<u8>,
}

impl Asked {
    fn push(&mut self, kind: u8, want: Want) {
        self.optional.push(kind);
        self.wants.push(want);
    }
}

/// A stop's name on a tile, round its mark at `c`.
fn stop_want(map: &Map, i: usize, view: View, c: (f64, f64)) -> Want {
    let text = super::stop_text(map, i, view);
    let bold = i == map.start || i == map.goal;
    let wd = fonts().width(&text, STOP_SIZE, bold);
    Want {
        candidates: around_stop(c, mark_reach(map, i, view), wd, STOP_SIZE),
        text,
        size: STOP_SIZE,
        bold,
        own_path: None,
    }
}

/// A tile's paths, the part of each inside its frame: their segments on
/// the page, the trail beneath them, their lines, and where a path from a
/// stop of the tile leaves it (label, inner point, edge point, segment).
struct TilePaths {
    segments: Vec<((f64, f64), (f64, f64))>,
    trail: Vec<Shape>,
    lines: Vec<Shape>,
    exits: Vec<Exit>,
}

/// Where a path leaves a tile: its label, a point inside, the point on
/// the edge, its segment.
type Exit = (String, (f64, f64), (f64, f64), usize);

/// The paths of a tile showing `shown` inside `framed`; a path's label
/// goes to `asked` where the path is whole or long enough to carry it.
fn tile_paths(
    map: &Map,
    plan: &Plan,
    view: View,
    (shown, framed): (Area, Area),
    at: &impl Fn(f64, f64) -> (f64, f64),
    page: &dyn Fn(usize) -> usize,
    asked: &mut Asked,
) -> TilePaths {
    let players = view.players;
    let mut out = TilePaths {
        segments: Vec::new(),
        trail: Vec::new(),
        lines: Vec::new(),
        exits: Vec::new(),
    };
    for (n, p) in map.paths.iter().enumerate() {
        if !view.shows_path(n) {
            continue;
        }
        let (a, b) = (&map.stops[p.a], &map.stops[p.b]);
        let Some((t0, t1)) = framed.clip((a.x, a.y), (b.x, b.y)) else {
            continue;
        };
        let along = |t: f64| at(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y));
        let (pa, pb) = (along(t0), along(t1));
        let seg = out.segments.len();
        out.segments.push((pa, pb));
        if view.trail().is_some_and(|r| r.knows_path(n)) {
            out.trail.push(super::band(pa, pb, super::TRAIL_WIDTH));
        }
        out.lines.push(super::path_line(p, players, pa, pb));
        let len = ((pb.0 - pa.0).powi(2) + (pb.1 - pa.1).powi(2)).sqrt();
        let whole = t0 == 0.0 && t1 == 1.0;
        if whole || len > 40.0 {
            let text = super::path_label(p, players);
            let wd = fonts().width(&text, PATH_SIZE, false);
            let want = Want {
                candidates: super::along_path(pa, pb, wd, PATH_SIZE),
                text,
                size: PATH_SIZE,
                bold: false,
                own_path: Some(seg),
            };
            asked.push(if whole { WHOLE_PATH } else { CUT_PATH }, want);
        }
        // Where a path from a stop of this page leaves it: the stop it
        // leads to and its page. (A path only passing through, neither end
        // shown, is drawn without labels.)
        let from_here = shown.holds(a.x, a.y) || shown.holds(b.x, b.y);
        for (cut, from, to, far) in [(t0, pb, pa, p.a), (t1, pa, pb, p.b)] {
            if cut == 0.0 || cut == 1.0 || !from_here {
                continue;
            }
            let stop = &map.stops[far];
            let text = format!("to {} · p. {}", far + 1, page(plan.tile_of(stop.x, stop.y)));
            // Two paths to one stop leaving side by side: one label.
            let twin = out
                .exits
                .iter()
                .any(|(t, _, e, _)| *t == text && (e.0 - to.0).abs() + (e.1 - to.1).abs() < 40.0);
            if !twin {
                out.exits.push((text, from, to, seg));
            }
        }
    }
    out
}

/// Where a path leaves the tile, said at the edge ("to 57 · p. 6"): along
/// the last stretch before the edge, nearer the edge the better; else
/// further along the line; else round the point where it leaves.
fn exit_want(text: String, from: (f64, f64), to: (f64, f64), seg: usize) -> Want {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    let reach = len.min(70.0);
    let start = (to.0 - dx / len * reach, to.1 - dy / len * reach);
    let wd = fonts().width(&text, PATH_SIZE, false);
    let mut candidates = super::along_path(start, to, wd, PATH_SIZE);
    // Nearer the edge is better; anywhere along the line will do.
    for (i, c) in candidates.iter_mut().enumerate() {
        let d = ((c.0 - to.0).powi(2) + (c.1 - to.1).powi(2)).sqrt();
        c.2 += d * 0.5 + i as f64 * 0.01;
    }
    if len > reach + 20.0 {
        let mut further = super::along_path(from, to, wd, PATH_SIZE);
        for c in &mut further {
            c.2 += 40.0;
        }
        candidates.extend(further);
    }
    // Last resort, when every place by the line is taken: round the
    // point where it leaves, further and further out.
    candidates.extend(
        around_stop(to, 0.0, wd, PATH_SIZE)
            .into_iter()
            .map(|(x, y, c)| (x, y, c + FALLBACK)),
    );
    Want {
        candidates,
        text,
        size: PATH_SIZE,
        bold: false,
        own_path: Some(seg),
    }
}

/// Labels never dropped (stop names, "to N · p. P").
const KEEP: u8 = 0;
/// The label of a path cut by the page's edge (its other page shows it):
/// dropped first when it still overlaps something.
const CUT_PATH: u8 = 1;
/// The label of a path wholly on the page: dropped next (the GM's index
/// lists every path with its Difficulty and days).
const WHOLE_PATH: u8 = 2;

/// The placed labels (one entry a label, `None` for one without a
/// place) less the droppable ones that still overlap another label or a
/// stop (placement and its repair leave an overlap only when every place
/// is taken): first the labels of cut paths, then of whole ones, each
/// kept when what it overlaps has already gone.
fn without_clashes(placed: Vec<Option<Placed>>, optional: &[u8], scene: &Scene) -> Vec<Placed> {
    let boxes: Vec<Option<BoxPt>> = placed
        .iter()
        .map(|l| {
            l.as_ref()
                .map(|l| BoxPt::of_text(scene.fonts, &l.text, l.size, l.bold, l.x, l.y))
        })
        .collect();
    let mut keep: Vec<bool> = placed.iter().map(Option::is_some).collect();
    for level in [CUT_PATH, WHOLE_PATH] {
        for i in 0..placed.len() {
            let Some(b) = boxes[i] else { continue };
            if optional.get(i).copied().unwrap_or(KEEP) != level || !keep[i] {
                continue;
            }
            let clash = scene.marks.iter().any(|m| m.overlaps(&b))
                || (0..placed.len())
                    .any(|j| j != i && keep[j] && boxes[j].is_some_and(|o| o.overlaps(&b)));
            if clash {
                keep[i] = false;
            }
        }
    }
    placed
        .into_iter()
        .zip(keep)
        .filter_map(|(l, k)| l.filter(|_| k))
        .collect()
}

/// The overview: the whole region at one page, stops as numbered points,
/// each detail tile's core outlined with its page number.
pub(crate) fn overview(
    map: &Map,
    plan: &Plan,
    view: View,
    page: &dyn Fn(usize) -> usize,
    tiles: &[usize],
) -> Drawing {
    let s = plan.overview_scale;
    let side = plan.squares as f64 * SQUARE;
    let at = |x: f64, y: f64| (BAND + PAD + x * s, BAND + PAD + y * s);
    let all = Area {
        x0: -PAD / s,
        y0: -PAD / s,
        x1: side + PAD / s,
        y1: side + PAD / s,
    };
    let (w, h) = (BAND + 2.0 * PAD + side * s, BAND + 2.0 * PAD + side * s);
    let mut shapes = grid(plan, &at, all, (w, h));
    shapes.extend(outline(at(all.x0, all.y0), at(all.x1, all.y1), 0.6));
    let fonts = fonts();
    let centres: Vec<(f64, f64)> = map.stops.iter().map(|p| at(p.x, p.y)).collect();
    let segments = overview_roads(map, view, &centres, &mut shapes);
    let reach = |i: usize| {
        if i == map.goal {
            4.0
        } else if i == map.start {
            3.0
        } else {
            2.0
        }
    };
    let shown: Vec<usize> = (0..map.stops.len())
        .filter(|&i| view.shows_stop(i))
        .collect();
    for &i in &shown {
        let (x, y) = centres[i];
        shapes.extend(small_mark(map, i, view, x, y));
    }
    let mut wants: Vec<Want> = shown
        .iter()
        .map(|&i| {
            let text = (i + 1).to_string();
            let bold = i == map.start || i == map.goal;
            let wd = fonts.width(&text, NUMBER_SIZE, bold);
            Want {
                candidates: around_stop(centres[i], reach(i), wd, NUMBER_SIZE),
                text,
                size: NUMBER_SIZE,
                bold,
                own_path: None,
            }
        })
        .collect();
    // The tiles' cores, each with its page number inside a corner.
    for &k in tiles {
        let core = plan.core(k);
        let (a, b) = (at(core.x0, core.y0), at(core.x1, core.y1));
        shapes.extend(outline(a, b, 1.6));
        wants.push(page_number_want(format!("p. {}", page(k)), a, b));
    }
    let marks: Vec<BoxPt> = shown
        .iter()
        .map(|&i| BoxPt::around(centres[i].0, centres[i].1, reach(i)))
        .collect();
    let scene = Scene {
        fonts,
        marks: marks.iter().map(|m| m.grown_by(0.5)).collect(),
        segments,
        frame: BoxPt {
            left: BAND + 1.0,
            top: BAND + 1.0,
            right: w - 1.0,
            bottom: h - 1.0,
        },
    };
    let labels = scene.place(&wants);
    shapes.extend(label_shapes(&labels));
    Drawing {
        width: w + 2.0,
        height: h + 2.0,
        shapes,
    }
}

/// The overview's roads between stop centres, drawn thin into `shapes`
/// over the party's trail; their segments, for label placement.
fn overview_roads(
    map: &Map,
    view: View,
    centres: &[(f64, f64)],
    shapes: &mut Vec<Shape>,
) -> Vec<((f64, f64), (f64, f64))> {
    let roads: Vec<usize> = (0..map.paths.len())
        .filter(|&p| view.shows_path(p))
        .collect();
    let segments: Vec<((f64, f64), (f64, f64))> = roads
        .iter()
        .map(|&p| (centres[map.paths[p].a], centres[map.paths[p].b]))
        .collect();
    if let Some(r) = view.trail() {
        for &p in &r.travelled {
            if let Some(path) = map.paths.get(p) {
                shapes.push(super::band(
                    centres[path.a],
                    centres[path.b],
                    super::TRAIL_WIDTH * 0.6,
                ));
            }
        }
    }
    for (&p, &(a, b)) in roads.iter().zip(&segments) {
        let mut line = super::path_line(&map.paths[p], view.players, a, b);
        if let Shape::Line { width, .. } = &mut line {
            *width *= 0.6;
        }
        shapes.push(line);
    }
    segments
}

/// A tile's page number on the overview, inside a corner of its core
/// (`a` top left, `b` bottom right), further in where the corners are
/// taken.
fn page_number_want(text: String, a: (f64, f64), b: (f64, f64)) -> Want {
    let wd = fonts().width(&text, PAGE_SIZE, true);
    let (hw, hh) = (wd / 2.0 + 4.0, PAGE_SIZE * 0.55 + 3.0);
    let mut candidates = Vec::new();
    for step in 0..6 {
        let inset = step as f64 * 6.0;
        for (cx, cy) in [
            (a.0 + hw + inset, a.1 + hh + inset),
            (b.0 - hw - inset, a.1 + hh + inset),
            (a.0 + hw + inset, b.1 - hh - inset),
            (b.0 - hw - inset, b.1 - hh - inset),
        ] {
            candidates.push((cx, cy + 0.275 * PAGE_SIZE, step as f64 * 10.0));
        }
    }
    Want {
        candidates,
        text,
        size: PAGE_SIZE,
        bold: true,
        own_path: None,
    }
}

/// A stop's mark on the overview: the start a small black square, the
/// goal a ring round a dot, the rest a dot; a stop only heard of (the
/// players' in a campaign) a small ring.
fn small_mark(map: &Map, i: usize, view: View, x: f64, y: f64) -> Vec<Shape> {
    if i == map.start {
        vec![Shape::Rect {
            x: x - 3.0,
            y: y - 3.0,
            w: 6.0,
            h: 6.0,
            filled: true,
            width: 0.5,
        }]
    } else if i == map.goal {
        vec![
            Shape::Circle {
                cx: x,
                cy: y,
                r: 3.5,
                filled: false,
                width: 0.8,
            },
            Shape::Circle {
                cx: x,
                cy: y,
                r: 1.6,
                filled: true,
                width: 0.5,
            },
        ]
    } else if view.heard(i) {
        vec![Shape::Circle {
            cx: x,
            cy: y,
            r: 1.8,
            filled: false,
            width: 0.5,
        }]
    } else {
        vec![Shape::Circle {
            cx: x,
            cy: y,
            r: 1.6,
            filled: true,
            width: 0.5,
        }]
    }
}

/// The tinted band round a tile's core: the neighbours' overlap.
fn overlap_band(at: &impl Fn(f64, f64) -> (f64, f64), shown: Area, core: Area) -> Vec<Shape> {
    let (s0, s1) = (at(shown.x0, shown.y0), at(shown.x1, shown.y1));
    let (c0, c1) = (at(core.x0, core.y0), at(core.x1, core.y1));
    let mut out = Vec::new();
    let mut tint = |x0: f64, y0: f64, x1: f64, y1: f64| {
        if x1 - x0 > 0.01 && y1 - y0 > 0.01 {
            out.push(Shape::Tint {
                x: x0,
                y: y0,
                w: x1 - x0,
                h: y1 - y0,
                grey: OVERLAP_GREY,
            });
        }
    };
    tint(s0.0, s0.1, s1.0, c0.1);
    tint(s0.0, c1.1, s1.0, s1.1);
    tint(s0.0, c0.1, c0.0, c1.1);
    tint(c1.0, c0.1, s1.0, c1.1);
    out
}

/// Grid lines over `area` and the squares' references in the bands
/// along its top and left edges.
fn grid(
    plan: &Plan,
    at: &impl Fn(f64, f64) -> (f64, f64),
    area: Area,
    (w, h): (f64, f64),
) -> Vec<Shape> {
    let mut out = Vec::new();
    let (a, b) = (at(area.x0, area.y0), at(area.x1, area.y1));
    for i in 0..=plan.squares {
        let v = i as f64 * SQUARE;
        if v > area.x0 && v < area.x1 {
            let x = at(v, 0.0).0;
            out.push(thin(x, a.1, x, b.1));
        }
        if v > area.y0 && v < area.y1 {
            let y = at(0.0, v).1;
            out.push(thin(a.0, y, b.0, y));
        }
    }
    for i in 0..plan.squares {
        let (lo, hi) = (i as f64 * SQUARE, (i + 1) as f64 * SQUARE);
        // A reference for each square more than half shown.
        let mid = |l: f64, h: f64| (l.max(lo) + h.min(hi)) / 2.0;
        if area.x1.min(hi) - area.x0.max(lo) >= SQUARE / 2.0 {
            let x = at(mid(area.x0, area.x1), 0.0).0;
            out.push(reference(x, BAND - 3.0, &column(i), Anchor::Middle));
        }
        if area.y1.min(hi) - area.y0.max(lo) >= SQUARE / 2.0 {
            let y = at(0.0, mid(area.y0, area.y1)).1 + REF_SIZE * 0.35;
            out.push(reference(BAND - 3.0, y, &(i + 1).to_string(), Anchor::End));
        }
    }
    let _ = (w, h);
    out
}

/// A rectangle's outline as four lines (an unfilled [`Shape::Rect`] is
/// painted white inside, over what lies beneath).
fn outline(a: (f64, f64), b: (f64, f64), width: f64) -> [Shape; 4] {
    let line = |x1: f64, y1: f64, x2: f64, y2: f64| Shape::line((x1, y1), (x2, y2), width, false);
    [
        line(a.0, a.1, b.0, a.1),
        line(b.0, a.1, b.0, b.1),
        line(b.0, b.1, a.0, b.1),
        line(a.0, b.1, a.0, a.1),
    ]
}

fn thin(x1: f64, y1: f64, x2: f64, y2: f64) -> Shape {
    Shape::line((x1, y1), (x2, y2), 0.3, true)
}

fn reference(x: f64, y: f64, text: &str, anchor: Anchor) -> Shape {
    Shape::Text {
        x,
        y,
        size: REF_SIZE,
        anchor,
        bold: true,
        halo: false,
        text: text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seven squares across three pages are 3, 2 and 2 (not 3, 3 and a
    /// page for a sliver of 1), and every square's tile is the one whose
    /// core holds it.
    #[test]
    fn squares_are_shared_out_evenly_and_each_lies_in_its_tiles_core() {
        let plan = Plan {
            squares: 7,
            per_tile: (3, 4),
            tiles: (3, 2),
            scale: LEAST_SCALE,
            overview_scale: 1.0,
        };
        let across: Vec<f64> = (0..3)
            .map(|k| (plan.core(k).x1 - plan.core(k).x0) / SQUARE)
            .collect();
        assert_eq!(across, [3.0, 2.0, 2.0]);
        let down: Vec<f64> = [0, 3]
            .map(|k| (plan.core(k).y1 - plan.core(k).y0) / SQUARE)
            .to_vec();
        assert_eq!(down, [4.0, 3.0]);
        for sx in 0..7 {
            for sy in 0..7 {
                let (x, y) = ((sx as f64 + 0.5) * SQUARE, (sy as f64 + 0.5) * SQUARE);
                let k = plan.tile_of(x, y);
                assert!(plan.core(k).holds(x, y), "square {sx},{sy} in tile {k}");
            }
        }
        assert_eq!(plan.squares_of(1), "D1–E4");
        assert_eq!(plan.squares_of(5), "F5–G7");
    }
}
