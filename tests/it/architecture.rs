//! The house keeps its map: every top-level module of every crate (a file
//! `src/X.rs` or a folder `src/X/`, under the top crate's `src/` or a
//! library crate's `crates/*/src/`; `lib.rs`, the crate root that declares
//! them, is not one) has a row in ARCHITECTURE.md's "Modules" table, and
//! uses only the modules its "may use" cell names. The compiler keeps the
//! arrows between crates; this keeps those between modules of one crate,
//! and the table honest for all of them.
//!
//! The cell is machine-readable: backticked top-level module names
//! separated by commas, or `—` for none. A row's module is the first
//! backticked word of its first cell, without a trailing `/` or `.rs`.
//!
//! What counts as a use: every `crate::Y` in a module's code — in `use`
//! lines, grouped forms (`use crate::{a, b::c}`: `a` and `b`) and inline
//! paths (`crate::y::f()`); in `main.rs`, a binary of its own, the same
//! with `tablewright::`. `Y` is the first segment; a name re-exported at
//! the crate root (`crate::Error`) counts as the module it comes from; a
//! module of a crate below, brought in at the crate root under its own
//! name (`use tablewright_core::dice;`), is that module.
//! `super::` and `self::` stay inside a module. Comments and string
//! literals are not code. Test code is not counted: an item under
//! `#[cfg(test)]` (a `mod tests { … }` block, a test-only function) and a
//! file declared by `#[cfg(test)] mod x;` — a test may reach across the
//! house (the journey tests print a journey as the terminal does) without
//! the module depending on what it reaches.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

pub(super) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The source folders of every crate: the top crate's `src/`, then each
/// library crate's `crates/*/src/`.
pub(super) fn source_dirs() -> Vec<PathBuf> {
    let root = root();
    let mut dirs = vec![root.join("src")];
    let mut crates: Vec<PathBuf> = std::fs::read_dir(root.join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path().join("src"))
        .filter(|p| p.is_dir())
        .collect();
    crates.sort();
    dirs.extend(crates);
    dirs
}

/// The top-level modules of every crate and their files (a folder: every
/// `.rs` file in it, at any depth).
fn modules(srcs: &[PathBuf]) -> BTreeMap<String, Vec<PathBuf>> {
    let mut out = BTreeMap::new();
    for src in srcs {
        out.extend(crate_modules(src));
    }
    out
}

/// The top-level modules of one crate's `src/`.
fn crate_modules(src: &Path) -> BTreeMap<String, Vec<PathBuf>> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            let mut files = Vec::new();
            rust_files(&path, &mut files);
            out.insert(name, files);
        } else if path.extension().is_some_and(|e| e == "rs") && name != "lib" {
            out.insert(name, vec![path]);
        }
    }
    out
}

pub(super) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A row of the Modules table: its module and what it may use.
struct Row {
    module: String,
    may_use: BTreeSet<String>,
}

/// The rows of ARCHITECTURE.md's "## Modules" table, or what is wrong
/// with a row's format.
fn table(text: &str) -> Result<Vec<Row>, String> {
    let section = text
        .split("\n## ")
        .find(|s| s.starts_with("Modules"))
        .ok_or("ARCHITECTURE.md has no `## Modules` section")?;
    let mut rows = Vec::new();
    for (n, line) in section
        .lines()
        .filter(|l| l.starts_with('|'))
        .enumerate()
        .skip(2)
    {
        let cells: Vec<&str> = line.trim().trim_matches('|').split('|').collect();
        let first = cells[0];
        let module = first
            .split('`')
            .nth(1)
            .ok_or(format!(
                "Modules table row {}: no backticked module in `{first}`",
                n - 1
            ))?
            .trim_end_matches('/')
            .trim_end_matches(".rs")
            .to_string();
        let cell = cells.last().unwrap().trim();
        let may_use = if cell == "—" {
            BTreeSet::new()
        } else {
            cell.split(',')
                .map(|name| {
                    let name = name.trim();
                    name.strip_prefix('`')
                        .and_then(|n| n.strip_suffix('`'))
                        .filter(|n| {
                            !n.is_empty()
                                && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                        })
                        .map(str::to_string)
                        .ok_or(format!(
                            "Modules table, row `{module}`: the \"may use\" cell `{cell}` is not \
                             backticked module names separated by commas, or `—` (at `{name}`)"
                        ))
                })
                .collect::<Result<_, _>>()?
        };
        rows.push(Row { module, may_use });
    }
    Ok(rows)
}

/// `text` with comments, string literals and character literals blanked
/// out byte for byte (newlines kept), so offsets and lines still match.
pub(super) fn code_only(text: &str) -> Vec<u8> {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to.min(b.len())] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            let end = rest
                .iter()
                .position(|&c| c == b'\n')
                .map_or(b.len(), |p| i + p);
            blank(&mut out, i, end);
            i = end;
        } else if rest.starts_with(b"/*") {
            let (mut depth, mut j) = (1, i + 2);
            while j < b.len() && depth > 0 {
                if b[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if b[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            blank(&mut out, i, j);
            i = j;
        } else if (rest.starts_with(b"r\"") || rest.starts_with(b"r#") || rest.starts_with(b"br"))
            && !(i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
            && raw_string_len(&rest[usize::from(rest[0] == b'b')..]).is_some()
        {
            let skip = usize::from(rest[0] == b'b');
            let len = skip + raw_string_len(&rest[skip..]).unwrap();
            blank(&mut out, i + 1, i + len);
            i += len;
        } else if rest[0] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            blank(&mut out, i + 1, j);
            i = j + 1;
        } else if rest[0] == b'\'' {
            // A character literal ('x', '\n', '\u{1F}'), not a lifetime.
            let len = if rest.get(1) == Some(&b'\\') {
                rest[2..].iter().position(|&c| c == b'\'').map(|p| p + 3)
            } else {
                text[i + 1..]
                    .chars()
                    .next()
                    .map(char::len_utf8)
                    .filter(|n| rest.get(n + 1) == Some(&b'\''))
                    .map(|n| n + 2)
            };
            match len {
                Some(len) => {
                    blank(&mut out, i + 1, i + len - 1);
                    i += len;
                }
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The length of a raw string literal `r#…"…"#…` at the start of `s`.
fn raw_string_len(s: &[u8]) -> Option<usize> {
    let hashes = s[1..].iter().take_while(|&&c| c == b'#').count();
    if s.get(1 + hashes) != Some(&b'"') {
        return None;
    }
    let close: Vec<u8> = std::iter::once(b'"')
        .chain(std::iter::repeat_n(b'#', hashes))
        .collect();
    let body = 2 + hashes;
    s[body..]
        .windows(close.len())
        .position(|w| w == close.as_slice())
        .map(|p| body + p + close.len())
}

/// Blank out every item under `#[cfg(test)]` in `code`; the names of the
/// test-only modules declared as files (`#[cfg(test)] mod x;`).
pub(super) fn without_tests(code: &mut [u8]) -> Vec<String> {
    const ATTR: &[u8] = b"#[cfg(test)]";
    let mut files = Vec::new();
    let mut i = 0;
    while let Some(p) = code[i..].windows(ATTR.len()).position(|w| w == ATTR) {
        let start = i + p;
        let mut j = start + ATTR.len();
        let mut depth = 0i32;
        while j < code.len() {
            match code[j] {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' => depth -= 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        j += 1;
                        break;
                    }
                }
                b';' if depth == 0 => {
                    j += 1;
                    break;
                }
                _ => {}
            }
            j += 1;
        }
        let item = String::from_utf8_lossy(&code[start + ATTR.len()..j]).into_owned();
        let words: Vec<&str> = item
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ';'))
            .filter(|w| !w.is_empty())
            .collect();
        if let Some(k) = words.iter().position(|w| *w == "mod")
            && let Some(name) = words.get(k + 1).and_then(|w| w.strip_suffix(';'))
        {
            files.push(name.to_string());
        }
        for c in &mut code[start..j] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
        i = j;
    }
    files
}

/// Where the files of `name`, a module declared in `file`, live.
pub(super) fn module_files(file: &Path, name: &str) -> [PathBuf; 2] {
    let stem = file.file_stem().unwrap();
    let dir = if ["mod", "main", "lib"].contains(&stem.to_str().unwrap()) {
        file.parent().unwrap().to_owned()
    } else {
        file.parent().unwrap().join(stem)
    };
    [dir.join(format!("{name}.rs")), dir.join(name)]
}

/// Every `PREFIX::Y` in `code`: the first segment `Y` of each path (each
/// path of a group `PREFIX::{a, b::c}`) and the line it is on.
fn uses(code: &[u8], prefix: &str) -> Vec<(String, usize)> {
    let needle = format!("{prefix}::");
    let needle = needle.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let line = |at: usize| code[..at].iter().filter(|&&c| c == b'\n').count() + 1;
    let word = |from: usize| {
        let from = from
            + code[from..]
                .iter()
                .take_while(|c| c.is_ascii_whitespace())
                .count();
        let len = code[from..].iter().take_while(|&&c| ident(c)).count();
        String::from_utf8_lossy(&code[from..from + len]).into_owned()
    };
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(p) = code[i..].windows(needle.len()).position(|w| w == needle) {
        let at = i + p;
        i = at + needle.len();
        if at > 0 && ident(code[at - 1]) {
            continue;
        }
        if code.get(i) == Some(&b'{') {
            // Each item of the group at its first level.
            let (mut depth, mut j, mut item) = (1, i + 1, i + 1);
            while j < code.len() && depth > 0 {
                match code[j] {
                    b'{' => depth += 1,
                    b'}' => depth -= 1,
                    b',' if depth == 1 => {
                        out.push((word(item), line(item)));
                        item = j + 1;
                    }
                    _ => {}
                }
                j += 1;
            }
            out.push((word(item), line(item)));
        } else {
            out.push((word(i), line(i)));
        }
    }
    out.retain(|(w, _)| !w.is_empty());
    out
}

/// Names re-exported at the crate root (`pub use error::Error;` in
/// lib.rs): name → the module it comes from.
fn reexports(lib: &str) -> BTreeMap<String, String> {
    lib.lines()
        .filter_map(|l| l.trim().strip_prefix("pub use "))
        // A module of a crate below keeps its own name.
        .filter(|path| !path.starts_with("tablewright_"))
        .filter_map(|path| {
            let path = path.trim_end_matches(';');
            let module = path.split("::").next()?;
            let name = path.rsplit("::").next()?.rsplit(" as ").next()?;
            Some((name.trim().to_string(), module.trim().to_string()))
        })
        .collect()
}

/// Every way the code and the Modules table disagree.
fn disagreements() -> Vec<String> {
    let root = root();
    let srcs = source_dirs();
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let rows = match table(&text) {
        Ok(rows) => rows,
        Err(e) => return vec![e],
    };
    let modules = modules(&srcs);
    let reexports = reexports(&std::fs::read_to_string(root.join("src/lib.rs")).unwrap());
    let mut wrong = Vec::new();
    let allowed: BTreeMap<&str, &BTreeSet<String>> = rows
        .iter()
        .map(|r| (r.module.as_str(), &r.may_use))
        .collect();
    for row in &rows {
        if !modules.contains_key(&row.module) {
            wrong.push(format!(
                "ARCHITECTURE.md: the Modules table has a row for `{}`, but there is no \
                 src/{0}.rs or src/{0}/ in any crate: remove the row",
                row.module
            ));
        }
        for name in row.may_use.iter().filter(|n| !modules.contains_key(*n)) {
            wrong.push(format!(
                "ARCHITECTURE.md: row `{}` may use `{name}`, which is no module of any crate",
                row.module
            ));
        }
    }
    for (module, files) in &modules {
        let Some(may_use) = allowed.get(module.as_str()) else {
            let place = files.first().map_or_else(
                || format!("src/{module}"),
                |f| f.strip_prefix(&root).unwrap().display().to_string(),
            );
            wrong.push(format!(
                "{place}: the module `{module}` has no row in ARCHITECTURE.md's Modules \
                 table: add a row (what it owns, which modules it may use)"
            ));
            continue;
        };
        let prefix = if module == "main" {
            "tablewright"
        } else {
            "crate"
        };
        let mut test_files: Vec<PathBuf> = Vec::new();
        let mut scanned = Vec::new();
        for file in files {
            let mut code = code_only(&std::fs::read_to_string(file).unwrap());
            for name in without_tests(&mut code) {
                test_files.extend(module_files(file, &name));
            }
            scanned.push((file, code));
        }
        for (file, code) in scanned {
            if test_files.iter().any(|t| file.starts_with(t)) {
                continue;
            }
            for (name, line) in uses(&code, prefix) {
                let used = reexports.get(&name).unwrap_or(&name);
                if used == module || may_use.contains(used) {
                    continue;
                }
                let allowed = if may_use.is_empty() {
                    "—".to_string()
                } else {
                    may_use
                        .iter()
                        .map(|m| format!("`{m}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let what = if modules.contains_key(used) {
                    format!(
                        "`{module}` uses `{used}`, which its row in ARCHITECTURE.md's Modules \
                         table does not allow (may use: {allowed})"
                    )
                } else {
                    format!("`{prefix}::{name}` is no top-level module")
                };
                wrong.push(format!(
                    "{}:{line}: {what}",
                    file.strip_prefix(&root).unwrap().display()
                ));
            }
        }
    }
    wrong
}

#[test]
fn every_module_uses_only_what_architecture_md_allows() {
    let wrong = disagreements();
    assert!(
        wrong.is_empty(),
        "the code and ARCHITECTURE.md's Modules table disagree:\n  {}",
        wrong.join("\n  ")
    );
}

#[test]
fn uses_are_read_from_use_lines_groups_and_inline_paths() {
    let text = "use crate::a::B;\nuse crate::{c, d::{E, F}};\n// crate::comment\n\
                fn f() { crate::g::h(\"crate::string\"); super::i(); }\n\
                #[cfg(test)]\nmod tests { use crate::t; }\n#[cfg(test)]\nmod more;\n\
                pub(crate) use x::y;\nlet c = '{';\n";
    let mut code = code_only(text);
    assert_eq!(code.len(), text.len());
    assert_eq!(without_tests(&mut code), ["more"]);
    let found: Vec<(String, usize)> = uses(&code, "crate");
    let found: Vec<(&str, usize)> = found.iter().map(|(n, l)| (n.as_str(), *l)).collect();
    assert_eq!(found, [("a", 1), ("c", 2), ("d", 2), ("g", 4)]);
}
