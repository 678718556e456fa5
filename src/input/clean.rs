//! Clean text in the GM's TOML files: no string value may hold a control
//! character (NUL, ESC, a carriage return…; a tab or a line break is
//! fine, and so is a CRLF line ending in a carried file's text), because every one of them ends up on a handout. Each is pointed
//! at by file, line and column. Seeds are left to `seed`, which refuses
//! tabs and line breaks as well, and says so at the seed's place.

use std::path::Path;

use toml::de::{DeTable, DeValue};

use crate::content::line_col;
use crate::diagnostic::Diagnostic;

/// One diagnostic per string value in `text` holding a control
/// character (none when `text` is not TOML: the parser reports that).
pub(crate) fn control_characters(path: &Path, text: &str) -> Vec<Diagnostic> {
    let Ok(root) = DeTable::parse(text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (key, value) in root.get_ref() {
        visit(path, text, key.get_ref(), value, &mut out);
    }
    // In the order of the file.
    out.sort_by_key(|(at, _)| *at);
    out.into_iter().map(|(_, d)| d).collect()
}

fn visit(
    path: &Path,
    text: &str,
    key: &str,
    value: &toml::Spanned<DeValue>,
    out: &mut Vec<(usize, Diagnostic)>,
) {
    match value.get_ref() {
        DeValue::String(s) if key != "seed" => {
            // A CRLF line ending (a carried file's text) is text too.
            let bad = crate::content::validate::clean::control_character(s);
            if let Some((at, c)) = bad {
                let span = value.span();
                let (line, col) = line_col(text, span.start);
                let width = text.get(span.clone()).map_or(1, |s| s.chars().count());
                let message = format!(
                    "`{key}` has a control character (U+{:04X}) at character {}; a handout \
                     would print it as it is",
                    c as u32,
                    at + 1
                );
                out.push((
                    span.start,
                    Diagnostic::at(path.display().to_string(), line, col, message)
                        .with_source(text, width)
                        .with_hint("use printable text only (remove the escape such as \\u001b)"),
                ));
            }
        }
        DeValue::Array(items) => {
            for item in items {
                visit(path, text, key, item, out);
            }
        }
        DeValue::Table(table) => {
            for (k, v) in table {
                visit(path, text, k.get_ref(), v, out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_pointed_at() {
        let text = "title = \"ok\"\nvouchers = [\"Kirin\", \"Vik\\u001btor\"]\n[map]\nname = \"a\\rb\"\nnote = \"tab\\there\\nnew line\"\n";
        let found = control_characters(Path::new("s.toml"), text);
        let shown: Vec<String> = found.iter().map(|d| d.to_string()).collect();
        assert_eq!(found.len(), 2, "{shown:?}");
        assert!(
            shown[0].starts_with(
                "s.toml:2:22: `vouchers` has a control character (U+001B) at character 4"
            ),
            "{}",
            shown[0]
        );
        assert!(
            shown[1].starts_with("s.toml:4:8: `name` has a control character (U+000D)"),
            "{}",
            shown[1]
        );
        assert!(control_characters(Path::new("s"), "seed = \"a\\tb\"\n").is_empty());
    }
}
