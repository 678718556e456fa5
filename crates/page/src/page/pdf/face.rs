//! One embedded typeface, read with `allsorts`: the glyph that draws each
//! character, the glyphs' advances, the vertical metrics and bounding box,
//! and the cut-down copy of the face ([`Subset`]) a document embeds.

use std::collections::{BTreeMap, BTreeSet};

use allsorts::binary::read::ReadScope;
use allsorts::font_data::FontData;
use allsorts::subset::{CmapTarget, SubsetProfile};
use allsorts::tables::cmap::Cmap;
use allsorts::tables::{FontTableProvider, HeadTable, HheaTable, HmtxTable, MaxpTable};
use allsorts::tag;

use super::Fnv128;

/// Characters below this code point have their glyph and advance in a
/// flat table (Latin, Greek, Cyrillic, punctuation, arrows, maths, dingbats
/// and card suits all lie below it); text measuring is the hot path of
/// [`super::wrap`] and [`super::fit`].
const FAST_CHARS: usize = 0x3000;

/// Drawn (and measured) instead of a character the font has no glyph for.
pub(super) const REPLACEMENT: char = '\u{FFFD}';

/// One typeface: its raw bytes (for subsetting) and what text layout and
/// embedding read from its tables.
pub(super) struct Face {
    bytes: &'static [u8],
    /// PostScript name, used for `/BaseFont` after the subset tag.
    pub(super) ps_name: &'static str,
    /// Design units per em.
    pub(super) units_per_em: f64,
    /// `hhea` ascender and descender (negative), in design units.
    ascent: i16,
    descent: i16,
    /// `head` bounding box of all glyphs: x min, y min, x max, y max.
    pub(super) bbox: [i16; 4],
    /// Glyph by code point, at and above [`FAST_CHARS`].
    above: BTreeMap<u32, u16>,
    /// Advance in design units, by glyph id.
    advances: Vec<u16>,
    /// (glyph id, advance in design units) by code point, below
    /// [`FAST_CHARS`]; glyph 0 where the font has no glyph.
    pub(super) fast: Vec<(u16, u16)>,
    /// Glyph id and advance of [`REPLACEMENT`] (0, 0 for the fallback,
    /// which never draws it).
    pub(super) replacement: (u16, u16),
}

/// A face cut down to the glyphs a document draws, ready to embed.
pub(super) struct Subset {
    /// The font program (a TrueType file).
    pub(super) program: Vec<u8>,
    /// `/BaseFont`: the PostScript name after a subset tag (`ABCDEF+`).
    pub(super) name: String,
    /// The two-byte code (the glyph id in `program`) each drawn character
    /// is shown with.
    pub(super) codes: BTreeMap<char, u16>,
    /// (code, advance in design units) of every code used, ascending.
    pub(super) advances: Vec<(u16, u16)>,
}

impl Face {
    /// Reads `bytes`, a font the binary embeds: a font that does not parse
    /// is a bug of the build, not of the input.
    pub(super) fn load(bytes: &'static [u8], ps_name: &'static str) -> Face {
        Face::read(bytes, ps_name).expect("the embedded fonts should parse")
    }

    fn read(bytes: &'static [u8], ps_name: &'static str) -> Option<Face> {
        let data = ReadScope::new(bytes).read::<FontData<'_>>().ok()?;
        let provider = data.table_provider(0).ok()?;
        let table = |t| provider.read_table_data(t).ok();
        let head_data = table(tag::HEAD)?;
        let head = ReadScope::new(&head_data).read::<HeadTable>().ok()?;
        let maxp_data = table(tag::MAXP)?;
        let maxp = ReadScope::new(&maxp_data).read::<MaxpTable>().ok()?;
        let hhea_data = table(tag::HHEA)?;
        let hhea = ReadScope::new(&hhea_data).read::<HheaTable>().ok()?;

        let mut above = BTreeMap::new();
        let mut fast = vec![(0, 0); FAST_CHARS];
        let cmap_data = table(tag::CMAP)?;
        let cmap = ReadScope::new(&cmap_data).read::<Cmap<'_>>().ok()?;
        let (_, subtable) = allsorts::font::read_cmap_subtable(&cmap).ok()??;

        let hmtx_data = table(tag::HMTX)?;
        let counts = (
            usize::from(maxp.num_glyphs),
            usize::from(hhea.num_h_metrics),
        );
        let hmtx = ReadScope::new(&hmtx_data)
            .read_dep::<HmtxTable<'_>>(counts)
            .ok()?;
        let advances: Vec<u16> = (0..maxp.num_glyphs)
            .map(|glyph| hmtx.horizontal_advance(glyph).unwrap_or(0))
            .collect();
        let advance = |glyph: u16| advances.get(usize::from(glyph)).copied().unwrap_or(0);
        subtable
            .mappings_fn(|code, glyph| match fast.get_mut(code as usize) {
                Some(slot) => *slot = (glyph, advance(glyph)),
                None => {
                    above.insert(code, glyph);
                }
            })
            .ok()?;
        let replacement = above
            .get(&u32::from(REPLACEMENT))
            .map_or((0, 0), |&glyph| (glyph, advance(glyph)));
        Some(Face {
            bytes,
            ps_name,
            units_per_em: f64::from(head.units_per_em.max(1)),
            ascent: hhea.ascender,
            descent: hhea.descender,
            bbox: [head.x_min, head.y_min, head.x_max, head.y_max],
            above,
            advances,
            fast,
            replacement,
        })
    }

    /// The font's own glyph id for `c`, if it has one.
    pub(super) fn glyph(&self, c: char) -> Option<u16> {
        let glyph = match self.fast.get(c as usize) {
            Some(&(glyph, _)) => glyph,
            None => self.above.get(&u32::from(c)).copied().unwrap_or(0),
        };
        (glyph != 0).then_some(glyph)
    }

    /// The advance of `glyph`, in design units.
    pub(super) fn advance(&self, glyph: u16) -> u16 {
        self.advances.get(usize::from(glyph)).copied().unwrap_or(0)
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

    /// Ascender and descender (negative) from `hhea`, in design units.
    pub(super) fn vertical_units(&self) -> (i16, i16) {
        (self.ascent, self.descent)
    }

    /// Ascender and descender (negative) from `hhea`, in em.
    pub(super) fn vertical_metrics(&self) -> (f64, f64) {
        (
            f64::from(self.ascent) / self.units_per_em,
            f64::from(self.descent) / self.units_per_em,
        )
    }

    /// This face cut down to the glyphs for `chars`, ready to embed. Falls
    /// back to the whole font (still correct, just larger) should the
    /// subsetter ever fail.
    pub(super) fn subset(&self, chars: &BTreeSet<char>) -> Subset {
        // Each character's glyph and advance, looked up once.
        let drawn: Vec<(char, (u16, u16))> = chars.iter().map(|&c| (c, self.metrics(c))).collect();
        // Glyph 0 (.notdef) must come first; the rest sorted and unique.
        // The subset numbers its glyphs in this order.
        let mut glyphs: Vec<u16> = drawn.iter().map(|&(_, (glyph, _))| glyph).collect();
        glyphs.push(0);
        glyphs.sort_unstable();
        glyphs.dedup();

        let program = ReadScope::new(self.bytes)
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
            });
        let (program, name, code) = match program {
            // The `ABCDEF+` tag marks a subset font (ISO 32000-1, 9.6.4);
            // derived from the glyph set so it is reproducible.
            Some(program) => (
                program,
                format!("{}+{}", subset_tag(&glyphs), self.ps_name),
                Some(&glyphs),
            ),
            None => (self.bytes.to_vec(), self.ps_name.to_string(), None),
        };
        let code_of = |glyph: u16| match code {
            Some(glyphs) => glyphs.binary_search(&glyph).map_or(0, |i| i as u16),
            None => glyph,
        };
        let codes: BTreeMap<char, u16> = drawn
            .iter()
            .map(|&(c, (glyph, _))| (c, code_of(glyph)))
            .collect();
        let mut advances: Vec<(u16, u16)> = drawn
            .iter()
            .map(|&(_, (glyph, advance))| (code_of(glyph), advance))
            .collect();
        advances.sort_unstable();
        advances.dedup_by_key(|&mut (code, _)| code);
        Subset {
            program,
            name,
            codes,
            advances,
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
