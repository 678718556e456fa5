//! Checks across tables that keep a pack in one system: whatever a METTLE
//! table says, the Core Rules must be able to say too. Every ACS tile and
//! sporadic has a rule in `gen.tile_rules.mettle` and `gen.tile_rules.core`;
//! every Core trap effect names its save; every encounter row with a
//! METTLE hazard carries its Core Rules reading (a `save`).

use std::collections::BTreeMap;

use super::at_row;
use crate::content::{Row, SourceFile, Table};
use crate::diagnostic::Diagnostic;

/// Tables whose rows need a rule in each system's tile-rules table.
const TILES: [&str; 2] = ["acs.tiles", "acs.sporadics"];
/// The tile-rules table of each system.
const TILE_RULES: [&str; 2] = ["gen.tile_rules.mettle", "gen.tile_rules.core"];

pub(super) fn check(
    tables: &BTreeMap<String, Table>,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) {
    tile_rules(tables, files, problems);
    if let Some(t) = tables.get("gen.trap.core.effect") {
        for row in t.rows.iter().filter(|r| !has_save(r)) {
            problems.push(at_row(
                files,
                t,
                Some(row),
                format!("Core trap effect `{}` names no save", row.entry.name),
                "add an effect with `save = \"AGI\"` (or STR, WIT) and `damage` or `condition`",
            ));
        }
    }
    for t in tables
        .values()
        .filter(|t| t.id.starts_with("gen.encounter."))
    {
        let missing = t
            .rows
            .iter()
            .filter(|r| r.entry.effects.iter().any(|e| e.hazard.is_some()) && !has_save(r));
        for row in missing {
            problems.push(at_row(
                files,
                t,
                Some(row),
                format!(
                    "row `{}` has a METTLE hazard but no Core Rules reading",
                    row.entry.name
                ),
                "add an effect such as `{ save = \"AGI\", damage = \"d8!\" }` so a Core encounter can state it",
            ));
        }
    }
}

fn has_save(r: &Row) -> bool {
    r.entry.effects.iter().any(|e| e.save.is_some())
}

/// Every tile and sporadic has a row of its name in each tile-rules table
/// (when both are in effect).
fn tile_rules(
    tables: &BTreeMap<String, Table>,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) {
    for rules in TILE_RULES.iter().filter_map(|id| tables.get(*id)) {
        for tiles in TILES.iter().filter_map(|id| tables.get(*id)) {
            for tile in &tiles.rows {
                if !rules.rows.iter().any(|r| r.entry.name == tile.entry.name) {
                    problems.push(at_row(
                        files,
                        rules,
                        rules.rows.first(),
                        format!(
                            "no rule for `{}` ({}), which an encounter can lay",
                            tile.entry.name, tiles.id
                        ),
                        &format!(
                            "add a [[table.row]] named `{}` with its rule in this system's terms",
                            tile.entry.name
                        ),
                    ));
                }
            }
        }
    }
}
