//! One embedded typeface, read by printpdf ([`ParsedFont`]: its cmap,
//! advances and vertical metrics): the glyph that draws each character and
//! its advance, kept in a flat table for the characters text measuring
//! meets most, and the cut-down copy of the face a document embeds.
//!
//! The cut is made with `allsorts` (the font library printpdf reads fonts
//! with): printpdf subsets only with its `text_layout` feature, which
//! brings a whole layout engine, so printpdf is handed the subset as a font
//! of its own and embeds it whole.

use std::collections::BTreeSet;

use allsorts::binary::read::ReadScope;
use allsorts::font_data::FontData;
use allsorts::subset::{CmapTarget, SubsetProfile};
use printpdf::ParsedFont;

use super::Fnv128;

/// Characters below this code point have their glyph and advance in a
/// flat table (Latin, Greek, Cyrillic, punctuation, arrows, maths, dingbats
/// and card suits all lie below it); text measuring is the hot path of
/// [`super::wrap`] and [`super::fit`].
const FAST_CHARS: usize = 0x3000;

/// Drawn (and measured) instead of a character the font has no glyph for.
pub(super) const REPLACEMENT: char = '\u{FFFD}';

/// One typeface: its raw bytes (for subsetting) and its parsed tables (for
/// glyph lookup and advances).
pub(super) struct Face {
    bytes: &'static [u8],
    /// PostScript name, used for `/BaseFont` after the subset tag.
    pub(super) ps_name: &'static str,
    parsed: ParsedFont,
    /// Design units per em.
    pub(super) units_per_em: f64,
    /// (glyph id, advance in design units) by code point, below
    /// [`FAST_CHARS`]; glyph 0 where the font has no glyph.
    pub(super) fast: Vec<(u16, u16)>,
    /// Glyph id and advance of [`REPLACEMENT`] (0, 0 for the fallback,
    /// which never draws it).
    pub(super) replacement: (u16, u16),
}

impl Face {
    /// Reads `bytes`, a font the binary embeds: a font that does not parse
    /// is a bug of the build, not of the input.
    pub(super) fn load(bytes: &'static [u8], ps_name: &'static str) -> Face {
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
    pub(super) fn glyph(&self, c: char) -> Option<u16> {
        let glyph = match self.fast.get(c as usize) {
            Some(&(glyph, _)) => glyph,
            None => self.parsed.lookup_glyph_index(u32::from(c)).unwrap_or(0),
        };
        (glyph != 0).then_some(glyph)
    }

    /// The advance of `glyph`, in design units.
    pub(super) fn advance(&self, glyph: u16) -> u16 {
        self.parsed.get_glyph_width(glyph).unwrap_or(0)
    }

    /// Glyph id and advance (design units) drawn for `c`: its own, or the
    /// replacement character's.
    pub(super) fn metrics(&self, c: char) -> (u16, u16) {
        match self.fast.get(c as usize) {
            Some(&(0, _)) => self.replacement,
            Some(&m) => m,
            None => match self.glyph(c) {
                Some(glyph) => (glyph, self.advance(glyph)),
                None => self.replacement,
            },
        }
    }

    /// Ascender and descender (negative) from `hhea`, in em.
    pub(super) fn vertical_metrics(&self) -> (f64, f64) {
        let m = &self.parsed.font_metrics;
        (
            f64::from(m.ascent) / self.units_per_em,
            f64::from(m.descent) / self.units_per_em,
        )
    }

    /// This face cut down to the glyphs for `chars`, as a font printpdf
    /// embeds (its cmap maps each character to its glyph in the subset).
    /// Falls back to the whole font (still correct, just larger) should the
    /// subsetter ever fail.
    pub(super) fn subset(&self, chars: &BTreeSet<char>) -> ParsedFont {
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
