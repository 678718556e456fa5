//! A log written a line at a time ([`Appender`]): `play`'s log of the
//! session in play. Each line is appended and synced before the call
//! returns, so a kill loses at most the line being written; a torn last
//! line (the kill came mid-write) is cut off when the log is opened again.
//! A write that fails (a full disk) is cut back at once: the log is left
//! exactly as it was before the line, and the next line appends cleanly.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::OutputError;

/// A file open for appending lines, each synced to disk.
#[derive(Debug)]
pub(crate) struct Appender {
    file: File,
    path: PathBuf,
    /// The length of the whole lines written: what a failed write is cut
    /// back to.
    len: u64,
    /// A failed write could not be cut back: cut it before the next.
    torn: bool,
    /// Tests: the next write puts this many bytes down, then fails as a
    /// full disk does.
    #[cfg(test)]
    pub(crate) fault: Option<usize>,
}

impl Appender {
    /// Open the log at `path` for appending, created new when missing;
    /// whatever lies past `keep` bytes (a torn last line) is cut off. A
    /// link at `path` is refused, never written through.
    pub(crate) fn open(path: &Path, keep: u64) -> Result<Appender, OutputError> {
        let fresh = match path.symlink_metadata() {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(OutputError::Link(path.to_owned()));
            }
            Ok(m) if !m.is_file() => return Err(OutputError::NotAFile(path.to_owned())),
            Ok(_) => false,
            Err(_) => true,
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| OutputError::CannotCreate(dir.to_owned(), e))?;
        }
        let write = |e| OutputError::Write(path.to_owned(), e);
        let file = OpenOptions::new()
            .append(true)
            .create(true)
            .open(path)
            .map_err(write)?;
        let len = file.metadata().map_err(write)?.len();
        if len > keep {
            file.set_len(keep).map_err(write)?;
            file.sync_all().map_err(write)?;
        }
        if fresh {
            let dir = match path.parent() {
                Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                _ => PathBuf::from("."),
            };
            super::sys::sync_dir(&dir).map_err(|e| OutputError::Write(dir.clone(), e))?;
        }
        Ok(Appender {
            file,
            path: path.to_owned(),
            len: len.min(keep),
            torn: false,
            #[cfg(test)]
            fault: None,
        })
    }

    /// Append `line` and a newline in one write, then sync the data. On
    /// failure the file is cut back to its length before the call.
    pub(crate) fn line(&mut self, line: &str) -> Result<(), OutputError> {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        let done = self
            .cut_back()
            .and_then(|()| self.write(&bytes))
            .and_then(|()| self.file.sync_data());
        match done {
            Ok(()) => {
                self.len += bytes.len() as u64;
                Ok(())
            }
            Err(e) => {
                self.torn = true;
                let _ = self.cut_back();
                Err(OutputError::Write(self.path.clone(), e))
            }
        }
    }

    /// After a failed write: the file cut back to its whole lines.
    fn cut_back(&mut self) -> io::Result<()> {
        if self.torn {
            self.file.set_len(self.len)?;
            self.file.sync_data()?;
            self.torn = false;
        }
        Ok(())
    }

    fn write(&mut self, bytes: &[u8]) -> io::Result<()> {
        #[cfg(test)]
        if let Some(n) = self.fault.take() {
            self.file.write_all(&bytes[..n.min(bytes.len())])?;
            return Err(io::Error::new(
                io::ErrorKind::StorageFull,
                "No space left on device (os error 28)",
            ));
        }
        self.file.write_all(bytes)
    }
}
