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

/// A folder with a session file of its own (no campaign): `init`'s party,
/// tables and templates beside `tests/fixtures/living/session.toml` (the
/// session file `init` wrote before campaigns), so findings about a
/// session file and its pack are checked as a GM without a campaign
/// meets them.
fn session_folder(name: &str) -> PathBuf {
    let dir = campaign(name);
    std::fs::remove_file(dir.join("campaign.toml")).unwrap();
    std::fs::remove_dir_all(dir.join("sessions")).unwrap();
    let session = std::fs::read(crate::common::fixture("living/session.toml")).unwrap();
    std::fs::write(dir.join("session.toml"), session).unwrap();
    dir
}

/// The session (or campaign) file of `dir` with its `key = …` line
/// replaced by `line`.
fn set_key(dir: &Path, key: &str, line: &str) {
    // A session folder's own file, else the campaign's.
    let session = dir.join("session.toml");
    let path = if session.is_file() {
        session
    } else {
        dir.join("campaign.toml")
    };
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
    let o = run_within(&dir, &["validate", "--content", "c"], 180)
        .expect("validate with 100,000 problems finishes (a hang guard, not a budget: the quadratic code took minutes)");
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

/// What the pack in `pack` (OUT/<name>/) is made from, changed (a
/// comment added to its session file, or its campaign's plan), so that a
/// run has the pack's own files to replace.
fn hand_edit(pack: &Path) {
    let dir = pack.parent().unwrap().parent().unwrap();
    let session = dir.join("session.toml");
    let path = if session.is_file() {
        session
    } else {
        dir.join("sessions/1/plan.toml")
    };
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("\n# my note\n");
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
        std::fs::read_to_string(pack.join("bundle.toml"))
            .unwrap()
            .contains("# my note")
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
    // Every `--to` writes inside its folder (the interop tests), so only a
    // folder still to be made needs its parent writable.
    let o = command
        .args(["templates", "--to", "sub/new"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("cannot create the folder sub/new:"), "{err}");
    assert!(err.contains("make the folder it goes in writable"), "{err}");
    // The folder that is there, writable in the read-only parent, takes
    // the templates.
    let o = unprivileged(&dir)
        .unwrap()
        .args(["templates", "--to", "sub/pages"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(dir.join("sub/pages").read_dir().unwrap().count() > 1);
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

/// Append `note` to the pack file `name`.
fn note_on(pack: &Path, name: &str, note: &str) {
    let path = pack.join(name);
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str(note);
    std::fs::write(path, text).unwrap();
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn finding_1_reroll_after_a_party_change_keeps_the_pack_in_step() {
    let dir = session_folder("living-1-party");
    ok_in(&dir, &["prep"]);
    let pack = pack_folder(&dir);
    let before = read(&pack.join("encounter-1.md"));
    // Brannoc is hit harder and hits softer: every fight's odds move.
    let party = read(&dir.join("party.toml"))
        .replace("FRAME = 4", "FRAME = 2")
        .replace("dm = 3", "dm = 1");
    std::fs::write(dir.join("party.toml"), party).unwrap();
    let said = ok_in(&dir, &["prep", "--reroll", "npc/1"]);
    assert!(said.contains("rerolled npc/1 (reroll 1"), "{said}");
    assert!(
        said.contains("rewritten too: ")
            && said.contains("encounter-1.md")
            && said.contains("the party file (party.toml) changed since the pack was made"),
        "{said}"
    );
    assert_ne!(read(&pack.join("encounter-1.md")), before);
    let ok = ok_in(&dir, &["verify", pack.to_str().unwrap()]);
    assert!(ok.starts_with("ok: all"), "{ok}");
}

#[test]
fn finding_2_two_rerolls_at_once_both_counted() {
    let dir = session_folder("living-2-same");
    ok_in(&dir, &["prep"]);
    let spawn = |a: &str| {
        tablewright()
            .args(["prep", "--reroll", a])
            .current_dir(&dir)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (spawn("encounter/1"), spawn("encounter/1"));
    for child in [a, b] {
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let session = read(&dir.join("session.toml"));
    assert!(session.contains("\"encounter/1\" = 2"), "{session}");
    let pack = pack_folder(&dir);
    ok_in(&dir, &["verify", pack.to_str().unwrap()]);
    // Two different items at once: both recorded, the pack in step.
    let (a, b) = (spawn("encounter/1"), spawn("npc/2"));
    for child in [a, b] {
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let session = read(&dir.join("session.toml"));
    assert!(
        session.contains("\"encounter/1\" = 3") && session.contains("\"npc/2\" = 1"),
        "{session}"
    );
    ok_in(&dir, &["verify", pack.to_str().unwrap()]);
}

#[cfg(unix)]
#[test]
fn finding_2_a_reroll_waits_for_the_session_lock_and_says_so() {
    use std::os::fd::AsRawFd;
    let dir = session_folder("living-2-wait");
    ok_in(&dir, &["prep"]);
    let folder = std::fs::File::open(&dir).unwrap();
    // SAFETY: flock on a descriptor we own for the whole test.
    assert_eq!(unsafe { libc::flock(folder.as_raw_fd(), libc::LOCK_EX) }, 0);
    let child = tablewright()
        .args(["prep", "--reroll", "npc/1"])
        .current_dir(&dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    // Still waiting: nothing recorded yet.
    assert!(!read(&dir.join("session.toml")).contains("[rerolls]"));
    drop(folder);
    let o = child.wait_with_output().unwrap();
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("waiting: another tablewright run is using session.toml or its pack"),
        "{err}"
    );
}

#[test]
fn finding_3_plain_prep_after_a_rerolls_edit_keeps_a_note() {
    let dir = session_folder("living-3-note");
    ok_in(&dir, &["prep"]);
    let pack = pack_folder(&dir);
    note_on(
        &pack,
        "encounter-2.md",
        "\nGM: the leader flees at half health\n",
    );
    let session = read(&dir.join("session.toml")) + "\n[rerolls]\n\"npc/1\" = 1\n";
    std::fs::write(dir.join("session.toml"), session).unwrap();
    let npc = read(&pack.join("npc-1.md"));
    let o = run_in(&dir, &["prep"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("bringing it in step"), "{}", stderr(&o));
    assert!(
        read(&pack.join("encounter-2.md")).contains("GM: the leader flees"),
        "the note on a sheet the reroll does not change is kept"
    );
    assert_ne!(
        read(&pack.join("npc-1.md")),
        npc,
        "the rerolled NPC is written"
    );
}

#[test]
fn finding_3_reroll_refuses_a_sheet_the_gm_wrote_on() {
    let dir = session_folder("living-3-refuse");
    ok_in(&dir, &["prep"]);
    let pack = pack_folder(&dir);
    note_on(&pack, "npc-1.md", "\nGM: she lies about the well\n");
    let session = read(&dir.join("session.toml"));
    let err = fails_in(&dir, &["prep", "--reroll", "npc/1"]);
    assert!(
        err.contains("not as the pack wrote them") && err.contains("npc-1.md"),
        "{err}"
    );
    assert!(err.contains("--force"), "{err}");
    assert_eq!(read(&dir.join("session.toml")), session, "nothing recorded");
    assert!(read(&pack.join("npc-1.md")).contains("GM: she lies"));
    // With --force the sheet is kept and the rerolled one written beside
    // it; verify says whose is whose.
    ok_in(&dir, &["prep", "--reroll", "npc/1", "--force"]);
    assert!(read(&pack.join("npc-1.md")).contains("GM: she lies"));
    assert!(!read(&pack.join("npc-1.new.md")).contains("GM: she lies"));
    let verified = ok_in(&dir, &["verify", pack.to_str().unwrap()]);
    assert!(
        verified.contains("(npc-1.md is yours, the pack's is npc-1.new.md)"),
        "{verified}"
    );
}

#[test]
fn finding_3_force_never_deletes_what_the_gm_wrote() {
    let dir = session_folder("living-3-force");
    ok_in(&dir, &["prep"]);
    let pack = pack_folder(&dir);
    note_on(&pack, "npc-3.md", "\nGM: recurring villain\n");
    std::fs::write(pack.join("notes.md"), "my own notes\n").unwrap();
    set_key(&dir, "npcs", "npcs = 2");
    let o = run_in(&dir, &["prep", "--force"]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    // The pack has no npc-3 now, but the GM wrote on it: kept, and said.
    assert!(read(&pack.join("npc-3.md")).contains("GM: recurring villain"));
    assert!(
        err.contains("note: kept npc-3.md") && err.contains("edited by hand"),
        "{err}"
    );
    assert_eq!(read(&pack.join("notes.md")), "my own notes\n");
    assert!(!pack.join("trap-2.md").exists());
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a NUL-terminated path that outlives the call.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

#[cfg(unix)]
#[test]
fn finding_7_verify_never_hangs_on_a_pipe_or_dev_zero() {
    use std::os::unix::fs::symlink;
    let dir = campaign("living-7-hang");
    ok_in(&dir, &["prep"]);
    let pack = pack_folder(&dir);
    std::fs::remove_file(pack.join("encounter-1.md")).unwrap();
    mkfifo(&pack.join("encounter-1.md"));
    std::fs::remove_file(pack.join("npc-1.md")).unwrap();
    symlink("/dev/zero", pack.join("npc-1.md")).unwrap();
    symlink("/dev/zero", pack.join("zero.pdf")).unwrap();
    mkfifo(&pack.join("pipe.pdf"));
    let o = run_within(&dir, &["verify", pack.to_str().unwrap()], 20)
        .expect("verify finishes: no pipe waited on, no endless file read");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("encounter-1.md is not a regular file"),
        "{err}"
    );
    assert!(
        err.contains("npc-1.md is a link, not the pack's file"),
        "{err}"
    );
    assert!(
        err.contains("zero.pdf is a link that is not part of the pack"),
        "{err}"
    );
    assert!(err.contains("pipe.pdf is not part of the pack"), "{err}");
}

#[cfg(unix)]
#[test]
fn finding_7_verify_names_links_folders_and_an_edited_manifest() {
    let dir = campaign("living-7-names");
    ok_in(&dir, &["prep"]);
    let pack = pack_folder(&dir);
    // A file swapped for a link to an identical copy.
    let copy = dir.join("npc-2-copy.md");
    std::fs::copy(pack.join("npc-2.md"), &copy).unwrap();
    std::fs::remove_file(pack.join("npc-2.md")).unwrap();
    std::os::unix::fs::symlink(&copy, pack.join("npc-2.md")).unwrap();
    // A planted folder.
    std::fs::create_dir(pack.join("planted")).unwrap();
    std::fs::write(pack.join("planted/x.md"), "x").unwrap();
    let err = fails_in(&dir, &["verify", pack.to_str().unwrap()]);
    assert!(
        err.contains("npc-2.md is a link, not the pack's file"),
        "{err}"
    );
    assert!(
        err.contains("planted is a folder that is not part of the pack"),
        "{err}"
    );
    assert!(!err.contains(".tablewright-manifest"), "{err}");
    // Put right, then the manifest edited to claim a GM's file.
    std::fs::remove_file(pack.join("npc-2.md")).unwrap();
    std::fs::copy(&copy, pack.join("npc-2.md")).unwrap();
    std::fs::remove_dir_all(pack.join("planted")).unwrap();
    ok_in(&dir, &["verify", pack.to_str().unwrap()]);
    let manifest = pack.join(".tablewright-manifest");
    let mut text = read(&manifest);
    text.push_str("notes.md\n");
    std::fs::write(&manifest, text).unwrap();
    let err = fails_in(&dir, &["verify", pack.to_str().unwrap()]);
    assert!(
        err.contains(".tablewright-manifest does not list the pack's files as the pack wrote them"),
        "{err}"
    );
}

#[test]
fn finding_7_an_edited_manifest_cannot_widen_what_force_removes() {
    let dir = campaign("living-7-widen");
    ok_in(&dir, &["prep"]);
    let pack = pack_folder(&dir);
    // The GM's own file, and a manifest that claims it with its very hash
    // (as if the one who edited it knew the file).
    std::fs::write(pack.join("house-rules.md"), "shared rules\n").unwrap();
    let manifest = pack.join(".tablewright-manifest");
    let claim = if read(&manifest).starts_with("tablewright pack manifest 2") {
        // SHA-256 of "shared rules\n".
        "3ea9e4da64ebc07876f9bf33383e6b7cde86d2a7f6b475b9525f803618524069 house-rules.md\n"
            .to_owned()
    } else {
        "house-rules.md\n".to_owned()
    };
    std::fs::write(&manifest, read(&manifest) + &claim).unwrap();
    hand_edit(&pack);
    ok_in(&dir, &["prep", "--force"]);
    assert_eq!(read(&pack.join("house-rules.md")), "shared rules\n");
}

#[test]
fn finding_13_tables_run_dry_named_at_the_session_line() {
    let dir = session_folder("living-13-dry");
    // The campaign's own region has 9 situations: 20 encounters there must
    // repeat one (the built-in NPC tables no longer run dry at 20).
    set_key(&dir, "encounters", "encounters = 20");
    let line = read(&dir.join("session.toml"))
        .lines()
        .position(|l| l == "encounters = 20")
        .unwrap()
        + 1;
    let err = fails_in(&dir, &["prep"]);
    assert!(
        err.contains(&format!("session.toml:{line}:14: encounter/"))
            && err.contains("its tables have run dry"),
        "{err}"
    );
    assert!(err.contains("    encounters = 20\n"), "{err}");
}

/// A table file whose rows say, as words, what Foundry reads as markup.
fn markup_words(dir: &Path) {
    std::fs::create_dir_all(dir.join("c")).unwrap();
    std::fs::write(
        dir.join("c/words.toml"),
        "[[table]]\nid = \"x.words\"\ntitle = \"Words\"\nsystem = \"any\"\nsource = \"ours\"\n\n\
         [[table.row]]\nweight = 1\nname = \"a\"\n\
         text = \"See [[Wiki]], @UUID[Actor.abc]{{Bob}} and [[/r 1d4]] as written\"\n\n\
         [[table.row]]\nweight = 1\nname = \"b\"\ntext = \"plain {1d6} here\"\n",
    )
    .unwrap();
}

#[test]
fn finding_13_foundry_round_trip_keeps_markup_words() {
    let dir = temp_dir("living-13-foundry");
    markup_words(&dir);
    ok_in(&dir, &["validate", "--content", "c"]);
    let args = ["export", "x.words", "--content", "c", "--format", "foundry"];
    ok_in(&dir, &[&args[..], &["--to", "fx"]].concat());
    ok_in(&dir, &["import", "fx/x.words.json", "--to", "imp"]);
    let toml = read(&dir.join("imp/x-words.toml"));
    assert!(
        toml.contains("text = \"See [[Wiki]], @UUID[Actor.abc]{{Bob}} and [[/r 1d4]] as written\""),
        "{toml}"
    );
    assert!(toml.contains("text = \"plain {1d6} here\""), "{toml}");
    // A result edited in Foundry is read as Foundry shows it.
    let mut doc: serde_json::Value =
        serde_json::from_str(&read(&dir.join("fx/x.words.json"))).unwrap();
    for key in ["description", "text"] {
        doc["results"][0][key] = "An omen <b>rewritten</b> in Foundry".into();
    }
    std::fs::write(dir.join("fx/x.words.json"), doc.to_string()).unwrap();
    ok_in(&dir, &["import", "fx/x.words.json", "--to", "imp2"]);
    let toml = read(&dir.join("imp2/x-words.toml"));
    assert!(
        toml.contains("text = \"An omen rewritten in Foundry\"") && !toml.contains("[[Wiki]]"),
        "{toml}"
    );
}

#[test]
fn finding_13_a_bom_does_not_hide_a_markdown_heading() {
    let dir = temp_dir("living-13-bom");
    std::fs::write(
        dir.join("omens.md"),
        "\u{feff}# Omens of the salt\n\n| d4 | Omen |\n|---|---|\n| 1 | a |\n| 2 | b |\n| 3 | c |\n| 4 | d |\n",
    )
    .unwrap();
    ok_in(&dir, &["import", "omens.md", "--to", "imp"]);
    let toml = read(&dir.join("imp/omens.toml"));
    assert!(toml.contains("title = \"Omens of the salt\""), "{toml}");
}

#[test]
fn finding_13_import_problems_point_at_the_input_line() {
    let dir = temp_dir("living-13-lines");
    std::fs::write(
        dir.join("over.md"),
        "# Omens\n\n| d4 | Omen |\n|---|---|\n| 1 | a |\n| 2 | b |\n| 3 | c |\n| 4 | d |\n| 5 | e |\n",
    )
    .unwrap();
    let err = fails_in(&dir, &["import", "over.md", "--to", "imp"]);
    assert!(err.contains("over.md:9:"), "{err}");
    assert!(err.contains("| 5 | e |"), "{err}");
    assert!(!err.contains(".toml"), "{err}");
    // A Foundry document: the line of the result's text.
    markup_words(&dir);
    let args = ["export", "x.words", "--content", "c", "--format", "foundry"];
    ok_in(&dir, &[&args[..], &["--to", "fx"]].concat());
    let json =
        read(&dir.join("fx/x.words.json")).replace("plain [[/r 1d6]] here", "plain {Bob} here");
    let line = json
        .lines()
        .position(|l| l.contains("\"text\": \"plain {Bob} here\""))
        .unwrap()
        + 1;
    std::fs::write(dir.join("bad.json"), json).unwrap();
    let err = fails_in(&dir, &["import", "bad.json", "--to", "imp"]);
    assert!(err.contains(&format!("bad.json:{line}:")), "{err}");
    assert!(!err.contains(".toml"), "{err}");
}
