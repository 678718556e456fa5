//! Checks of what the weather says and what situations need of it:
//!
//! - Every tag of a seasonal weather row (`gen.weather.<season>`) names a
//!   terrain (a `gen.encounter.<name>` table) or what the sky does
//!   ([`SKY_TAGS`]: `rain`, `fog`, `wind`, the terrain tiles it lets an
//!   encounter lay, and `storm`, `snow`, `cold`, the kind of day).
//! - Every `weather:` tag of a situation (a `gen.encounter.<region>` row)
//!   names one of [`SKY_TAGS`], in a region under the open sky (below
//!   ground and indoors there is no weather to need).
//!
//! A misspelt tag would leave a row out of its terrain, a terrain's tiles
//! out of its weather or a storm under a blue sky, without a word.

use std::collections::BTreeMap;

use super::generation::terrains;
use super::{at_row, stray_tag, suggest};
use crate::content::region::{PREFIX, SKY_TAGS, WEATHER_NEED};
use crate::content::{SourceFile, Table};
use crate::diagnostic::Diagnostic;

/// The seasonal weather tables (below ground there is no sky and no
/// terrain to pick by).
const SEASONS: [&str; 4] = [
    "gen.weather.spring",
    "gen.weather.summer",
    "gen.weather.autumn",
    "gen.weather.winter",
];

pub(super) fn check(
    tables: &BTreeMap<String, Table>,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) {
    weather_tags(tables, files, problems);
    situation_needs(tables, files, problems);
}

/// A seasonal weather row's tags: each a terrain it fits or what its sky
/// does ([`SKY_TAGS`]).
fn weather_tags(
    tables: &BTreeMap<String, Table>,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) {
    let terrains = terrains(tables);
    let known: Vec<&str> = terrains.iter().copied().chain(SKY_TAGS).collect();
    for t in SEASONS.iter().filter_map(|id| tables.get(*id)) {
        for row in &t.rows {
            for tag in row.entry.tags.iter().map(|g| g.as_ref()) {
                if known.iter().any(|k| k.eq_ignore_ascii_case(tag)) {
                    continue;
                }
                let hint = format!(
                    "a weather row's tags are the terrains it fits ({}) and {}",
                    terrains.join(", "),
                    SKY_TAGS.join(", ")
                );
                let why = "which is neither a terrain nor what the sky does";
                let near = (tag, known.iter().copied());
                problems.push(stray_tag((files, t, row), (tag, why), &hint, near));
            }
        }
    }
}

/// A situation's `weather:` tags: each one a weather row can carry, in a
/// region under the open sky.
fn situation_needs(
    tables: &BTreeMap<String, Table>,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) {
    let regions = tables.iter().filter(|(id, _)| id.starts_with(PREFIX));
    for (_, t) in regions {
        let outdoor = t.region.as_ref().is_none_or(|r| r.outdoor());
        for row in &t.rows {
            let needs = row.entry.tags.iter().map(|g| g.as_ref());
            for need in needs.filter_map(|g: &str| g.strip_prefix(WEATHER_NEED)) {
                let (what, hint, near) = if !SKY_TAGS.contains(&need) {
                    (
                        format!(
                            "row `{}` needs weather `{need}`, which no weather row says",
                            row.entry.name
                        ),
                        format!(
                            "a situation's `{WEATHER_NEED}` tags name what the sky does: {}",
                            SKY_TAGS.join(", ")
                        ),
                        suggest(need, SKY_TAGS.into_iter()),
                    )
                } else if !outdoor {
                    (
                        format!(
                            "row `{}` needs weather `{need}`, but its region has no sky",
                            row.entry.name
                        ),
                        "an indoor region (below ground) has no weather: remove the tag".to_owned(),
                        None,
                    )
                } else {
                    continue;
                };
                problems.push(at_row(files, t, Some(row), what, &hint).with_suggestion(near));
            }
        }
    }
}
