//! One table of an Inspiration Pad Pro file as it is read: its kind
//! (plain, `Type: Lookup`, `Type: Dictionary`), `Roll:`, `Set:`
//! variables and rows, kept as written so that [`super::ipt_once`] can
//! read it again with its variables bound, and closed into a
//! [`SrcTable`] once its last row is read.

use std::collections::BTreeSet;
use std::rc::Rc;

use super::ipt_rows::{clip, nothing_below, range_prefix, weight_prefix};
use super::ipt_text::{self, TextCtx, Var};
use super::sheet::{self, Refusal, SrcRow, SrcTable};

/// What the reader changed or left out, counted for the report.
pub type Counts = std::collections::BTreeMap<&'static str, usize>;

/// How a table picks its row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Plain,
    Lookup,
    Dictionary,
}

/// A table being read.
pub struct Open {
    pub table: SrcTable,
    pub kind: Kind,
    /// The `Roll:` line and its expression.
    pub roll: Option<(usize, String)>,
    /// Its `Set:` variables so far (lowercase name, value).
    vars: Rc<Vec<Var>>,
    /// Variables bound to one of their values ([`TextCtx::fixed`]).
    pub fixed: Rc<Vec<(String, String)>>,
    /// What the file's variables may still put in its rows
    /// ([`ipt_text::VAR_BUDGET`]).
    pub budget: usize,
    /// Rows of the tables made for the file's rolls so far
    /// ([`ipt_text::MAX_MADE`]).
    pub made: usize,
    /// Brackets its rows hold that are read as their words.
    pub literal: usize,
    /// Its `Set:` lines and rows as written, in order, so that it can be
    /// read again with variables bound ([`super::ipt_once`]).
    pub steps: Vec<Step>,
    /// Its variables whose value is one call on a table by name, set
    /// once and before any row (lowercase variable name, table name).
    pub once: Vec<(String, String)>,
    /// The variables it sets, so far (lowercase).
    pub named: BTreeSet<String>,
    /// The variables its texts read, so far (lowercase).
    read_names: BTreeSet<String>,
    /// A row has been read.
    rowed: bool,
    /// When it was opened: the tables made for the file's rolls, and the
    /// budgets `budget` and `made`.
    pub began: (usize, usize, usize),
    /// No header or footer was read while it was open, so the tables
    /// made since it opened are its own.
    pub alone: bool,
}

/// Most variables of one call a table keeps to bind ([`Open::once`]):
/// more could not be written out within [`super::ipt_once::MAX_ROWS`]
/// rows unless their tables had one row each.
const MAX_ONCE: usize = 16;

/// A `Set:` or `Define:` line's value or a row, as written, with its
/// place.
#[derive(Debug, Clone)]
pub enum Step {
    Set(String, Place),
    /// IPP works a `Define:` out again at each use: it is never bound.
    Define(String, Place),
    Row(String, Place),
}

impl Step {
    /// Its text as written.
    pub fn text(&self) -> &str {
        let (Step::Set(text, _) | Step::Define(text, _) | Step::Row(text, _)) = self;
        text
    }
}

/// Each variable `text` reads (`{$name}`), lowercase, added to `names`.
fn reads(text: &str, names: &mut BTreeSet<String>) {
    let mut rest = text;
    while let Some(at) = rest.find("{$") {
        rest = &rest[at + 2..];
        let Some(end) = rest.find('}') else { return };
        names.insert(rest[..end].trim().to_lowercase());
        rest = &rest[end + 1..];
    }
}

impl Open {
    /// A table named `name` opened at `line`, with the file's budgets.
    pub fn new(
        name: &str,
        line: usize,
        title: Option<String>,
        began: (usize, usize, usize),
    ) -> Open {
        let (_, budget, made) = began;
        Open {
            table: SrcTable {
                name: name.trim().to_owned(),
                title,
                line,
                ..SrcTable::default()
            },
            kind: Kind::Plain,
            roll: None,
            vars: Default::default(),
            fixed: Default::default(),
            budget,
            made,
            literal: 0,
            steps: Vec::new(),
            once: Vec::new(),
            named: BTreeSet::new(),
            read_names: BTreeSet::new(),
            rowed: false,
            began,
            alone: true,
        }
    }

    /// The same table opened afresh (its kind and roll, none of its
    /// rows), with the budgets `budget` and `made`.
    pub fn fresh(&self, budget: usize, made: usize) -> Open {
        let t = &self.table;
        let mut o = Open::new(&t.name, t.line, t.title.clone(), (0, budget, made));
        (o.kind, o.roll) = (self.kind, self.roll.clone());
        o
    }

    /// Read a `Set:` line or a row, and keep it as written.
    pub fn read(&mut self, step: Step, extra: &mut Vec<SrcTable>) {
        match &step {
            Step::Set(value, _) => self.note_set(value, false),
            Step::Define(value, _) => self.note_set(value, true),
            Step::Row(..) => self.rowed = true,
        }
        reads(step.text(), &mut self.read_names);
        self.replay(&step, extra);
        self.steps.push(step);
    }

    /// A variable can be bound to its results when a `Set:` (not a
    /// `Define:`) sets it once in the table, to one call, before any row
    /// and before any text of the table reads it.
    fn note_set(&mut self, value: &str, define: bool) {
        let name = value.split_once('=').map_or("", |(n, _)| n);
        let name = name.trim().to_lowercase();
        if !self.named.insert(name.clone()) {
            self.once.retain(|(n, _)| *n != name);
            return;
        }
        let read = self.read_names.contains(&name);
        let room = !define && !self.rowed && !read && self.once.len() < MAX_ONCE;
        if let Some(once) = once_call(value).filter(|_| room) {
            self.once.push(once);
        }
    }

    /// Read a `Set:` line or a row again; a `Set:` of a bound variable
    /// is passed over (its value is bound).
    pub fn replay(&mut self, step: &Step, extra: &mut Vec<SrcTable>) {
        match step {
            Step::Set(value, at) => {
                let bound =
                    once_call(value).is_some_and(|(n, _)| self.fixed.iter().any(|(f, _)| *f == n));
                if !bound {
                    set_var(self, value, at, extra);
                }
            }
            Step::Define(value, at) => set_var(self, value, at, extra),
            Step::Row(line, at) => row(self, line, at, extra),
        }
    }
}

/// `name=[@Table]`: a variable set to one plain call (lowercase name,
/// table name), which a table can be written out for each result of.
pub fn once_call(value: &str) -> Option<(String, String)> {
    let (name, body) = value.split_once('=')?;
    let table = body.trim().strip_prefix("[@")?.strip_suffix(']')?.trim();
    let odd = table.contains(['[', ']', '{', '}', '|', '$', '\\', '>']);
    let counted = table
        .split_once(char::is_whitespace)
        .is_some_and(|(n, _)| n.bytes().all(|b| b.is_ascii_digit()));
    (!table.is_empty() && !odd && !counted).then(|| (name.trim().to_lowercase(), table.to_owned()))
}

/// Where a text starts: its line and column.
#[derive(Debug, Clone)]
pub struct Place {
    pub line: usize,
    pub column: usize,
}

/// `Set: name=value` (or `Define:`) in a table: IPP sets it each time
/// the table is rolled, so a row that uses it once (`{$name}`) rolls the
/// value in place. A value that cannot be carried is refused here.
fn set_var(o: &mut Open, value: &str, at: &Place, extra: &mut Vec<SrcTable>) {
    let Some((name, body)) = value.split_once('=') else {
        o.table.refused.push(Refusal::new(
            at.line,
            at.column,
            "`Set:` without `name=value`",
            "write `Set: name=value`, or import the rest with --skip-unsupported",
        ));
        return;
    };
    let lead = body.len() - body.trim_start().len();
    let column = at.column + value[..name.len() + 1 + lead].chars().count();
    let mut ctx = TextCtx::new(at.line, column, extra.len());
    ctx.vars = o.vars.clone();
    ctx.fixed = o.fixed.clone();
    (ctx.budget, ctx.made) = (o.budget, o.made);
    let frags = ipt_text::parse(body.trim(), &mut ctx);
    (o.budget, o.made) = (ctx.budget, ctx.made);
    o.literal += ctx.literal;
    extra.append(&mut ctx.tables);
    if !ctx.refused.is_empty() {
        o.table.refused.append(&mut ctx.refused);
        return;
    }
    let name = name.trim().to_lowercase();
    let vars = Rc::make_mut(&mut o.vars);
    vars.retain(|v| v.name != name);
    vars.push(Var {
        name,
        value: frags,
        uses: ctx.used().to_vec(),
    });
}

/// `Type:` and `Roll:` of a table.
pub fn kind_or_roll(o: &mut Open, cmd: &str, value: &str, at: Place) {
    if cmd == "roll" {
        o.roll = Some((at.line, value.to_owned()));
        return;
    }
    match value.to_ascii_lowercase().as_str() {
        "lookup" => o.kind = Kind::Lookup,
        "dictionary" => o.kind = Kind::Dictionary,
        // IPP's default kind, also written out (`Type: weighted`).
        "" | "normal" | "weighted" => o.kind = Kind::Plain,
        other => o.table.refused.push(Refusal::new(
            at.line,
            at.column,
            format!("`Type: {other}`: a kind of table tablewright does not know"),
            "use Lookup, Dictionary or no Type:, or import the rest with --skip-unsupported",
        )),
    }
}

/// One row of the open table.
fn row(o: &mut Open, line: &str, at: &Place, extra: &mut Vec<SrcTable>) {
    let (range, weight, name, body, offset) = match o.kind {
        Kind::Lookup => match range_prefix(line) {
            Some((a, b, off)) => (Some((a, b)), None, None, &line[off..], off),
            None => {
                o.table.refused.push(Refusal::new(
                    at.line,
                    at.column + 1,
                    "a row without a range (`1-3:`) in a Lookup table",
                    "give the row its range, e.g. `4-6: text`",
                ));
                return;
            }
        },
        Kind::Dictionary => match line.split_once(':') {
            Some((key, _)) => (
                None,
                Some(1),
                Some(key.trim().to_owned()),
                &line[key.len() + 1..],
                key.len() + 1,
            ),
            None => (None, Some(1), Some(line.to_owned()), "", line.len()),
        },
        Kind::Plain => match weight_prefix(line) {
            Some((w, off)) => (None, Some(w), None, &line[off..], off),
            None => (None, Some(1), None, line, 0),
        },
    };
    let lead = body.len() - body.trim_start().len();
    let column = at.column + line[..offset + lead].chars().count();
    let mut ctx = TextCtx::new(at.line, column, extra.len());
    ctx.vars = o.vars.clone();
    ctx.fixed = o.fixed.clone();
    (ctx.budget, ctx.made) = (o.budget, o.made);
    let text = ipt_text::parse(body.trim(), &mut ctx);
    (o.budget, o.made) = (ctx.budget, ctx.made);
    o.literal += ctx.literal;
    o.table.refused.append(&mut ctx.refused);
    extra.append(&mut ctx.tables);
    if weight == Some(0) {
        return;
    }
    o.table.rows.push(SrcRow {
        range,
        weight,
        text,
        name,
        line: at.line,
    });
}

/// A table whose rows are read: a Lookup table gets its die (its
/// `Roll:`, or `1d` the highest end), ranges the die cannot roll cut off,
/// and a refusal for results no row covers (but those below the first
/// row of a table without `Roll:`, [`nothing_below`]); a table without
/// rows gives nothing, as IPP does. What it changed is counted in `counts`.
pub fn closed(counts: &mut Counts, mut o: Open) -> SrcTable {
    o.table.keyed = o.kind == Kind::Dictionary;
    if o.kind != Kind::Lookup {
        if o.table.rows.is_empty() {
            o.table.rows.push(SrcRow {
                range: None,
                weight: Some(1),
                text: Vec::new(),
                name: Some("(nothing)".into()),
                line: o.table.line,
            });
        }
        return o.table;
    }
    if o.roll.is_none() && nothing_below(&mut o.table) {
        let what = "Lookup tables without `Roll:` whose rows start above 1 (a `2-20` table): the results of their implied die below the first row give nothing, as in IPP";
        *counts.entry(what).or_default() += 1;
    }
    let (roll_line, dice) = match &o.roll {
        Some((l, d)) => (*l, d.clone()),
        None => {
            let top = o
                .table
                .rows
                .iter()
                .filter_map(|r| r.range)
                .map(|r| r.1)
                .max()
                .unwrap_or(1);
            (o.table.line, format!("1d{}", top.max(1)))
        }
    };
    let bounds = match sheet::dice_problem(&dice) {
        None => sheet::dice_bounds(&dice),
        Some(p) => {
            o.table.refused.push(Refusal::new(roll_line, 1, format!("`Roll: {dice}`: {p}"), "roll dice tablewright's notation reads the same way (NdM, + and -, *), or import the rest with --skip-unsupported"));
            None
        }
    };
    if let Some((lo, hi)) = bounds {
        clip(&mut o.table, lo, hi);
    }
    o.table.dice = Some(sheet::our_dice(&dice));
    o.table
}
