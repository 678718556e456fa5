//! Lines joined as a generator's engine joins them, each place in the
//! joined text still pointing at its own line: [`Joined`] (IPP's `&`
//! lines use it too). A TableSmith file's lines as TableSmith reads them: a line starting
//! `_` goes on with the line before it (a row, a prefix or a suffix,
//! comment lines between skipped) before anything is parsed, so a
//! construct split over lines (`1,{Dice~` then `_1d6}`) is read whole.
//! Each joined line keeps where its pieces came from, so a place in it is
//! reported at its own line and column ([`Joined::place`]).

use super::sheet::{self, Refusal};

/// One line as the reader parses it: its first line's number, its text
/// (continuations appended without their `_`), and where each piece
/// starts.
#[derive(Debug, Clone, PartialEq)]
pub struct Joined {
    pub line: usize,
    pub text: String,
    /// (the 1-based character column in `text` where a piece starts, its
    /// line, the characters before it on that line: 1 for the `_`).
    parts: Vec<(usize, usize, usize)>,
}

impl Joined {
    /// Line `line`, `text` the first piece.
    pub fn new(line: usize, text: &str) -> Joined {
        Joined {
            line,
            text: text.to_owned(),
            parts: vec![(1, line, 0)],
        }
    }

    /// `text` of line `line` appended, `before` characters of that line
    /// left out before it.
    pub fn push(&mut self, line: usize, before: usize, text: &str) {
        let at = self.text.chars().count() + 1;
        self.parts.push((at, line, before));
        self.text.push_str(text);
    }

    /// Whether it is more than one line.
    pub fn is_joined(&self) -> bool {
        self.parts.len() > 1
    }

    /// Line and column in the file of column `column` of the joined text.
    pub fn place(&self, column: usize) -> (usize, usize) {
        let (at, line, before) = self
            .parts
            .iter()
            .rev()
            .find(|p| p.0 <= column)
            .copied()
            .unwrap_or((1, self.line, 0));
        (line, column - at + 1 + before)
    }

    /// A refusal made in the joined text, moved to its own line.
    pub fn relocate(&self, r: &mut Refusal) {
        if r.line == self.line {
            (r.line, r.column) = self.place(r.column);
        }
    }
}

/// The file's lines, continuations joined to the line they go on with;
/// blank and `#` comment lines left out; a line too long refused (in
/// `refused`) and left out.
pub fn join(text: &str, refused: &mut Vec<Refusal>) -> Vec<Joined> {
    let mut out: Vec<Joined> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.trim_end_matches('\r');
        if let Some(r) = sheet::too_long(line_no, line) {
            refused.push(r);
            continue;
        }
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        if let (Some(rest), Some(last)) = (line.strip_prefix('_'), out.last_mut())
            && goes_on(&last.text)
        {
            last.push(line_no, 1, rest);
            continue;
        }
        out.push(Joined::new(line_no, line));
    }
    out
}

/// Whether a `_` line after `line` goes on with it: after a row, a prefix
/// or a suffix, not a group, variable or parameter line (nor another
/// `_` line left on its own, which has no row to go on with).
fn goes_on(line: &str) -> bool {
    !line.starts_with([':', ';', '%', '@', '_'])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continuations_join_the_line_before_across_comments() {
        let mut refused = Vec::new();
        let lines = join(":S\n1,{Dice~\n# note\n_1d6}\n\n_x\n:T\n_y\n", &mut refused);
        let texts: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, [":S", "1,{Dice~1d6}x", ":T", "_y"]);
        let row = &lines[1];
        assert_eq!(row.place(3), (2, 3));
        assert_eq!(row.place(9), (4, 2));
        assert_eq!(row.place(13), (6, 2));
        assert!(refused.is_empty());
    }
}
