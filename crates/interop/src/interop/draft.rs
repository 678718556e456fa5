//! A table read from another format, before it is a table file: the keys
//! of the guide's Table format chapter (`docs/src/table-format.md`), each row with the line of the input it came
//! from. [`Draft::check_rows`] points at overlapping and missing ranges in
//! the input; [`to_toml`] writes drafts as one table file.

use serde::Serialize;

use crate::content::{Effect, Entry, Stats, System};
use crate::diagnostic::Diagnostic;

/// A table to be written.
#[derive(Debug, Clone, PartialEq)]
pub struct Draft {
    /// The table's id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// The rules it is for.
    pub system: System,
    /// Where it comes from, in words (for an import: the file and table it
    /// was read from, or the document's own `source`).
    pub source: String,
    /// The roll that picks a row; `None` for a weighted table.
    pub dice: Option<String>,
    /// Notes for the GM.
    pub notes: Option<String>,
    /// Rows are drawn without replacement within one generation.
    pub deck: bool,
    /// A call on the table gives the row's text alone (a generator
    /// file's tables, as their engines read a call).
    pub text_only: bool,
    /// The region keys, for a `gen.encounter.<region>` table.
    pub region: Option<DraftRegion>,
    /// The rows, in input order.
    pub rows: Vec<DraftRow>,
}

/// `[table.region]`, every key written out (`setting` only when not the
/// default, so a document written before it reads as `wild`).
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct DraftRegion {
    /// 0-3: Difficulty rungs the land adds to a map path.
    pub danger: u32,
    /// What a forager can find there.
    pub forage: Vec<String>,
    /// A body of water is there.
    pub water: bool,
    /// A Core Rules journey's chance of an encounter each travelling watch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encounter_chance: Option<String>,
    /// The `gen.poi` tag its map stops are drawn from.
    pub places: String,
    /// `wild`, `settled` or `indoor`.
    #[serde(default = "wild", skip_serializing_if = "is_wild")]
    pub setting: String,
}

/// The default setting of a region.
pub(crate) fn wild() -> String {
    crate::content::region::SETTINGS[0].to_owned()
}

fn is_wild(setting: &String) -> bool {
    *setting == wild()
}

/// A row, with the line of the input it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct DraftRow {
    /// What the row says.
    pub entry: Entry,
    /// The 1-based line of the input it came from.
    pub line: usize,
}

impl DraftRow {
    /// A plain row: a range or a weight, a name and a text.
    pub fn plain(
        range: Option<(i64, i64)>,
        weight: Option<u64>,
        name: String,
        text: String,
        line: usize,
    ) -> DraftRow {
        let entry = Entry {
            range,
            weight,
            name: name.into(),
            text: text.into(),
            tags: Vec::new(),
            reroll: None,
            distinct: false,
            effects: Vec::new().into(),
            stats: None.into(),
        };
        DraftRow { entry, line }
    }
}

impl Draft {
    /// Ranges that overlap, or leave a hole between two rows, pointed at
    /// the row in `file` (the full check against the die comes when the
    /// table is validated).
    pub fn check_rows(&self, file: &str) -> Vec<Diagnostic> {
        let mut ranged: Vec<&DraftRow> = self
            .rows
            .iter()
            .filter(|r| r.entry.range.is_some())
            .collect();
        ranged.sort_by_key(|r| r.entry.range);
        let mut problems = Vec::new();
        for pair in ranged.windows(2) {
            let ((a0, a1), (b0, b1)) = (pair[0].entry.range.unwrap(), pair[1].entry.range.unwrap());
            let label = |a: i64, b: i64| {
                if a == b {
                    a.to_string()
                } else {
                    format!("{a}-{b}")
                }
            };
            if b0 <= a1 {
                problems.push(
                    Diagnostic::at(
                        file,
                        pair[1].line,
                        1,
                        format!(
                            "{}: the range {} overlaps {} (line {})",
                            self.title,
                            label(b0, b1),
                            label(a0, a1),
                            pair[0].line
                        ),
                    )
                    .with_hint(
                        "each result of the die must pick one row: fix the ranges and import again",
                    ),
                );
            } else if b0 > a1 + 1 {
                problems.push(
                    Diagnostic::at(
                        file,
                        pair[1].line,
                        1,
                        format!(
                            "{}: no row for {} (between {} and {})",
                            self.title,
                            label(a1 + 1, b0 - 1),
                            label(a0, a1),
                            label(b0, b1)
                        ),
                    )
                    .with_hint("every result of the die must pick a row: add one or widen a range"),
                );
            }
        }
        problems
    }
}

#[derive(Serialize)]
struct FileOut<'a> {
    table: Vec<TableOut<'a>>,
}

#[derive(Serialize)]
struct TableOut<'a> {
    id: &'a str,
    title: &'a str,
    system: System,
    source: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    dice: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    notes: Option<&'a str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    deck: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    text_only: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<&'a DraftRegion>,
    row: Vec<RowOut<'a>>,
}

#[derive(Serialize)]
struct RowOut<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    roll: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    weight: Option<u64>,
    name: &'a str,
    text: &'a str,
    #[serde(skip_serializing_if = "<[crate::content::Text]>::is_empty")]
    tags: &'a [crate::content::Text],
    #[serde(skip_serializing_if = "Option::is_none")]
    reroll: Option<u32>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    distinct: bool,
    #[serde(skip_serializing_if = "<[Effect]>::is_empty")]
    effects: &'a [Effect],
    #[serde(skip_serializing_if = "Option::is_none")]
    stats: Option<&'a Stats>,
}

/// `"3"` or `"13-14"`.
fn roll_text((a, b): (i64, i64)) -> String {
    if a == b {
        a.to_string()
    } else {
        format!("{a}-{b}")
    }
}

/// The drafts as one table file (`[[table]]` after `[[table]]`), headed
/// by a comment saying where they came from.
pub fn to_toml(drafts: &[Draft], from: &str) -> String {
    let file = FileOut {
        table: drafts
            .iter()
            .map(|d| TableOut {
                id: &d.id,
                title: &d.title,
                system: d.system,
                source: &d.source,
                dice: d.dice.as_deref(),
                notes: d.notes.as_deref(),
                deck: d.deck,
                text_only: d.text_only,
                region: d.region.as_ref(),
                row: d
                    .rows
                    .iter()
                    .map(|r| RowOut {
                        roll: r.entry.range.map(roll_text),
                        weight: r.entry.weight,
                        name: &r.entry.name,
                        text: &r.entry.text,
                        tags: &r.entry.tags,
                        reroll: r.entry.reroll,
                        distinct: r.entry.distinct,
                        effects: &r.entry.effects,
                        stats: r.entry.stats.as_deref(),
                    })
                    .collect(),
            })
            .collect(),
    };
    let body = toml::to_string(&file).expect("a draft serializes as TOML");
    let from: String = from.chars().filter(|c| !c.is_control()).collect();
    format!("# Imported by tablewright from {from}; see the guide, Table format.\n\n{body}")
}

/// A slug for an id made from a name: lowercase letters and digits joined
/// by `-` (at most 40), `table` when nothing is left.
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
        if out.len() >= 40 {
            break;
        }
    }
    let s = out.trim_matches('-');
    if s.is_empty() {
        "table".into()
    } else {
        s.to_owned()
    }
}
