//! The handouts of a session pack, as files and as one PDF. Pure: these
//! return bytes; [`crate::output`] writes them.
//!
//! - `files`: one Markdown file per handout, `pack.md`, `pack.json` and
//!   the drawings as SVG.
//! - `pdf`: the whole pack as one PDF.

mod files;
mod pdf;

use serde::Serialize;

pub use files::pack_files;
pub use pdf::pack_pdf;

/// What every handout carries so a table can reproduce it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShareLine {
    pub seed: String,
    pub options: String,
    pub version: String,
    pub content: String,
}

impl ShareLine {
    pub fn text(&self) -> String {
        self.after(&format!("Seed `{}`", self.seed))
    }

    /// Without Markdown, for vouchers and PDF footers.
    pub fn plain(&self) -> String {
        self.after(&format!("seed {}", self.seed))
    }

    /// The options, version and tables after the seed.
    fn after(&self, seed: &str) -> String {
        format!(
            "{seed} · {} · tablewright {} · tables {}",
            self.options, self.version, self.content
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::pack;
    use crate::input::Session;
    use crate::render::markdown::Templates;
    use crate::rules::Party;
    use crate::rules::RulesSystem;
    use crate::seed::Seed;

    #[test]
    fn a_pack_renders_to_the_same_bytes_twice_in_one_process() {
        let library = crate::content::test_library();
        let session: Session = toml::from_str(include_str!("../../../session.toml")).unwrap();
        let party = Party::from_summary("3,4,4,5", RulesSystem::Mettle).unwrap();
        let seed = Seed::new("goblin-night").unwrap();
        let pack = pack::generate(&library, &session.request(), &party, &seed).unwrap();
        let share = ShareLine {
            seed: "goblin-night".into(),
            options: "test".into(),
            version: "0".into(),
            content: library.content_hash[..8].into(),
        };
        let fonts = super::super::pdf::Fonts::load();
        let a = pack_pdf(&pack, &share, super::super::pdf::Paper::A4, false, &fonts);
        let b = pack_pdf(&pack, &share, super::super::pdf::Paper::A4, false, &fonts);
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
            super::super::pdf::Paper::Letter,
            true,
            &fonts,
        );
        assert_ne!(a, ink);
    }
}
