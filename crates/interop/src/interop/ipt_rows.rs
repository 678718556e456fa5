//! The numbers of an IPP row and of a Lookup table: a row's `A-B:`/`N:`
//! range or `N:` weight, and a Lookup table's rows cut to what its die
//! rolls, with a refusal for a result no row covers or two rows do.

use super::sheet::{Refusal, SrcRow, SrcTable};

/// `A-B:` or `N:` at the start of a Lookup row (either may be negative),
/// with the offset after the colon.
pub fn range_prefix(line: &str) -> Option<(i64, i64, usize)> {
    let (a, rest) = signed(line)?;
    let (b, rest) = match rest.strip_prefix('-') {
        Some(r) => signed(r)?,
        None => (a, rest),
    };
    let rest = rest.trim_start().strip_prefix(':')?;
    Some((a.min(b), a.max(b), line.len() - rest.len()))
}

/// A signed whole number at the start of `s`, and what follows it.
fn signed(s: &str) -> Option<(i64, &str)> {
    let s = s.trim_start();
    let digits_from = usize::from(s.starts_with('-'));
    let end = s[digits_from..]
        .find(|c: char| !c.is_ascii_digit())
        .map_or(s.len(), |n| n + digits_from);
    if end == digits_from || end - digits_from > 9 {
        return None;
    }
    Some((s[..end].parse().ok()?, &s[end..]))
}

/// `N:` at the start of a plain row: its weight, and the offset after it.
pub fn weight_prefix(line: &str) -> Option<(u64, usize)> {
    let end = line.find(|c: char| !c.is_ascii_digit())?;
    if end == 0 || end > 9 || !line[end..].starts_with(':') {
        return None;
    }
    Some((line[..end].parse().ok()?, end + 1))
}

/// A Lookup table without `Roll:` is rolled `1d` its highest end, and a
/// result below its first row finds no row: IPP (and Randomness) give
/// nothing then. Written for a roll that starts above 1 (a `2-20` table
/// looked up with `[#{1d8+1d12} T]`), such a table gets an empty row for
/// `1` to below its first row, so a roll of its own die gives what IPP
/// gives. `false` when its rows start at 1 or below (or it has none).
pub fn nothing_below(t: &mut SrcTable) -> bool {
    let Some(first) = t.rows.iter().filter_map(|r| r.range).map(|r| r.0).min() else {
        return false;
    };
    if first <= 1 {
        return false;
    }
    t.rows.insert(
        0,
        SrcRow {
            range: Some((1, first - 1)),
            weight: None,
            text: Vec::new(),
            name: Some("(nothing)".into()),
            line: t.line,
        },
    );
    true
}

/// Rows cut to the die's results `lo..=hi` (a row wholly outside never
/// comes up), and a refusal for a result no row covers or two rows do.
pub fn clip(t: &mut SrcTable, lo: i64, hi: i64) {
    t.rows
        .retain(|r| r.range.is_some_and(|(a, b)| b >= lo && a <= hi));
    for r in &mut t.rows {
        r.range = r.range.map(|(a, b)| (a.max(lo), b.min(hi)));
    }
    let mut sorted: Vec<(i64, i64, usize)> = t
        .rows
        .iter()
        .filter_map(|r| r.range.map(|(a, b)| (a, b, r.line)))
        .collect();
    sorted.sort();
    let mut next = lo;
    for (a, b, line) in sorted {
        if a > next {
            t.refused.push(Refusal::new(line, 1, format!("Lookup table `{}`: no row for {}, which its die can roll (IPP gives nothing there)", t.name, span(next, a - 1)), "add a row for those results, or import the rest with --skip-unsupported"));
        } else if a < next {
            t.refused.push(Refusal::new(
                line,
                1,
                format!(
                    "Lookup table `{}`: the range {a}-{b} overlaps the row before",
                    t.name
                ),
                "make each result pick one row",
            ));
        }
        next = next.max(b + 1);
    }
    if next <= hi {
        t.refused.push(Refusal::new(t.line, 1, format!("Lookup table `{}`: no row for {}, which its die can roll (IPP gives nothing there)", t.name, span(next, hi)), "add a row for those results, or import the rest with --skip-unsupported"));
    }
}

/// `3` or `3-5`.
fn span(a: i64, b: i64) -> String {
    if a == b {
        a.to_string()
    } else {
        format!("{a}-{b}")
    }
}
