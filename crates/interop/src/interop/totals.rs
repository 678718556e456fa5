//! Dice another tool rolls that tablewright's inline dice roll otherwise —
//! a sum that can go below 0 (`{1d4-1d4}`, IPP's `{{1d4} - {1d4}}`), a
//! product past our notation's limit (`{1d6*2000}`) — carried exactly as
//! a table of their totals, each weighted by the ways the dice make it
//! (`-3` 1 way in 16, `0` 4 ways). Read here: whole numbers, `NdM`, `+`,
//! `-`, `*` (binding tighter, as in the tools' arithmetic) and brackets.
//! Sizes are bounded, so any expression is worked out in little time and
//! memory: at most [`MAX_TOTALS`] totals and weights adding up to at most
//! 2^53 (what a table's weights may add up to).

use std::collections::BTreeMap;

use super::sheet::{Frag, SrcRow, SrcTable};

/// Most totals an expression may have to become a table.
pub const MAX_TOTALS: usize = 1_000;
/// Most dice one expression rolls, and most sides of a die.
const MAX_DICE: u64 = 100;
const MAX_SIDES: u64 = 1_000;
/// Most pairs of totals added in working out one expression.
const MAX_WORK: usize = 200_000;
/// Most characters of an expression read.
const MAX_LEN: usize = 200;
/// What a table's weights may add up to.
const MAX_WEIGHT: u128 = 1 << 53;

/// The ways each total comes up.
type Ways = BTreeMap<i64, u128>;

/// The totals of `expr` with their ways, or `None` when it is not such
/// arithmetic or too large to list.
pub fn ways(expr: &str) -> Option<Ways> {
    let e: Vec<u8> = expr
        .bytes()
        .filter(|b| !b.is_ascii_whitespace())
        .map(|b| b.to_ascii_lowercase())
        .collect();
    if e.is_empty() || e.len() > MAX_LEN {
        return None;
    }
    let mut p = Parser {
        e: &e,
        at: 0,
        dice: 0,
        work: 0,
    };
    let w = p.sum()?;
    (p.at == e.len()).then_some(w)
}

/// A table of the totals of `expr` (titled `title`), each row a total
/// weighted by its ways (reduced by their common divisor), or `None`.
pub fn table(title: String, expr: &str, line: usize) -> Option<SrcTable> {
    let w = ways(expr)?;
    let g = w.values().fold(0, |a, &b| gcd(a, b)).max(1);
    let rows = w
        .into_iter()
        .map(|(total, n)| {
            Some(SrcRow {
                range: None,
                weight: Some(u64::try_from(n / g).ok()?),
                text: vec![Frag::Words(total.to_string())],
                name: Some(total.to_string()),
                line,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(SrcTable {
        title: Some(title.clone()),
        name: title,
        line,
        rows,
        synthetic: true,
        ..SrcTable::default()
    })
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 { a } else { gcd(b, a % b) }
}

struct Parser<'a> {
    e: &'a [u8],
    at: usize,
    /// Dice rolled so far.
    dice: u64,
    /// Pairs of totals added so far (at most [`MAX_WORK`]).
    work: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.e.get(self.at).copied()
    }

    /// `term (('+'|'-') term)*`
    fn sum(&mut self) -> Option<Ways> {
        let mut w = self.term()?;
        while let Some(op @ (b'+' | b'-')) = self.peek() {
            self.at += 1;
            let rhs = self.term()?;
            let rhs = if op == b'-' { scale(&rhs, -1)? } else { rhs };
            w = self.add(&w, &rhs)?;
        }
        Some(w)
    }

    /// `factor ('*' number)*`
    fn term(&mut self) -> Option<Ways> {
        let mut w = self.factor()?;
        while self.peek() == Some(b'*') {
            self.at += 1;
            let k = self.number()?;
            w = scale(&w, i64::try_from(k).ok()?)?;
        }
        Some(w)
    }

    /// A number, `NdM`, `dM` or a bracketed sum.
    fn factor(&mut self) -> Option<Ways> {
        if self.peek() == Some(b'(') {
            self.at += 1;
            let w = self.sum()?;
            (self.peek() == Some(b')')).then_some(())?;
            self.at += 1;
            return Some(w);
        }
        let n = if self.peek() == Some(b'd') {
            1
        } else {
            self.number()?
        };
        if self.peek() != Some(b'd') {
            return Some(Ways::from([(i64::try_from(n).ok()?, 1)]));
        }
        self.at += 1;
        let sides = self.number()?;
        self.dice += n;
        if self.dice > MAX_DICE || !(1..=MAX_SIDES).contains(&sides) {
            return None;
        }
        let die: Ways = (1..=sides as i64).map(|v| (v, 1)).collect();
        let mut w = Ways::from([(0, 1)]);
        for _ in 0..n {
            w = self.add(&w, &die)?;
        }
        Some(w)
    }

    /// The ways of the sum of two independent rolls.
    fn add(&mut self, a: &Ways, b: &Ways) -> Option<Ways> {
        self.work = self.work.checked_add(a.len().checked_mul(b.len())?)?;
        if self.work > MAX_WORK {
            return None;
        }
        let mut out = Ways::new();
        for (x, n) in a {
            for (y, m) in b {
                let e = out.entry(x.checked_add(*y)?).or_default();
                *e = e.checked_add(n.checked_mul(*m)?)?;
            }
        }
        fits(out)
    }

    /// Up to 9 digits.
    fn number(&mut self) -> Option<u64> {
        let start = self.at;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) && self.at - start < 9 {
            self.at += 1;
        }
        if self.peek().is_some_and(|b| b.is_ascii_digit()) {
            return None;
        }
        std::str::from_utf8(&self.e[start..self.at])
            .ok()?
            .parse()
            .ok()
    }
}

/// Every total times `k`.
fn scale(a: &Ways, k: i64) -> Option<Ways> {
    let mut out = Ways::new();
    for (x, n) in a {
        *out.entry(x.checked_mul(k)?).or_default() += n;
    }
    fits(out)
}

fn fits(w: Ways) -> Option<Ways> {
    let total: u128 = w.values().sum();
    (w.len() <= MAX_TOTALS && total <= MAX_WEIGHT).then_some(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_difference_of_dice_is_its_totals_by_their_ways() {
        let w = ways("(1d4) - (1d4)").unwrap();
        let want: Ways = [(-3, 1), (-2, 2), (-1, 3), (0, 4), (1, 3), (2, 2), (3, 1)].into();
        assert_eq!(w, want);
        let w = ways("1d6 * 2000").unwrap();
        assert_eq!(
            w.keys().copied().collect::<Vec<_>>(),
            [2000, 4000, 6000, 8000, 10000, 12000]
        );
        assert_eq!(ways("2+3*2").unwrap(), Ways::from([(8, 1)]));
        assert_eq!(ways("d6-1").unwrap().len(), 6);
    }

    #[test]
    fn the_tables_of_totals_one_file_makes_are_bounded() {
        let line = "{1d999-2}".repeat(7_000);
        let s = super::super::ipt::read("f.ipt", "f", &format!("Table: M\n{line}\n{line}\n"));
        let made: usize = s
            .tables
            .iter()
            .filter(|t| t.synthetic)
            .map(|t| t.rows.len())
            .sum();
        assert!(made <= super::super::ipt_text::MAX_MADE, "{made}");
        assert!(s.tables.iter().any(|t| {
            t.refused
                .iter()
                .any(|r| r.what.contains("200,000 rows of tables made"))
        }));
    }

    #[test]
    fn what_is_not_such_arithmetic_or_too_large_is_none() {
        for bad in [
            "",
            "1d6/2",
            "1d6!",
            "x",
            "1d",
            "(1d6",
            "1d6)",
            "2d0",
            "1d6**2",
            "100d1000",
            "101d2",
            "1d1000-1d1000",
            "1d6*9999999999",
            "1d1000*1d1000",
        ] {
            assert!(ways(bad).is_none(), "{bad}");
        }
        let t = table("t".into(), "1d4-1d4", 3).unwrap();
        assert_eq!(t.rows.len(), 7);
        assert_eq!(t.rows[3].weight, Some(4));
        assert_eq!(t.rows[0].text, [Frag::Words("-3".into())]);
    }
}
