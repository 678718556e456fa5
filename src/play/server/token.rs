//! The GM's secret: 32 bytes from the operating system's randomness
//! (`/dev/urandom`, never the project's seeded streams), written as hex,
//! compared in constant time.

use std::io::Read;

/// The GM's token.
#[derive(Clone)]
pub(crate) struct Token(String);

impl Token {
    /// A fresh token from `/dev/urandom`.
    pub(crate) fn fresh() -> std::io::Result<Token> {
        let mut bytes = [0u8; 32];
        std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
        Ok(Token(bytes.iter().map(|b| format!("{b:02x}")).collect()))
    }

    /// The token's text, for the GM's address only.
    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether `given` is the token, taking the same time whatever byte
    /// differs (only the length, which is public, ends it early).
    pub(crate) fn matches(&self, given: &str) -> bool {
        let (a, b) = (self.0.as_bytes(), given.as_bytes());
        if a.len() != b.len() {
            return false;
        }
        let diff = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
        std::hint::black_box(diff) == 0
    }
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(…)")
    }
}

#[cfg(test)]
mod tests {
    use super::Token;

    #[test]
    fn tokens_are_fresh_and_compared_whole() {
        let a = Token::fresh().unwrap();
        let b = Token::fresh().unwrap();
        assert_eq!(a.as_str().len(), 64);
        assert_ne!(a.as_str(), b.as_str());
        assert!(a.matches(a.as_str()));
        assert!(!a.matches(b.as_str()));
        assert!(!a.matches(&a.as_str()[..63]));
        assert!(!a.matches(""));
        let mut near = a.as_str().to_string();
        let last = if near.ends_with('0') { "1" } else { "0" };
        near.replace_range(63.., last);
        assert!(!a.matches(&near));
    }
}
