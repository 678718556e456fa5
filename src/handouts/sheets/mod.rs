//! A session pack as one PDF: the run sheet with contents, then a section
//! per handout (each a bookmark: encounters, the maps, the journey, then
//! the card sheets with NPC cards, trap cards, vouchers and slips), the
//! share line and page number on every page but the card sheets. One module per sheet:
//!
//! - `run`: the run sheet (page 1);
//! - `encounter`: one encounter sheet per encounter;
//! - `cards`: NPC cards, trap cards, vouchers and slips on one card grid;
//! - `maps`: the GM's and the players' map;
//! - `atlas`: a map of more than a dozen stops as an overview, detail
//!   tiles and an index, GM's and players';
//! - `journey`: the journey log;
//! - `way`: a campaign pack's encounters on the way, a sheet each after
//!   the log (`journey/1/encounter/2`);
//! - `after`: a campaign's "After the session" sheet (the record to mark),
//!   last.
//!
//! Stat lines come from [`crate::wording::lines`].

use super::ShareLine;
use crate::generators::Address;
use crate::generators::map::Map;
use crate::generators::session::Pack;
use crate::handouts::drawings::chart::View;
use crate::handouts::markdown::Wording;
use crate::page::layout::Flow;
use crate::page::pdf::{self, Fonts, Paper};

mod after;
mod atlas;
mod cards;
mod encounter;
mod journey;
mod map_rows;
mod maps;
mod run;
mod social;
mod way;

/// The whole pack as one PDF. The pack is laid out once to learn the page
/// each section starts on, then again with those pages in the run sheet's
/// contents (and again should that have moved them; it never takes more
/// than a few passes, and the same pack always gives the same pages).
pub fn pack_pdf(
    pack: &Pack,
    share: &ShareLine,
    paper: Paper,
    ink_saver: bool,
    fonts: &Fonts,
    w: &Wording,
) -> Vec<u8> {
    let mut contents: Vec<(String, usize)> = Vec::new();
    let mut laid = lay_out(pack, share, paper, ink_saver, fonts, w, &contents);
    for _ in 0..4 {
        let found: Vec<(String, usize)> = laid
            .1
            .iter()
            .skip(1)
            .map(|s| (s.title.clone(), s.first_page + 1))
            .collect();
        if found == contents {
            break;
        }
        contents = found;
        laid = lay_out(pack, share, paper, ink_saver, fonts, w, &contents);
    }
    let (pages, sections) = laid;
    pdf::document(&pack.title, paper, &pages, &sections, fonts)
}

/// Every character of the pack that no font of the PDF has a glyph for
/// (it prints as U+FFFD `�`), as a line naming the item, the field and the
/// character: `party: field mettle.0.name has no glyph for 'ᚠ' (U+16A0);
/// the PDF prints it as �`. `prep` prints them as warnings, so a name never
/// goes missing in silence. Every text of the pack is looked at, as its
/// JSON has it.
pub fn missing_glyphs(pack: &Pack, fonts: &Fonts) -> Vec<String> {
    let Ok(json) = serde_json::to_value(pack) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    if let serde_json::Value::Object(top) = &json {
        for (key, value) in top {
            match value {
                serde_json::Value::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        let at = item
                            .get("address")
                            .and_then(|a| a.as_str())
                            .map_or_else(|| format!("{key}.{i}"), str::to_owned);
                        missing_in(item, &at, "", fonts, &mut found);
                    }
                }
                _ => {
                    let at = value.get("address").and_then(|a| a.as_str()).unwrap_or(key);
                    let field = if value.is_object() { "" } else { key.as_str() };
                    missing_in(value, at, field, fonts, &mut found);
                }
            }
        }
    }
    found
}

/// [`missing_glyphs`] in one JSON value of item `at`, at `field`.
fn missing_in(
    value: &serde_json::Value,
    at: &str,
    field: &str,
    fonts: &Fonts,
    found: &mut Vec<String>,
) {
    let join = |k: &str| {
        if field.is_empty() {
            k.to_owned()
        } else {
            format!("{field}.{k}")
        }
    };
    match value {
        serde_json::Value::String(text) => {
            let mut seen = Vec::new();
            for c in text.chars() {
                if !c.is_control() && !fonts.has_glyph(c, false) && !seen.contains(&c) {
                    seen.push(c);
                    found.push(format!(
                        "{at}: field {field} has no glyph for {c:?} (U+{:04X}) in {text:?}; \
                         the PDF prints it as \u{FFFD}",
                        u32::from(c)
                    ));
                }
            }
        }
        serde_json::Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                missing_in(item, at, &join(&i.to_string()), fonts, found);
            }
        }
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                missing_in(v, at, &join(k), fonts, found);
            }
        }
        _ => {}
    }
}

/// One item's sheet as a PDF of its own (`prep --only encounter/2` writes
/// it as `encounter-2.pdf`): an encounter sheet, the two map pages, the
/// journey log, or the item's card; its footer is the item's share line.
/// `None` when the pack has no item at `at`.
pub fn item_pdf(
    pack: &Pack,
    at: &Address,
    share: &ShareLine,
    paper: Paper,
    ink_saver: bool,
    fonts: &Fonts,
    w: &Wording,
) -> Option<Vec<u8>> {
    let footer = share.item_plain(at, pack.rerolls.of(at));
    let mut f = Flow::new(fonts, paper, footer, ink_saver);
    let i = at.index();
    match at.kind() {
        "encounter" => way::numbered(&mut f, i + 1, pack.encounters.get(i)?, w),
        "map" if i == 0 => {
            let m = pack.map.as_ref()?;
            for players in [false, true] {
                maps::map_pages(&mut f, m, view_of(pack, players), w);
            }
        }
        "journey" if i == 0 => journey::journey(&mut f, pack.journey.as_ref()?, &pack.party, w),
        _ => cards::one_card(&mut f, pack, share, w, &at.to_string())?,
    }
    let (pages, sections) = f.finish();
    let title = format!("{} · {at}", pack.title);
    Some(pdf::document(&title, paper, &pages, &sections, fonts))
}

/// A map's pages alone as a PDF: the GM's then the players' (one page
/// each, or each an atlas for a map of more than a dozen stops), with
/// `footer` on every page and the built-in wording.
pub fn map_pdf(m: &Map, title: &str, footer: String, paper: Paper, fonts: &Fonts) -> Vec<u8> {
    let mut f = Flow::new(fonts, paper, footer, false);
    let w = Wording::builtin();
    for players in [false, true] {
        maps::map_pages(&mut f, m, View::plain(players), &w);
    }
    let (pages, sections) = f.finish();
    pdf::document(title, paper, &pages, &sections, fonts)
}

/// The GM's or the players' view of the pack's map: in a campaign, with
/// what the party knows of it.
pub(crate) fn view_of(pack: &Pack, players: bool) -> View<'_> {
    View {
        players,
        reveal: pack.campaign.as_ref().and_then(|c| c.reveal.as_ref()),
    }
}

/// Every sheet of the pack, in order, with `contents` on the run sheet.
fn lay_out(
    pack: &Pack,
    share: &ShareLine,
    paper: Paper,
    ink_saver: bool,
    fonts: &Fonts,
    w: &Wording,
    contents: &[(String, usize)],
) -> (Vec<pdf::Page>, Vec<pdf::Section>) {
    let mut f = Flow::new(fonts, paper, share.plain(), ink_saver);
    run::cover(&mut f, pack, share, contents, w);
    for (i, e) in pack.encounters.iter().enumerate() {
        if social::is_compact(e) {
            social::card(&mut f, i + 1, e, w);
            // The last card of a run: notes fill the rest of its page.
            if !pack.encounters.get(i + 1).is_some_and(social::is_compact) {
                f.note_lines(&w.sheet.notes, 2);
            }
        } else {
            way::numbered(&mut f, i + 1, e, w);
        }
    }
    if let Some(m) = &pack.map {
        for players in [false, true] {
            maps::map_pages(&mut f, m, view_of(pack, players), w);
        }
    }
    if let Some(j) = &pack.journey {
        journey::journey(&mut f, j, &pack.party, w);
        way::sheets(&mut f, pack, w);
    }
    // The cut-out cards next, so they can go on card stock together.
    cards::card_sheets(&mut f, pack, share, w);
    if let Some(c) = &pack.campaign {
        after::after(&mut f, &c.after);
    }
    f.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::session as pack;
    use crate::input::Session;
    use crate::rules::{Party, RulesSystem};
    use crate::seed::Seed;

    /// The packs of both sample sessions (METTLE party `3,4,4,5`, Core
    /// party `core_party`) for seeds `{prefix}-0` … `{prefix}-{n-1}`, each
    /// with its seed.
    fn sample_packs(core_party: &str, prefix: &str, n: usize) -> Vec<(String, pack::Pack)> {
        let library = crate::content::test_library();
        let samples = [
            (
                include_str!("../../../session.toml"),
                "3,4,4,5",
                RulesSystem::Mettle,
            ),
            (
                include_str!("../../../session-core.toml"),
                core_party,
                RulesSystem::Core,
            ),
        ];
        let mut packs = Vec::new();
        for (text, party, system) in samples {
            let session: Session = toml::from_str(text).unwrap();
            let party = Party::from_summary(party, system).unwrap();
            for i in 0..n {
                let name = format!("{prefix}-{i}");
                let seed = Seed::new(&name).unwrap();
                let pack = pack::generate(&library, &session.request(), &party, &seed).unwrap();
                packs.push((name, pack));
            }
        }
        packs
    }

    /// A share line for tests, naming `seed`.
    fn test_share(seed: &str) -> ShareLine {
        ShareLine {
            seed: seed.into(),
            options: "test".into(),
            version: "0".into(),
            format: 2,
            content: "0".into(),
            bundle: "0".into(),
        }
    }

    /// Every character a pack prints has a glyph in the embedded fonts
    /// (a missing one would print as U+FFFD): both sample sessions, ten
    /// seeds each, every sheet, both papers' layouts.
    #[test]
    fn every_printed_character_is_in_the_embedded_fonts() {
        let fonts = Fonts::load();
        let mut seen = std::collections::BTreeSet::new();
        for (seed, pack) in sample_packs("10,12,14", "glyphs", 10) {
            let share = test_share(&seed);
            for paper in [Paper::A4, Paper::Letter] {
                let (pages, _) = lay_out(
                    &pack,
                    &share,
                    paper,
                    false,
                    &fonts,
                    &Wording::builtin(),
                    &[],
                );
                for shape in pages.iter().flat_map(|p| &p.items) {
                    if let crate::page::Shape::Text { text, bold, .. } = shape {
                        for c in text.chars().filter(|c| !c.is_whitespace()) {
                            assert!(fonts.has_glyph(c, *bold), "no glyph for {c:?} in {text:?}");
                            seen.insert(c);
                        }
                    }
                }
            }
        }
        // The marks the issue names are among what was printed and checked.
        for c in ['×', '→', '♠', '♥', '♦', '♣'] {
            assert!(
                seen.contains(&c),
                "no pack printed {c:?}: the test missed it"
            );
        }
        // Shillings print only when a Core journey buys a meal; tick boxes
        // are drawn as shapes, not as ☐.
        for bold in [false, true] {
            assert!(fonts.has_glyph('ʂ', bold));
        }
        assert!(!seen.contains(&'☐'));
    }

    /// Packs of 30 encounters in every built-in terrain, both systems
    /// (the scan that found sheets and compact cards running on).
    fn crowded_packs() -> Vec<(String, pack::Pack)> {
        let library = crate::content::test_library();
        let mut packs = Vec::new();
        for (system, party) in [
            (RulesSystem::Mettle, "4,4,5,5"),
            (RulesSystem::Core, "11,12,13,10"),
        ] {
            let party = Party::from_summary(party, system).unwrap();
            for terrain in [
                "road",
                "forest",
                "swamp",
                "hills",
                "ruins",
                "underground",
                "town",
            ] {
                let name = format!("crowd-{}-{terrain}", system.label());
                let text = format!(
                    "title = \"Crowd\"\nseed = \"{name}\"\nsystem = \"{}\"\n\
                     terrain = \"{terrain}\"\nparty = \"p.toml\"\nencounters = 30\n",
                    match system {
                        RulesSystem::Mettle => "mettle",
                        RulesSystem::Core => "core",
                    }
                );
                let session: Session = toml::from_str(&text).unwrap();
                let seed = Seed::new(&name).unwrap();
                let pack = pack::generate(&library, &session.request(), &party, &seed).unwrap();
                packs.push((name, pack));
            }
        }
        packs
    }

    /// The words on a page, its lines joined by spaces.
    fn page_text(page: &pdf::Page) -> String {
        let texts: Vec<&str> = page
            .items
            .iter()
            .filter_map(|s| match s {
                crate::page::Shape::Text { text, .. } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        texts.join(" ")
    }

    /// Over 420 encounters a paper: a compact card never breaks across a
    /// page (it starts on a fresh page when what is left is too short),
    /// and a sheet no fit keeps to one page takes exactly two, its second
    /// opening on the battlefield under a "(continued)" heading, never a
    /// few lines on a page of their own.
    #[test]
    fn crowded_sheets_and_cards_never_spill_a_fragment() {
        let fonts = Fonts::load();
        let w = Wording::builtin();
        let (mut cards, mut split) = (0, 0);
        for (seed, pack) in crowded_packs() {
            for paper in [Paper::A4, Paper::Letter] {
                let mut f = Flow::new(&fonts, paper, seed.clone(), false);
                let mut ends = Vec::new();
                for (i, e) in pack.encounters.iter().enumerate() {
                    if social::is_compact(e) {
                        social::card(&mut f, i + 1, e, &w);
                        cards += 1;
                    } else {
                        way::numbered(&mut f, i + 1, e, &w);
                    }
                    ends.push(f.page_count() - 1);
                }
                let (pages, sections) = f.finish();
                assert_eq!(sections.len(), pack.encounters.len());
                for ((s, end), e) in sections.iter().zip(&ends).zip(&pack.encounters) {
                    let span = end - s.first_page;
                    if social::is_compact(e) {
                        assert_eq!(span, 0, "{seed} {paper:?}: {} breaks", s.title);
                    } else {
                        assert!(span <= 1, "{seed} {paper:?}: {} runs on", s.title);
                        if span == 1 {
                            split += 1;
                            let second = page_text(&pages[*end]);
                            assert!(
                                second.contains(&format!("{} (continued)", s.title)),
                                "{seed} {paper:?}: {second}"
                            );
                        }
                    }
                }
            }
        }
        assert!(cards >= 100, "only {cards} compact cards");
        // The scan holds sheets that need two pages (four on A4 before
        // they were split by design), and they stay rare.
        assert!((1..=20).contains(&split), "{split} sheets on two pages");
    }

    /// Every encounter sheet of both sample sessions (25 seeds each, A4
    /// and letter, seeds that once ran onto a second page among them)
    /// fits one page, however many foes, tiles and traps its dice bring —
    /// but for the rare sheet no fit keeps to one (eight foes of two kinds
    /// on a crowded field), set on exactly two by design, its second
    /// opening under a "(continued)" heading (see
    /// `crowded_sheets_and_cards_never_spill_a_fragment`): at most one
    /// sheet in fifty.
    #[test]
    fn every_encounter_sheet_fits_one_page() {
        let fonts = Fonts::load();
        let share = test_share("fit");
        let (mut sheets, mut split) = (0, Vec::new());
        for (seed, pack) in sample_packs("10,12,14,9", "scan", 25) {
            for paper in [Paper::A4, Paper::Letter] {
                let (pages, sections) = lay_out(
                    &pack,
                    &share,
                    paper,
                    false,
                    &fonts,
                    &Wording::builtin(),
                    &[],
                );
                for (k, s) in sections.iter().enumerate() {
                    if !s.title.starts_with("Encounter ") {
                        continue;
                    }
                    let next = sections.get(k + 1).map_or(pages.len(), |n| n.first_page);
                    // A foe-less encounter's compact card may share its
                    // page with the next (0 pages of its own).
                    let span = next - s.first_page;
                    assert!(span <= 2, "{seed} {paper:?}: {} runs on", s.title);
                    if span == 2 {
                        let second = page_text(&pages[s.first_page + 1]);
                        assert!(
                            second.contains(&format!("{} (continued)", s.title)),
                            "{seed} {paper:?}: {} runs on without its heading: {second}",
                            s.title
                        );
                        split.push(format!("{seed} {paper:?}: {}", s.title));
                    }
                    sheets += 1;
                }
            }
        }
        assert!(sheets >= 100, "only {sheets} encounter sheets checked");
        assert!(
            split.len() * 50 <= sheets,
            "{} of {sheets}: {split:?}",
            split.len()
        );
    }

    /// The map pages of both sample sessions, 25 seeds each, A4 and letter:
    /// every word on them (labels, legend, paths, key) prints at 7 pt at
    /// least; the GM's map and its key take one page (or, on letter, the
    /// key of a tall map drawn at its least scale runs on), and that page
    /// is used (its lowest line in the lower quarter of the page: no empty
    /// half page under a small map).
    #[test]
    fn map_pages_print_at_7_pt_and_use_their_page() {
        let fonts = Fonts::load();
        let share = test_share("maps");
        let mut checked = 0;
        let mut ran_on = 0;
        let mut wrong = Vec::new();
        for (seed, pack) in sample_packs("10,12,14", "maps", 25) {
            for paper in [Paper::A4, Paper::Letter] {
                let (pages, sections) = lay_out(
                    &pack,
                    &share,
                    paper,
                    false,
                    &fonts,
                    &Wording::builtin(),
                    &[],
                );
                let (_, height) = paper.size();
                for (k, s) in sections.iter().enumerate() {
                    if !s.title.starts_with("Point-crawl map") {
                        continue;
                    }
                    let next = sections.get(k + 1).map_or(pages.len(), |n| n.first_page);
                    let page = &pages[s.first_page];
                    let mut lowest: f64 = 0.0;
                    let mut least: f64 = f64::MAX;
                    for shape in &page.items {
                        if let crate::page::Shape::Text { size, text, y, .. } = shape {
                            least = least.min(*size);
                            assert!(
                                *size >= 7.0 - 1e-9,
                                "{seed} {paper:?} {}: {text:?} at {size:.2} pt",
                                s.title
                            );
                            // The share line and page number are the footer.
                            if *y < height - 40.0 {
                                lowest = lowest.max(*y);
                            }
                        }
                    }
                    if s.title.contains("(players)") {
                        continue;
                    }
                    // A key may run on only when the map gave all it could:
                    // drawn at its least scale, its labels at 7 pt.
                    if next - s.first_page != 1 {
                        ran_on += 1;
                        if (least - 7.0).abs() > 1e-6 {
                            wrong.push(format!("{seed} {paper:?}: the key runs on beside a map whose least text is {least:.2} pt"));
                        }
                    } else if lowest <= height * 0.75 {
                        wrong.push(format!(
                            "{seed} {paper:?}: the map page ends at {lowest:.0} of {height:.0} pt"
                        ));
                    }
                    checked += 1;
                }
            }
        }
        assert!(
            wrong.is_empty(),
            "{} of {checked}:\n{}",
            wrong.len(),
            wrong.join("\n")
        );
        assert!(checked >= 100, "only {checked} GM map pages checked");
        // Most keys stay with their map (the tallest ten-stop maps on
        // letter are the exception).
        assert!(ran_on * 5 <= checked, "{ran_on} of {checked} keys run on");
    }

    /// Issue 27, item 5: the odds grid of every encounter of both sample
    /// sessions (25 seeds each, a five-PC Core party), on A4 and letter, at
    /// every fit: no PC cell wraps (each is two lines, foe on PC over PC on
    /// foe, each as wide as its column allows), no column says the same in
    /// every row (Core's hit chance is in the legend, not the cells), the
    /// legend stands beside the grid at a readable width, and the grid
    /// stays within its own column.
    #[test]
    fn odds_grid_reads_at_a_glance() {
        use crate::page::pdf::wrap;
        let fonts = Fonts::load();
        let mut grids = [0, 0];
        for (seed, pack) in sample_packs("10,12,14,9,11", "odds", 25) {
            for paper in [Paper::A4, Paper::Letter] {
                let f = Flow::new(&fonts, paper, String::new(), false);
                for e in &pack.encounters {
                    let groups = crate::handouts::foes::groups(&e.foes);
                    for fit in encounter::FITS {
                        let Some(g) = encounter::odds_grid(&f, e, &groups, fit) else {
                            continue;
                        };
                        let at = format!("{seed} {paper:?} {}", e.situation.row);
                        let total = f.content_width();
                        assert!(g.legend_w >= 100.0, "{at}: legend {:.0} pt", g.legend_w);
                        assert!(g.table_w + g.legend_w < total, "{at}: beside");
                        let share: f64 = g.widths.iter().sum();
                        assert!(
                            share <= 1.0 + 1e-9,
                            "{at}: the grid is {share} of its column"
                        );
                        for (i, pc) in g.header.iter().enumerate().skip(1) {
                            let w = g.widths[i] * g.table_w - 4.0;
                            assert_eq!(wrap(&fonts, pc, g.size, true, w).len(), 1, "{at}: {pc}");
                            for row in &g.body {
                                let lines: Vec<&str> = row[i].lines().collect();
                                assert_eq!(lines.len(), 2, "{at}: {:?}", row[i]);
                                for l in lines {
                                    let n = wrap(&fonts, l, g.size, false, w).len();
                                    assert_eq!(n, 1, "{at}: {l:?} wraps in {w:.1} pt");
                                }
                            }
                        }
                        // The first part of every cell line: a hit chance
                        // when the chances differ, never one said everywhere.
                        let firsts: std::collections::BTreeSet<&str> = g
                            .body
                            .iter()
                            .flat_map(|r| r[1..].iter().flat_map(|c| c.lines()))
                            .filter_map(|l| l.split(' ').next())
                            .filter(|t| t.ends_with('%'))
                            .collect();
                        assert!(firsts.len() != 1, "{at}: every cell says {firsts:?}");
                        let core = e.system == crate::rules::RulesSystem::Core;
                        if core {
                            assert!(firsts.is_empty(), "{at}: {firsts:?}");
                            assert!(g.legend.contains("Every attack hits (Core Rules)."));
                            assert!(!g.legend.contains("Soak"), "{at}: {}", g.legend);
                        }
                        grids[usize::from(core)] += 1;
                    }
                }
            }
        }
        assert!(
            grids[0] >= 100 && grids[1] >= 100,
            "{grids:?} grids checked"
        );
    }

    /// Issue 51, finding 10: a GM who reads only the paper learns each
    /// Twist the journey took and what its price did, as the Markdown log
    /// says it — across the METTLE sample's seeds, every Twist's line is on
    /// the PDF's journey page, under its heading.
    #[test]
    fn the_journey_page_prints_every_twist_and_its_price() {
        let fonts = Fonts::load();
        let share = test_share("twists");
        let mut twists = 0;
        for (seed, pack) in sample_packs("10,12,14", "twists", 25) {
            let Some(j) = &pack.journey else { continue };
            let wanted: Vec<String> = j
                .passages
                .iter()
                .filter_map(|p| {
                    let t = p.twist.as_ref()?;
                    Some(format!("Twist ({}): {}", t.name, t.price))
                })
                .collect();
            if wanted.is_empty() {
                continue;
            }
            let (pages, _) = lay_out(
                &pack,
                &share,
                Paper::A4,
                false,
                &fonts,
                &Wording::builtin(),
                &[],
            );
            let words: Vec<&str> = pages
                .iter()
                .flat_map(|p| &p.items)
                .filter_map(|s| match s {
                    crate::page::Shape::Text { text, .. } => Some(text.as_str()),
                    _ => None,
                })
                .flat_map(str::split_whitespace)
                .collect();
            let text = words.join(" ");
            assert!(text.contains("On the way, as rolled"), "{seed}");
            for line in wanted {
                let line = line.split_whitespace().collect::<Vec<_>>().join(" ");
                assert!(text.contains(&line), "{seed}: no {line:?} on the paper");
                twists += 1;
            }
        }
        assert!(twists >= 5, "only {twists} Twists taken");
    }

    /// Issue 50: no trap card is set under 8 pt — a trap too long for one
    /// card at 8 pt is a folded pair (what the party meets on the front,
    /// how it is undone and its odds on the back), so across both samples'
    /// seeds every trap card's text is 8 pt or more, and some are pairs.
    #[test]
    fn trap_cards_are_never_set_under_8_pt() {
        let fonts = Fonts::load();
        let share = test_share("traps");
        let (mut single, mut pairs) = (0, 0);
        for (seed, pack) in sample_packs("10,12,14", "traps", 25) {
            for k in 1..=pack.traps.len() {
                let address = format!("trap/{k}");
                let mut f = Flow::new(&fonts, Paper::A4, share.plain(), false);
                cards::one_card(&mut f, &pack, &share, &Wording::builtin(), &address)
                    .expect("the pack's trap has a card");
                let (pages, _) = f.finish();
                let mut footers = 0;
                for s in pages.iter().flat_map(|p| &p.items) {
                    if let crate::page::Shape::Text { text, size, .. } = s {
                        assert!(
                            *size >= 8.0 - 1e-9,
                            "{seed} {address}: {text:?} at {size} pt"
                        );
                        footers += usize::from(*text == address);
                    }
                }
                match footers {
                    1 => single += 1,
                    2 => pairs += 1,
                    n => panic!("{seed} {address}: {n} cards"),
                }
            }
        }
        assert!(
            single >= 20 && pairs >= 20,
            "{single} single, {pairs} pairs"
        );
    }

    /// Issue 27, item 6: no card is spent on two rows of a table — across
    /// both sample sessions, 25 seeds each, no card runs on to a "(cont.)"
    /// card: a person too long for one card is a folded pair, its back
    /// under the same title (issue 50), and the traps fit.
    #[test]
    fn no_card_runs_on() {
        let fonts = Fonts::load();
        let share = test_share("cards");
        let mut traps = 0;
        let mut wrong = Vec::new();
        for (seed, pack) in sample_packs("10,12,14", "cards", 25) {
            traps += pack.traps.len();
            for paper in [Paper::A4, Paper::Letter] {
                let (pages, _) = lay_out(
                    &pack,
                    &share,
                    paper,
                    false,
                    &fonts,
                    &Wording::builtin(),
                    &[],
                );
                for page in &pages {
                    let texts: Vec<&str> = page
                        .items
                        .iter()
                        .filter_map(|s| match s {
                            crate::page::Shape::Text { text, .. } => Some(text.as_str()),
                            _ => None,
                        })
                        .collect();
                    for (i, t) in texts.iter().enumerate() {
                        if t.contains("(cont.)") {
                            let around =
                                texts[i.saturating_sub(2)..(i + 3).min(texts.len())].join(" | ");
                            wrong.push(format!("{seed} {paper:?}: {around}"));
                        }
                    }
                }
            }
        }
        assert!(wrong.is_empty(), "{}:\n{}", wrong.len(), wrong.join("\n"));
        assert!(traps >= 50, "only {traps} trap cards");
    }
}
