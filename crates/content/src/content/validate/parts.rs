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
//! `[[table.row.<key>]]`) in a row's; quoted or spaced header keys; and a
//! table with `row` keys of its own before its `[[table.row]]`s.
//!
//! A file with problems is read in parts too, and gives the problems
//! reading it whole gives: only the first TOML syntax error; else every
//! control character and unknown key, and the first value of the wrong
//! type (after which no table is read). Problems are printed sorted by
//! place, so the order they are found in does not show.

use serde::Deserialize;
use toml::Spanned;
use toml::de::{DeTable, DeValue};
use toml_parser::Source;
use toml_parser::lexer::{Token, TokenKind};

use super::{Spot, clean, keys};
use crate::content::SourceFile;
use crate::content::schema::{FileRaw, RowRaw, TableRaw};
use crate::diagnostic::Diagnostic;

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

/// The raw tables of `file`, read in parts, with the problems reading it
/// whole would give put in `problems`; `None` when it must be read whole
/// (see the module's doc).
pub(super) fn read(
    file: &SourceFile,
    problems: &mut Vec<Diagnostic>,
) -> Option<Vec<Spanned<TableRaw>>> {
    let text = file.text.as_str();
    let sections = sections(text)?;
    // Nothing before the first `[[table]]` but blank lines and comments.
    if let Some(&(first, _)) = sections.first() {
        let before = DeTable::parse(&text[..first]).ok()?;
        if !before.get_ref().is_empty() {
            return None;
        }
    }
    let spot = Spot { file, table: None };
    let mut read = Reading::default();
    let mut i = 0;
    while i < sections.len() {
        let (start, kind) = sections[i];
        let next = part_end(&sections, i);
        let end = sections.get(next).map_or(text.len(), |&(at, _)| at);
        let rows_follow = sections.get(next).is_some_and(|&(_, k)| k == Kind::Row);
        let Some(root) = part(spot, start, end, &mut read.found) else {
            // A syntax error: reading whole stops at the first, with no
            // other problem (`read.found` holds just that one now).
            problems.append(&mut read.found);
            return Some(Vec::new());
        };
        if kind == Kind::Table && rows_follow && own_rows(root.get_ref()) {
            return None;
        }
        if read.wrong.is_none() {
            let rows_after = sections[next..]
                .iter()
                .take_while(|&&(_, k)| k == Kind::Row)
                .count();
            read.take(spot, kind, root, rows_after)?;
        }
        i = next;
    }
    // Reading whole reports every key and character problem, then the
    // first value of the wrong type (and gives no tables after it).
    problems.append(&mut read.found);
    match read.wrong {
        Some(d) => {
            problems.push(d);
            Some(Vec::new())
        }
        None => Some(read.tables),
    }
}

/// The section after the part starting at section `i`: a table's own
/// section is a part alone; a run of row sections makes one part up to
/// [`PART_BYTES`].
fn part_end(sections: &[(usize, Kind)], i: usize) -> usize {
    let (start, kind) = sections[i];
    let mut next = i + 1;
    if kind == Kind::Row {
        while next < sections.len()
            && sections[next].1 == Kind::Row
            && sections[next].0 - start < PART_BYTES
        {
            next += 1;
        }
    }
    next
}

/// What the parts read so far gave.
#[derive(Default)]
struct Reading {
    tables: Vec<Spanned<TableRaw>>,
    /// Key and character problems, in the order found.
    found: Vec<Diagnostic>,
    /// The first value of the wrong type: the tables are not read on.
    wrong: Option<Diagnostic>,
}

impl Reading {
    /// Add a part's tables or rows; `None` when the file must be read whole.
    fn take(
        &mut self,
        spot: Spot,
        kind: Kind,
        root: Spanned<DeTable<'_>>,
        rows_after: usize,
    ) -> Option<()> {
        let de = toml::de::Deserializer::from(root);
        match kind {
            Kind::Table => match FileRaw::deserialize(de) {
                Ok(mut raw) => {
                    if raw.table.len() != 1 {
                        return None;
                    }
                    // One row for each `[[table.row]]` that follows.
                    raw.table[0].get_mut().row.reserve_exact(rows_after);
                    self.tables.append(&mut raw.table);
                }
                Err(e) => self.wrong = Some(keys::wrong_type(spot, &e)),
            },
            Kind::Row => match RowsPart::deserialize(de) {
                Ok(raw) => self.tables.last_mut()?.get_mut().row.extend(raw.table.row),
                Err(e) => self.wrong = Some(keys::wrong_type(spot, &e)),
            },
        }
        Some(())
    }
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

/// The bytes `start..end` of the file parsed as TOML, with every position
/// moved to the file's, its control characters and unknown keys reported
/// (and pruned) into `found`; `None` on a syntax error, which `found` then
/// holds alone.
fn part<'a>(
    spot: Spot<'a>,
    start: usize,
    end: usize,
    found: &mut Vec<Diagnostic>,
) -> Option<Spanned<DeTable<'a>>> {
    let mut root = match DeTable::parse(&spot.file.text[start..end]) {
        Ok(root) => root,
        Err(e) => {
            *found = vec![keys::not_toml(spot, &e, start)];
            return None;
        }
    };
    for (_, value) in root.get_mut().iter_mut() {
        shift(value, start);
    }
    clean::check(spot, root.get_ref(), found);
    keys::prune_part(spot, start, root.get_mut(), found);
    Some(root)
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

    /// `text` read in parts, which must give what reading it whole gives:
    /// the same tables and the same problems (in the order they are
    /// printed); whether it was read in parts.
    fn same(name: &str, text: &str) -> bool {
        let file = SourceFile::new(name, text, 1);
        let mut problems = Vec::new();
        let whole = keys::whole(&file, &mut problems);
        let mut found = Vec::new();
        match read(&file, &mut found) {
            Some(parts) => {
                assert_eq!(format!("{parts:?}"), format!("{whole:?}"), "{name}");
                let printed = |p: &mut Vec<Diagnostic>| {
                    p.sort_by_key(|d| format!("{d:?}"));
                    format!("{p:?}")
                };
                assert_eq!(printed(&mut found), printed(&mut problems), "{name}");
                true
            }
            None => {
                assert!(found.is_empty(), "{name}: {found:?}");
                false
            }
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
        fixtures(
            std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures")),
            &mut paths,
        );
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
        ] {
            let file = SourceFile::new("t.toml", text.as_str(), 1);
            assert!(read(&file, &mut Vec::new()).is_none(), "{text}");
        }
    }

    /// A big file with problems is read in parts too (issue 32: it was read
    /// whole, 30 times its size), and every problem is the one, at the
    /// place, reading it whole gives.
    #[test]
    fn a_file_with_problems_reads_in_parts_with_the_same_problems() {
        let many = rows(300, "\n");
        let bad = |row: &str| format!("{HEAD}{many}[[table.row]]\n{row}{many}");
        let key = "weight = 1\nname = \"n\"\ntext = \"t\"\n";
        for text in [
            // TOML syntax: only the first error, as whole.
            bad("weight = \n"),
            format!("{}{HEAD}[[table.row]]\nname = \"a\n", bad("weight = \n")),
            // Unknown keys (one read as the key meant), everywhere.
            bad("wieght = 1\nname = \"n\"\ntext = \"t\"\n"),
            format!("{HEAD}colour = 1\n{}", bad(&format!("{key}shade = 2\n"))),
            // A value of the wrong type: the first, after every key problem.
            bad("weight = \"1\"\nname = \"n\"\ntext = \"t\"\n"),
            format!(
                "{}{HEAD}[[table.row]]\nweight = 1\nname = 2\ntext = \"t\"\nsize = 1\n",
                bad("weight = \"1\"\nname = \"n\"\ntext = \"t\"\n")
            ),
            format!("{}{many}{many}", HEAD.replace("title = \"A\"", "title = 3")),
            bad("weight = 1\ntext = \"t\"\n"),
            // Control characters.
            bad("weight = 1\nname = \"n\\u0007\"\ntext = \"t\\u001b\"\n"),
        ] {
            assert!(sections(&text).unwrap().len() > 600);
            assert!(same("t.toml", &text), "read whole: {text}");
            let mut problems = Vec::new();
            read(&SourceFile::new("t.toml", text.as_str(), 1), &mut problems);
            assert!(!problems.is_empty(), "{text}");
        }
    }
}
