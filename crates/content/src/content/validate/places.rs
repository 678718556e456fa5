//! A place fits the land it is drawn for. A row of `gen.poi` or
//! `gen.place.site` is drawn for every terrain it is tagged with (its tags
//! after the first, the kind, that are a region's `places` tag); a text
//! that names a terrain — a wild region (danger 1 or more) by its name or
//! its `places` tag, as a whole word, in any case — says the place stands
//! there. Such a row tagged with another wild terrain its text does not
//! name would put, say, "a tower in the forest" on swamp legs, and is
//! refused. A road or a town (a region of danger 0) runs through any land,
//! so naming one claims nothing, and a place in the forest may stand on a
//! road.

use std::collections::BTreeMap;

use super::at_row;
use crate::content::{Row, SourceFile, Table};
use crate::diagnostic::Diagnostic;

/// The tables of places, whose rows are drawn by terrain.
pub const TABLES: [&str; 2] = ["gen.poi", "gen.place.site"];

pub(super) fn check(
    tables: &BTreeMap<String, Table>,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) {
    // Each wild region: its `places` tag and the words that name it.
    let mut wild: Vec<(String, Vec<String>)> = tables
        .values()
        .filter_map(|t| t.region.as_ref())
        .filter(|r| r.danger > 0)
        .map(|r| (r.places.clone(), vec![r.name.clone(), r.places.clone()]))
        .collect();
    wild.sort();
    wild.dedup();
    let every: Vec<&str> = wild.iter().map(|(tag, _)| tag.as_str()).collect();
    for id in TABLES {
        let Some(t) = tables.get(id) else { continue };
        for row in &t.rows {
            problems.extend(misplaced(files, t, row, &wild, &every));
        }
    }
}

/// The problem of a row whose text names a terrain while it is drawn for
/// another.
fn misplaced(
    files: &[SourceFile],
    t: &Table,
    row: &Row,
    wild: &[(String, Vec<String>)],
    every: &[&str],
) -> Option<Diagnostic> {
    let tags = &row.entry.tags;
    let kind = tags.first().map(|k| k.as_ref());
    let named: Vec<&str> = wild
        .iter()
        .filter(|(tag, words)| {
            Some(tag.as_str()) != kind && words.iter().any(|w| names(&row.entry.text, w))
        })
        .map(|(tag, _)| tag.as_str())
        .collect();
    let (first, _) = named.split_first()?;
    let other = tags
        .iter()
        .skip(1)
        .map(|t| t.as_ref())
        .find(|t| every.contains(t) && !named.contains(t))?;
    Some(at_row(
        files,
        t,
        Some(row),
        format!(
            "row `{}` says `{first}` but is tagged `{other}` too: drawn for {other}, it would stand in the wrong land on {other} legs",
            row.entry.name
        ),
        &format!(
            "tag the row only with the terrains its text names, or word the text so it fits every terrain it is tagged with (drop `{first}`)"
        ),
    ))
}

/// Whether `text` holds `word` as a whole word, in any case.
fn names(text: &str, word: &str) -> bool {
    let (text, word) = (text.to_lowercase(), word.to_lowercase());
    text.match_indices(&word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

#[cfg(test)]
mod tests {
    use super::names;
    use crate::content::{Library, SourceFile};

    const ROW: &str = "[[table]]\nextends = \"gen.poi\"\n\n[[table.row]]\nweight = 1\nname = \"Reed Hermitage\"\ntext = \"A hermit's hut in the forest, on stilts.\"\ntags = [\"shrine\", \"forest\", \"swamp\"]\n";

    /// Issue 50: "Hermit's Tower … in the forest" was drawn for swamp.
    #[test]
    fn a_place_that_names_one_terrain_and_is_drawn_for_another_is_refused() {
        let problems = |text: &str| {
            Library::from_user_files(vec![SourceFile::new("t.toml", text, 1)])
                .1
                .into_iter()
                .map(|p| p.message)
                .collect::<Vec<_>>()
        };
        let refused = problems(ROW);
        assert!(
            refused.iter().any(|m| m.contains(
                "row `Reed Hermitage` says `forest` but is tagged `swamp` too"
            )),
            "{refused:?}"
        );
        let fits = ROW.replace("\"forest\", \"swamp\"", "\"forest\", \"road\"");
        assert_eq!(problems(&fits), Vec::<String>::new());
        let worded = ROW.replace("in the forest", "in the reeds");
        assert_eq!(problems(&worded), Vec::<String>::new());
        let (_, builtin) = Library::load(&[]);
        assert!(builtin.is_empty(), "{builtin:?}");
    }

    #[test]
    fn a_terrain_is_named_as_a_whole_word_in_any_case() {
        assert!(names("A tower in the Forest, home to a hermit", "forest"));
        assert!(names("forest", "forest"));
        assert!(!names("the forester's hut", "forest"));
        assert!(!names("a crossroads hamlet", "road"));
        assert!(names("where the bog road meets the river", "road"));
    }
}
