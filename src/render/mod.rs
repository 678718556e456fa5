//! Presentation: every way a result is shown. Terminal text, Markdown and
//! PDF handouts, and drawings. The drawing code is backend-neutral
//! ([`Drawing`] of lines, circles and text in points); each [`Shape`] draws
//! itself on a [`Canvas`]: [`svg`] writes a drawing as SVG, and the PDF
//! painter ([`pdf`]) draws the very same shapes.
//!
//! - [`text`]: what a GM reads on the terminal (rolls, odds, generated items).
//! - [`lines`]: lines formatted once for every output (percentages, stat
//!   lines, sheet lines).
//! - [`foes`]: an encounter's identical foes grouped (`Cultist ×8`), once
//!   for the PDF sheet and the Homebrewery stat blocks.
//! - [`perils`]: traps and hazards, their rules and odds in their own
//!   system (METTLE hazard or Core Rules save), once for every output.
//! - [`run`]: what the run sheet says (party, encounters and journey at a
//!   glance, initiative ladder), once for the PDF and `pack.md`.
//! - [`handouts`]: a session pack as files (Markdown, JSON, SVG) and as one PDF.
//! - [`markdown`]: the tera templates (built in from `templates/` beside
//!   this module) and their filters.
//! - [`pdf`]: the PDF backend (fonts, text wrapping, pages, bookmarks).
//! - [`layout`]: page flow, card grids and placed drawings for the PDF.
//! - [`map`]: the point-crawl map as a drawing.
//! - [`zones`]: an encounter's zone diagram as a drawing.

pub mod foes;
pub mod handouts;
pub mod layout;
pub mod lines;
pub mod map;
pub mod markdown;
pub mod pdf;
pub mod perils;
pub mod run;
pub mod text;
pub mod zones;

use std::fmt::Write;

/// Where a text's anchor sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

/// A backend-neutral shape, in points (1/72 inch), y downwards.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    Line {
        x1: f64,
        y1: f64,
        x2: f64,
        y2: f64,
        width: f64,
        dashed: bool,
    },
    Circle {
        cx: f64,
        cy: f64,
        r: f64,
        filled: bool,
        width: f64,
    },
    Rect {
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        filled: bool,
        width: f64,
    },
    /// A rectangle filled with a grey (`grey` 0 black … 1 white) and no
    /// outline: a tinted band behind text.
    Tint {
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        grey: f64,
    },
    /// Text with a white halo behind it when `halo` (labels on lines).
    Text {
        x: f64,
        y: f64,
        size: f64,
        anchor: Anchor,
        bold: bool,
        halo: bool,
        text: String,
    },
}

impl Shape {
    /// The shape scaled by `scale`, then moved by (`dx`, `dy`); `fills`
    /// false leaves it unfilled (ink saver: a tint turns white). Line widths
    /// stay as they are.
    pub fn placed(&self, dx: f64, dy: f64, scale: f64, fills: bool) -> Shape {
        let at = |x: &mut f64, y: &mut f64| {
            *x = dx + *x * scale;
            *y = dy + *y * scale;
        };
        let mut s = self.clone();
        match &mut s {
            Shape::Line { x1, y1, x2, y2, .. } => {
                at(x1, y1);
                at(x2, y2);
            }
            Shape::Circle {
                cx, cy, r, filled, ..
            } => {
                at(cx, cy);
                *r *= scale;
                *filled &= fills;
            }
            Shape::Rect {
                x, y, w, h, filled, ..
            } => {
                at(x, y);
                *w *= scale;
                *h *= scale;
                *filled &= fills;
            }
            Shape::Tint { x, y, w, h, grey } => {
                at(x, y);
                *w *= scale;
                *h *= scale;
                if !fills {
                    *grey = 1.0;
                }
            }
            Shape::Text { x, y, size, .. } => {
                at(x, y);
                *size *= scale;
            }
        }
        s
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Drawing {
    pub width: f64,
    pub height: f64,
    pub shapes: Vec<Shape>,
}

/// Estimated width of a text in points (average glyph 0.55 em), for halos
/// and layout; the PDF backend measures real glyphs.
pub fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * 0.55
}

/// How a text is set: its size, where its anchor sits, bold or not, and
/// whether a white box (halo) goes behind it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TextStyle {
    pub size: f64,
    pub anchor: Anchor,
    pub bold: bool,
    pub halo: bool,
}

/// A backend that draws shapes (the SVG writer, the PDF painter):
/// [`Shape::draw`] calls one method a shape. Points are (x, y), y down.
pub trait Canvas {
    fn line(&mut self, from: (f64, f64), to: (f64, f64), width: f64, dashed: bool);
    /// Filled black, or white with an outline `width` wide (none at 0).
    fn circle(&mut self, centre: (f64, f64), r: f64, filled: bool, width: f64);
    /// Filled black, or white with an outline `width` wide (none at 0).
    fn rect(&mut self, corner: (f64, f64), size: (f64, f64), filled: bool, width: f64);
    /// Filled with a grey (0 black … 1 white), no outline.
    fn tint(&mut self, corner: (f64, f64), size: (f64, f64), grey: f64);
    /// Text with its baseline at `at`.
    fn text(&mut self, at: (f64, f64), style: TextStyle, text: &str);
}

impl Shape {
    /// Draw the shape on a backend.
    pub fn draw(&self, canvas: &mut impl Canvas) {
        match self {
            Shape::Line {
                x1,
                y1,
                x2,
                y2,
                width,
                dashed,
            } => canvas.line((*x1, *y1), (*x2, *y2), *width, *dashed),
            Shape::Circle {
                cx,
                cy,
                r,
                filled,
                width,
            } => canvas.circle((*cx, *cy), *r, *filled, *width),
            Shape::Rect {
                x,
                y,
                w,
                h,
                filled,
                width,
            } => canvas.rect((*x, *y), (*w, *h), *filled, *width),
            Shape::Tint { x, y, w, h, grey } => canvas.tint((*x, *y), (*w, *h), *grey),
            Shape::Text {
                x,
                y,
                size,
                anchor,
                bold,
                halo,
                text,
            } => {
                let style = TextStyle {
                    size: *size,
                    anchor: *anchor,
                    bold: *bold,
                    halo: *halo,
                };
                canvas.text((*x, *y), style, text);
            }
        }
    }
}

/// The left edge of a text `width` wide, placed by `anchor` at `x`.
pub fn text_left(x: f64, width: f64, anchor: Anchor) -> f64 {
    match anchor {
        Anchor::Start => x,
        Anchor::Middle => x - width / 2.0,
        Anchor::End => x - width,
    }
}

/// The white box behind a haloed text (corner and size), from the text's
/// left edge, baseline, size and width.
pub fn halo_box(left: f64, y: f64, size: f64, width: f64) -> ((f64, f64), (f64, f64)) {
    ((left - 1.5, y - size * 0.8), (width + 3.0, size * 1.05))
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// An SVG document being written.
struct Svg(String);

impl Canvas for Svg {
    fn line(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64), width: f64, dashed: bool) {
        let dash = if dashed {
            r#" stroke-dasharray="4 3""#
        } else {
            ""
        };
        let _ = writeln!(
            self.0,
            r#"<line x1="{x1:.2}" y1="{y1:.2}" x2="{x2:.2}" y2="{y2:.2}" stroke="black" stroke-width="{width:.2}"{dash}/>"#
        );
    }

    fn circle(&mut self, (cx, cy): (f64, f64), r: f64, filled: bool, width: f64) {
        let fill = if filled { "black" } else { "white" };
        let _ = writeln!(
            self.0,
            r#"<circle cx="{cx:.2}" cy="{cy:.2}" r="{r:.2}" fill="{fill}" stroke="black" stroke-width="{width:.2}"/>"#
        );
    }

    fn rect(&mut self, (x, y): (f64, f64), (w, h): (f64, f64), filled: bool, width: f64) {
        let fill = if filled { "black" } else { "white" };
        let _ = writeln!(
            self.0,
            r#"<rect x="{x:.2}" y="{y:.2}" width="{w:.2}" height="{h:.2}" fill="{fill}" stroke="black" stroke-width="{width:.2}"/>"#
        );
    }

    fn tint(&mut self, (x, y): (f64, f64), (w, h): (f64, f64), grey: f64) {
        let level = (grey.clamp(0.0, 1.0) * 255.0).round() as u8;
        let _ = writeln!(
            self.0,
            r#"<rect x="{x:.2}" y="{y:.2}" width="{w:.2}" height="{h:.2}" fill="rgb({level},{level},{level})"/>"#
        );
    }

    fn text(&mut self, (x, y): (f64, f64), style: TextStyle, text: &str) {
        let TextStyle { size, anchor, .. } = style;
        let weight = if style.bold {
            r#" font-weight="bold""#
        } else {
            ""
        };
        // The halo is a white box the size of the text, drawn first, so a
        // line under a label never shows through.
        if style.halo {
            let w = text_width(text, size);
            let ((hx, hy), (hw, hh)) = halo_box(text_left(x, w, anchor), y, size, w);
            let _ = writeln!(
                self.0,
                r#"<rect x="{hx:.2}" y="{hy:.2}" width="{hw:.2}" height="{hh:.2}" fill="white"/>"#
            );
        }
        let anchor = match anchor {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        };
        let _ = writeln!(
            self.0,
            r#"<text x="{x:.2}" y="{y:.2}" font-size="{size:.2}" text-anchor="{anchor}"{weight}>{}</text>"#,
            escape(text)
        );
    }
}

/// The drawing as a standalone SVG document (numbers to two decimals, so
/// the bytes are the same everywhere).
pub fn svg(d: &Drawing) -> String {
    let mut s = Svg(String::new());
    let _ = writeln!(
        s.0,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.2}pt" height="{h:.2}pt" viewBox="0 0 {w:.2} {h:.2}" font-family="Georgia, 'DejaVu Serif', serif">"#,
        w = d.width,
        h = d.height
    );
    let _ = writeln!(
        s.0,
        r#"<rect x="0" y="0" width="{:.2}" height="{:.2}" fill="white"/>"#,
        d.width, d.height
    );
    for shape in &d.shapes {
        shape.draw(&mut s);
    }
    s.0.push_str("</svg>\n");
    s.0
}
