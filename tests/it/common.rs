//! Helpers every module shares, written once: run the binary (in this
//! folder or another), read its output, expect success or an error, find
//! fixtures and goldens, make temp folders; [`Test`], a builder for one run
//! in a fresh folder of its own, and [`Run`], its checks; [`prep_in`], the
//! one way a test runs `prep`.

use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

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

/// A fresh, empty folder for one test, kept until the test removes it
/// (see [`TempDir`] for one removed on its own). Unique however often
/// `name` is used.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = TempDir::new(name);
    let path = dir.path().to_owned();
    std::mem::forget(dir);
    path
}

/// `prep SESSION --out OUT EXTRA…`: the arguments every pack test starts
/// from.
pub fn prep_args(
    session: impl AsRef<OsStr>,
    out: impl AsRef<OsStr>,
    extra: &[&str],
) -> Vec<OsString> {
    let mut args: Vec<OsString> = vec!["prep".into(), session.as_ref().into()];
    args.extend(["--out".into(), out.as_ref().into()]);
    args.extend(extra.iter().map(OsString::from));
    args
}

/// Run `prep SESSION --out OUT EXTRA…` in `dir` (relative paths are read
/// from there).
pub fn prep_in(
    dir: &Path,
    session: impl AsRef<OsStr>,
    out: impl AsRef<OsStr>,
    extra: &[&str],
) -> Run {
    let args = prep_args(session, out, extra);
    let output = run_in(dir, &args);
    Run { args, output }
}

/// Prep the sample session into `out` with extra arguments, expect
/// success; the pack folder.
pub fn sample_pack(out: &Path, extra: &[&str]) -> PathBuf {
    prep_in(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        "session.toml",
        out,
        extra,
    )
    .succeeds();
    only_entry(out)
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

/// A fresh folder for one test under Cargo's target tmp dir, named after
/// the test (the thread's name) and a counter, so two tests, or one test
/// twice, never share it. Removed when dropped, unless the test failed:
/// a failing test's folder stays for a look.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(label: &str) -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let thread = std::thread::current();
        let test = thread.name().unwrap_or("test");
        let name: String = format!("{test}-{label}")
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join("it")
            .join(format!("{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            make_writable(&self.0);
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// Give back write permission a test took away, so the folder can go.
fn make_writable(dir: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.symlink_metadata().is_ok_and(|m| m.is_dir()) {
                let _ = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755));
                make_writable(&path);
            }
        }
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// `tablewright ARGS…` run in a fresh folder of its own.
pub fn cli<const N: usize>(args: [&str; N]) -> Run {
    Test::new().args(args).run()
}

/// One run of the binary, set up as a builder (after `just`'s `Test`):
/// its own temp folder (the working folder unless [`Test::current_dir`]
/// says another one inside it), files written into it, arguments, stdin
/// and environment; [`Test::run`] runs it and returns a [`Run`] to check.
///
/// ```ignore
/// let t = Test::new()
///     .file("session.toml", "party = \"3,4\"\nencountres = 1\n")
///     .args(["prep", "session.toml"]);
/// t.run().fails(1).no_stdout().stderr_has("session.toml:2:1");
/// assert!(!t.path().join("out").exists());
/// ```
pub struct Test {
    dir: TempDir,
    args: Vec<OsString>,
    current_dir: Option<PathBuf>,
    stdin: Option<Vec<u8>>,
    env: Vec<(OsString, Option<OsString>)>,
}

impl Default for Test {
    fn default() -> Self {
        Self::new()
    }
}

impl Test {
    /// A test in an empty folder of its own.
    pub fn new() -> Self {
        Self::named("run")
    }

    /// As [`Test::new`], with `label` in the folder's name.
    pub fn named(label: &str) -> Self {
        Test {
            dir: TempDir::new(label),
            args: Vec::new(),
            current_dir: None,
            stdin: None,
            env: Vec::new(),
        }
    }

    /// Write `contents` at `path` in the folder (making its parents).
    pub fn file(self, path: &str, contents: impl AsRef<[u8]>) -> Self {
        self.write(path, contents);
        self
    }

    /// Make an empty folder `path` in the folder.
    pub fn folder(self, path: &str) -> Self {
        std::fs::create_dir_all(self.path().join(path)).unwrap();
        self
    }

    /// Write `contents` at `path`, on a test already built.
    pub fn write(&self, path: &str, contents: impl AsRef<[u8]>) {
        let at = self.path().join(path);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        std::fs::write(&at, contents).unwrap();
    }

    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Self {
        self.args.push(arg.as_ref().to_owned());
        self
    }

    pub fn args<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(mut self, args: I) -> Self {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        self
    }

    /// Run in `dir`, a folder inside the test's folder.
    pub fn current_dir(mut self, dir: &str) -> Self {
        self.current_dir = Some(dir.into());
        self
    }

    pub fn stdin(mut self, bytes: impl AsRef<[u8]>) -> Self {
        self.stdin = Some(bytes.as_ref().to_vec());
        self
    }

    pub fn env(mut self, key: &str, value: impl AsRef<OsStr>) -> Self {
        self.env.push((key.into(), Some(value.as_ref().to_owned())));
        self
    }

    pub fn env_remove(mut self, key: &str) -> Self {
        self.env.push((key.into(), None));
        self
    }

    /// The test's folder.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// A file's text in the test's folder.
    pub fn read(&self, path: &str) -> String {
        let at = self.path().join(path);
        std::fs::read_to_string(&at).unwrap_or_else(|e| panic!("{}: {e}", at.display()))
    }

    /// Run the binary with the test's arguments.
    pub fn run(&self) -> Run {
        self.run_with(&self.args)
    }

    /// Run the binary with other arguments, in the same folder, stdin and
    /// environment (a command before the one under test, or after it).
    pub fn run_with<S: AsRef<OsStr>>(&self, args: &[S]) -> Run {
        let mut command = tablewright();
        command.args(args).current_dir(match &self.current_dir {
            Some(dir) => self.path().join(dir),
            None => self.path().to_owned(),
        });
        for (key, value) in &self.env {
            match value {
                Some(value) => command.env(key, value),
                None => command.env_remove(key),
            };
        }
        command.stdin(if self.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
        command.stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = command.spawn().expect("the binary runs");
        if let Some(bytes) = &self.stdin {
            let mut pipe = child.stdin.take().unwrap();
            // The binary may stop reading early; a broken pipe is its answer.
            let _ = pipe.write_all(bytes);
        }
        let output = child.wait_with_output().expect("the binary runs");
        Run {
            args: args.iter().map(|a| a.as_ref().to_owned()).collect(),
            output,
        }
    }
}

/// What one run did, with assertions that name the arguments, the exit
/// code and both streams when they fail. Each returns the run, to chain.
pub struct Run {
    pub args: Vec<OsString>,
    pub output: Output,
}

impl Run {
    pub fn stdout(&self) -> String {
        stdout(&self.output)
    }

    pub fn stderr(&self) -> String {
        stderr(&self.output)
    }

    pub fn code(&self) -> Option<i32> {
        self.output.status.code()
    }

    fn context(&self) -> String {
        format!(
            "{:?}: exit {:?}\n--- stderr ---\n{}\n--- stdout ---\n{}",
            self.args,
            self.code(),
            String::from_utf8_lossy(&self.output.stderr),
            String::from_utf8_lossy(&self.output.stdout)
        )
    }

    /// Exit code 0.
    #[track_caller]
    pub fn succeeds(self) -> Self {
        assert!(
            self.output.status.success(),
            "expected success: {}",
            self.context()
        );
        self
    }

    /// Exit code `code`, and no panic.
    #[track_caller]
    pub fn fails(self, code: i32) -> Self {
        assert_eq!(self.code(), Some(code), "{}", self.context());
        let err = self.stderr();
        assert!(
            !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
            "panicked: {}",
            self.context()
        );
        self
    }

    /// Exit code 2: a usage mistake.
    #[track_caller]
    pub fn usage(self) -> Self {
        self.fails(2)
    }

    #[track_caller]
    pub fn stderr_has(self, piece: &str) -> Self {
        assert!(
            self.stderr().contains(piece),
            "stderr lacks {piece:?}: {}",
            self.context()
        );
        self
    }

    #[track_caller]
    pub fn stdout_has(self, piece: &str) -> Self {
        assert!(
            self.stdout().contains(piece),
            "stdout lacks {piece:?}: {}",
            self.context()
        );
        self
    }

    /// Nothing on stdout: an error prints no results.
    #[track_caller]
    pub fn no_stdout(self) -> Self {
        assert!(
            self.output.stdout.is_empty(),
            "printed results despite the error: {}",
            self.context()
        );
        self
    }
}

#[test]
fn the_test_builder_runs_in_a_folder_of_its_own_set_up_as_asked() {
    let t = Test::new()
        .folder("campaign")
        .file(
            "campaign/tables/t.toml",
            "[[table]]\nid = \"fx.t\"\ntitle = \"T\"\nsystem = \"any\"\nsource = \"fixture\"\n\n\
             [[table.row]]\nweight = 1\nname = \"A\"\ntext = \"a\"\n",
        )
        .current_dir("campaign")
        .env("NO_COLOR", "1")
        .env_remove("TABLEWRIGHT_CRASH_TRIALS")
        .stdin("read by nobody")
        .arg("validate")
        .args(["--content", "tables"]);
    t.run().succeeds().stdout_has("ok: ");
    assert!(t.read("campaign/tables/t.toml").contains("fx.t"));
    let other = Test::new();
    assert_ne!(t.path(), other.path(), "two tests share a folder");
    let path = other.path().to_owned();
    drop(other);
    assert!(!path.exists(), "a passing test's folder is removed");
}
