//! Reading a file the user named, bounded: only a regular file (a folder,
//! a device such as `/dev/zero`, a pipe or a socket is refused before it
//! is read, and a pipe is never waited on), and at most [`MAX_FILE_BYTES`]
//! — room for table files of well over 100,000 rows. A file of the
//! kernel's own file systems (`/proc`, `/sys`: "regular" files that hold
//! the environment, keys, counters) is refused as well, so none of it is
//! ever read, let alone shown in a message. Every reader of user files (GM
//! files, table files, templates, bundles) goes through here.

use std::io::Read;
use std::path::Path;

/// The largest file read: 32 MiB.
pub const MAX_FILE_BYTES: u64 = 32 << 20;

/// The bytes of the regular file at `path`, at most [`MAX_FILE_BYTES`];
/// anything else is an error that says what the path is.
pub fn read_bytes(path: &Path) -> std::io::Result<Vec<u8>> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(not_a_file(&meta));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        // Never wait on a pipe swapped in after the check above.
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(not_a_file(&meta));
    }
    if let Some(kind) = system_file_system(&file) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "it is a file of the system's {kind} file system, not a text file; give the path of a text file"
            ),
        ));
    }
    // The file's size (as far as the limit) up front: a read that grows
    // as it goes holds up to twice the bytes.
    let mut bytes = Vec::with_capacity(meta.len().min(MAX_FILE_BYTES + 1) as usize + 1);
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "it is larger than {} MiB, the most tablewright reads from one file",
                MAX_FILE_BYTES >> 20
            ),
        ));
    }
    Ok(bytes)
}

/// The name of the kernel file system `file` lives on when it is one
/// (proc, sysfs and their kin), whose files are never a user's text.
#[cfg(target_os = "linux")]
pub(crate) fn system_file_system(file: &std::fs::File) -> Option<&'static str> {
    use std::os::fd::AsRawFd;
    // SAFETY: `statfs` is plain data; fstatfs fills it from a descriptor
    // we own for the whole call.
    let mut st: libc::statfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstatfs(file.as_raw_fd(), &mut st) } != 0 {
        return None;
    }
    system_kind(st.f_type as i64)
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn system_file_system(_: &std::fs::File) -> Option<&'static str> {
    None
}

/// The kernel file systems by their magic number (`statfs(2)`).
#[cfg(target_os = "linux")]
fn system_kind(magic: i64) -> Option<&'static str> {
    Some(match magic {
        0x9fa0 => "proc",
        0x6265_6572 => "sysfs",
        0x6462_6720 => "debugfs",
        0x7472_6163 => "tracefs",
        0x7363_6673 => "securityfs",
        0x0027_e0eb | 0x6367_7270 => "cgroup",
        0xcafe_4a11 => "bpf",
        0xde5e_81e4 => "efivarfs",
        0x6265_6570 => "configfs",
        0x1cd1 => "devpts",
        _ => return None,
    })
}

/// Whether the folder at `path` is on one of the kernel's own file
/// systems (see [`system_file_system`]): the name of that file system.
pub(crate) fn system_folder(path: &Path) -> Option<&'static str> {
    std::fs::File::open(path)
        .ok()
        .and_then(|f| system_file_system(&f))
}

/// Whether `path`, followed through its links, ends outside `folder`
/// (its own folder when `None` or empty): a file behind a link to
/// somewhere else, whose lines a message must not show.
pub fn leaves_its_folder(path: &Path, folder: Option<&Path>) -> bool {
    let folder = match folder {
        Some(f) if !f.as_os_str().is_empty() => f,
        _ => Path::new("."),
    };
    match (std::fs::canonicalize(path), std::fs::canonicalize(folder)) {
        (Ok(file), Ok(folder)) => !file.starts_with(folder),
        _ => true,
    }
}

fn not_a_file(meta: &std::fs::Metadata) -> std::io::Error {
    let what = if meta.is_dir() {
        "a folder"
    } else {
        "not a regular file (a device, a pipe or a socket)"
    };
    std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!("it is {what}; give the path of a text file"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn devices_folders_and_pipes_are_refused_without_reading() {
        for path in ["/dev/zero", "/dev/urandom", "/", "/proc/self/environ"] {
            let e = read_bytes(Path::new(path)).unwrap_err();
            assert!(
                e.to_string().contains("give the path of a text file"),
                "{path}: {e}"
            );
        }
        let dir = std::env::temp_dir().join(format!("tw-bounded-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a NUL-terminated path that outlives the call.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(read_bytes(&fifo).is_err());
        let big = dir.join("big");
        let f = std::fs::File::create(&big).unwrap();
        f.set_len(MAX_FILE_BYTES + 1).unwrap();
        let e = read_bytes(&big).unwrap_err();
        assert!(e.to_string().contains("larger than 32 MiB"), "{e}");
        std::fs::write(dir.join("ok"), "x").unwrap();
        assert_eq!(read_bytes(&dir.join("ok")).unwrap(), b"x");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
