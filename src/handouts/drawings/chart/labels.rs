//! Where the map's labels go. Each stop's name and each path's label is
//! tried at a set of candidate positions — around the stop's mark in
//! rings of eight directions, along the path at several points, on the
//! line or beside it — and the best candidate is kept. Labels are placed
//! one at a time (stops first, in stop order, then paths in path order),
//! each scored against what is already placed:
//!
//! - **must not**: overlap another label or a stop's mark, or leave the
//!   drawing's map area (each costs [`HARD`], so a candidate that breaks one
//!   is taken only when every candidate does);
//! - **should not**: cross path lines (other paths only, for a path's own
//!   label), costed by how much line runs under the label;
//! - **prefers**: the near ring, and the order of the candidates.
//!
//! Text boxes are measured with the PDF's real glyph advances
//! ([`Fonts::width`]) and are the box the halo paints white
//! ([`Fonts::halo_box`]); the SVG sets the same sizes. No randomness: ties go to
//! the earlier candidate.
//!
//! Speed (issue 30: a 300-stop region and its atlas in well under a
//! second): nothing above is scanned whole for each candidate. A grid of
//! cells ([`Grid`]) files the marks and path lines by the cells they
//! cover, so a candidate is tested only against those filed under its own
//! cells; each label's hull (the box round all its candidates) says
//! whether a placed label can block any of them; and each label's count
//! of free candidates is kept as labels are placed rather than counted
//! again. These only leave out what cannot count, and every cost is added
//! up in the same order as by scanning everything (lines in path order,
//! labels in label order), so the choices, to the last bit, are the same.

use super::geom;
use crate::page::pdf::Fonts;
use crate::page::{Anchor, halo_box, text_left};

/// Cost of breaking a must-not rule.
const HARD: f64 = 1_000_000.0;
/// Preference cost from which a candidate is a fallback: placed far from
/// its stop or path, taken only when every nearer place breaks a must-not
/// rule (or would leave another label none).
pub(crate) const FALLBACK: f64 = 100_000.0;
/// Cost per point of path line under a label, and per path crossed.
const LINE_LENGTH: f64 = 4.0;
const LINE_CROSSED: f64 = 60.0;
/// Room kept free between two labels, in points.
const PAD: f64 = 1.0;

/// An axis-aligned box: left, top, right, bottom (y down).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct BoxPt {
    pub left: f64,
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
}

impl BoxPt {
    /// The box of a label set at (`x`, baseline `y`) with `anchor`: the
    /// white halo box, as wide as the real text.
    pub(crate) fn of_text(
        fonts: &Fonts,
        text: &str,
        size: f64,
        bold: bool,
        x: f64,
        y: f64,
    ) -> BoxPt {
        BoxPt::of_width(fonts.width(text, size, bold), size, x, y)
    }

    /// As [`BoxPt::of_text`] for a text `width` points wide (measured
    /// once for all of a label's candidates).
    fn of_width(width: f64, size: f64, x: f64, y: f64) -> BoxPt {
        let ((l, t), (bw, bh)) = halo_box(text_left(x, width, Anchor::Middle), y, size, width);
        BoxPt {
            left: l,
            top: t,
            right: l + bw,
            bottom: t + bh,
        }
    }

    /// A square of half-side `r` around (`x`, `y`).
    pub(crate) fn around(x: f64, y: f64, r: f64) -> BoxPt {
        BoxPt {
            left: x - r,
            top: y - r,
            right: x + r,
            bottom: y + r,
        }
    }

    /// The box grown by `by` on every side.
    pub(crate) fn grown_by(self, by: f64) -> BoxPt {
        self.grown(by)
    }

    fn grown(self, by: f64) -> BoxPt {
        BoxPt {
            left: self.left - by,
            top: self.top - by,
            right: self.right + by,
            bottom: self.bottom + by,
        }
    }

    /// The two boxes share some area (touching edges do not count).
    pub(crate) fn overlaps(&self, o: &BoxPt) -> bool {
        self.left < o.right && o.left < self.right && self.top < o.bottom && o.top < self.bottom
    }

    fn finite(&self) -> bool {
        self.left.is_finite()
            && self.top.is_finite()
            && self.right.is_finite()
            && self.bottom.is_finite()
    }

    fn inside(&self, o: &BoxPt) -> bool {
        self.left >= o.left && self.right <= o.right && self.top >= o.top && self.bottom <= o.bottom
    }

    /// Length of the segment `a`–`b` inside the box.
    pub(crate) fn clip_length(&self, a: (f64, f64), b: (f64, f64)) -> f64 {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let sides = [self.left, self.top, self.right, self.bottom];
        geom::clip(sides, a, b).map_or(0.0, |(t0, t1)| (t1 - t0) * (dx * dx + dy * dy).sqrt())
    }
}

/// A label to place: its text and how it is set.
#[derive(Debug, Clone)]
pub(crate) struct Want {
    pub text: String,
    pub size: f64,
    pub bold: bool,
    /// Candidate anchor points (x, baseline), best first, each with its
    /// own small preference cost.
    pub candidates: Vec<(f64, f64, f64)>,
    /// The path this label belongs to (its own line does not count).
    pub own_path: Option<usize>,
}

/// A placed label: text, size, weight, anchor point (centre, baseline).
#[derive(Debug, Clone, PartialEq)]
pub struct Placed {
    pub text: String,
    pub size: f64,
    pub bold: bool,
    pub x: f64,
    pub y: f64,
}

/// A uniform grid of square cells over a list of boxes, each box filed
/// under every cell it covers. The boxes that may meet a box `b` are those
/// filed under the cells `b` covers: every box that overlaps or touches
/// `b` is among them (both spans are taken with the same rounding down,
/// so touching boxes share a cell), and the caller tests each exactly.
struct Grid {
    x0: f64,
    y0: f64,
    cell: f64,
    nx: usize,
    ny: usize,
    cells: Vec<Vec<u32>>,
    len: usize,
}

/// Side of a grid cell, points: a few label heights.
const CELL: f64 = 32.0;
/// Most cells along a side: a larger drawing has larger cells.
const MOST_CELLS: f64 = 256.0;

impl Grid {
    fn new(boxes: &[BoxPt]) -> Grid {
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for b in boxes.iter().filter(|b| b.finite()) {
            x0 = x0.min(b.left);
            y0 = y0.min(b.top);
            x1 = x1.max(b.right);
            y1 = y1.max(b.bottom);
        }
        if x0 > x1 || y0 > y1 {
            (x0, y0, x1, y1) = (0.0, 0.0, 0.0, 0.0);
        }
        let cell = CELL.max((x1 - x0).max(y1 - y0) / MOST_CELLS);
        let nx = ((x1 - x0) / cell) as usize + 1;
        let ny = ((y1 - y0) / cell) as usize + 1;
        let mut grid = Grid {
            x0,
            y0,
            cell,
            nx,
            ny,
            cells: vec![Vec::new(); nx * ny],
            len: boxes.len(),
        };
        for (i, b) in boxes.iter().enumerate() {
            let (c0, c1, r0, r1) = grid.span(b);
            for r in r0..=r1 {
                for c in c0..=c1 {
                    grid.cells[r * nx + c].push(i as u32);
                }
            }
        }
        grid
    }

    /// The cells a box covers: columns `c0..=c1`, rows `r0..=r1`, clamped
    /// to the grid (a box off the grid covers its edge cells).
    fn span(&self, b: &BoxPt) -> (usize, usize, usize, usize) {
        let at = |v: f64, from: f64, n: usize| {
            // (Rounding a non-negative number towards zero is rounding it
            // down: no call to `floor`.)
            (((v - from) / self.cell).max(0.0) as usize).min(n - 1)
        };
        (
            at(b.left, self.x0, self.nx),
            at(b.right, self.x0, self.nx),
            at(b.top, self.y0, self.ny),
            at(b.bottom, self.y0, self.ny),
        )
    }

    /// Into `out`, in ascending order and once each, the boxes that may
    /// meet `b` (all of them for a box with an undefined side).
    fn near(&self, b: &BoxPt, out: &mut Vec<u32>) {
        out.clear();
        if !b.finite() {
            out.extend(0..self.len as u32);
            return;
        }
        let (c0, c1, r0, r1) = self.span(b);
        for r in r0..=r1 {
            for c in c0..=c1 {
                out.extend_from_slice(&self.cells[r * self.nx + c]);
            }
        }
        out.sort_unstable();
        out.dedup();
    }
}

/// The scene's marks and path lines filed in grids.
struct Near {
    marks: Grid,
    segments: Grid,
}

/// What labels must keep clear of: stop marks, path segments, the area
/// the labels must stay in.
pub(crate) struct Scene<'a> {
    pub fonts: &'a Fonts,
    pub marks: Vec<BoxPt>,
    pub segments: Vec<((f64, f64), (f64, f64))>,
    pub frame: BoxPt,
}

/// A candidate measured once: anchor, box, and its cost before other
/// labels are counted (frame, marks, lines, preference).
struct Candidate {
    x: f64,
    y: f64,
    at: BoxPt,
    base: f64,
    /// Whether it leaves the frame or lies on a stop's mark.
    hard: bool,
    /// Labels already placed that it would overlap.
    blocked: usize,
}

impl Candidate {
    /// Free: breaks no must-not rule. A fallback (far out, at
    /// [`FALLBACK`] cost or more) never counts as free, so it changes
    /// nothing until every nearer place is taken.
    fn free(&self) -> bool {
        self.base < FALLBACK && self.blocked == 0
    }

    fn cost(&self) -> f64 {
        self.base + HARD * self.blocked as f64
    }
}

/// Cost of leaving a label still to place no free candidate: less than
/// an overlap, more than any line.
const STARVE: f64 = HARD / 2.0;
/// Cost of each free candidate taken from a label still to place.
const TAKEN: f64 = 1.0;

/// The box holding all of a label's candidates.
fn hull(cands: &[Candidate]) -> Option<BoxPt> {
    cands.iter().map(|c| c.at).reduce(|a, b| BoxPt {
        left: a.left.min(b.left),
        top: a.top.min(b.top),
        right: a.right.max(b.right),
        bottom: a.bottom.max(b.bottom),
    })
}

/// A label whose free candidates have fallen to this many is placed next,
/// before the labels in line ahead of it.
const URGENT: usize = 4;

impl Scene<'_> {
    /// Every label at its best candidate. Labels go in order (stops, then
    /// paths), except that one running out of free candidates (fewer than
    /// [`URGENT`]) jumps the queue, fewest first. A label left on another
    /// label or a mark (every place was taken when its turn came) is then
    /// moved, or a neighbour moved for it ([`Scene::repair`]).
    pub(crate) fn place(&self, wants: &[Want]) -> Vec<Placed> {
        self.place_each(wants).into_iter().flatten().collect()
    }

    /// As [`Scene::place`], one entry a label in the order given: `None`
    /// for a label without a candidate.
    pub(crate) fn place_each(&self, wants: &[Want]) -> Vec<Option<Placed>> {
        let near = self.near();
        let mut scratch = Vec::new();
        let mut cands: Vec<Vec<Candidate>> = wants
            .iter()
            .map(|w| self.measure(w, &near, &mut scratch))
            .collect();
        let mut chosen: Vec<Option<(f64, f64)>> = vec![None; wants.len()];
        let mut picked: Vec<Option<usize>> = vec![None; wants.len()];
        let hulls: Vec<Option<BoxPt>> = cands.iter().map(|c| hull(c)).collect();
        // Each label's free candidates, counted as labels are placed.
        let mut free: Vec<usize> = cands
            .iter()
            .map(|list| list.iter().filter(|c| c.free()).count())
            .collect();
        for _ in 0..wants.len() {
            let Some(next) = next_label(&free, &chosen) else {
                break;
            };
            let Some(best) = self.best(&cands, &chosen, &hulls, &free, next) else {
                chosen[next] = Some((f64::NAN, f64::NAN));
                continue;
            };
            let placed = cands[next][best].at.grown(PAD);
            chosen[next] = Some((cands[next][best].x, cands[next][best].y));
            picked[next] = Some(best);
            for (i, list) in cands.iter_mut().enumerate() {
                // A label none of whose candidates reach the placed one
                // keeps them all.
                if chosen[i].is_some() || hulls[i].is_none_or(|h| !h.overlaps(&placed)) {
                    continue;
                }
                for c in list.iter_mut().filter(|c| c.at.overlaps(&placed)) {
                    if c.free() {
                        free[i] -= 1;
                    }
                    c.blocked += 1;
                }
            }
        }
        self.repair(&cands, &mut picked);
        wants
            .iter()
            .zip(picked)
            .enumerate()
            .map(|(i, (w, k))| {
                let c = &cands[i][k?];
                Some(Placed {
                    text: w.text.clone(),
                    size: w.size,
                    bold: w.bold,
                    x: c.x,
                    y: c.y,
                })
            })
            .collect()
    }

    /// Labels left clashing (on another label, or on a mark) after the
    /// placement in order: each is moved to its cheapest candidate clear
    /// of every other label, the frame and the marks; when it has none, a
    /// label it lies on is moved so, clear of it too. A few rounds, each
    /// only moving clashing labels, so a drawing without a clash is left
    /// exactly as placed.
    fn repair(&self, cands: &[Vec<Candidate>], picked: &mut [Option<usize>]) {
        let n = cands.len();
        let box_of = |picked: &[Option<usize>], i: usize| picked[i].map(|k| cands[i][k].at);
        let clear = |picked: &[Option<usize>], i: usize, c: &Candidate| {
            !c.hard
                && (0..n).all(|j| {
                    j == i || box_of(picked, j).is_none_or(|b| !b.grown(PAD).overlaps(&c.at))
                })
        };
        let spot = |picked: &[Option<usize>], i: usize| -> Option<usize> {
            let mut best: Option<(f64, usize)> = None;
            for (k, c) in cands[i].iter().enumerate() {
                if clear(picked, i, c) && best.is_none_or(|(b, _)| c.base < b) {
                    best = Some((c.base, k));
                }
            }
            best.map(|(_, k)| k)
        };
        for _ in 0..4 {
            let clashing: Vec<usize> = (0..n)
                .filter(|&i| {
                    picked[i].is_some_and(|k| {
                        let c = &cands[i][k];
                        self.marks.iter().any(|m| m.overlaps(&c.at))
                            || (0..n).any(|j| {
                                j != i && box_of(picked, j).is_some_and(|b| b.overlaps(&c.at))
                            })
                    })
                })
                .collect();
            if clashing.is_empty() {
                return;
            }
            let mut moved = false;
            for i in clashing {
                let Some(k) = picked[i] else { continue };
                if clear(picked, i, &cands[i][k]) {
                    continue;
                }
                if let Some(k) = spot(picked, i) {
                    picked[i] = Some(k);
                    moved = true;
                    continue;
                }
                // Make room: move a label it lies on, if that label has a
                // place clear of everything, this one included.
                let here = cands[i][k].at.grown(PAD);
                for j in 0..n {
                    if j == i || box_of(picked, j).is_none_or(|b| !b.overlaps(&here)) {
                        continue;
                    }
                    if let Some(kj) = spot(picked, j) {
                        picked[j] = Some(kj);
                        moved = true;
                    }
                }
            }
            if !moved {
                return;
            }
        }
    }

    /// The cheapest candidate of label `next`, counting besides its own
    /// cost what it takes from the labels still to place: [`STARVE`] when
    /// it would leave one of them no free candidate, and a little for each
    /// free candidate it takes away.
    fn best(
        &self,
        cands: &[Vec<Candidate>],
        chosen: &[Option<(f64, f64)>],
        hulls: &[Option<BoxPt>],
        free: &[usize],
        next: usize,
    ) -> Option<usize> {
        let mut best: Option<(f64, usize)> = None;
        // The labels still to place whose candidates come near this one's,
        // with how many free candidates each has, its hull, and where in
        // `boxes` its free candidates within reach are (no candidate of
        // this label can take one further out).
        let reach = hulls[next].map(|h| h.grown(PAD))?;
        let mut boxes: Vec<BoxPt> = Vec::new();
        let open: Vec<(usize, BoxPt, usize, usize)> = (0..cands.len())
            .filter(|&i| i != next && chosen[i].is_none())
            .filter_map(|i| hulls[i].filter(|h| h.overlaps(&reach)).map(|h| (i, h)))
            .map(|(i, h)| {
                let from = boxes.len();
                boxes.extend(
                    cands[i]
                        .iter()
                        .filter(|o| o.free() && o.at.overlaps(&reach))
                        .map(|o| o.at),
                );
                (free[i], h, from, boxes.len())
            })
            .collect();
        for (k, c) in cands[next].iter().enumerate() {
            let mut cost = c.cost();
            // What it takes from others only adds: a candidate already
            // dearer than the best so far cannot win.
            if best.is_some_and(|(b, _)| cost >= b) {
                continue;
            }
            let grown = c.at.grown(PAD);
            for &(free, h, from, to) in &open {
                if !h.overlaps(&grown) {
                    continue;
                }
                let taken = boxes[from..to]
                    .iter()
                    .filter(|o| o.overlaps(&grown))
                    .count();
                if free > 0 && taken == free {
                    cost += STARVE;
                }
                cost += TAKEN * taken as f64;
            }
            if best.is_none_or(|(b, _)| cost < b) {
                best = Some((cost, k));
            }
        }
        best.map(|(_, k)| k)
    }

    /// The marks and path lines filed in grids.
    fn near(&self) -> Near {
        let segments: Vec<BoxPt> = self
            .segments
            .iter()
            .map(|&(p, q)| BoxPt {
                left: p.0.min(q.0),
                top: p.1.min(q.1),
                right: p.0.max(q.0),
                bottom: p.1.max(q.1),
            })
            .collect();
        Near {
            marks: Grid::new(&self.marks),
            segments: Grid::new(&segments),
        }
    }

    /// A label's candidates with their boxes and base costs.
    fn measure(&self, w: &Want, near: &Near, scratch: &mut Vec<u32>) -> Vec<Candidate> {
        let width = self.fonts.width(&w.text, w.size, w.bold);
        w.candidates
            .iter()
            .map(|&(x, y, pref)| {
                let at = BoxPt::of_width(width, w.size, x, y);
                let (base, on_mark) = self.base_cost(&at, w.own_path, near, scratch);
                Candidate {
                    x,
                    y,
                    at,
                    base: base + pref,
                    hard: !at.inside(&self.frame) || on_mark,
                    blocked: 0,
                }
            })
            .collect()
    }

    /// The cost of a label box before other labels: outside the frame or
    /// on a mark (hard), path lines under it (soft); and whether it lies
    /// on a mark. Only the marks and lines filed near it are tested (the
    /// rest cannot touch it), the lines in path order.
    fn base_cost(
        &self,
        b: &BoxPt,
        own: Option<usize>,
        near: &Near,
        scratch: &mut Vec<u32>,
    ) -> (f64, bool) {
        let mut cost = 0.0;
        if !b.inside(&self.frame) {
            cost += HARD;
        }
        near.marks.near(b, scratch);
        let on_marks = scratch
            .iter()
            .filter(|&&m| self.marks[m as usize].overlaps(b))
            .count();
        cost += HARD * on_marks as f64;
        near.segments.near(b, scratch);
        for &i in scratch.iter() {
            let i = i as usize;
            if Some(i) == own {
                continue;
            }
            let (p, q) = self.segments[i];
            let under = b.clip_length(p, q);
            if under > 0.0 {
                cost += LINE_CROSSED + LINE_LENGTH * under;
            }
        }
        (cost, on_marks > 0)
    }
}

/// The label to place next: the unplaced one with fewest free candidates
/// if that is under [`URGENT`], else the first unplaced.
fn next_label(free: &[usize], chosen: &[Option<(f64, f64)>]) -> Option<usize> {
    let open = (0..free.len()).filter(|&i| chosen[i].is_none());
    let urgent = open
        .clone()
        .map(|i| (free[i], i))
        .filter(|&(free, _)| free < URGENT)
        .min();
    urgent.map(|(_, i)| i).or_else(|| open.min())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipping_measures_the_line_under_a_box() {
        let b = BoxPt::around(0.0, 0.0, 5.0);
        assert!((b.clip_length((-20.0, 0.0), (20.0, 0.0)) - 10.0).abs() < 1e-9);
        assert_eq!(b.clip_length((-20.0, 9.0), (20.0, 9.0)), 0.0);
        assert!((b.clip_length((0.0, 0.0), (0.0, 20.0)) - 5.0).abs() < 1e-9);
        assert_eq!(b.clip_length((6.0, -20.0), (6.0, 20.0)), 0.0);
    }

    #[test]
    fn a_label_moves_off_a_stop_and_off_another_label() {
        let fonts = Fonts::load();
        let scene = Scene {
            fonts: &fonts,
            marks: vec![BoxPt::around(100.0, 100.0, 8.0)],
            segments: vec![],
            frame: BoxPt::around(100.0, 100.0, 100.0),
        };
        let want = |text: &str| Want {
            text: text.into(),
            size: 9.0,
            bold: false,
            // On the mark first, then below it.
            candidates: vec![(100.0, 103.0, 0.0), (100.0, 125.0, 1.0), (100.0, 80.0, 2.0)],
            own_path: None,
        };
        let placed = scene.place(&[want("Alpha"), want("Beta")]);
        assert_eq!((placed[0].x, placed[0].y), (100.0, 125.0));
        assert_eq!((placed[1].x, placed[1].y), (100.0, 80.0));
    }
}
