//! Two of Perchance's steps on a list that a table can carry, since each
//! is worked out within one roll and keeps nothing for the next:
//!
//! - `[list.sentenceCase]` prints a pick of the list with its first
//!   letter a capital, the rest as it is (as the perchance-interpreter
//!   makes it, `backlit` → `Backlit`). It becomes a roll on a copy of the
//!   list's table, each row's first letter a capital, the weights the
//!   same ([`Copy`], filled by [`Maker::fill_copies`] once every list is).
//!   A list whose rows start with a roll on another list is refused at
//!   the reference: the copy cannot change that list's words.
//! - `[f = joinLists(a, b)]` (the join-lists plugin, which the
//!   perchance-interpreter has built in) prints a pick of one list made of
//!   the items of `a` and `b`, each with its own `^` weight. It becomes a
//!   roll on a table of all those items, weighed together. The variable
//!   `f` must be set and never read anywhere in the file: a read would
//!   carry the joined list from one item, or one roll, to another.

use super::tree;
use super::{MAX_WORK, Maker};
use crate::interop::sheet::{Frag, Refusal, SrcRow, SrcTable};

/// A `[list.sentenceCase]` copy still to fill: the copy's table, the
/// list's, and the reference's place and text (for a refusal).
#[derive(Debug)]
pub struct Copy {
    copy: usize,
    of: usize,
    line: usize,
    column: usize,
    shown: String,
}

/// A step `[…]` holds.
pub(super) enum Step<'a> {
    /// `[a.b.sentenceCase]`: the path of the list.
    Sentence(Vec<&'a str>),
    /// `[v = joinLists(a, b)]`: the variable (if any), the lists.
    Join(Option<&'a str>, Vec<&'a str>),
}

/// The step `inner` (a `[…]`'s text, trimmed) is, if one of these.
pub(super) fn parse(inner: &str) -> Option<Step<'_>> {
    if let Some(path) = inner.strip_suffix(".sentenceCase") {
        let path = path.strip_suffix(".selectOne").unwrap_or(path);
        let parts: Vec<&str> = path.split('.').collect();
        return parts
            .iter()
            .all(|p| tree::is_name(p))
            .then_some(Step::Sentence(parts));
    }
    let (var, call) = match inner.split_once('=') {
        Some((v, rest)) if !rest.starts_with('=') => (Some(v.trim()), rest.trim()),
        _ => (None, inner),
    };
    let args = call.strip_prefix("joinLists(")?.strip_suffix(')')?;
    let lists: Vec<&str> = args.split(',').map(str::trim).collect();
    let names_ok = lists.iter().all(|l| tree::is_name(l)) && var.is_none_or(tree::is_name);
    names_ok.then_some(Step::Join(var, lists))
}

/// `[path.sentenceCase]` at `line:column`: a roll on a copy of the
/// list's table, or what is wrong.
pub(super) fn sentence(
    m: &mut Maker,
    path: &[&str],
    (line, column): (usize, usize),
) -> Result<Option<Frag>, String> {
    let tree = m.tree;
    let mut node = tree.child(0, path[0]);
    for p in &path[1..] {
        node = node.and_then(|n| tree.child(n, p));
    }
    let shown = path.join(".");
    let Some(n) = node.filter(|&n| tree.is_list(n) || tree.nodes[n].prop) else {
        return Err(format!(
            "`[{}.sentenceCase]` names no list of this generator",
            tree::short(&shown)
        ));
    };
    let Some(of) = m.table_for(n) else {
        return Ok(None);
    };
    if let Some(c) = m.copies.iter().find(|c| c.of == of) {
        return Ok(Some(Frag::Local(c.copy)));
    }
    let name = format!("{shown} (sentence case)");
    let copy = m.extra(SrcTable {
        name: m.extra_name_for(&name),
        title: Some(name),
        line,
        synthetic: true,
        ..SrcTable::default()
    });
    let Some(copy) = copy else { return Ok(None) };
    m.copies.push(Copy {
        copy,
        of,
        line,
        column,
        shown,
    });
    m.count(
        "`[list.sentenceCase]` → a copy of the list's table, each row's first letter a capital",
    );
    Ok(Some(Frag::Local(copy)))
}

/// `[var = joinLists(lists…)]`: a roll on a table of all their items,
/// or what is wrong.
pub(super) fn join(
    m: &mut Maker,
    var: Option<&str>,
    lists: &[&str],
) -> Result<Option<Frag>, String> {
    let tree = m.tree;
    let mut nodes = Vec::new();
    for l in lists {
        match tree.child(0, l).filter(|&n| tree.is_list(n)) {
            Some(n) => nodes.push(n),
            None => {
                return Err(format!(
                    "`joinLists(…)` joins `{}`, which names no list of this generator",
                    tree::short(l)
                ));
            }
        }
    }
    if let Some(v) = var {
        if tree.child(0, v).is_some() {
            return Err(format!(
                "`{}` is set to `joinLists(…)` and is also a list's name",
                tree::short(v)
            ));
        }
        if !set_only(m, v) {
            return Err(format!(
                "`{}` is set to `joinLists(…)` and read elsewhere, which carries the joined list from one item or roll to another",
                tree::short(v)
            ));
        }
    }
    if let Some(&t) = m.joins.get(&nodes) {
        return Ok(Some(Frag::Local(t)));
    }
    let name = lists.join(" + ");
    let table = SrcTable {
        name: m.extra_name_for(&name),
        title: Some(name),
        line: tree.nodes[nodes[0]].line,
        synthetic: true,
        ..SrcTable::default()
    };
    let Some(t) = m.extra(table) else {
        return Ok(None);
    };
    // Known before its items are read: an item joining the same lists
    // again rolls this table (a loop, refused where it is resolved).
    m.joins.insert(nodes.clone(), t);
    let kids: Vec<usize> = nodes.iter().flat_map(|&n| m.kids(n)).collect();
    let (mut rows, mut refused) = (Vec::new(), Vec::new());
    m.item_rows(nodes[0], &kids, &mut rows, &mut refused);
    m.tables[t].rows = rows;
    m.tables[t].refused = refused;
    m.count("`joinLists(a, b)` → a table of the items of both lists, each with its own weight");
    Ok(Some(Frag::Local(t)))
}

/// Whether every use of the word `v` in the file sets it (`[v = …`);
/// counted against the bound of work on variables.
fn set_only(m: &mut Maker, v: &str) -> bool {
    if let Some(&known) = m.set_only.get(v) {
        return known;
    }
    let size: usize = m.tree.lines.iter().map(|l| l.len() + 1).sum();
    m.work = m.work.saturating_add(size);
    let only = m.work <= MAX_WORK && m.tree.lines.iter().all(|l| sets_only(l, v));
    m.set_only.insert(v.to_owned(), only);
    only
}

/// Whether each whole-word `v` in `line` is set: `[` before it, `=`
/// (not `==`) after it.
fn sets_only(line: &str, v: &str) -> bool {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
    let b = line.as_bytes();
    let mut from = 0;
    while let Some(i) = line[from..].find(v) {
        let (at, end) = (from + i, from + i + v.len());
        let whole = (at == 0 || !word(b[at - 1])) && (end == b.len() || !word(b[end]));
        let after = line[end..].trim_start();
        let set = line[..at].trim_end().ends_with('[')
            && after.starts_with('=')
            && !after.starts_with("==");
        if whole && !set {
            return false;
        }
        from = end;
    }
    true
}

impl Maker<'_> {
    /// Every `[list.sentenceCase]` copy filled from its list's rows, or
    /// refused at its reference.
    pub(super) fn fill_copies(&mut self) {
        for c in std::mem::take(&mut self.copies) {
            let rows: Option<Vec<SrcRow>> = self.tables[c.of]
                .rows
                .iter()
                .map(|r| {
                    let (text, _) = first_up(&r.text)?;
                    Some(SrcRow { text, ..r.clone() })
                })
                .collect();
            let copy = &mut self.tables[c.copy];
            match rows {
                Some(rows) => copy.rows = rows,
                None => copy.refused.push(Refusal::new(
                    c.line,
                    c.column,
                    format!(
                        "`[{}.sentenceCase]`: a row of the list starts with a roll on another list or an empty choice, whose first letter a copy cannot change",
                        tree::short(&c.shown)
                    ),
                    "write the capital into the list's items, or import the rest with --skip-unsupported",
                )),
            }
        }
    }
}

/// `frags` with their first character a capital, and whether there was
/// one; `None` when a roll on a table, or a choice with an empty option,
/// comes before it.
fn first_up(frags: &[Frag]) -> Option<(Vec<Frag>, bool)> {
    let mut out = frags.to_vec();
    for f in &mut out {
        match f {
            Frag::Words(w) if w.is_empty() => continue,
            Frag::Words(w) => {
                let mut chars = w.chars();
                let first: String = chars
                    .next()
                    .into_iter()
                    .flat_map(char::to_uppercase)
                    .collect();
                *w = first + chars.as_str();
                return Some((out, true));
            }
            Frag::Dice(_) | Frag::Space => return Some((out, true)),
            Frag::Pick(options) => {
                let mut changed = Vec::new();
                for o in options.iter() {
                    let (o, found) = first_up(o)?;
                    found.then_some(())?;
                    changed.push(o);
                }
                *options = changed;
                return Some((out, true));
            }
            Frag::Call { .. } | Frag::Local(_) => return None,
        }
    }
    Some((out, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_read_from_their_brackets() {
        assert!(matches!(parse("light.sentenceCase"), Some(Step::Sentence(p)) if p == ["light"]));
        assert!(
            matches!(parse("a.b.selectOne.sentenceCase"), Some(Step::Sentence(p)) if p == ["a", "b"])
        );
        assert!(
            matches!(parse("f = joinLists(a, b)"), Some(Step::Join(Some("f"), l)) if l == ["a", "b"])
        );
        assert!(matches!(parse("joinLists(a)"), Some(Step::Join(None, l)) if l == ["a"]));
        for not in [
            "a.upperCase",
            "f == joinLists(a)",
            "f = joinLists(a, 'b')",
            "x.y",
            "f = joinLists()",
        ] {
            assert!(parse(not).is_none(), "{not}");
        }
    }

    #[test]
    fn a_variable_is_set_only_when_no_text_reads_it() {
        assert!(sets_only("  [f = joinLists(a, b)]. [ff] [f2]", "f"));
        assert!(!sets_only("  [f = joinLists(a, b)] [f]", "f"));
        assert!(!sets_only("[f == 1]", "f"));
        assert!(!sets_only("name f", "f"));
    }

    #[test]
    fn the_first_letter_is_made_a_capital() {
        let w = |s: &str| Frag::Words(s.into());
        let (got, found) = first_up(&[w(""), w("élan vital"), w(" x")]).unwrap();
        assert!(found);
        assert_eq!(got, [w(""), w("Élan vital"), w(" x")]);
        let pick = Frag::Pick(vec![vec![w("ab")], vec![Frag::Dice("1d4".into())]]);
        let (got, _) = first_up(std::slice::from_ref(&pick)).unwrap();
        assert_eq!(
            got,
            [Frag::Pick(vec![
                vec![w("Ab")],
                vec![Frag::Dice("1d4".into())]
            ])]
        );
        assert!(first_up(&[Frag::Local(0)]).is_none());
        assert!(first_up(&[Frag::Pick(vec![vec![], vec![w("a")]])]).is_none());
    }
}
