//! The returning faces of `gen.situation.returning`: every row is tagged
//! `was:foe` or `was:card` and otherwise only with the layer tags, and
//! writes the person only with the markers an encounter fills in
//! (`@name`, `@kind`, `@they`, `@them`, `@their`, capitalised or not).

use std::collections::BTreeMap;

use crate::content::region::LAYER_TAGS;
use crate::content::validate::{at_row, suggest};
use crate::content::{SourceFile, Table};
use crate::diagnostic::Diagnostic;

/// The table of returning faces, the ways a person was met, and the
/// markers a row may write.
const RETURNING: &str = "gen.situation.returning";
const WAS: [&str; 2] = ["was:foe", "was:card"];
const MARKERS: [&str; 10] = [
    "@name", "@kind", "@they", "@them", "@their", "@Name", "@Kind", "@They", "@Them", "@Their",
];

/// Each `gen.situation.returning` row: a `was:` tag, only layer tags
/// besides, and only the markers an encounter fills in.
pub(super) fn returning_rows(
    tables: &BTreeMap<String, Table>,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) {
    let Some(t) = tables.get(RETURNING) else {
        return;
    };
    let known = || WAS.iter().chain(LAYER_TAGS.iter()).copied();
    for row in &t.rows {
        let tags = &row.entry.tags;
        let name = &row.entry.name;
        let mut said = |what: String, hint: &str, near: Option<&str>, from: &[&str]| {
            let d = at_row(files, t, Some(row), what, hint);
            let d = match near {
                Some(w) => d.with_suggestion(suggest(w, from.iter().copied())),
                None => d,
            };
            problems.push(d);
        };
        if !tags.iter().any(|g| WAS.contains(&g.as_ref())) {
            said(
                format!(
                    "row `{name}` says neither `was:foe` nor `was:card`, so nobody comes back by it"
                ),
                "tag it `was:foe` (a foe group's leader), `was:card` (an NPC card) or both",
                None,
                &[],
            );
        }
        let all: Vec<&str> = known().collect();
        for g in tags.iter().filter(|g| !all.contains(&g.as_ref())) {
            said(
                format!("row `{name}` is tagged `{g}`, which no returning face reads"),
                &format!("its tags: was:foe, was:card, {}", LAYER_TAGS.join(", ")),
                Some(g),
                &all,
            );
        }
        let text = row.entry.text.as_ref();
        for m in text.split(|c: char| !c.is_alphanumeric() && c != '@') {
            if m.starts_with('@') && !MARKERS.contains(&m) {
                said(
                    format!("row `{name}` writes `{m}`, which no returning face fills in"),
                    "write the person as @name, @kind, @they, @them or @their (@They … at a sentence's start)",
                    Some(m),
                    &MARKERS,
                );
            }
        }
    }
}
