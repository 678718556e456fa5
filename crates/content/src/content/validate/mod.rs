//! Validation: every problem in every file, each a [`Diagnostic`] with
//! file:line, the table id, the source line and a hint. Raw tables become
//! checked [`Table`]s; then the checks that need all tables run on the
//! tables in effect.
//!
//! - `keys`: TOML syntax, every unknown key, then the typed read.
//! - `parts`: a big file read in parts, so the TOML reader never holds
//!   the whole of it (what reading it whole gives).
//! - `table`: one table: its id, its die, its rows, its weights and
//!   roll-again rows that could never stop.
//! - `coverage`: which results of the table's die each row covers (gaps,
//!   overlaps, rows out of range).
//! - `rows`: one row: its roll or weight, its text, `reroll`.
//! - `effects`: a row's effects and stat block against the table's rules.
//! - `regions`: a region's properties (`[table.region]`).
//! - `extend`: `extends = "<id>"` tables merged into the tables they
//!   extend, and the merged table checked.
//! - `references`: across tables: unknown `{table:…}` ids and loops.
//! - [`generation`]: across tables, what generators follow: `foe:`/`npc:`
//!   tags, archetypes in both systems, places for every region, reference
//!   depth and expansion.
//! - [`traits`]: the NPC trait tables' kind tags (`gen.npc.want` …).
//! - `places`: a place row whose text names a terrain is drawn only for
//!   that terrain (`gen.poi`, `gen.place.site`).
//! - `systems`: across tables: what a METTLE table says, the Core Rules
//!   can say too (tile rules, Core trap saves, Core readings of hazards).
//! - `traps`: across the trap tables: both systems' effects alike, and in
//!   every terrain a trigger and clues for every effect that fits it.

pub mod clean;
mod coverage;
mod effects;
mod extend;
mod fits;
pub mod generation;
mod ground;
mod keys;
mod parts;
mod places;
mod references;
mod regions;
mod rows;
mod situations;
mod stops;
mod systems;
mod table;
pub mod traits;
mod traps;
mod weather;

use std::collections::BTreeMap;
use std::hash::Hasher;

use toml::Spanned;

use crate::hash::Stable;

use super::schema::TableRaw;
use super::{Library, Overridden, SourceFile, Table};
use crate::diagnostic::Diagnostic;

/// Where problems in one table (or in a file outside any table) are
/// reported.
#[derive(Clone, Copy)]
struct Spot<'a> {
    file: &'a SourceFile,
    table: Option<&'a str>,
}

impl<'a> Spot<'a> {
    /// The same file, in table `id`.
    fn with_table(self, id: &'a str) -> Spot<'a> {
        Spot {
            file: self.file,
            table: Some(id),
        }
    }

    /// A problem at a byte offset, `width` characters wide, with a hint.
    fn at(
        &self,
        offset: usize,
        width: usize,
        message: impl Into<String>,
        hint: impl Into<String>,
    ) -> Diagnostic {
        self.file
            .diagnostic(offset, width, self.table, message)
            .with_hint(hint)
    }

    /// Characters to underline for a value at `span` of the file.
    fn width(&self, span: std::ops::Range<usize>) -> usize {
        self.file.width(span)
    }
}

/// The file a checked table came from.
fn file_of<'a>(files: &'a [SourceFile], t: &Table) -> Option<&'a SourceFile> {
    file_of_name(files, &t.origin.file)
}

/// The file named `name`.
fn file_of_name<'a>(files: &'a [SourceFile], name: &str) -> Option<&'a SourceFile> {
    files.iter().find(|f| f.name == name)
}

/// A problem pointing at a row's line in its own file (the table's line
/// when there is no row).
fn at_row(
    files: &[SourceFile],
    t: &Table,
    row: Option<&super::Row>,
    message: String,
    hint: &str,
) -> Diagnostic {
    let Some(row) = row.filter(|r| r.line > 0) else {
        return at_table(files, t, message, hint);
    };
    let name = row.from.as_deref().unwrap_or(&t.origin.file);
    let d = Diagnostic::at(name, row.line, 1, message)
        .in_table(Some(t.id.clone()))
        .with_hint(hint);
    match file_of_name(files, name) {
        Some(f) => f.show(d, 1),
        None => d,
    }
}

/// A row tagged `shown`, which is wrong for the reason `why` ("which no
/// encounter reads"), with a hint and the nearest of `known` to `near`.
fn stray_tag<'a>(
    (files, t, row): (&[SourceFile], &Table, &super::Row),
    (shown, why): (&str, &str),
    hint: &str,
    (near, known): (&str, impl Iterator<Item = &'a str>),
) -> Diagnostic {
    let what = format!("row `{}` is tagged `{shown}`, {why}", row.entry.name);
    at_row(files, t, Some(row), what, hint).with_suggestion(suggest(near, known))
}

/// A problem pointing at a table's header line.
fn at_table(files: &[SourceFile], t: &Table, message: String, hint: &str) -> Diagnostic {
    let d = Diagnostic::at(&*t.origin.file, t.origin.line, 1, message)
        .in_table(Some(t.id.clone()))
        .with_hint(hint);
    match file_of(files, t) {
        Some(f) => f.show(d, 1),
        None => d,
    }
}

/// Parse, check and layer every file.
pub fn build(files: &[SourceFile]) -> (Library, Vec<Diagnostic>) {
    build_over(None, files)
}

/// Parse, check and layer every file, over `base` (the built-in tables,
/// checked already) when given: then the files of layer 0 are hashed and
/// shown in messages but not read again.
pub(crate) fn build_over(
    base: Option<Library>,
    files: &[SourceFile],
) -> (Library, Vec<Diagnostic>) {
    let skip_builtin = base.is_some();
    let mut problems = Vec::new();
    let mut compiled: Vec<Table> = Vec::new();
    let mut pending = Vec::new();
    let mut hasher = Stable::new();
    for file in files {
        hasher.write_u64(file.text.len() as u64);
        hasher.write(file.text.as_bytes());
        if skip_builtin && file.layer == 0 {
            continue;
        }
        for raw in parse_file(file, &mut problems) {
            let at = raw.span().start;
            match table::compile(file, at, raw.into_inner(), &mut problems) {
                Some(table::Compiled::Table(t)) => compiled.push(t),
                Some(table::Compiled::Extension(p)) => pending.push(p),
                None => {}
            }
        }
    }
    let start = base.map(|b| b.tables).unwrap_or_default();
    let (mut tables, overridden) = layer(start, compiled, files, &mut problems);
    extend::apply(pending, &mut tables, files, &mut problems);
    references::check(&tables, files, &mut problems);
    systems::check(&tables, files, &mut problems);
    traps::check(&tables, files, &mut problems);
    generation::check(&tables, files, &mut problems);
    weather::check(&tables, files, &mut problems);
    ground::check(&tables, files, &mut problems);
    situations::check(&tables, files, &mut problems);
    fits::check(&tables, files, &mut problems);
    stops::check(&tables, files, &mut problems);
    traits::check(&tables, files, &mut problems);
    places::check(&tables, files, &mut problems);
    let warnings = generation::place_warnings(&tables, files);
    let hash = format!("{:016x}", hasher.finish());
    (
        Library {
            tables,
            overridden,
            content_hash: hash,
            warnings,
            era: None,
        },
        problems,
    )
}

/// Layering (over `tables`, already layered): the highest layer wins; two tables with one id in the same
/// layer are a mistake.
fn layer(
    mut tables: BTreeMap<String, Table>,
    compiled: Vec<Table>,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) -> (BTreeMap<String, Table>, Vec<Overridden>) {
    let mut overridden = Vec::new();
    for t in compiled {
        match tables.get(&t.id) {
            Some(old) if old.origin.layer == t.origin.layer => {
                problems.push(at_table(
                    files,
                    &t,
                    format!(
                        "the id `{}` is already used by {}:{}",
                        t.id, old.origin.file, old.origin.line
                    ),
                    "give each table its own id (to replace a built-in table, put yours in a --content folder)",
                ));
            }
            Some(old) => {
                overridden.push(Overridden {
                    id: t.id.clone(),
                    by: t.origin.clone(),
                    was: old.origin.clone(),
                });
                tables.insert(t.id.clone(), t);
            }
            None => {
                tables.insert(t.id.clone(), t);
            }
        }
    }
    (tables, overridden)
}

/// The closest known name, when it is close enough to be a typo.
pub fn closest<'a>(word: &str, known: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    known
        .map(|k| (strsim::jaro_winkler(word, k), k))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(a.1)))
        .map(|(_, k)| k)
}

/// The closest known name, as a suggestion.
fn suggest<'a>(word: &str, known: impl Iterator<Item = &'a str>) -> Option<String> {
    closest(word, known).map(str::to_owned)
}

/// Where problems about a whole table point: its id.
#[derive(Clone, Copy)]
struct Head {
    pub at: usize,
    pub width: usize,
}

/// Parse `"3"` or `"13-14"`.
fn parse_range(s: &str) -> Option<(i64, i64)> {
    let s = s.trim();
    let (a, b) = match s.split_once('-') {
        Some((a, b)) => (a.trim().parse().ok()?, b.trim().parse().ok()?),
        None => {
            let v = s.parse().ok()?;
            (v, v)
        }
    };
    (a <= b).then_some((a, b))
}

/// The raw tables of one file (none when its TOML cannot be read): read
/// in parts, else whole.
fn parse_file(file: &SourceFile, problems: &mut Vec<Diagnostic>) -> Vec<Spanned<TableRaw>> {
    match parts::read(file, problems) {
        Some(tables) => tables,
        None => keys::whole(file, problems),
    }
}
