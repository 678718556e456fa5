//! Content: the tables a GM reads and edits. This module owns reading them —
//! the built-in files embedded in the binary and every `--content DIR` —
//! parsing (with line numbers), overriding by id, and validation that
//! collects every problem at once.
//!
//! - [`schema`]: the TOML shape (unknown keys are errors).
//! - [`template`]: inline `{d4}`, `{table:ID}`, `{pick: a | b}` text.
//! - [`validate`]: turning raw tables into checked [`Table`]s, and the
//!   checks across tables (references, cycles, roll-again loops).

pub mod schema;
pub mod template;
pub mod validate;

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

pub use schema::{Effect, Stats, System};
use template::Segment;

mod builtin {
    include!(concat!(env!("OUT_DIR"), "/builtin_content.rs"));
}

/// One problem found in content, with where it is and what to do.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Problem {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub table: Option<String>,
    pub message: String,
    pub hint: Option<String>,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.file, self.line, self.column)?;
        if let Some(t) = &self.table {
            write!(f, "[{t}] ")?;
        }
        f.write_str(&self.message)?;
        if let Some(h) = &self.hint {
            write!(f, "\n    hint: {h}")?;
        }
        Ok(())
    }
}

/// A file of content, read into memory.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// How messages name it: `content/core/injury.toml (built in)` or the
    /// user's path.
    pub name: String,
    pub text: String,
    /// 0 for built-in content, 1.. for each `--content DIR` in order.
    pub layer: usize,
}

/// 1-based line and column of a byte offset in `text` (columns count
/// characters).
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    // Positions inside escaped strings are approximate: never split a
    // character.
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

impl SourceFile {
    /// 1-based line and column of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        line_col(&self.text, offset)
    }

    pub fn problem(
        &self,
        offset: usize,
        table: Option<&str>,
        message: impl Into<String>,
        hint: Option<String>,
    ) -> Problem {
        let (line, column) = self.line_col(offset);
        Problem {
            file: self.name.clone(),
            line,
            column,
            table: table.map(str::to_owned),
            message: message.into(),
            hint,
        }
    }
}

/// Where a table came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Origin {
    pub file: String,
    pub line: usize,
    pub layer: usize,
}

/// A checked table, ready to roll.
#[derive(Debug, Clone, Serialize)]
pub struct Table {
    pub id: String,
    pub title: String,
    pub system: System,
    pub source: String,
    /// The roll that picks a row (`None` for weighted tables).
    pub dice: Option<String>,
    #[serde(skip)]
    pub dice_expr: Option<crate::dice::ast::Roll>,
    pub notes: Option<String>,
    pub deck: bool,
    pub rows: Vec<Row>,
    pub origin: Origin,
}

#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// Inclusive range of die results (ranged tables).
    pub range: Option<(i64, i64)>,
    /// Weight (weighted tables).
    pub weight: Option<u64>,
    pub name: String,
    pub text: String,
    #[serde(skip)]
    pub template: Vec<Segment>,
    pub tags: Vec<String>,
    pub reroll: Option<u32>,
    pub distinct: bool,
    pub effects: Vec<Effect>,
    pub stats: Option<Stats>,
    pub line: usize,
}

impl Row {
    /// `"13-14"`, `"3"` or `"w2"`.
    pub fn label(&self) -> String {
        match (self.range, self.weight) {
            (Some((a, b)), _) if a == b => a.to_string(),
            (Some((a, b)), _) => format!("{a}-{b}"),
            (None, Some(w)) => format!("w{w}"),
            _ => String::new(),
        }
    }
}

/// A table that lost to another with the same id.
#[derive(Debug, Clone, Serialize)]
pub struct Overridden {
    pub id: String,
    pub by: Origin,
    pub was: Origin,
}

/// All tables in effect, by id.
#[derive(Debug, Clone, Default)]
pub struct Library {
    pub tables: BTreeMap<String, Table>,
    pub overridden: Vec<Overridden>,
    /// Hash of every table file's bytes, in load order (for share lines).
    pub content_hash: String,
}

impl Library {
    pub fn get(&self, id: &str) -> Option<&Table> {
        self.tables.get(id)
    }

    /// Load the built-in content and every user folder (later folders win).
    /// Returns the library and every problem found; callers refuse to go on
    /// when there are problems.
    pub fn load(dirs: &[PathBuf]) -> (Library, Vec<Problem>) {
        let mut files = builtin_files();
        let mut problems = Vec::new();
        for (i, dir) in dirs.iter().enumerate() {
            match user_files(dir, i + 1) {
                Ok(mut f) => files.append(&mut f),
                Err(mut p) => problems.append(&mut p),
            }
        }
        let (library, mut more) = validate::build(&files);
        problems.append(&mut more);
        problems.sort();
        problems.dedup();
        (library, problems)
    }
}

/// The built-in tables, which must load without a problem (for tests).
#[cfg(test)]
pub fn test_library() -> Library {
    let (library, problems) = Library::load(&[]);
    assert!(problems.is_empty(), "{problems:?}");
    library
}

/// The built-in content, embedded at build time.
pub fn builtin_files() -> Vec<SourceFile> {
    builtin::BUILTIN
        .iter()
        .map(|(path, text)| SourceFile {
            name: format!("content/{path} (built in)"),
            text: (*text).to_owned(),
            layer: 0,
        })
        .collect()
}

/// Every `.toml` file under a user folder, sorted by path. Every I/O error
/// and non-UTF-8 file is a problem; nothing is skipped silently.
pub fn user_files(dir: &Path, layer: usize) -> Result<Vec<SourceFile>, Vec<Problem>> {
    let shown = dir.display().to_string();
    let at = |message: String, hint: &str| Problem {
        file: shown.clone(),
        line: 0,
        column: 0,
        table: None,
        message,
        hint: Some(hint.to_owned()),
    };
    if !dir.is_dir() {
        return Err(vec![at(
            if dir.exists() {
                "--content must name a folder, and this is a file".into()
            } else {
                "this --content folder does not exist".into()
            },
            "give a folder holding .toml table files",
        )]);
    }
    let mut files = Vec::new();
    let mut problems = Vec::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                let path = e.path().map_or(shown.clone(), |p| p.display().to_string());
                problems.push(Problem {
                    file: path,
                    line: 0,
                    column: 0,
                    table: None,
                    message: format!("cannot read: {e}"),
                    hint: Some("check the permissions of this path".into()),
                });
                continue;
            }
        };
        let path = entry.path();
        if !entry.file_type().is_file() || path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let name = path.display().to_string();
        match std::fs::read(path) {
            Err(e) => problems.push(Problem {
                file: name,
                line: 0,
                column: 0,
                table: None,
                message: format!("cannot read: {e}"),
                hint: Some("check the permissions of this file".into()),
            }),
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(text) => files.push(SourceFile { name, text, layer }),
                Err(e) => {
                    let offset = e.utf8_error().valid_up_to();
                    let text = String::from_utf8_lossy(&e.into_bytes()[..offset]).into_owned();
                    let f = SourceFile { name, text, layer };
                    problems.push(f.problem(
                        offset,
                        None,
                        "the file is not UTF-8 text",
                        Some("save it as UTF-8 (any text editor can)".into()),
                    ));
                }
            },
        }
    }
    if problems.is_empty() {
        Ok(files)
    } else {
        Err(problems)
    }
}
