//! How user text is written in each output, so that nothing a GM, a
//! party file or a shared table wrote can act as markup there: names as
//! they are ([`Markup::Plain`]) or escaped for Markdown ([`escape_md`],
//! which the handout templates apply by default, [`Markup::Markdown`]);
//! the SVG drawings escape their text in `page::svg`, and the terminal's
//! is cleaned by `terminal::clean`.
//!
//! One Markdown escape serves every flavour, because the Obsidian and
//! Homebrewery files are made from the GFM handouts after the templates
//! ran: each character below is escaped for the flavour that reads it as
//! syntax, and a backslash before ASCII punctuation is plain text in all
//! three (CommonMark, Obsidian and Homebrewery's marked).
//!
//! | flavour | what user text could otherwise do | escaped |
//! |---|---|---|
//! | GFM | raw HTML (`<script>`, `<img onerror>`), links and images (`[x](javascript:…)`), emphasis, code, tables, headings, entities, strikethrough, a list or rule at the start of a line | `<` `>` `[` `]` `*` `_` `` ` `` `\|` `#` `&` `~` `\`; `-` `+` `=` and `1.` at the start |
//! | Obsidian | wiki links and embeds (`[[Wiki]]`), block ids (`^npc-1`), tags, comments (`%%`), highlights (`==`), maths (`$`) | `[` `]` `^` `#` `%%` `==` `$` |
//! | Homebrewery | blocks and spans (`{{wide}}`), style injection (`{color:red}`), definition lists and breaks (`::`), icons (`:fas_dice:`), variables (`$[x]`), super- and subscript (`^x^`), `\page` | `{` `}` `:` before a non-space or after a `:`, `$`, `^`, `\` |
//!
//! Line breaks become spaces and control characters their visible
//! pictures (ESC as ␛), so a value stays on its line and prints no
//! control code.

/// How names inside a line are written: as they are, or escaped for
/// Markdown (numbers and dice never need it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Markup {
    /// As they are (the terminal, plain text).
    Plain,
    /// Escaped for Markdown.
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

/// A control character as its visible picture: C0 as U+2400 + code
/// (ESC → ␛, NUL → ␀), DEL as ␡, C1 as U+FFFD; `None` for any other.
pub fn control_picture(c: char) -> Option<char> {
    match c {
        '\0'..='\u{1f}' => char::from_u32(0x2400 + c as u32),
        '\u{7f}' => Some('\u{2421}'),
        '\u{80}'..='\u{9f}' => Some('\u{fffd}'),
        _ => None,
    }
}

/// Escape user text for a place in a handout's Markdown (a table cell,
/// a heading, a line, a list item), in every flavour (see the module's
/// table): it reads as itself, never as markup, and stays on one line.
pub fn escape_md(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 8);
    // A list, rule or setext underline at the start of a line:
    // `- x`, `+ x`, `===`, `1. x`, `2) x`.
    let ends_marker = |at: usize| chars.get(at).is_none_or(|c| c.is_whitespace());
    let digits = chars.iter().take_while(|c| c.is_ascii_digit()).count();
    let numbered =
        digits > 0 && matches!(chars.get(digits), Some('.' | ')')) && ends_marker(digits + 1);
    for (i, &c) in chars.iter().enumerate() {
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        let escape = match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|' | '&' | '~' | '{' | '}'
            | '^' | '$' => true,
            // Homebrewery: `::`, `:name:` icons, `:-` alignment; Obsidian
            // and Homebrewery read nothing into `: ` (a label's colon).
            ':' => next.is_some_and(|n| !n.is_whitespace()) || prev == Some(':'),
            // Obsidian: `%%comment%%`, `==highlight==`.
            '%' | '=' => {
                prev == Some(c) || next == Some(c) || (c == '=' && i == 0 && ends_marker(1))
            }
            '-' | '+' => i == 0 && (ends_marker(1) || next == Some(c)),
            '.' | ')' => numbered && i == digits,
            _ => false,
        };
        if escape {
            out.push('\\');
            out.push(c);
        } else if matches!(c, '\n' | '\r' | '\t') {
            out.push(' ');
        } else if let Some(p) = control_picture(c) {
            out.push(p);
        } else {
            out.push(c);
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

    #[test]
    fn escaping_covers_every_flavour() {
        // GFM: HTML, links, entities, a list at the start.
        assert_eq!(
            escape_md("</div><script>alert(1)</script>"),
            "\\</div\\>\\<script\\>alert(1)\\</script\\>"
        );
        assert_eq!(
            escape_md("[x](javascript:alert(2))"),
            "\\[x\\](javascript\\:alert(2))"
        );
        assert_eq!(escape_md("&lt;"), "\\&lt;");
        assert_eq!(escape_md("- item"), "\\- item");
        assert_eq!(escape_md("1. first"), "1\\. first");
        assert_eq!(escape_md("a-b 2. c"), "a-b 2. c");
        assert_eq!(escape_md("+2 Soak, 58.33%, -1"), "+2 Soak, 58.33%, -1");
        assert_eq!(escape_md("---"), "\\---");
        // Obsidian.
        assert_eq!(escape_md("Zed ^npc-1"), "Zed \\^npc-1");
        assert_eq!(escape_md("[[Wiki]]"), "\\[\\[Wiki\\]\\]");
        assert_eq!(
            escape_md("%%x%% ==y== $z$"),
            "\\%\\%x\\%\\% \\=\\=y\\=\\= \\$z\\$"
        );
        assert_eq!(escape_md("50% off"), "50% off");
        // Homebrewery.
        assert_eq!(escape_md("Dana {{wide}}"), "Dana \\{\\{wide\\}\\}");
        assert_eq!(escape_md("a :: b :fas_dice:"), "a \\:\\: b \\:fas\\_dice:");
        assert_eq!(escape_md("Lead: Ada"), "Lead: Ada");
        assert_eq!(escape_md("\\page"), "\\\\page");
        // Control characters show, never act.
        assert_eq!(escape_md("a\u{1b}]0;x\u{7}"), "a\u{241b}\\]0;x\u{2407}");
    }
}
