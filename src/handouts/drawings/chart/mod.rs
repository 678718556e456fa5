//! The point-crawl map as a [`Drawing`]: paths as lines labelled with their
//! Difficulty and days (the players' version: days only, and one line style
//! for every path so nothing gives a Difficulty away), stops as numbered,
//! labelled marks (the start a square, the goal a double ring), and a
//! legend. The handouts' PDF page draws the same shapes; the SVG writes them.
//!
//! - `atlas`: a region too big for one page as an overview and detail
//!   tiles with grid references.
//! - `geom`: the part of a segment inside a box, for the atlas and the
//!   labels.
//! - `labels`: where each label goes — candidate positions scored against
//!   the marks, the lines and the labels already placed, measured with the
//!   PDF font's real glyph advances.
//!
//! Stops are numbered from 1 on the drawing, as in the GM's key and the
//! Markdown.

use std::sync::OnceLock;

use crate::generators::map::{Map, Reveal};
use crate::page::pdf::Fonts;
use crate::page::{Anchor, Drawing, Shape};

pub(crate) mod atlas;
mod geom;
pub(crate) mod labels;

use labels::{BoxPt, Placed, Scene, Want};

/// Whose map a drawing is, and what it may show: the GM's (everything,
/// and in a campaign the party's trail over it) or the players' (no
/// Difficulty; in a campaign only the stops the party has visited or
/// heard of and the paths it has travelled).
#[derive(Debug, Clone, Copy)]
pub struct View<'a> {
    pub players: bool,
    /// A campaign's reveal (`None` outside a campaign: all is shown).
    pub reveal: Option<&'a Reveal>,
}

impl<'a> View<'a> {
    /// Outside a campaign.
    pub fn plain(players: bool) -> View<'static> {
        View {
            players,
            reveal: None,
        }
    }

    /// Whether stop `i` is drawn.
    pub fn shows_stop(&self, i: usize) -> bool {
        !self.players || self.reveal.is_none_or(|r| r.knows_stop(i))
    }

    /// Whether path `p` is drawn.
    pub fn shows_path(&self, p: usize) -> bool {
        !self.players || self.reveal.is_none_or(|r| r.knows_path(p))
    }

    /// Whether stop `i` is drawn as heard of, not visited (the players'
    /// map in a campaign).
    pub fn heard(&self, i: usize) -> bool {
        self.players && self.reveal.is_some_and(|r| !r.visited(i))
    }

    /// The trail to draw (the GM's map in a campaign).
    pub fn trail(&self) -> Option<&'a Reveal> {
        self.reveal.filter(|_| !self.players)
    }
}

/// Grey and width of the party's trail on the GM's map: a highlighter's
/// band under the paths travelled.
pub const TRAIL_GREY: f64 = 0.72;
pub const TRAIL_WIDTH: f64 = 6.0;

/// Drawing size in points: a map fits a 7 × 7 inch square with a legend
/// strip below.
pub const SIDE: f64 = 504.0;
const MARGIN: f64 = 36.0;
const LEGEND: f64 = 54.0;
/// Type sizes of stop and path labels.
pub const STOP_SIZE: f64 = 9.0;
pub const PATH_SIZE: f64 = 8.0;
/// Line width of every path on the players' map.
const PLAIN_WIDTH: f64 = 1.2;

/// The fonts the labels are measured with (the PDF's own), parsed once.
pub fn fonts() -> &'static Fonts {
    static FONTS: OnceLock<Fonts> = OnceLock::new();
    FONTS.get_or_init(Fonts::load)
}

/// Draw a map. `players`: leave out Difficulties (for the players' copy).
/// A region wider than a 40-stop map's is drawn larger, at that map's
/// scale, so the whole of it fits one SVG with labels as big.
pub fn draw(map: &Map, players: bool) -> Drawing {
    draw_view(map, View::plain(players))
}

/// Draw a map as `view` sees it, with its legend.
pub fn draw_view(map: &Map, view: View) -> Drawing {
    let mut d = draw_bare_view(map, view);
    d.shapes.extend(legend(map, view));
    d.height += LEGEND;
    d
}

/// The map without its legend strip (the GM's page sets the legend
/// beside it, under the paths: [`legend_marks`] and [`legend_lines`]).
pub fn draw_bare_view(map: &Map, view: View) -> Drawing {
    let at = place_fn(map);
    let mut shapes = trail_bands(map, view, &at, TRAIL_WIDTH);
    shapes.extend(path_lines(map, view, &at));
    shapes.extend(stop_marks(map, view, &at));
    shapes.extend(label_shapes(&labels_view(map, view)));
    let side = side(map);
    Drawing {
        width: side,
        height: side,
        shapes,
    }
}

/// The party's trail (the GM's map in a campaign): a grey band under each
/// path travelled, `width` wide.
fn trail_bands(
    map: &Map,
    view: View,
    at: &impl Fn(f64, f64) -> (f64, f64),
    width: f64,
) -> Vec<Shape> {
    let Some(r) = view.trail() else {
        return Vec::new();
    };
    r.travelled
        .iter()
        .filter_map(|&p| map.paths.get(p))
        .map(|p| {
            let (a, b) = (&map.stops[p.a], &map.stops[p.b]);
            band(at(a.x, a.y), at(b.x, b.y), width)
        })
        .collect()
}

/// The trail's band from `a` to `b`.
fn band(a: (f64, f64), b: (f64, f64), width: f64) -> Shape {
    Shape::band(a, b, width, TRAIL_GREY)
}

/// Widest field drawn at [`SIDE`]: a map of 40 stops.
const SIDE_FIELD: f64 = 20.0;

/// The drawing's side: [`SIDE`], or more for a region wider than
/// [`SIDE_FIELD`] regions.
fn side(map: &Map) -> f64 {
    let per_region = (SIDE - 2.0 * MARGIN) / SIDE_FIELD;
    SIDE.max(2.0 * MARGIN + map.size * per_region)
}

/// Map coordinates (regions) to drawing points.
fn place_fn(map: &Map) -> impl Fn(f64, f64) -> (f64, f64) {
    let scale = (side(map) - 2.0 * MARGIN) / map.size.max(1.0);
    move |x: f64, y: f64| (MARGIN + x * scale, MARGIN + y * scale)
}

/// A stop's label: its number (from 1) and name.
pub fn stop_label(map: &Map, stop: usize) -> String {
    format!("{} {}", stop + 1, map.stops[stop].name)
}

/// A stop's label as `view` shows it: on the GM's map in a campaign, a
/// stop where sessions ended says which and on what day ("37 Stonestead
/// Tor · s2 d9", "4 Brinewell · s1 d5, s3 d12").
pub fn stop_text(map: &Map, stop: usize, view: View) -> String {
    let label = stop_label(map, stop);
    let Some(r) = view.trail() else {
        return label;
    };
    let ends: Vec<String> = r
        .trail
        .iter()
        .filter(|step| step.stops.last() == Some(&stop))
        .map(|step| format!("s{} d{}", step.session, step.day_end))
        .collect();
    if ends.is_empty() {
        label
    } else {
        format!("{label} · {}", ends.join(", "))
    }
}

/// A path's label: its danger (METTLE Difficulty or Core chance) and days
/// for the GM, days for the players.
fn path_label(p: &crate::generators::map::Path, players: bool) -> String {
    if players {
        format!("{}d", p.days)
    } else {
        format!("{} · {}d", p.danger_label(), p.days)
    }
}

/// How far a stop's mark reaches from its centre (outline included).
pub fn mark_reach(map: &Map, stop: usize, view: View) -> f64 {
    if stop == map.goal {
        7.6
    } else if stop == map.start {
        5.5
    } else if view.heard(stop) {
        HEARD_R + 0.6
    } else {
        4.6
    }
}

/// Every label placed: stops first, then paths.
pub fn labels(map: &Map, players: bool) -> Vec<Placed> {
    labels_view(map, View::plain(players))
}

/// Every label `view` shows placed: stops first, then paths.
pub fn labels_view(map: &Map, view: View) -> Vec<Placed> {
    let players = view.players;
    let at = place_fn(map);
    let shown: Vec<usize> = (0..map.stops.len())
        .filter(|&i| view.shows_stop(i))
        .collect();
    let roads: Vec<usize> = (0..map.paths.len())
        .filter(|&p| view.shows_path(p))
        .collect();
    let fonts = fonts();
    let centres: Vec<(f64, f64)> = map.stops.iter().map(|s| at(s.x, s.y)).collect();
    let scene = Scene {
        fonts,
        marks: shown
            .iter()
            .map(|&i| BoxPt::around(centres[i].0, centres[i].1, mark_reach(map, i, view) + 1.0))
            .collect(),
        segments: roads
            .iter()
            .map(|&p| (centres[map.paths[p].a], centres[map.paths[p].b]))
            .collect(),
        frame: BoxPt {
            left: 2.0,
            top: 2.0,
            right: side(map) - 2.0,
            bottom: side(map) - 2.0,
        },
    };
    let mut wants: Vec<Want> = shown
        .iter()
        .map(|&i| {
            let text = stop_text(map, i, view);
            let bold = i == map.start || i == map.goal;
            let w = fonts.width(&text, STOP_SIZE, bold);
            Want {
                candidates: around_stop(centres[i], mark_reach(map, i, view), w, STOP_SIZE),
                text,
                size: STOP_SIZE,
                bold,
                own_path: None,
            }
        })
        .collect();
    for (i, &k) in roads.iter().enumerate() {
        let p = &map.paths[k];
        let text = path_label(p, players);
        let w = fonts.width(&text, PATH_SIZE, false);
        wants.push(Want {
            candidates: along_path(centres[p.a], centres[p.b], w, PATH_SIZE),
            text,
            size: PATH_SIZE,
            bold: false,
            own_path: Some(i),
        });
    }
    scene.place(&wants)
}

/// The baseline of a text of `size` whose box is centred at `cy`.
fn baseline(cy: f64, size: f64) -> f64 {
    // The halo box runs from 0.8 size above the baseline to 0.25 below.
    cy + 0.275 * size
}

/// Candidates around a stop's mark: eight directions (below, above,
/// right, left, then the corners) in rings further and further out.
fn around_stop((x, y): (f64, f64), reach: f64, w: f64, size: f64) -> Vec<(f64, f64, f64)> {
    let h = 1.05 * size;
    let dirs: [(f64, f64); 8] = [
        (0.0, 1.0),
        (0.0, -1.0),
        (1.0, 0.0),
        (-1.0, 0.0),
        (1.0, 1.0),
        (1.0, -1.0),
        (-1.0, 1.0),
        (-1.0, -1.0),
    ];
    let rings = [
        (2.0, 0.0),
        (6.0, 12.0),
        (12.0, 30.0),
        (20.0, 60.0),
        (32.0, 100.0),
    ];
    let mut out = Vec::with_capacity(dirs.len() * (rings.len() + FAR_RINGS.len()));
    for (ring, cost) in rings.into_iter().chain(FAR_RINGS) {
        for (k, &(ux, uy)) in dirs.iter().enumerate() {
            // Diagonals tuck the box's corner in towards the mark.
            let r = if ux != 0.0 && uy != 0.0 {
                reach * 0.7
            } else {
                reach
            };
            let cx = x + ux * (r + ring + w / 2.0);
            let cy = y + uy * (r + ring + h / 2.0);
            out.push((cx, baseline(cy, size), cost + k as f64));
        }
    }
    out
}

/// Candidates along a path: at several points out from the middle, on
/// the line (its halo over it) or just beside it on either side.
fn along_path(a: (f64, f64), b: (f64, f64), w: f64, size: f64) -> Vec<(f64, f64, f64)> {
    let h = 1.05 * size;
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    let (nx, ny) = (-dy / len, dx / len);
    let beside = nx.abs() * w / 2.0 + ny.abs() * h / 2.0 + 2.0;
    // Points along the line, out from the middle, each with its cost.
    let points = [0.5, 0.42, 0.58, 0.34, 0.66, 0.26, 0.74, 0.18, 0.82]
        .map(|t: f64| (a.0 + t * dx, a.1 + t * dy, (t - 0.5).abs() * 40.0));
    // A point moved `by` across the line (either side), as a candidate.
    let across = |(px, py, _): (f64, f64, f64), by: f64| {
        [1.0, -1.0].map(|side| (px + nx * side * by, baseline(py + ny * side * by, size)))
    };
    let mut out = Vec::new();
    for p in points {
        out.push((p.0, baseline(p.1, size), p.2));
        out.extend(across(p, beside).map(|(x, y)| (x, y, p.2 + 6.0)));
    }
    // Further out from the line, for a short path crowded by stops: taken
    // only when every nearer place breaks a must-not rule.
    for (lines_out, far) in [
        (1.0, FAR),
        (2.0, FAR * 1.5),
        (3.0, FAR * 2.0),
        (4.0, FAR * 2.5),
    ] {
        for p in points {
            out.extend(across(p, beside + lines_out * h).map(|(x, y)| (x, y, far + p.2)));
        }
    }
    out
}

/// Preference cost of the far candidates: a fallback (see
/// [`labels::FALLBACK`]), so maps whose labels fit nearer are drawn as
/// before.
const FAR: f64 = labels::FALLBACK;

/// Rings around a stop further out than the usual five, at [`FAR`] cost.
const FAR_RINGS: [(f64, f64); 2] = [(46.0, FAR), (62.0, FAR * 1.5)];

/// The placed labels as haloed texts, centred on their anchor.
fn label_shapes(placed: &[Placed]) -> Vec<Shape> {
    placed
        .iter()
        .map(|l| Shape::Text {
            x: l.x,
            y: l.y,
            size: l.size,
            anchor: Anchor::Middle,
            bold: l.bold,
            halo: true,
            text: l.text.clone(),
        })
        .collect()
}

/// Each path as a line: for the GM dashed from Daunting (Core: a 1:4
/// chance) and thin from Formidable (1:3); for the players all alike.
fn path_lines(map: &Map, view: View, at: &impl Fn(f64, f64) -> (f64, f64)) -> Vec<Shape> {
    map.paths
        .iter()
        .enumerate()
        .filter(|&(k, _)| view.shows_path(k))
        .map(|(_, p)| {
            let (a, b) = (&map.stops[p.a], &map.stops[p.b]);
            path_line(p, view.players, at(a.x, a.y), at(b.x, b.y))
        })
        .collect()
}

/// One path's line from `a` to `b` (points), in its style.
fn path_line(
    p: &crate::generators::map::Path,
    players: bool,
    (x1, y1): (f64, f64),
    (x2, y2): (f64, f64),
) -> Shape {
    let (width, dashed) = match (players, p.danger_marks()) {
        (true, _) => (PLAIN_WIDTH, false),
        (false, (dashed, thin)) => (if thin { 0.8 } else { 1.4 }, dashed),
    };
    Shape::line((x1, y1), (x2, y2), width, dashed)
}

/// Each stop's mark: the start a square, the goal a double ring, the rest
/// a ring; on the players' map in a campaign a stop only heard of a small
/// thin ring. (In a campaign's pack the start is the party's stop and the
/// goal where it is going.)
fn stop_marks(map: &Map, view: View, at: &impl Fn(f64, f64) -> (f64, f64)) -> Vec<Shape> {
    let mut shapes = Vec::new();
    for s in map.stops.iter().filter(|s| view.shows_stop(s.id)) {
        let (x, y) = at(s.x, s.y);
        shapes.extend(stop_mark(map, s.id, view, x, y));
    }
    shapes
}

/// Radius of the mark of a stop heard of, not visited.
const HEARD_R: f64 = 2.6;

/// Stop `i`'s mark centred on (`x`, `y`).
fn stop_mark(map: &Map, i: usize, view: View, x: f64, y: f64) -> Vec<Shape> {
    if i == map.start {
        vec![start_mark(x - 5.0, y - 5.0)]
    } else if i == map.goal {
        goal_mark(x, y).to_vec()
    } else if view.heard(i) {
        vec![Shape::Circle {
            cx: x,
            cy: y,
            r: HEARD_R,
            filled: false,
            width: 0.6,
        }]
    } else {
        vec![Shape::Circle {
            cx: x,
            cy: y,
            r: 4.0,
            filled: false,
            width: 1.2,
        }]
    }
}

/// The legend strip under the map: the marks, what the labels mean, the
/// scale.
fn legend(map: &Map, view: View) -> Vec<Shape> {
    let ly = side(map) + 12.0;
    let mut shapes = vec![
        start_mark(MARGIN, ly),
        text(MARGIN + 16.0, ly + 9.0, mark_words(view)[0]),
    ];
    shapes.extend(goal_mark(MARGIN + 85.0, ly + 5.0));
    shapes.push(text(MARGIN + 97.0, ly + 9.0, mark_words(view)[1]));
    let [key, second, scale] = legend_lines(map, view);
    shapes.push(text(MARGIN + 140.0, ly + 9.0, &key));
    shapes.push(text(MARGIN + 140.0, ly + 21.0, &second));
    shapes.push(text(MARGIN, ly + 36.0, &scale));
    shapes
}

/// The least width of [`legend_marks`]: the start's and the goal's marks
/// with their words.
pub const MARKS_WIDTH: f64 = 100.0;

/// The legend's marks alone, `width` wide and left-aligned: the start's
/// square and the goal's ring, each with its word.
pub fn legend_marks(width: f64, view: View) -> Drawing {
    let [start, goal] = mark_words(view);
    let mut shapes = vec![start_mark(1.0, 2.0), text(15.0, 11.0, start)];
    shapes.extend(goal_mark(60.0, 7.0));
    shapes.push(text(71.0, 11.0, goal));
    Drawing {
        width: width.max(MARKS_WIDTH),
        height: 16.0,
        shapes,
    }
}

/// The words beside the start's and the goal's marks: in a campaign's
/// pack the map's start is the party's stop and its goal where the plan
/// sends it.
pub fn mark_words(view: View) -> [&'static str; 2] {
    match view.reveal {
        Some(_) => ["party", "going to"],
        None => ["start", "goal"],
    }
}

/// The legend's words: what a path's label says, what its line says, and
/// the scale.
pub fn legend_lines(map: &Map, view: View) -> [String; 3] {
    let players = view.players;
    let core = map.core_chances();
    let key = match (players, core) {
        (true, _) => "Nd: days on foot (two watches of travel a day, the third for rest)",
        (false, false) => "DN · Nd: the way's Difficulty · days on foot (two watches a day)",
        (false, true) => {
            "x:y · Nd: chance of an encounter a watch · days on foot (two watches a day)"
        }
    };
    let second = match (players, view.reveal.is_some(), core) {
        (true, false, _) => "stops are numbered: name them by number in your notes",
        (true, true, _) => "small ring: heard of, not visited · only roads travelled are drawn",
        (false, false, false) => "dashed: Daunting or worse · thin: Formidable or worse",
        (false, false, true) => "dashed: 1:4 or likelier · thin: 1:3 or likelier",
        (false, true, false) => {
            "dashed: Daunting+ · thin: Formidable+ · grey: trail, \"s2 d9\": session 2's end"
        }
        (false, true, true) => {
            "dashed: 1:4+ · thin: 1:3+ · grey: trail, \"s2 d9\": session 2's end"
        }
    };
    [
        key.to_owned(),
        second.to_owned(),
        format!("1 region ≈ 10 km; the map is {} regions across", map.size),
    ]
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::map::Request;
    use crate::generators::nth;
    use crate::seed::Seed;

    /// The box of every haloed text in a drawing (the labels; the legend
    /// has no halo), measured from the font's real advances.
    fn label_boxes(d: &Drawing) -> Vec<(String, BoxPt)> {
        d.shapes
            .iter()
            .filter_map(|s| match s {
                Shape::Text {
                    x,
                    y,
                    size,
                    anchor,
                    bold,
                    halo: true,
                    text,
                } => {
                    let ((l, t), (bw, bh)) =
                        fonts().halo_box(text, *size, *bold, *anchor, (*x, *y));
                    let b = BoxPt {
                        left: l,
                        top: t,
                        right: l + bw,
                        bottom: t + bh,
                    };
                    Some((text.clone(), b))
                }
                _ => None,
            })
            .collect()
    }

    /// Issue 13: over 50 seeds and six sizes of map (10 to 40 stops), GM's
    /// and players', no label overlaps another label or a stop's mark; and
    /// labels keep off path lines nearly always (counted, held to a loose
    /// bound: 1 in 20 up to 20 stops, 1 in 10 on the crowded maps of 30-40).
    #[test]
    fn labels_overlap_no_label_and_no_stop() {
        let library = crate::content::test_library();
        // Labels and labels over others' lines: up to 20 stops, and more.
        let (mut labels, mut on_lines) = ([0; 2], [0; 2]);
        let mut bad = Vec::new();
        for i in 0..50 {
            let seed = Seed::new(&format!("labels-{i}")).unwrap();
            for stops in [10, 12, 20, 30, 35, 40] {
                let req = Request {
                    stops,
                    terrains: Vec::new(),
                };
                let m = nth(&library, &req, &seed, 0).unwrap();
                let at = place_fn(&m);
                let marks: Vec<BoxPt> = (0..m.stops.len())
                    .map(|s| {
                        let (x, y) = at(m.stops[s].x, m.stops[s].y);
                        BoxPt::around(x, y, mark_reach(&m, s, View::plain(false)))
                    })
                    .collect();
                let lines: Vec<((f64, f64), (f64, f64))> = m
                    .paths
                    .iter()
                    .map(|p| {
                        let (a, b) = (&m.stops[p.a], &m.stops[p.b]);
                        (at(a.x, a.y), at(b.x, b.y))
                    })
                    .collect();
                for players in [false, true] {
                    let boxes = label_boxes(&draw(&m, players));
                    assert_eq!(boxes.len(), m.stops.len() + m.paths.len());
                    for (k, (t, b)) in boxes.iter().enumerate() {
                        for (u, c) in &boxes[k + 1..] {
                            if b.overlaps(c) {
                                bad.push(format!("seed {i}, {stops}: `{t}` on `{u}`"));
                            }
                        }
                        for (s, mark) in marks.iter().enumerate() {
                            if b.overlaps(mark) {
                                bad.push(format!("seed {i}, {stops}: `{t}` on stop {s}"));
                            }
                        }
                        assert!(b.left >= 0.0 && b.right <= SIDE && b.top >= 0.0);
                        // A path's label may sit on its own line: count
                        // lines under a label beyond one for path labels.
                        let under = lines.iter().filter(|l| b.clip_length(l.0, l.1) > 0.0);
                        let own = usize::from(k >= m.stops.len());
                        let crowded = usize::from(stops > 20);
                        labels[crowded] += 1;
                        if under.count() > own {
                            on_lines[crowded] += 1;
                        }
                    }
                }
            }
        }
        eprintln!("{on_lines:?} of {labels:?} labels lie over a line not their own");
        assert!(bad.is_empty(), "{} overlaps: {bad:#?}", bad.len());
        assert!(on_lines[0] * 20 < labels[0], "{on_lines:?} of {labels:?}");
        assert!(on_lines[1] * 10 < labels[1], "{on_lines:?} of {labels:?}");
    }
}
