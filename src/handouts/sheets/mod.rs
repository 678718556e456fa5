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
//! - `journey`: the journey log.
//!
//! Stat lines come from [`crate::wording::lines`].

use super::ShareLine;
use crate::generators::Address;
use crate::generators::map::Map;
use crate::generators::session::Pack;
use crate::handouts::markdown::Wording;
use crate::page::layout::Flow;
use crate::page::pdf::{self, Fonts, Paper};

mod atlas;
mod cards;
mod encounter;
mod journey;
mod maps;
mod run;

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
        "encounter" => encounter::encounter(&mut f, i + 1, pack.encounters.get(i)?),
        "map" if i == 0 => {
            let m = pack.map.as_ref()?;
            for players in [false, true] {
                maps::map_pages(&mut f, m, players);
            }
        }
        "journey" if i == 0 => journey::journey(&mut f, pack.journey.as_ref()?, &pack.party),
        _ => cards::one_card(&mut f, pack, share, w, &at.to_string())?,
    }
    let (pages, sections) = f.finish();
    let title = format!("{} · {at}", pack.title);
    Some(pdf::document(&title, paper, &pages, &sections, fonts))
}

/// A map's pages alone as a PDF: the GM's then the players' (one page
/// each, or each an atlas for a map of more than a dozen stops), with
/// `footer` on every page.
pub fn map_pdf(m: &Map, title: &str, footer: String, paper: Paper, fonts: &Fonts) -> Vec<u8> {
    let mut f = Flow::new(fonts, paper, footer, false);
    for players in [false, true] {
        maps::map_pages(&mut f, m, players);
    }
    let (pages, sections) = f.finish();
    pdf::document(title, paper, &pages, &sections, fonts)
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
    run::cover(&mut f, pack, share, contents);
    for (i, e) in pack.encounters.iter().enumerate() {
        encounter::encounter(&mut f, i + 1, e);
    }
    if let Some(m) = &pack.map {
        for players in [false, true] {
            maps::map_pages(&mut f, m, players);
        }
    }
    if let Some(j) = &pack.journey {
        journey::journey(&mut f, j, &pack.party);
    }
    // The cut-out cards last, so they can go on card stock together.
    cards::card_sheets(&mut f, pack, share, w);
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

    /// Every encounter sheet fits one page, however many foes, tiles and
    /// traps its dice bring: both sample sessions, 25 seeds each, A4 and
    /// letter (seeds that once ran onto a second page among them).
    #[test]
    fn every_encounter_sheet_fits_one_page() {
        let fonts = Fonts::load();
        let share = test_share("fit");
        let mut sheets = 0;
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
                    assert_eq!(
                        next - s.first_page,
                        1,
                        "{seed} {paper:?}: {} runs on",
                        s.title
                    );
                    sheets += 1;
                }
            }
        }
        assert!(sheets >= 100, "only {sheets} encounter sheets checked");
    }
}
