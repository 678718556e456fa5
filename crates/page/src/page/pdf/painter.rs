//! One page's shapes as printpdf operations: the PDF [`Canvas`], keeping
//! track of the graphics state so that unchanged settings are not repeated.
//! printpdf writes them as the page's content stream.

use printpdf::{
    Color, FontId, Greyscale, Line, LineDashPattern, LinePoint, Op, PaintMode, PdfFontHandle,
    Point, Polygon, PolygonRing, Pt, Rect, TextItem, TextMatrix, WindingOrder,
};

use super::{Fonts, RESOURCES};
use crate::page::{Canvas, Shape, TextStyle, halo_box, text_left};

/// Dash pattern of dashed lines (on, off), the same as the SVG's
/// `stroke-dasharray="4 3"`.
const DASH: [f32; 2] = [4.0, 3.0];

/// Bézier control-point distance for a quarter circle of radius 1.
const KAPPA: f64 = 0.552_284_749_831;

pub(super) struct Painter<'a> {
    fonts: &'a Fonts,
    /// Page height, for flipping y.
    height: f64,
    ops: Vec<Op>,
    line_width: Option<f64>,
    dashed: Option<bool>,
    /// Fill grey level: 0 black, 1 white.
    fill: Option<f32>,
    /// Grey level of text.
    text_grey: f32,
}

impl<'a> Painter<'a> {
    /// The operations drawing `shapes` in order.
    pub(super) fn paint(
        fonts: &'a Fonts,
        height: f64,
        shapes: &[Shape],
        text_grey: f32,
    ) -> Vec<Op> {
        let mut painter = Painter {
            fonts,
            height,
            ops: Vec::with_capacity(shapes.len() * 6),
            line_width: None,
            dashed: None,
            fill: None,
            text_grey,
        };
        for shape in shapes {
            shape.draw(&mut painter);
        }
        painter.ops
    }

    /// A point in PDF space (y up) from one in ours (y down).
    fn point(&self, (x, y): (f64, f64)) -> Point {
        Point {
            x: Pt(x as f32),
            y: Pt((self.height - y) as f32),
        }
    }

    /// Points of a path, each a corner or (`true`) a Bézier control point.
    fn ring(&self, points: &[((f64, f64), bool)]) -> PolygonRing {
        PolygonRing {
            points: points
                .iter()
                .map(|&(p, bezier)| LinePoint {
                    p: self.point(p),
                    bezier,
                })
                .collect(),
        }
    }

    /// Sets up a closed shape the way the SVG draws it: filled black, or
    /// white with a black outline (so it covers what lies beneath). A zero
    /// width means no outline (PDF would draw the thinnest line instead).
    fn set_paint(&mut self, filled: bool, width: f64) -> PaintMode {
        self.set_fill(if filled { 0.0 } else { 1.0 });
        if width > 0.0 {
            self.set_stroke(width, false);
            PaintMode::FillStroke
        } else {
            PaintMode::Fill
        }
    }

    fn set_stroke(&mut self, width: f64, dashed: bool) {
        if self.line_width != Some(width) {
            self.ops.push(Op::SetOutlineThickness {
                pt: Pt(width as f32),
            });
            self.line_width = Some(width);
        }
        if self.dashed != Some(dashed) {
            let dash = if dashed {
                LineDashPattern::new(0.0, &DASH)
            } else {
                LineDashPattern::solid()
            };
            self.ops.push(Op::SetLineDashPattern { dash });
            self.dashed = Some(dashed);
        }
    }

    fn set_fill(&mut self, grey: f32) {
        if self.fill != Some(grey) {
            self.ops.push(Op::SetFillColor {
                col: Color::Greyscale(Greyscale::new(grey, None)),
            });
            self.fill = Some(grey);
        }
    }

    fn rectangle(&mut self, x: f64, y: f64, w: f64, h: f64, mode: PaintMode) {
        // PDF rectangles grow upwards from their lower-left corner.
        let corner = self.point((x, y + h));
        self.ops.push(Op::DrawRectangle {
            rectangle: Rect {
                x: corner.x,
                y: corner.y,
                width: Pt(w as f32),
                height: Pt(h as f32),
                mode: Some(mode),
                winding_order: Some(WindingOrder::NonZero),
            },
        });
    }

    fn polygon(&mut self, ring: PolygonRing, mode: PaintMode) {
        self.ops.push(Op::DrawPolygon {
            polygon: Polygon {
                rings: vec![ring],
                mode,
                winding_order: WindingOrder::NonZero,
            },
        });
    }
}

/// A circle as four cubic Bézier quarter arcs from 3 o'clock, y down: each
/// arc two control points (`true`) and an end point.
fn circle_points(cx: f64, cy: f64, r: f64) -> [((f64, f64), bool); 13] {
    let k = KAPPA * r;
    let at = |dx: f64, dy: f64, bezier| ((cx + dx, cy + dy), bezier);
    [
        at(r, 0.0, false),
        at(r, k, true),
        at(k, r, true),
        at(0.0, r, false),
        at(-k, r, true),
        at(-r, k, true),
        at(-r, 0.0, false),
        at(-r, -k, true),
        at(-k, -r, true),
        at(0.0, -r, false),
        at(k, -r, true),
        at(r, -k, true),
        at(r, 0.0, false),
    ]
}

impl Canvas for Painter<'_> {
    fn line(&mut self, from: (f64, f64), to: (f64, f64), width: f64, dashed: bool) {
        self.set_stroke(width, dashed);
        let line = Line {
            points: self.ring(&[(from, false), (to, false)]).points,
            is_closed: false,
        };
        self.ops.push(Op::DrawLine { line });
    }

    fn circle(&mut self, (cx, cy): (f64, f64), r: f64, filled: bool, width: f64) {
        let mode = self.set_paint(filled, width);
        let ring = self.ring(&circle_points(cx, cy, r));
        self.polygon(ring, mode);
    }

    fn rect(&mut self, (x, y): (f64, f64), (w, h): (f64, f64), filled: bool, width: f64) {
        let mode = self.set_paint(filled, width);
        self.rectangle(x, y, w, h, mode);
    }

    fn tint(&mut self, (x, y): (f64, f64), (w, h): (f64, f64), grey: f64) {
        self.set_fill(grey.clamp(0.0, 1.0) as f32);
        self.rectangle(x, y, w, h, PaintMode::Fill);
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
        let ring = self.ring(&[
            ((from.0 - ux + nx, from.1 - uy + ny), false),
            ((to.0 + ux + nx, to.1 + uy + ny), false),
            ((to.0 + ux - nx, to.1 + uy - ny), false),
            ((from.0 - ux - nx, from.1 - uy - ny), false),
        ]);
        self.polygon(ring, PaintMode::Fill);
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
            self.rectangle(hx, hy, hw, hh, PaintMode::Fill);
        }
        self.set_fill(self.text_grey);
        // A run per font: DejaVu Serif, and the fallback where it lacks a
        // glyph, each placed where the runs before it end. printpdf shows
        // each character by its glyph in the embedded subset.
        self.ops.push(Op::StartTextSection);
        let mut run_left = left;
        for (source, run) in self.fonts.runs(text, bold) {
            let origin = self.point((run_left, y));
            run_left += self.fonts.width(&run, size, bold);
            self.ops.extend([
                Op::SetFont {
                    font: PdfFontHandle::External(FontId(RESOURCES[source.font(bold)].into())),
                    size: Pt(size as f32),
                },
                Op::SetTextMatrix {
                    matrix: TextMatrix::Translate(origin.x, origin.y),
                },
                Op::ShowText {
                    items: vec![TextItem::Text(run)],
                },
            ]);
        }
        self.ops.push(Op::EndTextSection);
    }
}
