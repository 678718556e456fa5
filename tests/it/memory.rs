//! Issue 32: memory a command holds, as the kernel counts it — the
//! child's peak resident set (`ru_maxrss` from `wait4`), not a timing.
//! A user's table file is loaded in memory within ten times its bytes.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::common::TempDir;

#[path = "../shared/many_rows.rs"]
mod shared;
use shared::many_rows;

/// Run the binary in `dir` with `args`; its exit code, its standard error
/// and its peak resident set in bytes.
#[cfg(unix)]
fn peak(dir: &Path, args: &[&str]) -> (i32, String, u64) {
    let err = dir.join("stderr.txt");
    // Reaped below by `wait4`, which also gives its resource use.
    #[allow(clippy::zombie_processes)]
    let child = Command::new(env!("CARGO_BIN_EXE_tablewright"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&err).expect("a file for stderr"))
        .spawn()
        .expect("the binary runs");
    let pid = libc::pid_t::try_from(child.id()).expect("a pid");
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value of the plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our own child, not yet waited for; the pointers are
    // to live locals.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(reaped, pid, "wait4 reaps the child");
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    let kib = u64::try_from(usage.ru_maxrss).expect("a size");
    let stderr = std::fs::read_to_string(err).unwrap_or_default();
    (code, stderr, kib * 1024)
}

/// The peak sees the load (the file itself is read into memory) and stays
/// under ten times the file's bytes.
fn within_ten_times(peak: u64, bytes: u64) {
    assert!(peak > bytes, "peak {peak} B under the file's {bytes} B");
    assert!(
        peak < 10 * bytes,
        "peak {} MB for a {} MB file: more than ten times",
        peak >> 20,
        bytes >> 20
    );
}

/// A fresh folder holding `text` as `content/rows.toml`, and its size.
fn folder_with(label: &str, text: &str) -> (TempDir, u64) {
    let dir = TempDir::new(label);
    std::fs::create_dir_all(dir.path().join("content")).expect("a content folder");
    std::fs::write(dir.path().join("content/rows.toml"), text).expect("the table file");
    (dir, text.len() as u64)
}

#[cfg(unix)]
#[test]
fn a_100000_row_table_is_rolled_in_under_ten_times_its_bytes() {
    let (dir, bytes) = folder_with("memory-rows", &many_rows(100_000));
    let (code, stderr, peak) = peak(
        dir.path(),
        &["--content", "content", "table", "bench.rows", "--seed", "s"],
    );
    assert_eq!(code, 0, "{stderr}");
    within_ten_times(peak, bytes);
}

#[cfg(unix)]
#[test]
fn a_100000_row_table_with_a_typo_is_refused_in_under_ten_times_its_bytes() {
    let mut text = many_rows(100_000);
    // Row 60,000's weight written as a word: the file is refused.
    let at = text.find("name = \"Row 60000\"").expect("row 60000");
    let weight = text[..at].rfind("weight = ").expect("its weight");
    text.replace_range(weight..weight + "weight = 1".len(), "weight = one");
    let (dir, bytes) = folder_with("memory-typo", &text);
    let (code, stderr, peak) = peak(
        dir.path(),
        &["--content", "content", "table", "bench.rows", "--seed", "s"],
    );
    assert_ne!(code, 0, "the typo is refused");
    let line = text[..weight].lines().count() + 1;
    assert!(
        stderr.contains(&format!("rows.toml:{line}:")),
        "the refusal names the line ({line}):\n{stderr}"
    );
    within_ten_times(peak, bytes);
}
