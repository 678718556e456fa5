//! The terminal's escaping layer: every byte the tool prints on standard
//! output and standard error goes through [`Clean`], which writes each
//! control character but the line feed and the tab as its visible
//! picture (ESC as ␛, BEL as ␇, a C1 control as U+FFFD). Whatever a table
//! row, a name or a shared file holds, printing it cannot move the
//! cursor, retitle the window, ring the bell or hide text.

use std::io::{self, Write};

/// A writer that shows control characters instead of sending them.
///
/// It passes its text on a line at a time (or `HELD_MAX` bytes at a
/// time, for a line longer than that): a line written in pieces — a
/// formatted table row, its padding a character at a time — reaches the
/// writer under it as one write, and a line on standard output still
/// comes before a note on standard error written after it.
pub struct Clean<W: Write> {
    inner: W,
    /// A 0xC2 byte that ended the last write (a C1 control starts so).
    pending: bool,
    /// What was written since the last line feed, shown as it will be.
    held: Vec<u8>,
}

/// The most [`Clean`] holds back waiting for a line feed.
const HELD_MAX: usize = 8 * 1024;

impl<W: Write> Clean<W> {
    /// A writer that cleans what it passes on to `inner`.
    pub fn new(inner: W) -> Self {
        Clean {
            inner,
            pending: false,
            held: Vec::new(),
        }
    }

    /// Pass on every whole line held (everything, when `all`).
    fn pass_on(&mut self, all: bool) -> io::Result<()> {
        let end = if all || self.held.len() >= HELD_MAX {
            self.held.len()
        } else {
            match self.held.iter().rposition(|&b| b == b'\n') {
                Some(i) => i + 1,
                None => return Ok(()),
            }
        };
        if end > 0 {
            let written = self.inner.write_all(&self.held[..end]);
            self.held.drain(..end);
            written?;
        }
        Ok(())
    }
}

/// `text` with its control characters shown as [`Clean`] shows them.
pub fn clean(text: &str) -> String {
    let mut out = Clean::new(Vec::new());
    out.write_all(text.as_bytes()).expect("writes to memory");
    out.flush().expect("flushes to memory");
    String::from_utf8(std::mem::take(&mut out.inner)).expect("UTF-8 in, UTF-8 out")
}

fn picture(b: u8) -> char {
    match b {
        0x7f => '\u{2421}',
        b => char::from_u32(0x2400 + u32::from(b)).unwrap_or('\u{fffd}'),
    }
}

/// Whether [`Clean`] writes `b` otherwise than as it is (or waits to see
/// the byte after it), byte by byte (what [`plain`] works out faster).
#[cfg(test)]
fn shown_otherwise(b: u8) -> bool {
    matches!(b, 0x00..=0x08 | 0x0a..=0x1f | 0x7f | 0xc2) && b != b'\n'
}

/// Whether [`Clean`] writes all of `buf` as it is: no control character
/// (but the line feed and the tab), no C1 control, and no 0xC2 at its end
/// (which may start one). Text with `·` or `é` (0xC2 and 0xC3 lead bytes)
/// is plain; this is looked at without stopping at each byte, so that the
/// compiler can test many bytes at once.
fn plain(buf: &[u8]) -> bool {
    let controls = buf.iter().fold(false, |any, &b| {
        any | ((b < 0x20 && b != b'\n' && b != b'\t') || b == 0x7f)
    });
    if controls {
        return false;
    }
    let mut rest = buf;
    while let Some(i) = rest.iter().position(|&b| b == 0xc2) {
        match rest.get(i + 1) {
            Some(0x80..=0x9f) | None => return false,
            Some(_) => rest = &rest[i + 1..],
        }
    }
    true
}

impl<W: Write> Write for Clean<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // Most writes hold nothing to show otherwise: kept as they are,
        // or, if long, passed on after what is held (never copied).
        if !self.pending && plain(buf) {
            if buf.len() >= HELD_MAX {
                self.pass_on(true)?;
                self.inner.write_all(buf)?;
                return Ok(buf.len());
            }
            self.held.extend_from_slice(buf);
        } else {
            self.show(buf);
        }
        if buf.contains(&b'\n') || self.held.len() >= HELD_MAX {
            self.pass_on(false)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.pending {
            self.pending = false;
            self.held.push(0xc2);
        }
        self.pass_on(true)?;
        self.inner.flush()
    }
}

impl<W: Write> Clean<W> {
    /// Hold `buf` with its control characters shown as pictures.
    fn show(&mut self, buf: &[u8]) {
        let out = &mut self.held;
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
    }
}

/// What is still held is passed on (best effort: a write that fails here
/// has nowhere to report to; `run` flushes and reports).
impl<W: Write> Drop for Clean<W> {
    fn drop(&mut self) {
        let _ = self.flush();
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
        assert_eq!(
            String::from_utf8(std::mem::take(&mut w.inner)).unwrap(),
            "a\u{fffd}b©"
        );
        // Plain text passes as it is; `plain` agrees with the slow path
        // on every pair of bytes.
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                let pair = [a, b];
                let mut w = Clean::new(Vec::new());
                w.show(&pair);
                let same = !w.pending && w.held == pair;
                assert_eq!(plain(&pair), same, "{a:#x} {b:#x}");
            }
        }
        // Every byte: shown otherwise exactly when the slow path would
        // change it or wait on it.
        for b in 0..=255u8 {
            let same = b == b'\n' || b == b'\t' || !(b < 0x20 || b == 0x7f || b == 0xc2);
            assert_eq!(shown_otherwise(b), !same, "{b:#x}");
        }
    }

    /// Records each write it is given.
    #[derive(Default)]
    struct Writes(Vec<Vec<u8>>);

    impl Write for Writes {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.push(buf.to_vec());
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_line_written_in_pieces_is_passed_on_whole() {
        let mut w = Clean::new(Writes::default());
        write!(w, "{:<8}|{:>4}", "id", 7).unwrap();
        assert!(w.inner.0.is_empty(), "nothing before the line ends");
        writeln!(w, " end").unwrap();
        write!(w, "two\nthree\u{1b}").unwrap();
        assert_eq!(
            w.inner.0,
            [b"id      |   7 end\n".to_vec(), b"two\n".to_vec()]
        );
        w.flush().unwrap();
        assert_eq!(w.inner.0[2], "three␛".as_bytes());
        // A line longer than what is held back goes on in parts, whole.
        let mut w = Clean::new(Writes::default());
        let long = "x".repeat(3 * HELD_MAX);
        for chunk in long.as_bytes().chunks(100) {
            w.write_all(chunk).unwrap();
        }
        assert!(w.held.len() < HELD_MAX);
        // A long write goes on as it is, after what was held.
        write!(w, "y").unwrap();
        w.write_all(long.as_bytes()).unwrap();
        assert!(w.held.is_empty());
        assert_eq!(w.inner.0.last().unwrap().as_slice(), long.as_bytes());
        drop(w.flush());
        let passed: Vec<u8> = w.inner.0.concat();
        assert_eq!(passed, [long.as_bytes(), b"y", long.as_bytes()].concat());
    }
}
