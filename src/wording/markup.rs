//! How names inside a line are written: as they are, or escaped for
//! Markdown ([`escape_md`], also the templates' `md` filter), so a line
//! formatted once serves the terminal and the handouts alike.

/// How names inside a line are written: as they are, or escaped for
/// Markdown (numbers and dice never need it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Markup {
    Plain,
    Markdown,
}

impl Markup {
    pub(super) fn name(self, text: &str) -> String {
        match self {
            Markup::Plain => text.to_owned(),
            Markup::Markdown => escape_md(text),
        }
    }
}

/// Escape text so it cannot break a GFM table or start Markdown syntax.
pub(crate) fn escape_md(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '|' | '*' | '_' | '`' | '[' | ']' | '<' | '>' | '#' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_keeps_tables_whole() {
        assert_eq!(escape_md("a | b * c_d"), "a \\| b \\* c\\_d");
        assert_eq!(escape_md("line\nbreak"), "line break");
        assert_eq!(Markup::Markdown.name("a_b"), "a\\_b");
        assert_eq!(Markup::Plain.name("a_b"), "a_b");
    }
}
