//! A table file read in parts (issue 32): its `[[table]]` sections and
//! runs of its `[[table.row]]` sections, a few dozen kilobytes at a time,
//! each parsed as TOML on its own and its positions moved to the file's.
//! The TOML reader holds every token, every parser event and the whole
//! document tree of what it reads at once — about 30 bytes for each byte
//! of a 100,000-row file — so read whole, a big file costs many times its
//! size; read in parts, only one part's worth.
//!
//! Reading in parts gives what reading the whole file gives. Where the two
//! could differ, the file is read whole: keys before the first
//! `[[table]]`; a header other than `[[table]]`, `[[table.row]]`,
//! `[table.region]` in a table's own section or `[table.row.<key>]` (or
//! `[[table.row.<key>]]`) in a row's; quoted or spaced header keys; a table
//! with `row` keys of its own before its `[[table.row]]`s; and any problem
//! at all (TOML syntax, a control character, an unknown key, a wrong
//! type), so that every message is the one the whole file gives.

use serde::Deserialize;
use toml::Spanned;
use toml::de::{DeTable, DeValue};
use toml_parser::Source;
use toml_parser::lexer::{Token, TokenKind};

use super::{Spot, clean, keys};
use crate::content::SourceFile;
use crate::content::schema::{FileRaw, RowRaw, TableRaw};

/// A run of row sections is read as one part once it holds this many
/// bytes (a part's TOML tokens, events and tree take ~30× its bytes).
const PART_BYTES: usize = 32 << 10;

/// What a section of the file is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// `[[table]]` and what follows it up to the next section.
    Table,
    /// `[[table.row]]` and what follows it up to the next section.
    Row,
}

/// The raw tables of `file`, read in parts; `None` when it must be read
/// whole (see the module's doc).
pub(super) fn read(file: &SourceFile) -> Option<Vec<Spanned<TableRaw>>> {
    let text = file.text.as_str();
    let sections = sections(text)?;
    // Nothing before the first `[[table]]` but blank lines and comments.
    if let Some(&(first, _)) = sections.first() {
        let before = DeTable::parse(&text[..first]).ok()?;
        if !before.get_ref().is_empty() {
            return None;
        }
    }
    let mut tables: Vec<Spanned<TableRaw>> = Vec::new();
    let mut i = 0;
    while i < sections.len() {
        let (start, kind) = sections[i];
        // A table's own section alone; a run of row sections up to
        // PART_BYTES together.
        let mut next = i + 1;
        if kind == Kind::Row {
            while next < sections.len()
                && sections[next].1 == Kind::Row
                && sections[next].0 - start < PART_BYTES
            {
                next += 1;
            }
        }
        let end = sections.get(next).map_or(text.len(), |&(at, _)| at);
        let rows_follow = sections.get(next).is_some_and(|&(_, k)| k == Kind::Row);
        let root = part(file, start, end)?;
        match kind {
            Kind::Table => {
                if rows_follow && own_rows(root.get_ref()) {
                    return None;
                }
                let mut raw = FileRaw::deserialize(toml::de::Deserializer::from(root)).ok()?;
                if raw.table.len() != 1 {
                    return None;
                }
                // One row for each `[[table.row]]` that follows.
                let rows = sections[next..]
                    .iter()
                    .take_while(|&&(_, k)| k == Kind::Row)
                    .count();
                raw.table[0].get_mut().row.reserve_exact(rows);
                tables.append(&mut raw.table);
            }
            Kind::Row => {
                let raw = RowsPart::deserialize(toml::de::Deserializer::from(root)).ok()?;
                let table = tables.last_mut()?;
                table.get_mut().row.extend(raw.table.row);
            }
        }
        i = next;
    }
    Some(tables)
}

/// A run of `[[table.row]]` sections read on its own.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RowsPart {
    table: RowsOf,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RowsOf {
    row: Vec<Spanned<RowRaw>>,
}

/// The bytes `start..end` of `file` parsed as TOML, with every position
/// moved to the file's, its control characters and unknown keys looked
/// for; `None` on any problem.
fn part(file: &SourceFile, start: usize, end: usize) -> Option<Spanned<DeTable<'_>>> {
    let mut root = DeTable::parse(&file.text[start..end]).ok()?;
    for (_, value) in root.get_mut().iter_mut() {
        shift(value, start);
    }
    let spot = Spot { file, table: None };
    let mut problems = Vec::new();
    clean::check(spot, root.get_ref(), &mut problems);
    keys::prune_part(spot, root.get_mut(), &mut problems);
    problems.is_empty().then_some(root)
}

/// Whether the table of a `[[table]]` section has a `row` key of its own
/// (written in the section, not by `[[table.row]]`).
fn own_rows(root: &DeTable) -> bool {
    match root.get("table").map(Spanned::get_ref) {
        Some(DeValue::Array(tables)) => tables.iter().any(|t| match t.get_ref() {
            DeValue::Table(t) => t.contains_key("row"),
            _ => true,
        }),
        _ => true,
    }
}

/// `value` and everything in it moved `by` bytes on.
fn shift(value: &mut Spanned<DeValue<'_>>, by: usize) {
    let span = value.span();
    let inner = std::mem::replace(value.get_mut(), DeValue::Boolean(false));
    *value = Spanned::new(span.start + by..span.end + by, inner);
    match value.get_mut() {
        DeValue::Table(table) => {
            for (_, v) in table.iter_mut() {
                shift(v, by);
            }
        }
        DeValue::Array(items) => {
            for v in items.iter_mut() {
                shift(v, by);
            }
        }
        _ => {}
    }
}

/// Where each section of `text` starts, and what it is; `None` when the
/// file must be read whole.
fn sections(text: &str) -> Option<Vec<(usize, Kind)>> {
    let mut out = Vec::new();
    let mut current: Option<Kind> = None;
    let mut tokens = Source::new(text).lex();
    let mut line_start = true;
    // Brackets and braces open in the current value.
    let mut depth = 0usize;
    while let Some(token) = tokens.next() {
        match token.kind() {
            TokenKind::Eof => break,
            TokenKind::Newline => {
                line_start |= depth == 0;
                continue;
            }
            TokenKind::Whitespace | TokenKind::Comment => continue,
            _ => {}
        }
        if line_start {
            line_start = false;
            if token.kind() == TokenKind::LeftSquareBracket {
                let (array, path) = header(text, token, &mut tokens)?;
                let path: Vec<&str> = path.iter().map(|s| s.as_str()).collect();
                match (array, path.as_slice(), current) {
                    (true, ["table"], _) => {
                        out.push((token.span().start(), Kind::Table));
                        current = Some(Kind::Table);
                    }
                    (true, ["table", "row"], Some(_)) => {
                        out.push((token.span().start(), Kind::Row));
                        current = Some(Kind::Row);
                    }
                    (false, ["table", "region"], Some(Kind::Table)) => {}
                    (_, ["table", "row", _, ..], Some(Kind::Row)) => {}
                    _ => return None,
                }
                line_start = true;
                continue;
            }
            // A key before the first `[[table]]`.
            current?;
        }
        match token.kind() {
            TokenKind::LeftSquareBracket | TokenKind::LeftCurlyBracket => depth += 1,
            TokenKind::RightSquareBracket | TokenKind::RightCurlyBracket => {
                depth = depth.checked_sub(1)?;
            }
            _ => {}
        }
    }
    Some(out)
}

/// A header line, from its first `[` to the end of the line: whether it
/// is an array of tables (`[[…]]`) and its bare keys; `None` for anything
/// else (quoted keys, a value after it).
fn header(
    text: &str,
    open: Token,
    tokens: &mut impl Iterator<Item = Token>,
) -> Option<(bool, Vec<String>)> {
    let mut next = tokens.next()?;
    let array =
        next.kind() == TokenKind::LeftSquareBracket && next.span().start() == open.span().end();
    if array {
        next = tokens.next()?;
    }
    let mut path = Vec::new();
    let mut want_key = true;
    let mut close = loop {
        match next.kind() {
            TokenKind::Whitespace => {}
            TokenKind::Atom if want_key => {
                path.push(text[next.span().start()..next.span().end()].to_owned());
                want_key = false;
            }
            TokenKind::Dot if !want_key => want_key = true,
            TokenKind::RightSquareBracket if !want_key => break next,
            _ => return None,
        }
        next = tokens.next()?;
    };
    if array {
        let second = tokens.next()?;
        if second.kind() != TokenKind::RightSquareBracket
            || second.span().start() != close.span().end()
        {
            return None;
        }
        close = second;
    }
    let _ = close;
    // Only blanks and a comment after it on its line.
    loop {
        match tokens.next()?.kind() {
            TokenKind::Whitespace | TokenKind::Comment => {}
            TokenKind::Newline | TokenKind::Eof => return Some((array, path)),
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::builtin_files;

    /// `text` read in parts, which must give what reading it whole gives.
    fn same(name: &str, text: &str) -> bool {
        let file = SourceFile::new(name, text, 1);
        let mut problems = Vec::new();
        let whole = keys::whole(&file, &mut problems);
        match read(&file) {
            Some(parts) => {
                assert!(problems.is_empty(), "{name}: {problems:?}");
                assert_eq!(format!("{parts:?}"), format!("{whole:?}"), "{name}");
                true
            }
            None => false,
        }
    }

    fn fixtures(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                fixtures(&path, out);
            } else if path.extension().is_some_and(|e| e == "toml") {
                out.push(path);
            }
        }
    }

    #[test]
    fn every_table_file_reads_in_parts_as_whole() {
        for file in builtin_files() {
            assert!(same(&file.name, &file.text), "{} is read whole", file.name);
        }
        // The fixtures: table files good and bad, and other TOML files.
        let mut read_in_parts = 0;
        let mut paths = Vec::new();
        fixtures(std::path::Path::new("tests/fixtures"), &mut paths);
        for path in paths {
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            if same(&path.display().to_string(), &text) {
                read_in_parts += 1;
            }
        }
        assert!(read_in_parts >= 10, "{read_in_parts}");
    }

    const HEAD: &str = "[[table]]\nid = \"t.a\"\ntitle = \"A\"\nsystem = \"any\"\nsource = \"s\"\n";

    /// `n` rows, each with an effect and stats written as sub-headers.
    fn rows(n: usize, newline: &str) -> String {
        let mut s = String::new();
        for i in 0..n {
            s.push_str(&format!(
                "# row {i}\n  [[table.row]]  # a comment\nweight = {}\nname = \"R{i}\"\ntext = \"\"\"Row\n{i} [[table.row]]\"\"\"\ntags = [\n  \"a\",\n  \"b\",\n]\n[[table.row.effects]]\nability = \"STR\"\n[table.row.stats]\nSTR = \"d6\"\n",
                1 + i % 3
            ));
        }
        s.replace('\n', newline)
    }

    #[test]
    fn a_big_file_reads_in_many_parts_as_whole() {
        for newline in ["\n", "\r\n"] {
            let text = format!(
                "# tables\n\n{HEAD}[table.region]\ndanger = 2\n{}{HEAD}{}",
                rows(2_000, newline),
                rows(3, newline)
            );
            assert!(sections(&text).unwrap().len() > 2_000);
            assert!(same("big.toml", &text));
        }
    }

    #[test]
    fn what_could_read_otherwise_in_parts_is_read_whole() {
        let row = rows(1, "\n");
        for text in [
            // A key before the first table.
            format!("version = 1\n{HEAD}{row}"),
            // Rows of the table's own, then [[table.row]].
            format!("{HEAD}row = []\n{row}"),
            format!("{HEAD}row.x = 1\n{row}"),
            // Headers that could mean something across parts.
            format!("{HEAD}{row}[table]\n"),
            format!("{HEAD}{row}[table.region]\ndanger = 1\n"),
            format!("{HEAD}[table.row.stats]\n{row}"),
            format!("{HEAD}[[\"table\".row]]\n{row}"),
            format!("{HEAD}{row}[other]\n"),
            // Problems: every message comes from the whole file.
            format!("{HEAD}{row}[[table.row]]\nweight = \n"),
            format!("{HEAD}{row}[[table.row]]\nwieght = 1\nname = \"n\"\ntext = \"t\"\n"),
            format!("{HEAD}{row}[[table.row]]\nweight = \"1\"\nname = \"n\"\ntext = \"t\"\n"),
            format!("{HEAD}{row}[[table.row]]\nweight = 1\nname = \"n\\u0007\"\ntext = \"t\"\n"),
        ] {
            let file = SourceFile::new("t.toml", text.as_str(), 1);
            assert!(read(&file).is_none(), "{text}");
        }
    }
}
