//! Plain GitHub Markdown tables: a `### Title` heading, then `| d12 |
//! result |` (or `| weight | result |` for a weighted table), one line a
//! row, the result cell `**Name.** text`. The text is the row's own, in
//! tablewright's inline notation (`{d4}`, `{table:…}`), with `|` written
//! `\|` and line breaks `<br>`, so `import` reads the same text back.

use crate::content::Table;

/// A cell's text: `|` escaped, line breaks as `<br>`.
pub(crate) fn cell(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace("\r\n", "<br>")
        .replace('\n', "<br>")
}

/// `**Name.** text` (no dot after a name that ends a sentence already).
pub(crate) fn result_cell(name: &str, text: &str) -> String {
    let dot = if name.ends_with(['.', '!', '?']) {
        ""
    } else {
        "."
    };
    format!("**{}{dot}** {}", cell(name), cell(text))
}

/// One table.
pub(crate) fn table(t: &Table) -> String {
    let mut out = format!("### {}\n\n", t.title.replace('\n', " "));
    let head = t.dice.clone().unwrap_or_else(|| "weight".into());
    out.push_str(&format!("| {head} | result |\n| --- | --- |\n"));
    for row in &t.rows {
        out.push_str(&format!(
            "| {} | {} |\n",
            row.label().trim_start_matches('w'),
            result_cell(&row.entry.name, &row.entry.text)
        ));
    }
    out
}
