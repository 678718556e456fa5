//! The page engine, which knows no game: backend-neutral drawings
//! ([`Drawing`] of [`Shape`]s — lines, circles, boxes, tints and text, in
//! points, y down), text placement ([`TextStyle`], [`text_width`],
//! [`text_left`], [`halo_box`]) and the backends each shape draws itself on
//! through a [`Canvas`].
//!
//! - [`svg`]: a drawing as a standalone SVG document.
//! - [`pdf`]: the PDF backend (fonts, text measuring and wrapping, pages,
//!   bookmarks, the painter, [`pdf::Paper`]).
//! - [`layout`]: page flow (headings, paragraphs, tables, columns, placed
//!   drawings) and the geometry of cut-out card grids.
//!
//! It imports no module of the tool: what a page says is decided above it
//! (`handouts`).

pub mod layout;
pub mod pdf;
pub mod svg;

/// Where a text's anchor sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// The anchor is the text's left end.
    Start,
    /// The anchor is the text's centre.
    Middle,
    /// The anchor is the text's right end.
    End,
}

/// A backend-neutral shape, in points (1/72 inch), y downwards.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// A straight black line.
    Line {
        /// Start, x.
        x1: f64,
        /// Start, y.
        y1: f64,
        /// End, x.
        x2: f64,
        /// End, y.
        y2: f64,
        /// Stroke width.
        width: f64,
        /// Drawn dashed rather than solid.
        dashed: bool,
    },
    /// A circle, filled black or white with an outline.
    Circle {
        /// Centre, x.
        cx: f64,
        /// Centre, y.
        cy: f64,
        /// Radius.
        r: f64,
        /// Filled black (else white inside the outline).
        filled: bool,
        /// Outline width (none at 0).
        width: f64,
    },
    /// A rectangle, filled black or white with an outline.
    Rect {
        /// Top-left corner, x.
        x: f64,
        /// Top-left corner, y.
        y: f64,
        /// Width.
        w: f64,
        /// Height.
        h: f64,
        /// Filled black (else white inside the outline).
        filled: bool,
        /// Outline width (none at 0).
        width: f64,
    },
    /// A rectangle filled with a grey (`grey` 0 black … 1 white) and no
    /// outline: a tinted band behind text.
    Tint {
        /// Top-left corner, x.
        x: f64,
        /// Top-left corner, y.
        y: f64,
        /// Width.
        w: f64,
        /// Height.
        h: f64,
        /// The grey, 0 (black) to 1 (white).
        grey: f64,
    },
    /// A broad grey stroke from one point to another, `width` wide, with
    /// square ends (`grey` 0 black … 1 white): a highlighter's mark under
    /// a line.
    Band {
        /// Start, x.
        x1: f64,
        /// Start, y.
        y1: f64,
        /// End, x.
        x2: f64,
        /// End, y.
        y2: f64,
        /// The stroke's width.
        width: f64,
        /// The grey, 0 (black) to 1 (white).
        grey: f64,
    },
    /// Text with a white halo behind it when `halo` (labels on lines).
    Text {
        /// The anchor's x.
        x: f64,
        /// The baseline's y.
        y: f64,
        /// Font size, in points.
        size: f64,
        /// Which point of the text sits at `x`.
        anchor: Anchor,
        /// Set in the bold face.
        bold: bool,
        /// A white box behind the text, so it reads over lines.
        halo: bool,
        /// The text, one line.
        text: String,
    },
}

impl Shape {
    /// A line from `a` to `b`, `width` wide, dashed or solid.
    pub fn line(a: (f64, f64), b: (f64, f64), width: f64, dashed: bool) -> Shape {
        let ((x1, y1), (x2, y2)) = (a, b);
        Shape::Line {
            x1,
            y1,
            x2,
            y2,
            width,
            dashed,
        }
    }

    /// A [`Shape::Band`] from `a` to `b`, `width` wide, in `grey`.
    pub fn band(a: (f64, f64), b: (f64, f64), width: f64, grey: f64) -> Shape {
        let ((x1, y1), (x2, y2)) = (a, b);
        Shape::Band {
            x1,
            y1,
            x2,
            y2,
            width,
            grey,
        }
    }

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
            Shape::Band {
                x1,
                y1,
                x2,
                y2,
                width,
                ..
            } => {
                at(x1, y1);
                at(x2, y2);
                *width *= scale;
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

/// A picture made of shapes, in its own box of points with the origin at
/// the top left; a backend places and scales it.
#[derive(Debug, Clone, PartialEq)]
pub struct Drawing {
    /// The box's width, in points.
    pub width: f64,
    /// The box's height, in points.
    pub height: f64,
    /// The shapes, drawn in order (later ones on top).
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
    /// Font size, in points.
    pub size: f64,
    /// Which point of the text sits at the given position.
    pub anchor: Anchor,
    /// Set in the bold face.
    pub bold: bool,
    /// A white box behind the text.
    pub halo: bool,
}

/// A backend that draws shapes (the SVG writer, the PDF painter):
/// [`Shape::draw`] calls one method a shape. Points are (x, y), y down.
pub trait Canvas {
    /// A black line, `width` wide, dashed or solid.
    fn line(&mut self, from: (f64, f64), to: (f64, f64), width: f64, dashed: bool);
    /// Filled black, or white with an outline `width` wide (none at 0).
    fn circle(&mut self, centre: (f64, f64), r: f64, filled: bool, width: f64);
    /// Filled black, or white with an outline `width` wide (none at 0).
    fn rect(&mut self, corner: (f64, f64), size: (f64, f64), filled: bool, width: f64);
    /// Filled with a grey (0 black … 1 white), no outline.
    fn tint(&mut self, corner: (f64, f64), size: (f64, f64), grey: f64);
    /// A broad grey stroke with square ends (0 black … 1 white).
    fn band(&mut self, from: (f64, f64), to: (f64, f64), width: f64, grey: f64);
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
            Shape::Band {
                x1,
                y1,
                x2,
                y2,
                width,
                grey,
            } => canvas.band((*x1, *y1), (*x2, *y2), *width, *grey),
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
