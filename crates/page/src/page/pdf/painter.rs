//! One page's shapes as a PDF content stream (ISO 32000-1, 8 and 9): the
//! PDF [`Canvas`], keeping track of the graphics state so that unchanged
//! settings are not repeated.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::{Fonts, Source};
use crate::page::{Canvas, Shape, TextStyle, halo_box, text_left};

/// Dash pattern of dashed lines (on, off), the same as the SVG's
/// `stroke-dasharray="4 3"`.
const DASH: &str = "[4 3] 0 d";

/// Bézier control-point distance for a quarter circle of radius 1.
const KAPPA: f64 = 0.552_284_749_831;

/// The codes each embedded font shows its characters with, and the font's
/// resource name, by the font that draws a run: regular, bold, fallback.
pub(super) struct Codes<'a> {
    pub(super) fonts: [Option<(&'static str, &'a BTreeMap<char, u16>)>; 3],
}

impl Codes<'_> {
    fn of(&self, source: Source, bold: bool) -> Option<(&'static str, &BTreeMap<char, u16>)> {
        self.fonts[source.font(bold)]
    }
}

/// How a closed shape is painted: filled (nonzero winding), or filled and
/// outlined.
#[derive(Clone, Copy)]
enum Paint {
    Fill,
    FillStroke,
}

pub(super) struct Painter<'a> {
    fonts: &'a Fonts,
    codes: &'a Codes<'a>,
    /// Page height, for flipping y.
    height: f64,
    out: String,
    line_width: Option<f64>,
    dashed: Option<bool>,
    /// Fill grey level: 0 black, 1 white.
    fill: Option<f32>,
    /// Grey level of text.
    text_grey: f32,
}

impl<'a> Painter<'a> {
    /// The content stream drawing `shapes` in order.
    pub(super) fn paint(
        fonts: &'a Fonts,
        codes: &'a Codes<'a>,
        height: f64,
        shapes: &[Shape],
        text_grey: f32,
    ) -> Vec<u8> {
        let mut painter = Painter {
            fonts,
            codes,
            height,
            out: String::with_capacity(shapes.len() * 40),
            line_width: None,
            dashed: None,
            fill: None,
            text_grey,
        };
        for shape in shapes {
            shape.draw(&mut painter);
        }
        painter.out.into_bytes()
    }

    /// Writes numbers as PDF reals (single precision, never an exponent),
    /// each followed by a space.
    fn numbers(&mut self, values: &[f64]) {
        for &v in values {
            let _ = write!(self.out, "{} ", v as f32);
        }
    }

    /// Writes a point in PDF space (y up) from one in ours (y down).
    fn point(&mut self, (x, y): (f64, f64)) {
        self.numbers(&[x, self.height - y]);
    }

    fn op(&mut self, op: &str) {
        self.out.push_str(op);
        self.out.push('\n');
    }

    /// Sets up a closed shape the way the SVG draws it: filled black, or
    /// white with a black outline (so it covers what lies beneath). A zero
    /// width means no outline (PDF would draw the thinnest line instead).
    fn set_paint(&mut self, filled: bool, width: f64) -> Paint {
        self.set_fill(if filled { 0.0 } else { 1.0 });
        if width > 0.0 {
            self.set_stroke(width, false);
            Paint::FillStroke
        } else {
            Paint::Fill
        }
    }

    fn set_stroke(&mut self, width: f64, dashed: bool) {
        if self.line_width != Some(width) {
            self.numbers(&[width]);
            self.op("w");
            self.line_width = Some(width);
        }
        if self.dashed != Some(dashed) {
            self.op(if dashed { DASH } else { "[] 0 d" });
            self.dashed = Some(dashed);
        }
    }

    fn set_fill(&mut self, grey: f32) {
        if self.fill != Some(grey) {
            let _ = writeln!(self.out, "{grey} g");
            self.fill = Some(grey);
        }
    }

    fn rectangle(&mut self, x: f64, y: f64, w: f64, h: f64, paint: Paint) {
        // PDF rectangles grow upwards from their lower-left corner.
        self.point((x, y + h));
        self.numbers(&[w, h]);
        self.op("re");
        self.op(match paint {
            Paint::Fill => "f",
            Paint::FillStroke => "B",
        });
    }

    /// A closed path through `points` (each a point, or a cubic Bézier
    /// segment's two control points and end point), painted.
    fn path(&mut self, start: (f64, f64), segments: &[Segment], paint: Paint) {
        self.point(start);
        self.op("m");
        for segment in segments {
            match *segment {
                Segment::Line(to) => {
                    self.point(to);
                    self.op("l");
                }
                Segment::Curve(c1, c2, to) => {
                    self.point(c1);
                    self.point(c2);
                    self.point(to);
                    self.op("c");
                }
            }
        }
        self.op("h");
        self.op(match paint {
            Paint::Fill => "f",
            Paint::FillStroke => "b",
        });
    }

    /// One run of text set in one font, its baseline starting at `origin`.
    fn run(&mut self, origin: (f64, f64), size: f64, resource: &str, codes: &[u16]) {
        let _ = writeln!(self.out, "/{resource} {} Tf", size as f32);
        self.out.push_str("1 0 0 1 ");
        self.point(origin);
        self.op("Tm");
        self.out.push('<');
        for code in codes {
            let _ = write!(self.out, "{code:04X}");
        }
        self.op("> Tj");
    }
}

/// A piece of a closed path.
enum Segment {
    Line((f64, f64)),
    Curve((f64, f64), (f64, f64), (f64, f64)),
}

/// A circle as four cubic Bézier quarter arcs from 3 o'clock, y down.
fn ring(cx: f64, cy: f64, r: f64) -> ((f64, f64), Vec<Segment>) {
    let k = KAPPA * r;
    let at = |dx: f64, dy: f64| (cx + dx, cy + dy);
    let arcs = vec![
        Segment::Curve(at(r, k), at(k, r), at(0.0, r)),
        Segment::Curve(at(-k, r), at(-r, k), at(-r, 0.0)),
        Segment::Curve(at(-r, -k), at(-k, -r), at(0.0, -r)),
        Segment::Curve(at(k, -r), at(r, -k), at(r, 0.0)),
    ];
    (at(r, 0.0), arcs)
}

impl Canvas for Painter<'_> {
    fn line(&mut self, from: (f64, f64), to: (f64, f64), width: f64, dashed: bool) {
        self.set_stroke(width, dashed);
        self.point(from);
        self.op("m");
        self.point(to);
        self.op("l");
        self.op("S");
    }

    fn circle(&mut self, (cx, cy): (f64, f64), r: f64, filled: bool, width: f64) {
        let paint = self.set_paint(filled, width);
        let (start, arcs) = ring(cx, cy, r);
        self.path(start, &arcs, paint);
    }

    fn rect(&mut self, (x, y): (f64, f64), (w, h): (f64, f64), filled: bool, width: f64) {
        let paint = self.set_paint(filled, width);
        self.rectangle(x, y, w, h, paint);
    }

    fn tint(&mut self, (x, y): (f64, f64), (w, h): (f64, f64), grey: f64) {
        self.set_fill(grey.clamp(0.0, 1.0) as f32);
        self.rectangle(x, y, w, h, Paint::Fill);
    }

    /// A band as a filled quadrilateral: the segment widened by `width`
    /// across and by half of it at each end.
    fn band(&mut self, from: (f64, f64), to: (f64, f64), width: f64, grey: f64) {
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let len = (dx * dx + dy * dy).sqrt();
        if len < 1e-9 || width <= 0.0 {
            return;
        }
        let h = width / 2.0;
        let (ux, uy) = (dx / len * h, dy / len * h);
        let (nx, ny) = (-uy, ux);
        self.set_fill(grey.clamp(0.0, 1.0) as f32);
        let corners = [
            Segment::Line((to.0 + ux + nx, to.1 + uy + ny)),
            Segment::Line((to.0 + ux - nx, to.1 + uy - ny)),
            Segment::Line((from.0 - ux - nx, from.1 - uy - ny)),
        ];
        self.path((from.0 - ux + nx, from.1 - uy + ny), &corners, Paint::Fill);
    }

    /// Text with its baseline at `y`, placed by `anchor` at `x` using the
    /// real glyph widths, over an optional white halo box (the same box as
    /// the SVG's, but as wide as the actual text).
    fn text(&mut self, (x, y): (f64, f64), style: TextStyle, text: &str) {
        let TextStyle { size, bold, .. } = style;
        if text.is_empty() {
            return;
        }
        let width = self.fonts.width(text, size, bold);
        let left = text_left(x, width, style.anchor);
        if style.halo {
            self.set_fill(1.0);
            let ((hx, hy), (hw, hh)) = halo_box(left, y, size, width);
            self.rectangle(hx, hy, hw, hh, Paint::Fill);
        }
        self.set_fill(self.text_grey);
        // A run per font: DejaVu Serif, and the fallback where it lacks a
        // glyph, each placed where the runs before it end.
        self.op("BT");
        let mut run_left = left;
        for (source, run) in self.fonts.runs(text, bold) {
            let origin = (run_left, y);
            run_left += self.fonts.width(&run, size, bold);
            // Every font a page draws with is embedded (`document` collects
            // the characters from these same runs).
            if let Some((resource, codes)) = self.codes.of(source, bold) {
                let codes: Vec<u16> = run
                    .chars()
                    .map(|c| codes.get(&c).copied().unwrap_or(0))
                    .collect();
                self.run(origin, size, resource, &codes);
            }
        }
        self.op("ET");
    }
}
