//! Obsidian notes with Dice Roller (or Randomness) tables
//! (`import --from obsidian`), read into a [`Sheet`] the way the Dice
//! Roller plugin rolls them: a Markdown table followed by a `^block-id`
//! line is a table the plugin rolls with `` `dice: [[Note^block-id]]` ``.
//!
//! - A first column headed `dice: 1d20` makes a lookup table: the formula
//!   is the table's die (`1d6*10+1d6` is a d66) and each row's first cell
//!   its results — `4`, `1-3`, `1–3` (en dash) or `11,12` (the plugin reads
//!   the first number and the next, so two numbers are a range) — and its
//!   second cell the result.
//! - Any other table: the plugin picks a row, each as likely, and gives
//!   its cells joined by ` | `: a table of rows of weight 1.
//! - In a result, `` `dice: 2d6` `` is an inline roll `{2d6}` and `` `dice:
//!   [[Note^id]]` `` (or `[[#^id]]` in the same note) a roll on that
//!   table; `**Name.** text` names the row; Markdown escapes are read.
//!
//! Refused at their line and column: a lookup of more than one result
//! column, a results cell the plugin reads otherwise than it looks
//! (`1, 5` is 1 to 5 to it; `1-2, 5` is 1-2), ranges that overlap or
//! leave a result of the die without a row (the plugin gives nothing
//! then), and a `dice:` roller that is not a formula tablewright's
//! notation rolls the same way or a plain table link (`[[Note^id|Column]]`,
//! `2d[[Note^id]]`). Tables without a block id are not rolled by the
//! plugin and are left out, unless no table of the note has one (an
//! oracle note kept for reading): then each is named after its heading
//! (or the note), `-2`, `-3` after a heading two tables share.

use std::collections::BTreeSet;

use super::sheet::{self, Frag, Refusal, Sheet, SrcRow, SrcTable};
use crate::diagnostic::Diagnostic;

const HINT: &str = "edit the note, or import the rest with --skip-unsupported";

/// A table found in the note: its title, first line and lines.
struct Found<'t> {
    title: Option<String>,
    lines: Vec<(usize, &'t str)>,
    block: String,
}

/// Read the note's tables (`Err`: it has none the plugin rolls).
pub fn read(file: &str, stem: &str, text: &str) -> Result<Sheet, Diagnostic> {
    let mut sheet = Sheet {
        file: file.to_owned(),
        stem: stem.to_owned(),
        ..Sheet::default()
    };
    let (mut found, loose) = tables(text, &mut sheet);
    if found.is_empty() && !loose.is_empty() {
        sheet.counts.insert(
            "tables without a block id, named after their heading",
            loose.len(),
        );
        found = by_heading(loose, stem);
    } else if !loose.is_empty() {
        sheet.counts.insert(
            "tables without a block id (the Dice Roller cannot roll them) left out",
            loose.len(),
        );
    }
    if found.is_empty() && sheet.refused.is_empty() {
        return Err(
            Diagnostic::at(file, 1, 1, "no Markdown table in this note").with_hint(
                "write the table as `| dice: d6 | Result |`, then `| --- | --- |` and its rows",
            ),
        );
    }
    let mut seen = BTreeSet::new();
    for f in &found {
        let mut t = table(f);
        if !seen.insert(f.block.clone()) {
            t.refused.push(Refusal::new(
                t.line,
                1,
                format!("a second table with the block id ^{}", f.block),
                "give each table a block id of its own, or import the rest with --skip-unsupported",
            ));
        }
        sheet.tables.push(t);
    }
    sheet
        .counts
        .insert("Dice Roller tables → tables", sheet.tables.len());
    Ok(sheet)
}

/// Tables without a block id, each named after its heading (the note's
/// name without one), distinct within the note.
fn by_heading<'t>(loose: Vec<Found<'t>>, stem: &str) -> Vec<Found<'t>> {
    let mut seen = BTreeSet::new();
    loose
        .into_iter()
        .map(|mut f| {
            let title = f.title.clone().unwrap_or_else(|| stem.to_owned());
            let base = super::draft::slug(&title);
            let mut name = base.clone();
            let mut n = 2;
            while !seen.insert(name.clone()) {
                name = format!("{base}-{n}");
                n += 1;
            }
            f.title = Some(title);
            f.block = name;
            f
        })
        .collect()
}

/// The tables with a block id, in order, and those without one.
fn tables<'t>(text: &'t str, sheet: &mut Sheet) -> (Vec<Found<'t>>, Vec<Found<'t>>) {
    let lines: Vec<&str> = text.lines().collect();
    let (mut out, mut unnamed) = (Vec::new(), Vec::new());
    let (mut title, mut i) = (None, 0);
    let mut rows = 0usize;
    while i < lines.len() {
        if let Some(r) = sheet::too_long(i + 1, lines[i]) {
            sheet.refused.push(r);
            i += 1;
            continue;
        }
        let l = lines[i].trim();
        if let Some(h) = l.strip_prefix('#').filter(|_| !l.starts_with("#^")) {
            title = Some(h.trim_start_matches('#').trim().to_owned());
        }
        if !l.starts_with('|') {
            i += 1;
            continue;
        }
        let start = i;
        while i < lines.len()
            && lines[i].trim().starts_with('|')
            && sheet::too_long(i + 1, lines[i]).is_none()
        {
            i += 1;
        }
        let mut j = i;
        while j < lines.len() && lines[j].trim().is_empty() {
            j += 1;
        }
        let block = lines.get(j).and_then(|l| l.trim().strip_prefix('^'));
        let block = block
            .filter(|b| !b.is_empty() && b.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'));
        let within =
            out.len() + unnamed.len() < sheet::MAX_TABLES && rows + (i - start) <= sheet::MAX_ROWS;
        let found = Found {
            title: title.clone(),
            lines: (start..i).map(|n| (n + 1, lines[n])).collect(),
            block: block.unwrap_or_default().to_ascii_lowercase(),
        };
        match block {
            Some(_) if within => {
                rows += i - start;
                out.push(found);
                i = j + 1;
            }
            None if within => {
                rows += i - start;
                unnamed.push(found);
            }
            _ => {
                sheet.refused.push(Refusal::new(
                    start + 1,
                    1,
                    "more than 10,000 tables or 200,000 rows in one note",
                    "split the note",
                ));
                break;
            }
        }
    }
    (out, unnamed)
}

/// A table row's cells (split on `|` not escaped, trimmed, empty ones
/// left out as the plugin does), each with its byte offset in the line.
fn cells(line: &str) -> Vec<(usize, &str)> {
    let lead = line.len() - line.trim_start().len();
    let body = line.trim();
    let b = body.as_bytes();
    let mut out = Vec::new();
    let (mut start, mut i) = (0, 0);
    while i <= b.len() {
        if i < b.len() && b[i] == b'\\' {
            i += 2;
            continue;
        }
        if i >= b.len() || b[i] == b'|' {
            let end = i.min(b.len());
            let cell = &body[start.min(end)..end];
            let t = cell.trim();
            if !t.is_empty() {
                out.push((lead + start + (cell.len() - cell.trim_start().len()), t));
            }
            start = i + 1;
        }
        i += 1;
    }
    out
}

fn is_separator(line: &str) -> bool {
    let t = line.trim();
    t.contains('-') && t.chars().all(|c| "|-: ".contains(c))
}

/// One table of the note.
fn table(f: &Found) -> SrcTable {
    let (hline, head) = f.lines[0];
    let mut t = SrcTable {
        name: f.block.clone(),
        title: Some(f.title.clone().unwrap_or_else(|| f.block.clone())),
        line: hline,
        ..SrcTable::default()
    };
    if f.lines.get(1).is_none_or(|l| !is_separator(l.1)) {
        t.refused.push(Refusal::new(
            hline,
            1,
            "a table without its `| --- |` line under the heading",
            HINT,
        ));
        return t;
    }
    let heads = cells(head);
    let formula = heads
        .first()
        .and_then(|(_, c)| c.split_once("dice:"))
        .map(|(_, f)| {
            f.split(':')
                .next_back()
                .unwrap_or(f)
                .replace('`', "")
                .trim()
                .to_owned()
        })
        .filter(|f| !f.is_empty());
    let body = &f.lines[2..];
    match formula {
        None => {
            for &(line, raw) in body {
                let cs = cells(raw);
                let mut text = Vec::new();
                for (k, (at, c)) in cs.iter().enumerate() {
                    if k > 0 {
                        text.push(Frag::Words(" | ".into()));
                    }
                    text.extend(result(c, raw, *at, line, &mut t.refused));
                }
                push_row(&mut t, None, text, line);
            }
        }
        Some(formula) => lookup(&mut t, &formula, heads.len(), body),
    }
    t
}

/// A row with its name taken from `**Name.**` at its start.
fn push_row(t: &mut SrcTable, range: Option<(i64, i64)>, mut text: Vec<Frag>, line: usize) {
    let mut name = None;
    if let Some(Frag::Words(w)) = text.first_mut()
        && let Some(rest) = w.strip_prefix("**")
        && let Some(end) = rest.find("**")
    {
        let n = rest[..end].trim().trim_end_matches('.').trim().to_owned();
        if !n.is_empty() {
            name = Some(n);
            *w = rest[end + 2..].trim_start().to_owned();
        }
    }
    t.rows.push(SrcRow {
        range,
        weight: range.is_none().then_some(1),
        text,
        name,
        line,
    });
}

/// A lookup table: its die, and each row's results.
fn lookup(t: &mut SrcTable, formula: &str, columns: usize, body: &[(usize, &str)]) {
    let hline = t.line;
    if columns != 2 {
        t.refused.push(Refusal::new(hline, 1, "a `dice:` table with more than one result column (the plugin gives the second cell of a row, whichever column it is in)", HINT));
        return;
    }
    let compact = sheet::our_dice(formula);
    let (dice, results) = if compact == "1d6*10+1d6" {
        ("d66".to_owned(), Results::D66)
    } else if let Some(p) = sheet::dice_problem(formula).or_else(|| {
        compact
            .contains('*')
            .then(|| format!("the die `{compact}` skips results, which its rows would not show"))
    }) {
        t.refused.push(Refusal::new(
            hline,
            1,
            format!("`dice: {formula}`: {p}"),
            HINT,
        ));
        return;
    } else {
        let Some((lo, hi)) = sheet::dice_bounds(&compact) else {
            return;
        };
        (compact, Results::Span(lo, hi))
    };
    t.dice = Some(dice);
    for &(line, raw) in body {
        let cs = cells(raw);
        let Some(&(rat, rcell)) = cs.first() else {
            continue;
        };
        let column = sheet::column(raw, rat);
        let range = match results_of(rcell) {
            Ok(r) => r,
            Err(why) => {
                t.refused.push(Refusal::new(line, column, format!("`{}`: {why}", rcell), "write one range per row: `4`, `1-3` or `11,12`; or import the rest with --skip-unsupported"));
                continue;
            }
        };
        let text = match cs.get(1) {
            Some(&(at, c)) => result(c, raw, at, line, &mut t.refused),
            None => Vec::new(),
        };
        if cs.len() > 2 {
            t.refused.push(Refusal::new(
                line,
                1,
                "a row of more cells than the table's two columns",
                HINT,
            ));
        }
        push_row(t, Some(range), text, line);
    }
    cover(t, &results);
}

/// The results a first cell names, as the plugin reads it.
fn results_of(cell: &str) -> Result<(i64, i64), String> {
    let mut nums = Vec::new();
    let mut seps = String::new();
    for part in cell
        .split(|c: char| !c.is_ascii_digit())
        .filter(|p| !p.is_empty())
    {
        if part.len() > 9 {
            return Err("a number too large".into());
        }
        nums.push(part.parse::<i64>().unwrap_or(0));
    }
    for c in cell.chars().filter(|c| !c.is_ascii_digit()) {
        if !"-–—, ".contains(c) {
            return Err("not a result of the die (the plugin reads the numbers in it only)".into());
        }
        seps.push(c);
    }
    match nums[..] {
        [a] if seps.trim().is_empty() => Ok((a, a)),
        [_] => Err("a number with a dash or comma and no second number".into()),
        [a, b] if seps.contains(',') && b != a + 1 => {
            Err(format!("the plugin reads it as {a} to {b}"))
        }
        [a, b] if a <= b => Ok((a, b)),
        [a, b] => Err(format!("a range from high to low ({a} to {b})")),
        [] => Err("no number".into()),
        _ => Err("more than one range (the plugin reads the first two numbers only)".into()),
    }
}

/// Rows cut to the die's results (`lo..=hi`, or d66's 36); a refusal for
/// a result no row takes, or one two rows take. Sorted once and swept:
/// linear in the rows, whatever the die.
fn cover(t: &mut SrcTable, results: &Results) {
    let (lo, hi) = match results {
        Results::Span(lo, hi) => (*lo, *hi),
        Results::D66 => (11, 66),
    };
    t.rows
        .retain(|r| r.range.is_some_and(|(a, b)| b >= lo && a <= hi));
    for r in &mut t.rows {
        r.range = r.range.map(|(a, b)| (a.max(lo), b.min(hi)));
    }
    let mut taken: Vec<(i64, i64, usize)> = t
        .rows
        .iter()
        .filter_map(|r| r.range.map(|(a, b)| (a, b, r.line)))
        .collect();
    taken.sort();
    for w in taken.windows(2) {
        if w[1].0 <= w[0].1 {
            t.refused.push(Refusal::new(
                w[1].2,
                1,
                format!(
                    "the results {}-{} overlap the row on line {} (the plugin takes the first)",
                    w[1].0, w[1].1, w[0].2
                ),
                HINT,
            ));
        }
    }
    let missing = match results {
        Results::Span(..) => {
            let mut next = lo;
            let mut gap = None;
            for &(a, b, _) in &taken {
                if a > next && gap.is_none() {
                    gap = Some(next);
                }
                next = next.max(b.saturating_add(1));
            }
            gap.or((next <= hi).then_some(next))
        }
        Results::D66 => (1..=6)
            .flat_map(|a| (1..=6).map(move |b| a * 10 + b))
            .find(|&x| !taken.iter().any(|&(a, b, _)| a <= x && x <= b)),
    };
    if let Some(x) = missing {
        t.refused.push(Refusal::new(
            t.line,
            1,
            format!("no row for {x}, which the die can roll (the Dice Roller gives nothing then)"),
            "add a row for it, or import the rest with --skip-unsupported",
        ));
    }
}

/// What a lookup table's die can roll.
enum Results {
    Span(i64, i64),
    D66,
}

/// A result cell's text: words, inline rolls and table rolls.
fn result(cell: &str, raw: &str, at: usize, line: usize, refused: &mut Vec<Refusal>) -> Vec<Frag> {
    let mut out = Vec::new();
    let mut words = String::new();
    let mut i = 0;
    while i < cell.len() {
        let rest = &cell[i..];
        if let Some(code) = rest.strip_prefix("`dice:")
            && let Some(end) = code.find('`')
        {
            if !words.is_empty() {
                out.push(Frag::Words(std::mem::take(&mut words)));
            }
            let column = sheet::column(raw, at + i);
            match roller(code[..end].trim(), line, column) {
                Ok(f) => out.push(f),
                Err(r) => refused.push(r),
            }
            i += "`dice:".len() + end + 1;
            continue;
        }
        let c = rest.chars().next().unwrap_or(' ');
        if c == '\\' && rest[1..].starts_with(|n: char| n.is_ascii_punctuation()) {
            let n = rest[1..].chars().next().unwrap_or('\\');
            words.push(n);
            i += 1 + n.len_utf8();
            continue;
        }
        if let Some(n) = ["<br>", "<br/>", "<br />"]
            .iter()
            .find(|b| rest.starts_with(*b))
        {
            words.push('\n');
            i += n.len();
            continue;
        }
        if c != '`' {
            words.push(c);
        }
        i += c.len_utf8();
    }
    if !words.is_empty() {
        out.push(Frag::Words(words));
    }
    out
}

/// `dice: 2d6` or `dice: [[Note^id]]`.
fn roller(formula: &str, line: usize, column: usize) -> Result<Frag, Refusal> {
    let refuse = |why: String| {
        Refusal::new(
            line,
            column,
            format!(
                "`dice: {}`: {why}",
                formula.chars().take(40).collect::<String>()
            ),
            HINT,
        )
    };
    if let Some(inner) = formula
        .strip_prefix("[[")
        .and_then(|r| r.strip_suffix("]]"))
    {
        let Some((note, block)) = inner.rsplit_once('^') else {
            return Err(refuse("a link to a note, not to a table's block".into()));
        };
        if block.is_empty() || inner.contains(['|', '[', ']']) {
            return Err(refuse(
                "a column of a table, or a link tablewright cannot follow".into(),
            ));
        }
        let note = note.trim_end_matches('#');
        let note = note.rsplit('/').next().unwrap_or(note);
        return Ok(Frag::Call {
            file: (!note.is_empty()).then(|| note.to_owned()),
            table: block.to_ascii_lowercase(),
            line,
            column,
        });
    }
    if formula.contains('[') || formula.contains('(') && formula.contains(']') {
        return Err(refuse(
            "several rolls on a table, or a table in a formula".into(),
        ));
    }
    match sheet::dice_problem(formula) {
        None => Ok(Frag::Dice(sheet::our_dice(formula))),
        Some(p) => Err(refuse(p)),
    }
}

#[cfg(test)]
mod tests;
