//! The card sheets of a pack PDF, measured from the PDF itself: every card
//! poker size (63.5 × 88.9 mm), nine to a full page, the grid centred,
//! crop marks at every cut line and clear of the cards, nothing else drawn
//! outside a card, no type under 8 pt, the seed and an address on every
//! card.
//!
//! The page contents are read with lopdf: rectangles, lines and paths
//! from their path operators, text from `Tf`, `Tm` and the glyph widths
//! (`/W`) of the embedded fonts, so a text's box is exact.

use std::collections::BTreeMap;

use lopdf::{Document, Object, ObjectId};

use crate::common::{ok, only_entry, sample_session, temp_dir};

/// 63.5 × 88.9 mm in points, and 0.1 mm.
const CARD: (f64, f64) = (180.0, 252.0);
const MM_TENTH: f64 = 0.2835;
/// Half the widest stroke on a card, for "inside".
const STROKE: f64 = 0.35;

/// A box in points, y down from the top of the page.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Bbox {
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
}

impl Bbox {
    fn of(points: &[(f64, f64)]) -> Bbox {
        let mut b = Bbox {
            x0: f64::INFINITY,
            y0: f64::INFINITY,
            x1: f64::NEG_INFINITY,
            y1: f64::NEG_INFINITY,
        };
        for &(x, y) in points {
            b.x0 = b.x0.min(x);
            b.y0 = b.y0.min(y);
            b.x1 = b.x1.max(x);
            b.y1 = b.y1.max(y);
        }
        b
    }

    fn w(&self) -> f64 {
        self.x1 - self.x0
    }

    fn h(&self) -> f64 {
        self.y1 - self.y0
    }

    /// Whether `other` lies inside this box grown by `slack`.
    fn holds(&self, other: &Bbox, slack: f64) -> bool {
        other.x0 >= self.x0 - slack
            && other.x1 <= self.x1 + slack
            && other.y0 >= self.y0 - slack
            && other.y1 <= self.y1 + slack
    }

    /// Whether `other` comes within `gap` of this box.
    fn near(&self, other: &Bbox, gap: f64) -> bool {
        other.x0 < self.x1 + gap
            && other.x1 > self.x0 - gap
            && other.y0 < self.y1 + gap
            && other.y1 > self.y0 - gap
    }
}

/// What a page draws.
#[derive(Debug, Clone)]
enum Mark {
    /// A rectangle (`re`), filled or stroked.
    Rect(Bbox),
    /// A straight stroked line: its two ends.
    Line((f64, f64), (f64, f64)),
    /// Any other path.
    Path(Bbox),
    /// Text: its box and size.
    Text(Bbox, f64, String),
}

impl Mark {
    fn bbox(&self) -> Bbox {
        match self {
            Mark::Rect(b) | Mark::Path(b) | Mark::Text(b, ..) => *b,
            Mark::Line(a, b) => Bbox::of(&[*a, *b]),
        }
    }
}

fn number(o: &Object) -> f64 {
    match o {
        Object::Integer(i) => *i as f64,
        Object::Real(r) => f64::from(*r),
        other => panic!("not a number: {other:?}"),
    }
}

/// Glyph advances (per 1000 units of the font size) of a Type 0 font by
/// glyph id, from its descendant font's `/W` array.
fn widths(doc: &Document, font: &lopdf::Dictionary) -> BTreeMap<u16, f64> {
    let resolve = |o: &Object| -> Object {
        match o {
            Object::Reference(id) => doc.get_object(*id).unwrap().clone(),
            other => other.clone(),
        }
    };
    let descendants = resolve(font.get(b"DescendantFonts").unwrap());
    let cid = resolve(&descendants.as_array().unwrap()[0]);
    let w = resolve(cid.as_dict().unwrap().get(b"W").unwrap());
    let w = w.as_array().unwrap();
    let mut out = BTreeMap::new();
    let mut i = 0;
    while i < w.len() {
        let first = number(&w[i]) as u16;
        match resolve(&w[i + 1]) {
            Object::Array(list) => {
                for (k, v) in list.iter().enumerate() {
                    out.insert(first + k as u16, number(v));
                }
                i += 2;
            }
            last => {
                for g in first..=number(&last) as u16 {
                    out.insert(g, number(&w[i + 2]));
                }
                i += 3;
            }
        }
    }
    out
}

/// Everything drawn on a page, in points with y down.
fn marks(doc: &Document, page: ObjectId, height: f64) -> Vec<Mark> {
    let fonts: BTreeMap<Vec<u8>, BTreeMap<u16, f64>> = doc
        .get_page_fonts(page)
        .unwrap()
        .into_iter()
        .map(|(name, dict)| (name, widths(doc, dict)))
        .collect();
    let content = doc.get_and_decode_page_content(page).unwrap();
    let mut out = Vec::new();
    let mut path: Vec<(f64, f64)> = Vec::new();
    let mut segments = 0;
    let mut rect = false;
    let (mut font, mut size, mut origin) = (Vec::new(), 0.0, (0.0, 0.0));
    let flip = |x: f64, y: f64| (x, height - y);
    for op in content.operations {
        let n: Vec<f64> = op
            .operands
            .iter()
            .filter_map(|o| match o {
                Object::Integer(_) | Object::Real(_) => Some(number(o)),
                _ => None,
            })
            .collect();
        match op.operator.as_str() {
            "m" => path.push(flip(n[0], n[1])),
            "l" => {
                path.push(flip(n[0], n[1]));
                segments += 1;
            }
            "c" => {
                for k in 0..3 {
                    path.push(flip(n[2 * k], n[2 * k + 1]));
                }
                segments += 2;
            }
            "v" | "y" => {
                path.push(flip(n[0], n[1]));
                path.push(flip(n[2], n[3]));
                segments += 2;
            }
            "re" => {
                path.push(flip(n[0], n[1]));
                path.push(flip(n[0] + n[2], n[1] + n[3]));
                rect = true;
                segments += 4;
            }
            "S" | "s" | "f" | "F" | "f*" | "B" | "B*" | "b" | "b*" => {
                let b = Bbox::of(&path);
                out.push(if rect && segments == 4 {
                    Mark::Rect(b)
                } else if segments == 1 && path.len() == 2 {
                    Mark::Line(path[0], path[1])
                } else {
                    Mark::Path(b)
                });
                path.clear();
                segments = 0;
                rect = false;
            }
            "n" => {
                path.clear();
                segments = 0;
                rect = false;
            }
            "cm" => panic!("a transformed page: the test reads plain coordinates only"),
            "Tf" => {
                font = op.operands[0].as_name().unwrap().to_vec();
                size = number(&op.operands[1]);
            }
            "Tm" => origin = flip(n[4], n[5]),
            "Td" | "TD" | "T*" | "'" | "\"" => {
                panic!("text moved by {}: the test reads Tm only", op.operator)
            }
            "Tj" | "TJ" => {
                let widths = &fonts[&font];
                let mut bytes = Vec::new();
                let mut strings = op.operands.clone();
                if let Some(Object::Array(a)) = strings.first() {
                    strings = a.clone();
                }
                for s in &strings {
                    if let Object::String(b, _) = s {
                        bytes.extend_from_slice(b);
                    }
                }
                let glyphs: Vec<u16> = bytes
                    .chunks(2)
                    .map(|c| u16::from_be_bytes([c[0], c[1]]))
                    .collect();
                let w: f64 = glyphs.iter().map(|g| widths[g]).sum::<f64>() / 1000.0 * size;
                let (x, y) = origin;
                let b = Bbox {
                    x0: x,
                    y0: y - 0.8 * size,
                    x1: x + w,
                    y1: y + 0.25 * size,
                };
                out.push(Mark::Text(b, size, format!("{} glyphs", glyphs.len())));
            }
            _ => {}
        }
    }
    out
}

/// A rectangle the size of a card, within 0.1 mm.
fn is_card(b: &Bbox) -> bool {
    (b.w() - CARD.0).abs() <= MM_TENTH && (b.h() - CARD.1).abs() <= MM_TENTH
}

/// A rectangle the size of two cards side by side: a folded pair.
fn is_pair(b: &Bbox) -> bool {
    (b.w() - 2.0 * CARD.0).abs() <= MM_TENTH && (b.h() - CARD.1).abs() <= MM_TENTH
}

/// What one page of cards shows.
struct CardPage {
    /// Every card face: a single card, or one half of a folded pair.
    cards: Vec<Bbox>,
    /// What is cut out: single cards and folded pairs, whole.
    cuts: Vec<Bbox>,
    marks: Vec<Mark>,
}

/// The pages of `pdf` that hold cards (by the cards' outlines), in order.
fn card_pages(pdf: &std::path::Path) -> (Vec<CardPage>, (f64, f64)) {
    let doc = Document::load(pdf).unwrap();
    let mut pages = Vec::new();
    let mut size = (0.0, 0.0);
    for (_, id) in doc.get_pages() {
        let page = doc.get_dictionary(id).unwrap();
        let media = page.get(b"MediaBox").unwrap().as_array().unwrap();
        size = (number(&media[2]), number(&media[3]));
        let marks = marks(&doc, id, size.1);
        let cuts: Vec<Bbox> = marks
            .iter()
            .filter_map(|m| match m {
                Mark::Rect(b) if is_card(b) || is_pair(b) => Some(*b),
                _ => None,
            })
            .collect();
        let cards: Vec<Bbox> = cuts
            .iter()
            .flat_map(|b| {
                if is_card(b) {
                    return vec![*b];
                }
                let mid = (b.x0 + b.x1) / 2.0;
                vec![Bbox { x1: mid, ..*b }, Bbox { x0: mid, ..*b }]
            })
            .collect();
        if !cards.is_empty() {
            pages.push(CardPage { cards, cuts, marks });
        }
    }
    (pages, size)
}

/// Whether a line is a crop mark: straight along a card edge, outside and
/// clear of every card, short, on the page.
fn crop_mark(a: (f64, f64), b: (f64, f64), cards: &[Bbox], page: (f64, f64)) -> bool {
    let line = Bbox::of(&[a, b]);
    let on_page = line.x0 >= 0.0 && line.y0 >= 0.0 && line.x1 <= page.0 && line.y1 <= page.1;
    let length = line.w().max(line.h());
    let edge = |v: f64, xs: bool| {
        cards.iter().any(|c| {
            let (lo, hi) = if xs { (c.x0, c.x1) } else { (c.y0, c.y1) };
            (v - lo).abs() < 0.05 || (v - hi).abs() < 0.05
        })
    };
    let along =
        (line.w() < 0.01 && edge(line.x0, true)) || (line.h() < 0.01 && edge(line.y0, false));
    let clear = cards.iter().all(|c| !c.near(&line, 1.0));
    on_page && along && clear && (3.0..=15.0).contains(&length)
}

/// Checks every rule of the card sheets on one pack PDF; returns how many
/// cards it holds.
fn check_cards(pdf: &std::path::Path, seed: &str) -> usize {
    let (pages, size) = card_pages(pdf);
    assert!(!pages.is_empty(), "{}: no card pages", pdf.display());
    let mut total = 0;
    for (n, page) in pages.iter().enumerate() {
        let what = format!("{} card page {}", pdf.display(), n + 1);
        let count = page.cards.len();
        total += count;
        if n + 1 < pages.len() {
            // A page before the last is full but for a row's last cell
            // where a folded pair could not start (two cells wide) and no
            // single card was left to take it.
            let origin = ((size.0 - 3.0 * CARD.0) / 2.0, (size.1 - 3.0 * CARD.1) / 2.0);
            let cell = |c: &Bbox| {
                (
                    ((c.x0 - origin.0) / CARD.0).round() as usize,
                    ((c.y0 - origin.1) / CARD.1).round() as usize,
                )
            };
            let taken: Vec<(usize, usize)> = page.cards.iter().map(cell).collect();
            for row in 0..3 {
                for col in 0..2 {
                    assert!(
                        taken.contains(&(col, row)),
                        "{what}: cell {col},{row} empty on a page before the last"
                    );
                }
            }
        }
        assert!(count <= 9, "{what}: {count} cards");
        let grid = Bbox {
            x0: page
                .cards
                .iter()
                .map(|c| c.x0)
                .fold(f64::INFINITY, f64::min),
            y0: page
                .cards
                .iter()
                .map(|c| c.y0)
                .fold(f64::INFINITY, f64::min),
            x1: page.cards.iter().map(|c| c.x1).fold(0.0, f64::max),
            y1: page.cards.iter().map(|c| c.y1).fold(0.0, f64::max),
        };
        if count == 9 {
            assert!(
                (grid.w() - 3.0 * CARD.0).abs() < 0.5,
                "{what}: not 3 across"
            );
            assert!((grid.h() - 3.0 * CARD.1).abs() < 0.5, "{what}: not 3 down");
            assert!(
                ((grid.x0 + grid.x1) / 2.0 - size.0 / 2.0).abs() < 0.5,
                "{what}: not centred"
            );
            assert!(
                ((grid.y0 + grid.y1) / 2.0 - size.1 / 2.0).abs() < 0.5,
                "{what}: not centred"
            );
        }
        let mut crops = Vec::new();
        let mut texts = vec![Vec::new(); count];
        for m in &page.marks {
            if let Mark::Line(a, b) = m
                && crop_mark(*a, *b, &page.cuts, size)
            {
                crops.push(Bbox::of(&[*a, *b]));
                continue;
            }
            let b = m.bbox();
            if matches!(m, Mark::Rect(r) if page.cuts.contains(r)) {
                continue;
            }
            let home = page.cards.iter().position(|c| c.holds(&b, STROKE));
            let Some(home) = home else {
                panic!("{what}: {m:?} is outside every card and not a crop mark");
            };
            if let Mark::Text(_, size, text) = m {
                // The card engine's floor (`page::layout::cards::LAST_TYPE`):
                // a card's body may go below 8 pt, to 7, rather than spend a
                // second card on a line or two.
                assert!(*size >= 7.0 - 1e-6, "{what}: {text} at {size} pt");
                texts[home].push(b);
            }
        }
        // A folded pair has its fold down the middle, and no crop mark
        // points at it.
        for pair in page.cuts.iter().filter(|c| is_pair(c)) {
            let mid = (pair.x0 + pair.x1) / 2.0;
            let fold = page.marks.iter().any(|m| {
                matches!(m, Mark::Line(a, b) if (a.0 - mid).abs() < 0.05 && (b.0 - mid).abs() < 0.05
                    && (a.1 - b.1).abs() > CARD.1 - 1.0)
            });
            assert!(fold, "{what}: a pair without its fold at x = {mid:.1}");
            let cut = page
                .cuts
                .iter()
                .any(|c| ((c.x0 - mid).abs() < 0.05 || (c.x1 - mid).abs() < 0.05) && !is_pair(c));
            let pointed = crops
                .iter()
                .any(|m| m.w() < 0.01 && (m.x0 - mid).abs() < 0.05);
            assert!(
                cut || !pointed,
                "{what}: a crop mark points at the fold x = {mid:.1}"
            );
        }
        // A crop mark at both ends of every cut line.
        for c in &page.cuts {
            for x in [c.x0, c.x1] {
                let marks = crops
                    .iter()
                    .filter(|m| m.w() < 0.01 && (m.x0 - x).abs() < 0.05);
                assert!(
                    marks.count() >= 2,
                    "{what}: the cut at x = {x:.1} has no crop marks"
                );
            }
            for y in [c.y0, c.y1] {
                let marks = crops
                    .iter()
                    .filter(|m| m.h() < 0.01 && (m.y0 - y).abs() < 0.05);
                assert!(
                    marks.count() >= 2,
                    "{what}: the cut at y = {y:.1} has no crop marks"
                );
            }
        }
        // Every card has text: a title and a footer line at least.
        for (i, t) in texts.iter().enumerate() {
            assert!(t.len() >= 3, "{what}: card {} has {} texts", i + 1, t.len());
        }
    }
    let text = pdftotext(pdf);
    if !text.is_empty() {
        let first = seed.split_whitespace().next().unwrap();
        let seeds = text.matches(&format!("seed {first}")).count();
        assert!(
            seeds >= total,
            "{}: {seeds} seed lines for {total} cards",
            pdf.display()
        );
    }
    total
}

/// The PDF's text, when poppler-utils are installed (empty otherwise).
/// A templates folder under `base` for a GM's wording file, and the
/// built-in wording file's text to edit into it.
fn templates_dir(base: &std::path::Path) -> (std::path::PathBuf, String) {
    let tpl = base.join("tpl");
    std::fs::create_dir_all(&tpl).unwrap();
    let builtin = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/templates/wording.toml.tera"
    ))
    .unwrap();
    (tpl, builtin)
}

fn pdftotext(pdf: &std::path::Path) -> String {
    std::process::Command::new("pdftotext")
        .args([pdf.to_str().unwrap(), "-"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default()
}

/// The addresses of the items a pack has cards for (`npc/1`, …), from its
/// JSON.
fn addresses(dir: &std::path::Path) -> Vec<String> {
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("pack.json")).unwrap()).unwrap();
    let pack = json.get("pack").unwrap_or(&json);
    let kinds = [
        ("npcs", "npc"),
        ("traps", "trap"),
        ("vouchers", "voucher"),
        ("injuries", "injury"),
        ("mutations", "mutation"),
    ];
    kinds
        .iter()
        .flat_map(|(key, kind)| {
            let n = pack[key].as_array().map_or(0, Vec::len);
            (1..=n).map(move |i| format!("{kind}/{i}"))
        })
        .collect()
}

#[test]
fn every_card_is_poker_size_with_crop_marks_and_nothing_outside() {
    let long = "a seed long enough that its footer line has to wrap onto two lines";
    let core = format!("{}/session-core.toml", env!("CARGO_MANIFEST_DIR"));
    let mettle = sample_session();
    let cases: [(&str, &str, &[&str], &str); 4] = [
        ("cards-a4", &mettle, &[], "goblin-night"),
        (
            "cards-letter",
            &mettle,
            &["--paper", "letter", "--ink-saver"],
            "goblin-night",
        ),
        ("cards-long-seed", &mettle, &["--seed", long], long),
        ("cards-core", &core, &["--paper", "letter"], "barrow-wight"),
    ];
    for (name, session, extra, seed) in cases {
        let out = temp_dir(name);
        let mut args = vec!["prep", session, "--out", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        ok(&args);
        let dir = only_entry(&out);
        let letter = extra.contains(&"letter");
        let pdf = dir.join(if letter {
            "pack-letter.pdf"
        } else {
            "pack.pdf"
        });
        let cards = check_cards(&pdf, seed);
        let asked = addresses(&dir);
        assert!(asked.len() >= 8, "{name}: the sample asks for {asked:?}");
        assert!(cards >= asked.len(), "{name}: {cards} cards for {asked:?}");
        let text = pdftotext(&pdf);
        for a in asked.iter().filter(|_| !text.is_empty()) {
            assert!(text.contains(a.as_str()), "{name}: no card says {a}");
        }
    }
}

/// A GM's words for the vouchers and slips (`wording.toml.tera` in a
/// templates folder) reach `pack.md`, the voucher's own file and the PDF's
/// cards alike; a voucher template of their own changes the Markdown only.
#[test]
fn a_gms_voucher_wording_reaches_the_markdown_and_the_pdf() {
    let base = crate::common::temp_dir("wording-override");
    let (tpl, builtin) = templates_dir(&base);
    let mine = builtin
        .replace("title = \"Downtime voucher\"", "title = \"Boon chit\"")
        .replace("holder = \"For\"", "holder = \"Bearer\"")
        .replace("spent = \"Spent on\"", "spent = \"Cashed in for\"")
        .replace("group = \"Downtime vouchers\"", "group = \"Boon chits\"");
    assert_ne!(mine, builtin);
    std::fs::write(tpl.join("wording.toml.tera"), mine).unwrap();
    let out = base.join("out");
    crate::common::ok(&[
        "prep",
        &crate::common::sample_session(),
        "--templates",
        tpl.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let dir = crate::common::only_entry(&out);
    let pack = std::fs::read_to_string(dir.join("pack.md")).unwrap();
    let voucher = std::fs::read_to_string(dir.join("voucher-1.md")).unwrap();
    assert!(voucher.starts_with("# Boon chit No. "), "{voucher}");
    assert!(voucher.contains("\nBearer: "), "{voucher}");
    assert!(voucher.contains("\nCashed in for: ____"), "{voucher}");
    assert!(pack.contains("## Boon chits\n"), "pack.md's group heading");
    assert!(pack.contains("### Boon chit No. "), "pack.md's vouchers");
    assert!(!pack.contains("Downtime voucher"), "no built-in words left");
    let text = pdftotext(&dir.join("pack.pdf"));
    if !text.is_empty() {
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        for words in ["Boon chit", "Cashed in for", "Boon chits"] {
            assert!(
                flat.to_lowercase().contains(&words.to_lowercase()),
                "the PDF lacks {words:?}"
            );
        }
        assert!(
            flat.to_lowercase().contains("bearer"),
            "the PDF lacks the holder's label"
        );
        assert!(
            !flat.contains("Downtime voucher"),
            "the PDF keeps the built-in words"
        );
    }
    std::fs::remove_dir_all(&base).unwrap();
}

/// Issue 27, item 8: the words the sheets and cards print come from
/// `wording.toml.tera` for the PDF and the Markdown alike — a GM's
/// headings (run sheet, encounter sheet, maps, journey log) and card
/// labels (NPC, trap) reach `pack.pdf`, `pack.md` and the items' files,
/// and none of the built-in words they replace is left.
#[test]
fn a_gms_headings_and_card_labels_reach_the_markdown_and_the_pdf() {
    let base = crate::common::temp_dir("wording-headings");
    let (tpl, builtin) = templates_dir(&base);
    // Built-in word → the GM's, each a key of the file.
    let words = [
        ("contents = \"Contents\"", "Inhalt"),
        ("initiative = \"Initiative ladder\"", "Zugfolge"),
        ("encounter = \"Encounter\"", "Begegnung"),
        ("foes = \"Foes\"", "Gegner"),
        ("zones = \"Zones\"", "Zonen"),
        ("odds = \"Odds of one attack (exact)\"", "Trefferchancen"),
        ("map = \"Point-crawl map\"", "Wegekarte"),
        ("journey_log = \"Journey log\"", "Reisebuch"),
        ("group = \"NPC cards\"", "Figurenkarten"),
        ("weapons = \"Weapons\"", "Waffen"),
        ("group = \"Trap cards\"", "Fallenkarten"),
        ("trigger = \"Trigger\"", "Ausloeser"),
        ("effect = \"Effect\"", "Wirkung"),
    ];
    let mut mine = builtin.clone();
    for (line, word) in words {
        assert!(mine.contains(line), "{line} is not in the built-in file");
        let key = line.split(" = ").next().unwrap();
        mine = mine.replacen(line, &format!("{key} = \"{word}\""), 1);
    }
    std::fs::write(tpl.join("wording.toml.tera"), mine).unwrap();
    let out = base.join("out");
    // Seed `a`: a pack whose first encounter is a fight (foes, zones).
    crate::common::ok(&[
        "prep",
        &crate::common::sample_session(),
        "--seed",
        "a",
        "--templates",
        tpl.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let dir = crate::common::only_entry(&out);
    let pack = std::fs::read_to_string(dir.join("pack.md")).unwrap();
    for md in [
        "### Inhalt\n",
        "### Zugfolge\n",
        "# Begegnung 1: ",
        "## Gegner\n",
    ] {
        assert!(pack.contains(md), "pack.md lacks {md:?}");
    }
    let encounter = std::fs::read_to_string(dir.join("encounter-1.md")).unwrap();
    assert!(encounter.starts_with("# Begegnung 1: "), "{encounter}");
    assert!(encounter.contains("## Zonen ("), "{encounter}");
    let map = std::fs::read_to_string(dir.join("map-1.md")).unwrap();
    assert!(map.starts_with("# Wegekarte\n"), "{map}");
    let trap = std::fs::read_to_string(dir.join("trap-1.md")).unwrap();
    assert!(trap.contains("- **Ausloeser**: "), "{trap}");
    let npc = std::fs::read_to_string(dir.join("npc-1.md")).unwrap();
    assert!(npc.contains("Waffen: "), "{npc}");
    for (file, old) in [
        ("pack.md", "### Contents"),
        ("pack.md", "# Encounter 1"),
        ("encounter-1.md", "## Foes"),
        ("trap-1.md", "**Trigger**"),
    ] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        assert!(!text.contains(old), "{file} keeps {old:?}");
    }
    let text = pdftotext(&dir.join("pack.pdf"));
    if !text.is_empty() {
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        for (_, word) in words {
            // Card labels print in capitals.
            assert!(
                flat.to_lowercase().contains(&word.to_lowercase()),
                "the PDF lacks {word:?}"
            );
        }
        for old in [
            "Contents",
            "Initiative ladder",
            "Encounter 1:",
            "Odds of one attack",
            "Point-crawl map",
            "Journey log",
            "NPC cards",
            "Trap cards",
            "WEAPONS",
            "TRIGGER",
            "EFFECT",
        ] {
            assert!(!flat.contains(old), "the PDF keeps {old:?}");
        }
    }
    std::fs::remove_dir_all(&base).unwrap();
}

/// A wording file missing a key, or with one no card reads, is refused
/// before anything is made, naming the file.
#[test]
fn a_wording_file_with_a_wrong_key_is_refused() {
    let base = crate::common::temp_dir("wording-bad");
    let tpl = base.join("tpl");
    std::fs::create_dir_all(&tpl).unwrap();
    std::fs::write(
        tpl.join("wording.toml.tera"),
        "[voucher]\ntitle = \"Boon\"\n[slip]\ngiven = \"To\"\n",
    )
    .unwrap();
    let err = crate::common::fails(&[
        "prep",
        &crate::common::sample_session(),
        "--templates",
        tpl.to_str().unwrap(),
        "--out",
        base.join("out").to_str().unwrap(),
    ]);
    assert!(err.contains("wording.toml"), "{err}");
    let out = base.join("out");
    assert!(!out.exists() || std::fs::read_dir(&out).unwrap().next().is_none());
    std::fs::remove_dir_all(&base).unwrap();
}

/// Issue 50: the injury and mutation slips a player keeps carry no dice
/// trail (the GM's `pack.md` keeps it), and a wording file written before
/// that, with its `rolled` key, still loads.
#[test]
fn the_players_slips_carry_no_dice_trail_and_old_wording_still_loads() {
    let base = crate::common::temp_dir("slips-trail");
    let (tpl, builtin) = templates_dir(&base);
    assert!(
        !builtin.contains("\nrolled = "),
        "the key is gone from the template"
    );
    let old = builtin.replacen(
        "given = \"Given to\"\n",
        "given = \"Given to\"\nrolled = \"Rolled\"\n",
        1,
    );
    assert_ne!(old, builtin);
    std::fs::write(tpl.join("wording.toml.tera"), old).unwrap();
    let session = format!("{}/session-core.toml", env!("CARGO_MANIFEST_DIR"));
    let out = base.join("out");
    ok(&[
        "prep",
        &session,
        "--templates",
        tpl.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let dir = only_entry(&out);
    let pack = std::fs::read_to_string(dir.join("pack.md")).unwrap();
    assert!(
        pack.contains("core.injury d"),
        "pack.md keeps the injury's trail"
    );
    let text = pdftotext(&dir.join("pack.pdf"));
    if !text.is_empty() {
        assert!(
            text.contains("Given to") || text.contains("GIVEN TO"),
            "{text}"
        );
        for trail in ["core.injury d", "core.mutation d", "ROLLED", "Rolled"] {
            assert!(!text.contains(trail), "the slips print {trail:?}");
        }
    }
    std::fs::remove_dir_all(&base).unwrap();
}
