//! One shape for every problem in something a user wrote — a table file, a
//! session, party or character file, a saved map, a dice expression typed on
//! the command line — and one way of showing it:
//!
//! ```text
//! party.toml:12:11: Viktor: CULTURE 40 is outside 1-12
//!     CULTURE = 40
//!               ^^
//!     hint: METTLE attributes are 1-12 dice; fix the line and run again
//! ```
//!
//! A [`Diagnostic`] points at a place (file, line, column; or nothing, for
//! text typed on the command line); it may carry the source line and the
//! span to underline, a hint, and a "did you mean". A [`Report`] is a
//! headline, the diagnostics, and a closing line, for the commands that find
//! every problem before they stop.

use std::collections::BTreeSet;
use std::fmt;
use std::sync::Mutex;

use serde::Serialize;

/// Files (as messages name them) whose lines are never shown under a
/// message: files reached through a link that leaves the folder they were
/// named from, which may be anything of the user's (a key, a password
/// file), so a typo in a session file must not print them.
static WITHHELD: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());

/// Never show a line of `file` (as messages name it) under a message.
pub fn withhold_lines(file: &str) {
    if let Ok(mut set) = WITHHELD.lock() {
        set.insert(file.to_owned());
    }
}

/// Whether the lines of `file` are shown (see [`withhold_lines`]).
fn lines_shown(file: Option<&str>) -> bool {
    let Some(file) = file else { return true };
    WITHHELD.lock().map_or(true, |set| !set.contains(file))
}

/// One problem, pointed at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// The file as messages name it; `None` for command-line text.
    pub file: Option<String>,
    /// 1-based line; 0 when unknown.
    pub line: usize,
    /// 1-based column, counted in characters; 0 when unknown.
    pub column: usize,
    /// The table the problem sits in (content files).
    pub table: Option<String>,
    /// What is wrong, in one line.
    pub message: String,
    /// What to do about it, shown on its own `hint:` line.
    pub hint: Option<String>,
    /// A close match for a misspelled name: shown as "did you mean `x`?".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
    /// The line of source text and how many characters to underline from
    /// `column`.
    #[serde(skip)]
    pub snippet: Option<Snippet>,
}

/// A line of source text to show under the message, with a caret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snippet {
    /// The source line as written (shown cut short when very long).
    pub text: String,
    /// 1-based column (in characters) where the underline starts.
    pub column: usize,
    /// Characters to underline (at least one caret is drawn).
    pub width: usize,
}

impl Diagnostic {
    /// A problem at `file:line:column`.
    pub fn at(
        file: impl Into<String>,
        line: usize,
        column: usize,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            file: Some(file.into()),
            line,
            column,
            table: None,
            message: message.into(),
            hint: None,
            suggestion: None,
            snippet: None,
        }
    }

    /// A problem in text that has no file (a command-line argument).
    pub fn message(message: impl Into<String>) -> Self {
        Diagnostic {
            file: None,
            line: 0,
            column: 0,
            table: None,
            message: message.into(),
            hint: None,
            suggestion: None,
            snippet: None,
        }
    }

    /// The same problem with a hint saying what to do.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// The same problem with a close match to offer ("did you mean"), if any.
    pub fn with_suggestion(mut self, suggestion: Option<String>) -> Self {
        self.suggestion = suggestion;
        self
    }

    /// The same problem, said to sit in `table` (when known).
    pub fn in_table(mut self, table: Option<String>) -> Self {
        self.table = table;
        self
    }

    /// Show the source line this diagnostic points at (taken from the
    /// file's whole `text`), underlining `width` characters.
    pub fn with_source(self, text: &str, width: usize) -> Self {
        if self.line == 0 {
            return self;
        }
        match text.lines().nth(self.line - 1) {
            Some(line) => self.with_line(line, width),
            None => self,
        }
    }

    /// Show `line`, the source line this diagnostic points at (found by
    /// the caller, such as a file's line index), underlining `width`
    /// characters; nothing when the file's lines are withheld.
    pub fn with_line(mut self, line: &str, width: usize) -> Self {
        if self.line > 0 && lines_shown(self.file.as_deref()) {
            self.snippet = Some(Snippet {
                text: line.strip_suffix('\r').unwrap_or(line).to_owned(),
                column: self.column.max(1),
                width,
            });
        }
        self
    }

    /// Show `text` (a command-line argument) with `width` characters
    /// underlined from `column`.
    pub(crate) fn with_snippet(mut self, text: &str, column: usize, width: usize) -> Self {
        self.snippet = Some(Snippet {
            text: text.to_owned(),
            column: column.max(1),
            width,
        });
        self
    }

    /// The hint line as shown: the "did you mean" first, then the hint.
    pub fn hint_line(&self) -> Option<String> {
        let mean = self
            .suggestion
            .as_ref()
            .map(|s| format!("did you mean `{s}`?"));
        match (mean, &self.hint) {
            (Some(m), Some(h)) => Some(format!("{m} {h}")),
            (Some(m), None) => Some(m),
            (None, Some(h)) => Some(h.clone()),
            (None, None) => None,
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            f.write_str(file)?;
            if self.line > 0 {
                write!(f, ":{}:{}", self.line, self.column)?;
            }
            f.write_str(": ")?;
        }
        if let Some(t) = &self.table {
            write!(f, "[{t}] ")?;
        }
        f.write_str(&self.message)?;
        if let Some(s) = &self.snippet {
            write!(f, "\n{s}")?;
        }
        if let Some(h) = self.hint_line() {
            write!(f, "\n    hint: {h}")?;
        }
        Ok(())
    }
}

/// Characters of a long source line shown around the caret (a saved map
/// or a table written on one line can be megabytes long).
const WINDOW: usize = 100;

impl fmt::Display for Snippet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = self.column - 1;
        let total = self.text.chars().count();
        // A window of the line holding the caret, cut lines marked `…`.
        let start = if total <= WINDOW {
            0
        } else {
            at.saturating_sub(WINDOW / 3).min(total - WINDOW)
        };
        let end = (start + WINDOW).min(total);
        let lead = if start > 0 { "…" } else { "" };
        let tail = if end < total { "…" } else { "" };
        // Control characters (a tab, a stray escape) would move the caret.
        let shown: String = self
            .text
            .chars()
            .skip(start)
            .take(end - start)
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        let room = end.saturating_sub(at);
        let width = self.width.min(room).max(1);
        write!(
            f,
            "    {lead}{shown}{tail}\n    {}{}",
            " ".repeat(at - start + lead.chars().count()),
            "^".repeat(width)
        )
    }
}

/// The most diagnostics a report prints; the rest are counted on one
/// line (a file with 100,000 mistakes needs the first few fixed first).
pub const SHOWN: usize = 100;

/// Every problem a command found in what it read: a headline, one
/// diagnostic after another, and a closing line saying what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// The line printed before the diagnostics, if any.
    pub headline: Option<String>,
    /// The problems, in the order found; at most [`SHOWN`] are printed.
    pub diagnostics: Vec<Diagnostic>,
    /// The line printed after them (what to do next), if any.
    pub closing: Option<String>,
}

impl Report {
    /// A single diagnostic on its own.
    pub fn one(d: Diagnostic) -> Self {
        Report {
            headline: None,
            diagnostics: vec![d],
            closing: None,
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        parts.extend(self.headline.clone());
        parts.extend(self.diagnostics.iter().take(SHOWN).map(ToString::to_string));
        if let Some(more) = self.diagnostics.len().checked_sub(SHOWN).filter(|n| *n > 0) {
            parts.push(format!(
                "… and {more} more problem(s), not shown (`--json` lists every one)"
            ));
        }
        parts.extend(self.closing.clone());
        f.write_str(&parts.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_diagnostic_points_at_the_line_with_a_caret() {
        let text = "name = \"Viktor\"\nCULTURE = 40\n";
        let d = Diagnostic::at("party.toml", 2, 11, "Viktor: CULTURE 40 is outside 1-12")
            .with_hint("attributes are 1-12")
            .with_source(text, 2);
        assert_eq!(
            d.to_string(),
            "party.toml:2:11: Viktor: CULTURE 40 is outside 1-12\n    CULTURE = 40\n              ^^\n    hint: attributes are 1-12"
        );
    }

    #[test]
    fn a_suggestion_comes_first_on_the_hint_line() {
        let d = Diagnostic::at("t.toml", 1, 1, "unknown key `wieght`")
            .in_table(Some("x.y".into()))
            .with_suggestion(Some("weight".into()))
            .with_hint("Keys here: weight, text");
        assert_eq!(
            d.to_string(),
            "t.toml:1:1: [x.y] unknown key `wieght`\n    hint: did you mean `weight`? Keys here: weight, text"
        );
    }

    #[test]
    fn a_long_line_is_shown_as_a_window_around_the_caret() {
        let line = format!("{}BAD{}", "a".repeat(5000), "b".repeat(5000));
        let d = Diagnostic::at("map.json", 1, 5001, "here").with_snippet(&line, 5001, 10_000);
        let shown = d.to_string();
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(lines.len(), 3, "{shown}");
        assert!(lines[1].starts_with("    …a") && lines[1].ends_with("b…"));
        assert_eq!(lines[1].chars().count(), 4 + 2 + WINDOW);
        let caret = lines[2].find('^').unwrap();
        assert_eq!(lines[1].chars().nth(caret), Some('B'));
        assert_eq!(lines[2].chars().count(), caret + WINDOW - WINDOW / 3);
        // Near the start or the end, the window does not run past it.
        let d = Diagnostic::at("f", 1, 3, "x").with_snippet(&line, 3, 1);
        assert!(d.to_string().contains("\n    aaa"));
        let d = Diagnostic::at("f", 1, 10_003, "x").with_snippet(&line, 10_003, 1);
        let last = d.to_string();
        assert!(last.lines().nth(1).unwrap().ends_with("bbb"), "{last}");
        assert!(last.lines().nth(2).unwrap().chars().count() <= 4 + 1 + WINDOW + 1);
    }

    #[test]
    fn command_line_text_has_no_location_and_clipped_carets() {
        let d = Diagnostic::message("cannot read `2d6x` (column 4): unexpected `x`")
            .with_snippet("2d6x", 4, 9);
        assert_eq!(
            d.to_string(),
            "cannot read `2d6x` (column 4): unexpected `x`\n    2d6x\n       ^"
        );
    }

    #[test]
    fn a_report_joins_headline_diagnostics_and_closing() {
        let r = Report {
            headline: Some("2 problem(s):".into()),
            diagnostics: vec![
                Diagnostic::at("a", 1, 2, "x"),
                Diagnostic::at("b", 3, 4, "y"),
            ],
            closing: Some("fix them".into()),
        };
        assert_eq!(r.to_string(), "2 problem(s):\na:1:2: x\nb:3:4: y\nfix them");
    }

    #[test]
    fn a_report_prints_the_first_hundred_and_counts_the_rest() {
        let r = Report {
            headline: Some("250 problem(s):".into()),
            diagnostics: (1..=250).map(|i| Diagnostic::at("a", i, 1, "x")).collect(),
            closing: Some("fix them".into()),
        };
        let shown = r.to_string();
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(lines.len(), 1 + SHOWN + 2, "{shown}");
        assert_eq!(lines[SHOWN], "a:100:1: x");
        assert_eq!(
            lines[SHOWN + 1],
            "… and 150 more problem(s), not shown (`--json` lists every one)"
        );
    }
}
