//! Tables pasted from a book or a page: Markdown (`| d12 | result |`, the
//! first table of the file, under a heading that names it) or CSV (comma,
//! semicolon or tab separated, quotes as spreadsheets write them). One
//! column is the die — headed by the dice (`d12`, `2d6`, `dice: 1d20`) or
//! holding `1`, `2-3`, `01-05`, `00` (100) — or the weight (headed
//! `weight`); of the other columns, one is the text, two or more are the
//! name and the text. A result written `**Name.** text` (as `export
//! --format gfm` writes it) gives the row its name. Cells are read as
//! tablewright's inline notation when they parse as it, else as words.

use std::collections::BTreeMap;

use super::{Draft, DraftRow, derived_name};
use crate::content::System;
use crate::content::template;
use crate::diagnostic::Diagnostic;

/// A table's cells: the header, then rows, each with its line.
struct Grid {
    title: Option<String>,
    header: (usize, Vec<String>),
    rows: Vec<(usize, Vec<String>)>,
    more_tables: usize,
}

/// Read a pasted table. `csv`: the file is CSV (else Markdown). `stem`
/// names the table when nothing else does.
pub fn read(
    text: &str,
    csv: bool,
    file: &str,
    stem: &str,
    counts: &mut BTreeMap<&'static str, usize>,
) -> Result<Draft, Vec<Diagnostic>> {
    let grid = if csv {
        csv_grid(text, file)?
    } else {
        markdown_grid(text, file)?
    };
    if grid.more_tables > 0 {
        *counts
            .entry("further tables in the file → not read (one table a file)")
            .or_default() += grid.more_tables;
    }
    draft(grid, file, stem, counts)
}

fn one(file: &str, line: usize, message: impl Into<String>, hint: &str) -> Vec<Diagnostic> {
    vec![Diagnostic::at(file, line, 1, message).with_hint(hint)]
}

/// Cells of a Markdown table row: split on `|` not escaped, trimmed,
/// a backslash-escaped ASCII punctuation character (`\|`, `\<`, `\*`)
/// read as itself, and `<br>` (not escaped) as a line break.
fn md_cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|');
    let inner = inner
        .strip_suffix('|')
        .filter(|s| !s.ends_with('\\'))
        .unwrap_or(inner);
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(n) if n.is_ascii_punctuation() => cell.push(n),
                Some(n) => {
                    cell.push('\\');
                    cell.push(n);
                }
                None => cell.push('\\'),
            },
            '|' => cells.push(std::mem::take(&mut cell)),
            '<' => {
                let rest = chars.as_str();
                match ["br>", "br/>"].iter().find(|b| rest.starts_with(**b)) {
                    Some(b) => {
                        cell.push('\n');
                        chars = rest[b.len()..].chars();
                    }
                    None => cell.push('<'),
                }
            }
            c => cell.push(c),
        }
    }
    cells.push(cell);
    cells.into_iter().map(|c| c.trim().to_owned()).collect()
}

fn is_separator(line: &str) -> bool {
    let t = line.trim();
    t.contains('-') && t.chars().all(|c| "|-: ".contains(c))
}

fn markdown_grid(text: &str, file: &str) -> Result<Grid, Vec<Diagnostic>> {
    let lines: Vec<&str> = text.lines().collect();
    let is_row = |l: &str| l.trim_start().starts_with('|');
    let start = (0..lines.len().saturating_sub(1))
        .find(|&i| is_row(lines[i]) && is_separator(lines[i + 1]))
        .ok_or_else(|| {
            one(file, 1, "no Markdown table here (a header row, then `| --- | --- |`)",
                "paste the table with its header and separator lines, e.g. `| d6 | result |` then `| --- | --- |`")
        })?;
    let title = lines[..start]
        .iter()
        .rev()
        .find_map(|l| {
            l.trim()
                .strip_prefix('#')
                .map(|h| h.trim_start_matches('#').trim().to_owned())
        })
        .filter(|t| !t.is_empty());
    let mut rows = Vec::new();
    let mut i = start + 2;
    while i < lines.len() && is_row(lines[i]) {
        rows.push((i + 1, md_cells(lines[i])));
        i += 1;
    }
    let more_tables = (i..lines.len().saturating_sub(1))
        .filter(|&j| is_row(lines[j]) && is_separator(lines[j + 1]))
        .count();
    Ok(Grid {
        title,
        header: (start + 1, md_cells(lines[start])),
        rows,
        more_tables,
    })
}

/// CSV records with the line each starts on (quoted fields may hold the
/// separator, doubled quotes and line breaks).
fn csv_records(text: &str, sep: char) -> Result<Vec<(usize, Vec<String>)>, usize> {
    let mut records = Vec::new();
    let (mut line, mut start_line) = (1, 1);
    let mut field = String::new();
    let mut record = Vec::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (false, '"') if field.trim().is_empty() => {
                field.clear();
                quoted = true;
            }
            (false, c) if c == sep => record.push(std::mem::take(&mut field)),
            (false, '\r') => {}
            (false, '\n') => {
                record.push(std::mem::take(&mut field));
                if record.iter().any(|f| !f.trim().is_empty()) {
                    records.push((start_line, std::mem::take(&mut record)));
                }
                record.clear();
                line += 1;
                start_line = line;
            }
            (_, c) => {
                if c == '\n' {
                    line += 1;
                }
                field.push(c);
            }
        }
    }
    if quoted {
        return Err(start_line);
    }
    record.push(field);
    if record.iter().any(|f| !f.trim().is_empty()) {
        records.push((start_line, record));
    }
    Ok(records)
}

fn csv_grid(text: &str, file: &str) -> Result<Grid, Vec<Diagnostic>> {
    let first = text.lines().next().unwrap_or("");
    let sep = [',', ';', '\t']
        .into_iter()
        .max_by_key(|s| first.matches(*s).count())
        .unwrap_or(',');
    let mut records = csv_records(text, sep).map_err(|line| {
        one(
            file,
            line,
            "a quoted field that is never closed",
            "close the quotes, or write a quote inside a field as \"\"",
        )
    })?;
    if records.is_empty() {
        return Err(one(
            file,
            1,
            "the file holds no rows",
            "a header line, then one line a row",
        ));
    }
    let header = records.remove(0);
    Ok(Grid {
        title: None,
        header: (
            header.0,
            header.1.into_iter().map(|c| c.trim().to_owned()).collect(),
        ),
        rows: records
            .into_iter()
            .map(|(l, r)| (l, r.into_iter().map(|c| c.trim().to_owned()).collect()))
            .collect(),
        more_tables: 0,
    })
}

/// A die cell: `3`, `2-3`, `01-05`, `00`, `96-00`, with `–`/`—` too.
fn range_cell(cell: &str) -> Option<(i64, i64)> {
    let num = |s: &str| -> Option<i64> {
        let s = s.trim();
        if s.is_empty() || !s.chars().all(|c| c.is_ascii_digit()) || s.len() > 6 {
            return None;
        }
        if s.len() >= 2 && s.chars().all(|c| c == '0') {
            return Some(100);
        }
        s.parse().ok()
    };
    let c = cell.trim().replace(['–', '—'], "-");
    match c.split_once('-') {
        Some((a, b)) => Some((num(a)?, num(b)?)),
        None => num(&c).map(|v| (v, v)),
    }
}

/// The dice a header names (`d12`, `1d20`, `dice: 2d6`, `d%`).
fn header_dice(h: &str) -> Option<String> {
    let h = h.trim();
    let h = h.strip_prefix("dice:").map(str::trim).unwrap_or(h);
    let h = h.replace("d%", "d100");
    (h.contains(['d', 'D']) && crate::dice::parse(&h).is_ok()).then_some(h)
}

enum Column {
    Die(usize, Option<String>),
    Weight(usize),
}

fn key_column(grid: &Grid) -> Option<Column> {
    let header = &grid.header.1;
    if let Some((i, d)) = header
        .iter()
        .enumerate()
        .find_map(|(i, h)| header_dice(h).map(|d| (i, d)))
    {
        return Some(Column::Die(i, Some(d)));
    }
    if let Some(i) = header.iter().position(|h| h.eq_ignore_ascii_case("weight")) {
        return Some(Column::Weight(i));
    }
    let all_ranges = |i: usize| {
        !grid.rows.is_empty()
            && grid
                .rows
                .iter()
                .all(|(_, r)| r.get(i).is_some_and(|c| range_cell(c).is_some()))
    };
    (0..header.len())
        .find(|&i| all_ranges(i))
        .map(|i| Column::Die(i, None))
}

/// `**Name.** text` as a name and a text.
fn named(cell: &str) -> Option<(String, String)> {
    let rest = cell.strip_prefix("**")?;
    let end = rest.find("**")?;
    let name = rest[..end].trim();
    let name = name.strip_suffix('.').unwrap_or(name).trim();
    let text = rest[end + 2..].trim();
    (!name.is_empty() && !text.is_empty()).then(|| (name.to_owned(), text.to_owned()))
}

/// A cell as a row's text: tablewright's notation when it reads as it,
/// else words (braces doubled).
fn as_text(cell: &str, counts: &mut BTreeMap<&'static str, usize>) -> String {
    if template::parse(cell).is_ok() {
        return cell.to_owned();
    }
    *counts
        .entry("braces that are not tablewright's notation → kept as words")
        .or_default() += 1;
    cell.replace('{', "{{").replace('}', "}}")
}

fn draft(
    grid: Grid,
    file: &str,
    stem: &str,
    counts: &mut BTreeMap<&'static str, usize>,
) -> Result<Draft, Vec<Diagnostic>> {
    let head_line = grid.header.0;
    let (key, others) = columns(&grid, file)?;
    let mut rows = Vec::new();
    let mut problems = Vec::new();
    for (line, cells) in &grid.rows {
        match draft_row(&key, &others, cells, file, *line, counts) {
            Ok(row) => rows.push(row),
            Err(problem) => problems.push(*problem),
        }
    }
    if rows.is_empty() && problems.is_empty() {
        problems.push(
            Diagnostic::at(file, head_line, 1, "the table has a header but no rows")
                .with_hint("one line a row under the header"),
        );
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let dice = dice_of(&key, &rows, file, head_line)?;
    let title = grid.title.unwrap_or_else(|| stem.to_owned());
    let draft = Draft {
        id: format!("imported.{}", super::draft::slug(&title)),
        title,
        system: System::Any,
        source: format!("imported from {}", file),
        dice,
        notes: None,
        deck: false,
        text_only: false,
        region: None,
        rows,
    };
    let problems = draft.check_rows(file);
    if problems.is_empty() {
        Ok(draft)
    } else {
        Err(problems)
    }
}

/// The key column (die or weight) and the columns of text beside it.
fn columns(grid: &Grid, file: &str) -> Result<(Column, Vec<usize>), Vec<Diagnostic>> {
    let (head_line, header) = &grid.header;
    let key = key_column(grid).ok_or_else(|| {
        one(file, *head_line, format!("no die column and no weight column in the header `{}`", header.join(" | ")),
            "head the die column with the dice (`d12`, `2d6`) and write each row's roll as `1`, `2-3` or `01-05`, or head a column `weight`")
    })?;
    let key_at = match key {
        Column::Die(i, _) | Column::Weight(i) => i,
    };
    let others: Vec<usize> = (0..header.len()).filter(|&i| i != key_at).collect();
    if others.is_empty() {
        return Err(one(
            file,
            *head_line,
            "the table has no column for the results",
            "add a column with each row's text",
        ));
    }
    Ok((key, others))
}

/// One row of the grid as a draft row, or the problem with it.
fn draft_row(
    key: &Column,
    others: &[usize],
    cells: &[String],
    file: &str,
    line: usize,
    counts: &mut BTreeMap<&'static str, usize>,
) -> Result<DraftRow, Box<Diagnostic>> {
    let cell = |i: usize| {
        cells
            .get(i)
            .map(String::as_str)
            .unwrap_or("")
            .trim()
            .to_owned()
    };
    let keyed = match key {
        Column::Die(i, _) | Column::Weight(i) => cell(*i),
    };
    let (range, weight) = roll_or_weight(key, &keyed, file, line)?;
    let texts: Vec<String> = others.iter().map(|&i| cell(i)).collect();
    let (name, text) = name_and_text(&texts, &keyed);
    if text.is_empty() {
        let problem = Diagnostic::at(file, line, 1, format!("the row `{keyed}` has no text"));
        return Err(Box::new(
            problem.with_hint("write what the row says in its result column"),
        ));
    }
    Ok(DraftRow::plain(
        range,
        weight,
        name.replace(['{', '}'], ""),
        as_text(&text, counts),
        line,
    ))
}

/// A row's roll (die column) or weight.
type Keyed = (Option<(i64, i64)>, Option<u64>);

/// A row's key cell read as a roll (die column) or a weight.
fn roll_or_weight(
    key: &Column,
    keyed: &str,
    file: &str,
    line: usize,
) -> Result<Keyed, Box<Diagnostic>> {
    match key {
        Column::Die(..) => match range_cell(keyed) {
            Some((a, b)) if a <= b => Ok((Some((a, b)), None)),
            _ => Err(Box::new(
                Diagnostic::at(
                    file,
                    line,
                    1,
                    format!("`{keyed}` is not a roll: write `3`, `2-3`, `01-05` or `00`"),
                )
                .with_hint("each row's roll is one number or a range, low to high"),
            )),
        },
        // A table's weights add up to 2^53 at most (the odds stay exact).
        Column::Weight(_) => match keyed.parse::<u64>() {
            Ok(w) if w > 0 && w <= 1 << 53 => Ok((None, Some(w))),
            _ => Err(Box::new(
                Diagnostic::at(
                    file,
                    line,
                    1,
                    format!(
                        "`{keyed}` is not a weight: write a whole number from 1 to 2^53 \
                         (9007199254740992)"
                    ),
                )
                .with_hint("a weight says how many times likelier a row is than a row of weight 1"),
            )),
        },
    }
}

/// A row's name and text from its text cells: the first of two or more
/// cells names it; else `**Name.** text`; else a name made from the text.
fn name_and_text(texts: &[String], keyed: &str) -> (String, String) {
    if texts.len() >= 2 && !texts[0].is_empty() {
        let rest: Vec<&str> = texts[1..]
            .iter()
            .map(String::as_str)
            .filter(|t| !t.is_empty())
            .collect();
        return (texts[0].clone(), rest.join(" "));
    }
    if let Some(nt) = named(&texts.join(" ")) {
        return nt;
    }
    let t = texts.join(" ").trim().to_owned();
    let name = derived_name(&t.replace(['{', '}'], ""), &format!("Result {keyed}"));
    (name, t)
}

/// The table's dice: the header's, else `d<highest>` when the rolls start
/// at 1; none for a weighted table.
fn dice_of(
    key: &Column,
    rows: &[DraftRow],
    file: &str,
    head_line: usize,
) -> Result<Option<String>, Vec<Diagnostic>> {
    match key {
        Column::Weight(_) => Ok(None),
        Column::Die(_, Some(d)) => Ok(Some(d.clone())),
        Column::Die(_, None) => {
            let low = rows.iter().filter_map(|r| r.entry.range).map(|r| r.0).min();
            let high = rows.iter().filter_map(|r| r.entry.range).map(|r| r.1).max();
            match (low, high) {
                (Some(1), Some(h)) => Ok(Some(format!("d{h}"))),
                _ => Err(one(
                    file,
                    head_line,
                    "the die is not named and the rolls do not start at 1",
                    "head the die column with its dice, e.g. `2d6`",
                )),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn die_cells_read_as_books_write_them() {
        assert_eq!(range_cell("1"), Some((1, 1)));
        assert_eq!(range_cell("2-3"), Some((2, 3)));
        assert_eq!(range_cell("01-05"), Some((1, 5)));
        assert_eq!(range_cell("00"), Some((100, 100)));
        assert_eq!(range_cell("96–00"), Some((96, 100)));
        assert_eq!(range_cell("x"), None);
        assert_eq!(range_cell("3+"), None);
    }

    #[test]
    fn csv_fields_keep_quoted_separators() {
        let r = csv_records("d6,result\n1,\"a, b\"\n2,\"say \"\"hi\"\"\"\n", ',').unwrap();
        assert_eq!(r[1], (2, vec!["1".to_owned(), "a, b".to_owned()]));
        assert_eq!(r[2].1[1], "say \"hi\"");
    }

    #[test]
    fn markdown_cells_unescape_pipes() {
        assert_eq!(
            md_cells("| 1 | {pick: a \\| b} |"),
            vec!["1", "{pick: a | b}"]
        );
    }
}
