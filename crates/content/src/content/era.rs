//! Eras and settings: a row tagged `era:<name>` (`tags = ["era:modern"]`,
//! one tag per era it fits) fits the eras it names; a row with no era tag
//! fits every era. Where an era is declared (a campaign's `era =
//! "medieval"`), the untagged rows and that era's are drawn: a medieval
//! campaign is never handed a claymore. Where none is declared, every row
//! is drawn.
//!
//! [`Library::drawable`] is the one test of which rows a roll may land on:
//! the resolver's rolls (`table`, `gen`, `prep`), the generators that pick
//! rows themselves, and the exact odds (`odds --table`) all go through it,
//! so the odds printed are the odds rolled.

use std::collections::BTreeSet;

use super::{Library, Row};
use crate::diagnostic::Diagnostic;

/// The prefix of an era tag.
pub const PREFIX: &str = "era:";

/// Whether `name` is an era's name as tags and `campaign.toml` write it:
/// lowercase letters, digits and hyphens, starting with a letter.
pub fn is_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// What is wrong with a tag that means to name an era (`None`: nothing,
/// or not an era tag): `era:Modern`, `era:`, `era: modern`, `eras:modern`,
/// `era=modern`.
pub(crate) fn tag_problem(tag: &str) -> Option<String> {
    let lower = tag.to_ascii_lowercase();
    if let Some(name) = tag.strip_prefix(PREFIX) {
        return (!is_name(name)).then(|| {
            format!(
                "the era tag `{tag}` names no era: an era is lowercase letters, digits and \
                 hyphens, like `era:modern`"
            )
        });
    }
    let looks = ["era:", "eras:", "era=", "era ", "setting:", "settings:"]
        .iter()
        .any(|p| lower.starts_with(p));
    looks.then(|| {
        format!(
            "the tag `{tag}` looks like an era tag but is not one: write `era:<name>`, like \
             `era:modern`"
        )
    })
}

/// The eras a row names (none: it fits every era).
pub fn eras(row: &Row) -> impl Iterator<Item = &str> {
    row.entry.tags.iter().filter_map(|t| t.strip_prefix(PREFIX))
}

/// Whether a row may be drawn where `era` is declared (`None`: no era
/// declared, every row may).
pub fn fits(row: &Row, era: Option<&str>) -> bool {
    let Some(era) = era else {
        return true;
    };
    let mut named = eras(row).peekable();
    named.peek().is_none() || named.any(|n| n == era)
}

impl Library {
    /// Whether `row` may be drawn under the era in effect ([`fits`]): the
    /// one test of candidate rows that rolls, generators' own picks and
    /// odds share.
    pub fn drawable(&self, row: &Row) -> bool {
        fits(row, self.era.as_deref())
    }

    /// Each row's chance per roll of `table` under the era in effect:
    /// the table's own chances (its die or weights) with the rows that
    /// may not be drawn taken out and the rest renormalised — the
    /// resolver draws among the drawable rows by weight, or throws the die
    /// again on a row it may not draw, both of which keep the drawable
    /// rows' odds in proportion. All zero when no row is drawable.
    pub(crate) fn drawn_chances(&self, table: &super::Table) -> Vec<f64> {
        let mut chances = super::row_chances(&table.rows, table.dice_expr());
        if table.rows.iter().all(|r| self.drawable(r)) {
            return chances;
        }
        for (c, row) in chances.iter_mut().zip(&table.rows) {
            if !self.drawable(row) {
                *c = 0.0;
            }
        }
        let total: f64 = chances.iter().sum();
        if total > 0.0 {
            chances.iter_mut().for_each(|c| *c /= total);
        }
        chances
    }

    /// Every era some row of the tables names, sorted.
    pub fn known_eras(&self) -> BTreeSet<String> {
        self.tables
            .values()
            .flat_map(|t| {
                t.rows
                    .iter()
                    .flat_map(|r| eras(r).map(str::to_owned).collect::<Vec<_>>())
            })
            .collect()
    }

    /// The tables with no row to draw under `era` (every row tagged for
    /// other eras), each a problem at the table's file and line.
    pub fn era_gaps(&self, era: Option<&str>) -> Vec<Diagnostic> {
        self.tables
            .values()
            .filter(|t| !t.rows.is_empty() && !t.rows.iter().any(|r| fits(r, era)))
            .map(|t| {
                let declared = era.map_or("no era is declared".to_owned(), |e| {
                    format!("the era declared is `{e}`")
                });
                Diagnostic::message(format!(
                    "{}:{}: every row of `{}` is tagged for another era and {declared}, so \
                     nothing can be drawn from it",
                    t.origin.file, t.origin.line, t.id
                ))
                .with_hint(format!(
                    "leave a row untagged (it fits every era), tag one `{PREFIX}{}`, or declare \
                     one of its eras in campaign.toml (`era = \"...\"`)",
                    era.unwrap_or("<name>")
                ))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn era_tags_have_one_shape() {
        assert_eq!(tag_problem("era:modern"), None);
        assert_eq!(tag_problem("era:sci-fi2"), None);
        assert_eq!(tag_problem("foe:wolf"), None);
        assert_eq!(tag_problem("eradicated"), None);
        for bad in [
            "era:Modern",
            "era:",
            "era: modern",
            "eras:modern",
            "era=modern",
            "Era:modern",
        ] {
            assert!(tag_problem(bad).is_some(), "{bad}");
        }
        assert!(is_name("medieval") && !is_name("Medieval") && !is_name("1920s"));
    }
}
