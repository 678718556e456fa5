//! Tests of the card sheets: sizes, carrying on, folded pairs, crop marks.

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

/// The texts drawn on a page, in order.
fn texts(page: &[Shape]) -> Vec<&str> {
    page.iter()
        .filter_map(|s| match s {
            Shape::Text { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect()
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
    long.blocks[4] = Block::Track(300);
    long.blocks.insert(2, Block::Break);
    let f = Flow::new(&fonts, Paper::A4, "footer".into(), false);
    let placed = f.lay_out(&long, "seed");
    assert!(
        placed.len() >= 3,
        "300 boxes take two cards after the first"
    );
    let first = |p: &Placed| p.rows.iter().any(|r| matches!(r, Row::Cells(..)));
    assert!(!first(&placed[0]), "the numbers started on the first card");
    assert!(first(&placed[1]) && placed[1..].iter().all(|p| p.cont));
    assert!(placed.iter().all(|p| p.size >= MIN_TYPE));
    // A card that fits whole ignores its break.
    let mut short = card(5);
    short.blocks.insert(2, Block::Break);
    assert_eq!(f.lay_out(&short, "seed").len(), 1);
}

/// A card whose whole body needs more than a card but whose parts on
/// either side of its break each fit one.
fn pair_card(title: &str) -> Card {
    let mut c = card(70);
    c.title = title.into();
    c.blocks.insert(2, Block::Break);
    c
}

#[test]
fn a_card_in_two_parts_is_a_folded_pair_on_one_row_of_a_page() {
    let fonts = Fonts::load();
    let f = Flow::new(&fonts, Paper::A4, "footer".into(), false);
    let faces: Vec<(bool, bool)> = f
        .lay_out(&pair_card("P"), "seed")
        .iter()
        .map(|p| (p.cont, p.back))
        .collect();
    assert_eq!(faces, [(false, false), (false, true)], "front and back");
    for paper in [Paper::A4, Paper::Letter] {
        let (width, height) = paper.size();
        let (x0, y0) = grid_origin(width, height);
        let mut single = card(5);
        single.title = "Single".into();
        // Pair, pair, single, pair, pair: the second pair would start
        // in the first row's last cell, so the single takes it; the
        // third leaves its row's last cell empty, and the fourth,
        // which would start in the page's last cell, the next page.
        let mut cards = vec![pair_card("P1"), pair_card("P2"), single];
        cards.extend((3..=4).map(|i| pair_card(&format!("P{i}"))));
        let pages = sheet(&fonts, paper, cards);
        assert_eq!(pages.len(), 2, "{paper:?}");
        let wide = |page: &[Shape]| -> Vec<(f64, f64)> {
            page.iter()
                .filter_map(|s| match s {
                    Shape::Rect { x, y, w, h, .. } if *w == 2.0 * CARD_W && *h == CARD_H => {
                        Some((*x, *y))
                    }
                    _ => None,
                })
                .collect()
        };
        let rows = |n: usize| {
            (0..n)
                .map(|r| (x0, y0 + r as f64 * CARD_H))
                .collect::<Vec<_>>()
        };
        assert_eq!(wide(&pages[0]), rows(3), "pairs start each row");
        assert_eq!(wide(&pages[1]), rows(1));
        assert_eq!(outlines(&pages[0]), [(x0 + 2.0 * CARD_W, y0)], "the single");
        for page in &pages {
            let texts = texts(page);
            assert!(!texts.iter().any(|t| t.contains("(cont.)")), "{texts:?}");
            for (x, y) in wide(page) {
                // The fold: dashed, down the middle of the pair.
                let fold = Shape::line((x + CARD_W, y), (x + CARD_W, y + CARD_H), 0.3, true);
                assert!(page.contains(&fold), "no fold at ({x}, {y})");
            }
            // No crop mark points at a fold: none on the line x0 + W.
            let marks_at_fold = page.iter().any(|s| {
                matches!(s, Shape::Line { x1, x2, y1, .. }
                    if (x1 - (x0 + CARD_W)).abs() < 0.01 && x1 == x2
                        && (*y1 < y0 || *y1 > y0 + 3.0 * CARD_H))
            });
            assert!(!marks_at_fold, "{paper:?}: a crop mark points at a fold");
        }
        // Both faces carry the title, the back under it unchanged.
        let titles = |page: &[Shape], t: &str| {
            page.iter()
                .filter(|s| matches!(s, Shape::Text { text, .. } if text == t))
                .count()
        };
        assert_eq!(titles(&pages[0], "P2"), 2);
        assert_eq!(titles(&pages[1], "P4"), 2);
    }
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
        let texts = texts(page);
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
