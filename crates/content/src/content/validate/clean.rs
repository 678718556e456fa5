//! No control characters in a table file's text: NUL, ESC, BEL, a
//! backspace, DEL and the C1 range reach every handout and the terminal
//! as they are (`ESC]0;…` retitles the GM's window), so each string value
//! holding one is a problem at its file, line and column. A tab, a line
//! break and a CRLF line ending are text.

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::Spot;
use crate::diagnostic::Diagnostic;

/// The first control character of `s` that is not text, and its place
/// (0-based, in characters).
pub fn control_character(s: &str) -> Option<(usize, char)> {
    let mut chars = s.chars().enumerate().peekable();
    while let Some((at, c)) = chars.next() {
        let text = match c {
            '\t' | '\n' => true,
            '\r' => chars.peek().is_some_and(|(_, next)| *next == '\n'),
            _ => !c.is_control(),
        };
        if !text {
            return Some((at, c));
        }
    }
    None
}

/// One problem per string value (at any depth) of the file's `root`
/// holding a control character.
pub(super) fn check(spot: Spot, root: &DeTable, problems: &mut Vec<Diagnostic>) {
    for (key, value) in root {
        visit(spot, key.get_ref(), value, problems);
    }
}

fn visit(spot: Spot, key: &str, value: &Spanned<DeValue>, problems: &mut Vec<Diagnostic>) {
    match value.get_ref() {
        DeValue::String(s) => {
            let Some((at, c)) = control_character(s) else {
                return;
            };
            let span = value.span();
            // Written as it is, the character itself is pointed at; as an
            // escape (`\u001b`), the string.
            let raw = spot.file.text.get(span.clone()).unwrap_or("");
            let (offset, width) = match raw.find(c) {
                Some(i) => (span.start + i, 1),
                None => escape_in(raw, c)
                    .map_or((span.start, spot.width(span.clone())), |(i, w)| {
                        (span.start + i, w)
                    }),
            };
            problems.push(spot.at(
                offset,
                width,
                format!(
                    "`{key}` holds a control character (U+{:04X}) at character {}; handouts and the \
                     terminal would get it as it is",
                    c as u32,
                    at + 1
                ),
                "remove it: table text is printable characters, tabs and line breaks only \
                 (an escape such as \\u001b is a control character too)",
            ));
        }
        DeValue::Array(items) => {
            for item in items {
                visit(spot, key, item, problems);
            }
        }
        DeValue::Table(table) => {
            for (k, v) in table {
                visit(spot, k.get_ref(), v, problems);
            }
        }
        _ => {}
    }
}

/// Where `c` is written as an escape in the raw string `raw`, and the
/// escape's length.
fn escape_in(raw: &str, c: char) -> Option<(usize, usize)> {
    let n = c as u32;
    let mut forms = vec![
        format!("\\u{n:04x}"),
        format!("\\u{n:04X}"),
        format!("\\U{n:08x}"),
        format!("\\U{n:08X}"),
    ];
    forms.extend(
        match c {
            '\u{8}' => Some("\\b"),
            '\u{c}' => Some("\\f"),
            '\r' => Some("\\r"),
            '\u{1b}' => Some("\\e"),
            _ => None,
        }
        .map(str::to_owned),
    );
    forms
        .iter()
        .filter_map(|f| raw.find(f.as_str()).map(|i| (i, f.len())))
        .min()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_characters_pass_and_controls_are_found() {
        assert_eq!(control_character("a\tb\nc\r\nd"), None);
        assert_eq!(control_character("a\u{1b}]0;x"), Some((1, '\u{1b}')));
        assert_eq!(control_character("bell\u{7}"), Some((4, '\u{7}')));
        assert_eq!(control_character("a\rb"), Some((1, '\r')));
        assert_eq!(control_character("c1 \u{9b}"), Some((3, '\u{9b}')));
        assert_eq!(control_character("\0"), Some((0, '\0')));
    }
}
