//! A Perchance variable set once in a text and read after it there:
//! `[g = gender.selectOne]Hello, I'm [names[g].selectOne] and I'm [g].`
//! Perchance picks one item of the list, prints it where it is set (not
//! with `[v = list.selectOne, ""]`), and each later `[v]` prints that
//! item again, `[v.prop]` its property and `[other[v]]` the sublist of
//! `other` named by it. So the text is a table of its own with a row per
//! item of the list, weighted as the list weighs it, each row the text
//! with that item in every place — the odds and the words Perchance
//! gives. `[v = list.selectOne.evaluateItem]` fixes the item's words
//! once: a row for each outcome of each item ([`super::evaluated`]), read
//! as `[v]` only. Only the first variable of a text and its reads outside
//! brackets are carried; anything else about a variable (a second one, a
//! read before it is set or in another item, `this.selectOne`, an
//! evaluated item with lists in it) stays refused as JavaScript by
//! [`super::text`].

use super::evaluated;
use super::tree::{self, Weight};
use super::{MAX_TOTAL, MAX_WORK, Maker, whole};
use crate::interop::scan;
use crate::interop::sheet::{self, Frag, Refusal, SrcRow, SrcTable};

/// A bracket of the text that the variable's item fills.
enum Slot {
    /// Where it is set: the item, or nothing (`, ""`).
    Set { shown: bool },
    /// `[v]`, `[v.a.b]`: the item, or the node at that path under it.
    Read(Vec<String>),
    /// `[other[v]]`, `[other[v].selectOne]`: the child of `other` named
    /// by the item's text.
    Index(usize),
}

/// The text as a roll on a table of a row per item, when it sets a
/// variable it can carry; `None` otherwise (read as it is).
pub(super) fn expand(
    m: &mut Maker,
    line: usize,
    at: usize,
    text: &str,
) -> Option<(Vec<Frag>, Vec<Refusal>)> {
    if m.in_var || !text.contains('=') {
        return None;
    }
    let brackets = top_brackets(text);
    let (first, var, list, shown, fixed) =
        brackets.iter().enumerate().find_map(|(k, &(o, c))| {
            let (v, l, shown, fixed) = assignment(&text[o + 1..c])?;
            Some((k, v, l, shown, fixed))
        })?;
    let tree = m.tree;
    if tree.child(0, var).is_some() {
        return None;
    }
    let mut node = tree.child(0, list[0])?;
    for p in &list[1..] {
        node = tree.child(node, p)?;
    }
    if !tree.is_list(node) {
        return None;
    }
    let mut slots = vec![(brackets[first], Slot::Set { shown })];
    for &(o, c) in &brackets[first + 1..] {
        if let Some(s) = read_of(m, &text[o + 1..c], var) {
            slots.push(((o, c), s));
        }
    }
    let kids: Vec<usize> = tree.nodes[node]
        .children
        .iter()
        .copied()
        .filter(|&c| !tree.nodes[c].prop)
        .collect();
    let weights: Vec<&Weight> = kids.iter().map(|&c| &tree.nodes[c].weight).collect();
    let whole = whole(&weights)?;
    let picks = if fixed {
        let only_v = slots.iter().all(|(_, s)| match s {
            Slot::Read(path) => path.is_empty(),
            Slot::Index(_) => false,
            Slot::Set { .. } => true,
        });
        (only_v && kids.iter().all(|&c| !tree.is_list(c))).then_some(())?;
        outcome_picks(m, &kids, &whole)?
    } else {
        kids.iter()
            .zip(whole)
            .filter_map(|(&c, w)| Some((c, None, w?)))
            .collect()
    };
    m.work = m
        .work
        .saturating_add(picks.len().saturating_mul(text.len() + 1));
    if m.work > MAX_WORK {
        return None;
    }
    m.in_var = true;
    let mut rows = Vec::new();
    let mut refused = Vec::new();
    for (c, words, w) in picks {
        let item = (c, words.as_deref());
        let frags = filled(m, (line, at, text), &slots, item, &mut refused);
        rows.push(SrcRow {
            range: None,
            weight: Some(w),
            text: frags,
            name: None,
            line,
        });
    }
    m.in_var = false;
    m.count(if fixed {
        "variables set once to an item's evaluated words (`[x = list.selectOne.evaluateItem]`): a row for each outcome of each item"
    } else {
        "variables set once in a text (`[x = list.selectOne]`) and read after it: a row for each item"
    });
    let table = SrcTable {
        name: format!("{var} on line {line}"),
        title: Some(list.join(".")),
        line,
        rows,
        refused,
        synthetic: true,
        ..SrcTable::default()
    };
    let t = m.extra(table)?;
    Some((vec![Frag::Local(t)], Vec::new()))
}

/// For `.evaluateItem`: each outcome of each item `kids` (weighed
/// `whole`) with its weight; `None` when an item has outcomes that cannot
/// be listed ([`evaluated::outcomes`]) or too many.
fn outcome_picks(
    m: &Maker,
    kids: &[usize],
    whole: &[Option<u64>],
) -> Option<Vec<(usize, Option<String>, u64)>> {
    let mut listed = Vec::new();
    for (&c, w) in kids.iter().zip(whole) {
        if let Some(w) = w {
            listed.push((c, *w, evaluated::outcomes(&m.tree.nodes[c].value)?));
        }
    }
    let items: Vec<(u64, &[(String, u64)])> =
        listed.iter().map(|(_, w, o)| (*w, o.as_slice())).collect();
    let weights = evaluated::weights(&items, MAX_TOTAL)?;
    let mut out = Vec::new();
    for ((c, _, o), ws) in listed.iter().zip(weights) {
        for ((words, _), w) in o.iter().zip(ws) {
            out.push((*c, Some(words.clone()), w));
        }
    }
    (out.len() <= evaluated::MAX_OUTCOMES).then_some(out)
}

/// The text with item `c` in its slots (or, evaluated, its fixed `words`
/// where it is printed): the words between read as they are, at their
/// own columns.
fn filled(
    m: &mut Maker,
    (line, at, text): (usize, usize, &str),
    slots: &[((usize, usize), Slot)],
    (c, words): (usize, Option<&str>),
    refused: &mut Vec<Refusal>,
) -> Vec<Frag> {
    let tree = m.tree;
    let mut out = Vec::new();
    let mut from = 0;
    for &((o, close), ref slot) in slots {
        let (f, mut r) = super::convert(m, line, at + from, &text[from..o]);
        out.extend(f);
        refused.append(&mut r);
        from = close + 1;
        let node = match slot {
            Slot::Set { shown: false } => continue,
            Slot::Set { shown: true } => Some(c),
            Slot::Read(path) => path.iter().try_fold(c, |n, p| tree.child(n, p)),
            Slot::Index(other) => {
                let name = tree.nodes[c].value.trim();
                tree.child(*other, name)
            }
        };
        match node {
            Some(n) if tree.is_list(n) || (tree.nodes[n].prop && n != c) => {
                out.extend(m.table_for(n).map(Frag::Local));
            }
            Some(n) => {
                let item = &tree.nodes[n];
                let value = words.filter(|_| n == c).unwrap_or(&item.value);
                let (f, mut r) = super::convert(m, item.line, item.at, value);
                out.extend(f);
                refused.append(&mut r);
            }
            None => {
                let column = sheet::column(tree.lines.get(line - 1).copied().unwrap_or(""), at + o);
                refused.push(Refusal::new(
                    line,
                    column,
                    format!(
                        "`[{}]`: the item `{}` has nothing of that name",
                        tree::short(&text[o + 1..close]),
                        tree::short(&tree.nodes[c].value)
                    ),
                    "give every item what the text reads of it, or import the rest with --skip-unsupported",
                ));
            }
        }
    }
    let (f, mut r) = super::convert(m, line, at + from, &text[from..]);
    out.extend(f);
    refused.append(&mut r);
    out
}

/// The `[…]` of `text` outside any other bracket: (open, close).
fn top_brackets(text: &str) -> Vec<(usize, usize)> {
    let pairs = scan::pairs(text);
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match (bytes[i], pairs[i]) {
            (b'\\', _) => i += 1,
            (b'[', Some(j)) => {
                out.push((i, j));
                i = j;
            }
            (b'{', Some(j)) => i = j,
            _ => {}
        }
        i += 1;
    }
    out
}

/// `v = list.path.selectOne` (and `, ""` after it; `.evaluateItem`
/// after `selectOne`): the variable, the list's path, whether it is
/// printed where it is set and whether its item is evaluated once.
fn assignment(inner: &str) -> Option<(&str, Vec<&str>, bool, bool)> {
    let (v, rest) = inner.split_once('=')?;
    let v = v.trim();
    if !tree::is_name(v) || rest.starts_with('=') {
        return None;
    }
    let (expr, shown) = match rest.split_once(',') {
        Some((e, tail)) if matches!(tail.trim(), "\"\"" | "''") => (e, false),
        Some(_) => return None,
        None => (rest, true),
    };
    let expr = expr.trim();
    let (expr, fixed) = match expr.strip_suffix(".evaluateItem") {
        Some(e) => (e, true),
        None => (expr, false),
    };
    let path: Vec<&str> = expr.strip_suffix(".selectOne")?.split('.').collect();
    path.iter()
        .all(|p| tree::is_name(p))
        .then_some((v, path, shown, fixed))
}

/// What `[inner]` reads of variable `var`, if it reads it as carried.
fn read_of(m: &Maker, inner: &str, var: &str) -> Option<Slot> {
    let inner = inner.trim();
    let inner = inner.strip_suffix(".selectOne").unwrap_or(inner);
    let path: Vec<&str> = inner.split('.').collect();
    if path[0] == var {
        let rest = &path[1..];
        return rest
            .iter()
            .all(|p| tree::is_name(p))
            .then(|| Slot::Read(rest.iter().map(|p| (*p).to_owned()).collect()));
    }
    let other = inner
        .strip_suffix(']')?
        .strip_suffix(var)?
        .strip_suffix('[')?;
    let mut node = 0;
    for p in other.split('.') {
        node = m.tree.child(node, p)?;
    }
    Some(Slot::Index(node))
}
