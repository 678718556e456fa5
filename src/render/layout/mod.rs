//! Page layout for the PDF handouts: a top-to-bottom flow of headings,
//! paragraphs and tables that breaks pages by itself, grids of cut-out
//! cards (NPC cards, trap cards, vouchers) with dashed cut lines and
//! shrink-to-fit text, and placed drawings (the map). Every page gets the
//! share line and its page number at the foot. Pure: shapes in, pages out.

use super::pdf::{self, Fonts, LINE_HEIGHT, Page, Paper, Section};
use super::{Anchor, Drawing, Shape};

/// Margin safe for home printers (half an inch).
pub const MARGIN: f64 = 36.0;
const FOOTER: f64 = 20.0;

pub struct Flow<'a> {
    fonts: &'a Fonts,
    width: f64,
    height: f64,
    pages: Vec<Page>,
    sections: Vec<Section>,
    y: f64,
    footer: String,
    /// Draw no fills (black-and-white, ink-saving).
    ink_saver: bool,
}

mod cards;

pub use cards::Card;

impl<'a> Flow<'a> {
    pub fn new(fonts: &'a Fonts, paper: Paper, footer: String, ink_saver: bool) -> Flow<'a> {
        let (width, height) = paper.size();
        Flow {
            fonts,
            width,
            height,
            pages: Vec::new(),
            sections: Vec::new(),
            y: f64::INFINITY,
            footer,
            ink_saver,
        }
    }

    fn content_width(&self) -> f64 {
        self.width - 2.0 * MARGIN
    }

    fn bottom(&self) -> f64 {
        self.height - MARGIN - FOOTER
    }

    pub fn new_page(&mut self) {
        self.pages.push(Page::default());
        self.y = MARGIN;
    }

    fn push(&mut self, shapes: Vec<Shape>) {
        if self.pages.is_empty() {
            self.new_page();
        }
        self.pages.last_mut().expect("a page").items.extend(shapes);
    }

    /// Start a new page if less than `height` is left.
    fn room(&mut self, height: f64) {
        if self.pages.is_empty() || self.y + height > self.bottom() {
            self.new_page();
        }
    }

    /// A new section: a fresh page, a bookmark and a big heading.
    pub fn section(&mut self, title: &str) {
        self.new_page();
        self.sections.push(Section {
            title: title.to_owned(),
            first_page: self.pages.len() - 1,
        });
        self.heading(title, 16.0);
    }

    pub fn heading(&mut self, text: &str, size: f64) {
        let lines = pdf::wrap(self.fonts, text, size, true, self.content_width());
        let h = lines.len() as f64 * LINE_HEIGHT * size + 6.0;
        self.room(h + 2.0 * LINE_HEIGHT * 10.0);
        let shapes = pdf::paragraph(
            self.fonts,
            &lines,
            MARGIN,
            self.y,
            size,
            true,
            Anchor::Start,
        );
        self.push(shapes);
        self.y += h;
    }

    pub fn para(&mut self, text: &str, size: f64, bold: bool) {
        self.para_at(text, size, bold, 0.0);
    }

    /// A paragraph indented by `indent` points; it breaks across pages.
    pub fn para_at(&mut self, text: &str, size: f64, bold: bool, indent: f64) {
        let lines = pdf::wrap(self.fonts, text, size, bold, self.content_width() - indent);
        for line in lines {
            self.room(LINE_HEIGHT * size);
            let shapes = pdf::paragraph(
                self.fonts,
                &[line],
                MARGIN + indent,
                self.y,
                size,
                bold,
                Anchor::Start,
            );
            self.push(shapes);
            self.y += LINE_HEIGHT * size;
        }
        self.y += size * 0.4;
    }

    pub fn gap(&mut self, points: f64) {
        self.y += points;
    }

    /// A table with a bold header; `widths` are fractions of the page
    /// width; cells wrap, and rows never split across pages.
    pub fn table(&mut self, header: &[&str], rows: &[Vec<String>], widths: &[f64], size: f64) {
        let total = self.content_width();
        let cols: Vec<f64> = widths.iter().map(|w| w * total).collect();
        let draw_row = |flow: &mut Flow, cells: &[String], bold: bool| {
            let wrapped: Vec<Vec<String>> = cells
                .iter()
                .zip(&cols)
                .map(|(c, w)| pdf::wrap(flow.fonts, c, size, bold, w - 4.0))
                .collect();
            let lines = wrapped.iter().map(Vec::len).max().unwrap_or(1).max(1);
            let h = lines as f64 * LINE_HEIGHT * size + 3.0;
            flow.room(h);
            let mut x = MARGIN;
            let mut shapes = Vec::new();
            for (cell, w) in wrapped.iter().zip(&cols) {
                shapes.extend(pdf::paragraph(
                    flow.fonts,
                    cell,
                    x + 2.0,
                    flow.y + 1.5,
                    size,
                    bold,
                    Anchor::Start,
                ));
                x += w;
            }
            shapes.push(Shape::Line {
                x1: MARGIN,
                y1: flow.y + h,
                x2: MARGIN + total,
                y2: flow.y + h,
                width: if bold { 0.8 } else { 0.3 },
                dashed: false,
            });
            flow.push(shapes);
            flow.y += h;
        };
        let head: Vec<String> = header.iter().map(|h| (*h).to_owned()).collect();
        draw_row(self, &head, true);
        for r in rows {
            draw_row(self, r, false);
        }
        self.y += size;
    }

    /// Check boxes in a row (Mettle or health to tick off).
    pub fn ticks(&mut self, label: &str, count: usize, size: f64) {
        let count = count.min(40);
        self.room(LINE_HEIGHT * size + 4.0);
        let mut shapes = pdf::paragraph(
            self.fonts,
            &[label.to_owned()],
            MARGIN,
            self.y,
            size,
            false,
            Anchor::Start,
        );
        let x0 = MARGIN + self.fonts.width(label, size, false) + 6.0;
        for i in 0..count {
            shapes.push(Shape::Rect {
                x: x0 + i as f64 * (size + 2.0),
                y: self.y + 2.0,
                w: size - 1.0,
                h: size - 1.0,
                filled: false,
                width: 0.6,
            });
        }
        self.push(shapes);
        self.y += LINE_HEIGHT * size + 4.0;
    }

    /// A drawing scaled to the content width (and the room left), centred.
    pub fn drawing(&mut self, d: &Drawing) {
        let avail_h = self.bottom() - self.y;
        let scale = (self.content_width() / d.width)
            .min(avail_h / d.height)
            .min(1.5);
        if scale < 0.6 {
            self.new_page();
            return self.drawing(d);
        }
        let dx = MARGIN + (self.content_width() - d.width * scale) / 2.0;
        let dy = self.y;
        let fill = !self.ink_saver;
        let shapes = d
            .shapes
            .iter()
            .map(|s| s.placed(dx, dy, scale, fill))
            .collect();
        self.push(shapes);
        self.y += d.height * scale + 8.0;
    }

    /// Pages and bookmarks, with the share line and page numbers added.
    pub fn finish(mut self) -> (Vec<Page>, Vec<Section>) {
        let n = self.pages.len();
        let foot_y = self.height - MARGIN;
        for (i, page) in self.pages.iter_mut().enumerate() {
            let number = format!("{}/{}", i + 1, n);
            let avail = self.width - 2.0 * MARGIN - self.fonts.width(&number, 7.0, false) - 12.0;
            let (size, lines) = pdf::fit(self.fonts, &self.footer, false, avail, 9.0, 7.0, 4.5);
            page.items.extend(pdf::paragraph(
                self.fonts,
                &lines[..lines.len().min(1)],
                MARGIN,
                foot_y - LINE_HEIGHT * size,
                size,
                false,
                Anchor::Start,
            ));
            page.items.extend(pdf::paragraph(
                self.fonts,
                &[number],
                self.width - MARGIN,
                foot_y - LINE_HEIGHT * 7.0,
                7.0,
                false,
                Anchor::End,
            ));
        }
        (self.pages, self.sections)
    }
}
