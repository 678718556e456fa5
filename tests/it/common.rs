//! Helpers every module shares, written once: run the binary (in this
//! folder or another), read its output, expect success or an error, find
//! fixtures and goldens, make temp folders.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The binary under test, with backtraces left to the default.
fn tablewright() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tablewright"));
    command.env_remove("RUST_BACKTRACE");
    command
}

pub fn run(args: &[&str]) -> Output {
    tablewright().args(args).output().expect("the binary runs")
}

/// Run with `dir` as the working folder.
pub fn run_in<S: AsRef<OsStr>>(dir: &Path, args: &[S]) -> Output {
    tablewright()
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 stdout")
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("UTF-8 stderr")
}

/// Run, expect success, return stdout.
pub fn ok(args: &[&str]) -> String {
    let o = run(args);
    assert!(o.status.success(), "{args:?} failed: {}", stderr(&o));
    stdout(&o)
}

/// Run with `--json` output already in `args`, expect success, parse stdout.
pub fn ok_json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(args)).unwrap()
}

/// Run, expect exit code 1 (bad input), return stderr.
pub fn fails(args: &[&str]) -> String {
    fails_with(args, 1)
}

/// Run, expect exit code 2 (a usage mistake), return stderr.
pub fn misused(args: &[&str]) -> String {
    fails_with(args, 2)
}

fn fails_with(args: &[&str], code: i32) -> String {
    let o = run(args);
    assert_eq!(o.status.code(), Some(code), "{args:?}: {}", stderr(&o));
    assert!(
        o.stdout.is_empty(),
        "{args:?} printed results despite the error"
    );
    stderr(&o)
}

/// A file or folder under tests/fixtures.
pub fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The sample session at the repository root.
pub fn sample_session() -> String {
    format!("{}/session.toml", env!("CARGO_MANIFEST_DIR"))
}

/// A fresh, empty folder for one test. Every test in this binary shares
/// one process id, so each name may be used once only.
pub fn temp_dir(name: &str) -> PathBuf {
    static USED: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut used = USED.lock().unwrap_or_else(|e| e.into_inner());
    assert!(
        !used.iter().any(|u| u == name),
        "two tests share the temp folder `{name}`"
    );
    used.push(name.to_string());
    let dir = std::env::temp_dir().join(format!("tablewright-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The one entry in `dir` (the pack folder `prep --out dir` made).
pub fn only_entry(dir: &Path) -> PathBuf {
    std::fs::read_dir(dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path()
}

/// Compare `text` with the golden file `path`; with `UPDATE_GOLDEN` set,
/// write it first. `what` names the item in the failure message.
pub fn assert_golden(path: &str, text: &str, what: &str) {
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(Path::new(path).parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let golden = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert_eq!(text, golden, "{what} changed");
}
