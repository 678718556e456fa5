//! The cursor over the text: characters, whitespace, words and numbers, and
//! errors pointed at a span of the input.

use super::{ParseError, Parser};
use crate::dice::limits;

impl<'a> Parser<'a> {
    pub(super) fn peek(&self) -> Option<char> {
        // ASCII without decoding: nearly every character of a notation.
        match self.s.as_bytes().get(self.pos) {
            Some(&b) if b.is_ascii() => Some(char::from(b)),
            Some(_) => self.s[self.pos..].chars().next(),
            None => None,
        }
    }

    pub(super) fn peek_at(&self, offset: usize) -> Option<char> {
        self.s[self.pos..].chars().nth(offset)
    }

    pub(super) fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    pub(super) fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    /// Skip whitespace; whether there was any.
    pub(super) fn skip_ws(&mut self) -> bool {
        let start = self.pos;
        while matches!(self.peek(), Some(c) if c.is_whitespace()) {
            self.bump();
        }
        self.pos > start
    }

    pub(super) fn at_end(&self) -> bool {
        self.pos >= self.s.len()
    }

    /// Skip the digits here; they are `self.s[start..self.pos]`.
    pub(super) fn skip_digits(&mut self) {
        let bytes = self.s.as_bytes();
        while bytes.get(self.pos).is_some_and(u8::is_ascii_digit) {
            self.pos += 1;
        }
    }

    /// `` `c` `` for the next character, or "the end".
    pub(super) fn found(&self) -> String {
        match self.peek() {
            Some(c) => format!("`{c}`"),
            None => "the end".into(),
        }
    }

    /// An error over `len` bytes from `at`.
    pub(super) fn error(
        &self,
        at: usize,
        len: usize,
        message: String,
        hint: Option<String>,
    ) -> ParseError {
        ParseError {
            input: self.s.to_owned(),
            at,
            len,
            message,
            hint,
        }
    }

    /// An error over the text read since `start`.
    pub(super) fn error_since(
        &self,
        start: usize,
        message: String,
        hint: Option<String>,
    ) -> ParseError {
        self.error(start, self.pos - start, message, hint)
    }

    /// A limit broken by the text read since `start`, with the hint that
    /// lists the limits.
    pub(super) fn over_limit(&self, start: usize, message: String) -> ParseError {
        self.error_since(start, message, Some(limits::HINT.into()))
    }

    /// An error at the next character.
    pub(super) fn error_here(&self, message: String, hint: Option<String>) -> ParseError {
        let len = self.peek().map_or(1, char::len_utf8);
        self.error(self.pos, len, message, hint)
    }

    /// Look at the next alphabetic word without consuming it.
    pub(super) fn peek_word(&self) -> &'a str {
        let rest = &self.s[self.pos..];
        // ASCII letters without decoding; anything else through `char`.
        let end = rest
            .bytes()
            .position(|b| !(b.is_ascii_alphabetic() || b == b'_' || !b.is_ascii()))
            .unwrap_or(rest.len());
        let end = rest[..end]
            .find(|c: char| !(c.is_alphabetic() || c == '_'))
            .unwrap_or(end);
        &rest[..end]
    }

    pub(super) fn eat_word(&mut self, word: &str) -> bool {
        let w = self.peek_word();
        if w.eq_ignore_ascii_case(word) {
            self.pos += w.len();
            true
        } else {
            false
        }
    }

    /// An unsigned number, with an error pointing at it when it is too big.
    pub(super) fn number(&mut self, what: &str, max: u64) -> Result<u64, ParseError> {
        let start = self.pos;
        self.skip_digits();
        if start == self.pos {
            let found = self.found();
            return Err(self.error_here(format!("expected {what}, found {found}"), None));
        }
        let digits = &self.s[start..self.pos];
        let message = match digits.parse::<u64>() {
            Ok(v) if v <= max => return Ok(v),
            Ok(_) => format!("{what} {digits} is too large; the limit is {max}"),
            Err(_) => format!("{what} {digits} is too large"),
        };
        Err(self.over_limit(start, message))
    }
}
