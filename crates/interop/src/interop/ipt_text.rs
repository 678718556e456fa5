//! The text of an Inspiration Pad Pro row, read into [`Frag`]s: calls
//! `[@t]`, `[@3 t]` and `[@{1d4} t]` (a count rolled becomes a table of
//! counts), inline choices `[|a|b|c]` (`{pick: …}`, or a table of the
//! options when one is empty), dice `{2d6}` (arithmetic our dice roll
//! otherwise a table of its totals, [`super::totals`]), `>> implode`
//! ([`super::ipt_filter`]), brackets that are neither a call nor a
//! choice as the words they hold (`[Colors2]` prints `Colors2`), `Set:`
//! variables (`{$x}`, once in a text, or any number of times when
//! [`super::ipt_once`] binds them to a value), and the
//! escapes `\n` (a new
//! line), `\z` (nothing), `\_` (a space kept even at an end) and `\a`
//! (the article "a" or "an", chosen by the word written after it; refused
//! when that word is rolled). Brackets are paired in one pass over the
//! text, and nesting, calls and counts are bounded, so a text is read in
//! time linear in its length.

use super::ipt_article::{NoWord, article};
use super::scan::{self, Brackets};
use super::sheet::{self, Cased, Frag, Look, Refusal, SrcRow, SrcTable};
use super::{ipt_filter, totals};

/// Between the results of a repeated call, as the Randomness reader joins
/// them (its reference: "results joined with blank lines").
pub const JOIN: &str = "\n\n";

/// Where a text is and what reading it made.
pub struct TextCtx {
    line: usize,
    column: usize,
    /// Tables the file's reader made before this text's.
    base: usize,
    calls: usize,
    /// A conditional was met: the rest of the text is not read.
    stop: bool,
    /// Tables this text needs (a rolled count, a choice with an empty
    /// option), called as `Frag::Local(base + n)`.
    pub tables: Vec<SrcTable>,
    pub refused: Vec<Refusal>,
    /// The `Set:` variables of the table this text is in, each usable
    /// once in a text: IPP sets them each time the table is rolled, so
    /// one use is the value's roll in place.
    pub vars: std::rc::Rc<Vec<Var>>,
    /// `Set:` variables bound to one of their values, for a table whose
    /// rows are written out once for each ([`super::ipt_once`]): usable
    /// any number of times, and in the names of calls and lookups.
    pub fixed: std::rc::Rc<Vec<(String, String)>>,
    /// The variables this text used.
    used: Vec<String>,
    /// Characters the file's variables may still put in its rows, so a
    /// long value used in every row is refused before it fills memory.
    pub budget: usize,
    /// Rows of the tables made for the file's texts so far ([`MAX_MADE`]).
    pub made: usize,
    /// Brackets read as the words they hold (`[Colors2]`).
    pub literal: usize,
}

/// A `Set:` variable of a table.
#[derive(Debug, Clone)]
pub struct Var {
    /// Its name, lowercase.
    pub name: String,
    /// Its value, rolled in place where it is used.
    pub value: Vec<Frag>,
    /// The variables its value used: a text that uses it may not use
    /// them too, as IPP would give the same value twice.
    pub uses: Vec<String>,
}

/// The end of every hint of a refusal in a row's text.
const SKIP: &str = ", or import the rest with --skip-unsupported";

/// Rows of the tables the reader makes for one file's rolls (counts,
/// choices, totals), all together.
pub const MAX_MADE: usize = sheet::MAX_ROWS;

/// Characters every use of the `Set:` variables of one file may put into
/// its rows, all together.
pub const VAR_BUDGET: usize = 4 << 20;

/// About how many characters `frags` hold.
fn size(frags: &[Frag]) -> usize {
    frags
        .iter()
        .map(|f| match f {
            Frag::Words(w) | Frag::Dice(w) => w.len(),
            Frag::Pick(options) => options.iter().map(|o| size(o) + 1).sum(),
            _ => 8,
        })
        .sum()
}

impl TextCtx {
    pub fn new(line: usize, column: usize, base: usize) -> TextCtx {
        TextCtx {
            line,
            column,
            base,
            calls: 0,
            stop: false,
            tables: Vec::new(),
            refused: Vec::new(),
            vars: Default::default(),
            fixed: Default::default(),
            used: Vec::new(),
            budget: 0,
            made: 0,
            literal: 0,
        }
    }

    /// `{$name}` of a `Set:` of this table: its value, the first time in
    /// this text (`None`: not such a variable, or used again).
    fn var(&mut self, inner: &str) -> Option<Result<Vec<Frag>, ()>> {
        let name = inner.strip_prefix('$')?.trim().to_lowercase();
        if let Some(value) = self.bound(&name) {
            let Some(left) = self.budget.checked_sub(value.len()) else {
                return Some(Err(()));
            };
            let words = value.to_owned();
            self.budget = left;
            return Some(Ok(if words.is_empty() {
                Vec::new()
            } else {
                vec![Frag::Words(words)]
            }));
        }
        let var = self.vars.iter().find(|v| v.name == name)?;
        let cost = size(&var.value);
        let again = |n: &String| self.used.contains(n);
        if again(&name) || var.uses.iter().any(again) || cost > self.budget {
            return Some(Err(()));
        }
        self.budget -= cost;
        let value = var.value.clone();
        self.used.extend(var.uses.iter().cloned());
        self.used.push(name);
        Some(Ok(value))
    }

    /// The variables this text used, with those their values used.
    pub fn used(&self) -> &[String] {
        &self.used
    }

    /// The value `name` (lowercase) is bound to, if it is.
    fn bound(&self, name: &str) -> Option<&str> {
        let (_, v) = self.fixed.iter().find(|(n, _)| n == name)?;
        Some(v)
    }

    /// `text` with every `{$name}` in it replaced by its bound value
    /// (`None`: it holds one that is not bound, or whose value holds a
    /// space, which would end a lookup's key or a call's count there).
    fn filled(&self, text: &str) -> Option<String> {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(at) = rest.find("{$") {
            let end = rest[at..].find('}')? + at;
            out.push_str(&rest[..at]);
            let value = self.bound(&rest[at + 2..end].trim().to_lowercase())?;
            (!value.contains(char::is_whitespace)).then_some(())?;
            out.push_str(value);
            rest = &rest[end + 1..];
        }
        out.push_str(rest);
        Some(out)
    }

    fn refuse(&mut self, text: &str, at: usize, what: impl Into<String>, hint: &str) {
        let column = self.column + text[..at].chars().count();
        self.refused.push(Refusal::new(
            self.line,
            column,
            what,
            if hint.ends_with(SKIP) {
                hint.to_owned()
            } else {
                format!("{hint}{SKIP}")
            },
        ));
    }

    /// A table this text needs, called by its place; past [`MAX_MADE`]
    /// rows of such tables in one file, refused (its rows not kept).
    fn local(&mut self, mut table: SrcTable) -> Frag {
        self.made = self.made.saturating_add(table.rows.len());
        if self.made > MAX_MADE {
            table.rows.clear();
            table.refused.push(Refusal::new(
                self.line,
                self.column,
                "more than 200,000 rows of tables made for one file's rolls (counts, choices, totals, copies)",
                "split the file, or import the rest with --skip-unsupported",
            ));
        }
        self.tables.push(table);
        Frag::Local(self.base + self.tables.len() - 1)
    }
}

/// Read a row's text.
pub fn parse(text: &str, ctx: &mut TextCtx) -> Vec<Frag> {
    let pairs = scan::pairs(text);
    let mut r = Reader { text, pairs, ctx };
    scan::range(&mut r, 0, text.len(), 0)
}

struct Reader<'a, 'c> {
    text: &'a str,
    pairs: Vec<Option<usize>>,
    ctx: &'c mut TextCtx,
}

impl Brackets for Reader<'_, '_> {
    fn text(&self) -> &str {
        self.text
    }

    fn closing(&self, at: usize) -> Option<usize> {
        self.pairs[at]
    }

    fn escape(&self, c: char) -> Option<char> {
        match c {
            'n' => Some('\n'),
            't' => Some('\t'),
            'z' => None,
            c => Some(c),
        }
    }

    fn escape_piece(&mut self, at: usize, end: usize) -> Option<Frag> {
        match self.text.as_bytes().get(at + 1) {
            Some(b'_') => Some(Frag::Space),
            Some(b'a') => Some(Frag::Words(self.article(at, end))),
            _ => None,
        }
    }

    fn bracket(&mut self, open: usize, close: usize, depth: usize) -> Vec<Frag> {
        if self.text.as_bytes()[open] == b'[' {
            self.square(open, close, depth)
        } else {
            self.braced(open, close)
        }
    }

    fn too_deep(&mut self, open: usize) {
        let what = "brackets nested more than 16 deep";
        self.ctx.refuse(self.text, open, what, "flatten the text");
    }

    fn stopped(&self) -> bool {
        self.ctx.stop
    }
}

impl Reader<'_, '_> {
    /// `\a` at `at`: the article for the word after it (up to `end`), or
    /// refused when there is no such word to choose by.
    fn article(&mut self, at: usize, end: usize) -> String {
        let (what, hint) = match article(&self.text[at + 2..end]) {
            Ok(a) => return a.to_owned(),
            Err(NoWord::Rolled) => (
                "`\\a`: the article \"a\" or \"an\" for a word that is rolled (a call, a choice or dice follows it), which tablewright's tables cannot choose",
                "write \"a\" or \"an\" into the rows it rolls, or put the word after `\\a` in the text",
            ),
            Err(NoWord::Missing) => (
                "`\\a`: the article \"a\" or \"an\" with no word of letters right after it to choose by",
                "write \"a\" or \"an\" in its place",
            ),
        };
        self.ctx.refuse(self.text, at, what, hint);
        String::new()
    }

    /// `[…]` from `open` to `close`.
    fn square(&mut self, open: usize, close: usize, depth: usize) -> Vec<Frag> {
        if let Some(frags) = self.bound_names(open, close, depth) {
            return frags;
        }
        self.ctx.calls += 1;
        if self.ctx.calls == sheet::MAX_CALLS + 1 {
            let what = "more than 256 calls and choices in one row";
            self.ctx
                .refuse(self.text, open, what, "split the row into tables");
        }
        if self.ctx.calls > sheet::MAX_CALLS {
            return Vec::new();
        }
        let inner = &self.text[open + 1..close];
        let first = inner.chars().next().unwrap_or(' ');
        let shown: String = inner.chars().take(30).collect();
        let refuse =
            |ctx: &mut TextCtx, what: String, hint: &str| ctx.refuse(self.text, open, what, hint);
        match first {
            '@' => return self.call(open, close),
            '|' => return self.choice(open, close, depth),
            '!' => refuse(
                self.ctx,
                format!(
                    "`[{shown}]`: a pick without repeats (IPP keeps what it drew for the whole run and starts again when all are drawn; tablewright has no such pick)"
                ),
                "write `[@…]` if repeats are fine",
            ),
            '#' => {
                if let Some(f) = self.lookup(open, close) {
                    return vec![f];
                }
                refuse(
                    self.ctx,
                    format!(
                        "`[{shown}]`: a lookup of one row by its key or by a number that is not dice"
                    ),
                    "write that row's text in place",
                )
            }
            _ if inner.to_ascii_lowercase().starts_with("when") => {
                refuse(
                    self.ctx,
                    "`[when]…[end]`: a conditional".into(),
                    "make a table for each branch",
                );
                self.ctx.stop = true;
            }
            _ => {
                if let Some(words) = self.literal(open, close) {
                    return words;
                }
                refuse(
                    self.ctx,
                    format!(
                        "`[{shown}]`: brackets that are not a call (`[@…]`) or a choice (`[|…]`), holding more than words"
                    ),
                    "remove the brackets, or make it a call `[@Table]`",
                )
            }
        }
        Vec::new()
    }

    /// `[@{$a}{$b}]` or `[#{$b} T]` while the variables are bound
    /// ([`TextCtx::fixed`]): the call or lookup their values name, read
    /// as if written so, its places at the bracket; `None` otherwise.
    fn bound_names(&mut self, open: usize, close: usize, depth: usize) -> Option<Vec<Frag>> {
        let whole = &self.text[open..=close];
        let named = whole.starts_with("[@") || whole.starts_with("[#");
        if self.ctx.fixed.is_empty() || !named || !whole.contains("{$") {
            return None;
        }
        let text = self.ctx.filled(whole).filter(|t| !t.contains("{$"))?;
        // A value's digits run into a name (`[@{$n}Days]`, n = 2) call
        // `2Days`, not `Days` twice: not read so.
        let digits = text[2..].bytes().take_while(u8::is_ascii_digit).count();
        let glued = text[2 + digits..].starts_with(|c: char| !c.is_whitespace());
        if whole.starts_with("[@{$") && digits > 0 && glued {
            return None;
        }
        let column = self.ctx.column + self.text[..open].chars().count();
        let saved = std::mem::replace(&mut self.ctx.column, column);
        let mut r = Reader {
            pairs: scan::pairs(&text),
            text: &text,
            ctx: &mut *self.ctx,
        };
        let frags = scan::range(&mut r, 0, text.len(), depth);
        self.ctx.column = saved;
        Some(frags)
    }

    /// `[Colors2]`, `[some words >> upper]`: brackets that are neither a
    /// call nor a choice hold text, which IPP prints without them,
    /// trimmed, after its case filters (`[Colors2]` prints `Colors2`,
    /// even where a table of that name was meant). `None` when the text
    /// holds brackets, braces, escapes or a variable, or is a marker of
    /// a conditional (`[do]`, `[end]`); `Some` of nothing when a filter
    /// is refused (at its column).
    fn literal(&mut self, open: usize, close: usize) -> Option<Vec<Frag>> {
        let inner = &self.text[open + 1..close];
        let cut = inner.find(">>").unwrap_or(inner.len());
        let words = inner[..cut].trim();
        let marker = ["do", "else", "end"]
            .iter()
            .any(|m| words.eq_ignore_ascii_case(m));
        if marker || inner.contains(['[', ']', '{', '}', '\\', '$']) {
            return None;
        }
        let chain = match ipt_filter::chain(&inner[cut..], false) {
            Ok(chain) if chain.glue.is_none() => chain,
            Ok(_) => return None,
            Err(refused) => {
                for (at, what, hint) in refused {
                    self.ctx.refuse(self.text, open + 1 + cut + at, what, hint);
                }
                return Some(Vec::new());
            }
        };
        let words = chain
            .cases
            .iter()
            .fold(words.to_owned(), |w, c| c.apply(&w));
        self.ctx.literal += 1;
        Some(vec![Frag::Words(words)])
    }

    /// `[@t]`, `[@N t]`, `[@{dice} t]`.
    fn call(&mut self, open: usize, close: usize) -> Vec<Frag> {
        let body_at = open + 2;
        let full = &self.text[body_at..close];
        let cut = full.find(">>").unwrap_or(full.len());
        let body = &full[..cut];
        let (count, name_at) = match self.pairs.get(body_at).copied().flatten() {
            Some(j) if body.starts_with('{') && j < body_at + cut => (
                Count::Dice(self.text[body_at + 1..j].trim().to_owned()),
                j + 1,
            ),
            _ => {
                let digits = body
                    .find(|c: char| !c.is_ascii_digit())
                    .unwrap_or(body.len());
                match body[..digits].parse::<i64>() {
                    Ok(n) if digits > 0 && digits < 10 => (Count::Times(n), body_at + digits),
                    _ => (Count::Times(1), body_at),
                }
            }
        };
        let name = self.text[name_at..body_at + cut].trim();
        if name.is_empty() || name.contains(['{', '[', '$']) {
            let what = format!(
                "`[@{}]`: a table named by a variable or a roll",
                body.chars().take(30).collect::<String>()
            );
            self.ctx
                .refuse(self.text, open, what, "call the table by its name");
            return Vec::new();
        }
        let repeated = !matches!(count, Count::Times(1));
        let chain = match ipt_filter::chain(&full[cut..], repeated) {
            Ok(chain) => chain,
            Err(refused) => {
                for (at, what, hint) in refused {
                    self.ctx.refuse(self.text, body_at + cut + at, what, hint);
                }
                return Vec::new();
            }
        };
        let (line, column) = (
            self.ctx.line,
            self.ctx.column + self.text[..open].chars().count(),
        );
        let call = if chain.cases.is_empty() {
            Frag::Call {
                file: None,
                table: name.to_owned(),
                line,
                column,
            }
        } else {
            let cases: Vec<&str> = chain.cases.iter().map(|c| c.name()).collect();
            let title = format!("{name} ({})", cases.join(", "));
            self.ctx.local(SrcTable {
                name: title.clone(),
                title: Some(title),
                line,
                synthetic: true,
                cased: Some(Cased {
                    of: name.to_owned(),
                    line,
                    column,
                    cases: chain.cases,
                    look: None,
                }),
                ..SrcTable::default()
            })
        };
        let joiner = chain.glue.unwrap_or_else(|| JOIN.to_owned());
        self.counted(call, count, name, open, &joiner)
    }

    /// `[#{dice} T]`, `[#N T]` or `[#key T]` on a table of the file: a
    /// roll on a copy of `T` made with those dice, or of its row for `N`
    /// or `key` ([`super::ipt_case`]); `None` for a variable or a filter.
    fn lookup(&mut self, open: usize, close: usize) -> Option<Frag> {
        let body_at = open + 2;
        let body = &self.text[body_at..close];
        let (look, name_at) = match self.pairs.get(body_at).copied().flatten() {
            Some(j) if body.starts_with('{') => {
                let d = sheet::our_dice(&self.text[body_at + 1..j]);
                sheet::dice_problem(&d).is_none().then_some(())?;
                (Look::Roll(d), j + 1)
            }
            _ => {
                let digits = body.find(|c: char| !c.is_ascii_digit())?;
                match body[..digits].parse().ok().filter(|_| digits < 10) {
                    Some(n) => (Look::Number(n), body_at + digits),
                    None => {
                        let key = body.split(char::is_whitespace).next()?;
                        let odd = key.contains(['[', ']', '{', '}', '$', '"', '|', '\\', '>']);
                        (!key.is_empty() && !odd).then_some(())?;
                        (Look::Key(key.to_owned()), body_at + key.len())
                    }
                }
            }
        };
        let raw = &self.text[name_at..close];
        let name = raw.trim();
        let bad = name.is_empty() || name.contains(['{', '[', '$', '"']) || name.contains(">>");
        if bad || !raw.starts_with(char::is_whitespace) {
            return None;
        }
        let (line, column) = (
            self.ctx.line,
            self.ctx.column + self.text[..open].chars().count(),
        );
        let title = format!("{name} at {}", &self.text[body_at..name_at]);
        Some(self.ctx.local(SrcTable {
            name: title.clone(),
            title: Some(title),
            line,
            synthetic: true,
            cased: Some(Cased {
                of: name.to_owned(),
                line,
                column,
                cases: Vec::new(),
                look: Some(look),
            }),
            ..SrcTable::default()
        }))
    }

    /// A call made a number of times, or a rolled number of times.
    fn counted(
        &mut self,
        call: Frag,
        count: Count,
        name: &str,
        open: usize,
        joiner: &str,
    ) -> Vec<Frag> {
        match count {
            Count::Times(n) if n <= sheet::MAX_REPEAT => sheet::repeated(&call, n, joiner),
            Count::Times(n) => {
                let what = format!("`[@{n} {name}]`: more than 20 rolls in one call");
                self.ctx.refuse(self.text, open, what, "roll fewer times");
                Vec::new()
            }
            Count::Dice(d) => {
                if let Some(p) = sheet::dice_problem(&d) {
                    self.ctx.refuse(
                        self.text,
                        open,
                        format!("the count of `[@{{{d}}} {name}]`: {p}"),
                        "roll the count with dice tablewright reads the same way",
                    );
                    return Vec::new();
                }
                let title = format!("{name} ×{{{d}}}");
                match sheet::counted_table(title, &d, &call, joiner, self.ctx.line) {
                    Some(t) => vec![self.ctx.local(t)],
                    None => {
                        let what = format!("`[@{{{d}}} {name}]`: a count that can pass 20");
                        self.ctx
                            .refuse(self.text, open, what, "roll a smaller count");
                        Vec::new()
                    }
                }
            }
        }
    }

    /// `[|a|b|c]`: a pick; a table of the options when one is empty or
    /// holds what a pick would read otherwise (`[|a\|b|c]`: `a|b` or `c`).
    fn choice(&mut self, open: usize, close: usize, depth: usize) -> Vec<Frag> {
        let mut bounds = Vec::new();
        let mut start = open + 2;
        let mut i = start;
        while i < close {
            match self.pairs[i] {
                Some(j) if j < close => i = j + 1,
                _ if self.text.as_bytes()[i] == b'\\' => i += 2,
                _ if self.text.as_bytes()[i] == b'|' => {
                    bounds.push((start, i));
                    start = i + 1;
                    i += 1;
                }
                _ => i += 1,
            }
        }
        bounds.push((start, close));
        let options: Vec<Vec<Frag>> = bounds
            .iter()
            .map(|&(a, b)| scan::range(self, a, b, depth + 1))
            .collect();
        if scan::pick_safe(&options) {
            return vec![Frag::Pick(options)];
        }
        let line = self.ctx.line;
        let rows = options
            .into_iter()
            .map(|text| SrcRow {
                range: None,
                weight: Some(1),
                name: None,
                text,
                line,
            })
            .collect();
        let name = format!("choice on line {line}");
        vec![self.ctx.local(SrcTable {
            name,
            line,
            rows,
            synthetic: true,
            ..SrcTable::default()
        })]
    }

    /// `{…}` from `open` to `close`: dice, or a refused variable.
    fn braced(&mut self, open: usize, close: usize) -> Vec<Frag> {
        let inner = self.text[open + 1..close].trim();
        let Some(problem) = sheet::dice_problem(inner) else {
            return vec![Frag::Dice(sheet::our_dice(inner))];
        };
        let shown: String = inner.chars().take(30).collect();
        match self.ctx.var(inner) {
            Some(Ok(value)) => return value,
            Some(Err(())) => {
                let what = format!(
                    "`{{{shown}}}` a second time in one row, itself or through another variable's value (IPP gives the value it set once, each use the same, where a roll in place would roll again), or past 4 MiB of text from variables in one file"
                );
                self.ctx
                    .refuse(self.text, open, what, "use the variable once in a row");
                return Vec::new();
            }
            None => {}
        }
        let flat = sheet::our_dice(&inner.replace('{', "(").replace('}', ")"));
        if sheet::dice_problem(&flat).is_none() {
            return vec![Frag::Dice(flat)];
        }
        if self.ctx.made > MAX_MADE {
            // Past the bound: refused without working out the totals.
            return vec![self.ctx.local(SrcTable::default())];
        }
        if let Some(t) = totals::table(flat.clone(), &flat, self.ctx.line) {
            return vec![self.ctx.local(t)];
        }
        let variable =
            inner.starts_with('$') || inner.chars().all(|c| c.is_alphanumeric() || c == '_');
        if variable {
            let what = format!("`{{{shown}}}`: a variable (set by `Set:` or a `Prompt:`)");
            self.ctx.refuse(
                self.text,
                open,
                what,
                "write its value or the roll in place",
            );
        } else if inner.contains('{') {
            let what = format!("`{{{shown}}}`: arithmetic on rolls or variables inside `{{…}}`");
            self.ctx.refuse(
                self.text,
                open,
                what,
                "write one dice expression, e.g. `{2d6+3}`",
            );
        } else {
            self.ctx.refuse(
                self.text,
                open,
                problem,
                "write dice tablewright's notation reads the same way (NdM, + and -, *)",
            );
        }
        Vec::new()
    }
}

/// How many times a call rolls.
enum Count {
    Times(i64),
    Dice(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (Vec<Frag>, TextCtx) {
        let mut ctx = TextCtx::new(3, 5, 0);
        let frags = parse(text, &mut ctx);
        (frags, ctx)
    }

    #[test]
    fn calls_choices_and_dice_become_pieces() {
        let (f, ctx) = read("a [@T] b [|x|y [@U]] {2d6}\\n\\z");
        assert!(ctx.refused.is_empty(), "{:?}", ctx.refused);
        assert_eq!(f.len(), 7, "{f:?}");
        assert!(matches!(&f[1], Frag::Call { table, column: 7, .. } if table == "T"));
        assert!(matches!(&f[3], Frag::Pick(o) if o.len() == 2 && o[1].len() == 2));
        assert_eq!(f[5], Frag::Dice("2d6".into()));
        assert_eq!(f[6], Frag::Words("\n".into()));
    }

    #[test]
    fn counts_repeat_or_become_tables() {
        let (f, _) = read("[@3 T]");
        assert_eq!(f.len(), 5);
        let (f, ctx) = read("[@{1d4} T] [|a||b]");
        assert_eq!(f[0], Frag::Local(0));
        assert_eq!(f[2], Frag::Local(1));
        assert_eq!(ctx.tables[0].rows.len(), 4);
        assert_eq!(ctx.tables[1].rows.len(), 3);
    }

    #[test]
    fn what_cannot_be_carried_is_refused_at_its_column() {
        for (text, column, what) in [
            ("x [!T]", 7, "a pick without repeats"),
            ("[#key]", 5, "a lookup of one row"),
            ("[#{$a} T]", 5, "a lookup of one row"),
            ("ab [@T >> bold]", 15, "`>> bold`: a filter that changes"),
            ("[@2 T >> implode >> sort]", 25, "`>> sort`: the results"),
            ("{$name}", 5, "a variable"),
            ("[when]{$a}>1[do]x[end]", 5, "a conditional"),
            ("{{$a} - {1d4}}", 5, "arithmetic on rolls"),
            ("{1d4-{1d4/2}}", 5, "arithmetic on rolls"),
            ("{1d6/2}", 5, "uses `/`"),
            ("{1d1000-1d1000}", 5, "below 0"),
            ("[@{$n} T]", 5, "the count of"),
            ("x \\a [@T]", 7, "for a word that is rolled"),
            ("\\a[|apple|pear]", 5, "for a word that is rolled"),
            ("\\a 8-foot pole", 5, "no word of letters"),
            ("a \\a\\n orc", 7, "no word of letters"),
        ] {
            let (_, ctx) = read(text);
            let r = ctx.refused.first().unwrap_or_else(|| panic!("{text}"));
            assert!(r.what.contains(what), "{text}: {}", r.what);
            assert_eq!(r.column, column, "{text}");
        }
    }

    #[test]
    fn a_kept_space_is_a_piece_and_an_article_is_chosen_by_the_next_word() {
        let (f, ctx) = read("\\_big\\_[@T]\\_");
        assert!(ctx.refused.is_empty(), "{:?}", ctx.refused);
        assert_eq!(f[0], Frag::Space);
        assert_eq!(f[1], Frag::Words("big".into()));
        assert_eq!(f[2], Frag::Space);
        assert_eq!(f[4], Frag::Space);
        let (f, ctx) = read("\\a orc and \\a\\_wolf[@T]");
        assert!(ctx.refused.is_empty(), "{:?}", ctx.refused);
        let words: String = f
            .iter()
            .map(|p| match p {
                Frag::Words(w) => w.as_str(),
                Frag::Space => " ",
                _ => "|",
            })
            .collect();
        assert_eq!(words, "an orc and a wolf|");
    }

    #[test]
    fn deep_or_many_brackets_are_bounded() {
        let deep = "[|".repeat(40) + &"]".repeat(40);
        let (_, ctx) = read(&deep);
        assert!(ctx.refused[0].what.contains("16 deep"));
        let many = "[@T]".repeat(300);
        let (f, ctx) = read(&many);
        assert_eq!(f.len(), 256);
        assert_eq!(ctx.refused.len(), 1);
    }
}
