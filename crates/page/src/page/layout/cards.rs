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
//! on there instead, when each part fits a card of its own. No text on a
//! card is smaller than [`LAST_TYPE`].

mod breaks;

use super::Flow;
use super::brief::Block;
use crate::page::pdf::{self, Fonts, LINE_HEIGHT, Section};
use crate::page::{Anchor, Shape};

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
/// Space between a crop mark and the card edge, and its longest length.
const CROP_GAP: f64 = 3.0;
const CROP_LEN: f64 = 12.0;
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
    /// every card's footer.
    pub fn card_sheets(&mut self, seed: &str, sets: &[CardSet]) {
        let mut slot = COLS * ROWS;
        let mut on_page: Vec<(usize, Vec<Shape>)> = Vec::new();
        for set in sets.iter().filter(|s| !s.cards.is_empty()) {
            let mut bookmarked = false;
            for card in &set.cards {
                for placed in self.lay_out(card, seed) {
                    if slot == COLS * ROWS {
                        self.flush_cards(&mut on_page);
                        self.new_page();
                        self.bare.push(self.pages.len() - 1);
                        slot = 0;
                    }
                    if !bookmarked {
                        self.sections.push(Section {
                            title: set.title.clone(),
                            first_page: self.pages.len() - 1,
                        });
                        bookmarked = true;
                    }
                    let shapes = self.draw_card(&placed, seed, self.cell(slot));
                    on_page.push((slot, shapes));
                    slot += 1;
                }
            }
        }
        self.flush_cards(&mut on_page);
        self.y = f64::INFINITY;
    }

    /// The top-left corner of grid cell `slot` on this paper.
    fn cell(&self, slot: usize) -> (f64, f64) {
        let (x0, y0) = grid_origin(self.width, self.height);
        let (c, r) = (slot % COLS, slot / COLS);
        (x0 + c as f64 * CARD_W, y0 + r as f64 * CARD_H)
    }

    /// The cards drawn on the current page, then its crop marks.
    fn flush_cards(&mut self, on_page: &mut Vec<(usize, Vec<Shape>)>) {
        if on_page.is_empty() {
            return;
        }
        let cells: Vec<(f64, f64)> = on_page.iter().map(|(s, _)| self.cell(*s)).collect();
        let mut shapes: Vec<Shape> = on_page.drain(..).flat_map(|(_, s)| s).collect();
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

    /// Everything on one card with its top-left corner at (`x`, `y`).
    fn draw_card(&self, placed: &Placed, seed: &str, (x, y): (f64, f64)) -> Vec<Shape> {
        let card = placed.card;
        let mut shapes = vec![Shape::Rect {
            x,
            y,
            w: CARD_W,
            h: CARD_H,
            filled: false,
            width: 0.3,
        }];
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

/// Crop marks for cards whose top-left corners are `cells`: at both ends
/// of every cut line, a short line in line with it, clear of every card
/// and inside the page (`width` × `height`).
pub(super) fn crop_marks(cells: &[(f64, f64)], (width, height): (f64, f64)) -> Vec<Shape> {
    let mut shapes = Vec::new();
    let near = |a: f64, b: f64| (a - b).abs() < 0.01;
    let mut xs: Vec<f64> = cells.iter().flat_map(|(x, _)| [*x, x + CARD_W]).collect();
    let mut ys: Vec<f64> = cells.iter().flat_map(|(_, y)| [*y, y + CARD_H]).collect();
    for v in [&mut xs, &mut ys] {
        v.sort_by(f64::total_cmp);
        v.dedup_by(|a, b| near(*a, *b));
    }
    // A mark from `from` to `to` along one axis, shortened to `room`
    // (the space to the page edge less 2 pt), left out when under 3 pt.
    let mut mark = |(x1, y1): (f64, f64), (x2, y2): (f64, f64)| {
        if (x2 - x1).abs() + (y2 - y1).abs() >= 3.0 {
            shapes.push(Shape::line((x1, y1), (x2, y2), 0.5, false));
        }
    };
    let len = |room: f64| CROP_LEN.min(room - CROP_GAP - 2.0).max(0.0);
    for &x in &xs {
        // The cards this vertical cut runs along.
        let along = cells
            .iter()
            .filter(|(cx, _)| near(*cx, x) || near(cx + CARD_W, x));
        let (top, bottom) = along.fold((f64::INFINITY, f64::NEG_INFINITY), |(t, b), (_, y)| {
            (t.min(*y), b.max(y + CARD_H))
        });
        let (up, down) = (len(top), len(height - bottom));
        mark((x, top - CROP_GAP - up), (x, top - CROP_GAP));
        mark((x, bottom + CROP_GAP), (x, bottom + CROP_GAP + down));
    }
    for &y in &ys {
        let along = cells
            .iter()
            .filter(|(_, cy)| near(*cy, y) || near(cy + CARD_H, y));
        let (left, right) = along.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, r), (x, _)| {
            (l.min(*x), r.max(x + CARD_W))
        });
        let (before, after) = (len(left), len(width - right));
        mark((left - CROP_GAP - before, y), (left - CROP_GAP, y));
        mark((right + CROP_GAP, y), (right + CROP_GAP + after, y));
    }
    shapes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::pdf::{Fonts, Paper};

    /// A card whose body is `words` words of text, with a track and notes.
    fn card(words: usize) -> Card {
        let text: Vec<String> = (0..words).map(|i| format!("word{i}")).collect();
        Card {
            title: "A rather long title that needs two lines".into(),
            subtitle: "Subtitle".into(),
            address: "npc/12".into(),
            blocks: vec![
                Block::Text("Lead".into()),
                Block::Field("Field".into(), text.join(" ")),
                Block::Grid(vec![("NATURE".into(), "3".into()); 5]),
                Block::Label("Mettle 12".into()),
                Block::Track(23),
                Block::Label("Notes".into()),
                Block::Notes,
            ],
        }
    }

    /// The pages of a card sheet of `cards`, and the page size.
    fn sheet(fonts: &Fonts, paper: Paper, cards: Vec<Card>) -> Vec<Vec<Shape>> {
        let mut f = Flow::new(fonts, paper, "footer".into(), false);
        let sets = [CardSet {
            title: "Cards".into(),
            cards,
        }];
        f.card_sheets("seed-text", &sets);
        f.finish().0.into_iter().map(|p| p.items).collect()
    }

    /// The card outlines on a page.
    fn outlines(page: &[Shape]) -> Vec<(f64, f64)> {
        page.iter()
            .filter_map(|s| match s {
                Shape::Rect { x, y, w, h, .. } if *w == CARD_W && *h == CARD_H => Some((*x, *y)),
                _ => None,
            })
            .collect()
    }

    fn inside((x, y): (f64, f64), (left, top, right, bottom): (f64, f64, f64, f64)) -> bool {
        let (cx, cy) = (x, y);
        cx >= left - 1e-6 && cx <= right + 1e-6 && cy >= top - 1e-6 && cy <= bottom + 1e-6
    }

    #[test]
    fn a_card_too_long_for_one_carries_on_at_its_break() {
        let fonts = Fonts::load();
        // Room for the numbers after the text, not for all the boxes.
        let mut long = card(30);
        long.blocks[4] = Block::Track(150);
        long.blocks.insert(2, Block::Break);
        let f = Flow::new(&fonts, Paper::A4, "footer".into(), false);
        let placed = f.lay_out(&long, "seed");
        assert!(placed.len() >= 2, "150 boxes take two cards");
        let first = |p: &Placed| p.rows.iter().any(|r| matches!(r, Row::Cells(..)));
        assert!(!first(&placed[0]), "the numbers started on the first card");
        assert!(first(&placed[1]) && placed[1..].iter().all(|p| p.cont));
        assert!(placed.iter().all(|p| p.size >= MIN_TYPE));
        // A card that fits whole ignores its break.
        let mut short = card(5);
        short.blocks.insert(2, Block::Break);
        assert_eq!(f.lay_out(&short, "seed").len(), 1);
    }

    #[test]
    fn long_content_continues_on_cards_marked_cont_never_below_8_pt() {
        let fonts = Fonts::load();
        for paper in [Paper::A4, Paper::Letter] {
            let (width, height) = paper.size();
            let pages = sheet(&fonts, paper, vec![card(5), card(400), card(20)]);
            assert_eq!(pages.len(), 1);
            let page = &pages[0];
            let cards = outlines(page);
            assert!(cards.len() >= 4, "400 words should take more than one card");
            let texts: Vec<&str> = page
                .iter()
                .filter_map(|s| match s {
                    Shape::Text { text, .. } => Some(text.as_str()),
                    _ => None,
                })
                .collect();
            assert!(texts.iter().any(|t| t.contains("(cont.)")), "{texts:?}");
            // Every word of the long field once, in order, none lost.
            let words: Vec<&str> = texts
                .iter()
                .flat_map(|t| t.split_whitespace())
                .filter(|w| w.starts_with("word"))
                .collect();
            let expected: Vec<String> = [5, 400, 20]
                .iter()
                .flat_map(|&n| (0..n).map(|i| format!("word{i}")))
                .collect();
            assert_eq!(words, expected, "words lost or repeated");
            assert_eq!(
                texts.iter().filter(|t| **t == "npc/12").count(),
                cards.len()
            );
            for s in page {
                let home = |(x0, y0): (f64, f64), (x1, y1): (f64, f64)| {
                    cards.iter().any(|&(cx, cy)| {
                        let b = (cx, cy, cx + CARD_W, cy + CARD_H);
                        inside((x0, y0), b) && inside((x1, y1), b)
                    })
                };
                match s {
                    Shape::Text {
                        x,
                        y,
                        size,
                        anchor,
                        bold,
                        text,
                        ..
                    } => {
                        assert!(*size >= LAST_TYPE, "{text} at {size} pt");
                        let w = fonts.width(text, *size, *bold);
                        let left = crate::page::text_left(*x, w, *anchor);
                        let top = *y - 0.8 * size;
                        assert!(home((left, top), (left + w, *y + 0.25 * size)), "{text}");
                    }
                    Shape::Line { x1, y1, x2, y2, .. } if !home((*x1, *y1), (*x2, *y2)) => {
                        // A crop mark: on the page, along a cut, clear of the cards.
                        assert!(x1 == x2 || y1 == y2);
                        for (x, y) in [(*x1, *y1), (*x2, *y2)] {
                            assert!((0.0..=width).contains(&x) && (0.0..=height).contains(&y));
                            let near = cards.iter().any(|&(cx, cy)| {
                                x > cx - 1.0
                                    && x < cx + CARD_W + 1.0
                                    && y > cy - 1.0
                                    && y < cy + CARD_H + 1.0
                            });
                            assert!(!near, "a crop mark touches a card at ({x}, {y})");
                        }
                    }
                    Shape::Rect { x, y, w, h, .. } | Shape::Tint { x, y, w, h, .. } => {
                        assert!(home((*x, *y), (x + w, y + h)));
                    }
                    _ => {}
                }
            }
        }
    }

    #[test]
    fn closing_notes_give_way_before_a_card_carries_on() {
        let fonts = Fonts::load();
        let flow = Flow::new(&fonts, Paper::A4, "footer".into(), false);
        let notes = |p: &Placed| p.rows.iter().any(|r| matches!(r, Row::Notes));
        let mut without = 0;
        for words in 0..300 {
            let c = card(words);
            let placed = flow.lay_out(&c, "s");
            if placed.len() == 1 && !notes(&placed[0]) {
                without += 1;
            }
            for p in &placed[1..] {
                let content = p
                    .rows
                    .iter()
                    .any(|r| !matches!(r, Row::Notes | Row::Label(_) | Row::Gap(_)));
                assert!(content, "{words} words: a card of note lines only");
            }
        }
        assert!(without > 0, "no card went without its notes to fit");
    }

    #[test]
    fn a_long_seed_takes_two_footer_lines_at_most() {
        let fonts = Fonts::load();
        let flow = Flow::new(&fonts, Paper::A4, "footer".into(), false);
        let lines = flow.footer_lines(&card(5), &"the goblin king ".repeat(13));
        assert_eq!(lines.len(), FOOTER_LINES, "{lines:?}");
        assert!(lines[1].ends_with('…') && lines[0].starts_with("seed the goblin"));
        let short = flow.footer_lines(&card(5), "goblin-night");
        assert_eq!(short, vec!["seed goblin-night".to_owned()]);
    }

    #[test]
    fn a_table_carried_on_repeats_its_header_and_never_ends_on_it() {
        let cell = |t: &str| vec![t.to_owned(), "50%".to_owned()];
        let table = |head: bool, t: &str| Row::Table(cell(t), vec![0.0, 40.0], head);
        let line = LINE_HEIGHT * MIN_TYPE;
        for lines_before in 0..12 {
            let mut rows = vec![Row::Line("text".into()); lines_before];
            rows.push(Row::Gap(SECTION_GAP));
            rows.push(table(true, "STR"));
            rows.extend((0..25).map(|i| table(false, &i.to_string())));
            rows.push(Row::Line("after".into()));
            let cards = split(rows, MIN_TYPE, |_| 10.0 * line);
            let mut seen = Vec::new();
            for (k, card) in cards.iter().enumerate() {
                assert!(total(card, MIN_TYPE) <= 10.0 * line + 1e-6);
                assert!(
                    !matches!(card.last(), Some(Row::Table(_, _, true))),
                    "{lines_before}: card {k} ends on the header"
                );
                if let Some(Row::Table(..)) = card.first() {
                    assert_eq!(card[0], table(true, "STR"), "{lines_before}: card {k}");
                }
                seen.extend(card.iter().filter_map(|r| match r {
                    Row::Table(c, _, false) => Some(c[0].clone()),
                    _ => None,
                }));
            }
            let all: Vec<String> = (0..25).map(|i| i.to_string()).collect();
            assert_eq!(seen, all, "{lines_before}: rows lost or repeated");
        }
    }

    #[test]
    fn nine_cards_fill_a_page_and_the_tenth_starts_the_next() {
        let fonts = Fonts::load();
        let pages = sheet(&fonts, Paper::A4, (0..10).map(|_| card(5)).collect());
        assert_eq!(pages.len(), 2);
        assert_eq!(outlines(&pages[0]).len(), 9);
        assert_eq!(outlines(&pages[1]).len(), 1);
        let (w, h) = Paper::A4.size();
        let (x0, y0) = grid_origin(w, h);
        assert!((x0 * 2.0 + 3.0 * CARD_W - w).abs() < 1e-9);
        assert!((y0 * 2.0 + 3.0 * CARD_H - h).abs() < 1e-9);
        // 63.5 × 88.9 mm.
        assert!((CARD_W / 72.0 * 25.4 - 63.5).abs() < 0.01);
        assert!((CARD_H / 72.0 * 25.4 - 88.9).abs() < 0.01);
    }
}
