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
    /// The file's whole text.
    pub text: String,
    /// 0 for built-in content, 1.. for each `--content DIR` in order.
    pub layer: usize,
    /// Byte offset of each line's start, so that finding a line is a
    /// binary search (loading stays linear in the size of the content).
    lines: LineIndex,
}

/// Where each line of a text starts, found in one pass: a byte offset's
/// line is then a binary search, so finding the lines of N places in a
/// text is linear in the text, not N rescans of it (issue 39: a Foundry
/// import looked up each result's line with [`line_col`]).
#[derive(Debug, Clone, Default)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// The index of `text`'s lines.
    pub fn new(text: &str) -> LineIndex {
        #[cfg(any(test, feature = "scan-count"))]
        scanned::add(text.len());
        let mut starts: Vec<usize> = std::iter::once(0).chain(line_breaks(text)).collect();
        starts.shrink_to_fit();
        LineIndex { starts }
    }

    /// 1-based line of byte offset `offset`.
    pub fn line(&self, offset: usize) -> usize {
        self.starts.partition_point(|&start| start <= offset)
    }

    /// 1-based line and column (in characters) of byte offset `offset` of
    /// `text`, the text this index was made from.
    pub fn line_col(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = char_floor(text, offset);
        let line = self.line(offset);
        let start = self.starts[line - 1];
        (line, text[start..offset].chars().count() + 1)
    }

    /// Byte offset where 1-based line `line` starts.
    pub fn start(&self, line: usize) -> Option<usize> {
        self.starts.get(line.checked_sub(1)?).copied()
    }
}

/// Each line break's next offset.
fn line_breaks(text: &str) -> impl Iterator<Item = usize> + '_ {
    text.match_indices('\n').map(|(i, _)| i + 1)
}

/// How far [`SourceFile::find_from`] looks: a row's text is far shorter.
const SEARCH_WINDOW: usize = 64 << 10;

/// 1-based line and column of a byte offset in `text` (columns count
/// characters).
/// Each call scans the text up to `offset`: for many places in one text,
/// build a [`LineIndex`] once.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = char_floor(text, offset);
    #[cfg(any(test, feature = "scan-count"))]
    scanned::add(offset);
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
        let lines = LineIndex::new(&text);
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
        self.lines.line_col(&self.text, offset)
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
        self.show(
            Diagnostic::at(&self.name, line, column, message).in_table(table.map(str::to_owned)),
            width,
        )
    }

    /// The text of 1-based line `line` (without its line break), found in
    /// the line index: constant time, so a file with 100,000 problems is
    /// read once, not once per problem.
    pub fn line_text(&self, line: usize) -> Option<&str> {
        let start = self.lines.start(line)?;
        let end = self
            .lines
            .start(line + 1)
            .map_or(self.text.len(), |next| next - 1);
        let text = &self.text[start..end.max(start)];
        Some(text.strip_suffix('\r').unwrap_or(text))
    }

    /// The byte offset of the first `needle` from the start of 1-based
    /// line `line` (the file's start for 0), looking no further than
    /// [`SEARCH_WINDOW`] bytes on.
    pub(crate) fn find_from(&self, line: usize, needle: &str) -> Option<usize> {
        let start = self.lines.start(line).unwrap_or(0);
        let end = char_floor(&self.text, start.saturating_add(SEARCH_WINDOW));
        self.text[start..end].find(needle).map(|at| start + at)
    }

    /// `d` (a problem at a line of this file) with that line shown and
    /// `width` characters underlined.
    pub fn show(&self, d: Diagnostic, width: usize) -> Diagnostic {
        match self.line_text(d.line) {
            Some(line) => d.with_line(line, width),
            None => d,
        }
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

/// The most folders read under one `--content DIR` (links included): a
/// content folder is a few dozen folders; a link to `/` is not one.
pub const MAX_FOLDERS: usize = 10_000;

/// Every `.toml` file under a user folder (any case: `.TOML` too), sorted
/// by path, symbolic links followed. Each real folder (by device and
/// inode) is read once however many links lead to it, so links that fan
/// out cost nothing; a link that loops back is a problem, not a hang; a
/// folder of the kernel's own file systems (`/proc`, `/sys`) is never
/// entered, and more than [`MAX_FOLDERS`] folders is a problem. Every I/O
/// error, non-UTF-8 file, `.toml` name that is not a regular file (a pipe,
/// a device) and a folder with no table file at all is a problem; nothing
/// is skipped silently.
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
    if let Some(kind) = crate::bounded::system_folder(dir) {
        return Err(vec![unreadable(
            shown,
            format!(
                "`{}` is a folder of the system's {kind} file system, not of table files",
                dir.display()
            ),
            "give a folder holding .toml table files (tablewright init makes one)",
        )]);
    }
    let mut walk = Walk {
        root: dir,
        layer,
        seen: std::collections::BTreeSet::new(),
        folders: 0,
        files: Vec::new(),
        problems: Vec::new(),
    };
    walk.folder(dir, &mut Vec::new());
    let Walk {
        mut files,
        mut problems,
        ..
    } = walk;
    if files.is_empty() && problems.is_empty() {
        problems.push(unreadable(
            shown.clone(),
            format!("no tables found in `{shown}`: it holds no .toml file"),
            "table files end in .toml (see the guide, Table format); tablewright init makes an example",
        ));
    }
    if problems.is_empty() {
        files.shrink_to_fit();
        Ok(files)
    } else {
        Err(problems)
    }
}

/// A folder's identity: its device and inode (elsewhere, its real path).
#[cfg(unix)]
type FolderId = (u64, u64);
#[cfg(not(unix))]
type FolderId = std::path::PathBuf;

#[cfg(unix)]
fn folder_id(path: &Path, meta: &std::fs::Metadata) -> Option<FolderId> {
    let _ = path;
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn folder_id(path: &Path, _: &std::fs::Metadata) -> Option<FolderId> {
    std::fs::canonicalize(path).ok()
}

/// One walk of a content folder.
struct Walk<'a> {
    root: &'a Path,
    layer: usize,
    /// Every real folder read so far.
    seen: std::collections::BTreeSet<FolderId>,
    folders: usize,
    files: Vec<SourceFile>,
    problems: Vec<Diagnostic>,
}

impl Walk<'_> {
    /// Read the folder at `path` (already known to be a folder) and what
    /// is under it, in file-name order; `above` holds the folders on the
    /// way down to it.
    fn folder(&mut self, path: &Path, above: &mut Vec<FolderId>) {
        let shown = path.display().to_string();
        let meta = match std::fs::metadata(path) {
            Ok(m) => m,
            Err(e) => return self.cannot_read(shown, &e),
        };
        let Some(id) = folder_id(path, &meta) else {
            return;
        };
        if above.contains(&id) {
            self.problems.push(unreadable(
                shown,
                "a link here leads back to a folder above it".to_owned(),
                "remove the link, or point it outside the content folder",
            ));
            return;
        }
        // A copy on Unix (device, inode); a path elsewhere.
        #[allow(clippy::clone_on_copy)]
        let first = self.seen.insert(id.clone());
        if !first {
            // Another link already led here: its files are read.
            return;
        }
        if let Some(kind) = crate::bounded::system_folder(path) {
            self.problems.push(unreadable(
                shown,
                format!("a link here leads into the system's {kind} file system"),
                "remove the link: table files never live there",
            ));
            return;
        }
        self.folders += 1;
        if self.folders > MAX_FOLDERS {
            if self.folders == MAX_FOLDERS + 1 {
                self.problems.push(unreadable(
                    self.root.display().to_string(),
                    format!("more than {MAX_FOLDERS} folders under it (links followed)"),
                    "give a folder of table files, not one that holds or links to a whole disk",
                ));
            }
            return;
        }
        let list = match std::fs::read_dir(path) {
            Ok(l) => l,
            Err(e) => return self.cannot_read(shown, &e),
        };
        let mut entries = Vec::new();
        for entry in list {
            match entry {
                Ok(e) => entries.push(e.path()),
                Err(e) => return self.cannot_read(shown, &e),
            }
        }
        entries.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
        above.push(id);
        for entry in entries {
            let toml = entry
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("toml"));
            match std::fs::metadata(&entry) {
                Ok(m) if m.is_dir() => self.folder(&entry, above),
                Ok(m) if m.is_file() && toml => match read_file(&entry, self.layer, self.root) {
                    Ok(file) => self.files.push(file),
                    Err(d) => self.problems.push(*d),
                },
                Ok(_) if toml => self.problems.push(unreadable(
                    entry.display().to_string(),
                    "it is not a regular file (a pipe, a device or a socket), so it was not read"
                        .to_owned(),
                    "move it out of the content folder; table files are plain text files",
                )),
                Ok(_) => {}
                // A dangling link, or one that cannot be followed.
                Err(e) => self.cannot_read(entry.display().to_string(), &e),
            }
        }
        above.pop();
    }

    fn cannot_read(&mut self, path: String, e: &std::io::Error) {
        self.problems.push(unreadable(
            path,
            format!("cannot read: {e}"),
            "check the permissions of this path",
        ));
    }
}

/// One table file, which must be UTF-8 text. A file behind a link that
/// leaves the content folder `dir` has its lines withheld from messages.
fn read_file(path: &Path, layer: usize, dir: &Path) -> Result<SourceFile, Box<Diagnostic>> {
    let name = path.display().to_string();
    if crate::bounded::leaves_its_folder(path, Some(dir)) {
        crate::diagnostic::withhold_lines(&name);
    }
    let bytes = crate::bounded::read_bytes(path).map_err(|e| {
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

/// Bytes of text scanned to find lines, counted in tests: finding the
/// lines of a file's places must scan it a bounded number of times.
#[cfg(any(test, feature = "scan-count"))]
pub mod scanned {
    use std::cell::Cell;

    thread_local!(static BYTES: Cell<usize> = const { Cell::new(0) });

    /// Count `n` more bytes scanned on this thread.
    pub fn add(n: usize) {
        BYTES.with(|b| b.set(b.get() + n));
    }

    /// The bytes counted on this thread so far.
    pub fn bytes() -> usize {
        BYTES.with(Cell::get)
    }
}
