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
//!   bookmarks, and byte-for-byte reproducible output;
//! - `painter`: one page's shapes as PDF operations (the PDF
//!   [`Canvas`](crate::page::Canvas)).
//!
//! It is pure: nothing here touches the file system, the clock or a random
//! source; the caller writes the returned bytes wherever it likes.
//!
//! Reproducibility is worth spelling out, because printpdf (0.12) is not
//! reproducible on its own: it names fonts, bookmarks and the trailer `/ID`
//! with strings from a process-global counter (`utils::random_character_string_32`),
//! so the second document a process renders differs from the first, and it
//! writes `/CreationDate`/`/ModDate` into the info dictionary. Here fonts get
//! fixed resource names, the outline and the info dictionary are written by
//! this module, the dates are left out and the `/ID` is a hash of the title
//! and the page contents. The same pages therefore always give the same bytes.
//!
//! Fonts are subset here rather than by printpdf: its subsetter needs its
//! heavy `text_layout` feature (a whole layout engine). Instead the glyphs a
//! document uses are cut out with `allsorts` (the font library printpdf
//! itself depends on), and printpdf embeds that subset as an Identity-H
//! `CIDFontType2` font with a `/ToUnicode` map, so text stays extractable.
//! This relies on printpdf's `text_layout` feature staying *off* (with it
//! on, `ParsedFont` is a different type and this module does not compile).

use std::collections::BTreeSet;
use std::sync::OnceLock;

use allsorts::binary::read::ReadScope;
use allsorts::font_data::FontData;
use allsorts::subset::{CmapTarget, SubsetProfile};
use lopdf::{Object, StringFormat};
use printpdf::{FontId, ParsedFont, PdfDocument, PdfFont, PdfPage, PdfSaveOptions, Pt, Rect};

use crate::page::{Anchor, Shape, halo_box, text_left};

mod painter;

use painter::Painter;

/// DejaVu Serif, regular (see `assets/fonts/LICENSE`).
const REGULAR_TTF: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSerif.ttf");
/// DejaVu Serif, bold (see `assets/fonts/LICENSE`).
const BOLD_TTF: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSerif-Bold.ttf");
/// Droid Sans Fallback (see `assets/fonts/LICENSE-DroidSansFallback`): the
/// glyphs DejaVu Serif lacks — CJK ideographs, kana, Hangul — for regular
/// and bold text alike.
const FALLBACK_TTF: &[u8] = include_bytes!("../../../assets/fonts/DroidSansFallbackFull.ttf");

/// Line height as a multiple of the font size, used by [`fit`] and
/// [`paragraph`].
pub(crate) const LINE_HEIGHT: f64 = 1.2;

/// Step by which [`fit`] shrinks the font size, in points.
const FIT_STEP: f64 = 0.25;

/// Slack for floating-point comparisons of lengths, in points.
const EPSILON: f64 = 1e-6;

/// Resource names of the fonts in every page's `/Font` dictionary.
const REGULAR_RESOURCE: &str = "F1";
const BOLD_RESOURCE: &str = "F2";
/// Resource name of the fallback font, on pages that use it.
const FALLBACK_RESOURCE: &str = "F3";

/// Written into the document information dictionary.
const CREATOR: &str = "tablewright";
const PRODUCER: &str = "tablewright (printpdf 0.12)";

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

/// Characters below this code point have their glyph and advance in a
/// flat table (Latin, Greek, Cyrillic, punctuation, arrows, maths, dingbats
/// and card suits all lie below it); text measuring is the hot path of
/// [`wrap`] and [`fit`].
const FAST_CHARS: usize = 0x3000;

/// Drawn (and measured) instead of a character the font has no glyph for.
const REPLACEMENT: char = '\u{FFFD}';

/// One typeface: its raw bytes (for subsetting) and its parsed tables (for
/// glyph lookup and advances).
struct Face {
    bytes: &'static [u8],
    /// PostScript name, used for `/BaseFont` after the subset tag.
    ps_name: &'static str,
    parsed: ParsedFont,
    /// Design units per em.
    units_per_em: f64,
    /// (glyph id, advance in design units) by code point, below
    /// [`FAST_CHARS`]; glyph 0 where the font has no glyph.
    fast: Vec<(u16, u16)>,
    /// Glyph id and advance of [`REPLACEMENT`] (0, 0 for the fallback,
    /// which never draws it).
    replacement: (u16, u16),
}

impl Face {
    fn load(bytes: &'static [u8], ps_name: &'static str) -> Face {
        let parsed = ParsedFont::from_bytes(bytes, 0, &mut Vec::new())
            .expect("the embedded fonts should parse");
        let units_per_em = f64::from(parsed.units_per_em.max(1));
        let advance = |glyph| parsed.get_glyph_width(glyph).unwrap_or(0);
        let mut fast = vec![(0, 0); FAST_CHARS];
        for (&code, &glyph) in parsed.codepoint_to_glyph.range(..FAST_CHARS as u32) {
            fast[code as usize] = (glyph, advance(glyph));
        }
        let replacement = parsed
            .lookup_glyph_index(u32::from(REPLACEMENT))
            .map_or((0, 0), |glyph| (glyph, advance(glyph)));
        Face {
            bytes,
            ps_name,
            parsed,
            units_per_em,
            fast,
            replacement,
        }
    }

    /// The font's own glyph id for `c`, if it has one.
    fn glyph(&self, c: char) -> Option<u16> {
        let glyph = match self.fast.get(c as usize) {
            Some(&(glyph, _)) => glyph,
            None => self.parsed.lookup_glyph_index(u32::from(c)).unwrap_or(0),
        };
        (glyph != 0).then_some(glyph)
    }

    /// Glyph id and advance (design units) drawn for `c`: its own, or the
    /// replacement character's.
    fn metrics(&self, c: char) -> (u16, u16) {
        match self.fast.get(c as usize) {
            Some(&(0, _)) => self.replacement,
            Some(&m) => m,
            None => match self.glyph(c) {
                Some(glyph) => (glyph, self.parsed.get_glyph_width(glyph).unwrap_or(0)),
                None => self.replacement,
            },
        }
    }

    /// Ascender and descender (negative) from `hhea`, in em.
    fn vertical_metrics(&self) -> (f64, f64) {
        let m = &self.parsed.font_metrics;
        (
            f64::from(m.ascent) / self.units_per_em,
            f64::from(m.descent) / self.units_per_em,
        )
    }

    /// This face cut down to the glyphs for `chars`, ready to embed. Falls
    /// back to the whole font (still correct, just larger) should the
    /// subsetter ever fail.
    fn subset(&self, chars: &BTreeSet<char>) -> ParsedFont {
        // Glyph 0 (.notdef) must come first; the rest sorted and unique.
        let mut glyphs: Vec<u16> = chars.iter().map(|&c| self.metrics(c).0).collect();
        glyphs.push(0);
        glyphs.sort_unstable();
        glyphs.dedup();

        let subset = ReadScope::new(self.bytes)
            .read::<FontData<'_>>()
            .ok()
            .and_then(|data| data.table_provider(0).ok())
            .and_then(|provider| {
                allsorts::subset::subset(
                    &provider,
                    &glyphs,
                    &SubsetProfile::Pdf,
                    CmapTarget::Unicode,
                )
                .ok()
            })
            .and_then(|bytes| ParsedFont::from_bytes(&bytes, 0, &mut Vec::new()));

        match subset {
            Some(mut font) => {
                // The `ABCDEF+` tag marks a subset font (ISO 32000-1, 9.6.4);
                // derived from the glyph set so it is reproducible.
                font.font_name = Some(format!("{}+{}", subset_tag(&glyphs), self.ps_name));
                font
            }
            None => {
                let mut font = self.parsed.clone();
                font.font_name = Some(self.ps_name.to_string());
                font
            }
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
                fallback_units += u64::from(face.parsed.get_glyph_width(glyph).unwrap_or(0));
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
pub(crate) fn wrap(
    fonts: &Fonts,
    text: &str,
    size: f64,
    bold: bool,
    max_width: f64,
) -> Vec<String> {
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
pub(crate) fn fit(
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
pub(crate) fn paragraph(
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
pub(crate) struct Page {
    pub items: Vec<Shape>,
    /// Grey level of the page's text: 0 black (the default), up to 1
    /// white; the ink saver sets its text in mid grey.
    pub text_grey: f32,
}

/// A bookmark in the document outline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Section {
    pub title: String,
    /// Index of the page the section starts on, from 0 (an index into the
    /// `pages` given to [`document`]).
    pub first_page: usize,
}

/// Renders `pages` as a PDF document and returns its bytes.
///
/// Every page is `paper`-sized; shapes are drawn in order, so later shapes
/// cover earlier ones. `sections` become the outline (bookmarks), in the
/// order given; a section whose `first_page` is past the end points at the
/// last page. With no pages at all, the document gets one blank page (a PDF
/// needs at least one).
///
/// The output depends only on the arguments: rendering the same pages again,
/// in this process or another, gives identical bytes.
pub(crate) fn document(
    title: &str,
    paper: Paper,
    pages: &[Page],
    sections: &[Section],
    fonts: &Fonts,
) -> Vec<u8> {
    let (width, height) = paper.size();

    // Only the characters the document draws go into the embedded fonts.
    let mut used_regular = BTreeSet::new();
    let mut used_bold = BTreeSet::new();
    let mut used_fallback = BTreeSet::new();
    for shape in pages.iter().flat_map(|page| &page.items) {
        if let Shape::Text { bold, text, .. } = shape {
            for (source, run) in fonts.runs(text, *bold) {
                let used = match (source, *bold) {
                    (Source::Fallback, _) => &mut used_fallback,
                    (Source::Main, true) => &mut used_bold,
                    (Source::Main, false) => &mut used_regular,
                };
                used.extend(run.chars());
            }
        }
    }

    let mut doc = PdfDocument::new(title);
    let fallback = if used_fallback.is_empty() {
        None
    } else {
        Some(fonts.fallback())
    };
    let faces = [
        (Some(&fonts.regular), &used_regular, REGULAR_RESOURCE),
        (Some(&fonts.bold), &used_bold, BOLD_RESOURCE),
        (fallback, &used_fallback, FALLBACK_RESOURCE),
    ];
    for (face, used, resource) in faces {
        let Some(face) = face else { continue };
        if !used.is_empty() {
            doc.resources.fonts.map.insert(
                FontId(resource.to_string()),
                PdfFont::new(face.subset(used)),
            );
        }
    }

    let page = |ops| {
        let media_box = Rect::from_wh(Pt(width as f32), Pt(height as f32));
        PdfPage {
            trim_box: media_box.clone(),
            crop_box: media_box.clone(),
            media_box,
            ops,
        }
    };
    let mut pdf_pages: Vec<PdfPage> = pages
        .iter()
        .map(|p| page(Painter::paint(fonts, height, &p.items, p.text_grey)))
        .collect();
    if pdf_pages.is_empty() {
        pdf_pages.push(page(Vec::new()));
    }
    doc.with_pages(pdf_pages);

    let options = PdfSaveOptions {
        // Compression happens below, after the post-processing.
        optimize: false,
        // Without printpdf's `text_layout` feature this flag does nothing;
        // the fonts were subset above.
        subset_fonts: false,
        secure: true,
        image_optimization: None,
    };
    let mut pdf = doc.to_lopdf_document(&options, &mut Vec::new());
    finish(&mut pdf, title, sections, height);
    pdf.compress();

    let mut bytes = Vec::new();
    let written = pdf.save_to(&mut bytes);
    debug_assert!(written.is_ok(), "writing a PDF into memory cannot fail");
    bytes
}

/// Makes printpdf's output reproducible and adds the outline: a fresh info
/// dictionary (no dates), an `/ID` hashed from the content, the bookmarks
/// in the order given.
fn finish(pdf: &mut lopdf::Document, title: &str, sections: &[Section], page_height: f64) {
    if let Ok(Object::Reference(info)) = pdf.trailer.get(b"Info").cloned() {
        let dict = lopdf::Dictionary::from_iter(vec![
            ("Title", text_string(title)),
            ("Creator", text_string(CREATOR)),
            ("Producer", text_string(PRODUCER)),
        ]);
        pdf.objects.insert(info, Object::Dictionary(dict));
    }

    // Not the page indices but the page objects, in page order.
    let page_ids: Vec<lopdf::ObjectId> = pdf.get_pages().into_values().collect();
    if let (Some(&last_page), false) = (page_ids.last(), sections.is_empty()) {
        let outline = pdf.new_object_id();
        let items: Vec<lopdf::ObjectId> = sections.iter().map(|_| pdf.new_object_id()).collect();
        for (i, section) in sections.iter().enumerate() {
            let page = page_ids
                .get(section.first_page)
                .copied()
                .unwrap_or(last_page);
            let mut item = lopdf::Dictionary::from_iter(vec![
                ("Title", text_string(&section.title)),
                ("Parent", Object::Reference(outline)),
                (
                    "Dest",
                    Object::Array(vec![
                        Object::Reference(page),
                        Object::Name(b"XYZ".to_vec()),
                        Object::Integer(0),
                        Object::Real(page_height as f32),
                        Object::Null,
                    ]),
                ),
            ]);
            if i > 0 {
                item.set("Prev", Object::Reference(items[i - 1]));
            }
            if let Some(&next) = items.get(i + 1) {
                item.set("Next", Object::Reference(next));
            }
            pdf.objects.insert(items[i], Object::Dictionary(item));
        }
        let root = lopdf::Dictionary::from_iter(vec![
            ("Type", Object::Name(b"Outlines".to_vec())),
            ("First", Object::Reference(items[0])),
            ("Last", Object::Reference(items[items.len() - 1])),
            ("Count", Object::Integer(items.len() as i64)),
        ]);
        pdf.objects.insert(outline, Object::Dictionary(root));
        if let Ok(catalog) = pdf.catalog_mut() {
            catalog.set("Outlines", Object::Reference(outline));
            catalog.set("PageMode", Object::Name(b"UseOutlines".to_vec()));
        }
    }

    // The file identifier: a hash of the title and every stream (page
    // contents, fonts), so different documents get different IDs.
    let mut hash = Fnv128::new();
    hash.write(title.as_bytes());
    for object in pdf.objects.values() {
        if let Object::Stream(stream) = object {
            hash.write(&stream.content);
        }
    }
    let id = hash.finish().to_be_bytes().to_vec();
    pdf.trailer.set(
        "ID",
        Object::Array(vec![
            Object::String(id.clone(), StringFormat::Hexadecimal),
            Object::String(id, StringFormat::Hexadecimal),
        ]),
    );
}

/// A PDF text string: plain bytes when ASCII, else UTF-16BE with a BOM.
fn text_string(text: &str) -> Object {
    if text.is_ascii() {
        Object::String(text.as_bytes().to_vec(), StringFormat::Literal)
    } else {
        let mut bytes = vec![0xFE, 0xFF];
        bytes.extend(text.encode_utf16().flat_map(u16::to_be_bytes));
        Object::String(bytes, StringFormat::Hexadecimal)
    }
}

/// Six capital letters derived from the glyph set, for a subset font name.
fn subset_tag(glyphs: &[u16]) -> String {
    let mut hash = Fnv128::new();
    for glyph in glyphs {
        hash.write(&glyph.to_be_bytes());
    }
    let mut n = hash.finish();
    (0..6)
        .map(|_| {
            let letter = char::from(b'A' + (n % 26) as u8);
            n /= 26;
            letter
        })
        .collect()
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
