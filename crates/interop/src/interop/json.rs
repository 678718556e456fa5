//! The `tablewright.tables/1` JSON schema: every table whole — rows with
//! their tags, effects and stats, notes, region, where it came from, what
//! it overrides and what extensions added. `tables --json` prints it for
//! every table in effect, `export --format json` for the tables asked, and
//! `import` reads it back ([`read`]) into the same tables.

use serde::{Deserialize, Serialize};

use super::draft::{Draft, DraftRegion, DraftRow};
use crate::content::{Entry, Library, Origin, System, Table};

/// The schema name and version.
pub const TABLES_FORMAT: &str = "tablewright.tables/1";

/// The whole document.
#[derive(Serialize)]
pub struct TablesJson<'a> {
    /// [`TABLES_FORMAT`].
    pub format: &'static str,
    /// The hash of every table file's bytes, as share lines show it.
    pub content_hash: &'a str,
    /// Every table in effect.
    pub tables: Vec<TableJson<'a>>,
}

/// One table, with what it replaced.
#[derive(Serialize)]
pub struct TableJson<'a> {
    /// The table.
    #[serde(flatten)]
    pub table: &'a Table,
    /// The table this one replaced (same id, an earlier layer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overrides: Option<&'a Origin>,
}

/// The document for `tables` of `library`, in the order given.
pub fn document<'a>(
    library: &'a Library,
    tables: impl IntoIterator<Item = &'a Table>,
) -> TablesJson<'a> {
    let overrides = |t: &Table| library.overridden_origin(&t.id);
    TablesJson {
        format: TABLES_FORMAT,
        content_hash: &library.content_hash,
        tables: tables
            .into_iter()
            .map(|t| TableJson {
                table: t,
                overrides: overrides(t),
            })
            .collect(),
    }
}

/// The document as pretty JSON with a final newline.
pub fn to_text(doc: &TablesJson) -> String {
    let mut s = Vec::new();
    // Through `&mut dyn Write`, as the crate writes all its JSON.
    serde_json::to_writer_pretty(&mut s as &mut dyn std::io::Write, doc).expect("tables serialize");
    s.push(b'\n');
    String::from_utf8(s).expect("JSON is UTF-8")
}

/// What `import` reads back: the keys a table file has (where it came
/// from, and what it overrides, are the reader's own).
#[derive(Deserialize)]
struct TablesIn {
    format: String,
    tables: Vec<TableIn>,
}

#[derive(Deserialize)]
struct TableIn {
    id: String,
    title: String,
    system: System,
    source: String,
    dice: Option<String>,
    notes: Option<String>,
    #[serde(default)]
    deck: bool,
    #[serde(default)]
    text_only: bool,
    region: Option<RegionIn>,
    rows: Vec<Entry>,
}

#[derive(Deserialize)]
struct RegionIn {
    danger: u32,
    forage: Vec<String>,
    water: bool,
    encounter_chance: Option<(u32, u32)>,
    places: String,
    #[serde(default = "super::draft::wild")]
    setting: String,
}

/// Whether a JSON value is a `tablewright.tables/…` document.
pub fn is_ours(value: &serde_json::Value) -> bool {
    value
        .get("format")
        .and_then(|f| f.as_str())
        .is_some_and(|f| f.starts_with("tablewright.tables/"))
}

/// The tables of a `tablewright.tables/1` document, exactly as they were.
/// `line_of(n)` is the line of the n-th row in the file, for messages.
pub fn read(
    value: serde_json::Value,
    line_of: &dyn Fn(usize) -> usize,
) -> Result<Vec<Draft>, String> {
    let doc: TablesIn = serde_json::from_value(value).map_err(|e| {
        format!("this is not a {TABLES_FORMAT} document as tablewright writes it: {e}")
    })?;
    if doc.format != TABLES_FORMAT {
        return Err(format!(
            "format `{}` is not one this version reads (it reads {TABLES_FORMAT})",
            doc.format
        ));
    }
    let mut n = 0;
    Ok(doc
        .tables
        .into_iter()
        .map(|t| {
            let rows = t
                .rows
                .into_iter()
                .map(|r| {
                    n += 1;
                    DraftRow {
                        entry: r,
                        line: line_of(n),
                    }
                })
                .collect();
            Draft {
                id: t.id,
                title: t.title,
                system: t.system,
                source: t.source,
                dice: t.dice,
                notes: t.notes,
                deck: t.deck,
                text_only: t.text_only,
                region: t.region.map(|g| DraftRegion {
                    danger: g.danger,
                    forage: g.forage,
                    water: g.water,
                    encounter_chance: g.encounter_chance.map(|(x, y)| format!("{x}:{y}")),
                    places: g.places,
                    setting: g.setting,
                }),
                rows,
            }
        })
        .collect())
}
