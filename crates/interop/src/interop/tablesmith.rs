//! TableSmith (`.tab`) tables, read into a [`Sheet`]: each group a table
//! (the first is the one the file is called by). `:Group` rows `N,text`
//! or `A-B,text` are ranged — N is the row's last value, the row starts
//! after the one before (a lower bound written is not read), and the
//! group rolls 1 to the last row's value; `;Group` rows `N,text` weigh N.
//! `<text` and `>text` go before and after every row of their group; a
//! line starting `_` goes on with the row before; `#` lines are comments;
//! `/` makes the next `% [ ] { } /` plain.
//!
//! In text: calls `[Group]` and `[Table.Group]`, a count `[Group]:3`,
//! `{Dice~3d6}` and `{Calc~…}` (dice our notation rolls the same way) and
//! `{CR~}` (a new line). A variable that never changes reads as its
//! value and an `{If~…}` on such values as the branch it takes
//! ([`super::tablesmith_vars`]); a call with a modifier (`[G+2]`, `[G=3]`)
//! rolls a copy of its group ([`super::tablesmith_mods`]); `{Msg~…}` is
//! left out and `{Generate~0,text,G}` is its text (both counted).
//! Variables that change, parameters, non-repeating groups and every
//! other function are refused at their line and column.

use std::collections::BTreeMap;

use super::ipt_html;
use super::sheet::{self, Cased, Frag, Look, Refusal, Sheet, SrcRow, SrcTable};
use super::tablesmith_lines::{self, Joined};
use super::tablesmith_mods;
use super::tablesmith_vars::{self, Constants};

/// What the rows of a file add beside their groups: the tables their
/// modified calls roll (called by place from 0) and what was counted.
#[derive(Default)]
struct Made {
    extra: Vec<SrcTable>,
    counts: BTreeMap<&'static str, usize>,
}

/// Between the results of a call made several times (`[Group]:3`).
pub const JOIN: &str = ", ";

/// A group being read: its table, whether it is ranged, its prefix and
/// suffix, and the last value of its rows so far.
struct Group {
    table: SrcTable,
    ranged: bool,
    before: Vec<Frag>,
    after: Vec<Frag>,
    last: i64,
}

/// Read a whole file.
pub fn read(file: &str, stem: &str, text: &str) -> Sheet {
    let mut sheet = Sheet {
        file: file.to_owned(),
        stem: stem.to_owned(),
        ..Sheet::default()
    };
    let mut open: Option<Group> = None;
    let mut rows = 0usize;
    let lines = tablesmith_lines::join(text, &mut sheet.refused);
    let consts = Constants::of(&lines);
    let mut made = Made::default();
    for joined in &lines {
        let (line_no, line) = (joined.line, joined.text.as_str());
        match line.as_bytes()[0] {
            b':' | b';' => {
                if let Some(g) = open.take() {
                    sheet.tables.push(close(g));
                }
                if sheet.tables.len() >= sheet::MAX_TABLES {
                    sheet.refused.push(Refusal::new(line_no, 1, "more than 10,000 groups in one file", "split the file"));
                    break;
                }
                open = Some(group(line, line_no));
            }
            b'%' if consts.declares(line) => {}
            b'%' => sheet.refused.push(Refusal::new(line_no, 1, "`%var%,default`: a variable the file changes (`|var…|`), asks for (`@var`) or rolls, kept from one roll to another", "tablewright's tables have no variables (one that never changes reads as its value); import the rest with --skip-unsupported")),
            b'@' => sheet.refused.push(Refusal::new(line_no, 1, "`@param,…`: a parameter the GM is asked for", "tablewright's tables take no input: make a table for each choice, or import the rest with --skip-unsupported")),
            _ => {
                rows += 1;
                if rows > sheet::MAX_ROWS {
                    sheet.refused.push(Refusal::new(line_no, 1, "more than 200,000 rows in one file", "split the file"));
                    break;
                }
                match open.as_mut() {
                    Some(g) => in_group(g, joined, &consts, &mut made),
                    None => sheet.refused.push(Refusal::new(line_no, 1, "a row before the first group (`:Name` or `;Name`)", "start the file with a group line such as `:Start`")),
                }
            }
        }
    }
    if let Some(g) = open.take() {
        sheet.tables.push(close(g));
    }
    tablesmith_mods::fill(&sheet.tables, &mut made.extra);
    let own = sheet.tables.len();
    sheet.tables.append(&mut made.extra);
    for t in &mut sheet.tables {
        for r in &mut t.rows {
            shift_locals(&mut r.text, own);
        }
    }
    for (what, n) in made.counts {
        *sheet.counts.entry(what).or_default() += n;
    }
    plain_html(&mut sheet);
    sheet
}

/// TableSmith shows its results as a page: tags in the rows made plain
/// text, then character references the characters they stand for
/// ([`ipt_html`]), each counted.
fn plain_html(sheet: &mut Sheet) {
    let tags = ipt_html::plain(sheet);
    let references = ipt_html::references(sheet);
    for (what, n) in [
        (ipt_html::TAGS_NOTE, tags),
        (ipt_html::REFERENCES_NOTE, references),
    ] {
        if n > 0 {
            *sheet.counts.entry(what).or_default() += n;
        }
    }
}

/// Calls on the tables the rows made, numbered from 0, moved to their
/// place after the file's `own` groups.
fn shift_locals(frags: &mut [Frag], own: usize) {
    for f in frags {
        match f {
            Frag::Local(n) => *n += own,
            Frag::Pick(options) => options.iter_mut().for_each(|o| shift_locals(o, own)),
            _ => {}
        }
    }
}

/// A group line: `:Name` (ranged) or `;Name` (weighted), `!` after the
/// mark for a non-repeating group (refused).
fn group(line: &str, line_no: usize) -> Group {
    let ranged = line.starts_with(':');
    let rest = &line[1..];
    let mut table = SrcTable {
        name: rest.trim_start_matches('!').trim().to_owned(),
        line: line_no,
        ..SrcTable::default()
    };
    if rest.starts_with('!') {
        table.refused.push(Refusal::new(line_no, 2, "`!`: a non-repeating group (each row drawn once until the group is reset)", "tablewright's tables draw every row each time: remove the `!` if repeats are fine, or import the rest with --skip-unsupported"));
    }
    Group {
        table,
        ranged,
        before: Vec::new(),
        after: Vec::new(),
        last: 0,
    }
}

/// A line inside a group: a prefix, a suffix, a continuation left on its
/// own or a row; what it refused and calls reported at their own lines.
fn in_group(g: &mut Group, joined: &Joined, consts: &Constants, made: &mut Made) {
    let (rows, refused) = (g.table.rows.len(), g.table.refused.len());
    let mut ctx = Ctx::new(joined.line, consts, made.extra.len());
    in_group_line(g, &joined.text, &mut ctx);
    for mut t in ctx.made {
        if let Some(c) = t.cased.as_mut()
            && c.line == joined.line
        {
            (c.line, c.column) = joined.place(c.column);
        }
        made.extra.push(t);
    }
    for what in ctx.notes {
        *made.counts.entry(what).or_default() += 1;
    }
    for r in g.table.refused.iter_mut().skip(refused) {
        joined.relocate(r);
    }
    for r in g.table.rows.iter_mut().skip(rows) {
        relocate_calls(&mut r.text, joined);
    }
    match joined.text.as_bytes()[0] {
        b'<' => relocate_calls(&mut g.before, joined),
        b'>' => relocate_calls(&mut g.after, joined),
        _ => {}
    }
}

/// Calls of `frags` made in `joined`, moved to their own lines.
fn relocate_calls(frags: &mut [Frag], joined: &Joined) {
    for f in frags {
        match f {
            Frag::Call { line, column, .. } if *line == joined.line => {
                (*line, *column) = joined.place(*column);
            }
            Frag::Pick(options) => {
                for o in options {
                    relocate_calls(o, joined);
                }
            }
            _ => {}
        }
    }
}

fn in_group_line(g: &mut Group, line: &str, ctx: &mut Ctx) {
    if let Some(rest) = line.strip_prefix(['<', '>']) {
        let body = rest.strip_prefix(',').unwrap_or(rest);
        let frags = parse(body, line.len() - body.len(), ctx);
        if line.starts_with('<') {
            g.before = frags;
        } else {
            g.after = frags;
        }
    } else if let Some(rest) = line.strip_prefix('_') {
        let frags = parse(rest, 1, ctx);
        match g.table.rows.last_mut() {
            Some(r) => r.text.extend(frags),
            None => ctx.refuse(
                line,
                0,
                "a `_` line with no row before it to go on with",
                "join it to a row",
            ),
        }
    } else {
        row(g, line, ctx);
    }
    g.table.refused.append(&mut ctx.refused);
}

/// `N,text` or `A-B,text`.
fn row(g: &mut Group, line: &str, ctx: &mut Ctx) {
    let Some((head, body)) = line.split_once(',') else {
        ctx.refuse(
            line,
            0,
            "a row without its number (`N,text`)",
            "write the row as `N,text`",
        );
        return;
    };
    let high = head
        .rsplit('-')
        .next()
        .map(str::trim)
        .and_then(|n| n.parse::<i64>().ok())
        .filter(|n| (0..1_000_000_000).contains(n));
    let Some(high) = high else {
        ctx.refuse(
            line,
            0,
            format!("`{head}`: not a row number (`N` or `A-B`)"),
            "start the row with its number, e.g. `3,text` or `4-6,text`",
        );
        return;
    };
    let text = parse(body, head.len() + 1, ctx);
    let (range, weight) = if g.ranged {
        let low = g.last + 1;
        g.last = g.last.max(high);
        // A row ending where the rows before it already reached never
        // comes up: left out.
        if high < low {
            return;
        }
        (Some((low, high)), None)
    } else {
        if high == 0 {
            return;
        }
        (None, Some(high as u64))
    };
    g.table.rows.push(SrcRow {
        range,
        weight,
        text,
        name: None,
        line: ctx.line,
    });
}

/// A group whose rows are read: prefix and suffix around every row, and
/// the die of a ranged group.
fn close(mut g: Group) -> SrcTable {
    if g.table.rows.is_empty() {
        g.table.rows.push(SrcRow {
            range: None,
            weight: Some(1),
            text: Vec::new(),
            name: Some("(nothing)".into()),
            line: g.table.line,
        });
        g.ranged = false;
    }
    for r in &mut g.table.rows {
        let mut text = g.before.clone();
        text.append(&mut r.text);
        text.extend(g.after.iter().cloned());
        r.text = text;
    }
    if g.ranged {
        g.table.dice = Some(format!("1d{}", g.last));
    }
    g.table
}

/// Where a text is, what it refused, the file's constants, the tables
/// its modified calls roll (called by place from `base`) and what it
/// counted.
struct Ctx<'a> {
    line: usize,
    refused: Vec<Refusal>,
    calls: usize,
    consts: &'a Constants,
    made: Vec<SrcTable>,
    base: usize,
    notes: Vec<&'static str>,
    /// Functions whose text is read inside another's (`{If~…}` branches).
    depth: usize,
}

impl Ctx<'_> {
    fn new(line: usize, consts: &Constants, base: usize) -> Ctx<'_> {
        Ctx {
            line,
            refused: Vec::new(),
            calls: 0,
            consts,
            made: Vec::new(),
            base,
            notes: Vec::new(),
            depth: 0,
        }
    }

    fn refuse(&mut self, text: &str, at: usize, what: impl Into<String>, hint: &str) {
        let column = sheet::column(text, at);
        let hint = if hint.contains("--skip-unsupported") {
            hint.to_owned()
        } else {
            format!("{hint}, or import the rest with --skip-unsupported")
        };
        self.refused
            .push(Refusal::new(self.line, column, what, hint));
    }
}

/// A row's text from byte `base` of its line (for columns).
fn parse(text: &str, base: usize, ctx: &mut Ctx) -> Vec<Frag> {
    let mut out = Vec::new();
    let mut words = String::new();
    let mut chars = text.char_indices().peekable();
    // Once no `]` (or `}`) follows, none is looked for again; once a
    // bracket's nesting runs to the end unclosed, the first close is taken
    // (as before nesting was counted): linear.
    let mut unclosed = [false; 2];
    let mut unnested = [false; 2];
    while let Some((i, c)) = chars.next() {
        match c {
            '/' if chars.peek().is_some_and(|(_, n)| "%[]{}/".contains(*n)) => {
                words.push(chars.next().map_or('/', |(_, n)| n));
            }
            '[' | '{' => {
                let (close, kind) = if c == '[' { (']', 0) } else { ('}', 1) };
                let nested = if unclosed[kind] || unnested[kind] {
                    None
                } else {
                    matching(text, i, c, close)
                };
                unnested[kind] |= nested.is_none();
                let found = if unclosed[kind] {
                    None
                } else {
                    nested.or_else(|| text[i..].find(close).map(|n| i + n))
                };
                let Some(end) = found else {
                    unclosed[kind] = true;
                    words.push(c);
                    continue;
                };
                if !words.is_empty() {
                    out.push(Frag::Words(std::mem::take(&mut words)));
                }
                ctx.calls += 1;
                let (frags, skip_to) = if ctx.calls > sheet::MAX_CALLS {
                    (Vec::new(), end + 1)
                } else if c == '[' {
                    call(text, i, end, base, ctx)
                } else {
                    (
                        function(&text[i + 1..end], base_column(text, base, i), ctx),
                        end + 1,
                    )
                };
                out.extend(frags);
                while chars.peek().is_some_and(|(j, _)| *j < skip_to) {
                    chars.next();
                }
            }
            '%' if constant(text, i, ctx).is_some() => {
                let (value, end) = constant(text, i, ctx).unwrap_or_default();
                words.push_str(&value);
                while chars.peek().is_some_and(|(j, _)| *j <= end) {
                    chars.next();
                }
            }
            '%' | '|' => {
                let what = if c == '%' {
                    "`%…%`: a variable"
                } else {
                    "`|…|`: a variable assignment"
                };
                ctx.refused.push(Refusal::new(ctx.line, base_column(text, base, i), what, "tablewright's tables have no variables: write the value in place, or import the rest with --skip-unsupported"));
                return Vec::new();
            }
            _ => words.push(c),
        }
    }
    if !words.is_empty() {
        out.push(Frag::Words(words));
    }
    out
}

/// The value of the constant `%name%` at byte `at` of `text`, and the
/// byte of its closing `%`.
fn constant(text: &str, at: usize, ctx: &Ctx) -> Option<(String, usize)> {
    let len = text[at + 1..].find('%')?;
    let value = ctx.consts.get(&text[at + 1..at + 1 + len])?;
    Some((value.to_owned(), at + 1 + len))
}

/// The byte of the `close` that ends the `open` at byte `at`, brackets of
/// its kind nested inside counted and `/`-escaped ones skipped
/// (`{If~{Dice~1d6}>3?a/b}` is one function).
fn matching(text: &str, at: usize, open: char, close: char) -> Option<usize> {
    let mut depth = 0usize;
    let mut chars = text[at..].char_indices().peekable();
    while let Some((j, c)) = chars.next() {
        if c == '/' && chars.peek().is_some_and(|(_, n)| "%[]{}/".contains(*n)) {
            chars.next();
        } else if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return Some(at + j);
            }
        }
    }
    None
}

/// A construct as a message quotes it: whole, or its first 200
/// characters and `…`.
fn quoted(inner: &str) -> String {
    let mut shown: String = inner.chars().take(200).collect();
    if shown.len() < inner.len() {
        shown.push('…');
    }
    shown
}

/// The column of byte `i` of a text that starts at byte `base` of its
/// line (the line's start is ASCII: a mark, a number and a comma).
fn base_column(text: &str, base: usize, i: usize) -> usize {
    base + text[..i].chars().count() + 1
}

/// `[Group]`, `[Table.Group]`, then `:N` for a count; returns the pieces
/// and the byte after the call.
fn call(text: &str, open: usize, close: usize, base: usize, ctx: &mut Ctx) -> (Vec<Frag>, usize) {
    let inner = &text[open + 1..close];
    let column = base_column(text, base, open);
    let name_end = inner
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == ' '))
        .unwrap_or(inner.len());
    let (name, modifier) = inner.split_at(name_end);
    let refuse = |ctx: &mut Ctx, what: String, hint: &str| {
        ctx.refused.push(Refusal::new(
            ctx.line,
            column,
            what,
            format!("{hint}, or import the rest with --skip-unsupported"),
        ));
    };
    if let Some(frag) = modified(name, modifier, column, ctx) {
        return (vec![frag], close + 1);
    }
    if name.trim().is_empty() || !modifier.is_empty() {
        let what = match modifier.chars().next() {
            Some('(') => format!("`[{inner}]`: a call with parameters"),
            Some('+' | '-' | '=') => {
                format!("`[{inner}]`: a call with a modifier (the roll moved or fixed)")
            }
            Some('%') => format!("`[{inner}]`: a call naming a variable"),
            _ => format!("`[{inner}]`: not a call tablewright reads"),
        };
        refuse(
            ctx,
            what,
            "call the group plainly, `[Group]` or `[Table.Group]`",
        );
        return (Vec::new(), close + 1);
    }
    let (file, table) = match name.trim().split_once('.') {
        Some((f, g)) => (Some(f.trim().to_owned()), g.trim().to_owned()),
        None => (None, name.trim().to_owned()),
    };
    let frag = Frag::Call {
        file,
        table,
        line: ctx.line,
        column,
    };
    let rest = &text[close + 1..];
    let Some(count) = rest.strip_prefix(':') else {
        return (vec![frag], close + 1);
    };
    let digits = count
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(count.len());
    match count[..digits].parse::<i64>() {
        Ok(n) if digits < 10 && n <= sheet::MAX_REPEAT => {
            (sheet::repeated(&frag, n, JOIN), close + 2 + digits)
        }
        Ok(_) => {
            refuse(
                ctx,
                format!(
                    "`[{inner}]:{}`: more than 20 rolls in one call",
                    &count[..digits]
                ),
                "roll fewer times",
            );
            (Vec::new(), close + 2 + digits)
        }
        // A colon not followed by a number is the row's own text.
        Err(_) => (vec![frag], close + 1),
    }
}

/// `[Group+n]`, `[Group-n]` or `[Group=n]` (`n` a number or a
/// constant): a roll on a copy of the group made for the call
/// ([`tablesmith_mods`]); `None` for anything else.
fn modified(name: &str, modifier: &str, column: usize, ctx: &mut Ctx) -> Option<Frag> {
    let name = name.trim();
    let op = modifier.chars().next().filter(|c| "+-=".contains(*c))?;
    let value = ctx.consts.substitute(&modifier[1..])?;
    let n: i64 = value
        .trim()
        .parse()
        .ok()
        .filter(|n: &i64| n.abs() < 1_000_000_000)?;
    if name.is_empty() || name.contains('.') {
        return None;
    }
    let look = match op {
        '=' => Look::Fixed(n),
        '-' => Look::Shift(-n),
        _ => Look::Shift(n),
    };
    let title = match look {
        Look::Shift(k) if k < 0 => format!("{name} (roll {} lower)", -k),
        Look::Shift(k) => format!("{name} (roll {k} higher)"),
        _ => format!("{name} (roll {n})"),
    };
    ctx.made.push(SrcTable {
        name: title.clone(),
        title: Some(title),
        line: ctx.line,
        synthetic: true,
        cased: Some(Cased {
            of: name.to_owned(),
            line: ctx.line,
            column,
            cases: Vec::new(),
            look: Some(look),
        }),
        ..SrcTable::default()
    });
    Some(Frag::Local(ctx.base + ctx.made.len() - 1))
}

/// `{If~test?a/b}` whose test holds only constants: the branch it takes,
/// read as the row's text (`args` start after `base` characters of the
/// line); `None` (refused as a function) otherwise.
fn settled_if(args: &str, base: usize, ctx: &mut Ctx) -> Option<Vec<Frag>> {
    let (q, yes, no) = tablesmith_vars::branches(args)?;
    let test = ctx.consts.substitute(&args[..q])?;
    let (a, b) = if tablesmith_vars::settle(&test).ok()? {
        yes
    } else {
        no
    };
    Some(nested(&args[a..b], base + args[..a].chars().count(), ctx))
}

/// A function's text read as a row's (bounded in depth).
fn nested(text: &str, base: usize, ctx: &mut Ctx) -> Vec<Frag> {
    if ctx.depth >= sheet::MAX_DEPTH {
        ctx.refused.push(Refusal::new(
            ctx.line,
            base + 1,
            "functions nested more than 16 deep",
            "write the text plainly, or import the rest with --skip-unsupported",
        ));
        return Vec::new();
    }
    ctx.depth += 1;
    let out = parse(text, base, ctx);
    ctx.depth -= 1;
    out
}

/// `{Name~args}`: dice functions carried, an `{If~…}` on constants its
/// branch, `{Msg~…}` left out and `{Generate~0,text,G}` its text (both
/// counted); the rest refused.
fn function(inner: &str, column: usize, ctx: &mut Ctx) -> Vec<Frag> {
    let (name, args) = inner.split_once('~').unwrap_or((inner, ""));
    let hint = ", or import the rest with --skip-unsupported";
    match name.trim().to_ascii_lowercase().as_str() {
        "if" => {
            let base = column + name.chars().count() + 1;
            if let Some(frags) = settled_if(args, base, ctx) {
                ctx.notes.push("`{If~…}` tests on values that never change: the branch TableSmith always takes");
                return frags;
            }
            let shown = quoted(inner);
            ctx.refused.push(Refusal::new(ctx.line, column, format!("`{{{shown}}}`: the TableSmith function If on a roll, a call or a variable that changes, which tablewright's tables cannot do"), format!("write the text it gives in place{hint}")));
        }
        "msg" => {
            ctx.notes.push("`{Msg~…}` messages left out (TableSmith shows them in a window; they add nothing to the result)");
        }
        "generate" => match args.split_once(',') {
            Some((mode, rest)) if mode.trim() == "0" && rest.contains(',') => {
                let text = &rest[..rest.rfind(',').unwrap_or(rest.len())];
                ctx.notes.push("`{Generate~0,text,Group}` links: their text kept; the roll a click on it makes is left out");
                let base = column + name.chars().count() + mode.chars().count() + 2;
                return nested(text, base, ctx);
            }
            _ => {
                let shown = quoted(inner);
                ctx.refused.push(Refusal::new(
                    ctx.line,
                    column,
                    format!(
                        "`{{{shown}}}`: a Generate link other than `{{Generate~0,text,Group}}`"
                    ),
                    format!("write the text it shows in place{hint}"),
                ));
            }
        },
        "dice" | "calc" => match sheet::dice_problem(args) {
            None => return vec![Frag::Dice(sheet::our_dice(args))],
            Some(p) => ctx.refused.push(Refusal::new(
                ctx.line,
                column,
                format!("`{{{name}~{args}}}`: {p}"),
                format!(
                    "write dice tablewright's notation reads the same way (NdM, + and -, *){hint}"
                ),
            )),
        },
        "cr" if args.trim().is_empty() => return vec![Frag::Words("\n".into())],
        _ => {
            let shown = quoted(inner);
            ctx.refused.push(Refusal::new(ctx.line, column, format!("`{{{shown}}}`: the TableSmith function {name}, which tablewright's tables cannot do"), format!("write its result in place{hint}")));
        }
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranged_and_weighted_groups_with_prefix_suffix_and_continuation() {
        let s = read(
            "f.tab",
            "f",
            ":Start\n<Before \n>, after\n1,One\n3-4,Two\n# c\n_ more\n;W\n2,x [Start]:2 {Dice~2d6}{CR~}\n0,never\n",
        );
        assert!(
            s.refused.is_empty() && s.tables.iter().all(|t| t.refused.is_empty()),
            "{s:?}"
        );
        let start = &s.tables[0];
        assert_eq!(start.dice.as_deref(), Some("1d4"));
        assert_eq!(start.rows[1].range, Some((2, 4)));
        // The `_ more` line is joined to its row before it is read.
        let words = |t: &str| Frag::Words(t.into());
        assert_eq!(
            start.rows[1].text,
            [words("Before "), words("Two more"), words(" after")]
        );
        let w = &s.tables[1];
        assert_eq!(w.rows.len(), 1);
        assert_eq!(w.rows[0].weight, Some(2));
        assert_eq!(w.rows[0].text.len(), 7, "{:?}", w.rows[0].text);
    }

    #[test]
    fn what_cannot_be_carried_is_refused_at_its_column() {
        for (text, line, column, what) in [
            ("%v%,[G]\n:S\n1,a\n", 1, 1, "a variable"),
            ("@v,1,Ask\n:S\n1,a\n", 1, 1, "a parameter"),
            (":S\n1,a %v% b\n", 2, 5, "a variable"),
            (":S\n1,{If~[S]=1?a/b}\n", 2, 3, "function If on a roll"),
            (":S\n1,{If~1<x?a/b}\n", 2, 3, "function If"),
            (":S\n1,{If~1=1?a}\n", 2, 3, "function If"),
            (
                "%v%,1\n:S\n1,{If~%v%=1?[O+%w%]/b}\n",
                3,
                13,
                "`[O+%w%]`: a call with a modifier",
            ),
            (":S\n1,[other-{Dice~1d4}]\n", 2, 3, "a modifier"),
            (":S\n1,[T.other-1]\n", 2, 3, "a modifier"),
            (
                ":S\n1,[nowhere+1]\n",
                2,
                3,
                "`[nowhere+1]`, which is not a group of this file",
            ),
            (
                "%v%,1\n:S\n1,a|v+1| %v%\n",
                1,
                1,
                "a variable the file changes",
            ),
            (
                "%v%,1\n@v,1,Ask\n:S\n1,%v%\n",
                1,
                1,
                "a variable the file changes",
            ),
            (
                ":S\n1,{Generate~1,text,S}\n",
                2,
                3,
                "a Generate link other than",
            ),
            (":!S\n1,a\n", 1, 2, "non-repeating"),
            (":S\n1,{Dice~1d6/2}\n", 2, 3, "uses `/`"),
            (":S\n1,|a+1|\n", 2, 3, "assignment"),
        ] {
            let s = read("f.tab", "f", text);
            let all: Vec<&Refusal> = s
                .refused
                .iter()
                .chain(s.tables.iter().flat_map(|t| &t.refused))
                .collect();
            let r = all.first().unwrap_or_else(|| panic!("{text}"));
            assert!(r.what.contains(what), "{text}: {}", r.what);
            assert_eq!((r.line, r.column), (line, column), "{text}");
        }
    }

    /// Every refusal of a file: (line, column, what).
    fn refusals(s: &Sheet) -> Vec<(usize, usize, String)> {
        s.refused
            .iter()
            .chain(s.tables.iter().flat_map(|t| &t.refused))
            .map(|r| (r.line, r.column, r.what.clone()))
            .collect()
    }

    #[test]
    fn constructs_split_over_continuation_lines_are_read_whole() {
        let s = read(
            "f.tab",
            "f",
            ":S\n1,{Dice~\n# c\n_1d6}\n2,[\n_G]\n:G\n1,x\n",
        );
        assert!(refusals(&s).is_empty(), "{:?}", refusals(&s));
        let rows = &s.tables[0].rows;
        assert_eq!(rows[0].text, [Frag::Dice("1d6".into())]);
        let call = Frag::Call {
            file: None,
            table: "G".into(),
            line: 5,
            column: 3,
        };
        assert_eq!(rows[1].text, [call]);
        for (text, place, what) in [
            (":S\n1,{If~%v%=1\n_?a/b}\n", (2, 3), "`{If~%v%=1?a/b}`"),
            (":S\n1,{Loop~2,\n_[G]}\n:G\n1,x\n", (2, 3), "`{Loop~2,[G]}`"),
            (":S\n1,a\n_ {Loop~2,x}\n", (3, 3), "function Loop"),
            (
                ":S\n1,[G\n_+%n%]\n:G\n1,x\n",
                (2, 3),
                "`[G+%n%]`: a call with a modifier",
            ),
        ] {
            let got = refusals(&read("f.tab", "f", text));
            assert_eq!(got.len(), 1, "{text}: {got:?}");
            assert_eq!((got[0].0, got[0].1), place, "{text}");
            assert!(got[0].2.contains(what), "{text}: {}", got[0].2);
        }
    }

    #[test]
    fn constants_ifs_messages_and_links_read_as_tablesmith_gives_them() {
        let s = read(
            "f.tab",
            "f",
            "%v%,1\n%w%,x\n:S\n1,a %V% {If~%v%=1?[G]/no} {If~%w%!=x?no/d{Dice~1d4}}\n2,{Msg~hi}b{Generate~0,see, also,G}\n:G\n1,g\n",
        );
        assert!(refusals(&s).is_empty(), "{:?}", refusals(&s));
        let rows = &s.tables[0].rows;
        let call = Frag::Call {
            file: None,
            table: "G".into(),
            line: 4,
            column: 19,
        };
        let words = |t: &str| Frag::Words(t.into());
        assert_eq!(
            rows[0].text,
            [
                words("a 1 "),
                call,
                words(" "),
                words("d"),
                Frag::Dice("1d4".into())
            ]
        );
        assert_eq!(rows[1].text, [words("b"), words("see, also")]);
        assert_eq!(s.counts.len(), 3, "{:?}", s.counts);
    }

    #[test]
    fn functions_nested_past_the_bound_are_refused_not_recursed() {
        let deep = format!(":S\n1,{}x{}\n", "{If~1=1?".repeat(40), "/y}".repeat(40));
        let got = refusals(&read("f.tab", "f", &deep));
        assert!(
            got.iter().any(|r| r.2.contains("nested more than 16 deep")),
            "{got:?}"
        );
    }

    #[test]
    fn a_nested_construct_is_quoted_whole_once() {
        let long = format!(":S\n1,{{If~{{Dice~1d6}}>3?{}/b}}\n", "a".repeat(40));
        for text in [":S\n1,{If~{Dice~1d6}>3?a/b}\n", long.as_str()] {
            let got = refusals(&read("f.tab", "f", text));
            assert_eq!(got.len(), 1, "{text}: {got:?}");
            let inner = &text[5..text.len() - 1];
            assert!(
                got[0].2.contains(&format!("`{inner}`")),
                "{text}: {}",
                got[0].2
            );
        }
    }
}
