//! The document, written by printpdf: the pages' operations, the fonts
//! (each a subset, under a fixed resource name), the bookmarks and the
//! information dictionary go into a [`PdfDocument`], which printpdf lays
//! out as PDF objects (page tree, content streams, Type0/CIDFontType2 fonts
//! with their `/W` widths and `/ToUnicode` maps, the outline).
//!
//! printpdf 0.12 leaves four things to the caller, set here on the lopdf
//! document it hands back before it is saved:
//!
//! - the trailer's `/ID`: printpdf draws it from a process-wide counter
//!   (the second document a process writes gets another), so it becomes a
//!   hash of the title and every stream: the same pages, the same bytes;
//! - the dates: printpdf always writes `/CreationDate` and `/ModDate` (the
//!   Unix epoch unless set), and a pack has no date, so both are taken out,
//!   with the empty PDF/X version and the other empty entries it writes
//!   beside them;
//! - the outline's order: printpdf lists bookmarks by page and then by
//!   title, so two sections sharing a page would swap when their titles sort
//!   the other way ("Trap cards" before "NPC cards" would not stay so); each
//!   of its outline entries gets the title and page of the section in its
//!   place, in the order given, each opening its page at the top-left (it
//!   writes `/XYZ null null null`, which keeps the reader's scroll);
//! - `/PageMode /UseOutlines`, which it writes as a string, not a name.

use std::collections::BTreeSet;

use lopdf::{Document, Object, ObjectId, StringFormat};
use printpdf::{
    FontId, PageAnnotId, PageAnnotation, PdfDocument, PdfFont, PdfPage, PdfSaveOptions, Pt, Rect,
};

use super::painter::Painter;
use super::{Fnv128, Fonts, Page, Paper, RESOURCES, Section};
use crate::page::Shape;

/// Written into the document information dictionary.
const CREATOR: &str = "tablewright";
const PRODUCER: &str = "tablewright (printpdf 0.12)";

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
pub fn document(
    title: &str,
    paper: Paper,
    pages: &[Page],
    sections: &[Section],
    fonts: &Fonts,
) -> Vec<u8> {
    let (width, height) = paper.size();
    let mut doc = PdfDocument::new(title);
    doc.metadata.info.creator = CREATOR.into();
    doc.metadata.info.producer = PRODUCER.into();
    add_fonts(&mut doc, fonts, pages);

    let page = |ops| {
        let media_box = Rect::from_wh(Pt(width as f32), Pt(height as f32));
        PdfPage {
            trim_box: media_box.clone(),
            crop_box: media_box.clone(),
            media_box,
            ops,
        }
    };
    let mut drawn: Vec<PdfPage> = pages
        .iter()
        .map(|p| page(Painter::paint(fonts, height, &p.items, p.text_grey)))
        .collect();
    if drawn.is_empty() {
        drawn.push(page(Vec::new()));
    }
    let last = drawn.len() - 1;
    doc.with_pages(drawn);
    // printpdf counts pages from 1.
    let bookmarks: Vec<PageAnnotation> = sections
        .iter()
        .map(|section| PageAnnotation {
            name: section.title.clone(),
            page: section.first_page.min(last) + 1,
        })
        .collect();
    for (i, bookmark) in bookmarks.iter().enumerate() {
        // Fixed ids, in the order given.
        let id = PageAnnotId(format!("{i:010}"));
        doc.bookmarks.map.insert(id, bookmark.clone());
    }

    let options = PdfSaveOptions {
        // Compressed below, once the document is settled.
        optimize: false,
        // printpdf subsets only with its `text_layout` feature; the fonts
        // are subsets already (`Face::subset`).
        subset_fonts: false,
        secure: true,
        image_optimization: None,
    };
    let mut pdf = doc.to_lopdf_document(&options, &mut Vec::new());
    settle(&mut pdf, title, &bookmarks, height);
    pdf.compress();
    let mut bytes = Vec::new();
    let written = pdf.save_to(&mut bytes);
    debug_assert!(written.is_ok(), "writing a PDF into memory cannot fail");
    bytes
}

/// Adds a subset of each font the pages draw with, under its fixed
/// resource name ([`RESOURCES`]): regular, bold, and the fallback (read
/// only when a text needs it).
fn add_fonts(doc: &mut PdfDocument, fonts: &Fonts, pages: &[Page]) {
    let used = used_chars(fonts, pages);
    let faces = [
        Some(&fonts.regular),
        Some(&fonts.bold),
        (!used[2].is_empty()).then(|| fonts.fallback()),
    ];
    for ((face, used), resource) in faces.iter().zip(&used).zip(RESOURCES) {
        if let Some(face) = face.filter(|_| !used.is_empty()) {
            let font = PdfFont::new(face.subset(used));
            doc.resources
                .fonts
                .map
                .insert(FontId(resource.into()), font);
        }
    }
}

/// The characters each font draws in `pages`: regular, bold, fallback.
fn used_chars(fonts: &Fonts, pages: &[Page]) -> [BTreeSet<char>; 3] {
    let mut used: [BTreeSet<char>; 3] = Default::default();
    for shape in pages.iter().flat_map(|page| &page.items) {
        if let Shape::Text { bold, text, .. } = shape {
            for (source, run) in fonts.runs(text, *bold) {
                used[source.font(*bold)].extend(run.chars());
            }
        }
    }
    used
}

/// What printpdf leaves to the caller (see the module's doc): no dates,
/// the outline in the order given, `/PageMode` a name, and an `/ID` hashed
/// from the content.
fn settle(pdf: &mut Document, title: &str, bookmarks: &[PageAnnotation], height: f64) {
    if let Ok(Object::Reference(info)) = pdf.trailer.get(b"Info")
        && let Ok(info) = pdf.get_dictionary_mut(*info)
    {
        // And the keys printpdf writes empty (author, subject, keywords,
        // identifier): the information is the title and who made it.
        let empty: Vec<Vec<u8>> = info
            .iter()
            .filter(|(_, value)| matches!(value, Object::String(s, _) if s.is_empty()))
            .map(|(key, _)| key.clone())
            .collect();
        for key in ["CreationDate", "ModDate", "GTS_PDFXVersion"].map(str::as_bytes) {
            info.remove(key);
        }
        for key in empty {
            info.remove(&key);
        }
    }
    outline_in_order(pdf, bookmarks, height);

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

/// printpdf's outline entries, put in the order of `bookmarks` (the
/// sections'): it lists them by (page, title), stably, so the entry at
/// place k holds the bookmark that sorts k-th; each bookmark's title and
/// destination move to the entry at its own place, the destination opening
/// the page at its top-left.
fn outline_in_order(pdf: &mut Document, bookmarks: &[PageAnnotation], height: f64) {
    let Ok(catalog) = pdf.catalog_mut() else {
        return;
    };
    if catalog.has(b"Outlines") {
        catalog.set("PageMode", Object::Name(b"UseOutlines".to_vec()));
    }
    let entries = outline_entries(pdf, bookmarks.len());
    debug_assert_eq!(
        entries.len(),
        bookmarks.len(),
        "one outline entry a section"
    );
    let mut sorted: Vec<usize> = (0..entries.len()).collect();
    sorted.sort_by_key(|&i| (bookmarks[i].page, &bookmarks[i].name));
    let mut moved: Vec<Option<(Object, Object)>> = vec![None; sorted.len()];
    for (&entry, &section) in entries.iter().zip(&sorted) {
        if let Ok(item) = pdf.get_dictionary(entry)
            && let (Ok(title), Ok(dest)) = (item.get(b"Title"), item.get(b"Dest"))
        {
            moved[section] = Some((title.clone(), dest.clone()));
        }
    }
    for (&entry, pair) in entries.iter().zip(moved) {
        let (Some((title, mut dest)), Ok(item)) = (pair, pdf.get_dictionary_mut(entry)) else {
            continue;
        };
        if let Object::Array(view) = &mut dest
            && view.len() == 5
        {
            view[2] = Object::Integer(0);
            view[3] = Object::Real(height as f32);
        }
        item.set("Title", title);
        item.set("Dest", dest);
    }
}

/// The outline's entries from first to last, following `/Next`: at most
/// `count` of them.
fn outline_entries(pdf: &Document, count: usize) -> Vec<ObjectId> {
    let first = pdf
        .catalog()
        .and_then(|c| c.get(b"Outlines"))
        .and_then(Object::as_reference)
        .and_then(|id| pdf.get_dictionary(id))
        .and_then(|outlines| outlines.get(b"First"))
        .and_then(Object::as_reference);
    let mut entries = Vec::new();
    let mut next = first.ok();
    while let Some(id) = next.filter(|_| entries.len() < count) {
        entries.push(id);
        next = pdf
            .get_dictionary(id)
            .and_then(|item| item.get(b"Next"))
            .and_then(Object::as_reference)
            .ok();
    }
    entries
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::Anchor;

    fn text(text: &str) -> Shape {
        Shape::Text {
            x: 72.0,
            y: 72.0,
            size: 12.0,
            anchor: Anchor::Start,
            bold: false,
            halo: false,
            text: text.into(),
        }
    }

    fn section(title: &str, first_page: usize) -> Section {
        Section {
            title: title.into(),
            first_page,
        }
    }

    /// The outline's (title, page number from 1, left, top) from first to
    /// last.
    fn outline(bytes: &[u8]) -> Vec<(String, u32, Object, Object)> {
        let pdf = Document::load_mem(bytes).unwrap();
        let pages = pdf.get_pages();
        let number = |id: ObjectId| pages.iter().find(|(_, p)| **p == id).map(|(n, _)| *n);
        outline_entries(&pdf, 100)
            .into_iter()
            .map(|id| {
                let item = pdf.get_dictionary(id).unwrap();
                let title = item.get(b"Title").unwrap().as_str().unwrap();
                let title = match title {
                    [0xFE, 0xFF, units @ ..] => String::from_utf16(
                        &units
                            .chunks(2)
                            .map(|u| u16::from_be_bytes([u[0], u[1]]))
                            .collect::<Vec<_>>(),
                    )
                    .unwrap(),
                    ascii => String::from_utf8(ascii.to_vec()).unwrap(),
                };
                let dest = item.get(b"Dest").unwrap().as_array().unwrap();
                let page = number(dest[0].as_reference().unwrap()).unwrap();
                (title, page, dest[2].clone(), dest[3].clone())
            })
            .collect()
    }

    /// Sections sharing a page keep the order given, though printpdf sorts
    /// bookmarks by page and title ("Trap cards" after "NPC cards",
    /// "Encounter 10" before "Encounter 9"); each opens its page at the top.
    #[test]
    fn the_outline_keeps_the_sections_in_the_order_given() {
        let fonts = Fonts::load();
        let pages = vec![
            Page {
                items: vec![text("one")],
                text_grey: 0.0,
            };
            3
        ];
        let sections = [
            section("Trap cards", 0),
            section("NPC cards", 0),
            section("Encounter 9", 1),
            section("Encounter 10", 1),
            section("Ἀρχή", 2),
            section("Past the end", 7),
        ];
        let bytes = document("Order", Paper::A4, &pages, &sections, &fonts);
        let got = outline(&bytes);
        let titles: Vec<&str> = got.iter().map(|(t, ..)| t.as_str()).collect();
        let want: Vec<&str> = sections.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(titles, want);
        let numbers: Vec<u32> = got.iter().map(|(_, n, ..)| *n).collect();
        assert_eq!(numbers, [1, 1, 2, 2, 3, 3]);
        for (title, _, left, top) in &got {
            assert_eq!(left.as_i64().ok(), Some(0), "{title}");
            assert_eq!(top.as_float().ok(), Some(841.89), "{title}");
        }
        let pdf = Document::load_mem(&bytes).unwrap();
        let mode = pdf.catalog().unwrap().get(b"PageMode").unwrap();
        assert_eq!(mode.as_name().ok(), Some(&b"UseOutlines"[..]));
    }

    /// printpdf draws the file identifier from a process-wide counter and
    /// writes dates: here the second document of a process is the first's
    /// bytes again, with no date in it.
    #[test]
    fn the_same_pages_give_the_same_bytes_without_a_date() {
        let fonts = Fonts::load();
        let pages = [Page {
            items: vec![text("Marsh lights · 李雷")],
            text_grey: 0.0,
        }];
        let sections = [section("Marsh lights", 0)];
        let first = document("Same", Paper::Letter, &pages, &sections, &fonts);
        let second = document("Same", Paper::Letter, &pages, &sections, &fonts);
        assert!(first == second, "two renderings differ");
        let pdf = Document::load_mem(&first).unwrap();
        let info = pdf.trailer.get(b"Info").unwrap().as_reference().unwrap();
        let info = pdf.get_dictionary(info).unwrap();
        for key in ["CreationDate", "ModDate", "GTS_PDFXVersion", "Author"] {
            assert!(!info.has(key.as_bytes()), "{key} in the information");
        }
        assert!(info.has(b"Title") && info.has(b"Producer"));
    }
}
