//! Where a value sits in JSON text — the JSON twin of [`super::locate`]
//! for TOML: the bytes of the value found by a path of keys and indices
//! (`items[0].paths[3].regions`), so that a problem found in a parsed file
//! can be pointed at by line and column. The text has already been parsed
//! whole; the walk here is a loop over its bytes (no recursion, however
//! deep the text), and a path it cannot follow gives `None`, never a panic.

use std::ops::Range;

use super::Step;
use crate::content::line_col;

/// Line, column and width (in characters) of the value at `steps` in JSON
/// `text`; when the full path is not there, of the deepest part that is.
/// A value over several lines is underlined by its first character.
pub(crate) fn place(text: &str, steps: &[Step]) -> Option<(usize, usize, usize)> {
    let range = (0..=steps.len())
        .rev()
        .find_map(|n| locate(text, &steps[..n]))?;
    let (line, col) = line_col(text, range.start);
    let value = &text[range];
    let width = if value.contains('\n') {
        1
    } else {
        value.chars().count()
    };
    Some((line, col, width))
}

/// A path written as a reader would: `paths[3].regions`.
pub(crate) fn shown(path: &[Step]) -> String {
    let mut out = String::new();
    for step in path {
        match step {
            Step::Key(k) if out.is_empty() => out.push_str(k),
            Step::Key(k) => {
                out.push('.');
                out.push_str(k);
            }
            Step::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    out
}

/// The bytes of the value at `path` in `text` (the whole value: a string
/// with its quotes, an object from `{` to `}`).
pub(crate) fn locate(text: &str, path: &[Step]) -> Option<Range<usize>> {
    let mut at = Cursor {
        bytes: text.as_bytes(),
        i: 0,
        text,
    };
    for step in path {
        at.enter(step)?;
    }
    at.space();
    let start = at.i;
    at.skip_value()?;
    Some(start..at.i)
}

/// A read position in the text.
struct Cursor<'t> {
    text: &'t str,
    bytes: &'t [u8],
    i: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.i).copied()
    }

    fn space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    /// Past `c` (after any space), or `None` when something else is there.
    fn eat(&mut self, c: u8) -> Option<()> {
        self.space();
        (self.peek() == Some(c)).then(|| self.i += 1)
    }

    /// Past a string starting here; its bytes with the quotes.
    fn string(&mut self) -> Option<Range<usize>> {
        let start = self.i;
        self.eat(b'"')?;
        loop {
            match self.peek()? {
                b'"' => {
                    self.i += 1;
                    return Some(start..self.i);
                }
                b'\\' => self.i += 2,
                _ => self.i += 1,
            }
        }
    }

    /// Past the value starting here (after any space).
    fn skip_value(&mut self) -> Option<()> {
        self.space();
        match self.peek()? {
            b'"' => self.string().map(drop),
            b'{' | b'[' => self.skip_container(),
            _ => {
                let start = self.i;
                while !matches!(
                    self.peek(),
                    None | Some(b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r')
                ) {
                    self.i += 1;
                }
                (self.i > start).then_some(())
            }
        }
    }

    /// Past an object or array starting here, counting brackets outside
    /// strings.
    fn skip_container(&mut self) -> Option<()> {
        let mut depth = 0usize;
        loop {
            match self.peek()? {
                b'"' => {
                    self.string()?;
                    continue;
                }
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    depth -= 1;
                    if depth == 0 {
                        self.i += 1;
                        return Some(());
                    }
                }
                _ => {}
            }
            self.i += 1;
        }
    }

    /// Into the value at `step` of the object or array starting here: the
    /// cursor is left before that value.
    fn enter(&mut self, step: &Step) -> Option<()> {
        match *step {
            Step::Key(key) => self.enter_key(key),
            Step::Index(n) => self.enter_index(n),
        }
    }

    fn enter_key(&mut self, key: &str) -> Option<()> {
        self.eat(b'{')?;
        loop {
            self.space();
            let name = self.string()?;
            self.eat(b':')?;
            if self.key_is(name, key) {
                return Some(());
            }
            self.skip_value()?;
            self.eat(b',')?;
        }
    }

    fn enter_index(&mut self, n: usize) -> Option<()> {
        self.eat(b'[')?;
        for _ in 0..n {
            self.skip_value()?;
            self.eat(b',')?;
        }
        self.space();
        (self.peek() != Some(b']')).then_some(())
    }

    /// Whether the quoted key at `name` reads `key` (escapes decoded).
    fn key_is(&self, name: Range<usize>, key: &str) -> bool {
        let raw = &self.text[name];
        let inner = &raw[1..raw.len() - 1];
        if !inner.contains('\\') {
            return inner == key;
        }
        serde_json::from_str::<String>(raw).is_ok_and(|k| k == key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str =
        "{\n  \"a\": [1, {\"b\\u0063\": \"x,]}\"}, [2, 3]],\n  \"d\": { \"e\": -1.5e3 }\n}";

    fn at(path: &[Step]) -> Option<&'static str> {
        locate(TEXT, path).map(|r| &TEXT[r])
    }

    #[test]
    fn follows_keys_and_indices_past_strings_and_nesting() {
        use Step::Index;
        let key = Step::Key;
        assert_eq!(at(&[key("a"), Index(0)]), Some("1"));
        assert_eq!(at(&[key("a"), Index(1), key("bc")]), Some("\"x,]}\""));
        assert_eq!(at(&[key("a"), Index(2), Index(1)]), Some("3"));
        assert_eq!(at(&[key("d"), key("e")]), Some("-1.5e3"));
        assert_eq!(at(&[key("d")]), Some("{ \"e\": -1.5e3 }"));
        assert_eq!(at(&[]), Some(TEXT));
    }

    #[test]
    fn a_path_that_is_not_there_is_none() {
        use Step::Index;
        let key = Step::Key;
        assert_eq!(at(&[key("z")]), None);
        assert_eq!(at(&[key("a"), Index(3)]), None);
        assert_eq!(at(&[key("a"), key("b")]), None);
        assert_eq!(at(&[key("d"), key("e"), Index(0)]), None);
        assert_eq!(locate("[]", &[Index(0)]), None);
        assert_eq!(locate("", &[]), None);
    }

    #[test]
    fn deep_text_is_walked_without_recursion() {
        let deep = format!("{}{}", "[".repeat(200_000), "]".repeat(200_000));
        assert_eq!(locate(&deep, &[]).map(|r| r.len()), Some(deep.len()));
        let cut = "[".repeat(1000);
        assert_eq!(locate(&cut, &[Step::Index(0)]), None);
    }

    #[test]
    fn a_place_is_the_deepest_part_there_by_line_and_column() {
        let key = Step::Key;
        assert_eq!(place(TEXT, &[key("d"), key("e")]), Some((3, 15, 6)));
        assert_eq!(place(TEXT, &[key("d"), key("zz")]), Some((3, 8, 15)));
        assert_eq!(place(TEXT, &[key("a")]), Some((2, 8, 32)));
        assert_eq!(place(TEXT, &[]), Some((1, 1, 1)));
        assert_eq!(place("", &[key("a")]), None);
    }

    #[test]
    fn paths_read_as_written() {
        let p = [Step::Key("paths"), Step::Index(3), Step::Key("regions")];
        assert_eq!(shown(&p), "paths[3].regions");
    }
}
