//! Roll tables for Obsidian's Dice Roller plugin: each table a Markdown
//! lookup table whose first column is headed `dice: <formula>` and holds
//! each row's range, followed by its `^block-id` on a line of its own, so
//! `` `dice: [[Note^block-id]]` `` rolls on it. A weighted table gets
//! ranges from its weights (over `1d<total>`). Inline dice become
//! `` `dice: …` `` rollers where the plugin reads the notation; a roll on
//! a table in the same note becomes a roller on that table's block.

use std::collections::BTreeMap;

use super::{Export, block_ids, formula, gfm, ranges};
use crate::content::Table;
use crate::content::template::{self, Segment};
use crate::wording::markup::escape_md;

/// Whether the Dice Roller reads `expr` as written: dice, numbers,
/// `+ - * /`, keep and explode, nothing of tablewright's own.
fn roller_reads(expr: &str) -> bool {
    let e = expr.trim();
    !e.is_empty()
        && e.chars().any(|c| c == 'd')
        && e.chars()
            .all(|c| c.is_ascii_digit() || "d+-*/()khl! ".contains(c))
}

/// A row's text with rollers in place of tablewright's inline notation.
fn text(ex: &Export, apart: bool, ids: &BTreeMap<String, String>, segments: &[Segment]) -> String {
    let mut out = String::new();
    for s in segments {
        match s {
            Segment::Text { text } => out.push_str(&escape_md(text)),
            Segment::Dice { expr, .. } if roller_reads(expr) => {
                out.push_str(&format!("`dice: {}`", expr.trim()));
            }
            Segment::Dice { expr, .. } => out.push_str(expr.trim()),
            Segment::Table { id, .. } => match ids.get(id) {
                Some(block) if apart => {
                    out.push_str(&format!("`dice: [[{}^{block}]]`", super::file_stem(id)));
                }
                Some(block) => out.push_str(&format!("`dice: [[#^{block}]]`")),
                None => out.push_str(&format!("roll on {}", ex.title_of(id))),
            },
            Segment::Pick { options } => {
                let opts: Vec<String> = options.iter().map(|o| text(ex, apart, ids, o)).collect();
                out.push_str(&format!("({})", opts.join(" / ")));
            }
        }
    }
    out
}

/// One note holding `tables`: a heading, notes and the lookup table with
/// its block id for each. `apart`: each exported table is a note of its
/// own, named by its file (`--to`), so a roll on another table links to
/// that note's block (`[[core.mutation.mind^core-mutation-mind]]`);
/// otherwise every table is in this note (`[[#^core-mutation-mind]]`).
pub fn note(ex: &Export, tables: &[&Table], apart: bool) -> String {
    let ids = block_ids(ex.tables.iter().map(|t| t.id.as_str()));
    let mut out = String::new();
    for t in tables {
        out.push_str(&format!("## {}\n\n", escape_md(&t.title)));
        if let Some(n) = &t.notes {
            out.push_str(&format!("{}\n\n", escape_md(n)));
        }
        out.push_str(&format!(
            "| dice: {} | {} |\n| --- | --- |\n",
            formula(t),
            gfm::cell(&t.title)
        ));
        for (row, (a, b)) in t.rows.iter().zip(ranges(t)) {
            let segments = template::parse(&row.entry.text).unwrap_or_default();
            let body = text(ex, apart, &ids, &segments);
            let range = if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            };
            out.push_str(&format!(
                "| {range} | {} |\n",
                gfm::result_cell_md(&row.entry.name, &body)
            ));
        }
        out.push_str(&format!("\n^{}\n\n", ids[&t.id]));
    }
    out
}
