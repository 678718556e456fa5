//! Where a pack's new version of a file goes when the file at its name is
//! the GM's (edited by hand, or never the pack's) and `--force` asked for
//! the new pack anyway: beside it, at `NAME.new.EXT` (`npc-1.new.md`,
//! `homebrewery/npc-1.new.md`, then `npc-1.new-2.md`… when that name is
//! the GM's too). No name a pack makes holds `.new`, so a beside name is
//! always told from the pack's own ([`base`]).

/// How many beside names are tried before giving up.
pub(super) const TRIES: usize = 100;

/// The `i`-th beside name of the pack file `name` (0: `npc-1.new.md`,
/// 1: `npc-1.new-2.md`, …).
pub(super) fn name(name: &str, i: usize) -> String {
    let (folder, file) = match name.rsplit_once('/') {
        Some((f, n)) => (format!("{f}/"), n),
        None => (String::new(), name),
    };
    let tag = match i {
        0 => "new".to_owned(),
        _ => format!("new-{}", i + 1),
    };
    match file.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => format!("{folder}{stem}.{tag}.{ext}"),
        _ => format!("{folder}{file}.{tag}"),
    }
}

/// The pack file a beside name stands beside (`npc-1.new.md` →
/// `npc-1.md`), or `None` for a name that is no beside name.
pub(super) fn base(name: &str) -> Option<String> {
    let (folder, file) = match name.rsplit_once('/') {
        Some((f, n)) => (format!("{f}/"), n),
        None => (String::new(), name),
    };
    let parts: Vec<&str> = file.split('.').collect();
    // `stem.new.ext` or `stem.new` (`new` or `new-N`).
    let at = parts.iter().rposition(|p| is_tag(p))?;
    if at == 0 || at + 2 < parts.len() {
        return None;
    }
    let mut kept: Vec<&str> = parts[..at].to_vec();
    kept.extend(&parts[at + 1..]);
    Some(format!("{folder}{}", kept.join(".")))
}

/// `new`, or `new-N` with N of 2 or more.
fn is_tag(part: &str) -> bool {
    match part.strip_prefix("new") {
        Some("") => true,
        Some(rest) => rest
            .strip_prefix('-')
            .and_then(|n| n.parse::<usize>().ok())
            .is_some_and(|n| n >= 2),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn beside_names_go_and_come_back() {
        for (pack, first, second) in [
            ("npc-1.md", "npc-1.new.md", "npc-1.new-2.md"),
            (
                "homebrewery/npc-1.md",
                "homebrewery/npc-1.new.md",
                "homebrewery/npc-1.new-2.md",
            ),
            ("bundle.toml", "bundle.new.toml", "bundle.new-2.toml"),
            ("README", "README.new", "README.new-2"),
        ] {
            assert_eq!(name(pack, 0), first);
            assert_eq!(name(pack, 1), second);
            assert_eq!(base(first).as_deref(), Some(pack));
            assert_eq!(base(second).as_deref(), Some(pack));
        }
        for plain in [
            "npc-1.md",
            "pack-new-seed-0123.md",
            "new.md",
            "a.new-1.md",
            "a.new.b.c",
        ] {
            assert_eq!(base(plain), None, "{plain}");
        }
    }
}
