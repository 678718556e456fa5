//! [`ParseError`]: what is wrong in an expression and where, shown as a
//! [`Diagnostic`] — the message, the expression with a caret under the
//! wrong text, and a hint.

use std::fmt;

use crate::diagnostic::Diagnostic;

/// At most this many carets are drawn under the wrong text.
const MAX_CARETS: usize = 40;

/// A parse or limit error, with the position of the offending text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// The whole text that was parsed.
    pub input: String,
    /// Byte offset of the first wrong character.
    pub at: usize,
    /// Byte length of the wrong text (at least 1 when inside the input).
    pub len: usize,
    /// What is wrong, in words.
    pub message: String,
    /// What to write instead, when there is something to say.
    pub hint: Option<String>,
}

impl ParseError {
    /// Column (in characters, from 1) of the wrong text.
    pub fn column(&self) -> usize {
        self.input[..self.at.min(self.input.len())].chars().count() + 1
    }

    /// How many characters the caret underlines: from the wrong text's
    /// start, `len` characters (at least one, at most 40, never past the
    /// end of the input except for the single caret after it).
    pub fn width(&self) -> usize {
        self.input[self.at.min(self.input.len())..]
            .chars()
            .take(self.len.max(1))
            .count()
            .clamp(1, MAX_CARETS)
    }

    /// The error as typed on the command line: no file, the message
    /// `` cannot read `INPUT` (column N): MESSAGE ``, the input with a caret
    /// under the wrong text, and the hint.
    pub fn diagnostic(&self) -> Diagnostic {
        let mut d = Diagnostic::message(format!(
            "cannot read `{}` (column {}): {}",
            self.input,
            self.column(),
            self.message
        ))
        .with_snippet(&self.input, self.column(), self.width());
        d.column = self.column();
        d.hint = self.hint.clone();
        d
    }

    /// The error for an expression written inside a file: `line` and
    /// `column` are where the expression's first character stands in
    /// `file` (1-based, columns in characters). The diagnostic points at the
    /// wrong character itself, carries the bare message and the hint, and
    /// has no snippet: add the file's line with
    /// `.with_source(text, error.width())`, a table with `.in_table(..)`,
    /// or a prefix naming the expression on `message`.
    ///
    /// This assumes the expression stands in the file as written (no
    /// escapes between its start and the wrong character).
    pub fn diagnostic_in(&self, file: impl Into<String>, line: usize, column: usize) -> Diagnostic {
        let mut d = Diagnostic::at(file, line, column + self.column() - 1, self.message.clone());
        d.hint = self.hint.clone();
        d
    }
}

impl From<&ParseError> for Diagnostic {
    fn from(e: &ParseError) -> Self {
        e.diagnostic()
    }
}

impl fmt::Display for ParseError {
    /// Shown as its [`diagnostic`](ParseError::diagnostic), like every
    /// other problem in what a user wrote.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.diagnostic().fmt(f)
    }
}

impl std::error::Error for ParseError {}
