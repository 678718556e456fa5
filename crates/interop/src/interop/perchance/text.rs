//! A Perchance item's text (or a property's value) read into [`Frag`]s,
//! construct by construct, as Perchance's engine reads it:
//!
//! - `[list]`, `[list.sub]`, `[list.item.property]`: a roll on that list's
//!   table (a property referred to becomes a table of one row).
//! - `{a|b|c}`: a pick, each option as likely (`{pick: a | b | c}`); with
//!   `^N` weights, an empty option, or an option holding `|` or a brace,
//!   a table of its own with a row per option. `{x}` is its text.
//! - `{1-6}`: inline dice, each number as likely (`{10-20}` is
//!   `{1d11+9}`); `{a-e}`: a pick of the letters.
//! - Escapes: `\s` a space, `\t` a tab, `\n` a new line, `\x` the
//!   character `x`.
//!
//! - `[list.selectOne]`: as `[list]`; `[this.joinItems("…")]` in a
//!   list's `$output`: every item of the list in order, the quoted words
//!   between them.
//!
//! Refused, each at its line and column: every other `[…]` (variables,
//! other methods, functions, conditions, `list[var]`: JavaScript), `{import:…}`, `{a}` and `{s}` (their words depend on the
//! text beside them), `^[…]` dynamic odds, and `{a|}` (an empty last
//! option, which Perchance engines read differently).

use super::steps::{self, Step};
use super::tree::{self, Weight, short};
use super::{JS_HINT, Maker, whole};
use crate::interop::scan::{self, Brackets};
use crate::interop::sheet::{self, Frag, Refusal, SrcRow, SrcTable};

/// Perchance's methods and words of JavaScript, named in refusals.
const METHODS: &[&str] = &[
    "selectOne",
    "selectAll",
    "selectMany",
    "selectUnique",
    "joinItems",
    "upperCase",
    "lowerCase",
    "titleCase",
    "sentenceCase",
    "pluralForm",
    "singularForm",
    "pastTense",
    "presentTense",
    "futureTense",
    "possessiveForm",
    "negativeForm",
    "getLength",
    "getName",
    "getChildNames",
    "getOdds",
    "evaluateItem",
    "consumableList",
    "replaceText",
    "length",
    "this",
];

/// Read `text`, which starts at byte `at` of line `line`, with no
/// set-once variable in it (those are [`super::convert`]'s): its
/// pieces, and what in it is refused.
pub(super) fn plain(
    m: &mut Maker,
    line: usize,
    at: usize,
    text: &str,
) -> (Vec<Frag>, Vec<Refusal>) {
    let line_text = m.tree.lines.get(line - 1).copied().unwrap_or("");
    let mut c = Conv {
        m,
        line,
        line_text,
        base: at,
        text,
        pairs: scan::pairs(text),
        refused: Vec::new(),
        calls: 0,
    };
    let frags = scan::range(&mut c, 0, text.len(), 0);
    (frags, c.refused)
}

struct Conv<'m, 'a, 'x> {
    m: &'m mut Maker<'a>,
    line: usize,
    line_text: &'x str,
    base: usize,
    text: &'x str,
    pairs: Vec<Option<usize>>,
    refused: Vec<Refusal>,
    calls: usize,
}

impl Brackets for Conv<'_, '_, '_> {
    fn text(&self) -> &str {
        self.text
    }

    fn closing(&self, at: usize) -> Option<usize> {
        self.pairs[at]
    }

    fn escape(&self, c: char) -> Option<char> {
        Some(match c {
            's' => ' ',
            't' => '\t',
            'n' => '\n',
            c => c,
        })
    }

    fn bracket(&mut self, open: usize, close: usize, depth: usize) -> Vec<Frag> {
        self.calls += 1;
        if self.calls == sheet::MAX_CALLS + 1 {
            self.refuse(
                open,
                "more than 256 references and choices in one item".into(),
                "split the item into lists, or import the rest with --skip-unsupported",
            );
        }
        if self.calls > sheet::MAX_CALLS {
            return Vec::new();
        }
        if self.text.as_bytes()[open] == b'[' {
            if let Some(frags) = self.join_items(open, close) {
                return frags;
            }
            self.reference(open, close).into_iter().collect()
        } else {
            self.inline(open, close, depth)
        }
    }

    fn too_deep(&mut self, open: usize) {
        self.refuse(
            open,
            "brackets nested more than 16 deep".into(),
            "flatten the text, or import the rest with --skip-unsupported",
        );
    }

    fn unclosed(&mut self, at: usize) {
        let what = format!(
            "a `{}` that is never closed",
            self.text.as_bytes()[at] as char
        );
        self.refuse(at, what, "write `\\[` or `\\{` for the character itself, or import the rest with --skip-unsupported");
    }
}

impl Conv<'_, '_, '_> {
    fn refuse(&mut self, at: usize, what: String, hint: &str) {
        let column = sheet::column(self.line_text, self.base + at);
        self.refused
            .push(Refusal::new(self.line, column, what, hint.to_owned()));
    }

    /// `[this.joinItems("…")]` in a list's `$output`: every item of the
    /// list in its order, each read as its text (a sublist rolled), the
    /// quoted words between them — what Perchance prints; `None` for
    /// anything else (then refused as JavaScript).
    fn join_items(&mut self, open: usize, close: usize) -> Option<Vec<Frag>> {
        let inner = self.text[open + 1..close].trim();
        let arg = inner
            .strip_prefix("this.joinItems(")?
            .strip_suffix(')')?
            .trim();
        let q = arg.chars().next().filter(|c| *c == '"' || *c == '\'')?;
        let sep = arg.strip_prefix(q)?.strip_suffix(q)?;
        if sep.contains(['\\', q]) {
            return None;
        }
        // Items read here see no `this`: one of them cannot join again.
        let n = self.m.this.take()?;
        let tree = self.m.tree;
        let kids: Vec<usize> = tree.nodes[n]
            .children
            .iter()
            .copied()
            .filter(|&c| !tree.nodes[c].prop)
            .collect();
        self.m.joined = self.m.joined.saturating_add(kids.len());
        if self.m.joined > sheet::MAX_ROWS {
            self.refuse(
                open,
                "`[this.joinItems(…)]` joining more than 200,000 items in one file".into(),
                "split the list, or import the rest with --skip-unsupported",
            );
            self.m.this = Some(n);
            return Some(Vec::new());
        }
        let mut out = Vec::new();
        for (i, &c) in kids.iter().enumerate() {
            if i > 0 && !sep.is_empty() {
                out.push(Frag::Words(sep.to_owned()));
            }
            let child = &tree.nodes[c];
            if tree.is_list(c) {
                out.extend(self.m.table_for(c).map(Frag::Local));
            } else {
                let (f, mut r) = super::convert(self.m, child.line, child.at, &child.value);
                self.refused.append(&mut r);
                out.extend(f);
            }
        }
        self.m.this = Some(n);
        self.m
            .count("`[this.joinItems(…)]`: every item of its list, in order, joined");
        Some(out)
    }

    /// `[…]`: a list, sublist or property by its path (`.selectOne` after
    /// it picks as the path alone does), else refused.
    fn reference(&mut self, open: usize, close: usize) -> Option<Frag> {
        let inner = self.text[open + 1..close].trim();
        if let Some(step) = steps::parse(inner) {
            let column = sheet::column(self.line_text, self.base + open);
            let got = match step {
                Step::Sentence(path) => steps::sentence(self.m, &path, (self.line, column)),
                Step::Join(var, lists) => steps::join(self.m, var, &lists),
            };
            return got.unwrap_or_else(|what| {
                self.refuse(open, what, JS_HINT);
                None
            });
        }
        let mut path: Vec<&str> = inner.split('.').collect();
        if path.len() > 1 && path.last() == Some(&"selectOne") {
            path.pop();
        }
        if path.iter().all(|p| tree::is_name(p) || *p == "$output") {
            let tree = self.m.tree;
            let mut node = tree.child(0, path[0]);
            for p in &path[1..] {
                node = node.and_then(|n| tree.child(n, p));
            }
            if let Some(d) = node.and_then(|n| tree.nodes[n].dice.as_deref())
                && sheet::dice_problem(d).is_none()
            {
                return Some(Frag::Dice(sheet::our_dice(d)));
            }
            if let Some(n) = node.filter(|&n| tree.is_list(n) || tree.nodes[n].prop) {
                self.m.count("[list] references → {table:…}");
                return self.m.table_for(n).map(Frag::Local);
            }
            let what = match path.iter().find(|p| METHODS.contains(p)) {
                Some(m) => format!(
                    "`[{}]` uses `{m}`, one of Perchance's JavaScript methods",
                    short(inner)
                ),
                None if node.is_some() => format!("`[{}]` names an item, not a list", short(inner)),
                None => format!("`[{}]` names no list of this generator", short(inner)),
            };
            self.refuse(open, what, JS_HINT);
            return None;
        }
        let what = if inner.contains('(') {
            "calls a JavaScript function"
        } else if inner.contains('?') {
            "is a JavaScript condition"
        } else if inner.replace("==", "").replace("!=", "").contains('=') {
            "sets a variable"
        } else if inner.contains('[') {
            "picks a list by a variable's value"
        } else {
            "is a JavaScript expression"
        };
        self.refuse(open, format!("`[{}]` {what}", short(inner)), JS_HINT);
        None
    }

    /// `{…}`: an import, `{a}`/`{s}`, a range, or a choice.
    fn inline(&mut self, open: usize, close: usize, depth: usize) -> Vec<Frag> {
        let inner = &self.text[open + 1..close];
        if inner.starts_with("import:") {
            self.refuse(
                open,
                format!("`{{{}}}` imports another Perchance generator", short(inner)),
                JS_HINT,
            );
            return Vec::new();
        }
        if matches!(inner, "a" | "A" | "s" | "S") {
            let what = if inner.eq_ignore_ascii_case("a") {
                "a or an"
            } else {
                "a plural s"
            };
            self.refuse(
                open,
                format!("`{{{inner}}}` ({what}) depends on the words beside it"),
                "write the word out in each item, or import the rest with --skip-unsupported",
            );
            return Vec::new();
        }
        if let Some((a, b)) = number_range(inner) {
            return self.numbers(open, a, b);
        }
        if let Some((a, b)) = letter_range(inner) {
            return self.letters(open, a, b);
        }
        self.choice(open, close, depth)
    }

    /// `{A-B}` as inline dice.
    fn numbers(&mut self, open: usize, a: i64, b: i64) -> Vec<Frag> {
        if a > b {
            self.refuse(
                open,
                format!("`{{{a}-{b}}}`: a range from high to low"),
                "write the low number first, or import the rest with --skip-unsupported",
            );
            return Vec::new();
        }
        if a == b {
            return vec![Frag::Words(a.to_string())];
        }
        let shift = a - 1;
        let expr = match shift {
            0 => format!("1d{}", b - a + 1),
            s if s < 0 => format!("1d{}{s}", b - a + 1),
            s => format!("1d{}+{s}", b - a + 1),
        };
        if let Some(p) = sheet::dice_problem(&expr) {
            self.refuse(
                open,
                format!("`{{{a}-{b}}}` (as `{expr}`): {p}"),
                "use a range of numbers from 0 up, or import the rest with --skip-unsupported",
            );
            return Vec::new();
        }
        self.m.count("{A-B} number ranges → inline dice");
        vec![Frag::Dice(expr)]
    }

    /// `{a-e}` as a pick of the letters.
    fn letters(&mut self, open: usize, a: u8, b: u8) -> Vec<Frag> {
        let same = a.is_ascii_lowercase() == b.is_ascii_lowercase();
        if !same || a > b {
            let what = format!(
                "`{{{}-{}}}`: a range of letters of mixed case or from high to low",
                a as char, b as char
            );
            self.refuse(
                open,
                what,
                "write `{a-z}` or `{A-Z}`, or import the rest with --skip-unsupported",
            );
            return Vec::new();
        }
        if a == b {
            return vec![Frag::Words((a as char).to_string())];
        }
        self.m.count("{a-z} letter ranges → {pick: …}");
        vec![Frag::Pick(
            (a..=b)
                .map(|c| vec![Frag::Words((c as char).to_string())])
                .collect(),
        )]
    }

    /// Option bounds of `{…}`: (start, end of text, weight); `None` when
    /// a weight is refused.
    fn options(&mut self, open: usize, close: usize) -> Option<Vec<(usize, usize, Weight)>> {
        let bytes = self.text.as_bytes();
        let mut bounds = Vec::new();
        let (mut start, mut i, mut caret) = (open + 1, open + 1, None);
        while i <= close {
            let b = bytes[i];
            match self.pairs[i] {
                Some(j) if j < close && (b == b'[' || b == b'{') => i = j + 1,
                _ if b == b'\\' => i += 2,
                _ if b == b'|' || i == close => {
                    bounds.push((start, i, caret.take()));
                    start = i + 1;
                    i += 1;
                }
                _ => {
                    if b == b'^' && caret.is_none() {
                        caret = Some(i);
                    }
                    i += 1;
                }
            }
        }
        let mut out = Vec::new();
        for (a, b, caret) in bounds {
            let Some(k) = caret else {
                out.push((a, b, Weight::One));
                continue;
            };
            let w = &self.text[k + 1..b];
            match tree::number(w) {
                Some(weight) => out.push((a, k, weight)),
                None => {
                    let what = if w.starts_with('[') {
                        "`^[…]`: odds that change with a condition (dynamic odds)".to_owned()
                    } else {
                        format!(
                            "`^{}`: a weight in a choice that is not a number alone",
                            short(w)
                        )
                    };
                    self.refuse(k, what, JS_HINT);
                    return None;
                }
            }
        }
        Some(out)
    }

    /// `{a|b^2|c}`: a pick, or a table of its own.
    fn choice(&mut self, open: usize, close: usize, depth: usize) -> Vec<Frag> {
        let Some(opts) = self.options(open, close) else {
            return Vec::new();
        };
        if opts.len() > 1 && opts.last().is_some_and(|o| o.0 == o.1) {
            self.refuse(
                open,
                "an empty last option (`{a|}`), which Perchance engines read differently".into(),
                "put the empty option first (`{|a}`), or import the rest with --skip-unsupported",
            );
            return Vec::new();
        }
        let texts: Vec<Vec<Frag>> = opts
            .iter()
            .map(|o| scan::range(self, o.0, o.1, depth + 1))
            .collect();
        if texts.len() == 1 {
            return texts.into_iter().next().unwrap_or_default();
        }
        let weights: Vec<&Weight> = opts.iter().map(|o| &o.2).collect();
        let Some(whole) = whole(&weights) else {
            self.refuse(
                open,
                "weights that add up to more than tablewright keeps exactly".into(),
                "use smaller weights, or import the rest with --skip-unsupported",
            );
            return Vec::new();
        };
        if whole.iter().all(Option::is_none) {
            self.refuse(
                open,
                "every option has weight 0 (Perchance engines differ on what comes up then)".into(),
                "give an option a weight, or import the rest with --skip-unsupported",
            );
            return Vec::new();
        }
        if opts
            .iter()
            .any(|o| self.text[o.0..o.1].trim() != &self.text[o.0..o.1])
        {
            self.m
                .count("inline options with spaces at their ends (tablewright trims them)");
        }
        let uniform = whole.iter().all(|w| *w == Some(1));
        if uniform && scan::pick_safe(&texts) {
            self.m.count("{a|b} inline choices → {pick: …}");
            return vec![Frag::Pick(texts)];
        }
        self.m
            .count("weighted or empty inline options → tables of their own");
        let rows = whole
            .into_iter()
            .zip(texts)
            .filter_map(|(w, text)| {
                Some(SrcRow {
                    range: None,
                    weight: Some(w?),
                    text,
                    name: None,
                    line: self.line,
                })
            })
            .collect();
        let name = self.m.extra_name(self.line);
        let table = SrcTable {
            name,
            line: self.line,
            rows,
            synthetic: true,
            ..SrcTable::default()
        };
        self.m.extra(table).map(Frag::Local).into_iter().collect()
    }
}

/// `A-B` of whole numbers, either may be negative (`{-5-5}`).
fn number_range(t: &str) -> Option<(i64, i64)> {
    let (a, rest) = signed(t)?;
    let (b, rest) = signed(rest.strip_prefix('-')?)?;
    rest.is_empty().then_some((a, b))
}

pub(super) fn signed(s: &str) -> Option<(i64, &str)> {
    let from = usize::from(s.starts_with('-'));
    let end = s[from..]
        .find(|c: char| !c.is_ascii_digit())
        .map_or(s.len(), |n| n + from);
    if end == from || end - from > 9 {
        return None;
    }
    Some((s[..end].parse().ok()?, &s[end..]))
}

/// `a-e`: two letters and a dash.
fn letter_range(t: &str) -> Option<(u8, u8)> {
    let b = t.as_bytes();
    (b.len() == 3 && b[1] == b'-' && b[0].is_ascii_alphabetic() && b[2].is_ascii_alphabetic())
        .then(|| (b[0], b[2]))
}
