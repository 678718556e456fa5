//! Page layout for the PDF handouts: a top-to-bottom flow of headings,
//! paragraphs, tick tracks, note lines and tables that breaks pages by
//! itself (a table repeats its header row on every page it runs onto),
//! laid in the full width or in side-by-side columns; grids of cut-out
//! cards (`cards`) and placed drawings (the map, zone diagrams). Every page
//! gets the share line and its page number at the foot. Pure: shapes in,
//! pages out.

use super::pdf::{self, Fonts, LINE_HEIGHT, Page, Paper, Section};
use super::{Anchor, Drawing, Shape};

/// Margin safe for home printers (half an inch).
pub const MARGIN: f64 = 36.0;
const FOOTER: f64 = 20.0;

/// Pages being filled top to bottom: each call lays its block below the last,
/// starting a fresh page when the block does not fit.
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
    /// Left edge and width of the column being filled (the whole text
    /// width outside [`Flow::columns`]).
    left: f64,
    col_w: f64,
    /// Pages that get no share line or page number (card sheets: nothing
    /// but cards and crop marks; every card carries its seed).
    bare: Vec<usize>,
}

/// Spacing of ruled note lines: 8 mm, a comfortable handwriting line.
pub(crate) const NOTE_LINE: f64 = 22.68;

mod brief;
mod cards;

pub use brief::Block;
pub use cards::{Card, CardSet};

impl<'a> Flow<'a> {
    /// An empty flow on `paper`, with `footer` (the share line) at the foot of
    /// every page; `ink_saver` draws no fills and sets text in grey.
    pub fn new(fonts: &'a Fonts, paper: Paper, footer: String, ink_saver: bool) -> Flow<'a> {
        Flow::sized(fonts, paper.size(), footer, ink_saver)
    }

    fn sized(fonts: &'a Fonts, size: (f64, f64), footer: String, ink_saver: bool) -> Flow<'a> {
        let (width, height) = size;
        Flow {
            fonts,
            width,
            height,
            pages: Vec::new(),
            sections: Vec::new(),
            y: f64::INFINITY,
            footer,
            ink_saver,
            left: MARGIN,
            col_w: width - 2.0 * MARGIN,
            bare: Vec::new(),
        }
    }

    /// An empty flow on the same paper, fonts and ink: lay a sheet out on
    /// it to see how many pages it takes before laying it out for real.
    pub fn probe(&self) -> Flow<'a> {
        let size = (self.width, self.height);
        Flow::sized(self.fonts, size, self.footer.clone(), self.ink_saver)
    }

    /// Width of the column being filled (the text width of the page
    /// outside [`Flow::columns`]).
    pub fn content_width(&self) -> f64 {
        self.col_w
    }

    /// How wide `text` sets at `size` points.
    pub fn text_width(&self, text: &str, size: f64, bold: bool) -> f64 {
        self.fonts.width(text, size, bold)
    }

    /// How far down the page the flow is, in points from the top edge.
    pub fn y(&self) -> f64 {
        self.y
    }

    /// Room left on the current page, in points (0 before the first page).
    pub fn room_left(&self) -> f64 {
        if self.pages.is_empty() {
            0.0
        } else {
            (self.bottom() - self.y).max(0.0)
        }
    }

    /// Start a new page unless `height` points are left on this one (to
    /// keep a heading with what follows it).
    pub fn keep(&mut self, height: f64) {
        self.room(height);
    }

    /// How many pages have been started.
    pub fn page_count(&self) -> usize {
        self.pages.len()
    }

    /// Lays `blocks` side by side in equal columns `gap` points apart, each
    /// block filling its column from the current height down; the flow then
    /// continues in the full width under the longest one. A block that runs
    /// off the page carries on in its column on the next page, and the
    /// blocks after it start at the top of that page.
    pub fn columns(&mut self, gap: f64, blocks: &mut [&mut dyn FnMut(&mut Flow)]) {
        let n = blocks.len();
        self.columns_sized(gap, &vec![1.0; n], blocks);
    }

    /// [`Flow::columns`] with columns of unequal widths: `shares` of the
    /// width left after the gaps, one a block (a table beside its legend).
    pub fn columns_sized(
        &mut self,
        gap: f64,
        shares: &[f64],
        blocks: &mut [&mut dyn FnMut(&mut Flow)],
    ) {
        if blocks.is_empty() {
            return;
        }
        if self.pages.is_empty() {
            self.new_page();
        }
        let (left, width) = (self.left, self.col_w);
        let n = blocks.len() as f64;
        let total: f64 = shares.iter().take(blocks.len()).sum();
        let room = width - gap * (n - 1.0);
        let (start, top) = (self.pages.len(), self.y);
        let (mut last_page, mut lowest) = (start, top);
        let mut x = left;
        for (i, block) in blocks.iter_mut().enumerate() {
            let share = shares.get(i).copied().unwrap_or(1.0);
            let col_w = if total > 0.0 {
                room * share / total
            } else {
                room / n
            };
            self.left = x;
            self.col_w = col_w;
            x += col_w + gap;
            // On the page the columns began, every block starts at their
            // top; once an earlier block broke the page, at this page's top.
            self.y = if self.pages.len() == start {
                top
            } else {
                MARGIN
            };
            block(self);
            if self.pages.len() > last_page {
                last_page = self.pages.len();
                lowest = self.y;
            } else {
                lowest = lowest.max(self.y);
            }
        }
        self.left = left;
        self.col_w = width;
        self.y = lowest;
    }

    fn bottom(&self) -> f64 {
        self.height - MARGIN - FOOTER
    }

    /// Start a fresh page, even if this one has room left.
    pub fn new_page(&mut self) {
        self.pages.push(Page {
            items: Vec::new(),
            // The ink saver sets text in dark grey (60% black): readable at
            // arm's length, and less ink than black. (55% white, tried first,
            // read as faint on a home printer.)
            text_grey: if self.ink_saver { 0.4 } else { 0.0 },
        });
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
        self.section_sized(title, 16.0);
    }

    /// [`Flow::section`] with its title at `size` points.
    pub fn section_sized(&mut self, title: &str, size: f64) {
        self.new_page();
        self.sections.push(Section {
            title: title.to_owned(),
            first_page: self.pages.len() - 1,
        });
        self.heading(title, size);
    }

    /// A section that starts on this page when `height` points are left
    /// on it (a compact card after another), else on a fresh one.
    pub fn section_here(&mut self, title: &str, size: f64, height: f64) {
        self.room(height);
        self.sections.push(Section {
            title: title.to_owned(),
            first_page: self.pages.len() - 1,
        });
        self.heading(title, size);
    }

    /// A bold heading at `size` points; it starts a fresh page unless two
    /// lines of body text fit under it.
    pub fn heading(&mut self, text: &str, size: f64) {
        let lines = pdf::wrap(self.fonts, text, size, true, self.content_width());
        let h = lines.len() as f64 * LINE_HEIGHT * size + 6.0;
        self.room(h + 2.0 * LINE_HEIGHT * 10.0);
        let shapes = pdf::paragraph(
            self.fonts,
            &lines,
            self.left,
            self.y,
            size,
            true,
            Anchor::Start,
        );
        self.push(shapes);
        self.y += h;
    }

    /// A paragraph at `size` points, wrapped to the column; it breaks across
    /// pages.
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
                self.left + indent,
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

    /// Leave `points` of blank space below.
    pub fn gap(&mut self, points: f64) {
        self.y += points;
    }

    /// A table with a bold header; `widths` are fractions of the column
    /// width; cells wrap, rows never split across pages, and the header row
    /// is drawn again at the top of every page the table runs onto.
    pub fn table(&mut self, header: &[&str], rows: &[Vec<String>], widths: &[f64], size: f64) {
        let total = self.content_width();
        let cols: Vec<f64> = widths.iter().map(|w| w * total).collect();
        let head: Vec<String> = header.iter().map(|h| (*h).to_owned()).collect();
        let head_h = self.row_height(&head, &cols, size, true);
        // The header never sits alone at the foot of a page.
        let first_h = rows
            .first()
            .map_or(0.0, |r| self.row_height(r, &cols, size, false));
        self.room(head_h + first_h);
        self.row(&head, &cols, size, true);
        for r in rows {
            let h = self.row_height(r, &cols, size, false);
            if self.y + h > self.bottom() {
                self.new_page();
                self.row(&head, &cols, size, true);
            }
            self.row(r, &cols, size, false);
        }
        self.y += size * 0.6;
    }

    /// Height of one table row: its tallest cell, wrapped to its column.
    fn row_height(&self, cells: &[String], cols: &[f64], size: f64, bold: bool) -> f64 {
        cells
            .iter()
            .zip(cols)
            .map(|(c, w)| self.cell_height(c, *w, size, bold))
            .fold(LINE_HEIGHT * size, f64::max)
            + 3.0
    }

    /// Height of the text of a table cell `width` points wide (a row is
    /// its tallest cell and 3 points).
    pub fn cell_height(&self, text: &str, width: f64, size: f64, bold: bool) -> f64 {
        let lines = pdf::wrap(self.fonts, text, size, bold, width - 4.0).len();
        lines.max(1) as f64 * LINE_HEIGHT * size
    }

    /// One table row at the current height, ruled underneath (a heavier
    /// rule under the header).
    fn row(&mut self, cells: &[String], cols: &[f64], size: f64, bold: bool) {
        let h = self.row_height(cells, cols, size, bold);
        let mut x = self.left;
        let mut shapes = Vec::new();
        for (cell, w) in cells.iter().zip(cols) {
            let lines = pdf::wrap(self.fonts, cell, size, bold, w - 4.0);
            shapes.extend(pdf::paragraph(
                self.fonts,
                &lines,
                x + 2.0,
                self.y + 1.5,
                size,
                bold,
                Anchor::Start,
            ));
            x += w;
        }
        shapes.push(self.rule(self.y + h, if bold { 0.8 } else { 0.3 }));
        self.push(shapes);
        self.y += h;
    }

    /// A horizontal rule across the column at height `y`; thinner with the
    /// ink saver.
    fn rule(&self, y: f64, width: f64) -> Shape {
        let right = self.left + self.col_w;
        Shape::line((self.left, y), (right, y), self.line_width(width), false)
    }

    /// A line width as drawn: half as heavy with the ink saver.
    pub(crate) fn line_width(&self, width: f64) -> f64 {
        if self.ink_saver { width * 0.5 } else { width }
    }

    /// Tick tracks: each a label and that many boxes, set one after another
    /// and wrapped to the column, so that eight foes of four boxes share a
    /// line or two.
    pub fn tracks(&mut self, tracks: &[(String, usize)], size: f64) {
        self.tracks_then(tracks, size, false);
    }

    /// [`Flow::tracks`], then (with `write_in`) a line to write on from the
    /// last box to the end of the column.
    pub fn tracks_then(&mut self, tracks: &[(String, usize)], size: f64, write_in: bool) {
        let marked: Vec<(String, usize, usize)> =
            tracks.iter().map(|(l, n)| (l.clone(), *n, 0)).collect();
        self.tracks_marked(&marked, size, write_in);
    }

    /// [`Flow::tracks_then`] with the first boxes of each track filled
    /// (label, boxes, filled): damage already taken. The ink saver crosses
    /// them out instead of filling them.
    pub fn tracks_marked(&mut self, tracks: &[(String, usize, usize)], size: f64, write_in: bool) {
        let line_h = LINE_HEIGHT * size + 4.0;
        let box_step = size + 1.5;
        let mut x = self.left;
        let mut started = false;
        let mut shapes = Vec::new();
        for (label, count, filled) in tracks {
            let count = (*count).min(60);
            let w = self.fonts.width(label, size, false) + 4.0 + count as f64 * box_step;
            if started && x + w > self.left + self.col_w {
                self.push(std::mem::take(&mut shapes));
                self.y += line_h;
                x = self.left;
                started = false;
            }
            if !started {
                self.room(line_h);
                started = true;
            }
            shapes.extend(pdf::paragraph(
                self.fonts,
                std::slice::from_ref(label),
                x,
                self.y,
                size,
                false,
                Anchor::Start,
            ));
            let x0 = x + self.fonts.width(label, size, false) + 4.0;
            let per_row = (((self.left + self.col_w - x0) / box_step).floor() as usize).max(1);
            for i in 0..count {
                let (r, c) = (i / per_row, i % per_row);
                let (bx, by) = (x0 + c as f64 * box_step, self.y + 2.0 + r as f64 * line_h);
                let full = i < *filled;
                shapes.push(Shape::Rect {
                    x: bx,
                    y: by,
                    w: size - 1.0,
                    h: size - 1.0,
                    filled: full && !self.ink_saver,
                    width: self.line_width(0.6),
                });
                if full && self.ink_saver {
                    shapes.extend(self.cross(bx, by, size - 1.0));
                }
            }
            let rows = count.div_ceil(per_row).max(1);
            if rows > 1 {
                self.y += (rows - 1) as f64 * line_h;
                x = self.left + self.col_w;
            } else {
                x = x0 + count as f64 * box_step + size;
            }
        }
        if write_in && started && x + 20.0 < self.left + self.col_w {
            let base = self.y + LINE_HEIGHT * size;
            let right = self.left + self.col_w;
            shapes.push(Shape::line(
                (x, base),
                (right, base),
                self.line_width(0.4),
                false,
            ));
        }
        self.push(shapes);
        if started {
            self.y += line_h;
        }
    }

    /// Two strokes crossing a box of side `side` at (`x`, `y`).
    fn cross(&self, x: f64, y: f64, side: f64) -> [Shape; 2] {
        let stroke = |x1, y1, x2, y2| Shape::line((x1, y1), (x2, y2), self.line_width(0.8), false);
        [
            stroke(x, y, x + side, y + side),
            stroke(x, y + side, x + side, y),
        ]
    }

    /// Ruled lines for notes from here to the foot of the page under a
    /// label; nothing when fewer than `min` lines fit (notes never start a
    /// page of their own).
    pub fn note_lines(&mut self, label: &str, min: usize) {
        let size = 9.0;
        let need = LINE_HEIGHT * size + size * 0.4 + min as f64 * NOTE_LINE;
        if self.pages.is_empty() || self.y + need > self.bottom() + 0.01 {
            return;
        }
        self.para(label, size, true);
        let mut shapes = Vec::new();
        while self.y + NOTE_LINE <= self.bottom() + 0.01 {
            self.y += NOTE_LINE;
            shapes.push(self.rule(self.y, 0.4));
        }
        self.push(shapes);
    }

    /// A ladder kept on one page: a row per name and `blanks` rows with a
    /// line to write a name on; with `rounds`, a box per round to tick in
    /// each row (under a round header), else a line to write on after each
    /// name (in two columns).
    pub fn ladder(&mut self, names: &[String], blanks: usize, rounds: usize, size: f64) {
        let row_h = LINE_HEIGHT * size + 6.0;
        let mut rows: Vec<String> = names.to_vec();
        rows.extend(std::iter::repeat_n(String::new(), blanks));
        let cols = if rounds == 0 { 2 } else { 1 };
        let gap = 16.0;
        let col_w = (self.col_w - gap * (cols - 1) as f64) / cols as f64;
        let label_w = if rounds == 0 { 44.0 } else { 100.0 };
        let step = if rounds == 0 {
            0.0
        } else {
            ((col_w - label_w) / rounds as f64).min(36.0)
        };
        let per_col = rows.len().div_ceil(cols);
        let header = if rounds > 0 { row_h } else { 0.0 };
        self.room(header + per_col as f64 * row_h);
        let mut shapes = Vec::new();
        let text = |x: f64, y: f64, t: &str, bold: bool| {
            pdf::paragraph(self.fonts, &[t.to_owned()], x, y, size, bold, Anchor::Start)
        };
        for k in 0..rounds {
            let x = self.left + label_w + k as f64 * step;
            shapes.extend(text(x, self.y, &format!("R{}", k + 1), true));
        }
        let top = self.y + header;
        let thin = self.line_width(0.5);
        for (i, name) in rows.iter().enumerate() {
            let (c, r) = (i / per_col, i % per_col);
            let x0 = self.left + c as f64 * (col_w + gap);
            let y = top + r as f64 * row_h;
            let base = y + row_h - 4.0;
            if name.is_empty() {
                shapes.push(Shape::line(
                    (x0, base),
                    (x0 + label_w - 8.0, base),
                    thin,
                    false,
                ));
            } else {
                shapes.extend(text(x0, y + 2.0, name, rounds == 0));
            }
            if rounds == 0 {
                shapes.push(Shape::line(
                    (x0 + label_w, base),
                    (x0 + col_w, base),
                    thin,
                    false,
                ));
            }
            for k in 0..rounds {
                shapes.push(Shape::Rect {
                    x: self.left + label_w + k as f64 * step,
                    y: y + 3.0,
                    w: size,
                    h: size,
                    filled: false,
                    width: self.line_width(0.6),
                });
            }
        }
        self.push(shapes);
        self.y = top + per_col as f64 * row_h + 6.0;
    }

    /// A drawing scaled to the column width (and the room left), centred;
    /// never below 0.6 of its size (it goes to a fresh page instead).
    pub fn drawing(&mut self, d: &Drawing) {
        self.drawing_scaled(d, 0.6, 1.5);
    }

    /// A drawing scaled to the column width and the room left, between
    /// `min` and `max` times its size; on a fresh page when even `min`
    /// does not fit. Lines keep their width (thinner with the ink saver),
    /// fills go with the ink saver.
    pub fn drawing_scaled(&mut self, d: &Drawing, min: f64, max: f64) {
        if self.pages.is_empty() {
            self.new_page();
        }
        let avail_h = self.bottom() - self.y;
        let scale = (self.content_width() / d.width)
            .min(avail_h / d.height)
            .min(max);
        if scale < min - 1e-9 && self.y > MARGIN + 1e-9 {
            self.new_page();
            return self.drawing_scaled(d, min, max);
        }
        let scale = scale.max(min);
        let dx = self.left + (self.content_width() - d.width * scale) / 2.0;
        let dy = self.y;
        let fill = !self.ink_saver;
        let shapes = d
            .shapes
            .iter()
            .map(|s| {
                let mut s = s.placed(dx, dy, scale, fill);
                if let Shape::Line { width, .. }
                | Shape::Rect { width, .. }
                | Shape::Circle { width, .. } = &mut s
                {
                    *width = self.line_width(*width);
                }
                s
            })
            .collect();
        self.push(shapes);
        self.y += d.height * scale + 8.0;
    }

    /// Pages and bookmarks, with the share line and page numbers added.
    pub fn finish(mut self) -> (Vec<Page>, Vec<Section>) {
        let n = self.pages.len();
        let foot_y = self.height - MARGIN;
        for (i, page) in self.pages.iter_mut().enumerate() {
            if self.bare.contains(&i) {
                continue;
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Where the text `what` sits: (page, y).
    fn find(pages: &[Page], what: &str) -> (usize, f64) {
        pages
            .iter()
            .enumerate()
            .find_map(|(i, p)| {
                p.items.iter().find_map(|s| match s {
                    Shape::Text { text, y, .. } if text == what => Some((i, *y)),
                    _ => None,
                })
            })
            .expect("the text is laid out")
    }

    /// (filled boxes, open boxes, strokes) of a laid-out track.
    fn boxes(pages: &[Page]) -> (usize, usize, usize) {
        let mut out = (0, 0, 0);
        for s in pages.iter().flat_map(|p| &p.items) {
            match s {
                Shape::Rect { filled: true, .. } => out.0 += 1,
                Shape::Rect { filled: false, .. } => out.1 += 1,
                Shape::Line { .. } => out.2 += 1,
                _ => {}
            }
        }
        out
    }

    #[test]
    fn damage_taken_fills_the_first_boxes_or_crosses_them_out_to_save_ink() {
        let fonts = Fonts::load();
        for (ink_saver, want) in [(false, (3, 4, 0)), (true, (0, 7, 6))] {
            let mut f = Flow::new(&fonts, Paper::A4, "foot".into(), ink_saver);
            f.new_page();
            f.tracks_marked(&[("Mettle 4 of 7".into(), 7, 3)], 9.5, false);
            let (pages, _) = f.finish();
            assert_eq!(boxes(&pages), want, "ink saver {ink_saver}");
        }
        // Never more filled than there are boxes.
        let mut f = Flow::new(&fonts, Paper::A4, "foot".into(), false);
        f.new_page();
        f.tracks_marked(&[("Mettle −2 of 3".into(), 3, 3)], 9.5, false);
        assert_eq!(boxes(&f.finish().0), (3, 0, 0));
    }

    #[test]
    fn a_section_here_shares_the_page_while_it_has_room() {
        let fonts = Fonts::load();
        let mut f = Flow::new(&fonts, Paper::A4, "foot".into(), false);
        f.section_here("one", 13.0, 100.0);
        f.para("a card", 9.5, false);
        f.section_here("two", 13.0, 100.0);
        f.gap(700.0);
        f.section_here("three", 13.0, 100.0);
        let (pages, sections) = f.finish();
        let firsts: Vec<usize> = sections.iter().map(|s| s.first_page).collect();
        assert_eq!(firsts, [0, 0, 1]);
        assert_eq!(pages.len(), 2);
    }

    #[test]
    fn a_column_after_a_page_break_starts_at_the_new_page_top() {
        let fonts = Fonts::load();
        let mut f = Flow::new(&fonts, Paper::A4, "foot".into(), false);
        f.new_page();
        f.gap(600.0);
        let mut left = |f: &mut Flow| {
            for _ in 0..30 {
                f.para("left", 9.0, false);
            }
        };
        let mut right = |f: &mut Flow| f.para("RIGHT", 9.0, false);
        f.columns(10.0, &mut [&mut left, &mut right]);
        let (pages, _) = f.finish();
        let (page, y) = find(&pages, "RIGHT");
        assert_eq!(
            page,
            pages.len() - 1,
            "the right column is on the last page"
        );
        assert!(
            y < MARGIN + 20.0,
            "the right column starts at {y}, not the top"
        );
    }
}
