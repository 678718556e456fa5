//! Files read by the generator-file readers, given together, made into
//! drafts: every call resolved to a table id (in the same file, the files
//! it uses, or the file it names), every refused construct reported at its
//! file, line and column — or, with `--skip-unsupported`, its table left
//! out along with every table that calls it, so no imported table rolls
//! differently from the original.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use super::assemble_links::{Key, Places, carried_copies, refuse_loops};
use super::sheet::{Frag, Refusal, Sheet};
use super::{Draft, DraftRow, derived_name, distinct_names, foundry, slug};
use crate::content::System;
use crate::diagnostic::Diagnostic;

/// What one file became: its drafts and counts, and what was skipped
/// (`file:line:column: what`), in the file's order.
pub struct Assembled {
    /// The drafts and counts.
    pub read: foundry::Read,
    /// What was skipped (`file:line:column: what`), in the file's order.
    pub skipped: Vec<String>,
}

/// Resolve, check and build. `taken` holds the ids already used by the
/// other files of the import.
pub fn assemble(
    mut sheets: Vec<Sheet>,
    skip: bool,
    taken: &mut BTreeSet<String>,
) -> Result<Vec<Assembled>, Vec<Diagnostic>> {
    let index = name_index(&sheets);
    let copies = carried_copies(&mut sheets);
    let (mut edges, places) = resolve(&mut sheets, &index);
    edges.retain(|k, _| !copies.contains_key(k));
    for k in edges.values_mut().flatten() {
        *k = copies.get(k).copied().unwrap_or(*k);
    }
    refuse_loops(&mut sheets, &edges, &places);
    let refused = refusals(&sheets);
    if !refused.is_empty() && !skip {
        return Err(refused);
    }
    let mut dead = skipped_tables(&sheets, &edges);
    // A copy is not imported: the file that holds it first gives it.
    dead.extend(copies.keys().map(|&k| (k, Some(k))));
    let ids = table_ids(&sheets, &dead, taken);
    let titles = titles(&sheets);
    let made = Made {
        dead: &dead,
        ids: &ids,
        titles: &titles,
        edges: &edges,
    };
    Ok(sheets
        .iter()
        .enumerate()
        .map(|(si, sheet)| build(si, sheet, &made))
        .collect())
}

/// What every file's drafts are made with: the tables left out (and why),
/// each table's id and title, and the calls of each table's rows.
struct Made<'a> {
    dead: &'a BTreeMap<Key, Option<Key>>,
    ids: &'a BTreeMap<Key, String>,
    titles: &'a BTreeMap<Key, String>,
    edges: &'a BTreeMap<Key, Vec<Key>>,
}

/// What a row's name shows for a call on each table: its title, or for a
/// table the reader made (a choice's options) its rows' words, `a/b/c`.
fn titles(sheets: &[Sheet]) -> BTreeMap<Key, String> {
    let mut out = BTreeMap::new();
    for (si, s) in sheets.iter().enumerate() {
        for (ti, t) in s.tables.iter().enumerate() {
            let title = if let (true, Some(title)) = (t.synthetic, &t.title) {
                title.clone()
            } else if t.synthetic {
                let words: Vec<String> = t
                    .rows
                    .iter()
                    .take(8)
                    .map(|r| words(&r.text))
                    .filter(|w| !w.is_empty())
                    .collect();
                words.join("/")
            } else {
                t.title.clone().unwrap_or_else(|| t.name.clone())
            };
            out.insert((si, ti), title);
        }
    }
    out
}

/// The words of a row alone, trimmed.
fn words(frags: &[Frag]) -> String {
    let w: String = frags
        .iter()
        .filter_map(|f| match f {
            Frag::Words(w) => Some(w.as_str()),
            _ => None,
        })
        .collect();
    w.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Each file's tables by lowercase name (the first of a name wins).
fn name_index(sheets: &[Sheet]) -> Vec<BTreeMap<String, usize>> {
    sheets
        .iter()
        .map(|s| {
            let mut m = BTreeMap::new();
            for (ti, t) in s.tables.iter().enumerate() {
                m.entry(t.name.to_lowercase()).or_insert(ti);
            }
            m
        })
        .collect()
}

/// The file a stem names, ignoring case.
fn sheet_named(sheets: &[Sheet], stem: &str) -> Option<usize> {
    sheets
        .iter()
        .position(|s| s.stem.eq_ignore_ascii_case(stem))
}

/// Where `call` (made in file `si`) goes: a table of the file it names;
/// else of this file, then of the files it uses; else the first table of
/// a file of that name (TableSmith's `[Table]`).
fn target(
    sheets: &[Sheet],
    index: &[BTreeMap<String, usize>],
    si: usize,
    file: Option<&str>,
    table: &str,
) -> Option<Key> {
    let name = table.to_lowercase();
    if let Some(f) = file {
        let sj = sheet_named(sheets, f)?;
        return index[sj].get(&name).map(|&t| (sj, t));
    }
    if let Some(&t) = index[si].get(&name) {
        return Some((si, t));
    }
    for used in &sheets[si].uses {
        if let Some(sj) = sheet_named(sheets, used)
            && let Some(&t) = index[sj].get(&name)
        {
            return Some((sj, t));
        }
    }
    sheet_named(sheets, table)
        .filter(|&sj| sj != si && !sheets[sj].tables.is_empty())
        .map(|sj| (sj, 0))
}

/// Every call's target, by the table it is made from, and where each is
/// written; a call that finds no table is refused in its table.
fn resolve(
    sheets: &mut [Sheet],
    index: &[BTreeMap<String, usize>],
) -> (BTreeMap<Key, Vec<Key>>, Places) {
    let mut edges: BTreeMap<Key, Vec<Key>> = BTreeMap::new();
    let mut places = Places::new();
    for si in 0..sheets.len() {
        for ti in 0..sheets[si].tables.len() {
            let mut calls = Vec::new();
            for row in &sheets[si].tables[ti].rows {
                collect_calls(&row.text, &mut calls);
            }
            for call in calls {
                let (file, table, line, column) = match call {
                    Call::Local(t) => {
                        edges.entry((si, ti)).or_default().push((si, t));
                        continue;
                    }
                    Call::Named(file, table, line, column) => (file, table, line, column),
                };
                match target(sheets, index, si, file.as_deref(), &table) {
                    Some(k) => {
                        places.entry(((si, ti), k)).or_insert((line, column));
                        edges.entry((si, ti)).or_default().push(k);
                    }
                    None => {
                        let r = unresolved(&sheets[si], file.as_deref(), &table, line, column);
                        sheets[si].tables[ti].refused.push(r);
                    }
                }
            }
        }
    }
    (edges, places)
}

/// The refusal of a call to a table no file given holds.
fn unresolved(
    sheet: &Sheet,
    file: Option<&str>,
    table: &str,
    line: usize,
    column: usize,
) -> Refusal {
    let (what, hint) = match file {
        Some(f) => (
            format!("a roll on `{f}.{table}`, a table in no file given to import"),
            format!("give the file {f} (its .tab or .md) on the same command line"),
        ),
        None if sheet.uses.is_empty() => (
            format!("a roll on the table `{table}`, which is not in this file"),
            "add the table, or give the file that holds it on the same command line".to_owned(),
        ),
        None => (
            format!(
                "a roll on the table `{table}`, which is in neither this file nor a file it uses ({}) given to import",
                sheet.uses.join(", ")
            ),
            "give the files its `Use:` lines name on the same command line".to_owned(),
        ),
    };
    Refusal::new(
        line,
        column,
        what,
        format!("{hint}, or import the rest with --skip-unsupported"),
    )
}

/// A call found in a row: by name (with its place), or to a table of the
/// same file by its place in it.
enum Call {
    Named(Option<String>, String, usize, usize),
    Local(usize),
}

fn collect_calls(frags: &[Frag], out: &mut Vec<Call>) {
    for f in frags {
        match f {
            Frag::Call {
                file,
                table,
                line,
                column,
            } => out.push(Call::Named(file.clone(), table.clone(), *line, *column)),
            Frag::Local(t) => out.push(Call::Local(*t)),
            Frag::Pick(options) => options.iter().for_each(|o| collect_calls(o, out)),
            Frag::Words(_) | Frag::Dice(_) | Frag::Space => {}
        }
    }
}

/// Every refused construct, as problems at the file's lines.
fn refusals(sheets: &[Sheet]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for s in sheets {
        let mut all: Vec<&Refusal> = s.refused.iter().collect();
        all.extend(s.tables.iter().flat_map(|t| &t.refused));
        all.sort_by_key(|r| (r.line, r.column));
        for r in all {
            out.push(Diagnostic::at(&s.file, r.line, r.column, &r.what).with_hint(&r.hint));
        }
    }
    out
}

/// Tables left out: those with a refused construct, and every table that
/// calls one left out (with the table it calls).
fn skipped_tables(sheets: &[Sheet], edges: &BTreeMap<Key, Vec<Key>>) -> BTreeMap<Key, Option<Key>> {
    let mut callers: BTreeMap<Key, Vec<Key>> = BTreeMap::new();
    for (from, tos) in edges {
        for to in tos {
            callers.entry(*to).or_default().push(*from);
        }
    }
    let mut dead: BTreeMap<Key, Option<Key>> = BTreeMap::new();
    let mut queue = VecDeque::new();
    for (si, s) in sheets.iter().enumerate() {
        for (ti, t) in s.tables.iter().enumerate() {
            if !t.refused.is_empty() {
                dead.insert((si, ti), None);
                queue.push_back((si, ti));
            }
        }
    }
    while let Some(k) = queue.pop_front() {
        for &c in callers.get(&k).into_iter().flatten() {
            if let std::collections::btree_map::Entry::Vacant(e) = dead.entry(c) {
                e.insert(Some(k));
                queue.push_back(c);
            }
        }
    }
    dead
}

/// An id for every table imported, unique among `taken`.
fn table_ids(
    sheets: &[Sheet],
    dead: &BTreeMap<Key, Option<Key>>,
    taken: &mut BTreeSet<String>,
) -> BTreeMap<Key, String> {
    let mut ids = BTreeMap::new();
    for (si, s) in sheets.iter().enumerate() {
        for (ti, t) in s.tables.iter().enumerate() {
            if dead.contains_key(&(si, ti)) {
                continue;
            }
            let base = if s.own_ids {
                t.name.clone()
            } else {
                format!("imported.{}.{}", slug(&s.stem), slug(&t.name))
            };
            let mut id = base.clone();
            let mut n = 2;
            while !taken.insert(id.clone()) {
                id = format!("{base}-{n}");
                n += 1;
            }
            ids.insert((si, ti), id);
        }
    }
    ids
}

/// One file's drafts and what of it was skipped.
fn build(si: usize, sheet: &Sheet, made: &Made) -> Assembled {
    let Made {
        dead, ids, edges, ..
    } = *made;
    let mut skipped: Vec<(usize, usize, String)> = sheet
        .refused
        .iter()
        .map(|r| (r.line, r.column, r.what.clone()))
        .collect();
    let mut drafts = Vec::new();
    let mut copies = 0;
    for (ti, t) in sheet.tables.iter().enumerate() {
        match dead.get(&(si, ti)) {
            Some(None) => skipped.extend(t.refused.iter().map(|r| {
                (
                    r.line,
                    r.column,
                    format!("{} (table `{}` skipped)", r.what, t.name),
                )
            })),
            Some(Some(k)) if *k == (si, ti) => copies += 1,
            Some(Some(k)) => skipped.push((
                t.line,
                1,
                format!(
                    "table `{}` skipped: it rolls on `{}`, which was skipped",
                    t.name,
                    name_of(k, sheet, si, t)
                ),
            )),
            None => {
                let calls = edges.get(&(si, ti)).cloned().unwrap_or_default();
                drafts.push(draft(sheet, ti, &ids[&(si, ti)], &calls, made));
            }
        }
    }
    skipped.sort();
    let mut counts = sheet.counts.clone();
    let gone = sheet.tables.len() - drafts.len() - copies;
    if copies > 0 {
        counts.insert(
            "tables carried along from another file given (imported once, from the file that holds them first)",
            copies,
        );
    }
    if gone > 0 {
        counts.insert("tables skipped (--skip-unsupported)", gone);
    }
    Assembled {
        read: foundry::Read { drafts, counts },
        skipped: skipped
            .into_iter()
            .map(|(l, c, w)| format!("{}:{l}:{c}: {w}", sheet.file))
            .collect(),
    }
}

/// The name of table `k` for a message (its file's table when it is in
/// another file).
fn name_of(k: &Key, sheet: &Sheet, si: usize, fallback: &super::sheet::SrcTable) -> String {
    if k.0 == si {
        sheet
            .tables
            .get(k.1)
            .map_or(fallback.name.clone(), |t| t.name.clone())
    } else {
        format!("table {} of another file", k.1 + 1)
    }
}

/// Table `ti` of `sheet` as a draft, its calls (in the order its rows
/// make them) going to `calls`.
fn draft(sheet: &Sheet, ti: usize, id: &str, calls: &[Key], made: &Made) -> Draft {
    let (ids, titles) = (made.ids, made.titles);
    let t = &sheet.tables[ti];
    let mut next = calls.iter();
    let mut named = calls.iter();
    let mut names = Vec::new();
    let mut derived = Vec::new();
    let mut rows = Vec::new();
    for (n, r) in t.rows.iter().enumerate() {
        let text = row_text(&r.text, &mut next, ids);
        let plain = plain(&r.text, &mut named, titles);
        let roll = match (r.range, r.weight) {
            (Some((a, b)), _) if a == b => a.to_string(),
            (Some((a, b)), _) => format!("{a}-{b}"),
            _ => format!("{}", n + 1),
        };
        match &r.name {
            Some(given) => {
                names.push(given.clone());
                derived.push(None);
            }
            None => {
                names.push(derived_name(&plain, &format!("Result {}", n + 1)));
                derived.push(Some((plain, roll)));
            }
        }
        rows.push(DraftRow::plain(
            r.range,
            r.weight,
            String::new(),
            text,
            r.line,
        ));
    }
    distinct_names(&mut names, &derived);
    for (row, name) in rows.iter_mut().zip(names) {
        row.entry.name = name.into();
    }
    Draft {
        id: id.to_owned(),
        title: t.title.clone().unwrap_or_else(|| t.name.clone()),
        system: System::Any,
        source: if t.synthetic {
            format!(
                "{}, line {}: a table made for a roll in the line",
                sheet.file, t.line
            )
        } else {
            format!("{}, table {}", sheet.file, t.name)
        },
        dice: t.dice.clone(),
        notes: None,
        deck: false,
        text_only: true,
        region: None,
        rows,
    }
}

/// A row's text in our notation ([`render`]), trimmed at both ends but
/// for a space the source keeps ([`Frag::Space`]).
fn row_text<'a>(
    frags: &[Frag],
    calls: &mut impl Iterator<Item = &'a Key>,
    ids: &BTreeMap<Key, String>,
) -> String {
    let mut pieces: Vec<(String, bool)> = frags
        .iter()
        .map(|f| {
            let text = render(std::slice::from_ref(f), calls, ids);
            (text, matches!(f, Frag::Space))
        })
        .collect();
    for (text, kept) in pieces.iter_mut() {
        if *kept {
            break;
        }
        if !text.trim_start().is_empty() {
            *text = text.trim_start().to_owned();
            break;
        }
        text.clear();
    }
    for (text, kept) in pieces.iter_mut().rev() {
        if *kept {
            break;
        }
        if !text.trim_end().is_empty() {
            *text = text.trim_end().to_owned();
            break;
        }
        text.clear();
    }
    pieces.into_iter().map(|(text, _)| text).collect()
}

/// A row's text in our notation, each call taking the next resolved id.
fn render<'a>(
    frags: &[Frag],
    calls: &mut impl Iterator<Item = &'a Key>,
    ids: &BTreeMap<Key, String>,
) -> String {
    let mut out = String::new();
    for f in frags {
        match f {
            Frag::Words(w) => out.push_str(&w.replace('{', "{{").replace('}', "}}")),
            Frag::Dice(d) => out.push_str(&format!("{{{d}}}")),
            Frag::Call { .. } | Frag::Local(_) => {
                let id = calls
                    .next()
                    .and_then(|k| ids.get(k))
                    .map_or("", String::as_str);
                out.push_str(&format!("{{table:{id}}}"));
            }
            Frag::Pick(options) => {
                let opts: Vec<String> = options.iter().map(|o| render(o, calls, ids)).collect();
                out.push_str(&format!("{{pick: {}}}", opts.join(" | ")));
            }
            Frag::Space => out.push(' '),
        }
    }
    out
}

/// A row as a GM would call it, for its name: its words, each call shown
/// by its table's title, dice as written, a choice as `a/b`.
fn plain<'a>(
    frags: &[Frag],
    calls: &mut impl Iterator<Item = &'a Key>,
    titles: &BTreeMap<Key, String>,
) -> String {
    let mut out = String::new();
    for f in frags {
        match f {
            Frag::Words(w) => out.push_str(w),
            Frag::Dice(d) => out.push_str(d),
            Frag::Call { .. } | Frag::Local(_) => {
                let title = calls.next().and_then(|k| titles.get(k));
                out.push_str(title.map_or("", String::as_str));
            }
            Frag::Pick(options) => {
                let opts: Vec<String> = options
                    .iter()
                    .map(|o| plain(o, calls, titles).trim().to_owned())
                    .collect();
                out.push_str(&opts.join("/"));
            }
            Frag::Space => out.push(' '),
        }
    }
    out
}
