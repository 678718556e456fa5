//! The only code that writes files. A set of files is written into one
//! folder all or nothing: every problem (the folder is a file, cannot be
//! made or written, a file already exists without `--force`) is found
//! before the first byte is written; each file goes to a temporary name in
//! the same folder and is renamed into place, so a reader never sees half a
//! file. Folder names come from slugs of the seed, never raw user text.

use std::fmt;
use std::hash::Hasher;
use std::io::Write;
use std::path::{Path, PathBuf};

use rand_seeder::SipHasher;

#[derive(Debug)]
pub enum OutputError {
    NotAFolder(PathBuf),
    /// A handout's name is taken by a folder.
    NotAFile(PathBuf),
    CannotCreate(PathBuf, std::io::Error),
    Exists(Vec<PathBuf>),
    Write(PathBuf, std::io::Error),
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutputError::NotAFolder(p) => write!(
                f,
                "{} is a file, not a folder; choose another --out folder",
                p.display()
            ),
            OutputError::NotAFile(p) => write!(
                f,
                "{} is a folder, so no handout can be written there; move it away or choose another --out",
                p.display()
            ),
            OutputError::CannotCreate(p, e) => write!(
                f,
                "cannot create the folder {}: {e}; choose a folder you can write to with --out",
                p.display()
            ),
            OutputError::Exists(files) => {
                let list: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
                write!(
                    f,
                    "refusing to overwrite {} existing file(s): {}; pass --force to replace them, or choose another --out",
                    files.len(),
                    list.join(", ")
                )
            }
            OutputError::Write(p, e) => write!(
                f,
                "cannot write {}: {e}; nothing of this set was left half-written",
                p.display()
            ),
        }
    }
}

impl std::error::Error for OutputError {}

/// A file-system-safe folder name for a seed: lowercase ASCII letters and
/// digits joined by `-` (at most 48), plus a short hash of the whole seed
/// so that seeds differing only in punctuation or case never share a
/// folder.
pub fn slug(seed: &str) -> String {
    let mut out = String::new();
    for c in seed.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
        if out.len() >= 48 {
            break;
        }
    }
    let base = out.trim_matches('-');
    let mut h = SipHasher::new();
    h.write(seed.as_bytes());
    let tag = format!("{:08x}", h.finish() as u32);
    if base.is_empty() {
        format!("seed-{tag}")
    } else {
        format!("{base}-{}", &tag[..4])
    }
}

/// Whether anything — a file, a folder, or a link, even one pointing
/// nowhere — already has this name.
fn occupied(p: &Path) -> bool {
    p.symlink_metadata().is_ok()
}

/// Tries at a fresh temporary name before giving up.
const TEMP_TRIES: u32 = 32;

/// Write `bytes` to a new temporary file beside `name` in `dir` and return
/// its path. The file is created new (`O_EXCL`): a name already taken — by
/// a leftover, or by a link planted to point outside the folder — is never
/// opened or followed; the next name is tried instead.
fn write_temp(dir: &Path, name: &str, bytes: &[u8]) -> std::io::Result<PathBuf> {
    for attempt in 0..TEMP_TRIES {
        let temp = dir.join(format!(".{name}.{}-{attempt}.part", std::process::id()));
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp);
        let mut file = match file {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        };
        if let Err(e) = file.write_all(bytes).and_then(|()| file.sync_all()) {
            let _ = std::fs::remove_file(&temp);
            return Err(e);
        }
        return Ok(temp);
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::AlreadyExists,
        format!("{TEMP_TRIES} temporary names beside `{name}` are all taken"),
    ))
}

/// Write `files` (name → bytes) into `dir`, all or nothing.
pub fn write_set(
    dir: &Path,
    files: &[(String, Vec<u8>)],
    force: bool,
) -> Result<Vec<PathBuf>, OutputError> {
    if dir.exists() && !dir.is_dir() {
        return Err(OutputError::NotAFolder(dir.to_owned()));
    }
    // Every name is ours (no separators), but check anyway.
    debug_assert!(
        files
            .iter()
            .all(|(n, _)| !n.contains(['/', '\\']) && !n.starts_with('.'))
    );
    let targets: Vec<PathBuf> = files.iter().map(|(n, _)| dir.join(n)).collect();
    if let Some(folder) = targets.iter().find(|p| p.is_dir()) {
        return Err(OutputError::NotAFile(folder.clone()));
    }
    if !force {
        let existing: Vec<PathBuf> = targets.iter().filter(|p| occupied(p)).cloned().collect();
        if !existing.is_empty() {
            return Err(OutputError::Exists(existing));
        }
    }
    // Folders this call creates, deepest first, so a failure leaves none
    // of them behind.
    let created: Vec<PathBuf> = dir
        .ancestors()
        .take_while(|a| !a.as_os_str().is_empty() && !a.exists())
        .map(Path::to_path_buf)
        .collect();
    let undo = |temps: &[PathBuf]| {
        for t in temps {
            let _ = std::fs::remove_file(t);
        }
        for folder in &created {
            let _ = std::fs::remove_dir(folder);
        }
    };
    if let Err(e) = std::fs::create_dir_all(dir) {
        undo(&[]);
        return Err(OutputError::CannotCreate(dir.to_owned(), e));
    }
    let mut temps: Vec<PathBuf> = Vec::with_capacity(files.len());
    for (name, bytes) in files {
        let result = write_temp(dir, name, bytes);
        if let Ok(temp) = &result {
            temps.push(temp.clone());
        }
        if let Err(e) = result {
            undo(&temps);
            return Err(OutputError::Write(dir.join(name), e));
        }
    }
    for (temp, target) in temps.iter().zip(&targets) {
        if let Err(e) = std::fs::rename(temp, target) {
            undo(&temps);
            return Err(OutputError::Write(target.clone(), e));
        }
    }
    Ok(targets)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_safe_and_distinct() {
        assert!(slug("Goblin Night!").starts_with("goblin-night-"));
        assert_ne!(slug("goblin night"), slug("goblin-night"));
        assert!(slug("../../etc/passwd").starts_with("etc-passwd-"));
        assert!(slug("ʂʂʂ").starts_with("seed-"));
        let long = slug(&"a".repeat(200));
        assert!(long.len() <= 48 + 5);
        for s in ["x/y", "a\\b", "..", "CON", "a b"] {
            let out = slug(s);
            assert!(
                out.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{out}"
            );
        }
    }

    #[test]
    fn all_or_nothing_and_no_clobber() {
        let dir = std::env::temp_dir().join(format!("tw-output-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let files = vec![
            ("a.md".to_owned(), b"one".to_vec()),
            ("b.md".to_owned(), b"two".to_vec()),
        ];
        write_set(&dir, &files, false).unwrap();
        assert_eq!(std::fs::read(dir.join("a.md")).unwrap(), b"one");
        let again = vec![
            ("c.md".to_owned(), b"new".to_vec()),
            ("b.md".to_owned(), b"2".to_vec()),
        ];
        let err = write_set(&dir, &again, false).unwrap_err();
        assert!(matches!(err, OutputError::Exists(ref f) if f.len() == 1));
        assert!(!dir.join("c.md").exists(), "nothing written when refused");
        write_set(&dir, &again, true).unwrap();
        assert_eq!(std::fs::read(dir.join("b.md")).unwrap(), b"2");
        let leftovers: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".part"))
            .collect();
        assert!(leftovers.is_empty());
        let file = dir.join("a.md");
        assert!(matches!(
            write_set(&file, &files, true),
            Err(OutputError::NotAFolder(_))
        ));
        // A handout name taken by a folder is refused, even with --force,
        // before anything is written.
        std::fs::create_dir(dir.join("d.md")).unwrap();
        let with_folder = vec![
            ("e.md".to_owned(), b"e".to_vec()),
            ("d.md".to_owned(), b"d".to_vec()),
        ];
        let err = write_set(&dir, &with_folder, true).unwrap_err();
        assert!(matches!(err, OutputError::NotAFile(_)), "{err}");
        assert!(!dir.join("e.md").exists());
        // A folder that cannot be made leaves no folders behind.
        let deep = dir.join("a.md").join("x").join("y");
        assert!(matches!(
            write_set(&deep, &files, false),
            Err(OutputError::CannotCreate(..))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A link planted at the temporary name never redirects a write out of
    /// the folder, and a link (even a dangling one) at a handout's name
    /// counts as an existing file.
    #[cfg(unix)]
    #[test]
    fn planted_links_are_never_followed() {
        use std::os::unix::fs::symlink;
        let base = std::env::temp_dir().join(format!("tw-links-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let dir = base.join("out");
        std::fs::create_dir_all(&dir).unwrap();
        let victim = base.join("victim.txt");
        std::fs::write(&victim, b"precious").unwrap();
        let planted = dir.join(format!(".a.md.{}-0.part", std::process::id()));
        symlink(&victim, &planted).unwrap();
        let files = vec![("a.md".to_owned(), b"handout".to_vec())];
        write_set(&dir, &files, false).unwrap();
        assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
        let a = dir.join("a.md");
        assert!(a.symlink_metadata().unwrap().file_type().is_file());
        assert_eq!(std::fs::read(&a).unwrap(), b"handout");
        // A dangling link named like a handout is not silently replaced.
        symlink(base.join("nowhere"), dir.join("b.md")).unwrap();
        let b = vec![("b.md".to_owned(), b"b".to_vec())];
        assert!(matches!(
            write_set(&dir, &b, false),
            Err(OutputError::Exists(_))
        ));
        // With --force the link itself is replaced, inside the folder.
        write_set(&dir, &b, true).unwrap();
        assert!(!base.join("nowhere").exists());
        assert_eq!(std::fs::read(dir.join("b.md")).unwrap(), b"b");
        std::fs::remove_dir_all(&base).unwrap();
    }
}
