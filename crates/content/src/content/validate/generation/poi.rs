//! Places for every region: a region with no `gen.poi` row tagged with
//! its `places` tag draws its map stops from the untagged places (a
//! warning, not a problem).

use std::collections::BTreeMap;

use crate::content::validate::at_table;
use crate::content::{SourceFile, Table};
use crate::diagnostic::Diagnostic;

/// A region with no `gen.poi` row of its own: a warning, not a problem —
/// everything works there but a map's stops, which fall back to the
/// untagged places (the `gen.poi` rows tagged with no region's places).
pub(in crate::content::validate) fn place_warnings(
    tables: &BTreeMap<String, Table>,
    files: &[SourceFile],
) -> Vec<Diagnostic> {
    let Some(poi) = tables.get("gen.poi") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for t in tables.values() {
        let Some(region) = &t.region else { continue };
        if poi
            .rows
            .iter()
            .any(|r| r.entry.tags.iter().any(|t| *t == region.places))
        {
            continue;
        }
        out.push(at_table(
            files,
            t,
            format!(
                "region `{}` has no places of its own: no `gen.poi` row is tagged `{}`, so a map's stops there are drawn from the untagged places",
                region.name, region.places
            ),
            &format!(
                "to give it its own, add rows tagged `{}` to gen.poi with a [[table]] `extends = \"gen.poi\"`, or set `places` under [table.region] to another region's tag",
                region.places
            ),
        ));
    }
    out
}
