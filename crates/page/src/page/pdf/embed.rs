//! A [`Subset`] written into a PDF as a composite font (ISO 32000-1, 9.7):
//! a `Type0` font with the `Identity-H` encoding (each glyph shown by its
//! two-byte id), its `CIDFontType2` descendant with every used glyph's
//! width, the descriptor holding the TrueType program, and a `/ToUnicode`
//! map so that text copied out of the PDF is the text drawn.

use std::fmt::Write as _;

use lopdf::{Dictionary, Document, Object, ObjectId, Stream, StringFormat};

use super::face::{Face, Subset};

/// Adds the font objects for `subset` of `face` to `doc` and returns the
/// font dictionary's id, for a page's `/Font` resources under `resource`.
pub(super) fn font(doc: &mut Document, resource: &str, face: &Face, subset: &Subset) -> ObjectId {
    let program = Stream::new(
        Dictionary::from_iter(vec![(
            "Length1",
            Object::Integer(subset.program.len() as i64),
        )]),
        subset.program.clone(),
    );
    let program = doc.add_object(program);
    let descriptor = doc.add_object(descriptor(face, subset, program));
    let to_unicode = Stream::new(Dictionary::new(), to_unicode(resource, subset).into_bytes());
    let to_unicode = doc.add_object(to_unicode);
    let name = || Object::Name(subset.name.clone().into_bytes());
    let cid_font = Dictionary::from_iter(vec![
        ("Type", Object::Name(b"Font".to_vec())),
        ("BaseFont", name()),
        ("Subtype", Object::Name(b"CIDFontType2".to_vec())),
        (
            "CIDSystemInfo",
            Object::Dictionary(Dictionary::from_iter(vec![
                ("Registry", ascii("Adobe")),
                ("Ordering", ascii("Identity")),
                ("Supplement", Object::Integer(0)),
            ])),
        ),
        ("W", Object::Array(widths(face, subset))),
        ("DW", Object::Integer(1000)),
        ("FontDescriptor", Object::Reference(descriptor)),
        ("CIDToGIDMap", Object::Name(b"Identity".to_vec())),
    ]);
    doc.add_object(Dictionary::from_iter(vec![
        ("Type", Object::Name(b"Font".to_vec())),
        ("Subtype", Object::Name(b"Type0".to_vec())),
        ("BaseFont", name()),
        ("Encoding", Object::Name(b"Identity-H".to_vec())),
        ("ToUnicode", Object::Reference(to_unicode)),
        (
            "DescendantFonts",
            Object::Array(vec![Object::Dictionary(cid_font)]),
        ),
    ]))
}

fn ascii(text: &str) -> Object {
    Object::String(text.as_bytes().to_vec(), StringFormat::Literal)
}

/// A length in design units as glyph space (1/1000 em), rounded.
fn thousandths(face: &Face, units: i16) -> i64 {
    (f64::from(units) * 1000.0 / face.units_per_em).round() as i64
}

/// The font descriptor: the face's name, metrics and program. Readers use
/// the metrics only to stand in another font, which never happens here
/// (the program is embedded), so the usual defaults serve for the stem
/// width and flags: upright, non-symbolic.
fn descriptor(face: &Face, subset: &Subset, program: ObjectId) -> Dictionary {
    let (ascent, descent) = face.vertical_units();
    let [x_min, y_min, x_max, y_max] = face.bbox;
    let bbox = [x_min, y_min, x_max, y_max].map(|v| Object::Integer(thousandths(face, v)));
    Dictionary::from_iter(vec![
        ("Type", Object::Name(b"FontDescriptor".to_vec())),
        ("FontName", Object::Name(subset.name.clone().into_bytes())),
        ("Ascent", Object::Integer(thousandths(face, ascent))),
        ("Descent", Object::Integer(thousandths(face, descent))),
        ("CapHeight", Object::Integer(thousandths(face, ascent))),
        ("ItalicAngle", Object::Integer(0)),
        ("Flags", Object::Integer(1 << 5)),
        ("StemV", Object::Integer(80)),
        ("FontBBox", Object::Array(bbox.to_vec())),
        ("FontFile2", Object::Reference(program)),
    ])
}

/// The `/W` array: each run of consecutive codes as `first [w w …]`, a
/// width in whole thousandths of an em (cut, not rounded, as before: the
/// pages are the same to the point).
fn widths(face: &Face, subset: &Subset) -> Vec<Object> {
    let mut out = Vec::new();
    let mut run: Vec<Object> = Vec::new();
    let mut first = 0;
    let mut next = None;
    for &(code, advance) in &subset.advances {
        let width = (f64::from(advance) * 1000.0 / face.units_per_em) as i64;
        if next != Some(code) && !run.is_empty() {
            out.push(Object::Integer(first));
            out.push(Object::Array(std::mem::take(&mut run)));
        }
        if run.is_empty() {
            first = i64::from(code);
        }
        run.push(Object::Integer(width));
        next = code.checked_add(1);
    }
    if !run.is_empty() {
        out.push(Object::Integer(first));
        out.push(Object::Array(run));
    }
    out
}

/// The `/ToUnicode` CMap (Adobe technical note 5411): each code to the
/// character it draws; where several characters share a glyph, the first.
fn to_unicode(resource: &str, subset: &Subset) -> String {
    let mut chars: Vec<(u16, char)> = subset.codes.iter().map(|(&c, &code)| (code, c)).collect();
    chars.sort_unstable();
    chars.dedup_by_key(|&mut (code, _)| code);
    let mut out = format!(
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n\
         /CIDSystemInfo << /Registry (tablewright) /Ordering ({resource}) /Supplement 0 >> def\n\
         /CMapName /tablewright-{resource} def\n/CMapType 2 def\n\
         1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n"
    );
    // At most 100 entries a block.
    for block in chars.chunks(100) {
        let _ = writeln!(out, "{} beginbfchar", block.len());
        for &(code, c) in block {
            let _ = write!(out, "<{code:04X}> <");
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                let _ = write!(out, "{unit:04X}");
            }
            out.push_str(">\n");
        }
        out.push_str("endbfchar\n");
    }
    out.push_str("endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n");
    out
}
