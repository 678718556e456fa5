//! `export --format perchance`: tables as a Perchance generator that picks
//! every row with the odds tablewright gives it. Each table is a list
//! (`core.injury` is `core_injury`) under a `// Title (id)` comment (which
//! `import` reads back as the table's id and title); each row an item with
//! its weight (`^3`) — a ranged table's weight is the number of ways its
//! die lands in the row's range (a d12 row `3-4` is `^2`, a 2d6 row `7` is
//! `^6`), reduced by their common divisor. `$output` rolls the first table.
//! Inline text: `{table:ID}` is `[list]`, `{pick: a | b}` is `{a|b}`, one
//! die plus or minus a number (`{d6}`, `{1d4+1}`) is `{1-6}`, `{2-5}`, and a
//! sum of dice (`{2d6+1}`) a list of its totals weighted by their ways,
//! under a `// dice: 2d6+1` comment that `import` reads back as the roll.
//! Refused, with what to do: a roll-again row, a deck, a die or inline
//! dice that are not a plain sum of dice, and a roll on a table not
//! exported with it.

use std::collections::BTreeMap;

use super::OWN_MARK;
use crate::content::Table;
use crate::content::template::{self, Segment};
use crate::diagnostic::Diagnostic;
use crate::interop::{Export, ranges};

/// Most totals a sum of dice may have to be written as a list.
const MAX_TOTALS: usize = 10_000;

/// `N`, `M`, `K` of `NdM+K`.
fn plain_sum(expr: &str) -> Option<(u32, u32, i64)> {
    let e: String = expr.chars().filter(|c| !c.is_whitespace()).collect();
    let e = e.to_ascii_lowercase();
    let (dice, shift) = match e.find(['+', '-']) {
        Some(at) => (&e[..at], e[at..].parse::<i64>().ok()?),
        None => (&e[..], 0),
    };
    let (n, m) = dice.split_once('d')?;
    let n: u32 = if n.is_empty() { 1 } else { n.parse().ok()? };
    let m: u32 = m.parse().ok()?;
    ((1..=100).contains(&n) && (1..=10_000).contains(&m)).then_some((n, m, shift))
}

/// The ways each total of `NdM+K` comes up, from the lowest total.
fn ways(n: u32, m: u32, k: i64) -> Option<(i64, Vec<u128>)> {
    let mut w: Vec<u128> = vec![1];
    for _ in 0..n {
        let mut next = vec![0u128; w.len() + m as usize - 1];
        for (i, a) in w.iter().enumerate() {
            for j in 0..m as usize {
                next[i + j] = next[i + j].checked_add(*a)?;
            }
        }
        if next.len() > MAX_TOTALS {
            return None;
        }
        w = next;
    }
    Some((i64::from(n) + k, w))
}

/// Each result of a table's die with its ways.
fn die_ways(dice: &str) -> Option<BTreeMap<i64, u128>> {
    if dice.trim().eq_ignore_ascii_case("d66") {
        return Some(
            (1..=6)
                .flat_map(|a| (1..=6).map(move |b| (a * 10 + b, 1)))
                .collect(),
        );
    }
    let (n, m, k) = plain_sum(dice)?;
    let (lo, w) = ways(n, m, k)?;
    Some(
        w.into_iter()
            .enumerate()
            .map(|(i, c)| (lo + i as i64, c))
            .collect(),
    )
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Each row's weight: its own, or the ways the die lands in its range.
fn weights(t: &Table) -> Result<Vec<u128>, String> {
    let Some(dice) = t.dice.as_deref() else {
        return Ok(t
            .rows
            .iter()
            .map(|r| u128::from(r.entry.weight.unwrap_or(1)))
            .collect());
    };
    let die = die_ways(dice).ok_or_else(|| {
        format!("its die `{dice}` is not a plain sum of dice, so its odds are no whole weights Perchance could carry")
    })?;
    let raw: Vec<u128> = ranges(t)
        .into_iter()
        .map(|(a, b)| die.range(a..=b.max(a)).map(|(_, c)| c).sum())
        .collect();
    let g = raw.iter().fold(0, |a, &b| gcd(a, b)).max(1);
    Ok(raw.into_iter().map(|w| w / g).collect())
}

/// A Perchance list name for table `id`: letters, digits and `_`.
fn list_name(id: &str) -> String {
    let mut s: String = id
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if !s.starts_with(|c: char| c.is_ascii_alphabetic()) {
        s.insert_str(0, "t_");
    }
    s
}

/// Text as Perchance reads it back as itself.
fn escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '\\' | '[' | ']' | '{' | '}' | '^' | '=' | '|' | '/' => {
                out.push('\\');
                out.push(c);
            }
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}

/// What is written: list names, and the lists made for sums of dice.
struct Writer {
    names: BTreeMap<String, String>,
    dice_lists: BTreeMap<String, (String, String)>,
}

impl Writer {
    fn new(tables: &[&Table]) -> Self {
        let mut taken = std::collections::BTreeSet::new();
        let mut names = BTreeMap::new();
        for t in tables {
            let base = list_name(&t.id);
            let mut name = base.clone();
            let mut n = 2;
            while !taken.insert(name.clone()) || name == "output" {
                name = format!("{base}_{n}");
                n += 1;
            }
            names.insert(t.id.clone(), name);
        }
        Writer {
            names,
            dice_lists: BTreeMap::new(),
        }
    }

    fn segments(&mut self, segs: &[Segment]) -> Result<String, String> {
        let mut out = String::new();
        for s in segs {
            match s {
                Segment::Text { text } => out.push_str(&escape(text)),
                Segment::Table { id, .. } => match self.names.get(id) {
                    Some(n) => out.push_str(&format!("[{n}]")),
                    None => return Err(crate::interop::not_exported(id)),
                },
                Segment::Pick { options } => {
                    let opts: Result<Vec<String>, String> =
                        options.iter().map(|o| self.segments(o)).collect();
                    out.push_str(&format!("{{{}}}", opts?.join("|")));
                }
                Segment::Dice { expr, .. } => out.push_str(&self.dice(expr)?),
            }
        }
        Ok(out)
    }

    /// Inline dice: `{1-6}` for one die, else a list of totals.
    fn dice(&mut self, expr: &str) -> Result<String, String> {
        let refuse = || {
            format!(
                "`{{{expr}}}` is not a plain sum of dice, which Perchance could roll with the same odds"
            )
        };
        let (n, m, k) = plain_sum(expr).ok_or_else(refuse)?;
        if n == 1 {
            return Ok(format!("{{{}-{}}}", 1 + k, i64::from(m) + k));
        }
        if let Some((name, _)) = self.dice_lists.get(expr) {
            return Ok(format!("[{name}]"));
        }
        let (lo, w) = ways(n, m, k).ok_or_else(refuse)?;
        let mut name = format!("dice_{}", list_name(expr).trim_start_matches("t_"));
        while self.names.values().any(|v| *v == name)
            || self.dice_lists.values().any(|(v, _)| *v == name)
        {
            name.push('_');
        }
        let mut body = format!("// dice: {}\n{name}\n", expr.trim());
        for (i, c) in w.iter().enumerate() {
            body.push_str(&format!("  {}^{c}\n", lo + i as i64));
        }
        self.dice_lists
            .insert(expr.to_owned(), (name.clone(), body));
        Ok(format!("[{name}]"))
    }

    fn table(&mut self, t: &Table) -> Result<String, String> {
        if t.deck {
            return Err(
                "a deck (drawn without replacement) has no Perchance list that keeps its odds"
                    .into(),
            );
        }
        let weights = weights(t)?;
        let title: String = t.title.split_whitespace().collect::<Vec<_>>().join(" ");
        let mut out = format!("// {title} ({})\n{}\n", t.id, self.names[&t.id]);
        for (row, w) in t.rows.iter().zip(weights) {
            if row.entry.reroll.is_some() {
                return Err(format!(
                    "the row {} rolls again, which Perchance cannot carry with the same odds",
                    row.entry.name
                ));
            }
            if w == 0 {
                continue;
            }
            let segs = template::parse(&row.entry.text).map_err(|e| e.message)?;
            let text = self.segments(&segs)?;
            let text = if text.trim().is_empty() {
                "\\s".to_owned()
            } else {
                text
            };
            let weight = if w == 1 {
                String::new()
            } else {
                format!(" ^{w}")
            };
            out.push_str(&format!("  {text}{weight}\n"));
        }
        Ok(out)
    }
}

/// The tables as one generator (`$output` rolls the first).
pub fn generator(tables: &[&Table]) -> Result<String, Diagnostic> {
    let mut w = Writer::new(tables);
    let mut out = format!("{OWN_MARK} (export --format perchance).\n\n");
    for t in tables {
        let body = w.table(t).map_err(|what| {
            Diagnostic::message(format!("{} ({}): {what}", t.id, t.title)).with_hint(
                "export it in another format (json keeps everything), or change the table",
            )
        })?;
        out.push_str(&body);
        out.push('\n');
    }
    for (_, body) in w.dice_lists.values() {
        out.push_str(body);
        out.push('\n');
    }
    if let Some(first) = tables.first() {
        out.push_str(&format!("$output = [{}]\n", w.names[&first.id]));
    }
    Ok(out)
}

/// The file for table `t` with `--to`: it and every exported table it
/// rolls on, so the file stands alone.
pub fn file(ex: &Export, t: &Table) -> Result<String, Diagnostic> {
    let mut with = vec![t];
    let mut i = 0;
    while i < with.len() {
        for row in &with[i].rows {
            let segs = template::parse(&row.entry.text).unwrap_or_default();
            for (id, _) in template::references(&segs) {
                if let Some(u) = ex.tables.iter().find(|u| u.id == id)
                    && !with.iter().any(|w| w.id == u.id)
                {
                    with.push(u);
                }
            }
        }
        i += 1;
    }
    generator(&with)
}
