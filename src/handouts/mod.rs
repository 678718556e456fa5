//! A session pack as handouts, on top of the page engine (`page`): files
//! (Markdown, JSON, SVG), Markdown flavours, and the PDF sheets. Pure:
//! these return bytes; [`crate::output`] writes them. Game text shared
//! with the terminal comes from `wording`.
//!
//! - `files`: one Markdown file per handout, `pack.md`, `pack.json` and
//!   the drawings as SVG.
//! - [`markdown`]: the tera templates (built in from `templates/` beside
//!   this module) and their filters and budgets.
//! - [`flavour`]: the Markdown flavours (`obsidian`, `homebrewery`) made
//!   from the GFM handouts.
//! - `sheets`: the PDF sheets (run, encounter, cards, maps, journey), the
//!   whole pack as one PDF and one item's PDF.
//! - [`drawings`]: the point-crawl map (`chart`) and an encounter's zone
//!   diagram (`zones`) as drawings.
//! - `run`: what the run sheet says (party, encounters and journey at a
//!   glance, initiative ladder), once for the PDF and `pack.md`.
//! - `foes`: an encounter's identical foes grouped (`Cultist ×8`), once
//!   for the PDF sheet and the Homebrewery stat blocks.

pub mod drawings;
mod files;
pub(crate) mod flavour;
mod foes;
pub mod markdown;
mod run;
mod sheets;

use serde::Serialize;

use crate::generators::Address;
use crate::wording::markup::escape_md;

/// The output format's version: raised whenever a change alters what an
/// existing seed makes (listed in CHANGELOG.md), and printed in every
/// share line, so two packs that should match can be told apart.
pub const FORMAT: u32 = 4;

/// The fonts and the paper every PDF handout is laid out with.
pub use crate::page::pdf::{Fonts, Paper};
pub use files::{item_of, pack_files, pack_files_in};
pub use flavour::Flavour;
pub use sheets::{item_pdf, map_pdf, missing_glyphs, pack_pdf};

/// What every handout carries so a table can reproduce it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShareLine {
    pub seed: String,
    pub options: String,
    /// The tool's version.
    pub version: String,
    /// The output format's version ([`FORMAT`]).
    pub format: u32,
    /// A short hash of the tables used.
    pub content: String,
    /// A short hash of the pack's bundle (`bundle.toml`): pack-wide files
    /// only.
    pub bundle: String,
}

impl ShareLine {
    /// The pack-wide line (`pack.md`, `pack.json`, `pack.pdf`).
    pub fn text(&self) -> String {
        self.after(
            &format!("Seed {}", code(&self.seed)),
            &escape_md(&self.options),
        )
    }

    /// Without Markdown, for PDF footers.
    pub fn plain(&self) -> String {
        self.after(&format!("seed {}", self.seed), &self.options)
    }

    /// An item's line: the seed, its address and reroll count, version
    /// and tables — nothing that another item's reroll changes.
    pub fn item(&self, at: &Address, reroll: u32) -> String {
        self.item_after(&format!("Seed {}", code(&self.seed)), at, reroll)
    }

    /// The line of a handout that is no item of the pack (a campaign's
    /// Downtime Voucher: `downtime after session 2`): the seed, the label,
    /// version and tables.
    pub fn labelled(&self, label: &str) -> String {
        format!(
            "Seed {} · {} · {}",
            code(&self.seed),
            escape_md(label),
            self.tool()
        )
    }

    /// [`Self::item`] without Markdown.
    pub fn item_plain(&self, at: &Address, reroll: u32) -> String {
        self.item_after(&format!("seed {}", self.seed), at, reroll)
    }

    fn item_after(&self, seed: &str, at: &Address, reroll: u32) -> String {
        let reroll = match reroll {
            0 => String::new(),
            n => format!(" · reroll {n}"),
        };
        format!("{seed} · {at}{reroll} · {}", self.tool())
    }

    /// The options, version, tables and bundle after the seed.
    fn after(&self, seed: &str, options: &str) -> String {
        format!(
            "{seed} · {options} · {} · bundle {}",
            self.tool(),
            self.bundle
        )
    }

    /// `tablewright 0.1.0 · format 2 · tables 1cf599f0`.
    fn tool(&self) -> String {
        format!(
            "tablewright {} · format {} · tables {}",
            self.version, self.format, self.content
        )
    }
}

/// `text` as a Markdown code span that no backtick in it can end early.
fn code(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    if longest > 0 {
        format!("{fence} {text} {fence}")
    } else {
        format!("{fence}{text}{fence}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::session as pack;
    use crate::handouts::markdown::Templates;
    use crate::input::Session;
    use crate::rules::Party;
    use crate::rules::RulesSystem;
    use crate::seed::Seed;

    #[test]
    fn share_lines_escape_what_they_print() {
        assert_eq!(code("goblin-night"), "`goblin-night`");
        assert_eq!(code("a`b"), "`` a`b ``");
        let line = ShareLine {
            seed: "s`".into(),
            options: "A *bold* | title".into(),
            version: "0".into(),
            format: 2,
            content: "c".into(),
            bundle: "b".into(),
        };
        let text = line.text();
        assert!(
            text.starts_with("Seed `` s` `` · A \\*bold\\* \\| title"),
            "{text}"
        );
        assert!(line.plain().contains("A *bold* | title"));
    }

    #[test]
    fn a_pack_renders_to_the_same_bytes_twice_in_one_process() {
        let library = crate::content::test_library();
        let session: Session = toml::from_str(include_str!("../../session.toml")).unwrap();
        let party = Party::from_summary("3,4,4,5", RulesSystem::Mettle).unwrap();
        let seed = Seed::new("goblin-night").unwrap();
        let pack = pack::generate(&library, &session.request(), &party, &seed).unwrap();
        let share = ShareLine {
            seed: "goblin-night".into(),
            options: "test".into(),
            version: "0".into(),
            format: FORMAT,
            content: library.content_hash[..8].into(),
            bundle: "test".into(),
        };
        let fonts = crate::page::pdf::Fonts::load();
        let a = pack_pdf(
            &pack,
            &share,
            crate::page::pdf::Paper::A4,
            false,
            &fonts,
            &markdown::Wording::builtin(),
        );
        let b = pack_pdf(
            &pack,
            &share,
            crate::page::pdf::Paper::A4,
            false,
            &fonts,
            &markdown::Wording::builtin(),
        );
        assert_eq!(a, b);
        let templates = Templates::load(None).unwrap();
        assert_eq!(
            pack_files(&pack, &templates, &share).unwrap(),
            pack_files(&pack, &templates, &share).unwrap()
        );
        // Ink saver: no filled shapes.
        let ink = pack_pdf(
            &pack,
            &share,
            crate::page::pdf::Paper::Letter,
            true,
            &fonts,
            &markdown::Wording::builtin(),
        );
        assert_ne!(a, ink);
    }
}
