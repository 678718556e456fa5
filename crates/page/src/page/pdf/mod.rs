//! PDF backend: turns pages of backend-neutral [`Shape`]s into a printable
//! PDF document.
//!
//! This module owns everything PDF-specific:
//!
//! - the bundled fonts ([`Fonts`]: DejaVu Serif regular and bold, embedded
//!   in the binary) and their real glyph advances, used for measuring text;
//! - text layout helpers built on those measurements: [`wrap`] (greedy line
//!   breaking on spaces), [`fit`] (shrink-to-fit into a box) and
//!   [`paragraph`] (lines to [`Shape::Text`]s);
//! - page geometry ([`Paper`]) and the conversion from our coordinates
//!   (points, y downwards from the top-left, as in [`crate::page::svg`])
//!   to PDF's (y upwards from the bottom-left);
//! - the document itself ([`document`]): per-document font subsetting,
//!   bookmarks, and byte-for-byte reproducible output, written by printpdf
//!   (the design card's PDF writer; `document` says what is set after it);
//! - `painter`: one page's shapes as printpdf operations (the PDF
//!   [`Canvas`](crate::page::Canvas));
//! - `face`: a typeface as printpdf reads it, and the subset of it a
//!   document embeds.
//!
//! It is pure: nothing here touches the file system, the clock or a random
//! source; the caller writes the returned bytes wherever it likes.

use std::sync::OnceLock;

use crate::page::{Anchor, Shape, halo_box, text_left};

mod document;
mod face;
mod painter;

pub use document::document;
use face::{Face, REPLACEMENT};

/// DejaVu Serif, regular (see `assets/fonts/LICENSE`).
const REGULAR_TTF: &[u8] = include_bytes!("../../../fonts/DejaVuSerif.ttf");
/// DejaVu Serif, bold (see `assets/fonts/LICENSE`).
const BOLD_TTF: &[u8] = include_bytes!("../../../fonts/DejaVuSerif-Bold.ttf");
/// Droid Sans Fallback (see `assets/fonts/LICENSE-DroidSansFallback`): the
/// glyphs DejaVu Serif lacks — CJK ideographs, kana, Hangul — for regular
/// and bold text alike.
const FALLBACK_TTF: &[u8] = include_bytes!("../../../fonts/DroidSansFallbackFull.ttf");

/// Line height as a multiple of the font size, used by [`fit`] and
/// [`paragraph`].
pub const LINE_HEIGHT: f64 = 1.2;

/// Step by which [`fit`] shrinks the font size, in points.
const FIT_STEP: f64 = 0.25;

/// Slack for floating-point comparisons of lengths, in points.
const EPSILON: f64 = 1e-6;

/// Resource names of the fonts in the pages' `/Font` dictionary: regular,
/// bold and the fallback (each there when the document draws with it).
const RESOURCES: [&str; 3] = ["F1", "F2", "F3"];

/// Paper size of a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paper {
    /// US Letter, 8.5 × 11 in (612 × 792 pt).
    Letter,
    /// ISO A4, 210 × 297 mm (595.28 × 841.89 pt).
    A4,
}

impl Paper {
    /// Width and height in points.
    pub fn size(self) -> (f64, f64) {
        match self {
            Paper::Letter => (612.0, 792.0),
            Paper::A4 => (595.28, 841.89),
        }
    }

    /// The pack PDF's file name: `pack.pdf` on A4, `pack-letter.pdf` on
    /// letter, so both can sit in one pack folder.
    pub fn pack_pdf(self) -> String {
        self.pdf_name("pack")
    }

    /// A PDF's file name on this paper: `{stem}.pdf` on A4,
    /// `{stem}-letter.pdf` on letter (`encounter-2-letter.pdf`).
    pub fn pdf_name(self, stem: &str) -> String {
        match self {
            Paper::Letter => format!("{stem}-letter.pdf"),
            Paper::A4 => format!("{stem}.pdf"),
        }
    }
}

/// The document fonts, DejaVu Serif regular and bold, parsed once from the
/// bytes embedded in the binary, and Droid Sans Fallback for the characters
/// DejaVu Serif lacks (CJK, kana, Hangul), parsed the first time a text
/// needs it. Load them once and share them: parsing takes a few
/// milliseconds.
pub struct Fonts {
    regular: Face,
    bold: Face,
    fallback: OnceLock<Face>,
}

/// Which embedded font draws a run of text: DejaVu Serif (regular or bold,
/// as the text is) or the fallback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    Main,
    Fallback,
}

impl Source {
    /// Which embedded font draws a run from this source, as an index into
    /// [`RESOURCES`]: regular, bold or the fallback.
    fn font(self, bold: bool) -> usize {
        match (self, bold) {
            (Source::Main, false) => 0,
            (Source::Main, true) => 1,
            (Source::Fallback, _) => 2,
        }
    }
}

impl std::fmt::Debug for Fonts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fonts")
            .field("regular", &self.regular.ps_name)
            .field("bold", &self.bold.ps_name)
            .finish()
    }
}

impl Fonts {
    /// Parses the embedded fonts.
    pub fn load() -> Fonts {
        Fonts {
            regular: Face::load(REGULAR_TTF, "DejaVuSerif"),
            bold: Face::load(BOLD_TTF, "DejaVuSerif-Bold"),
            fallback: OnceLock::new(),
        }
    }

    fn fallback(&self) -> &Face {
        self.fallback
            .get_or_init(|| Face::load(FALLBACK_TTF, "DroidSansFallback"))
    }

    /// The font that draws `c` and the character it draws: DejaVu Serif's
    /// own glyph, else the fallback's, else DejaVu Serif's U+FFFD `�` (so
    /// the PDF shows, and copies out as, U+FFFD rather than an empty box).
    fn source(&self, c: char, bold: bool) -> (Source, char) {
        if self.face(bold).glyph(c).is_some() {
            (Source::Main, c)
        } else if self.fallback().glyph(c).is_some() {
            (Source::Fallback, c)
        } else {
            (Source::Main, REPLACEMENT)
        }
    }

    /// `text` as it is drawn: runs set in one font each, in order, with
    /// U+FFFD for characters no font has.
    fn runs(&self, text: &str, bold: bool) -> Vec<(Source, String)> {
        let mut runs: Vec<(Source, String)> = Vec::new();
        for c in text.chars() {
            let (source, c) = self.source(c, bold);
            match runs.last_mut() {
                Some((last, run)) if *last == source => run.push(c),
                _ => runs.push((source, c.to_string())),
            }
        }
        runs
    }

    fn face(&self, bold: bool) -> &Face {
        if bold { &self.bold } else { &self.regular }
    }

    /// Width of `text` set at `size` points, in points, from the real
    /// advance widths of the font that draws each character (DejaVu Serif,
    /// else the fallback; no kerning: the PDF does not kern either, so
    /// measured and drawn widths agree). Characters no font has count as
    /// U+FFFD `�`, which is what the PDF shows for them.
    pub fn width(&self, text: &str, size: f64, bold: bool) -> f64 {
        let main = self.face(bold);
        let (mut units, mut fallback_units) = (0u64, 0u64);
        for c in text.chars() {
            if let Some(&(glyph, advance)) = main.fast.get(c as usize)
                && glyph != 0
            {
                units += u64::from(advance);
            } else if main.glyph(c).is_some() {
                units += u64::from(main.metrics(c).1);
            } else if let Some(glyph) = self.fallback().glyph(c) {
                let face = self.fallback();
                fallback_units += u64::from(face.advance(glyph));
            } else {
                units += u64::from(main.replacement.1);
            }
        }
        let mut em = units as f64 / main.units_per_em;
        if fallback_units > 0 {
            em += fallback_units as f64 / self.fallback().units_per_em;
        }
        em * size
    }

    /// The white box behind a text set in these fonts with its baseline at
    /// (`x`, `y`), placed by `anchor` (corner and size): [`halo_box`] as
    /// wide as the real glyphs, the box the painter paints for a halo.
    pub fn halo_box(
        &self,
        text: &str,
        size: f64,
        bold: bool,
        anchor: Anchor,
        (x, y): (f64, f64),
    ) -> ((f64, f64), (f64, f64)) {
        let w = self.width(text, size, bold);
        halo_box(text_left(x, w, anchor), y, size, w)
    }

    /// The box `shape` puts ink in, as (left, top) and (right, bottom): a
    /// band with its breadth, a text its halo's box ([`Fonts::halo_box`],
    /// halo or not), line widths aside.
    pub fn ink_box(&self, shape: &Shape) -> ((f64, f64), (f64, f64)) {
        let span = |(x1, y1): (f64, f64), (x2, y2): (f64, f64), h: f64| {
            (
                (x1.min(x2) - h, y1.min(y2) - h),
                (x1.max(x2) + h, y1.max(y2) + h),
            )
        };
        match shape {
            Shape::Line { x1, y1, x2, y2, .. } => span((*x1, *y1), (*x2, *y2), 0.0),
            Shape::Band {
                x1,
                y1,
                x2,
                y2,
                width,
                ..
            } => span((*x1, *y1), (*x2, *y2), width / 2.0),
            Shape::Circle { cx, cy, r, .. } => span((*cx, *cy), (*cx, *cy), *r),
            Shape::Rect { x, y, w, h, .. } | Shape::Tint { x, y, w, h, .. } => {
                ((*x, *y), (x + w, y + h))
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
                let ((l, t), (w, h)) = self.halo_box(text, *size, *bold, *anchor, (*x, *y));
                ((l, t), (l + w, t + h))
            }
        }
    }

    /// Whether a font has a glyph for `c` (DejaVu Serif or the fallback);
    /// [`document`] draws U+FFFD `�` for characters none has.
    pub fn has_glyph(&self, c: char, bold: bool) -> bool {
        self.face(bold).glyph(c).is_some() || self.fallback().glyph(c).is_some()
    }

    /// Distance from the top of a line box ([`LINE_HEIGHT`] × `size` tall)
    /// down to its baseline: the text's ascender-to-descender height sits
    /// centred in the box, as in CSS.
    pub fn baseline_offset(&self, size: f64) -> f64 {
        let (ascent, descent) = self.regular.vertical_metrics();
        ((LINE_HEIGHT - (ascent - descent)) / 2.0 + ascent) * size
    }
}

/// Breaks `text` into lines no wider than `max_width` points at `size`.
///
/// Lines break at whitespace (runs of spaces collapse to one); a `'\n'`
/// forces a break, and an empty line between two `'\n'`s is kept as `""`.
/// A word wider than a whole line is broken between characters (at least
/// one character per line, so a single glyph wider than `max_width` still
/// gets a line of its own). Empty or blank text gives no lines.
pub fn wrap(fonts: &Fonts, text: &str, size: f64, bold: bool, max_width: f64) -> Vec<String> {
    let mut lines = Vec::new();
    if text.trim().is_empty() {
        return lines;
    }
    let space = fonts.width(" ", size, bold);
    for paragraph in text.split('\n') {
        let mut line = String::new();
        let mut line_width = 0.0;
        // A no-break space (U+00A0) holds the words either side together.
        let words = paragraph
            .split(|c: char| c.is_whitespace() && c != '\u{a0}')
            .filter(|w| !w.is_empty());
        for word in words {
            let width = fonts.width(word, size, bold);
            if !line.is_empty() && line_width + space + width <= max_width + EPSILON {
                line.push(' ');
                line.push_str(word);
                line_width += space + width;
                continue;
            }
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            if width <= max_width + EPSILON {
                line.push_str(word);
                line_width = width;
            } else {
                line_width = break_word(fonts, word, size, bold, max_width, &mut lines, &mut line);
            }
        }
        lines.push(line);
    }
    lines
}

/// Splits an overlong `word` into full lines pushed onto `lines`, leaving
/// the last piece in `line` and returning its width.
fn break_word(
    fonts: &Fonts,
    word: &str,
    size: f64,
    bold: bool,
    max_width: f64,
    lines: &mut Vec<String>,
    line: &mut String,
) -> f64 {
    let mut width = 0.0;
    for c in word.chars() {
        let mut buf = [0u8; 4];
        let w = fonts.width(c.encode_utf8(&mut buf), size, bold);
        if !line.is_empty() && width + w > max_width + EPSILON {
            lines.push(std::mem::take(line));
            width = 0.0;
        }
        line.push(c);
        width += w;
    }
    width
}

/// Shrink-to-fit: the largest size, from `start_size` down to `min_size`
/// in steps of 0.25 pt, at which `text` wrapped to `max_width` fits in
/// `max_height` (each line [`LINE_HEIGHT`] × size tall), with its lines.
///
/// When even `min_size` does not fit, returns `min_size` and its lines,
/// which then overflow the box: the caller decides what to do about that.
pub fn fit(
    fonts: &Fonts,
    text: &str,
    bold: bool,
    max_width: f64,
    max_height: f64,
    start_size: f64,
    min_size: f64,
) -> (f64, Vec<String>) {
    let min_size = min_size.min(start_size);
    let mut size = start_size;
    loop {
        let lines = wrap(fonts, text, size, bold, max_width);
        let tall_enough = lines.len() as f64 * LINE_HEIGHT * size <= max_height + EPSILON;
        let wide_enough = lines
            .iter()
            .all(|line| fonts.width(line, size, bold) <= max_width + EPSILON);
        if (tall_enough && wide_enough) || size <= min_size {
            return (size, lines);
        }
        size = (size - FIT_STEP).max(min_size);
    }
}

/// Lays `lines` out as [`Shape::Text`]s in a block whose top edge is at
/// `top`: one line every [`LINE_HEIGHT`] × `size`, each baseline placed by
/// [`Fonts::baseline_offset`], anchored at `x`. Such a block is exactly as
/// tall as [`fit`] assumes.
pub fn paragraph(
    fonts: &Fonts,
    lines: &[String],
    x: f64,
    top: f64,
    size: f64,
    bold: bool,
    anchor: Anchor,
) -> Vec<Shape> {
    let first = top + fonts.baseline_offset(size);
    lines
        .iter()
        .enumerate()
        .map(|(i, line)| Shape::Text {
            x,
            y: first + i as f64 * LINE_HEIGHT * size,
            size,
            anchor,
            bold,
            halo: false,
            text: line.clone(),
        })
        .collect()
}

/// One page: shapes in points, y downwards from the page's top-left corner.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Page {
    /// The shapes on the page, drawn in order.
    pub items: Vec<Shape>,
    /// Grey level of the page's text: 0 black (the default), up to 1
    /// white; the ink saver sets its text in dark grey (0.4).
    pub text_grey: f32,
}

/// A bookmark in the document outline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// The bookmark's text.
    pub title: String,
    /// Index of the page the section starts on, from 0 (an index into the
    /// `pages` given to [`document`]).
    pub first_page: usize,
}

/// 128-bit FNV-1a: tiny, stable across platforms and Rust versions (unlike
/// `std::hash`), and plenty for identifiers.
struct Fnv128(u128);

impl Fnv128 {
    const OFFSET_BASIS: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013b;

    fn new() -> Fnv128 {
        Fnv128(Self::OFFSET_BASIS)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u128::from(b)).wrapping_mul(Self::PRIME);
        }
    }

    fn finish(&self) -> u128 {
        self.0
    }
}
