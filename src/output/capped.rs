//! Output built whole in memory within a cap: a byte buffer that refuses
//! to grow past its limit and remembers that it was asked to, so the
//! writer (a template's rendering, `table --times`) stops at once and the
//! caller can say why. Nothing reaches a file or the terminal until the
//! whole output is in.

use std::io::Write;

/// A byte buffer that refuses to grow past `cap` bytes, and refuses every
/// write after the first it refused.
#[derive(Debug)]
pub(crate) struct Capped {
    bytes: Vec<u8>,
    cap: usize,
    over: bool,
}

impl Capped {
    /// An empty buffer that holds at most `cap` bytes.
    pub(crate) fn new(cap: usize) -> Capped {
        Capped {
            bytes: Vec::new(),
            cap,
            over: false,
        }
    }

    /// Whether a write was refused because it would have passed the cap.
    pub(crate) fn over(&self) -> bool {
        self.over
    }

    /// What was written (never more than the cap).
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// What was written, as an owned buffer.
    pub(crate) fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

impl Write for Capped {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        // Once over, always over: a writer that carries on after a refusal
        // cannot end with a whole-looking output.
        if self.over || self.bytes.len() + data.len() > self.cap {
            self.over = true;
            return Err(std::io::Error::other("the output is past its cap"));
        }
        self.bytes.extend_from_slice(data);
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_past_the_cap_is_refused_and_remembered() {
        let mut c = Capped::new(4);
        c.write_all(b"abc").unwrap();
        assert!(!c.over());
        assert!(c.write_all(b"de").is_err());
        assert!(c.over());
        assert_eq!(c.bytes(), b"abc");
        assert!(c.write_all(b"d").is_err(), "a refusal sticks");
        assert_eq!(c.into_bytes(), b"abc");
    }
}
