//! Unit tests of publication: all or nothing, the manifest, links.

use super::*;

fn set(files: &[(&str, &str)]) -> Vec<(String, Vec<u8>)> {
    files
        .iter()
        .map(|(n, b)| ((*n).to_owned(), b.as_bytes().to_vec()))
        .collect()
}

/// A fresh folder for one test, holding OUT.
fn base(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tw-output-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The names in a folder, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    out.sort();
    out
}

#[test]
fn slugs_are_safe_and_distinct() {
    assert!(slug("Goblin Night!").starts_with("goblin-night-"));
    assert_ne!(slug("goblin night"), slug("goblin-night"));
    assert!(slug("../../etc/passwd").starts_with("etc-passwd-"));
    assert!(slug("ʂʂʂ").starts_with("seed-"));
    let long = slug(&"a".repeat(200));
    assert!(long.len() <= 48 + 17);
    for s in ["x/y", "a\\b", "..", "CON", "a b"] {
        let out = slug(s);
        assert!(
            out.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            "{out}"
        );
    }
    // The tag carries 64 bits: two seeds that shared a 16-bit tag differ.
    let (a, b) = (slug("goblin - night!!"), slug("GOBLIN=nIGHT..."));
    assert_ne!(a, b);
    let tag = a.rsplit('-').next().unwrap();
    assert_eq!(tag.len(), 16, "{a}");
}

#[test]
fn a_pack_is_published_whole_with_its_manifest() {
    let out = base("whole").join("out");
    let dir = out.join("pack");
    let files = set(&[("a.md", "one"), ("b.md", "two")]);
    let done = publish(&dir, &files, Scope::Whole, false).unwrap();
    assert!(done.changed);
    assert_eq!(done.files, vec![dir.join("a.md"), dir.join("b.md")]);
    assert_eq!(names(&dir), [MANIFEST, "a.md", "b.md"]);
    let listed = std::fs::read_to_string(dir.join(MANIFEST)).unwrap();
    // Each file with the SHA-256 of its bytes.
    assert!(
        listed.ends_with(&format!(
            "{} a.md\n{} b.md\n",
            digest(b"one"),
            digest(b"two")
        )),
        "{listed}"
    );
    // No staging folder is left in OUT.
    assert_eq!(names(&out), ["pack"]);
    // The same bytes again need no --force and write nothing.
    let again = publish(&dir, &files, Scope::Whole, false).unwrap();
    assert!(!again.changed);
    std::fs::remove_dir_all(out.parent().unwrap()).unwrap();
}

#[test]
fn different_bytes_need_force_and_force_leaves_no_stale_files() {
    let out = base("force").join("out");
    let dir = out.join("pack");
    let five = set(&[
        ("p.md", "5"),
        ("e-1.md", "1"),
        ("e-2.md", "2"),
        ("e-3.md", "3"),
    ]);
    publish(&dir, &five, Scope::Whole, false).unwrap();
    std::fs::write(dir.join("notes.txt"), "the GM's own").unwrap();
    let two = set(&[("p.md", "2"), ("e-1.md", "1")]);
    let err = publish(&dir, &two, Scope::Whole, false).unwrap_err();
    assert!(
        matches!(&err, OutputError::Exists(f) if f == &[dir.join("p.md")]),
        "{err}"
    );
    assert_eq!(
        std::fs::read(dir.join("p.md")).unwrap(),
        b"5",
        "refused: untouched"
    );
    let done = publish(&dir, &two, Scope::Whole, true).unwrap();
    assert_eq!(done.removed, ["e-2.md", "e-3.md"]);
    assert_eq!(names(&dir), [MANIFEST, "e-1.md", "notes.txt", "p.md"]);
    assert_eq!(
        std::fs::read(dir.join("notes.txt")).unwrap(),
        b"the GM's own"
    );
    // A part of a pack keeps every other file, with or without --force.
    let part = set(&[("e-9.md", "9"), ("p.md", "again")]);
    publish(&dir, &part, Scope::Part, true).unwrap();
    assert_eq!(
        names(&dir),
        [MANIFEST, "e-1.md", "e-9.md", "notes.txt", "p.md"]
    );
    let listed = manifest::listed(&std::fs::read_to_string(dir.join(MANIFEST)).unwrap());
    let names_listed: Vec<&str> = listed.keys().map(String::as_str).collect();
    assert_eq!(names_listed, ["e-1.md", "e-9.md", "p.md"]);
    assert_eq!(listed["p.md"], Some(digest(b"again")));
    // Without --force, a new file beside an old pack is simply added.
    publish(&dir, &set(&[("pack-letter.pdf", "L")]), Scope::Whole, false).unwrap();
    assert!(dir.join("p.md").exists() && dir.join("pack-letter.pdf").exists());
    std::fs::remove_dir_all(out.parent().unwrap()).unwrap();
}

#[test]
fn refusals_write_nothing_and_leave_no_folders() {
    let root = base("refusals");
    let out = root.join("out");
    let dir = out.join("pack");
    let files = set(&[("a.md", "one")]);
    publish(&dir, &files, Scope::Whole, false).unwrap();
    // OUT is a file.
    let file = dir.join("a.md");
    assert!(matches!(
        publish(&file.join("x"), &files, Scope::Whole, true),
        Err(OutputError::NotAFolder(_))
    ));
    // The pack folder is a file.
    assert!(matches!(
        publish(&file, &files, Scope::Whole, true),
        Err(OutputError::NotAFolder(_))
    ));
    // A handout's name taken by a folder, even with --force.
    std::fs::create_dir(dir.join("d.md")).unwrap();
    let err = publish(
        &dir,
        &set(&[("e.md", "e"), ("d.md", "d")]),
        Scope::Whole,
        true,
    );
    assert!(matches!(err, Err(OutputError::NotAFile(_))), "{err:?}");
    assert!(!dir.join("e.md").exists());
    // A folder in the pack folder that is not the pack's.
    let err = publish(&dir, &set(&[("e.md", "e")]), Scope::Whole, true);
    assert!(matches!(err, Err(OutputError::Foreign(_))), "{err:?}");
    std::fs::remove_dir(dir.join("d.md")).unwrap();
    // A folder that cannot be made leaves no folders behind.
    let deep = file.join("x").join("y").join("z");
    assert!(matches!(
        publish(&deep, &files, Scope::Whole, false),
        Err(OutputError::NotAFolder(_) | OutputError::CannotCreate(..))
    ));
    assert_eq!(names(&dir), [MANIFEST, "a.md"]);
    // Names that could leave the folder are refused.
    for bad in ["../x", ".hidden", "a/b/c", "a/.b", "/a", ""] {
        assert!(matches!(
            publish(&dir, &set(&[(bad, "x")]), Scope::Whole, true),
            Err(OutputError::Name(_))
        ));
    }
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn stale_staging_folders_and_old_temporaries_are_removed() {
    let root = base("stale");
    let out = root.join("out");
    let dir = out.join("pack");
    publish(&dir, &set(&[("a.md", "1")]), Scope::Whole, false).unwrap();
    std::fs::create_dir_all(out.join(".tw-stage-0123456789abcdef/x")).unwrap();
    std::fs::write(dir.join(".a.md.4242-0.part"), "half").unwrap();
    publish(&dir, &set(&[("a.md", "2")]), Scope::Whole, true).unwrap();
    assert_eq!(names(&out), ["pack"]);
    assert_eq!(names(&dir), [MANIFEST, "a.md"]);
    std::fs::remove_dir_all(&root).unwrap();
}

/// No write ever goes through a link: not at a file's name, not at the
/// pack folder's, not at a temporary name.
#[cfg(unix)]
#[test]
fn links_are_never_followed() {
    use std::os::unix::fs::symlink;
    let root = base("links");
    let out = root.join("out");
    let dir = out.join("pack");
    let victim = root.join("victim.txt");
    std::fs::write(&victim, b"precious").unwrap();
    std::fs::create_dir_all(&dir).unwrap();
    // A link at a handout's name (even a dangling one) is a conflict…
    symlink(&victim, dir.join("a.md")).unwrap();
    symlink(root.join("nowhere"), dir.join("b.md")).unwrap();
    let files = set(&[("a.md", "handout"), ("b.md", "b")]);
    let err = publish(&dir, &files, Scope::Whole, false).unwrap_err();
    assert!(
        matches!(&err, OutputError::Exists(f) if f.len() == 2),
        "{err}"
    );
    // …and with --force the link itself is replaced, inside the folder.
    publish(&dir, &files, Scope::Whole, true).unwrap();
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
    assert!(!root.join("nowhere").exists());
    for n in ["a.md", "b.md"] {
        assert!(dir.join(n).symlink_metadata().unwrap().is_file(), "{n}");
    }
    // A link the GM keeps in the folder stays a link, pointing where it did.
    symlink(&victim, dir.join("mine.txt")).unwrap();
    publish(&dir, &set(&[("a.md", "v2")]), Scope::Whole, true).unwrap();
    assert_eq!(std::fs::read_link(dir.join("mine.txt")).unwrap(), victim);
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
    // A pack folder that is a link is refused, with or without --force.
    let elsewhere = root.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let linked = out.join("linked");
    symlink(&elsewhere, &linked).unwrap();
    for force in [false, true] {
        let err = publish(&linked, &files, Scope::Whole, force).unwrap_err();
        assert!(matches!(err, OutputError::Link(_)), "{err}");
    }
    assert!(names(&elsewhere).is_empty());
    std::fs::remove_dir_all(&root).unwrap();
}

#[cfg(unix)]
#[test]
fn one_file_is_replaced_in_one_step_never_through_a_link() {
    let root = base("file");
    let path = root.join("session.toml");
    std::fs::write(&path, "old").unwrap();
    write_file(&path, b"new").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"new");
    assert_eq!(names(&root), ["session.toml"]);
    let victim = root.join("victim");
    std::fs::write(&victim, "precious").unwrap();
    let link = root.join("link.toml");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    assert!(matches!(write_file(&link, b"x"), Err(OutputError::Link(_))));
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
    std::fs::remove_dir_all(&root).unwrap();
}

/// Issue 39: exactly our temporary names are ours (`.NAME.tw-<16 hex>.tmp`),
/// and a run holding the lock removes them whatever their age — files only.
#[test]
fn our_temporaries_are_known_by_their_exact_name() {
    for ours in [
        ".session.toml.tw-0123456789abcdef.tmp",
        ".a.tw-FFFFFFFFFFFFFFFF.tmp",
    ] {
        assert!(is_temporary(ours, None), "{ours}");
    }
    assert!(is_temporary(
        ".a.toml.tw-0123456789abcdef.tmp",
        Some("a.toml")
    ));
    assert!(!is_temporary(
        ".a.toml.tw-0123456789abcdef.tmp",
        Some("b.toml")
    ));
    for theirs in [
        "session.toml.tw-0123456789abcdef.tmp",
        ".tw-0123456789abcdef.tmp",
        "..tw-0123456789abcdef.tmp",
        ".s.tw-0123456789abcde.tmp",
        ".s.tw-0123456789abcdef0.tmp",
        ".s.tw-0123456789abcdeg.tmp",
        ".s.tw-0123456789abcdef.tmp~",
        ".s.tw-0123456789abcdef",
    ] {
        assert!(!is_temporary(theirs, None), "{theirs}");
    }
    let root = base("temporaries");
    std::fs::write(root.join(".s.toml.tw-0123456789abcdef.tmp"), "x").unwrap();
    std::fs::write(root.join("s.toml"), "kept").unwrap();
    std::fs::create_dir(root.join(".d.tw-0123456789abcdef.tmp")).unwrap();
    // A fresh one is left by a writer that holds no lock…
    remove_stale_temporaries(&root, "s.toml");
    assert!(root.join(".s.toml.tw-0123456789abcdef.tmp").exists());
    // …and removed by one that does.
    assert_eq!(remove_temporaries(&root), 1);
    assert_eq!(names(&root), [".d.tw-0123456789abcdef.tmp", "s.toml"]);
    std::fs::remove_dir_all(&root).unwrap();
}

/// What the GM wrote in a pack folder is never overwritten: `Ours`
/// replaces the pack's own files, leaves an edited file whose pack bytes
/// did not change and refuses (naming it alone) one whose bytes did;
/// `Beside` keeps it and writes the new bytes beside it, listed as the
/// pack's, and a later run leaves both; once the GM's copy is gone the
/// pack's goes back to its name and the beside file is removed.
#[test]
fn the_gms_edits_are_left_refused_or_kept_beside() {
    let out = base("beside").join("out");
    let dir = out.join("pack");
    let read = |n: &str| std::fs::read_to_string(dir.join(n)).unwrap();
    publish(
        &dir,
        &set(&[("p.md", "1"), ("n.md", "npc"), ("e.md", "e")]),
        Scope::Whole,
        false,
    )
    .unwrap();
    std::fs::write(dir.join("e.md"), "e + the GM's note").unwrap();
    // The pack's p.md changes; the GM's e.md has the same pack bytes.
    let next = set(&[("p.md", "2"), ("n.md", "npc"), ("e.md", "e")]);
    let done = publish_as(&dir, &next, Scope::Whole, Replace::Ours).unwrap();
    assert_eq!(done.left, ["e.md"]);
    assert_eq!(
        (read("p.md"), read("e.md")),
        ("2".into(), "e + the GM's note".into())
    );
    // Now n.md is the GM's and its pack bytes change: refused, by name.
    std::fs::write(dir.join("n.md"), "npc + note").unwrap();
    let changed = set(&[("p.md", "3"), ("n.md", "veteran"), ("e.md", "e")]);
    let err = publish_as(&dir, &changed, Scope::Whole, Replace::Ours).unwrap_err();
    assert!(
        matches!(&err, OutputError::Edited(f) if f == &[dir.join("n.md")]),
        "{err}"
    );
    assert_eq!(read("p.md"), "2", "refused: untouched");
    let done = publish_as(&dir, &changed, Scope::Whole, Replace::Beside).unwrap();
    assert_eq!(done.beside, [("n.md".to_owned(), "n.new.md".to_owned())]);
    assert_eq!(
        (read("n.md"), read("n.new.md")),
        ("npc + note".into(), "veteran".into())
    );
    assert_eq!(read("p.md"), "3");
    let listed = manifest::listed(&read(MANIFEST));
    assert_eq!(listed.get("n.new.md"), Some(&Some(digest(b"veteran"))));
    assert!(!listed.contains_key("n.md"));
    // Again, plainly: nothing to do, both kept.
    let again = publish_as(&dir, &changed, Scope::Whole, Replace::Ours).unwrap();
    assert!(!again.changed);
    // The GM's copy gone: the pack's back at its name, no beside file.
    std::fs::remove_file(dir.join("n.md")).unwrap();
    // Only the pack's names are removable: n.new.md goes as n.md's.
    let removable = |n: &str| ["p.md", "n.md", "e.md"].contains(&n);
    publish_pack(&dir, &changed, Scope::Whole, Replace::Ours, &removable).unwrap();
    assert_eq!(read("n.md"), "veteran");
    assert!(!dir.join("n.new.md").exists());
    std::fs::remove_dir_all(out.parent().unwrap()).unwrap();
}
