//! The manifest in a pack folder (`.tablewright-manifest`): the names of
//! the files the pack put there, one a line after a header line, so that a
//! later `--force` replaces exactly the previous pack's files and leaves
//! the GM's own files alone. A name that could not be ours (a separator, a
//! leading dot) is ignored when read, so an edited manifest can never make
//! publication touch anything but the pack folder's own entries. A pack
//! file may sit one folder down (`homebrewery/pack.md`, a Markdown
//! flavour's folder): `folder/name`, both parts plain names.

use std::collections::BTreeSet;

/// The manifest's file name inside a pack folder.
pub const MANIFEST: &str = ".tablewright-manifest";

const HEADER: &str = "tablewright pack manifest 1";

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

/// The manifest text for these names (sorted, one a line).
pub(super) fn text(names: &BTreeSet<String>) -> String {
    let mut out = format!("{HEADER}\n");
    for n in names {
        out.push_str(n);
        out.push('\n');
    }
    out
}

/// The names a manifest lists (none for a text that is not a manifest).
pub(super) fn names(text: &str) -> BTreeSet<String> {
    let mut lines = text.lines();
    if lines.next() != Some(HEADER) {
        return BTreeSet::new();
    }
    lines.filter(|l| valid_path(l)).map(str::to_owned).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manifests_round_trip_and_ignore_foreign_names() {
        let set: BTreeSet<String> = ["pack.md", "a.svg"].map(String::from).into();
        assert_eq!(names(&text(&set)), set);
        let edited = format!("{HEADER}\npack.md\n../etc/passwd\n.hidden\nx/y/z\n/x\nx/.y\nx/y\n\n");
        assert_eq!(
            names(&edited),
            ["pack.md".to_owned(), "x/y".to_owned()].into()
        );
        for bad in ["x/y/z", "/x", "x/", "../x", "x/..", "x\\y/z"] {
            assert!(!valid_path(bad), "{bad:?}");
        }
        assert!(names("not a manifest\npack.md\n").is_empty());
        for bad in ["", ".", "..", ".x", "a/b", "a\\b", "a\u{1b}b"] {
            assert!(!valid_name(bad), "{bad:?}");
        }
    }
}
