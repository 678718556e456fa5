//! Helpers the generator-file tests share (issue 41): where the fixtures
//! and the real files are, `import` into a fresh folder, the tables it
//! wrote, each row's exact chance, and the round trip of `export --format
//! ipt|perchance` back through `import`.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{run_in, stderr, stdout, temp_dir};

pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A file of the project's own fixtures, by name.
pub(crate) fn fixture(name: &str) -> String {
    root()
        .join("tests/fixtures/generators")
        .join(name)
        .display()
        .to_string()
}

/// The real files of `../shared/fixtures/imports/SUB`, when that folder
/// is beside the repository; a clone on its own skips them and says
/// what is `left` untried.
pub(crate) fn corpus(sub: &str, left: &str) -> Option<PathBuf> {
    let dir = root().join("../shared/fixtures/imports").join(sub);
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "SKIPPED: {} is absent (a clone on its own): {left}",
            dir.display()
        );
        None
    }
}

/// `import ARGS --to out` in a fresh folder named after `prefix`: the
/// run and the folder.
pub(crate) fn import(prefix: &str, args: &[&str]) -> (Output, PathBuf) {
    let dir = temp_dir(prefix);
    let mut all = vec!["import"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--to", "out"]);
    (run_in(&dir, &all), dir)
}

/// The tables of table file `name` the import wrote.
pub(crate) fn tables(dir: &Path, name: &str) -> Vec<toml::Value> {
    let text = std::fs::read_to_string(dir.join("out").join(name))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let doc: toml::Table = text.parse().unwrap();
    doc["table"].as_array().unwrap().clone()
}

/// The table `id` of `all`.
pub(crate) fn table<'a>(all: &'a [toml::Value], id: &str) -> &'a toml::Value {
    all.iter()
        .find(|t| t["id"].as_str() == Some(id))
        .unwrap_or_else(|| panic!("no table {id}"))
}

pub(crate) fn rows(t: &toml::Value) -> &Vec<toml::Value> {
    t["row"].as_array().unwrap()
}

/// How many of `sides`^`n` throws of `n`d`sides` sum to each total.
fn ways(n: u32, sides: u64) -> Vec<(i64, u64)> {
    let mut counts = vec![(0i64, 1u64)];
    for _ in 0..n {
        let mut next = std::collections::BTreeMap::new();
        for &(total, w) in &counts {
            for face in 1..=sides as i64 {
                *next.entry(total + face).or_insert(0u64) += w;
            }
        }
        counts = next.into_iter().collect();
    }
    counts
}

/// Each row's text and its chance as a fraction (numerator, denominator):
/// a weight over the weights' sum, or the throws of `NdM` its range takes.
pub(crate) fn chances(t: &toml::Value) -> Vec<(String, u64, u64)> {
    let rows = rows(t);
    let text = |r: &toml::Value| r["text"].as_str().unwrap().to_owned();
    match t.get("dice").and_then(|d| d.as_str()) {
        None => {
            let total: u64 = rows
                .iter()
                .map(|r| r["weight"].as_integer().unwrap() as u64)
                .sum();
            rows.iter()
                .map(|r| (text(r), r["weight"].as_integer().unwrap() as u64, total))
                .collect()
        }
        Some(dice) => {
            let (n, sides) = dice.split_once('d').unwrap();
            let n: u32 = if n.is_empty() { 1 } else { n.parse().unwrap() };
            let table = ways(n, sides.parse().unwrap());
            let all: u64 = table.iter().map(|w| w.1).sum();
            rows.iter()
                .map(|r| {
                    let roll = r["roll"].as_str().unwrap();
                    let (a, b) = roll.split_once('-').unwrap_or((roll, roll));
                    let (a, b): (i64, i64) = (a.parse().unwrap(), b.parse().unwrap());
                    let hit = table
                        .iter()
                        .filter(|w| (a..=b).contains(&w.0))
                        .map(|w| w.1)
                        .sum();
                    (text(r), hit, all)
                })
                .collect()
        }
    }
}

/// `want`: each row's text and chance (fractions compared exactly).
pub(crate) fn assert_chances(t: &toml::Value, want: &[(&str, u64, u64)]) {
    let got = chances(t);
    assert_eq!(got.len(), want.len(), "{}: {got:?}", t["id"]);
    for ((text, n, d), (wt, wn, wd)) in got.iter().zip(want) {
        assert_eq!(text, wt, "{}", t["id"]);
        assert_eq!(
            n * wd,
            wn * d,
            "{}: {text}: {n}/{d}, want {wn}/{wd}",
            t["id"]
        );
    }
}

/// The ids of `all`, in order.
pub(crate) fn ids(all: &[toml::Value]) -> Vec<&str> {
    all.iter().map(|t| t["id"].as_str().unwrap()).collect()
}

/// A chance as a reduced fraction.
pub(crate) fn reduced(n: u64, d: u64) -> (u64, u64) {
    let (mut a, mut b) = (n, d);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    (n / a, d / a)
}

/// Tables of every shape IPP and Perchance carry: a ranged table calling
/// a weighted one and a 2d6 one, picks holding a call, dice, each
/// format's marks as plain text, a new line.
pub(crate) const ROUND_TRIP: &str = r#"
[[table]]
id = "rt.main"
title = "Round trip: main"
system = "any"
source = "tests"
dice = "d12"

[[table.row]]
roll = "1-5"
name = "Cart"
text = "A {pick: red | blue | {table:rt.weights}} cart with {2d6} sacks"

[[table.row]]
roll = "6"
name = "Marks"
text = "Marks {{like this}} [and | these] \\ here ^ a = b // not a comment"

[[table.row]]
roll = "7-12"
name = "Twice"
text = "{table:rt.weights} then {table:rt.two}, {d4} and {1d6+2}\non a new line"

[[table]]
id = "rt.weights"
title = "Round trip: weights"
system = "any"
source = "tests"

[[table.row]]
weight = 3
name = "Boar"
text = "a boar"

[[table.row]]
weight = 1
name = "Bear"
text = "a bear ({1d4+1} of them)"

[[table]]
id = "rt.two"
title = "Round trip: 2d6"
system = "any"
source = "tests"
dice = "2d6"

[[table.row]]
roll = "2-6"
name = "Low"
text = "low"

[[table.row]]
roll = "7-12"
name = "High"
text = "high, see {table:rt.weights}"
"#;

/// `export IDS --format FORMAT` of tables in the content folder `rt` of
/// `dir`.
pub(crate) fn export(dir: &Path, ids: &[&str], format: &str) -> Output {
    let mut args = vec!["--content", "rt", "export"];
    args.extend_from_slice(ids);
    args.extend_from_slice(&["--format", format]);
    run_in(dir, &args)
}

/// [`ROUND_TRIP`] exported in `format` from a fresh folder: what was
/// written, and the folder.
pub(crate) fn round_trip_export(format: &str) -> (String, PathBuf) {
    let dir = temp_dir(&format!("{format}-round-trip"));
    std::fs::create_dir_all(dir.join("rt")).unwrap();
    std::fs::write(dir.join("rt/tables.toml"), ROUND_TRIP).unwrap();
    let o = export(&dir, &["rt.main", "rt.weights", "rt.two"], format);
    assert!(o.status.success(), "{}", stderr(&o));
    (stdout(&o), dir)
}

/// The export `text` written to `file` in `dir` and imported: its tables,
/// after checking each has the id, title and rows of [`ROUND_TRIP`]'s,
/// each row's text (spelt alike) at the same exact chance.
pub(crate) fn import_back(dir: &Path, file: &str, text: &str) -> Vec<toml::Value> {
    std::fs::write(dir.join(file), text).unwrap();
    let o = run_in(dir, &["import", file, "--to", "out"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let stem = file.split('.').next().unwrap();
    let back = tables(dir, &format!("{stem}.toml"));
    let doc: toml::Table = ROUND_TRIP.parse().unwrap();
    let orig = doc["table"].as_array().unwrap();
    assert_eq!(back.len(), orig.len(), "{:?}", ids(&back));
    let normal = |s: &str| {
        s.replace("{pick: ", "{pick:")
            .replace(" | ", "|")
            .replace("{d4}", "{1d4}")
    };
    let odds = |v: &toml::Value| -> Vec<(String, (u64, u64))> {
        chances(v)
            .into_iter()
            .map(|(text, n, d)| (normal(&text), reduced(n, d)))
            .collect()
    };
    for (t, b) in orig.iter().zip(&back) {
        assert_eq!(b["id"].as_str(), t["id"].as_str());
        assert_eq!(b["title"].as_str(), t["title"].as_str());
        assert_eq!(odds(b), odds(t), "{}", t["id"]);
    }
    back
}

/// What `format` cannot roll the same way is refused, the table named: a
/// deck.
pub(crate) fn refused_exports(dir: &Path, format: &str) {
    std::fs::write(dir.join("rt/deck.toml"), "[[table]]\nid = \"rt.deck\"\ntitle = \"D\"\nsystem = \"any\"\nsource = \"t\"\ndeck = true\n\n[[table.row]]\nweight = 1\nname = \"a\"\ntext = \"a\"\n").unwrap();
    let o = export(dir, &["rt.deck"], format);
    assert_eq!(o.status.code(), Some(1), "{format}");
    assert!(stderr(&o).contains("rt.deck (D): a deck"), "{}", stderr(&o));
}

/// A roll on a table left out of the export is refused in `format` (IPP
/// and Perchance alike), naming the row's table, the one missing and
/// what to do; nothing is written.
pub(crate) fn refused_missing(dir: &Path, format: &str) {
    let o = export(dir, &["rt.main"], format);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{format}: {err}");
    assert!(
        err.contains("rt.main (Round trip: main)"),
        "{format}: {err}"
    );
    assert!(
        err.contains(
            "it rolls on rt.weights, which is not exported with it (add `rt.weights` to the ids)"
        ),
        "{format}: {err}"
    );
    assert!(stdout(&o).is_empty(), "{format}");
}
