//! The rows of a map's key, shared by the one-page map (`maps`) and the
//! atlas (`atlas`): a stop a row (number, name with kind and terrain,
//! hook) and a path a row (its stops' numbers, regions, days,
//! Difficulty).

use crate::generators::map::{Map, Path};
use crate::handouts::drawings::chart::{self, View};

/// One key row a stop: its number, name, kind and terrain, hook. The
/// start and the goal are marked in the legend's words (in a campaign's
/// pack: the party's stop and where it is going).
pub(super) fn key_rows(m: &Map, view: View) -> Vec<Vec<String>> {
    let [start, goal] = chart::mark_words(view);
    m.stops
        .iter()
        .map(|s| {
            let mut name = s.name.clone();
            if s.id == m.start {
                name.push_str(&format!(" ({start})"));
            } else if s.id == m.goal {
                name.push_str(&format!(" ({goal})"));
            }
            vec![
                (s.id + 1).to_string(),
                format!("{name}\n{}, {}", s.kind, s.terrain),
                s.hook.clone(),
            ]
        })
        .collect()
}

/// The paths one to a row, each as its stops' numbers, regions, days
/// and danger (METTLE Difficulty and its word, or the Core chance).
pub(super) fn path_rows(m: &Map) -> Vec<Vec<String>> {
    let cell = |p: &Path| {
        let danger = match p.encounter_chance {
            Some(_) => p.danger_label(),
            None => format!("D{} {}", p.difficulty, p.difficulty_word),
        };
        format!(
            "{}–{} · {} · {} · {danger}",
            p.a + 1,
            p.b + 1,
            p.regions,
            p.days,
        )
    };
    m.paths.iter().map(|p| vec![cell(p)]).collect()
}
