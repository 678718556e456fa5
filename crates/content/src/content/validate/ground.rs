//! Where a tile can lie: every [`NOT_IN`] tag of an ACS tile or sporadic
//! (`acs.tiles`, `acs.sporadics`) names a terrain (a `gen.encounter.<name>`
//! table), and every bare tag is a suit, a strength or one of
//! [`TILE_TAGS`]. A misspelt `not:swamps` would let burning ground back into
//! the mire without a word, and a misspelt `dyr` would lay it in a
//! downpour.

use std::collections::BTreeMap;

use super::generation::terrains;
use super::stray_tag;
use crate::content::region::{NOT_IN, TILE_TAGS};
use crate::content::{SourceFile, Table};
use crate::diagnostic::Diagnostic;
use crate::rules::acs::{LEVELS, SUITS};

/// The tables of tiles an encounter lays.
const TILES: [&str; 2] = ["acs.tiles", "acs.sporadics"];

pub(super) fn check(
    tables: &BTreeMap<String, Table>,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) {
    let terrains = terrains(tables);
    for t in TILES.iter().filter_map(|id| tables.get(*id)) {
        for row in &t.rows {
            let tags = row.entry.tags.iter().map(|g| g.as_ref());
            for tag in tags.clone().filter(|g: &&str| !g.contains(':')) {
                if !known(tag) {
                    let hint = format!(
                        "a tile's tags are its suit, its strength ({}) and any of: {}",
                        LEVELS.join(", "),
                        TILE_TAGS.join(", ")
                    );
                    let why = "which is no suit, strength or tile tag";
                    let near = (tag, vocabulary());
                    problems.push(stray_tag((files, t, row), (tag, why), &hint, near));
                }
            }
            for name in tags.filter_map(|g: &str| g.strip_prefix(NOT_IN)) {
                if terrains.contains(&name) {
                    continue;
                }
                let hint = format!(
                    "`{NOT_IN}<terrain>` keeps a tile out of a terrain: one of {}",
                    terrains.join(", ")
                );
                let (shown, why) = (
                    format!("{NOT_IN}{name}"),
                    format!("but `{name}` is no terrain"),
                );
                let near = (name, terrains.iter().copied());
                problems.push(stray_tag((files, t, row), (&shown, &why), &hint, near));
            }
        }
    }
}

/// Every bare tag a tile may carry: the suits, the strengths and
/// [`TILE_TAGS`].
fn vocabulary() -> impl Iterator<Item = &'static str> {
    let suits = SUITS.iter().map(|(name, _)| *name);
    suits.chain(LEVELS).chain(TILE_TAGS)
}

/// Whether `tag` is in the [`vocabulary`].
fn known(tag: &str) -> bool {
    vocabulary().any(|v| v == tag)
}
