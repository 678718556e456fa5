//! Plain GitHub Markdown tables: a `### Title` heading, then `| d12 |
//! result |` (or `| weight | result |` for a weighted table), one line a
//! row, the result cell `**Name.** text`. The text is the row's own, in
//! tablewright's inline notation (`{d4}`, `{table:…}`), with `|` written
//! every character GFM reads as markup backslash-escaped (`\|`, `\<`) and
//! line breaks `<br>`, so `import` reads the same text back and no row
//! text acts as HTML or a link.

use crate::content::Table;

/// A cell's text: every character GFM reads as markup backslash-escaped
/// (HTML such as `<img onerror=…>`, links, emphasis, code, `|`), line
/// breaks as `<br>` (which `import` reads back as line breaks, and an
/// escaped `\<br>` as text).
pub fn cell(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' | '|' | '<' | '>' | '[' | ']' | '*' | '_' | '`' | '&' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' | '\r' => out.push_str("<br>"),
            c => out.push(c),
        }
    }
    out
}

/// `**Name.** text` (no dot after a name that ends a sentence already).
pub fn result_cell(name: &str, text: &str) -> String {
    result_cell_md(name, &cell(text))
}

/// [`result_cell`] with a text that is Markdown for the cell already
/// (its user text escaped by the caller).
pub fn result_cell_md(name: &str, text: &str) -> String {
    let dot = if name.ends_with(['.', '!', '?']) {
        ""
    } else {
        "."
    };
    format!("**{}{dot}** {text}", cell(name))
}

/// One table.
pub fn table(t: &Table) -> String {
    let mut out = format!("### {}\n\n", crate::wording::markup::escape_md(&t.title));
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
