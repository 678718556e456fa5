//! Grids of cut-out cards (NPC cards, trap cards, vouchers, slips) with cut
//! lines and shrink-to-fit text.

use super::{Flow, MARGIN};
use crate::render::pdf::{self, LINE_HEIGHT};
use crate::render::{Anchor, Shape};

/// A card of a grid: a title and lines of text fitted into the cell.
pub struct Card {
    pub title: String,
    pub body: String,
}

impl Flow<'_> {
    /// Cards in a grid of `cols` × `rows` per page, with dashed cut lines;
    /// each card's text shrinks to fit its cell.
    pub fn cards(&mut self, cards: &[Card], cols: usize, rows: usize) {
        let top = MARGIN + 24.0;
        let w = self.content_width() / cols as f64;
        let h = (self.bottom() - top) / rows as f64;
        for (i, card) in cards.iter().enumerate() {
            let slot = i % (cols * rows);
            if slot == 0 && i > 0 {
                self.new_page();
            }
            if self.pages.is_empty() {
                self.new_page();
            }
            let (c, r) = (slot % cols, slot / cols);
            let (x, y) = (MARGIN + c as f64 * w, top + r as f64 * h);
            let shapes = self.card(card, (x, y), (w, h));
            self.push(shapes);
        }
        self.y = self.bottom();
    }

    /// One card in its cell at (`x`, `y`), `w` × `h`: a white box under dashed
    /// cut lines, the title and the body each shrunk to fit.
    fn card(&self, card: &Card, (x, y): (f64, f64), (w, h): (f64, f64)) -> Vec<Shape> {
        let mut shapes = vec![Shape::Rect {
            x,
            y,
            w,
            h,
            filled: false,
            width: 0.0,
        }];
        for (x1, y1, x2, y2) in [
            (x, y, x + w, y),
            (x, y + h, x + w, y + h),
            (x, y, x, y + h),
            (x + w, y, x + w, y + h),
        ] {
            shapes.push(Shape::Line {
                x1,
                y1,
                x2,
                y2,
                width: 0.4,
                dashed: true,
            });
        }
        let pad = 8.0;
        let (title_size, title_lines) = pdf::fit(
            self.fonts,
            &card.title,
            true,
            w - 2.0 * pad,
            30.0,
            11.0,
            7.0,
        );
        shapes.extend(pdf::paragraph(
            self.fonts,
            &title_lines,
            x + pad,
            y + pad,
            title_size,
            true,
            Anchor::Start,
        ));
        let title_h = title_lines.len() as f64 * LINE_HEIGHT * title_size + 4.0;
        let (size, lines) = pdf::fit(
            self.fonts,
            &card.body,
            false,
            w - 2.0 * pad,
            h - 2.0 * pad - title_h,
            9.0,
            5.0,
        );
        shapes.extend(pdf::paragraph(
            self.fonts,
            &lines,
            x + pad,
            y + pad + title_h,
            size,
            false,
            Anchor::Start,
        ));
        shapes
    }
}
