//! Content: the tables a GM reads and edits. This module owns reading them —
//! the built-in files embedded in the binary and every `--content DIR` —
//! parsing (with line numbers), overriding by id, and validation that
//! collects every problem at once, each a [`Diagnostic`].
//!
//! - [`source`]: reading the files (built in and from user folders).
//! - [`compact`]: the built-in tables checked once and embedded in a
//!   compact form, loaded without parsing or checking them again.
//! - [`schema`]: the TOML shape (unknown keys are errors).
//! - [`template`]: inline `{d4}`, `{table:ID}`, `{pick: a | b}` text.
//! - [`validate`]: turning raw tables into checked [`Table`]s, and the
//!   checks across tables (references, cycles, roll-again loops).
//! - [`region`]: regions as data — every `gen.encounter.<region>` table
//!   makes a terrain, with the properties the generators need.
//! - [`traps`]: which trap parts fit a terrain and each other, by their
//!   tags (the generator's picks and `validate`'s trap checks).

pub mod compact;
pub mod era;
pub mod lazy;
pub mod region;
pub mod schema;
pub mod source;
pub mod template;
pub mod traps;
pub mod validate;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::OnceLock;

use serde::Serialize;

pub use lazy::Lazy;
pub use region::Region;
pub use schema::{Effect, Stats, System, Text, owned};
pub use source::{LineIndex, SourceFile, builtin_files, line_col, user_files};
use template::Segment;

use crate::diagnostic::Diagnostic;
use crate::dice::ast::Roll;
use crate::dice::odds::roll_dist;

/// Where a table came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Origin {
    /// The file as messages name it.
    pub file: Text,
    /// The 1-based line of its `[[table]]`.
    pub line: usize,
    /// 0 for the built-in tables, 1.. for each `--content DIR` in order.
    pub layer: usize,
}

/// A checked table, ready to roll.
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    /// The table's id (`core.injury`).
    pub id: String,
    /// The title shown to the GM.
    pub title: Text,
    /// The rules the table is for.
    pub system: System,
    /// Where in the rules it comes from.
    pub source: Text,
    /// The roll that picks a row (`None` for weighted tables).
    pub dice: Option<Text>,
    /// `dice` parsed: by validation, or on first use for a table loaded
    /// from the compact built-in form ([`Table::dice_expr`]).
    #[serde(skip)]
    pub dice_expr: OnceLock<Option<Roll>>,
    /// How an unclear rule is read, shown to the GM.
    pub notes: Option<Text>,
    /// Rows are drawn without replacement within one generation.
    pub deck: bool,
    /// A roll on this table from another row's text gives the row's text
    /// alone (`text_only = true`), not `Name: text`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub text_only: bool,
    /// What the generators need of the region (`gen.encounter.<region>`
    /// tables only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub region: Option<Region>,
    /// The rows, in file order (extensions' rows after).
    pub rows: Rows,
    /// Where the table was defined.
    pub origin: Origin,
    /// What each `extends = "<id>"` table added to this one, in load order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extended_by: Vec<Contribution>,
}

/// What one extension (`extends = "<id>"`) did to the table it extends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Contribution {
    /// The extension's file, as messages name it.
    pub file: String,
    /// The 1-based line of its `[[table]]`.
    pub line: usize,
    /// Names of the rows it added.
    pub added: Vec<String>,
    /// Names of the rows it replaced.
    pub replaced: Vec<String>,
}

/// What a row says — its roll or weight, name, text and flags — wherever
/// it was read from: a table file ([`Row`]) or another tool's format
/// (`interop::DraftRow`).
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Entry {
    /// Inclusive range of die results (ranged tables).
    pub range: Option<(i64, i64)>,
    /// Weight (weighted tables).
    pub weight: Option<u64>,
    /// The row's short label.
    pub name: Text,
    /// The row's text as written (inline dice, picks and table calls unrolled).
    pub text: Text,
    /// Tags the generators filter by.
    #[serde(default)]
    pub tags: Vec<Text>,
    /// Roll this many times on the table instead of taking this row.
    pub reroll: Option<u32>,
    /// With `reroll`: the rolls give different rows.
    #[serde(default)]
    pub distinct: bool,
    /// Decoded on first use for a built-in table ([`Lazy`]).
    #[serde(default)]
    pub effects: Lazy<Vec<Effect>>,
    /// Boxed: most rows have none (a row of a 100,000-row table is a
    /// quarter of the size without it inline). Decoded on first use for a
    /// built-in table.
    #[serde(default)]
    pub stats: Lazy<Option<Box<Stats>>>,
}

/// A row of a loaded table: its [`Entry`], its parsed text and where it
/// stands in its file.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// What the row says.
    #[serde(flatten)]
    pub entry: Entry,
    /// `entry.text` parsed: by validation, or on first use for a row loaded
    /// from the compact built-in form ([`Row::template`]).
    #[serde(skip)]
    pub template: OnceLock<Vec<Segment>>,
    /// The 1-based line of the row in its file.
    pub line: usize,
    /// The file of a row added by an extension (`None`: the table's own).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Byte offset of the row in its file.
    #[serde(skip)]
    pub at: usize,
    /// Byte offset of its `roll` value (of the row without one) and how
    /// many characters to underline there.
    #[serde(skip)]
    pub roll_at: usize,
    /// See [`Row::roll_at`].
    #[serde(skip)]
    pub width: usize,
}

impl Table {
    /// The roll that picks a row (`None` for weighted tables), parsed once.
    pub fn dice_expr(&self) -> Option<&Roll> {
        self.dice_expr
            .get_or_init(|| match crate::dice::parse(self.dice.as_deref()?) {
                Ok(crate::dice::Expr::Roll(r)) => Some(r),
                // Validation refuses such a table: it is never rolled.
                _ => None,
            })
            .as_ref()
    }
}

impl Row {
    /// The row's text as segments (plain text, dice, table references,
    /// picks), parsed once.
    pub fn template(&self) -> &[Segment] {
        // Validation refuses a text that does not parse: such a row is
        // never rolled (empty, as validation leaves it).
        self.template
            .get_or_init(|| template::parse(&self.entry.text).unwrap_or_default())
    }

    /// The row's text as segments without keeping them: parsed once
    /// already, or parsed now and let go (the checks across tables read
    /// every row of every table; a big table's parsed texts would take
    /// several times its rows).
    pub fn segments(&self) -> std::borrow::Cow<'_, [Segment]> {
        match self.template.get() {
            Some(t) => std::borrow::Cow::Borrowed(t),
            None => std::borrow::Cow::Owned(template::parse(&self.entry.text).unwrap_or_default()),
        }
    }

    /// `"13-14"`, `"3"` or `"w2"`.
    pub fn label(&self) -> String {
        match (self.entry.range, self.entry.weight) {
            (Some((a, b)), _) if a == b => a.to_string(),
            (Some((a, b)), _) => format!("{a}-{b}"),
            (None, Some(w)) => format!("w{w}"),
            _ => String::new(),
        }
    }
}

/// A table's rows: read and checked, or (a built-in table loaded from its
/// compact form) decoded on first use, so a command decodes the rows of
/// the tables it uses only. Reads as a `Vec<Row>`; `len` needs no decoding.
#[derive(Clone, Default)]
pub struct Rows {
    rows: OnceLock<Vec<Row>>,
    /// The encoded rows.
    packed: Option<compact::Packed>,
}

impl Rows {
    /// Rows encoded in the compact form, decoded on first use.
    pub fn packed(packed: compact::Packed) -> Rows {
        Rows {
            rows: OnceLock::new(),
            packed: Some(packed),
        }
    }

    /// How many rows (without decoding them).
    pub fn len(&self) -> usize {
        match (self.rows.get(), self.packed) {
            (Some(rows), _) => rows.len(),
            (None, Some(packed)) => packed.len,
            (None, None) => 0,
        }
    }

    /// Whether there are no rows (without decoding them).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl From<Vec<Row>> for Rows {
    fn from(rows: Vec<Row>) -> Rows {
        Rows {
            rows: OnceLock::from(rows),
            packed: None,
        }
    }
}

impl std::ops::Deref for Rows {
    type Target = Vec<Row>;
    fn deref(&self) -> &Vec<Row> {
        self.rows.get_or_init(|| match self.packed {
            Some(packed) => compact::rows(packed),
            None => Vec::new(),
        })
    }
}

impl std::ops::DerefMut for Rows {
    fn deref_mut(&mut self) -> &mut Vec<Row> {
        let _ = std::ops::Deref::deref(self);
        self.rows.get_mut().expect("decoded just now")
    }
}

impl<'a> IntoIterator for &'a Rows {
    type Item = &'a Row;
    type IntoIter = std::slice::Iter<'a, Row>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl std::fmt::Debug for Rows {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for Rows {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(s)
    }
}

/// A table that lost to another with the same id.
#[derive(Debug, Clone, Serialize)]
pub struct Overridden {
    /// The id both tables have.
    pub id: String,
    /// Where the table in effect came from.
    pub by: Origin,
    /// Where the replaced table came from.
    pub was: Origin,
}

/// All tables in effect, by id.
#[derive(Debug, Clone, Default)]
pub struct Library {
    /// Every table in effect, by id.
    pub tables: BTreeMap<String, Table>,
    /// The tables replaced by a later layer's table of the same id, in load
    /// order.
    pub overridden: Vec<Overridden>,
    /// Hash of every table file's bytes, in load order (for share lines).
    pub content_hash: String,
    /// What works but is worth saying (`validate` prints it): a region
    /// with no places of its own.
    pub warnings: Vec<Diagnostic>,
    /// The era declared (a campaign's `era`): rows tagged for other eras
    /// are not drawn ([`era`]).
    pub era: Option<String>,
}

impl Library {
    /// Where the table that `id` replaced came from (the last replacement
    /// wins), if a content folder replaced one.
    pub fn overridden_origin(&self, id: &str) -> Option<&Origin> {
        self.overridden
            .iter()
            .rev()
            .find(|o| o.id == id)
            .map(|o| &o.was)
    }

    /// The table in effect with the id `id`.
    pub fn get(&self, id: &str) -> Option<&Table> {
        self.tables.get(id)
    }

    /// Every region (terrain) in effect, by name: one per
    /// `gen.encounter.<region>` table, built in or from `--content`.
    pub fn regions(&self) -> impl Iterator<Item = &Region> {
        self.tables
            .range::<str, _>((
                std::ops::Bound::Included(region::PREFIX),
                std::ops::Bound::Unbounded,
            ))
            .take_while(|(id, _)| id.starts_with(region::PREFIX))
            .filter_map(|(_, t)| t.region.as_ref())
    }

    /// The names of every region in effect, in order.
    pub fn region_names(&self) -> Vec<&str> {
        self.regions().map(|r| r.name.as_str()).collect()
    }

    /// A region by name, in any case (`Hills` is `hills`), or what to say:
    /// the regions there are, and the closest name.
    pub fn region(&self, name: &str) -> Result<&Region, String> {
        let wanted = name.trim().to_lowercase();
        if let Some(r) = self
            .get(&format!("{}{wanted}", region::PREFIX))
            .and_then(|t| t.region.as_ref())
        {
            return Ok(r);
        }
        let names = self.region_names();
        let mut message = format!("unknown terrain `{name}`");
        if let Some(s) = validate::closest(&wanted, names.iter().copied()) {
            message.push_str(&format!(" (did you mean `{s}`?)"));
        }
        message.push_str(&format!(
            "; choose one of {} — or add a `{}<name>` table with --content",
            names.join(", "),
            region::PREFIX
        ));
        Err(message)
    }

    /// Load the built-in content and every user folder (later folders win).
    /// Returns the library and every problem found, in file and line order;
    /// callers refuse to go on when there are problems.
    pub fn load(dirs: &[PathBuf]) -> (Library, Vec<Diagnostic>) {
        let (files, problems) = Self::user_sources(dirs);
        let (library, mut more) = Self::from_user_files(files);
        more.extend(problems);
        more.sort_by(|a, b| order(a).cmp(&order(b)));
        more.dedup();
        (library, more)
    }

    /// Every table file in the user's folders (layer `i + 1` for the
    /// `i`-th), and every problem reading them.
    pub fn user_sources(dirs: &[PathBuf]) -> (Vec<SourceFile>, Vec<Diagnostic>) {
        let mut files = Vec::new();
        let mut problems = Vec::new();
        for (i, dir) in dirs.iter().enumerate() {
            match user_files(dir, i + 1) {
                Ok(mut f) => files.append(&mut f),
                Err(mut p) => problems.append(&mut p),
            }
        }
        (files, problems)
    }

    /// The built-in content with `user` files layered over it (files read
    /// from folders, or carried in a bundle).
    ///
    /// The built-in tables come from their compact form when the binary
    /// has it (checked when it was made): alone, as they are; under user
    /// files, only the user files are read and checked, then every check
    /// across tables runs on them all.
    pub fn from_user_files(user: Vec<SourceFile>) -> (Library, Vec<Diagnostic>) {
        let base = compact::builtin();
        if user.is_empty()
            && let Some(library) = base
        {
            return (library, Vec::new());
        }
        let mut files = builtin_files();
        files.extend(user);
        let (library, mut problems) = validate::build_over(base, &files);
        problems.sort_by(|a, b| order(a).cmp(&order(b)));
        problems.dedup();
        (library, problems)
    }
}

/// What problems are sorted by: place, table, message, hint.
fn order(
    d: &Diagnostic,
) -> (
    &Option<String>,
    usize,
    usize,
    &Option<String>,
    &str,
    Option<String>,
) {
    (
        &d.file,
        d.line,
        d.column,
        &d.table,
        &d.message,
        d.hint_line(),
    )
}

/// A problem as `validate --json` lists it: the "did you mean" is part of
/// the hint.
#[derive(Debug, Serialize)]
pub struct ProblemJson<'a> {
    /// The file as messages name it (empty for none).
    pub file: &'a str,
    /// 1-based line; 0 when unknown.
    pub line: usize,
    /// 1-based column, in characters; 0 when unknown.
    pub column: usize,
    /// The table the problem sits in, if known.
    pub table: Option<&'a str>,
    /// What is wrong.
    pub message: &'a str,
    /// What to do, with the "did you mean" first.
    pub hint: Option<String>,
}

impl<'a> From<&'a Diagnostic> for ProblemJson<'a> {
    fn from(d: &'a Diagnostic) -> Self {
        ProblemJson {
            file: d.file.as_deref().unwrap_or_default(),
            line: d.line,
            column: d.column,
            table: d.table.as_deref(),
            message: &d.message,
            hint: d.hint_line(),
        }
    }
}

/// Chance of each row per roll: from the exact distribution of the table's
/// die, or from the weights when it has none.
pub fn row_chances(rows: &[Row], dice: Option<&Roll>) -> Vec<f64> {
    match dice {
        Some(roll) => {
            let dist = roll_dist(roll).expect("validated table dice have exact odds");
            rows.iter()
                .map(|r| {
                    r.entry
                        .range
                        .map_or(0.0, |(a, b)| (a..=b).map(|v| dist.chance(v)).sum())
                })
                .collect()
        }
        None => {
            let total = rows
                .iter()
                .map(|r| r.entry.weight.unwrap_or(0))
                .sum::<u64>()
                .max(1);
            rows.iter()
                .map(|r| r.entry.weight.unwrap_or(0) as f64 / total as f64)
                .collect()
        }
    }
}

/// New rolls one roll asks for on average through roll-again rows
/// (`Σ N_r·p_r`, from each row's chance).
pub(crate) fn rerolls_per_roll(rows: &[Row], chances: &[f64]) -> f64 {
    rows.iter()
        .zip(chances)
        .map(|(r, p)| f64::from(r.entry.reroll.unwrap_or(0)) * p)
        .sum()
}

/// The built-in tables, which must load without a problem (for tests).
#[doc(hidden)]
pub fn test_library() -> Library {
    let (library, problems) = Library::load(&[]);
    assert!(problems.is_empty(), "{problems:?}");
    library
}
