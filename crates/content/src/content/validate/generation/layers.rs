//! The situation layers (`gen.situation.twist`, `gen.situation.ending`)
//! and the spoils tables (`gen.treasure.*`): their rows carry only the tags
//! an encounter reads (`outdoor`, `indoor`, `foes`, `people`,
//! `terrain:<name>` naming a terrain, and the table's own captive tag),
//! and never both `outdoor` and `indoor` (no situation could take the
//! row). The terrains are the `gen.encounter.<name>` tables.

use std::collections::BTreeMap;

use crate::content::region::{
    CAPTIVE, LAYER_TABLES, LAYER_TAGS, NEEDS_CAPTIVE, NOT_IN, PREFIX, TERRAIN_TAG,
};
use crate::content::validate::{at_row, suggest};
use crate::content::{SourceFile, Table};
use crate::diagnostic::Diagnostic;

/// The spoils tables: their rows carry layer tags too (what the scene
/// needs for them), and [`NEEDS_CAPTIVE`].
const SPOILS_TABLES: [&str; 3] = [
    "gen.treasure.core",
    "gen.treasure.mettle",
    "gen.treasure.trinket",
];

/// The terrains: the `gen.encounter.<name>` tables' names.
pub(in crate::content::validate) fn terrains(tables: &BTreeMap<String, Table>) -> Vec<&str> {
    tables
        .keys()
        .filter_map(|id| id.strip_prefix(PREFIX))
        .collect()
}

/// A layer or spoils row's tags: each one an encounter reads, `terrain:`
/// naming a terrain, not both places.
pub(super) fn layer_tags(
    tables: &BTreeMap<String, Table>,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) {
    let terrains = terrains(tables);
    let layers = LAYER_TABLES.iter().map(|id| (id, CAPTIVE));
    let spoils = SPOILS_TABLES.iter().map(|id| (id, NEEDS_CAPTIVE));
    for (t, own) in layers
        .chain(spoils)
        .filter_map(|(id, own)| Some((tables.get(*id)?, own)))
    {
        for row in &t.rows {
            let tags = &row.entry.tags;
            let mut said = |what: String, hint: String, near: &str, from: &[&str]| {
                let d = at_row(files, t, Some(row), what, &hint);
                problems.push(d.with_suggestion(suggest(near, from.iter().copied())));
            };
            for tag in tags.iter().map(|g| g.as_ref()) {
                if let Some(name) = tag.strip_prefix(TERRAIN_TAG) {
                    if !terrains.contains(&name) {
                        said(
                            format!(
                                "row `{}` is tagged `{tag}`, but there is no terrain `{name}`",
                                row.entry.name
                            ),
                            format!(
                                "the terrains are the gen.encounter.<name> tables: {}",
                                terrains.join(", ")
                            ),
                            name,
                            &terrains,
                        );
                    }
                } else if !LAYER_TAGS.contains(&tag.strip_prefix(NOT_IN).unwrap_or(tag))
                    && tag != own
                {
                    said(
                        format!(
                            "row `{}` is tagged `{tag}`, which no encounter reads",
                            row.entry.name
                        ),
                        format!(
                            "a situation layer's or spoils row's tags say what it needs of the scene: {}, \
                             {TERRAIN_TAG}<terrain>, {NOT_IN} before any of them (and `{own}`)",
                            LAYER_TAGS.join(", ")
                        ),
                        tag,
                        &LAYER_TAGS,
                    );
                }
            }
            if ["outdoor", "indoor"]
                .iter()
                .all(|p| tags.iter().any(|g| g == p))
            {
                problems.push(at_row(
                    files,
                    t,
                    Some(row),
                    format!(
                        "row `{}` is tagged both `outdoor` and `indoor`, so no situation takes it",
                        row.entry.name
                    ),
                    "keep the one place it needs, or neither for a row that fits anywhere",
                ));
            }
        }
    }
}
