//! Reading table files: the built-in files embedded in the binary and every
//! `.toml` file under a `--content DIR`, each kept whole in memory so that a
//! [`Diagnostic`] can point at a line and show it.

use std::path::Path;

use crate::diagnostic::Diagnostic;

mod builtin {
    include!(concat!(env!("OUT_DIR"), "/builtin_content.rs"));
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
    /// Byte offset of each line's start, so that finding a line is a
    /// binary search (loading stays linear in the size of the content).
    lines: Vec<usize>,
}

/// 1-based line and column of a byte offset in `text` (columns count
/// characters).
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = char_floor(text, offset);
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// `offset` moved back to a character boundary of `text` (positions inside
/// escaped strings are approximate: never split a character).
fn char_floor(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

impl SourceFile {
    /// A file named `name` (as messages show it) in `layer`.
    pub fn new(name: impl Into<String>, text: impl Into<String>, layer: usize) -> SourceFile {
        let text = text.into();
        let lines = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        SourceFile {
            name: name.into(),
            text,
            layer,
            lines,
        }
    }

    /// 1-based line and column of a byte offset (the same as [`line_col`],
    /// in time logarithmic in the file's lines and linear in the line's).
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = char_floor(&self.text, offset);
        let line = self.lines.partition_point(|&start| start <= offset);
        let start = self.lines[line - 1];
        (line, self.text[start..offset].chars().count() + 1)
    }

    /// A problem at a byte offset of this file, in `table` when known, with
    /// the line shown and `width` characters underlined.
    pub fn diagnostic(
        &self,
        offset: usize,
        width: usize,
        table: Option<&str>,
        message: impl Into<String>,
    ) -> Diagnostic {
        let (line, column) = self.line_col(offset);
        Diagnostic::at(&self.name, line, column, message)
            .in_table(table.map(str::to_owned))
            .with_source(&self.text, width)
    }

    /// Characters in the byte range `span` of this file, up to the end of
    /// its first line (at least 1): how much of a value to underline.
    pub fn width(&self, span: std::ops::Range<usize>) -> usize {
        let start = char_floor(&self.text, span.start);
        let end = char_floor(&self.text, span.end.max(start));
        let first_line = self.text[start..end].lines().next().unwrap_or("");
        first_line.chars().count().max(1)
    }
}

/// The built-in content, embedded at build time.
pub fn builtin_files() -> Vec<SourceFile> {
    builtin::BUILTIN
        .iter()
        .map(|(path, text)| SourceFile::new(format!("content/{path} (built in)"), *text, 0))
        .collect()
}

/// A problem with a whole file or folder (no line to point at).
fn unreadable(path: String, message: String, hint: &str) -> Diagnostic {
    Diagnostic::at(path, 0, 0, message).with_hint(hint)
}

/// Every `.toml` file under a user folder (any case: `.TOML` too), sorted
/// by path, symbolic links followed (a link that loops back is a problem,
/// not a hang). Every I/O error, non-UTF-8 file and a folder with no
/// table file at all is a problem; nothing is skipped silently.
pub fn user_files(dir: &Path, layer: usize) -> Result<Vec<SourceFile>, Vec<Diagnostic>> {
    let shown = dir.display().to_string();
    if !dir.is_dir() {
        let message = if dir.exists() {
            format!("`{shown}` is a file, and --content needs a folder")
        } else {
            format!("`{shown}` does not exist")
        };
        return Err(vec![unreadable(
            shown,
            message,
            "give a folder holding .toml table files (tablewright init makes one)",
        )]);
    }
    let mut files = Vec::new();
    let mut problems = Vec::new();
    let walk = walkdir::WalkDir::new(dir)
        .follow_links(true)
        .sort_by_file_name();
    for entry in walk {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                let path = e.path().map_or(shown.clone(), |p| p.display().to_string());
                let (message, hint) = if e.loop_ancestor().is_some() {
                    (
                        "a link here leads back to a folder above it".to_owned(),
                        "remove the link, or point it outside the content folder",
                    )
                } else {
                    (
                        format!("cannot read: {e}"),
                        "check the permissions of this path",
                    )
                };
                problems.push(unreadable(path, message, hint));
                continue;
            }
        };
        let path = entry.path();
        let toml = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("toml"));
        if entry.file_type().is_file() && toml {
            match read_file(path, layer, dir) {
                Ok(file) => files.push(file),
                Err(d) => problems.push(*d),
            }
        }
    }
    if files.is_empty() && problems.is_empty() {
        problems.push(unreadable(
            shown.clone(),
            format!("no tables found in `{shown}`: it holds no .toml file"),
            "table files end in .toml (see content/FORMAT.md); tablewright init makes an example",
        ));
    }
    if problems.is_empty() {
        Ok(files)
    } else {
        Err(problems)
    }
}

/// One table file, which must be UTF-8 text. A file behind a link that
/// leaves the content folder `dir` has its lines withheld from messages.
fn read_file(path: &Path, layer: usize, dir: &Path) -> Result<SourceFile, Box<Diagnostic>> {
    let name = path.display().to_string();
    if crate::input::bounded::leaves_its_folder(path, Some(dir)) {
        crate::diagnostic::withhold_lines(&name);
    }
    let bytes = crate::input::bounded::read_bytes(path).map_err(|e| {
        Box::new(unreadable(
            name.clone(),
            format!("cannot read: {e}"),
            "check the permissions of this file, and that it is a table file",
        ))
    })?;
    String::from_utf8(bytes)
        .map(|text| SourceFile::new(name.clone(), text, layer))
        .map_err(|e| {
            let offset = e.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(&e.into_bytes()[..offset]).into_owned();
            let file = SourceFile::new(name, text, layer);
            Box::new(
                file.diagnostic(offset, 1, None, "the file is not UTF-8 text")
                    .with_hint("save it as UTF-8 (any text editor can)"),
            )
        })
}
