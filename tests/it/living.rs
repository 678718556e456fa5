//! Issue 28, living in a pack folder: what a GM does by hand over weeks
//! (edits, rerolls, links, shared folders, permissions) and what a file
//! a stranger wrote may do. One test per finding, named after it.

use std::path::{Path, PathBuf};

use std::ffi::OsStr;
use std::process::{Command, Output};

use crate::common::{stderr, stdout, temp_dir};

/// The binary under test; `TW_BIN` runs these tests against another build
/// (such as a release of the previous version, to see each one fail).
fn tablewright() -> Command {
    let bin =
        std::env::var_os("TW_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_tablewright").into());
    let mut command = Command::new(bin);
    command.env_remove("RUST_BACKTRACE");
    command
}

/// Run with `dir` as the working folder.
fn run_in<S: AsRef<OsStr>>(dir: &Path, args: &[S]) -> Output {
    tablewright()
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

/// A campaign folder made by `init` in a fresh temp folder.
fn campaign(name: &str) -> PathBuf {
    let dir = temp_dir(name).join("camp");
    let o = run_in(Path::new("/"), &["init", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    dir
}

/// The campaign file of `dir` with its `key = …` line replaced by `line`.
fn set_key(dir: &Path, key: &str, line: &str) {
    let path = dir.join("campaign.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let edited: Vec<String> = text
        .lines()
        .map(|l| {
            if l.starts_with(&format!("{key} =")) {
                line.to_owned()
            } else {
                l.to_owned()
            }
        })
        .collect();
    std::fs::write(&path, edited.join("\n") + "\n").unwrap();
}

/// Run in `dir`, expect exit code 1, return stderr.
fn fails_in(dir: &Path, args: &[&str]) -> String {
    let o = run_in(dir, args);
    assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
    stderr(&o)
}

/// Run in `dir`, expect success, return stdout.
fn ok_in(dir: &Path, args: &[&str]) -> String {
    let o = run_in(dir, args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

#[test]
fn finding_5_secrets_not_echoed_from_proc() {
    let dir = campaign("living-5-proc");
    set_key(
        &dir,
        "party",
        "party = \"../../../../../../../../proc/self/environ\"",
    );
    let o = tablewright()
        .args(["prep"])
        .current_dir(&dir)
        .env("TW_SECRET_TOKEN", "hunter2-secret")
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(!err.contains("hunter2-secret"), "{err}");
    assert!(
        err.contains("proc/self/environ") && err.contains("not a text file"),
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn finding_5_linked_secret_line_not_shown() {
    let dir = campaign("living-5-link");
    let secret = dir.parent().unwrap().join("secret.txt");
    std::fs::write(&secret, "TOKEN: hunter2-secret\n").unwrap();
    std::fs::remove_file(dir.join("party.toml")).unwrap();
    std::os::unix::fs::symlink(&secret, dir.join("party.toml")).unwrap();
    let err = fails_in(&dir, &["prep"]);
    assert!(!err.contains("hunter2-secret"), "{err}");
    assert!(err.contains("party.toml:1:"), "{err}");
    // A bundle that is a link to a secret: the same.
    let err = fails_in(&dir, &["prep", "party.toml"]);
    assert!(!err.contains("hunter2-secret"), "{err}");
}

#[cfg(unix)]
#[test]
fn finding_6_init_never_writes_through_a_linked_folder() {
    let base = temp_dir("living-6-folder");
    let other = base.join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("README.md"), "the GM's own\n").unwrap();
    let dir = base.join("camp");
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(&other, dir.join("templates")).unwrap();
    for args in [&["init", "camp"][..], &["init", "--force", "camp"]] {
        let err = fails_in(&base, args);
        assert!(err.contains("camp/templates is a link"), "{err}");
        assert_eq!(
            std::fs::read_to_string(other.join("README.md")).unwrap(),
            "the GM's own\n"
        );
        assert_eq!(std::fs::read_dir(&other).unwrap().count(), 1);
        // Nothing was written anywhere.
        assert!(!dir.join("campaign.toml").exists(), "{args:?}");
    }
}

#[cfg(unix)]
#[test]
fn finding_6_init_force_refuses_a_link_before_writing() {
    let base = temp_dir("living-6-file");
    let dir = base.join("camp");
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(base.join("elsewhere.toml"), dir.join("party.toml")).unwrap();
    let err = fails_in(&base, &["init", "--force", "camp"]);
    assert!(err.contains("camp/party.toml is a link"), "{err}");
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(left, ["party.toml"], "all or nothing");
    assert!(!base.join("elsewhere.toml").exists());
}

/// Run `args` in `dir` with a deadline: the output, or `None` when it
/// had to be killed.
fn run_within(dir: &Path, args: &[&str], secs: u64) -> Option<Output> {
    let mut child = tablewright()
        .args(args)
        .current_dir(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while start.elapsed() < std::time::Duration::from_secs(secs) {
        if child.try_wait().unwrap().is_some() {
            return Some(child.wait_with_output().unwrap());
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

#[cfg(unix)]
#[test]
fn finding_8_fanned_out_links_read_once() {
    let dir = campaign("living-8-fan");
    let fan = dir.join("fan");
    for i in 0..=25 {
        std::fs::create_dir_all(fan.join(format!("l{i}"))).unwrap();
    }
    for i in 0..25 {
        for link in ["a", "b"] {
            let to = format!("../l{}", i + 1);
            std::os::unix::fs::symlink(to, fan.join(format!("l{i}/{link}"))).unwrap();
        }
    }
    for f in ["saltflats.toml", "archetypes.toml"] {
        std::fs::copy(dir.join("content").join(f), fan.join("l25").join(f)).unwrap();
    }
    let o = run_within(&dir, &["validate", "--content", "fan/l0"], 10)
        .expect("validate finishes well within 10 s");
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn finding_8_proc_as_content_refused_at_once() {
    let dir = campaign("living-8-proc");
    let o = run_within(&dir, &["validate", "--content", "/proc"], 10)
        .expect("validate --content /proc finishes well within 10 s");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("`/proc` is a folder of the system's proc file system"),
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn finding_8_a_pipe_named_toml_is_named_not_waited_on() {
    let dir = campaign("living-8-pipe");
    let fifo = dir.join("content/pipe.toml");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a NUL-terminated path that outlives the call.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let o = run_within(&dir, &["validate"], 10).expect("validate does not wait on a pipe");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("pipe.toml: it is not a regular file"), "{err}");
}

#[test]
fn finding_9_validate_100000_problems_linear_and_capped() {
    let dir = temp_dir("living-9-problems");
    let mut text = String::from(
        "[[table]]\nid = \"x.big\"\ntitle = \"Big\"\nsystem = \"any\"\nsource = \"ours\"\n\n",
    );
    for i in 0..100_000 {
        text.push_str(&format!(
            "[[table.row]]\nweight = 1\nname = \"r{i}\"\ntext = \"see {{table:nope.x{i}}}\"\n\n"
        ));
    }
    std::fs::create_dir_all(dir.join("c")).unwrap();
    std::fs::write(dir.join("c/big.toml"), text).unwrap();
    let o = run_within(&dir, &["validate", "--content", "c"], 40)
        .expect("validate with 100,000 problems finishes within 40 s");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(err.lines().count() < 1000, "{} lines", err.lines().count());
    assert!(
        err.contains("c/big.toml:10:14: [x.big] row `r0` refers to `{table:nope.x0}`"),
        "{}",
        &err[..500]
    );
    assert!(
        err.contains("more problem(s), not shown"),
        "{}",
        &err[err.len() - 500..]
    );
}

#[test]
fn finding_11_control_characters_refused_at_load() {
    let dir = campaign("living-11-tables");
    let path = dir.join("content/archetypes.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text.replacen(
        "text = \"A drowned",
        "text = \"\\u001b]0;pwned\\u0007A drowned",
        1,
    );
    std::fs::write(&path, text).unwrap();
    for args in [
        &["validate"][..],
        &["gen", "npc", "--content", "content", "--seed", "a"],
    ] {
        let o = run_in(&dir, args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert!(!o.stdout.contains(&0x1b), "{args:?}");
        let err = stderr(&o);
        assert!(!err.contains('\u{1b}'), "{args:?}");
        assert!(
            err.contains("content/archetypes.toml:10:9: `text` holds a control character (U+001B)"),
            "{args:?}: {err}"
        );
        assert!(err.contains("hint: remove it"), "{err}");
    }
}

#[test]
fn finding_11_control_characters_refused_on_import() {
    let dir = temp_dir("living-11-import");
    std::fs::write(
        dir.join("t.md"),
        "| d4 | Thing |\n|---|---|\n| 1 | a\u{1b}]0;pwned\u{7}b |\n| 2 | b\u{8} |\n| 3 | c |\n| 4 | d |\n",
    )
    .unwrap();
    let err = fails_in(&dir, &["import", "t.md", "--to", "imp"]);
    assert!(err.contains("holds a control character (U+001B)"), "{err}");
    assert!(!dir.join("imp").exists());
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::MetadataExt;
    std::fs::symlink_metadata(path).unwrap().mode() & 0o7777
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// The pack folder `prep` made under `dir/out`.
fn pack_folder(dir: &Path) -> PathBuf {
    crate::common::only_entry(&dir.join("out"))
}

/// A note the GM appended to the pack's `pack.md`, so that `--force`
/// has something to replace.
fn hand_edit(pack: &Path) {
    let path = pack.join("pack.md");
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("\nmy note\n");
    std::fs::write(path, text).unwrap();
}

/// Under root, permissions do not bind: run as `nobody` (65534) instead,
/// with `dir` and everything in it given to it. `None` when that cannot
/// be done here (no `setpriv`).
#[cfg(unix)]
fn unprivileged(dir: &Path) -> Option<Command> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return Some(tablewright());
    }
    let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"]
        .into_iter()
        .find(|p| Path::new(p).exists())?;
    let chown = Command::new("chown")
        .args(["-R", "65534:65534"])
        .arg(dir)
        .status()
        .ok()?;
    if !chown.success() {
        return None;
    }
    let bin =
        std::env::var_os("TW_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_tablewright").into());
    let mut command = Command::new(setpriv);
    command
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(bin)
        .env_remove("RUST_BACKTRACE");
    Some(command)
}

#[cfg(unix)]
#[test]
fn finding_10_pack_folder_mode_kept() {
    let dir = campaign("living-10-pack");
    ok_in(&dir, &["prep"]);
    let pack = pack_folder(&dir);
    set_mode(&pack, 0o700);
    set_mode(&pack.join("pack.md"), 0o600);
    hand_edit(&pack);
    ok_in(&dir, &["prep", "--force"]);
    assert_eq!(mode(&pack), 0o700);
    assert_eq!(mode(&pack.join("pack.md")), 0o600);
    assert!(
        !std::fs::read_to_string(pack.join("pack.md"))
            .unwrap()
            .contains("my note")
    );
}

#[cfg(unix)]
#[test]
fn finding_10_setgid_content_group_kept_on_import() {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return; // Only root may give a folder any group.
    }
    let dir = campaign("living-10-group");
    let content = dir.join("content");
    std::os::unix::fs::lchown(&content, None, Some(100)).unwrap();
    set_mode(&content, 0o2775);
    std::fs::write(
        dir.join("t.md"),
        "| d4 | Thing |\n|---|---|\n| 1 | a |\n| 2 | b |\n| 3 | c |\n| 4 | d |\n",
    )
    .unwrap();
    ok_in(&dir, &["import", "t.md", "--to", "content"]);
    let meta = std::fs::metadata(&content).unwrap();
    assert_eq!(meta.gid(), 100);
    assert_eq!(mode(&content), 0o2775);
    assert_eq!(
        std::fs::metadata(content.join("t.toml")).unwrap().gid(),
        100
    );
}

#[cfg(unix)]
#[test]
fn finding_10_session_file_mode_kept_on_reroll() {
    let dir = campaign("living-10-session");
    ok_in(&dir, &["prep"]);
    let plan = dir.join("sessions/1/plan.toml");
    set_mode(&plan, 0o600);
    ok_in(&dir, &["prep", "--reroll", "npc/1"]);
    assert!(
        std::fs::read_to_string(&plan)
            .unwrap()
            .contains("[rerolls]")
    );
    assert_eq!(mode(&plan), 0o600);
}

#[cfg(unix)]
#[test]
fn finding_12_read_only_pack_folder_leaves_no_stage() {
    let dir = campaign("living-12-readonly");
    ok_in(&dir, &["prep"]);
    let pack = pack_folder(&dir);
    hand_edit(&pack);
    let Some(mut command) = unprivileged(&dir) else {
        return;
    };
    set_mode(&pack, 0o555);
    let o = command
        .args(["prep", "--force"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let left: Vec<String> = std::fs::read_dir(dir.join("out"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left.len(), 1, "{left:?}");
    assert_eq!(mode(&pack), 0o555);
}

#[cfg(unix)]
#[test]
fn finding_12_unwritable_parent_is_explained() {
    let dir = temp_dir("living-12-parent");
    std::fs::create_dir_all(dir.join("sub/pages")).unwrap();
    let Some(mut command) = unprivileged(&dir) else {
        return;
    };
    set_mode(&dir.join("sub"), 0o555);
    let o = command
        .args(["manpage", "--to", "sub/pages"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("cannot write in sub:"), "{err}");
    assert!(err.contains("make sub writable"), "{err}");
}

#[test]
fn finding_12_stale_session_temporaries_removed() {
    let dir = campaign("living-12-temps");
    ok_in(&dir, &["prep"]);
    let stale = dir.join("sessions/1/.plan.toml.tw-0123456789abcdef.tmp");
    std::fs::write(&stale, "left by a killed run").unwrap();
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&stale)
        .unwrap()
        .set_modified(old)
        .unwrap();
    // A GM's file of a similar name is never touched.
    std::fs::write(dir.join("sessions/1/.plan.toml.tw-notes.tmp"), "mine").unwrap();
    ok_in(&dir, &["prep", "--reroll", "npc/1"]);
    assert!(!stale.exists());
    assert!(dir.join("sessions/1/.plan.toml.tw-notes.tmp").exists());
}

#[cfg(unix)]
#[test]
fn finding_12_waiting_for_the_lock_says_so() {
    use std::os::fd::AsRawFd;
    let dir = campaign("living-12-lock");
    ok_in(&dir, &["prep"]);
    hand_edit(&pack_folder(&dir));
    let out = std::fs::File::open(dir.join("out")).unwrap();
    // SAFETY: flock on a descriptor we own for the whole test.
    assert_eq!(unsafe { libc::flock(out.as_raw_fd(), libc::LOCK_EX) }, 0);
    let child = tablewright()
        .args(["prep", "--force"])
        .current_dir(&dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    drop(out);
    let o = child.wait_with_output().unwrap();
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("waiting: another tablewright run is writing in out"),
        "{err}"
    );
}
