//! The terminal's escaping layer: every byte the tool prints on standard
//! output and standard error goes through [`Clean`], which writes each
//! control character but the line feed and the tab as its visible
//! picture (ESC as ␛, BEL as ␇, a C1 control as U+FFFD). Whatever a table
//! row, a name or a shared file holds, printing it cannot move the
//! cursor, retitle the window, ring the bell or hide text.

use std::io::{self, Write};

/// A writer that shows control characters instead of sending them.
pub(crate) struct Clean<W: Write> {
    inner: W,
    /// A 0xC2 byte that ended the last write (a C1 control starts so).
    pending: bool,
}

impl<W: Write> Clean<W> {
    pub(crate) fn new(inner: W) -> Self {
        Clean {
            inner,
            pending: false,
        }
    }
}

/// `text` with its control characters shown as [`Clean`] shows them.
pub(crate) fn clean(text: &str) -> String {
    let mut out = Clean::new(Vec::new());
    out.write_all(text.as_bytes()).expect("writes to memory");
    out.flush().expect("flushes to memory");
    String::from_utf8(out.inner).expect("UTF-8 in, UTF-8 out")
}

fn picture(b: u8) -> char {
    match b {
        0x7f => '\u{2421}',
        b => char::from_u32(0x2400 + u32::from(b)).unwrap_or('\u{fffd}'),
    }
}

/// Whether [`Clean`] writes `b` otherwise than as it is (or waits to see
/// the byte after it).
fn shown_otherwise(b: u8) -> bool {
    matches!(b, 0x00..=0x08 | 0x0a..=0x1f | 0x7f | 0xc2) && b != b'\n'
}

impl<W: Write> Write for Clean<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // Most writes (a formatted line, its padding a character at a
        // time) hold nothing to show otherwise: passed on as they are.
        if !self.pending && !buf.iter().any(|&b| shown_otherwise(b)) {
            self.inner.write_all(buf)?;
            return Ok(buf.len());
        }
        let mut out = Vec::with_capacity(buf.len() + 8);
        let mut bytes = buf.iter().copied().peekable();
        if self.pending {
            self.pending = false;
            match bytes.peek() {
                Some(0x80..=0x9f) => {
                    bytes.next();
                    out.extend_from_slice("\u{fffd}".as_bytes());
                }
                _ => out.push(0xc2),
            }
        }
        while let Some(b) = bytes.next() {
            match b {
                b'\n' | b'\t' => out.push(b),
                0x00..=0x1f | 0x7f => {
                    let mut s = [0u8; 4];
                    out.extend_from_slice(picture(b).encode_utf8(&mut s).as_bytes());
                }
                0xc2 => match bytes.peek() {
                    Some(0x80..=0x9f) => {
                        bytes.next();
                        out.extend_from_slice("\u{fffd}".as_bytes());
                    }
                    None => self.pending = true,
                    _ => out.push(b),
                },
                b => out.push(b),
            }
        }
        self.inner.write_all(&out)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.pending {
            self.pending = false;
            self.inner.write_all(&[0xc2])?;
        }
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_show_and_never_act() {
        assert_eq!(clean("a\u{1b}]0;owned\u{7}b\n\tc"), "a␛]0;owned␇b\n\tc");
        assert_eq!(clean("x\0y\u{8}\r\u{7f}"), "x␀y␈␍␡");
        assert_eq!(clean("é ×\u{9b}2J"), "é ×\u{fffd}2J");
        // A C1 control split between two writes.
        let mut w = Clean::new(Vec::new());
        w.write_all(&[b'a', 0xc2]).unwrap();
        w.write_all(&[0x9b, b'b', 0xc2]).unwrap();
        w.write_all(&[0xa9]).unwrap();
        w.flush().unwrap();
        assert_eq!(String::from_utf8(w.inner).unwrap(), "a\u{fffd}b©");
        // Every byte: shown otherwise exactly when the slow path would
        // change it or wait on it.
        for b in 0..=255u8 {
            let same = b == b'\n' || b == b'\t' || !(b < 0x20 || b == 0x7f || b == 0xc2);
            assert_eq!(shown_otherwise(b), !same, "{b:#x}");
        }
    }
}
