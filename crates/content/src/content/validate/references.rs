//! Checks across the tables in effect: every `{table:ID}` must name a table
//! (with a "did you mean"), and tables must not refer to each other in a
//! loop (a roll would never finish).

use std::collections::{BTreeMap, BTreeSet};

use super::{at_table, file_of, suggest};
use crate::content::{SourceFile, Table, template};
use crate::diagnostic::Diagnostic;

/// Which tables each table refers to.
type Graph<'a> = BTreeMap<&'a str, BTreeSet<&'a str>>;

/// Unknown references, then reference loops.
pub(super) fn check(
    tables: &BTreeMap<String, Table>,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) {
    let graph = references(tables, files, problems);
    for cycle in cycles(&graph) {
        let t = &tables[cycle[0]];
        problems.push(at_table(
            files,
            t,
            format!(
                "tables refer to each other in a loop: {}",
                cycle.join(" → ")
            ),
            "a roll would never finish; break the loop by removing one reference",
        ));
    }
}

/// The reference graph; every reference to a missing table is a problem.
fn references<'a>(
    tables: &'a BTreeMap<String, Table>,
    files: &[SourceFile],
    problems: &mut Vec<Diagnostic>,
) -> Graph<'a> {
    let mut graph = Graph::new();
    for t in tables.values() {
        let edges = graph.entry(t.id.as_str()).or_default();
        for row in &t.rows {
            for (id, _) in template::references(&row.segments()) {
                match tables.get_key_value(id) {
                    Some((known, _)) => {
                        edges.insert(known.as_str());
                    }
                    None => problems.push(unknown(tables, files, t, &row.entry.name, row.line, id)),
                }
            }
        }
    }
    graph
}

/// A `{table:ID}` in row `row` (at line `line`) of `t` that names no table.
fn unknown(
    tables: &BTreeMap<String, Table>,
    files: &[SourceFile],
    t: &Table,
    row: &str,
    line: usize,
    id: &str,
) -> Diagnostic {
    let written = format!("table:{id}");
    let file = file_of(files, t);
    // Searched for from the row's line on, within a window, so that a
    // file of many unknown references is not read once per reference.
    let (line, column) = file
        .and_then(|f| f.find_from(line, &written).map(|at| f.line_col(at)))
        .unwrap_or((line, 1));
    let suggestion = suggest(id, tables.keys().map(String::as_str));
    let mut d = Diagnostic::at(
        &*t.origin.file,
        line,
        column,
        format!("row `{row}` refers to `{{table:{id}}}`, which does not exist"),
    )
    .in_table(Some(t.id.clone()));
    if suggestion.is_none() {
        d = d.with_hint("run `tablewright tables` to list the ids");
    }
    d = d.with_suggestion(suggestion);
    match file {
        Some(f) => f.show(d, written.chars().count()),
        None => d,
    }
}

/// Every loop of references (depth-first, in id order, so the report is
/// stable), each as the path that closes it.
fn cycles<'a>(graph: &Graph<'a>) -> Vec<Vec<&'a str>> {
    let mut state: BTreeMap<&str, u8> = BTreeMap::new(); // 1 visiting, 2 done
    let mut cycles = Vec::new();
    for &id in graph.keys() {
        if !state.contains_key(id) {
            visit(id, graph, &mut state, &mut Vec::new(), &mut cycles);
        }
    }
    cycles
}

fn visit<'a>(
    id: &'a str,
    graph: &Graph<'a>,
    state: &mut BTreeMap<&'a str, u8>,
    path: &mut Vec<&'a str>,
    cycles: &mut Vec<Vec<&'a str>>,
) {
    state.insert(id, 1);
    path.push(id);
    for &next in graph.get(id).into_iter().flatten() {
        match state.get(next) {
            Some(1) => {
                let start = path.iter().position(|p| *p == next).expect("on path");
                let mut cycle = path[start..].to_vec();
                cycle.push(next);
                cycles.push(cycle);
            }
            Some(_) => {}
            None => visit(next, graph, state, path, cycles),
        }
    }
    path.pop();
    state.insert(id, 2);
}
