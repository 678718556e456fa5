//! Issue 32: memory a command holds, as the kernel counts it — the
//! child's peak resident set (`ru_maxrss` from `wait4`), not a timing.
//! A user's table file is loaded in memory within ten times its bytes.

use std::path::Path;
use std::process::Command;

use crate::common::TempDir;

#[path = "../shared/many_rows.rs"]
mod shared;
use shared::many_rows;

/// Run the binary in `dir` with `args`; its exit code, its standard error
/// and its peak resident set in bytes.
/// Spawned straight from this test process, a child's peak resident set
/// (`ru_maxrss`) starts at the *parent's* high-water mark: Linux carries
/// the old address space's peak across `exec`, and `posix_spawn` shares
/// this process's. With the whole suite running here that was 116 MB
/// before the child allocated a byte. So a small Python process forks a
/// fresh child, which execs the binary, and reports that child's own
/// `wait4` figures (`code peak_kib`).
const MEASURE: &str = r#"
import os, sys
pid = os.fork()
if pid == 0:
    err = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    out = os.open(os.devnull, os.O_WRONLY)
    os.dup2(out, 1)
    os.dup2(err, 2)
    os.execv(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)
"#;

#[cfg(unix)]
fn peak(dir: &Path, args: &[&str]) -> (i32, String, u64) {
    let err = dir.join("stderr.txt");
    let out = Command::new("python3")
        .arg("-c")
        .arg(MEASURE)
        .arg(&err)
        .arg(env!("CARGO_BIN_EXE_tablewright"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("python3 runs (it measures the child's own peak)");
    let said = String::from_utf8_lossy(&out.stdout);
    let mut words = said.split_whitespace();
    let code: i32 = words
        .next()
        .and_then(|w| w.parse().ok())
        .unwrap_or_else(|| {
            panic!(
                "the measuring python3 said {said:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
    let kib: u64 = words
        .next()
        .and_then(|w| w.parse().ok())
        .expect("a peak in KiB");
    let stderr = std::fs::read_to_string(err).unwrap_or_default();
    (code, stderr, kib * 1024)
}

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
