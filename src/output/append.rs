//! A log written a line at a time ([`Appender`]): `play`'s log of the
//! session in play. Each line is appended and synced before the call
//! returns, so a kill loses at most the line being written; a torn last
//! line (the kill came mid-write) is cut off when the log is opened again.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use super::OutputError;

/// A file open for appending lines, each synced to disk.
#[derive(Debug)]
pub(crate) struct Appender {
    file: File,
    path: PathBuf,
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
        })
    }

    /// Append `line` and a newline in one write, then sync the data.
    pub(crate) fn line(&mut self, line: &str) -> Result<(), OutputError> {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        let write = |e| OutputError::Write(self.path.clone(), e);
        self.file.write_all(&bytes).map_err(write)?;
        self.file.sync_data().map_err(write)
    }
}
