//! The manifest in a pack folder (`.tablewright-manifest`): each file the
//! pack put there, one a line after a header line, with the SHA-256 of the
//! bytes written — `<64 hex digits> <name>` — so that a later run replaces
//! or removes exactly the previous pack's files *as it wrote them* and
//! leaves alone the GM's own files and every file the GM edited. A name
//! that could not be ours (a separator, a leading dot) is ignored when
//! read, so an edited manifest can never make publication touch anything
//! but the pack folder's own entries, and a file is only ever taken for
//! ours when its bytes hash to what the manifest says. A pack file may sit
//! one folder down (`homebrewery/pack.md`, a Markdown flavour's folder):
//! `folder/name`, both parts plain names. Manifests of format 1 (names
//! alone, before this one) are read as names without a hash: listed, but
//! never provably unchanged.

use std::collections::BTreeMap;

use sha2::Digest;

/// The manifest's file name inside a pack folder.
pub(crate) const MANIFEST: &str = ".tablewright-manifest";

const HEADER: &str = "tablewright pack manifest 2";
const HEADER_1: &str = "tablewright pack manifest 1";

/// The files a manifest lists: name → the SHA-256 (hex) of the bytes
/// written (`None`: listed by a manifest of format 1, bytes unknown).
pub(crate) type Listed = BTreeMap<String, Option<String>>;

/// Whether `name` may be a file of a pack: one plain, visible name.
pub(super) fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 255
        && !name.starts_with('.')
        && !name.contains(['/', '\\', '\0'])
        && !name.chars().any(char::is_control)
}

/// Whether `path` may be a file of a pack: a plain name, or one folder
/// down (`homebrewery/pack.md`).
pub(super) fn valid_path(path: &str) -> bool {
    match path.split_once('/') {
        Some((folder, name)) => valid_name(folder) && valid_name(name),
        None => valid_name(path),
    }
}

/// The SHA-256 of `bytes`, as 64 lowercase hex digits.
pub(crate) fn digest(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(64);
    for b in sha2::Sha256::digest(bytes).iter() {
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// The manifest text for these files (sorted, one a line; a file of
/// unknown bytes has `-` for its hash).
pub(super) fn text(listed: &Listed) -> String {
    let mut out = format!("{HEADER}\n");
    for (name, hash) in listed {
        out.push_str(hash.as_deref().unwrap_or("-"));
        out.push(' ');
        out.push_str(name);
        out.push('\n');
    }
    out
}

/// The manifest a set of files makes (what a pack folder holding exactly
/// them, as written, has).
pub(super) fn of_files(files: &[(String, Vec<u8>)]) -> String {
    text(
        &files
            .iter()
            .map(|(n, b)| (n.clone(), Some(digest(b))))
            .collect(),
    )
}

/// The files a manifest lists (none for a text that is not a manifest).
pub(super) fn listed(text: &str) -> Listed {
    let mut lines = text.lines();
    match lines.next() {
        Some(HEADER) => lines
            .filter_map(|l| l.split_once(' '))
            .filter(|(h, n)| valid_path(n) && (*h == "-" || is_hash(h)))
            .map(|(h, n)| (n.to_owned(), (h != "-").then(|| h.to_owned())))
            .collect(),
        Some(HEADER_1) => lines
            .filter(|l| valid_path(l))
            .map(|l| (l.to_owned(), None))
            .collect(),
        _ => Listed::new(),
    }
}

fn is_hash(h: &str) -> bool {
    h.len() == 64 && h.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifests_round_trip_and_ignore_foreign_names() {
        let h = digest(b"x");
        let set: Listed = [("pack.md", Some(h.clone())), ("a.svg", None)]
            .map(|(n, h)| (n.to_owned(), h))
            .into();
        assert_eq!(listed(&text(&set)), set);
        let edited = format!(
            "{HEADER}\n{h} pack.md\n{h} ../etc/passwd\n{h} .hidden\n{h} x/y/z\n{h} /x\n{h} x/.y\n\
             {h} x/y\nzz x/w\n\n"
        );
        assert_eq!(
            listed(&edited),
            [("pack.md", Some(h.clone())), ("x/y", Some(h.clone()))]
                .map(|(n, h)| (n.to_owned(), h))
                .into()
        );
        let old = format!("{HEADER_1}\npack.md\n../x\n");
        assert_eq!(listed(&old), [("pack.md".to_owned(), None)].into());
        for bad in ["x/y/z", "/x", "x/", "../x", "x/..", "x\\y/z"] {
            assert!(!valid_path(bad), "{bad:?}");
        }
        assert!(listed("not a manifest\npack.md\n").is_empty());
        for bad in ["", ".", "..", ".x", "a/b", "a\\b", "a\u{1b}b"] {
            assert!(!valid_name(bad), "{bad:?}");
        }
        assert_eq!(
            digest(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
