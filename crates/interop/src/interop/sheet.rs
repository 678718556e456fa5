//! What the generator-file readers ([`super::ipt`], [`super::tablesmith`])
//! read a file into before its tables are table files: named tables with
//! their rows, each row's text in pieces (our notation, calls by name
//! still to be resolved), and every construct refused on the way with
//! its line and column. [`super::assemble`] resolves the calls across the
//! files given together and makes the drafts.
//!
//! The bounds every reader keeps live here, so a file of any size or
//! shape is read in time and memory linear in its length.

use crate::dice::{self, Expr};

/// Tables in one file.
pub const MAX_TABLES: usize = 10_000;
/// Rows in one file, over all its tables.
pub const MAX_ROWS: usize = 200_000;
/// Brackets and braces nested in one row's text.
pub const MAX_DEPTH: usize = 16;
/// Calls (and inline choices) in one row's text.
pub const MAX_CALLS: usize = 256;
/// The count of a repeated call (`[@3 t]`, `[Group]:3`), or the largest
/// result of a rolled count (`[@{1d4} t]`).
pub const MAX_REPEAT: i64 = 20;
/// Characters of one line (longer lines are refused, not read).
pub const MAX_LINE: usize = 64 * 1024;

/// A file read by a generator-file reader.
#[derive(Debug, Clone, Default)]
pub struct Sheet {
    /// The file as given (for messages).
    pub file: String,
    /// The file's name without extension: other files call its tables by it.
    pub stem: String,
    /// The file's tables, in file order.
    pub tables: Vec<SrcTable>,
    /// Other files this one reads tables from (`Use:`), by file stem.
    pub uses: Vec<String>,
    /// Constructs refused outside any table (a `Prompt:`), which leave the
    /// tables alone.
    pub refused: Vec<Refusal>,
    /// What was left out or converted, counted for the report.
    pub counts: std::collections::BTreeMap<&'static str, usize>,
    /// Whether the table names are tablewright ids (a file `export` wrote).
    pub own_ids: bool,
}

/// A table of the file.
#[derive(Debug, Clone, Default, PartialEq, Hash)]
pub struct SrcTable {
    /// The table's name in the file.
    pub name: String,
    /// A title other than the name (a file `export` wrote gives one).
    pub title: Option<String>,
    /// The 1-based line it starts on.
    pub line: usize,
    /// The die of a ranged table; `None` for a weighted one.
    pub dice: Option<String>,
    /// Its rows, in file order.
    pub rows: Vec<SrcRow>,
    /// Constructs in the table that cannot be carried: the table is not
    /// imported (nor anything that calls it).
    pub refused: Vec<Refusal>,
    /// Made by the reader for a construct (a rolled count), not in the file.
    pub synthetic: bool,
    /// An IPP `Type: Dictionary` table: its rows' names are the keys
    /// `[#key T]` looks up.
    pub keyed: bool,
    /// A copy, still to be made, of a table of the file with its words'
    /// case changed (IPP's `>> upper`) or rolled with other dice (`[#…]`):
    /// see [`super::ipt_case`].
    pub cased: Option<Cased>,
}

/// What a copy is of: the table's name, where the call is written, the
/// case changes in their order, and for a lookup (`[#{1d8+1d12} T]`) the
/// roll or number it looks up.
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct Cased {
    /// The name of the table copied.
    pub of: String,
    /// The 1-based line of the call.
    pub line: usize,
    /// The 1-based column of the call.
    pub column: usize,
    /// The case changes, in their order.
    pub cases: Vec<Case>,
    /// For a lookup, what it looks up.
    pub look: Option<Look>,
}

/// What IPP's `[#… T]` looks up in a Lookup table.
#[derive(Debug, Clone, PartialEq, Hash)]
pub enum Look {
    /// The row a roll of these dice (our notation) lands on.
    Roll(String),
    /// The row of this number (in a Dictionary table, of this key).
    Number(i64),
    /// The row of this key in a Dictionary table (IPP's `[#key T]`).
    Key(String),
    /// TableSmith's `[G+n]`: the group's own roll moved by `n`, kept to
    /// its first and last rows ([`super::tablesmith_mods`]).
    Shift(i64),
    /// TableSmith's `[G=n]`: the row of `n`, kept to the first and last.
    Fixed(i64),
}

/// A change of case, as IPP's filters make it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Case {
    /// `upper`: every letter a capital.
    Upper,
    /// `lower`: every letter small.
    Lower,
    /// `proper`: the first letter of each word a capital, the rest kept.
    Proper,
}

impl Case {
    /// `text` with this change.
    pub fn apply(self, text: &str) -> String {
        match self {
            Case::Upper => text.to_uppercase(),
            Case::Lower => text.to_lowercase(),
            Case::Proper => {
                let mut out = String::with_capacity(text.len());
                let mut start = true;
                for c in text.chars() {
                    if start && c.is_alphanumeric() {
                        out.extend(c.to_uppercase());
                    } else {
                        out.push(c);
                    }
                    start = !(c.is_alphanumeric() || c == '_');
                }
                out
            }
        }
    }

    /// Its name in IPP.
    pub fn name(self) -> &'static str {
        match self {
            Case::Upper => "upper",
            Case::Lower => "lower",
            Case::Proper => "proper",
        }
    }
}

/// A row: a range or a weight, its text, and its line in the file.
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct SrcRow {
    /// The die results it covers, on a ranged table.
    pub range: Option<(i64, i64)>,
    /// Its weight, on a weighted table.
    pub weight: Option<u64>,
    /// Its text, in pieces.
    pub text: Vec<Frag>,
    /// A name of its own (a dictionary key).
    pub name: Option<String>,
    /// The 1-based line it is on.
    pub line: usize,
}

/// A piece of a row's text.
#[derive(Debug, Clone, PartialEq, Hash)]
pub enum Frag {
    /// Words, as the row shows them (braces not yet escaped).
    Words(String),
    /// An inline roll in our notation, without its braces (`2d6+1`).
    Dice(String),
    /// A roll on a table: `file` names another file (`Table.Group`), or
    /// `None` for this file and the files it uses.
    Call {
        /// The other file, by stem.
        file: Option<String>,
        /// The table's name.
        table: String,
        /// The 1-based line of the call.
        line: usize,
        /// The 1-based column of the call.
        column: usize,
    },
    /// A roll on a table of this file by its place (one the reader made).
    Local(usize),
    /// One of several texts, uniformly.
    Pick(Vec<Vec<Frag>>),
    /// A space the source keeps even at the start or end of a row or an
    /// option (IPP's `\_`), where other spaces are trimmed.
    Space,
}

/// A construct that cannot be carried exactly.
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct Refusal {
    /// The 1-based line of the construct.
    pub line: usize,
    /// The 1-based column it starts at.
    pub column: usize,
    /// What the construct is.
    pub what: String,
    /// What the GM can do.
    pub hint: String,
}

/// A refusal for line `line_no` when it is longer than [`MAX_LINE`]
/// characters (every reader keeps the same bound).
pub fn too_long(line_no: usize, line: &str) -> Option<Refusal> {
    (line.chars().count() > MAX_LINE).then(|| {
        Refusal::new(
            line_no,
            1,
            "a line longer than 65,536 characters",
            "split the line",
        )
    })
}

impl Refusal {
    /// A refusal at `line:column`: what the construct is and what to do.
    pub fn new(
        line: usize,
        column: usize,
        what: impl Into<String>,
        hint: impl Into<String>,
    ) -> Refusal {
        Refusal {
            line,
            column,
            what: what.into(),
            hint: hint.into(),
        }
    }
}

/// Why a dice expression of another tool cannot be an inline roll of
/// ours: `None` when our notation reads it and rolls it the same way
/// (sums of dice and numbers, `*`, brackets, keep highest or lowest —
/// never below zero, since our rolls are floored at 0, and no division,
/// which rounds differently).
pub fn dice_problem(expr: &str) -> Option<String> {
    let lower = our_dice(expr);
    let e = lower.as_str();
    if e.is_empty() {
        return Some("an empty dice expression".into());
    }
    if let Some(c) = e
        .chars()
        .find(|c| !(c.is_ascii_digit() || "dDkhl+-*() ".contains(*c)))
    {
        return Some(format!(
            "the dice expression `{e}` uses `{c}`, which tablewright's notation reads differently or not at all"
        ));
    }
    if let Some(p) = product_problem(e) {
        return Some(p);
    }
    match dice::parse(e) {
        Ok(Expr::Roll(r)) => {
            let (lo, _) = dice::bounds::roll_bounds(&r);
            let (raw_lo, _) = dice::bounds::sum_bounds(&r.terms);
            (raw_lo < 0 || lo < 0).then(|| {
                format!(
                    "the dice expression `{e}` can go below 0, and tablewright's rolls stop at 0"
                )
            })
        }
        Ok(_) => Some(format!("`{e}` is not a plain dice roll")),
        Err(err) => Some(format!("the dice expression `{e}`: {}", err.message)),
    }
}

/// A dice expression as our notation writes it (`3D6` is `3d6`: an
/// uppercase `D` is a METTLE pool in ours; no spaces).
pub fn our_dice(expr: &str) -> String {
    expr.chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase()
}

/// Our notation multiplies a whole roll (`2d6+1*3` is (2d6+1)×3), other
/// tools the term before the `*`: only a product both read alike — one
/// `*` by a number, last, after a single term or brackets — is taken.
fn product_problem(e: &str) -> Option<String> {
    let (left, right) = e.rsplit_once('*')?;
    let single = !left.contains(['+', '-'])
        || (left.starts_with('(')
            && left.ends_with(')')
            && left[1..].find(')') == Some(left.len() - 2));
    let ok = !left.contains('*')
        && !right.is_empty()
        && right.chars().all(|c| c.is_ascii_digit())
        && single;
    (!ok).then(|| format!("the dice expression `{e}` multiplies in a way tablewright's notation reads with other precedence"))
}

/// The smallest and largest result of a dice expression [`dice_problem`]
/// accepts.
pub fn dice_bounds(expr: &str) -> Option<(i64, i64)> {
    match dice::parse(&expr.trim().to_ascii_lowercase()) {
        Ok(Expr::Roll(r)) => Some(dice::bounds::roll_bounds(&r)),
        _ => None,
    }
}

/// A table whose rows are `call` made `k` times for each `k` a rolled
/// count gives (`[@{1d4} t]`: a d4 table whose row 3 calls `t` three
/// times), `joiner` between the results.
pub fn counted_table(
    name: String,
    dice: &str,
    call: &Frag,
    joiner: &str,
    line: usize,
) -> Option<SrcTable> {
    let (lo, hi) = dice_bounds(dice)?;
    if lo < 0 || hi > MAX_REPEAT {
        return None;
    }
    let rows = (lo..=hi)
        .map(|k| SrcRow {
            range: Some((k, k)),
            weight: None,
            text: repeated(call, k, joiner),
            name: Some(match call {
                Frag::Call { table, .. } => format!("{k} × {table}"),
                _ => format!("{k} ×"),
            }),
            line,
        })
        .collect();
    Some(SrcTable {
        title: Some(name.clone()),
        name,
        line,
        dice: Some(dice.trim().to_ascii_lowercase()),
        rows,
        synthetic: true,
        ..SrcTable::default()
    })
}

/// `call` `k` times, `joiner` between.
pub fn repeated(call: &Frag, k: i64, joiner: &str) -> Vec<Frag> {
    let mut out = Vec::new();
    for i in 0..k {
        if i > 0 && !joiner.is_empty() {
            out.push(Frag::Words(joiner.to_owned()));
        }
        out.push(call.clone());
    }
    out
}

/// The 1-based column of byte `at` in `line`.
pub fn column(line: &str, at: usize) -> usize {
    line.get(..at).map_or(1, |s| s.chars().count() + 1)
}

/// Calls to tables a reader made, numbered from 0 as it made them,
/// moved up by `by` (to their place after the file's own tables).
pub fn shift_locals(frags: &mut [Frag], by: usize) {
    for f in frags {
        match f {
            Frag::Local(n) => *n += by,
            Frag::Pick(options) => options.iter_mut().for_each(|o| shift_locals(o, by)),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_our_notation_rolls_alike_are_accepted() {
        for ok in [
            "2d6",
            "1d4+2",
            "(3d6)*5",
            "4d6kh3",
            "1d100",
            "3D6",
            "1d6 * 100",
        ] {
            assert_eq!(dice_problem(ok), None, "{ok}");
        }
        for bad in [
            "1d4-2",
            "1d6/2",
            "1d6!",
            "$x",
            "",
            "prompt1",
            "2d6+totMod",
            "1d6+2*3",
            "(1d6)+(2)*3",
            "2*1d6",
        ] {
            assert!(dice_problem(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn a_rolled_count_becomes_a_table_of_counts() {
        let call = Frag::Call {
            file: None,
            table: "t".into(),
            line: 1,
            column: 1,
        };
        let t = counted_table("n".into(), "1d3", &call, ", ", 4).unwrap();
        assert_eq!(t.dice.as_deref(), Some("1d3"));
        assert_eq!(t.rows.len(), 3);
        assert_eq!(t.rows[2].range, Some((3, 3)));
        assert_eq!(t.rows[2].text.len(), 5);
        assert_eq!(t.rows[2].name.as_deref(), Some("3 × t"));
        assert!(counted_table("n".into(), "1d100", &call, "", 1).is_none());
    }
}
