//! What [`super::assemble`] settles about the calls between the tables
//! of the files given together before it makes drafts: tables a file
//! `export` wrote carries along because its table rolls on them, imported
//! once (from the file that holds them first), and loops of calls refused
//! at the call that closes them, where it is written.

use std::collections::BTreeMap;

use super::sheet::{Refusal, Sheet};

/// A table by its file and place in the file.
pub type Key = (usize, usize);

/// Where the first call from one table to another is written.
pub type Places = BTreeMap<(Key, Key), (usize, usize)>;

/// Tables of a loop named in its message before `…` and its last.
const SHOWN: usize = 6;

/// Tables a file `export` wrote carries along because its table rolls on
/// them (`export --format perchance --to DIR` writes each file whole),
/// when another file of the import is that table's own (holds it first)
/// or, failing that, holds it too: each such copy by the table it stands
/// for, so `import DIR/*` makes each table once, under its id. A copy's
/// own problems are the original's, so they are reported there only.
pub fn carried_copies(sheets: &mut [Sheet]) -> BTreeMap<Key, Key> {
    let mut first: BTreeMap<String, Key> = BTreeMap::new();
    for (si, s) in sheets.iter().enumerate().filter(|(_, s)| s.own_ids) {
        if let Some(t) = s.tables.first() {
            first.entry(t.name.clone()).or_insert((si, 0));
        }
    }
    for (si, s) in sheets.iter().enumerate().filter(|(_, s)| s.own_ids) {
        for (ti, t) in s.tables.iter().enumerate().skip(1) {
            first.entry(t.name.clone()).or_insert((si, ti));
        }
    }
    let mut copies = BTreeMap::new();
    for (si, s) in sheets.iter_mut().enumerate().filter(|(_, s)| s.own_ids) {
        for (ti, t) in s.tables.iter_mut().enumerate() {
            match first.get(&t.name) {
                Some(&k) if k != (si, ti) => {
                    t.refused.clear();
                    copies.insert((si, ti), k);
                }
                _ => {}
            }
        }
    }
    copies
}

/// A loop of calls (`A` rolls `B`, which rolls `A`) refused at the call
/// that closes it, where it is written: IPP and TableSmith go on rolling
/// until a roll leaves the loop, and a table of tablewright's cannot
/// roll on itself. Found in one walk over the calls.
pub fn refuse_loops(sheets: &mut [Sheet], edges: &BTreeMap<Key, Vec<Key>>, places: &Places) {
    // 1: on the walk's path; 2: done.
    let mut state: BTreeMap<Key, u8> = BTreeMap::new();
    let mut closing = Vec::new();
    for &start in edges.keys() {
        if state.contains_key(&start) {
            continue;
        }
        let mut stack = vec![(start, 0usize)];
        let mut path = vec![start];
        state.insert(start, 1);
        while let Some((k, i)) = stack.last_mut() {
            let (k, next) = (*k, edges.get(k).and_then(|e| e.get(*i)).copied());
            *i += 1;
            match next {
                None => {
                    state.insert(k, 2);
                    stack.pop();
                    path.pop();
                }
                Some(to) => match state.get(&to) {
                    Some(1) => {
                        let from = path.iter().position(|p| *p == to).unwrap_or(0);
                        // The loop as shown: its first tables and its last.
                        let all = &path[from..];
                        let mut cycle: Vec<Key> = all.iter().take(SHOWN).copied().collect();
                        if all.len() > SHOWN {
                            cycle.push(all[all.len() - 1]);
                        }
                        closing.push((k, to, cycle, all.len() > SHOWN));
                    }
                    Some(_) => {}
                    None => {
                        state.insert(to, 1);
                        stack.push((to, 0));
                        path.push(to);
                    }
                },
            }
        }
    }
    for (from, to, cycle, cut) in closing {
        let name = |k: &Key| sheets[k.0].tables[k.1].name.clone();
        let mut shown: Vec<String> = cycle.iter().map(name).collect();
        if cut {
            shown.insert(SHOWN, "…".to_owned());
        }
        shown.push(name(&to));
        let t = &sheets[from.0].tables[from.1];
        let (line, column) = places.get(&(from, to)).copied().unwrap_or((t.line, 1));
        let what = format!(
            "a roll on `{}` that comes back to this table ({}): a loop, which the original rolls until a roll leaves it and tablewright's tables cannot make",
            name(&to),
            shown.join(" → ")
        );
        let hint = "break the loop (a row that only rolls its own table again is carried), or import the rest with --skip-unsupported";
        let refused = &mut sheets[from.0].tables[from.1].refused;
        // A call on its own table already refused where it is written.
        if !refused.iter().any(|r| (r.line, r.column) == (line, column)) {
            refused.push(Refusal::new(line, column, what, hint));
        }
    }
}
