//! Checks that prove generation will succeed: every reference a generator
//! follows resolves, and no roll can nest or grow past the resolver's
//! limits. One submodule per family of tables:
//!
//! - `archetypes`: `foe:` and `npc:` tags of `gen.encounter.<region>`
//!   rows name an archetype in the archetype table of every system the
//!   table claims (`any`: both `gen.npc.mettle` and `gen.npc.core`), and
//!   every archetype is in both archetype tables (an encounter may be
//!   made in either system).
//! - `concepts`: every row of `gen.npc.concept` is tagged
//!   `archetype:<name>` with archetypes of both archetype tables (else it
//!   is never drawn).
//! - `returning`: every row of `gen.situation.returning` is tagged
//!   `was:foe` or `was:card` and otherwise only with the layer tags, and
//!   writes the person only with the markers an encounter fills in
//!   (`@name`, `@kind`, `@they`, `@them`, `@their`, capitalised or not).
//! - `layers`: the rows of the situation layers (`gen.situation.twist`,
//!   `gen.situation.ending`) and of the spoils tables carry only the tags
//!   an encounter reads (`outdoor`, `indoor`, `foes`, `people`,
//!   `terrain:<name>`), and never both `outdoor` and `indoor` (no
//!   situation could take the row).
//! - `poi`: every region has places for a map: a `gen.poi` row with
//!   its `places` tag (a warning).
//! - `growth`: depth: the longest chain of `{table:…}` references from
//!   any table is at most [`MAX_REFERENCE_DEPTH`]; roll-again rows nest at
//!   most [`MAX_REROLL_DEPTH`] deep at roll time, so no validated roll goes
//!   past [`crate::tables::MAX_DEPTH`]. Expansion: the expected number of
//!   table rolls one roll makes (references and roll-again rows, from the
//!   rows' exact chances) is at most [`MAX_EXPECTED_ROLLS`], and the most
//!   one roll can make without roll-again rows at most
//!   [`MAX_WORST_ROLLS`]; past them a roll could take minutes or all the
//!   memory there is. [`expected_rolls`]: the same expectation as the
//!   resolver really rolls (roll-again rows nest at most
//!   [`MAX_REROLL_DEPTH`] deep), which `tables` uses to price a command
//!   before rolling.

use std::collections::BTreeMap;

use crate::content::{SourceFile, Table};
use crate::diagnostic::Diagnostic;

mod archetypes;
mod concepts;
mod growth;
mod layers;
mod poi;
mod returning;

pub use growth::{
    MAX_EXPECTED_ROLLS, MAX_REFERENCE_DEPTH, MAX_REROLL_DEPTH, MAX_WORST_ROLLS, expected_rolls,
};
pub(super) use layers::terrains;
pub(super) use poi::place_warnings;

pub(super) fn check(
    tables: &BTreeMap<String, Table>,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) {
    archetypes::archetype_tags(tables, files, problems);
    concepts::concept_tags(tables, files, problems);
    returning::returning_rows(tables, files, problems);
    layers::layer_tags(tables, files, problems);
    archetypes::archetypes_in_both(tables, files, problems);
    growth::growth(tables, files, problems);
}
