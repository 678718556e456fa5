//! What `prep` promises about the pack folder (issue 19), through the real
//! binary: a kill at any instant leaves the previous pack or the new one
//! (the crash-safety harness), two preps at once leave one pack, no write
//! goes through a planted link, `--force` replaces exactly the previous
//! pack, identical bytes need no `--force`, and seeds that once shared a folder no longer do.
//!
//! The harness: `TABLEWRIGHT_CRASH_TRIALS` (default 24 per session, two
//! sessions) sets how many kills; run it by hand with more, e.g.
//! `TABLEWRIGHT_CRASH_TRIALS=300 cargo test --test it crash -- --nocapture`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{fixture, prep_args, prep_in, run_in, stderr, stdout, temp_dir};

/// Every entry of a pack folder: name → bytes (a link: its target).
type Pack = BTreeMap<String, Vec<u8>>;

fn pack_state(dir: &Path) -> Pack {
    let mut out = Pack::new();
    let Ok(list) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in list {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let meta = path.symlink_metadata().unwrap();
        let bytes = if meta.file_type().is_symlink() {
            format!("link -> {}", std::fs::read_link(&path).unwrap().display()).into_bytes()
        } else {
            std::fs::read(&path).unwrap()
        };
        out.insert(name, bytes);
    }
    out
}

/// A session in `dir` named `name`: the sample's party, `title`, and
/// `extra` lines.
fn session(dir: &Path, name: &str, title: &str, extra: &str) -> PathBuf {
    let party = fixture("party-mettle.toml");
    let text = format!(
        "title = \"{title}\"\nseed = \"crash-safety\"\nsystem = \"mettle\"\nterrain = \"swamp\"\n\
         party = \"{party}\"\n{extra}"
    );
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const SMALL: &str = "encounters = 2\ntraps = 1\nnpcs = 2\n";
const SMALLER: &str = "encounters = 1\nnpcs = 1\n";
const LARGE: &str = "encounters = 4\ntraps = 3\nnpcs = 8\nvouchers = [\"A\", \"B\", \"C\"]\n\n\
[map]\nstops = 16\njourney = true\n";
const LARGER: &str = "encounters = 3\ntraps = 2\nnpcs = 6\n\n[map]\nstops = 14\njourney = true\n";

fn prep_command(dir: &Path, session: &Path, extra: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tablewright"));
    c.current_dir(dir)
        .args(prep_args(session, "out", extra))
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    c
}

/// The pack folder of the harness's seed under `out`.
fn pack_dir(out: &Path) -> PathBuf {
    out.join(tablewright::slug("crash-safety"))
}

/// A reference pack made alone in its own OUT, and how long it took.
fn reference(dir: &Path, session: &Path) -> (Pack, Duration) {
    let _ = std::fs::remove_dir_all(dir.join("out"));
    std::fs::create_dir_all(dir).unwrap();
    let start = Instant::now();
    prep_in(dir, session, "out", &[]).succeeds();
    (pack_state(&pack_dir(&dir.join("out"))), start.elapsed())
}

/// Seeded instants (splitmix64): where each kill falls.
struct Schedule(u64);

impl Schedule {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// What the harness saw.
#[derive(Default, Debug)]
struct Tally {
    trials: usize,
    killed: usize,
    old: usize,
    new: usize,
}

/// Kill preps that replace pack `a` with pack `b` (and back) at seeded
/// instants; after every kill the folder must hold one of them, whole.
fn kill_trials(dir: &Path, a: &Path, b: &Path, trials: usize, seed: u64) -> Tally {
    let (pack_a, time_a) = reference(&dir.join("ref-a"), a);
    let (pack_b, time_b) = reference(&dir.join("ref-b"), b);
    assert_ne!(pack_a, pack_b);
    let live = dir.join("live");
    std::fs::create_dir_all(&live).unwrap();
    prep_in(&live, a, "out", &[]).succeeds();
    // How long a replacing run takes here and now (the machine may be
    // busy): the longest of a few, with the reference runs.
    let mut longest = time_a.max(time_b);
    for next in [b, a, b, a] {
        let start = Instant::now();
        prep_in(&live, next, "out", &["--force"]).succeeds();
        longest = longest.max(start.elapsed());
    }
    let longest = longest.as_secs_f64();
    let folder = pack_dir(&live.join("out"));
    let mut holds_a = true;
    let mut schedule = Schedule(seed);
    let mut tally = Tally::default();
    for trial in 0..trials {
        let (next, next_pack, old_pack) = if holds_a {
            (b, &pack_b, &pack_a)
        } else {
            (a, &pack_a, &pack_b)
        };
        // Half the instants anywhere in a run, half near its end, where
        // the pack is published.
        let u = schedule.next();
        let at = if trial % 2 == 0 {
            u * 1.2
        } else {
            0.6 + u * 0.6
        };
        let mut child: Child = prep_command(&live, next, &["--force"]).spawn().unwrap();
        std::thread::sleep(Duration::from_secs_f64(at * longest));
        if child.try_wait().unwrap().is_none() {
            tally.killed += 1;
        }
        let _ = child.kill();
        let _ = child.wait();
        tally.trials += 1;
        let state = pack_state(&folder);
        if &state == next_pack {
            tally.new += 1;
            holds_a = !holds_a;
        } else if &state == old_pack {
            tally.old += 1;
        } else {
            let names: Vec<&String> = state.keys().collect();
            panic!("trial {trial}: a kill at {at:.2} of a run left a mix: {names:?}");
        }
    }
    // A run to the end removes what killed runs left in OUT.
    let target = if holds_a { b } else { a };
    prep_in(&live, target, "out", &["--force"]).succeeds();
    let left: Vec<String> = std::fs::read_dir(live.join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left.len(), 1, "OUT holds more than the pack: {left:?}");
    tally
}

#[cfg(unix)]
#[test]
fn crash_safety_a_killed_prep_leaves_one_complete_pack() {
    let base = temp_dir("crash");
    let trials: usize = std::env::var("TABLEWRIGHT_CRASH_TRIALS")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(24);
    let small = (
        session(&base, "a.toml", "Crash A", SMALL),
        session(&base, "b.toml", "Crash B", SMALLER),
    );
    let large = (
        session(&base, "la.toml", "Crash large A", LARGE),
        session(&base, "lb.toml", "Crash large B", LARGER),
    );
    let s = kill_trials(&base.join("small"), &small.0, &small.1, trials, 19);
    let l = kill_trials(&base.join("large"), &large.0, &large.1, trials, 1919);
    eprintln!(
        "crash safety: small session {s:?}; large session {l:?}; every folder held one whole pack"
    );
    assert_eq!(s.old + s.new, s.trials);
    assert_eq!(l.old + l.new, l.trials);
    let _ = std::fs::remove_dir_all(&base);
}

/// Two preps into one OUT at once: the second waits for the first's lock,
/// then finds the first's pack; one pack is left, whole.
#[test]
fn two_preps_at_once_leave_one_whole_pack() {
    let base = temp_dir("two-preps");
    let a = session(&base, "a.toml", "Together A", SMALL);
    let b = session(&base, "b.toml", "Together B", SMALLER);
    let (pack_a, _) = reference(&base.join("ref-a"), &a);
    let (pack_b, _) = reference(&base.join("ref-b"), &b);
    for round in 0..6 {
        let dir = base.join(format!("round-{round}"));
        std::fs::create_dir_all(&dir).unwrap();
        let first = prep_command(&dir, &a, &[]).spawn().unwrap();
        let second = prep_command(&dir, &b, &[]).spawn().unwrap();
        let (fa, fb) = (
            first.wait_with_output().unwrap(),
            second.wait_with_output().unwrap(),
        );
        let state = pack_state(&pack_dir(&dir.join("out")));
        match (fa.status.success(), fb.status.success()) {
            (true, false) => assert_eq!(state, pack_a, "round {round}"),
            (false, true) => assert_eq!(state, pack_b, "round {round}"),
            both => panic!("round {round}: exit statuses {both:?}, expected one success"),
        }
        let loser = if fa.status.success() { &fb } else { &fa };
        assert!(
            stderr(loser).contains("refusing to overwrite"),
            "{}",
            stderr(loser)
        );
        // The same pack twice at once: both succeed, one pack.
        let one = prep_command(&dir, &a, &["--force"]).spawn().unwrap();
        let two = prep_command(&dir, &a, &["--force"]).spawn().unwrap();
        assert!(one.wait_with_output().unwrap().status.success());
        assert!(two.wait_with_output().unwrap().status.success());
        assert_eq!(pack_state(&pack_dir(&dir.join("out"))), pack_a);
    }
    let _ = std::fs::remove_dir_all(&base);
}

/// A link planted at the name of every file a pack writes: refused
/// without `--force`, replaced (the link, not its target) with it.
#[cfg(unix)]
#[test]
fn no_file_of_a_pack_is_written_through_a_link() {
    use std::os::unix::fs::symlink;
    let base = temp_dir("pack-links");
    let a = session(&base, "a.toml", "Links", LARGE);
    let (pack, _) = reference(&base.join("ref"), &a);
    let dir = base.join("live");
    let folder = pack_dir(&dir.join("out"));
    std::fs::create_dir_all(&folder).unwrap();
    let victims = base.join("victims");
    std::fs::create_dir_all(&victims).unwrap();
    for name in pack.keys() {
        std::fs::write(victims.join(name), "precious").unwrap();
        symlink(victims.join(name), folder.join(name)).unwrap();
    }
    prep_in(&dir, &a, "out", &[])
        .fails(1)
        .stderr_has("refusing to overwrite");
    prep_in(&dir, &a, "out", &["--force"]).succeeds();
    assert_eq!(pack_state(&folder), pack);
    for name in pack.keys() {
        assert_eq!(
            std::fs::read(victims.join(name)).unwrap(),
            b"precious",
            "{name}"
        );
    }
    let _ = std::fs::remove_dir_all(&base);
}

/// `--force` replaces exactly the previous pack: fewer items leave no
/// stale files, the GM's own file stays; the same bytes need no
/// `--force`; a letter pack's PDF is `pack-letter.pdf`, a letter item's
/// `encounter-1-letter.pdf`.
#[test]
fn force_replaces_exactly_the_previous_pack() {
    let base = temp_dir("force-exactly");
    let more = session(&base, "more.toml", "Exactly", "encounters = 3\nnpcs = 1\n");
    let fewer = session(&base, "fewer.toml", "Exactly", "encounters = 1\nnpcs = 1\n");
    prep_in(&base, &more, "out", &[]).succeeds();
    let folder = pack_dir(&base.join("out"));
    assert!(folder.join("encounter-3.md").exists());
    std::fs::write(folder.join("notes.txt"), "mine").unwrap();
    prep_in(&base, &fewer, "out", &[])
        .fails(1)
        .stderr_has("refusing to overwrite");
    prep_in(&base, &fewer, "out", &["--force"]).succeeds();
    let names: Vec<String> = pack_state(&folder).into_keys().collect();
    assert!(
        !names
            .iter()
            .any(|n| n.starts_with("encounter-2") || n.starts_with("encounter-3")),
        "stale files left: {names:?}"
    );
    assert!(names.contains(&"notes.txt".to_owned()));
    // The same again: no --force needed, nothing changes.
    let before = pack_state(&folder);
    prep_in(&base, &fewer, "out", &[]).succeeds();
    assert_eq!(pack_state(&folder), before);
    // On letter the PDF is pack-letter.pdf, and it sits beside the A4
    // one without --force: the paper is a print option, so every other
    // file (bundle.toml and the pack-wide files with its hash included)
    // is byte-identical. `verify` checks the PDF on both papers.
    prep_in(&base, &fewer, "out", &["--paper", "letter"]).succeeds();
    let state = pack_state(&folder);
    assert!(state.contains_key("pack.pdf") && state.contains_key("pack-letter.pdf"));
    for (name, bytes) in before.iter().filter(|(n, _)| !n.starts_with('.')) {
        assert_eq!(state.get(name), Some(bytes), "{name} changed");
    }
    // One-item PDFs likewise: `encounter-1-letter.pdf` beside
    // `encounter-1.pdf`, each on its paper, without --force.
    for paper in ["a4", "letter"] {
        prep_in(
            &base,
            &fewer,
            "out",
            &["--only", "encounter/1", "--paper", paper],
        )
        .succeeds();
    }
    for (name, size) in [
        ("encounter-1.pdf", "MediaBox[0 0 595.28 841.89]"),
        ("encounter-1-letter.pdf", "MediaBox[0 0 612 792]"),
    ] {
        let bytes = std::fs::read(folder.join(name)).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        assert!(text.contains(size), "{name} is not {size}");
    }
    // (verify names any file not of the pack: the GM's notes go first.)
    std::fs::remove_file(folder.join("notes.txt")).unwrap();
    let o = run_in(&base, &["verify", folder.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("ok: all"), "{}", stdout(&o));
    std::fs::write(folder.join("pack-letter.pdf"), b"not a pdf").unwrap();
    let o = run_in(&base, &["verify", folder.to_str().unwrap()]);
    assert!(!o.status.success() && stderr(&o).contains("pack-letter.pdf differs"));
    let _ = std::fs::remove_dir_all(&base);
}

/// Seeds whose 16-bit tags were equal (issue 19, finding 6) get folders
/// of their own.
#[test]
fn seeds_that_shared_a_folder_no_longer_do() {
    let base = temp_dir("slug-tags");
    let s = session(&base, "s.toml", "Tags", "npcs = 1\n");
    for seed in ["goblin - night!!", "GOBLIN=nIGHT..."] {
        let o = run_in(
            &base,
            &["prep", s.to_str().unwrap(), "--seed", seed, "--out", "out"],
        );
        assert!(o.status.success(), "{seed}: {}", stderr(&o));
    }
    assert_eq!(std::fs::read_dir(base.join("out")).unwrap().count(), 2);
    let _ = std::fs::remove_dir_all(&base);
}

/// What a write killed mid-way leaves (`.NAME.tw-<16 hex>.tmp`, issue 39:
/// a SIGKILL during the session file's write) is removed by the next run
/// that holds the folder's lock, however fresh it is — and nothing else:
/// a GM's file that only looks like ours stays. The same in a campaign,
/// where `prep` and `record` hold the campaign's lock.
#[test]
fn temporaries_a_killed_write_left_go_with_the_next_run() {
    let base = temp_dir("killed-temporaries");
    let session = session(&base, "session.toml", "Temporaries", SMALLER);
    let ours = [
        ".session.toml.tw-0123456789abcdef.tmp",
        ".plan.toml.tw-fedcba9876543210.tmp",
    ];
    // Not ours: a short or long tag, no dot in front, not hex, no suffix.
    let theirs = [
        ".session.toml.tw-0123.tmp",
        ".session.toml.tw-0123456789abcdef0.tmp",
        "session.toml.tw-0123456789abcdef.tmp",
        ".session.toml.tw-0123456789abcdeg.tmp",
        ".session.toml.tw-0123456789abcdef",
        ".tw-0123456789abcdef.tmp",
    ];
    for name in ours.iter().chain(&theirs) {
        std::fs::write(base.join(name), "half a session").unwrap();
    }
    // A folder at our name is no file of ours: left alone.
    std::fs::create_dir(base.join(".notes.tw-00000000000000aa.tmp")).unwrap();
    prep_in(&base, &session, "out", &[]).succeeds();
    for name in ours {
        assert!(!base.join(name).exists(), "{name} outlived the run");
    }
    for name in theirs {
        assert!(base.join(name).exists(), "the GM's {name} was removed");
    }
    assert!(base.join(".notes.tw-00000000000000aa.tmp").is_dir());

    let o = run_in(&base, &["init", "camp"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let camp = base.join("camp");
    let plan_tmp = camp.join("sessions/1/.plan.toml.tw-00112233445566ff.tmp");
    let root_tmp = camp.join(".campaign.toml.tw-a0b1c2d3e4f50617.tmp");
    std::fs::write(&plan_tmp, "half a plan").unwrap();
    std::fs::write(&root_tmp, "half a campaign").unwrap();
    let o = run_in(&camp, &["prep"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!plan_tmp.exists() && !root_tmp.exists());
    let record_tmp = camp.join("sessions/1/.record.toml.tw-0f0f0f0f0f0f0f0f.tmp");
    std::fs::write(&record_tmp, "half a record").unwrap();
    let o = run_in(&camp, &["record", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!record_tmp.exists());
    let _ = std::fs::remove_dir_all(&base);
}
