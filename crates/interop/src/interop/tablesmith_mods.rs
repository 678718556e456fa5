//! TableSmith calls with a modifier: `[Group+2]` and `[Group-10]` roll
//! the group's die and move the roll, `[Group=3]` fixes it. TableSmith
//! takes a roll below the group's first value as its first row and one
//! above its last as its last row, so every modified call is a roll on a
//! copy of the group whose rows weigh the ways the moved roll lands on
//! them (a weighted `;Group` counts its rows one after another, as
//! TableSmith ranges them). `[Other-10]` on a `1d2` group is its first
//! row every time; `[G+1]` on a d4 gives row 1 never, rows 2 and 3 one
//! way each and row 4 two ways. The reader makes a placeholder table for
//! the call ([`Cased`] with a [`Look::Shift`] or [`Look::Fixed`]); once
//! the file is read each takes the rows of the group it names.

use super::sheet::{Cased, Look, Refusal, SrcRow, SrcTable};

/// Each modifier placeholder of `extra` filled from the file's `own`
/// groups, or refused at its call.
pub fn fill(own: &[SrcTable], extra: &mut [SrcTable]) {
    for t in extra.iter_mut() {
        let Some(c) = t.cased.take() else { continue };
        let of = c.of.to_lowercase();
        let Some(o) = own.iter().find(|o| o.name.to_lowercase() == of) else {
            t.refused.push(refusal(&c, "is not a group of this file"));
            continue;
        };
        let ranges = ranges(o);
        let top = ranges.last().map_or(0, |r| r.1);
        let counts: Vec<u64> = match c.look {
            Some(Look::Shift(n)) => ranges.iter().map(|&r| ways(r, top, n)).collect(),
            Some(Look::Fixed(n)) => {
                let n = n.clamp(1, top.max(1));
                ranges
                    .iter()
                    .map(|&(a, b)| u64::from((a..=b).contains(&n)))
                    .collect()
            }
            _ => continue,
        };
        let g = counts.iter().copied().fold(0, gcd).max(1);
        t.rows = o
            .rows
            .iter()
            .zip(counts)
            .filter(|(_, k)| *k > 0)
            .map(|(r, k)| SrcRow {
                range: None,
                weight: Some(k / g),
                ..r.clone()
            })
            .collect();
        t.dice = None;
    }
}

/// Each row's range as TableSmith rolls it: a ranged group's own, a
/// weighted group's counted one after another from 1.
fn ranges(t: &SrcTable) -> Vec<(i64, i64)> {
    let mut last = 0i64;
    t.rows
        .iter()
        .map(|r| {
            let (a, b) = r.range.unwrap_or_else(|| {
                let w = i64::try_from(r.weight.unwrap_or(1)).unwrap_or(i64::MAX / 4);
                (last + 1, last.saturating_add(w))
            });
            last = b;
            (a, b)
        })
        .collect()
}

/// The ways a roll of `1d{top}` moved by `n`, below 1 taken as 1 and
/// above `top` as `top`, lands in `a..=b`.
fn ways((a, b): (i64, i64), top: i64, n: i64) -> u64 {
    let n = n.clamp(-top, top);
    let inside = (b.min(top + n) - a.max(1 + n) + 1).max(0);
    let below = if a <= 1 { (-n).max(0) } else { 0 };
    let above = if b >= top { n.max(0) } else { 0 };
    u64::try_from(inside + below + above).unwrap_or(0)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

fn refusal(c: &Cased, why: &str) -> Refusal {
    let m = match c.look {
        Some(Look::Shift(n)) if n < 0 => format!("{n}"),
        Some(Look::Shift(n)) => format!("+{n}"),
        Some(Look::Fixed(n)) => format!("={n}"),
        _ => String::new(),
    };
    Refusal::new(
        c.line,
        c.column,
        format!("`[{}{m}]`, which {why}", c.of),
        "write the group in this file, or import the rest with --skip-unsupported",
    )
}

#[cfg(test)]
mod tests {
    use super::super::tablesmith;
    use super::*;

    /// The copy the first call of `text` rolls: each row's words and
    /// weight.
    fn copy(text: &str) -> Vec<(String, u64)> {
        let s = tablesmith::read("f.tab", "f", text);
        let t = s.tables.iter().find(|t| t.synthetic).expect("a copy");
        assert!(t.refused.is_empty(), "{:?}", t.refused);
        t.rows
            .iter()
            .map(|r| (format!("{:?}", r.text), r.weight.unwrap()))
            .collect()
    }

    #[test]
    fn a_moved_roll_keeps_to_the_groups_first_and_last_rows() {
        assert_eq!(ways((1, 1), 4, 1), 0);
        assert_eq!(ways((2, 3), 4, 1), 2);
        assert_eq!(ways((4, 4), 4, 1), 2);
        assert_eq!(ways((1, 2), 2, -10), 2);
        assert_eq!(ways((1, 1), 6, -2), 3);
        let words = |w: &str| format!("{:?}", [super::super::sheet::Frag::Words(w.into())]);
        assert_eq!(
            copy(":S\n1,[O-10]\n:O\n1,One\n2,Two\n"),
            [(words("One"), 1)]
        );
        assert_eq!(
            copy(":S\n1,[O+1]\n:O\n1,a\n3,b\n4,c\n"),
            [(words("b"), 1), (words("c"), 1)]
        );
        // A weighted group counts its rows one after another: a 1-3, b 4.
        assert_eq!(copy(":S\n1,[W=9]\n;W\n3,a\n1,b\n"), [(words("b"), 1)]);
        assert_eq!(
            copy("%v%,2\n:S\n1,[O=%v%]\n:O\n1,one\n2,two\n"),
            [(words("two"), 1)]
        );
    }
}
