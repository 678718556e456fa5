//! What publication needs from the operating system, in one place: an
//! atomic exchange of two folders, a lock on a folder that the kernel
//! releases when the process dies, syncing a folder, and names no one can
//! guess. On Linux the exchange is `renameat2(RENAME_EXCHANGE)`; on Unix
//! the lock is std's file lock (`File::lock`, `flock` underneath);
//! elsewhere the exchange reports `Unsupported` (the
//! caller falls back to two renames) and the lock is a no-op.

use std::fs::File;
use std::io;
use std::path::Path;

/// A name part of 16 hex digits that another process cannot predict: the
/// per-process random keys std gives hash maps, the process id, a counter
/// and the clock. Never reaches a handout — only temporary names.
pub(super) fn unpredictable() -> String {
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u32(std::process::id());
    h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        h.write_u128(t.as_nanos());
    }
    format!("{:016x}", h.finish())
}

/// Swap two folders (or files) in one step: after it, `a` holds what `b`
/// held and `b` what `a` held; a reader never sees neither.
#[cfg(target_os = "linux")]
pub(super) fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    renameat2(a, b, libc::RENAME_EXCHANGE).map_err(|e| {
        if cannot(&e) {
            io::Error::new(io::ErrorKind::Unsupported, e)
        } else {
            e
        }
    })
}

/// `renameat2(from, to, flags)`, the kernel's error as it gave it.
#[cfg(target_os = "linux")]
fn renameat2(from: &Path, to: &Path, flags: libc::c_uint) -> io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let ca = CString::new(from.as_os_str().as_bytes())?;
    let cb = CString::new(to.as_os_str().as_bytes())?;
    // SAFETY: two NUL-terminated paths that outlive the call; the syscall
    // reads them and nothing else.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_renameat2,
            libc::AT_FDCWD,
            ca.as_ptr(),
            libc::AT_FDCWD,
            cb.as_ptr(),
            flags,
        )
    };
    match rc {
        0 => Ok(()),
        _ => Err(io::Error::last_os_error()),
    }
}

/// The kernel or the file system cannot do what `renameat2` was asked.
#[cfg(target_os = "linux")]
fn cannot(e: &io::Error) -> bool {
    matches!(e.raw_os_error(), Some(libc::ENOSYS | libc::EINVAL))
}

#[cfg(not(target_os = "linux"))]
pub fn exchange(_: &Path, _: &Path) -> io::Result<()> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "no atomic exchange here",
    ))
}

/// An exclusive lock on a folder, held until dropped (or the process
/// ends, whatever way it ends). A folder this process already holds is
/// not locked twice (a second lock on it would wait on ourselves): the
/// inner lock is then a no-op and the outer one keeps holding it.
pub(crate) struct Lock {
    _folder: Option<File>,
    key: Option<(u64, u64)>,
}

/// The folders (device, inode) this process holds a [`Lock`] on.
static HELD: std::sync::Mutex<Vec<(u64, u64)>> = std::sync::Mutex::new(Vec::new());

impl Drop for Lock {
    fn drop(&mut self) {
        if let Some(key) = self.key
            && let Ok(mut held) = HELD.lock()
        {
            held.retain(|k| *k != key);
        }
    }
}

/// Lock `dir`, waiting while another process holds it; `waiting` is
/// called once, before the wait, when it does.
#[cfg(unix)]
pub(super) fn lock(dir: &Path, waiting: impl FnOnce()) -> io::Result<Lock> {
    use std::os::unix::fs::MetadataExt;
    let folder = File::open(dir)?;
    let meta = folder.metadata()?;
    let key = (meta.dev(), meta.ino());
    let held = || {
        HELD.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    };
    if held().contains(&key) {
        return Ok(Lock {
            _folder: None,
            key: None,
        });
    }
    // std's file locks are `flock` on Unix: released by the kernel when
    // the process ends, however it ends.
    match folder.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            waiting();
            loop {
                match folder.lock() {
                    Ok(()) => break,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
        }
        Err(std::fs::TryLockError::Error(e)) => return Err(e),
    }
    held().push(key);
    Ok(Lock {
        _folder: Some(folder),
        key: Some(key),
    })
}

#[cfg(not(unix))]
pub fn lock(dir: &Path, _waiting: impl FnOnce()) -> io::Result<Lock> {
    Ok(Lock {
        _folder: Some(File::open(dir)?),
        key: None,
    })
}

/// The bytes of the regular file at `path` — never through a link, never
/// waiting on a pipe, at most `max` bytes (a longer file is an error).
pub(crate) fn read_regular(path: &Path, max: u64) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    #[cfg(not(unix))]
    if path.symlink_metadata()?.file_type().is_symlink() {
        return Err(io::Error::other("a link"));
    }
    let file = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::other("not a regular file"));
    }
    let mut bytes = Vec::new();
    file.take(max.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "longer than expected",
        ));
    }
    Ok(bytes)
}

/// Rename `from` to `to` unless something is at `to` already (then an
/// `AlreadyExists` error and nothing moved).
pub(super) fn rename_new(from: &Path, to: &Path) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    match renameat2(from, to, libc::RENAME_NOREPLACE) {
        Err(e) if cannot(&e) => {}
        done => return done,
    }
    if to.symlink_metadata().is_ok() {
        return Err(io::Error::from(io::ErrorKind::AlreadyExists));
    }
    std::fs::rename(from, to)
}

/// The permissions (and group) of something about to be replaced, to
/// give to what replaces it: a pack folder at 0700 stays 0700, a setgid
/// group folder keeps its group and its setgid bit, a session file at
/// 0600 stays 0600.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Keep {
    #[cfg(unix)]
    mode: u32,
    #[cfg(unix)]
    gid: u32,
}

impl Keep {
    /// What `path` has now (its own, not a link's target); `None` when
    /// nothing is there.
    pub(super) fn of(path: &Path) -> Option<Keep> {
        let meta = path.symlink_metadata().ok()?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Some(Keep {
                mode: meta.mode() & 0o7777,
                gid: meta.gid(),
            })
        }
        #[cfg(not(unix))]
        {
            let _ = meta;
            Some(Keep {})
        }
    }

    /// Give `path` (a folder this run made and is still filling) the
    /// group, then the mode, with the owner's write and search kept so the
    /// run can fill it ([`Keep::apply`] sets the mode exactly at the end).
    pub(super) fn apply_open(self, path: &Path) -> io::Result<()> {
        #[cfg(unix)]
        {
            self.group(path);
            set_mode(path, self.mode | 0o700)
        }
        #[cfg(not(unix))]
        {
            let _ = path;
            Ok(())
        }
    }

    /// Give `path` (a file or folder this run made) the group, where the
    /// run may, and the mode.
    pub(super) fn apply(self, path: &Path) -> io::Result<()> {
        #[cfg(unix)]
        {
            self.group(path);
            set_mode(path, self.mode)
        }
        #[cfg(not(unix))]
        {
            let _ = path;
            Ok(())
        }
    }

    /// The group, where the run may set it (its own groups; root any);
    /// elsewhere the group stays the one the file was made with.
    #[cfg(unix)]
    fn group(self, path: &Path) {
        use std::os::unix::fs::MetadataExt;
        if path.symlink_metadata().is_ok_and(|m| m.gid() == self.gid) {
            return;
        }
        let _ = std::os::unix::fs::lchown(path, None, Some(self.gid));
    }
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

/// Remove a folder and everything in it, links removed and never
/// followed, folders made writable first (a read-only pack folder, once
/// replaced, is removed too).
pub(super) fn remove_tree(path: &Path) -> io::Result<()> {
    if std::fs::remove_dir_all(path).is_ok() {
        return Ok(());
    }
    #[cfg(unix)]
    open_up(path);
    std::fs::remove_dir_all(path)
}

/// Give the owner write and search on `path` and every folder below it
/// (links not followed).
#[cfg(unix)]
fn open_up(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let Ok(meta) = path.symlink_metadata() else {
        return;
    };
    if !meta.is_dir() {
        return;
    }
    let _ = set_mode(path, (meta.permissions().mode() & 0o7777) | 0o700);
    if let Ok(list) = std::fs::read_dir(path) {
        for entry in list.flatten() {
            open_up(&entry.path());
        }
    }
}

/// Make a folder's entries (names created, renamed, removed) durable.
pub(super) fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_do_not_repeat() {
        let names: std::collections::BTreeSet<String> =
            (0..1000).map(|_| unpredictable()).collect();
        assert_eq!(names.len(), 1000);
        assert!(names.iter().all(|n| n.len() == 16));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn exchange_swaps_two_folders() {
        let base = std::env::temp_dir().join(format!("tw-exchange-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(base.join("a")).unwrap();
        std::fs::create_dir_all(base.join("b")).unwrap();
        std::fs::write(base.join("a/x"), "a").unwrap();
        std::fs::write(base.join("b/x"), "b").unwrap();
        exchange(&base.join("a"), &base.join("b")).unwrap();
        assert_eq!(std::fs::read(base.join("a/x")).unwrap(), b"b");
        assert_eq!(std::fs::read(base.join("b/x")).unwrap(), b"a");
        std::fs::remove_dir_all(&base).unwrap();
    }
}
