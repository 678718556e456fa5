//! Tables as Inspiration Pad Pro files (`export --format ipt`): a ranged
//! table is a `Type: Lookup` table with its `Roll:` and ranges, a
//! weighted one has `N:` weights; `{table:…}` becomes `[@…]`,
//! `{pick: a | b}` `[|a|b]`, inline dice stay `{2d6}`, a space at a row's
//! ends `\_`. Every row carries
//! its range or weight, so no row reads as a comment or a command; the
//! table's id is its name, and the file's first line marks it as ours so
//! `import` keeps the ids. What IPP cannot roll the same way (a deck,
//! roll-again rows, dice its notation reads otherwise, a roll on a table
//! not exported with it) is refused.

use std::collections::BTreeSet;

use super::ipt::OWN_MARK;
use super::{Export, formula, sheet};
use crate::content::Table;
use crate::content::template::{self, Segment};
use crate::diagnostic::Diagnostic;

/// One file holding `tables`. `apart`: each exported table is a file of
/// its own (`--to`), so a roll on another one `Use:`s its file.
pub fn file(ex: &Export, tables: &[&Table], apart: bool) -> Result<String, Diagnostic> {
    let mut body = String::new();
    let mut uses = BTreeSet::new();
    for t in tables {
        table(ex, t, &mut body, &mut uses)?;
    }
    let mut out = format!("{OWN_MARK}; the table names are tablewright ids.\n");
    if apart {
        for id in uses.iter().filter(|u| !tables.iter().any(|t| &&t.id == u)) {
            out.push_str(&format!("Use: {}.ipt\n", super::file_stem(id)));
        }
    }
    out.push('\n');
    out.push_str(&body);
    Ok(out)
}

/// One table's block.
fn table(
    ex: &Export,
    t: &Table,
    out: &mut String,
    uses: &mut BTreeSet<String>,
) -> Result<(), Diagnostic> {
    let refuse = |what: String| {
        Err(
            Diagnostic::message(format!("{} ({}): {what}", t.id, t.title)).with_hint(
                "export it in another format (json keeps everything), or change the table",
            ),
        )
    };
    if t.deck {
        return refuse(
            "a deck (rows drawn without replacement), which IPP has no way to write".into(),
        );
    }
    if t.rows.iter().any(|r| r.entry.reroll.is_some()) {
        return refuse(
            "a roll-again row (`reroll`), which IPP has no way to write with the same odds".into(),
        );
    }
    out.push_str(&format!(
        "# {}\nTable: {}\n",
        unjoined(one_line(&t.title)),
        t.id
    ));
    if t.dice.is_some() {
        let roll = formula(t);
        if let Some(p) = sheet::dice_problem(&roll) {
            return refuse(format!("its die `{roll}`: {p}"));
        }
        out.push_str(&format!("Type: Lookup\nRoll: {roll}\n"));
    }
    for row in t.rows.iter() {
        let segments = template::parse(&row.entry.text).unwrap_or_default();
        let text = text(ex, &segments, uses).map_err(|p| {
            Diagnostic::message(format!(
                "{} ({}), row {}: {p}",
                t.id, t.title, row.entry.name
            ))
            .with_hint("export it in another format (json keeps everything), or change the row")
        })?;
        let prefix = match (row.entry.range, row.entry.weight) {
            (Some((a, b)), _) if a == b => a.to_string(),
            (Some((a, b)), _) => format!("{a}-{b}"),
            (None, w) => w.unwrap_or(1).to_string(),
        };
        out.push_str(&format!("{prefix}:{}\n", unjoined(kept_ends(&text))));
    }
    out.push('\n');
    Ok(())
}

/// Spaces at a row's ends as `\_`, which IPP keeps (it trims a row's own
/// spaces).
fn kept_ends(text: &str) -> String {
    let body = text.trim_matches(' ');
    let lead = text.len() - text.trim_start_matches(' ').len();
    let trail = if body.is_empty() {
        0
    } else {
        text.len() - text.trim_end_matches(' ').len()
    };
    format!("{}{body}{}", "\\_".repeat(lead), "\\_".repeat(trail))
}

/// A line that ends in `&` with IPP's empty `\z` after it: IPP (and
/// `import`) join a line ending in `&` to the next, which would make two
/// rows one, or swallow the `Table:` line after a title.
fn unjoined(line: String) -> String {
    if line.trim_end().ends_with('&') {
        line + "\\z"
    } else {
        line
    }
}

/// A title on one comment line.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A row's text in IPP's notation.
fn text(ex: &Export, segments: &[Segment], uses: &mut BTreeSet<String>) -> Result<String, String> {
    let mut out = String::new();
    for s in segments {
        match s {
            Segment::Text { text } => out.push_str(&escape(text)),
            Segment::Dice { expr, .. } => {
                if let Some(p) = sheet::dice_problem(expr) {
                    return Err(p);
                }
                out.push_str(&format!("{{{}}}", expr.trim()));
            }
            Segment::Table { id, .. } if ex.has(id) => {
                uses.insert(id.clone());
                out.push_str(&format!("[@{id}]"));
            }
            Segment::Table { id, .. } => return Err(super::not_exported(id)),
            Segment::Pick { options } => {
                let opts: Result<Vec<String>, String> =
                    options.iter().map(|o| text(ex, o, uses)).collect();
                out.push_str(&format!("[|{}]", opts?.join("|")));
            }
        }
    }
    Ok(out)
}

/// Plain words: a backslash before `[ ] { } | \`, `\n` for a new line.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '[' | ']' | '{' | '}' | '|' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{kept_ends, unjoined};

    #[test]
    fn spaces_at_a_rows_ends_are_kept_with_underscores() {
        assert_eq!(kept_ends(" sharp  "), "\\_sharp\\_\\_");
        assert_eq!(kept_ends("a b"), "a b");
        assert_eq!(kept_ends("  "), "\\_\\_");
    }

    #[test]
    fn a_line_ending_in_an_ampersand_is_not_joined_to_the_next() {
        assert_eq!(unjoined("Rock &".into()), "Rock &\\z");
        assert_eq!(unjoined("Rock &\\_".into()), "Rock &\\_");
        assert_eq!(unjoined("Rock & roll".into()), "Rock & roll");
    }
}
