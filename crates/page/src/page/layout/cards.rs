//! Sheets of cut-out cards (NPC cards, trap cards, vouchers, slips).
//!
//! Every card is poker size, 63.5 × 88.9 mm ([`CARD_W`] × [`CARD_H`]
//! points), three by three on a page ([`COLS`] × [`ROWS`]), the grid centred
//! on A4 and letter alike. Cards share their cut lines; short crop marks sit
//! in the space outside the cards at the end of every cut line, clear of the
//! cards, and nothing else is drawn outside a card (a card page has no page
//! footer: each card carries the seed and its item's address instead).
//!
//! A card is a title band (tinted, or outlined with the ink saver), blocks
//! of content ([`Block`]) and a footer line with the seed and the address.
//! Its body is set at the largest size from [`BODY_MAX`] down to
//! [`MIN_TYPE`] at which it fits; a card whose closing note lines are all
//! that will not fit goes without them; then, rather than spend a second
//! card on a line or two, its body text goes down to [`LAST_TYPE`] (labels,
//! title and footer stay at [`MIN_TYPE`] at least); what does not fit even
//! then carries on onto the next card, titled "(cont.)", a table with its
//! header again, at [`MIN_TYPE`]; a card with a [`Block::Break`] carries
//! on there instead, when each part fits a card of its own, as a folded
//! pair: two cells side by side in one row, one outline with a dashed fold
//! down the middle, the back under the front's title (a pair that would
//! start in a row's last cell leaves that cell to the next single card).
//! No text on a card is smaller than [`LAST_TYPE`].

mod breaks;
mod cuts;

use std::collections::VecDeque;

use super::Flow;
use super::brief::Block;
use crate::page::pdf::{self, Fonts, LINE_HEIGHT, Section};
use crate::page::{Anchor, Shape};
use cuts::{card_outline, crop_marks, fold_outline, slot_room};

/// Card width: 63.5 mm (2.5 in) in points.
pub const CARD_W: f64 = 180.0;
/// Card height: 88.9 mm (3.5 in) in points.
pub const CARD_H: f64 = 252.0;
/// Cards across a page.
pub(super) const COLS: usize = 3;
/// Cards down a page.
pub(super) const ROWS: usize = 3;
/// The smallest type on a card, in points.
pub const MIN_TYPE: f64 = 8.0;
/// The smallest body type a card is set at before it carries on onto a
/// second card, in points.
pub const LAST_TYPE: f64 = 7.0;
/// The largest body type on a card, in points.
pub(super) const BODY_MAX: f64 = 10.0;

/// Space between the card's edge and its text.
const PAD: f64 = 9.0;
/// Space between the card's edge and its title band.
const BAND_INSET: f64 = 5.0;
/// Grey of the title band (0 black, 1 white).
const BAND_GREY: f64 = 0.86;
/// Title type: the largest and the smallest size tried.
const TITLE_MAX: f64 = 11.5;
const TITLE_MIN: f64 = 9.0;
/// The subtitle under the title, and the footer line.
const SMALL: f64 = MIN_TYPE;
/// A tick box's side and the space between boxes.
const BOX: f64 = 8.0;
const BOX_GAP: f64 = 2.5;
/// Space between ruled note lines.
const NOTE_LINE: f64 = 14.0;
/// Space between a run-in label and its text.
const FIELD_GAP: f64 = 4.0;
/// Space above a section label.
const SECTION_GAP: f64 = 4.0;
/// Space kept between the last note line and the footer's rule.
const NOTE_CLEAR: f64 = 4.0;
/// Most lines of the footer's seed.
const FOOTER_LINES: usize = 2;
/// Step between body sizes tried.
const STEP: f64 = 0.25;

/// One card: a title band (title and an optional subtitle), blocks of
/// content top to bottom, and the item's address (`npc/3`) in the footer.
#[derive(Debug, Clone, PartialEq)]
pub struct Card {
    /// The title in the band at the top.
    pub title: String,
    /// The line under the title (empty: none).
    pub subtitle: String,
    /// The item's address in the footer (`npc/3`).
    pub address: String,
    /// The body, top to bottom.
    pub blocks: Vec<Block>,
}

/// Cards under one bookmark (`NPC cards`); sets follow one another on the
/// same grid.
#[derive(Debug, Clone, PartialEq)]
pub struct CardSet {
    /// The bookmark's title.
    pub title: String,
    /// The cards, in order.
    pub cards: Vec<Card>,
}

/// One laid-out line of a card body.
#[derive(Debug, Clone, PartialEq)]
enum Row {
    Gap(f64),
    Label(String),
    Line(String),
    /// The first line of a field: its label, then text.
    Field(String, String),
    /// A table row: cells, their left edges, bold or not.
    Table(Vec<String>, Vec<f64>, bool),
    Cells(Vec<(String, String)>, usize),
    Boxes(usize),
    Notes,
}

impl Row {
    /// Height at body size `size` (notes count one line).
    fn height(&self, size: f64) -> f64 {
        match self {
            Row::Gap(h) => *h,
            Row::Label(_) => LINE_HEIGHT * MIN_TYPE,
            Row::Line(_) | Row::Field(..) | Row::Table(..) | Row::Cells(..) => LINE_HEIGHT * size,
            Row::Boxes(_) => BOX + BOX_GAP + 1.0,
            Row::Notes => NOTE_LINE + NOTE_CLEAR,
        }
    }
}

/// Where a card sits on its page and what goes in it.
struct Placed<'c> {
    card: &'c Card,
    cont: bool,
    /// The back of a folded pair: laid beside its front, under its title.
    back: bool,
    size: f64,
    rows: Vec<Row>,
}

/// The grid's top-left corner on a page `width` × `height`: centred.
pub(super) fn grid_origin(width: f64, height: f64) -> (f64, f64) {
    (
        (width - COLS as f64 * CARD_W) / 2.0,
        (height - ROWS as f64 * CARD_H) / 2.0,
    )
}

impl Flow<'_> {
    /// Card sheets: every set's cards in one grid, nine to a page, each
    /// set a bookmark at the page its first card lands on; `seed` goes in
    /// every card's footer. A folded pair takes two cells of one row; where
    /// it would start in a row's last cell, the next single card takes that
    /// cell (or it stays empty) and the pair starts the next row.
    pub fn card_sheets(&mut self, seed: &str, sets: &[CardSet]) {
        let mut queue: VecDeque<(usize, Vec<Placed>)> = VecDeque::new();
        for (k, set) in sets.iter().enumerate() {
            for card in &set.cards {
                let placed = self.lay_out(card, seed);
                if placed.iter().any(|p| p.back) {
                    queue.push_back((k, placed));
                } else {
                    queue.extend(placed.into_iter().map(|p| (k, vec![p])));
                }
            }
        }
        let mut bookmarked = vec![false; sets.len()];
        let mut slot = COLS * ROWS;
        let mut on_page: Vec<(usize, usize, Vec<Shape>)> = Vec::new();
        while let Some((k, unit)) = queue.pop_front() {
            if slot == COLS * ROWS {
                self.flush_cards(&mut on_page);
                self.new_page();
                self.bare.push(self.pages.len() - 1);
                slot = 0;
            }
            if unit.len() > slot_room(slot) {
                if let Some(i) = queue.iter().position(|(_, u)| u.len() == 1)
                    && let Some((j, single)) = queue.remove(i)
                {
                    self.place(&single, slot, seed, &mut on_page);
                    self.bookmark(sets, &mut bookmarked, j);
                }
                slot += 1;
                queue.push_front((k, unit));
                continue;
            }
            self.bookmark(sets, &mut bookmarked, k);
            self.place(&unit, slot, seed, &mut on_page);
            slot += unit.len();
        }
        self.flush_cards(&mut on_page);
        self.y = f64::INFINITY;
    }

    /// Set `k`'s bookmark at the current page, the first time it is called.
    fn bookmark(&mut self, sets: &[CardSet], bookmarked: &mut [bool], k: usize) {
        if !bookmarked[k] {
            self.sections.push(Section {
                title: sets[k].title.clone(),
                first_page: self.pages.len() - 1,
            });
            bookmarked[k] = true;
        }
    }

    /// One card, or a folded pair, drawn from grid cell `slot` on.
    fn place(
        &self,
        unit: &[Placed],
        slot: usize,
        seed: &str,
        on_page: &mut Vec<(usize, usize, Vec<Shape>)>,
    ) {
        let (x, y) = self.cell(slot);
        // The outline first: a card's outline is drawn under its contents.
        let mut shapes = match unit.len() {
            1 => Vec::new(),
            faces => fold_outline((x, y), faces),
        };
        for (i, placed) in unit.iter().enumerate() {
            let at = (x + i as f64 * CARD_W, y);
            shapes.extend(self.draw_card(placed, seed, at, unit.len() == 1));
        }
        on_page.push((slot, unit.len(), shapes));
    }

    /// The top-left corner of grid cell `slot` on this paper.
    fn cell(&self, slot: usize) -> (f64, f64) {
        let (x0, y0) = grid_origin(self.width, self.height);
        let (c, r) = (slot % COLS, slot / COLS);
        (x0 + c as f64 * CARD_W, y0 + r as f64 * CARD_H)
    }

    /// The cards drawn on the current page (grid cell, cells wide,
    /// shapes), then its crop marks.
    fn flush_cards(&mut self, on_page: &mut Vec<(usize, usize, Vec<Shape>)>) {
        if on_page.is_empty() {
            return;
        }
        let cells: Vec<(f64, f64, f64)> = on_page
            .iter()
            .map(|(s, span, _)| {
                let (x, y) = self.cell(*s);
                (x, y, *span as f64 * CARD_W)
            })
            .collect();
        let mut shapes: Vec<Shape> = on_page.drain(..).flat_map(|(.., s)| s).collect();
        shapes.extend(crop_marks(&cells, (self.width, self.height)));
        self.push(shapes);
    }

    /// A card as one card or more: its body at the largest size that fits,
    /// or at [`MIN_TYPE`] split across cards.
    fn lay_out<'c>(&self, card: &'c Card, seed: &str) -> Vec<Placed<'c>> {
        // The body's room on the first card and on a "(cont.)" one,
        // measured once (the band and footer are wrapped to know it).
        let rooms = [false, true].map(|cont| self.body_height(card, cont, seed));
        let room = |cont: bool| rooms[usize::from(cont)];
        // Whole, or else without its closing note lines (a second card of
        // nothing but note lines helps nobody), before carrying on.
        let (tries, bare) =
            super::brief::tries(&card.blocks, [BODY_MAX, MIN_TYPE, STEP, LAST_TYPE]);
        for (i, (blocks, largest, least)) in tries.iter().enumerate() {
            // A break is taken before the type goes under MIN_TYPE.
            if i > 0
                && *least < MIN_TYPE
                && let Some(two) = self.at_break(card, room)
            {
                return two;
            }
            let mut size = *largest;
            while size >= least - 1e-9 {
                let rows = self.rows(blocks, size);
                if total(&rows, size) <= room(false) + 1e-6 {
                    return vec![Placed {
                        card,
                        cont: false,
                        back: false,
                        size,
                        rows,
                    }];
                }
                size -= STEP;
            }
        }
        let rows = self.rows(&bare, MIN_TYPE);
        let mut cards = split(rows, MIN_TYPE, room);
        let only_notes = |rows: &Vec<Row>| {
            rows.iter().any(|r| matches!(r, Row::Notes))
                && rows
                    .iter()
                    .all(|r| matches!(r, Row::Notes | Row::Label(_) | Row::Gap(_)))
        };
        if cards.len() > 1 && cards.last().is_some_and(only_notes) {
            cards.pop();
        }
        cards
            .into_iter()
            .enumerate()
            .map(|(i, rows)| Placed {
                card,
                cont: i > 0,
                back: false,
                size: MIN_TYPE,
                rows,
            })
            .collect()
    }

    /// Height left for the body of a card between its band and footer.
    fn body_height(&self, card: &Card, cont: bool, seed: &str) -> f64 {
        let band = self.band(card, cont, (0.0, 0.0)).1;
        let footer = self.footer_lines(card, seed).len() as f64 * LINE_HEIGHT * SMALL;
        CARD_H - band - footer - PAD - 2.0 * SECTION_GAP
    }

    /// The body's blocks as rows at `size`.
    fn rows(&self, blocks: &[Block], size: f64) -> Vec<Row> {
        let width = CARD_W - 2.0 * PAD;
        let mut rows = Vec::new();
        let mut after_label = true;
        for block in blocks {
            let gap = !after_label;
            after_label = matches!(block, Block::Label(_));
            match block {
                Block::Label(l) => {
                    if !rows.is_empty() {
                        rows.push(Row::Gap(SECTION_GAP));
                    }
                    let lines = pdf::wrap(self.fonts, &l.to_uppercase(), MIN_TYPE, true, width);
                    rows.extend(lines.into_iter().map(Row::Label));
                }
                Block::Text(t) => {
                    if gap && !rows.is_empty() {
                        rows.push(Row::Gap(SECTION_GAP / 2.0));
                    }
                    let lines = pdf::wrap(self.fonts, t, size, false, width);
                    rows.extend(lines.into_iter().map(Row::Line));
                }
                Block::Field(label, text) | Block::Brief(label, text, _) => {
                    if gap && !rows.is_empty() {
                        rows.push(Row::Gap(SECTION_GAP / 2.0));
                    }
                    let label = label.to_uppercase();
                    let mut lines = self.wrap_field(&label, text, size, width).into_iter();
                    rows.push(Row::Field(label, lines.next().unwrap_or_default()));
                    rows.extend(lines.map(Row::Line));
                }
                Block::Table(table) => {
                    // A full gap: the bold header would nearly touch the
                    // text above it.
                    if gap && !rows.is_empty() {
                        rows.push(Row::Gap(SECTION_GAP));
                    }
                    let lefts = self.table_columns(table, size);
                    for (i, cells) in table.iter().enumerate() {
                        rows.push(Row::Table(cells.clone(), lefts.clone(), i == 0));
                    }
                }
                Block::Grid(cells) => {
                    if gap && !rows.is_empty() {
                        rows.push(Row::Gap(SECTION_GAP / 2.0));
                    }
                    let cols = grid_columns(self.fonts, cells, size, width);
                    for chunk in cells.chunks(cols) {
                        rows.push(Row::Cells(chunk.to_vec(), cols));
                    }
                }
                Block::Track(n) => {
                    let per_row = boxes_per_row(width);
                    let mut left = *n;
                    while left > 0 {
                        rows.push(Row::Boxes(left.min(per_row)));
                        left = left.saturating_sub(per_row);
                    }
                }
                Block::Notes => rows.push(Row::Notes),
                Block::Break => {}
            }
        }
        rows
    }

    /// The title band's shapes with its top-left corner at `at`, and its
    /// height.
    fn band(&self, card: &Card, cont: bool, (x, y): (f64, f64)) -> (Vec<Shape>, f64) {
        let title = if cont {
            format!("{} (cont.)", card.title)
        } else {
            card.title.clone()
        };
        let inner = CARD_W - 2.0 * PAD;
        let (tsize, tlines) = pdf::fit(
            self.fonts,
            &title,
            true,
            inner,
            2.0 * LINE_HEIGHT * TITLE_MAX,
            TITLE_MAX,
            TITLE_MIN,
        );
        let slines = pdf::wrap(self.fonts, &card.subtitle, SMALL, false, inner);
        let top = y + BAND_INSET + 3.0;
        let title_h = tlines.len() as f64 * LINE_HEIGHT * tsize;
        let sub_h = slines.len() as f64 * LINE_HEIGHT * SMALL;
        let h = title_h + sub_h + 6.0;
        let (bx, bw) = (x + BAND_INSET, CARD_W - 2.0 * BAND_INSET);
        let mut shapes = vec![if self.ink_saver {
            Shape::Rect {
                x: bx,
                y: y + BAND_INSET,
                w: bw,
                h,
                filled: false,
                width: 0.6,
            }
        } else {
            Shape::Tint {
                x: bx,
                y: y + BAND_INSET,
                w: bw,
                h,
                grey: BAND_GREY,
            }
        }];
        let p = |lines: &[String], top: f64, size: f64, bold: bool| {
            pdf::paragraph(self.fonts, lines, x + PAD, top, size, bold, Anchor::Start)
        };
        shapes.extend(p(&tlines, top, tsize, true));
        shapes.extend(p(&slines, top + title_h, SMALL, false));
        (shapes, BAND_INSET + h)
    }

    /// The footer's lines: the seed (wrapped when long) with the address
    /// beside its last line.
    /// At most [`FOOTER_LINES`]: a longer seed is cut, ending `…` (the
    /// pack's first page and `pack.md` carry it whole).
    fn footer_lines(&self, card: &Card, seed: &str) -> Vec<String> {
        let inner = CARD_W - 2.0 * PAD;
        let room = inner - self.fonts.width(&card.address, SMALL, true) - 6.0;
        let mut lines = pdf::wrap(self.fonts, &format!("seed {seed}"), SMALL, false, room);
        if lines.len() > FOOTER_LINES {
            lines.truncate(FOOTER_LINES);
            let last = lines.last_mut().expect("two lines");
            while !last.is_empty() && self.fonts.width(&format!("{last}…"), SMALL, false) > room {
                last.pop();
            }
            last.push('…');
        }
        lines
    }

    /// Everything on one card with its top-left corner at (`x`, `y`), with
    /// its outline or (one face of a folded pair) without.
    fn draw_card(
        &self,
        placed: &Placed,
        seed: &str,
        (x, y): (f64, f64),
        outline: bool,
    ) -> Vec<Shape> {
        let card = placed.card;
        let mut shapes = Vec::new();
        if outline {
            shapes.push(card_outline((x, y), CARD_W));
        }
        let (band, band_h) = self.band(card, placed.cont, (x, y));
        shapes.extend(band);
        let foot = self.footer_lines(card, seed);
        let foot_top = y + CARD_H - PAD - foot.len() as f64 * LINE_HEIGHT * SMALL;
        let body_top = y + band_h + SECTION_GAP;
        let body_bottom = foot_top - SECTION_GAP;
        shapes.extend(self.draw_rows(placed, (x + PAD, body_top), body_bottom));
        let rule = foot_top - 2.0;
        shapes.push(Shape::line(
            (x + PAD, rule),
            (x + CARD_W - PAD, rule),
            0.4,
            false,
        ));
        shapes.extend(pdf::paragraph(
            self.fonts,
            &foot,
            x + PAD,
            foot_top,
            SMALL,
            false,
            Anchor::Start,
        ));
        let last = foot_top + (foot.len().max(1) - 1) as f64 * LINE_HEIGHT * SMALL;
        shapes.extend(pdf::paragraph(
            self.fonts,
            std::slice::from_ref(&card.address),
            x + CARD_W - PAD,
            last,
            SMALL,
            true,
            Anchor::End,
        ));
        shapes
    }

    /// The body rows from `top` down; notes fill the space to `bottom`.
    fn draw_rows(&self, placed: &Placed, (x, top): (f64, f64), bottom: f64) -> Vec<Shape> {
        let width = CARD_W - 2.0 * PAD;
        let size = placed.size;
        let mut y = top;
        let mut shapes = Vec::new();
        for row in &placed.rows {
            match row {
                Row::Gap(_) => {}
                Row::Label(l) => shapes.extend(self.text(l, (x, y), MIN_TYPE, true)),
                Row::Line(l) => shapes.extend(self.text(l, (x, y), size, false)),
                Row::Field(label, text) => {
                    // The label's baseline on the text's.
                    let drop =
                        self.fonts.baseline_offset(size) - self.fonts.baseline_offset(MIN_TYPE);
                    shapes.extend(self.text(label, (x, y + drop), MIN_TYPE, true));
                    let indent = self.fonts.width(label, MIN_TYPE, true) + FIELD_GAP;
                    shapes.extend(self.text(text, (x + indent, y), size, false));
                }
                Row::Table(cells, lefts, bold) => {
                    for (cell, left) in cells.iter().zip(lefts) {
                        shapes.extend(self.text(cell, (x + left, y), size, *bold));
                    }
                }
                Row::Cells(cells, cols) => {
                    let cw = width / *cols as f64;
                    for (i, (label, value)) in cells.iter().enumerate() {
                        let cx = x + i as f64 * cw;
                        shapes.extend(self.text(label, (cx, y), size, false));
                        let lw = self.fonts.width(label, size, false) + size * 0.3;
                        shapes.extend(self.text(value, (cx + lw, y), size, true));
                    }
                }
                Row::Boxes(n) => shapes.extend(boxes(*n, (x, y + 1.0))),
                Row::Notes => {
                    // Clear of the footer's rule.
                    let mut line = y + NOTE_LINE;
                    while line <= bottom - NOTE_CLEAR + 1e-6 {
                        shapes.push(Shape::line((x, line), (x + width, line), 0.3, false));
                        line += NOTE_LINE;
                    }
                }
            }
            y += row.height(size);
        }
        shapes
    }

    /// A field's text in lines, the first one after its run-in `label`.
    fn wrap_field(&self, label: &str, text: &str, size: f64, width: f64) -> Vec<String> {
        let first_width = width - self.fonts.width(label, MIN_TYPE, true) - FIELD_GAP;
        let (head, tail) = text.split_once('\n').unwrap_or((text, ""));
        let mut words = head.split_whitespace().peekable();
        let mut first = String::new();
        while let Some(word) = words.peek() {
            let candidate = if first.is_empty() {
                (*word).to_owned()
            } else {
                format!("{first} {word}")
            };
            if self.fonts.width(&candidate, size, false) > first_width {
                break;
            }
            first = candidate;
            words.next();
        }
        let mut rest: Vec<&str> = words.collect();
        let rest_text = if tail.is_empty() {
            rest.join(" ")
        } else {
            rest.push("\n");
            format!("{}{tail}", rest.join(" "))
        };
        let mut lines = vec![first];
        lines.extend(pdf::wrap(
            self.fonts,
            rest_text.trim_start(),
            size,
            false,
            width,
        ));
        lines
    }

    /// The left edges of a table's columns: each as wide as its widest
    /// cell (the header bold), spread over the card's width.
    fn table_columns(&self, table: &[Vec<String>], size: f64) -> Vec<f64> {
        let cols = table.iter().map(Vec::len).max().unwrap_or(0);
        let widths: Vec<f64> = (0..cols)
            .map(|c| {
                table
                    .iter()
                    .enumerate()
                    .filter_map(|(i, row)| row.get(c).map(|t| self.fonts.width(t, size, i == 0)))
                    .fold(0.0, f64::max)
            })
            .collect();
        let spare = (CARD_W - 2.0 * PAD - widths.iter().sum::<f64>()).max(0.0);
        let gap = if cols > 1 { spare / cols as f64 } else { 0.0 };
        let mut left = 0.0;
        widths
            .iter()
            .map(|w| {
                let at = left;
                left += w + gap;
                at
            })
            .collect()
    }

    fn text(&self, text: &str, at: (f64, f64), size: f64, bold: bool) -> Vec<Shape> {
        pdf::paragraph(
            self.fonts,
            &[text.to_owned()],
            at.0,
            at.1,
            size,
            bold,
            Anchor::Start,
        )
    }
}

/// Total height of rows at `size`.
fn total(rows: &[Row], size: f64) -> f64 {
    rows.iter().map(|r| r.height(size)).sum()
}

/// Rows split into cards: each card takes what fits in `room(cont)`; a
/// label and a table's header stay with the row after them, a table that
/// carries on to the next card has its header again there, and no card
/// starts with a gap.
fn split(rows: Vec<Row>, size: f64, room: impl Fn(bool) -> f64) -> Vec<Vec<Row>> {
    let mut cards: Vec<Vec<Row>> = vec![Vec::new()];
    let mut used = 0.0;
    // The header of the table being laid out.
    let mut header: Option<&Row> = None;
    let mut i = 0;
    while i < rows.len() {
        let row = &rows[i];
        let cont = cards.len() > 1;
        let current = cards.last_mut().expect("a card");
        if current.is_empty() && matches!(row, Row::Gap(_)) {
            i += 1;
            continue;
        }
        if current.is_empty()
            && let (Row::Table(_, _, false), Some(head)) = (row, header)
        {
            used += head.height(size);
            current.push(head.clone());
        }
        // A label or a header needs the next row beside it.
        let keep = match (row, rows.get(i + 1)) {
            (Row::Label(_) | Row::Table(_, _, true), Some(next)) => next.height(size),
            _ => 0.0,
        };
        let fits = used + row.height(size) + keep <= room(cont) + 1e-6;
        if fits || current.is_empty() {
            used += row.height(size);
            current.push(row.clone());
            header = match row {
                Row::Table(_, _, true) => Some(row),
                Row::Table(..) => header,
                _ => None,
            };
            i += 1;
        } else {
            cards.push(Vec::new());
            used = 0.0;
        }
    }
    cards
}

/// Three columns when every cell fits a third of `width`, else two, else
/// one.
fn grid_columns(fonts: &Fonts, cells: &[(String, String)], size: f64, width: f64) -> usize {
    let widest = cells
        .iter()
        .map(|(l, v)| fonts.width(l, size, false) + size * 0.3 + fonts.width(v, size, true))
        .fold(0.0, f64::max);
    [3, 2]
        .into_iter()
        .find(|&cols| widest + 4.0 <= width / cols as f64)
        .unwrap_or(1)
}

/// How many tick boxes fit in a row `width` wide (with a wider gap after
/// every fifth).
fn boxes_per_row(width: f64) -> usize {
    let mut n = 0;
    while box_x(n) + BOX <= width {
        n += 1;
    }
    n.max(1)
}

/// The left edge of box `i` of a row.
fn box_x(i: usize) -> f64 {
    i as f64 * (BOX + BOX_GAP) + (i / 5) as f64 * BOX_GAP
}

/// A row of `n` tick boxes from (`x`, `y`).
fn boxes(n: usize, (x, y): (f64, f64)) -> Vec<Shape> {
    (0..n)
        .map(|i| Shape::Rect {
            x: x + box_x(i),
            y,
            w: BOX,
            h: BOX,
            filled: false,
            width: 0.6,
        })
        .collect()
}

#[cfg(test)]
mod tests;
