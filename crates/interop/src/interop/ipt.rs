//! Inspiration Pad Pro (`.ipt`) generator files, read into a [`Sheet`]:
//! `Table:` blocks (the first is the main one), plain rows (weight 1) and
//! weighted rows (`3:text`), `Type: Lookup` with ranges (`01-50:`) rolled
//! with `Roll:` (or `1d` the highest end), `Type: Dictionary` (`key:value`
//! rows), `Use:` of other files, `Header:`/`Footer:` around the main
//! table, `&` joining a line to the next, and comment lines (`#`, `;`,
//! `//`). Each table is read by [`super::ipt_table`], a row's text by
//! [`super::ipt_text`].
//!
//! A table whose `Set:` variables are read more than once is written out
//! for their results by [`super::ipt_once`], rows that only roll their
//! own table again are settled by [`super::ipt_again`], HTML in the words
//! made plain by [`super::ipt_html`]. What IPP does that a table file
//! cannot do the same way — prompts, variables that cannot be written
//! out, conditionals, picks without repeats, filters that change a
//! result's text — is refused at its line and column.

use std::collections::BTreeMap;

use super::ipt_once::Later;
use super::ipt_table::{Open, Place, Step, closed, kind_or_roll};
use super::ipt_text::{self, TextCtx};
use super::sheet::{self, Frag, Refusal, Sheet, SrcRow, SrcTable};
use super::tablesmith_lines::Joined;
use super::{ipt_again, ipt_case, ipt_html};

/// The first line of a file `export --format ipt` writes: its table
/// names are tablewright ids, kept as they are.
pub const OWN_MARK: &str = "# Exported by tablewright";

/// Read a whole file.
pub fn read(file: &str, stem: &str, text: &str) -> Sheet {
    let mut sheet = Sheet {
        file: file.to_owned(),
        stem: stem.to_owned(),
        own_ids: text.starts_with(OWN_MARK),
        ..Sheet::default()
    };
    let mut open: Option<Open> = None;
    let mut extra: Vec<SrcTable> = Vec::new();
    let mut header_footer: [Option<(usize, Vec<Frag>)>; 2] = [None, None];
    let mut rows = 0usize;
    let mut title = None;
    let mut joined = BTreeMap::new();
    let mut later = Later::new(ipt_text::VAR_BUDGET);
    for logical in logical_lines(text) {
        let (line_no, line) = (logical.line, logical.text.clone());
        if logical.is_joined() {
            joined.insert(line_no, logical);
        }
        if let Some(refusal) = sheet::too_long(line_no, &line) {
            sheet.refused.push(refusal);
            continue;
        }
        let trimmed = line.trim();
        if trimmed.is_empty() || ["#", ";", "//"].iter().any(|c| trimmed.starts_with(c)) {
            title = sheet.own_ids.then(|| own_title(trimmed));
            continue;
        }
        let lead = line.len() - line.trim_start().len();
        if let Some((cmd, value, at)) = command(trimmed) {
            let col = sheet::column(&line, lead + at);
            let ctx = Place {
                line: line_no,
                column: col,
            };
            match cmd.as_str() {
                "table" => {
                    let at = (line_no, title.take());
                    if !open_table(&mut sheet, &mut open, value, at, (&mut extra, &mut later)) {
                        break;
                    }
                }
                "header" | "footer" => {
                    if let Some(o) = open.as_mut() {
                        o.alone = false;
                    }
                    let slot = usize::from(cmd == "footer");
                    let (frags, refused, n) = text_of(value, &ctx, &mut extra);
                    sheet.refused.extend(refused);
                    literal(&mut sheet, n);
                    header_footer[slot] = Some((line_no, frags));
                }
                "set" | "define" if open.is_some() => {
                    let o = open.as_mut().expect("a table is open");
                    let value = value.to_owned();
                    let step = match cmd.as_str() {
                        "set" => Step::Set(value, ctx),
                        _ => Step::Define(value, ctx),
                    };
                    o.read(step, &mut extra);
                }
                _ => table_command(&mut sheet, open.as_mut(), &cmd, value, ctx),
            }
            continue;
        }
        let Some(o) = open.as_mut() else {
            sheet.refused.push(Refusal::new(
                line_no,
                lead + 1,
                "a row before the first `Table:` line",
                "start the file's first table with `Table: Name`",
            ));
            continue;
        };
        rows += 1;
        if rows > sheet::MAX_ROWS {
            o.table.refused.push(Refusal::new(
                line_no,
                1,
                "more than 200,000 rows in one file",
                "split the file",
            ));
            break;
        }
        let ctx = Place {
            line: line_no,
            column: sheet::column(&line, lead),
        };
        o.read(Step::Row(trimmed.to_owned(), ctx), &mut extra);
    }
    if let Some(o) = open.take() {
        close(&mut sheet, o, &mut extra, &mut later);
    }
    later.read_again(&mut sheet.tables, &mut extra, &mut sheet.counts, rows);
    settle(&mut sheet, &mut extra);
    finish(&mut sheet, extra, header_footer);
    plain_html(&mut sheet);
    relocate(&mut sheet, &joined);
    sheet
}

/// In a file `export` wrote, the comment above a table is its title.
/// `export` ends a title that ends in `&` with `\z` (nothing).
fn own_title(comment: &str) -> String {
    let t = comment.trim_start_matches('#').trim();
    let kept = t.strip_suffix("\\z").filter(|t| t.ends_with('&'));
    kept.unwrap_or(t).to_owned()
}

/// HTML tags in the rows made plain text ([`ipt_html`]), counted.
fn plain_html(sheet: &mut Sheet) {
    let tags = ipt_html::plain(sheet);
    if tags > 0 {
        *sheet.counts.entry(ipt_html::TAGS_NOTE).or_default() += tags;
    }
}

/// Once every table is read: roll-again rows settled ([`ipt_again`]),
/// then the copies calls make filled ([`ipt_case`]).
fn settle(sheet: &mut Sheet, extra: &mut [SrcTable]) {
    let again: usize = sheet.tables.iter_mut().map(ipt_again::settle).sum();
    if again > 0 {
        let what = "rows that only roll their own table again left out (the others keep the odds IPP's rolling again gives them)";
        *sheet.counts.entry(what).or_default() += again;
    }
    ipt_case::fill(&sheet.tables, extra);
}

/// A `Table:` line: the open table closed and a new one opened (`false`:
/// the file has too many tables, and is read no further).
fn open_table(
    sheet: &mut Sheet,
    open: &mut Option<Open>,
    name: &str,
    (line, title): (usize, Option<String>),
    (extra, later): (&mut Vec<SrcTable>, &mut Later),
) -> bool {
    if let Some(o) = open.take() {
        close(sheet, o, extra, later);
    }
    if sheet.tables.len() >= sheet::MAX_TABLES {
        let what = "more than 10,000 tables in one file";
        sheet
            .refused
            .push(Refusal::new(line, 1, what, "split the file"));
        return false;
    }
    let began = (extra.len(), later.budget, later.made);
    *open = Some(Open::new(name, line, title, began));
    true
}

/// Lines with `&` at their end joined to the next (the number of the
/// first), line endings of any kind; each place in a joined line still
/// points at its own line ([`Joined::place`]).
fn logical_lines(text: &str) -> Vec<Joined> {
    let mut out: Vec<Joined> = Vec::new();
    let mut joining = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r');
        let (body, more) = match line.trim_end().strip_suffix('&') {
            Some(b) => (b, true),
            None => (line, false),
        };
        match out.last_mut() {
            Some(prev) if joining => prev.push(i + 1, 0, body),
            _ => out.push(Joined::new(i + 1, body)),
        }
        joining = more;
    }
    out
}

/// Every place the reader gave in a joined line (refusals, calls) moved
/// to the line it is on.
fn relocate(sheet: &mut Sheet, joined: &BTreeMap<usize, Joined>) {
    let at = |line: usize| joined.get(&line);
    for r in sheet.refused.iter_mut() {
        if let Some(j) = at(r.line) {
            j.relocate(r);
        }
    }
    for t in sheet.tables.iter_mut() {
        for r in t.refused.iter_mut() {
            if let Some(j) = at(r.line) {
                j.relocate(r);
            }
        }
        for row in t.rows.iter_mut() {
            relocate_calls(&mut row.text, &at);
        }
    }
}

fn relocate_calls<'a>(frags: &mut [Frag], at: &impl Fn(usize) -> Option<&'a Joined>) {
    for f in frags {
        match f {
            Frag::Call { line, column, .. } => {
                if let Some(j) = at(*line) {
                    (*line, *column) = j.place(*column);
                }
            }
            Frag::Pick(options) => {
                for o in options {
                    relocate_calls(o, at);
                }
            }
            _ => {}
        }
    }
}

/// `Word: value` for IPP's commands (any case), with the value's byte
/// offset in the line.
fn command(line: &str) -> Option<(String, &str, usize)> {
    let colon = line.find(':')?;
    let word = line[..colon].trim().to_ascii_lowercase();
    const COMMANDS: [&str; 12] = [
        "table",
        "type",
        "roll",
        "use",
        "header",
        "footer",
        "maxreps",
        "prompt",
        "set",
        "define",
        "title",
        "formatting",
    ];
    COMMANDS.contains(&word.as_str()).then(|| {
        let rest = &line[colon + 1..];
        let lead = rest.len() - rest.trim_start().len();
        (word, rest.trim(), colon + 1 + lead)
    })
}

/// A command inside (or, wrongly, before) a table.
fn table_command(sheet: &mut Sheet, open: Option<&mut Open>, cmd: &str, value: &str, at: Place) {
    let refuse = |what: &str, hint: &str| Refusal::new(at.line, 1, what, hint);
    match cmd {
        "use" => {
            let last = value.rsplit(['\\', '/']).next().unwrap_or(value);
            let stem = last.rsplit_once('.').map_or(last, |(s, _)| s);
            sheet.uses.push(stem.to_owned());
        }
        "maxreps" | "title" | "formatting" => {
            *sheet.counts.entry("MaxReps:, Title: and Formatting: lines (they do not change the odds) left out").or_default() += 1;
        }
        "prompt" => sheet.refused.push(refuse(
            "`Prompt:`: a choice the GM makes each time the generator runs",
            "tablewright's tables take no input: make a table for each choice, or import the rest with --skip-unsupported",
        )),
        "set" | "define" => {
            let r = refuse(
                "`Set:`/`Define:`: a variable, kept from one roll to another",
                "tablewright's tables have no variables: write the roll in place with [@table], or import the rest with --skip-unsupported",
            );
            match open {
                Some(o) => o.table.refused.push(r),
                None => sheet.refused.push(r),
            }
        }
        _ => match open {
            Some(o) => kind_or_roll(o, cmd, value, at),
            None => sheet.refused.push(refuse(
                &format!("`{cmd}:` before the first `Table:` line"),
                "move it under the `Table:` line of the table it is for",
            )),
        },
    }
}

/// The text of a header or footer (or a row), read into pieces; tables
/// its choices need are added to `extra`.
fn text_of(value: &str, at: &Place, extra: &mut Vec<SrcTable>) -> (Vec<Frag>, Vec<Refusal>, usize) {
    let mut ctx = TextCtx::new(at.line, at.column, extra.len());
    let frags = ipt_text::parse(value, &mut ctx);
    extra.append(&mut ctx.tables);
    (frags, ctx.refused, ctx.literal)
}

/// A table whose rows are read goes into `sheet` ([`closed`]); one that
/// [`Later`] will read again stands in its place until then.
fn close(sheet: &mut Sheet, o: Open, extra: &mut Vec<SrcTable>, later: &mut Later) {
    let o = later.keep(o, extra, sheet.tables.len());
    literal(sheet, o.literal);
    let table = closed(&mut sheet.counts, o);
    sheet.tables.push(table);
}

/// Brackets read as their words, counted for the report.
fn literal(sheet: &mut Sheet, n: usize) {
    if n > 0 {
        let what = "brackets that are neither a call nor a choice (`[Colors2]`) read as the words they hold, as IPP prints them (write `[@Colors2]` for a call)";
        *sheet.counts.entry(what).or_default() += n;
    }
}

/// The tables the rows' choices made go after the file's own (their
/// calls point at them by place), and a header or footer makes a table
/// named after the file that wraps the main one.
fn finish(sheet: &mut Sheet, extra: Vec<SrcTable>, header_footer: [Option<(usize, Vec<Frag>)>; 2]) {
    let own = sheet.tables.len();
    sheet.tables.extend(extra);
    for t in &mut sheet.tables {
        shift_locals(t, own);
    }
    if own == 0 || header_footer.iter().all(Option::is_none) {
        return;
    }
    let [header, footer] = header_footer;
    let line = header.as_ref().or(footer.as_ref()).map_or(1, |h| h.0);
    // The header, a new line, the main table, a new line, the footer.
    let mut text = Vec::new();
    if let Some((_, mut frags)) = header {
        sheet::shift_locals(&mut frags, own);
        text.append(&mut frags);
        text.push(Frag::Words("\n".into()));
    }
    text.push(Frag::Local(0));
    if let Some((_, mut frags)) = footer {
        sheet::shift_locals(&mut frags, own);
        text.push(Frag::Words("\n".into()));
        text.append(&mut frags);
    }
    sheet.tables.push(SrcTable {
        name: sheet.stem.clone(),
        line,
        rows: vec![SrcRow {
            range: None,
            weight: Some(1),
            text,
            name: Some("Header and footer".into()),
            line,
        }],
        ..SrcTable::default()
    });
}

/// Calls to reader-made tables, numbered from 0 as the text reader made
/// them, moved to their place after the file's `own` tables.
fn shift_locals(t: &mut SrcTable, own: usize) {
    for r in &mut t.rows {
        sheet::shift_locals(&mut r.text, own);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every refusal of a file: (line, column, what).
    fn refusals(s: &Sheet) -> Vec<(usize, usize, String)> {
        s.refused
            .iter()
            .chain(s.tables.iter().flat_map(|t| &t.refused))
            .map(|r| (r.line, r.column, r.what.clone()))
            .collect()
    }

    #[test]
    fn a_set_used_once_in_a_row_is_its_roll_in_place() {
        let s = read(
            "f.ipt",
            "f",
            "Table: M\nSet: t=[@T]\nThe {$T} day.\nTable: T\nhot\n",
        );
        assert!(refusals(&s).is_empty(), "{:?}", refusals(&s));
        let call = Frag::Call {
            file: None,
            table: "T".into(),
            line: 2,
            column: 8,
        };
        let want = [
            Frag::Words("The ".into()),
            call,
            Frag::Words(" day.".into()),
        ];
        assert_eq!(s.tables[0].rows[0].text, want);
        for (text, place, what) in [
            (
                "Table: M\nSet: t=[@T]\n{$t} and {$t}\nTable: T\n[@U]\nTable: U\nx\n",
                (3, 10),
                "a second time",
            ),
            (
                "Table: M\nSet: t=[@T]\nSet: u={$t}!\n{$u} and {$t}\nTable: T\n[@U]\nTable: U\nx\n",
                (4, 10),
                "through another variable",
            ),
            ("Set: t=1\nTable: M\n{$t}\n", (1, 1), "`Set:`/`Define:`"),
            ("Table: M\nSet: t={$1}\n{$t}\n", (2, 8), "a variable"),
            ("Table: M\nSet: a=1\nTable: N\n{$a}\n", (4, 1), "a variable"),
        ] {
            let got = refusals(&read("f.ipt", "f", text));
            assert!(!got.is_empty(), "{text}");
            assert_eq!((got[0].0, got[0].1), place, "{text}: {got:?}");
            assert!(got[0].2.contains(what), "{text}: {}", got[0].2);
        }
    }

    #[test]
    fn a_lookup_without_roll_starting_above_one_gives_nothing_below() {
        let s = read("f.ipt", "f", "Table: T\nType: Lookup\n3-4:a\n5-6:b\n");
        assert!(refusals(&s).is_empty(), "{:?}", refusals(&s));
        let t = &s.tables[0];
        assert_eq!(t.dice.as_deref(), Some("1d6"));
        let rows: Vec<_> = t
            .rows
            .iter()
            .map(|r| (r.range, r.text.is_empty()))
            .collect();
        assert_eq!(
            rows,
            [
                (Some((1, 2)), true),
                (Some((3, 4)), false),
                (Some((5, 6)), false)
            ]
        );
        assert_eq!(s.counts.len(), 1, "{:?}", s.counts);
        // From 1 (or with `Roll:`), nothing is added.
        for text in [
            "Table: T\nType: Lookup\n1-4:a\n",
            "Table: T\nType: Lookup\nRoll: 1d4+2\n3-6:a\n",
        ] {
            let s = read("f.ipt", "f", text);
            assert!(refusals(&s).is_empty(), "{text}: {:?}", refusals(&s));
            assert_eq!(s.tables[0].rows.len(), 1, "{text}");
            assert!(s.counts.is_empty(), "{text}");
        }
    }

    #[test]
    fn a_place_in_lines_joined_by_ampersand_is_on_its_own_line() {
        let s = read(
            "f.ipt",
            "f",
            "Table: M\nfirst part &\n  then [@Nowhere] and {$x}\n",
        );
        let got = refusals(&s);
        assert_eq!((got[0].0, got[0].1), (3, 23), "{got:?}");
        let Frag::Call { line, column, .. } = &s.tables[0].rows[0].text[1] else {
            panic!("{:?}", s.tables[0].rows[0].text)
        };
        assert_eq!((*line, *column), (3, 8));
    }

    #[test]
    fn variables_put_at_most_their_budget_into_a_file() {
        let long = "x".repeat(60_000);
        let mut text = format!("Table: M\nSet: v={long}\n");
        for _ in 0..100 {
            text.push_str("{$v}\n");
        }
        let s = read("f.ipt", "f", &text);
        let refused = refusals(&s).len();
        assert!((20..=40).contains(&refused), "{refused}");
    }
}
