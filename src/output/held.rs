//! One writer of a file at a time ([`Held`]): `play` holds `play.lock`
//! beside a session's play log while it serves the session, so a second
//! `play` on the same session is refused instead of writing the same
//! numbers into the log. The kernel holds the lock (`flock`, as the
//! folder lock in `sys`; elsewhere than Unix there is none), so it ends
//! however the holder ends, a kill included; the file says who
//! holds it (the address the holder serves at). The file stays when the
//! holder ends (emptied): deleting it would let a second writer lock a new
//! file while a third still holds the old one.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::OutputError;

/// The lock file that says who holds it: at most this many bytes are read.
const MAX_SAID: u64 = 1024;

/// A lock file held (until dropped, or the process ends).
#[derive(Debug)]
pub(crate) struct Held {
    file: File,
    path: PathBuf,
}

impl Held {
    /// Lock the file at `path` (made when missing), or say who holds it:
    /// [`OutputError::Held`] with what the holder wrote in it.
    pub(crate) fn take(path: &Path) -> Result<Held, OutputError> {
        if path
            .symlink_metadata()
            .is_ok_and(|m| m.file_type().is_symlink())
        {
            return Err(OutputError::Link(path.to_owned()));
        }
        let io = |e| OutputError::Write(path.to_owned(), e);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io)?;
        match try_lock(&file) {
            Ok(true) => Ok(Held {
                file,
                path: path.to_owned(),
            }),
            Ok(false) => {
                let mut said = String::new();
                let _ = (&mut file).take(MAX_SAID).read_to_string(&mut said);
                Err(OutputError::Held(path.to_owned(), said.trim().to_string()))
            }
            Err(e) => Err(io(e)),
        }
    }

    /// Write `who` (the holder's address) in the lock file, in place of
    /// whatever it said.
    pub(crate) fn say(&mut self, who: &str) -> Result<(), OutputError> {
        let io = |e| OutputError::Write(self.path.clone(), e);
        self.file.set_len(0).map_err(io)?;
        self.file.seek(SeekFrom::Start(0)).map_err(io)?;
        self.file
            .write_all(format!("{who}\n").as_bytes())
            .map_err(io)?;
        self.file.sync_data().map_err(io)
    }
}

/// An exclusive lock on `file` without waiting: whether it was had.
#[cfg(unix)]
fn try_lock(file: &File) -> std::io::Result<bool> {
    use std::os::fd::AsRawFd;
    loop {
        // SAFETY: flock on a descriptor we own for the whole call.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
            return Ok(true);
        }
        let e = std::io::Error::last_os_error();
        match e.kind() {
            std::io::ErrorKind::WouldBlock => return Ok(false),
            std::io::ErrorKind::Interrupted => continue,
            _ => return Err(e),
        }
    }
}

#[cfg(not(unix))]
fn try_lock(_: &File) -> std::io::Result<bool> {
    Ok(true)
}

impl Drop for Held {
    fn drop(&mut self) {
        // Still held: nobody reads an address that no longer serves.
        let _ = self.file.set_len(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_holder_is_refused_with_what_the_first_said() {
        let dir = std::env::temp_dir().join(format!("tw-held-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("play.lock");
        let mut first = Held::take(&path).unwrap();
        first.say("http://127.0.0.1:4000/").unwrap();
        match Held::take(&path) {
            Err(OutputError::Held(p, said)) => {
                assert_eq!((p, said.as_str()), (path.clone(), "http://127.0.0.1:4000/"));
            }
            other => panic!("{other:?}"),
        }
        drop(first);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "");
        let _again = Held::take(&path).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
