//! Issue 53, item 1: an imported generator says what its author wrote. A
//! call gives the called row's text alone (never `Name: text`), as IPP,
//! TableSmith, Perchance and the Dice Roller plugin give it; a row's name
//! is what a GM would call it (its text with calls shown by their table's
//! title), and a result whose name is its text prints once. One focused
//! case per format (tests/fixtures/generators/text), then every real file
//! of `../shared/fixtures/imports/` rolled a few hundred times.

use std::path::Path;

use serde_json::Value;

use super::generator_kit::{corpus, import, root, rows, table, tables};
use crate::common::{run_in, stderr, stdout};

fn text_fixture(name: &str) -> String {
    root()
        .join("tests/fixtures/generators/text")
        .join(name)
        .display()
        .to_string()
}

/// `table ID --times N --seed SEED` in `dir` with the imported tables: the
/// JSON results and the terminal text.
fn roll(dir: &Path, id: &str, times: usize) -> (Vec<Value>, String) {
    let n = times.to_string();
    let args = [
        "--content",
        "out",
        "table",
        id,
        "--times",
        &n,
        "--seed",
        "issue-53",
    ];
    let o = run_in(dir, &args);
    assert!(o.status.success(), "{id}: {}", stderr(&o));
    let text = stdout(&o);
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let o = run_in(dir, &json_args);
    assert!(o.status.success(), "{id}: {}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    (v["results"].as_array().unwrap().clone(), text)
}

/// Every place in `r` (and the results nested in it) where a call's
/// result stands in its caller's text as `Name: text`.
fn doublings(r: &Value, out: &mut Vec<String>) {
    let text = r["text"].as_str().unwrap_or("");
    for n in r["nested"].as_array().into_iter().flatten() {
        let (row, sub) = (n["row"].as_str().unwrap(), n["text"].as_str().unwrap());
        let doubled = format!("{row}: {sub}");
        if !row.is_empty() && text.contains(&doubled) {
            out.push(format!("{} in {}: {text:?}", n["table"], r["table"]));
        }
        doublings(n, out);
    }
}

/// A result line `id [label] name: text` whose name is its text or the
/// start of it (`Treasure: Treasure: 15sp`).
fn doubled_lines(terminal: &str) -> Vec<String> {
    terminal
        .lines()
        .filter(|l| !l.starts_with(' '))
        .filter(|l| {
            let Some((_, rest)) = l.split_once("] ") else {
                return false;
            };
            rest.split_once(": ").is_some_and(|(a, b)| b.starts_with(a))
        })
        .map(str::to_owned)
        .collect()
}

/// `file` imported (`from`: its `--from`), its main table rolled: every
/// result reads one of `want`, nothing doubled, and the main row named `name`.
fn reads_as(file: &str, from: &[&str], main: &str, want: &[&str], name: &str) {
    let path = text_fixture(file);
    let mut args = from.to_vec();
    args.push(&path);
    let (o, dir) = import("text-fidelity", &args);
    assert!(o.status.success(), "{file}: {}", stderr(&o));
    let (results, terminal) = roll(&dir, main, 10);
    for r in &results {
        let text = r["text"].as_str().unwrap();
        assert!(want.contains(&text), "{file}: {r}");
        let mut d = Vec::new();
        doublings(r, &mut d);
        assert!(d.is_empty(), "{file}: {d:?}");
    }
    assert!(doubled_lines(&terminal).is_empty(), "{file}: {terminal}");
    let stem = file.split('.').next().unwrap();
    let all = tables(&dir, &format!("{stem}.toml"));
    let first = &rows(table(&all, main))[0];
    assert_eq!(first["name"].as_str(), Some(name), "{file}");
}

#[test]
fn an_ipp_call_gives_the_called_rows_text() {
    reads_as(
        "calls.ipt",
        &[],
        "imported.calls.main",
        &["red cart with hay"],
        "Colour cart with Load",
    );
}

#[test]
fn a_tablesmith_call_gives_the_called_rows_text() {
    reads_as("calls.tab", &[], "imported.calls.start", &["AB"], "AB");
}

#[test]
fn a_perchance_call_gives_the_called_items_text() {
    reads_as(
        "calls.perchance",
        &[],
        "imported.calls.output",
        &["That's a very small cow!"],
        "That's a size animal",
    );
}

#[test]
fn an_obsidian_roller_gives_the_called_rows_text() {
    reads_as(
        "calls.md",
        &["--from", "obsidian"],
        "imported.calls.finds",
        &["a bag of gold", "a chest of gold"],
        "a bag of Coins",
    );
}

/// Every real file, imported whole or with `--skip-unsupported`: each of
/// its tables rolled 300 times (a fixed seed) without one `Name: text`.
#[test]
fn no_real_generator_doubles_a_call_or_a_name() {
    let Some(c) = corpus("", "the real generators are not rolled") else {
        return;
    };
    let deps: Vec<String> = ["catchall", "professions", "races", "classes"]
        .iter()
        .map(|f| c.join(format!("ipt/{f}.ipt")).display().to_string())
        .collect();
    let mut found = Vec::new();
    let mut rolled = 0;
    for kind in ["ipt", "tab", "perchance"] {
        let mut files: Vec<_> = std::fs::read_dir(c.join(kind))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for path in files {
            let p = path.display().to_string();
            let mut args = vec!["--skip-unsupported"];
            if kind == "perchance" {
                args.extend(["--from", "perchance"]);
            }
            args.push(&p);
            if kind == "ipt" {
                args.extend(deps.iter().filter(|d| **d != p).map(String::as_str));
            }
            let (o, dir) = import("text-fidelity", &args);
            let name = path.file_name().unwrap().to_string_lossy().to_lowercase();
            let stem = name.split('.').next().unwrap();
            let written = dir.join("out").join(format!("{stem}.toml"));
            if !o.status.success() || !written.exists() {
                continue;
            }
            for t in tables(&dir, &format!("{stem}.toml")) {
                let id = t["id"].as_str().unwrap();
                let (results, terminal) = roll(&dir, id, 300);
                rolled += 1;
                for r in &results {
                    doublings(r, &mut found);
                }
                found.extend(doubled_lines(&terminal));
            }
        }
    }
    found.dedup();
    assert!(rolled > 100, "only {rolled} tables rolled");
    assert!(found.is_empty(), "{} doubled: {found:#?}", found.len());
}

/// `text_only` is a table's key of its own: a value that is not true or
/// false is refused at its line, and an extension cannot set it.
#[test]
fn text_only_takes_true_or_false_on_a_table_of_its_own() {
    let dir = crate::common::temp_dir("text-only-bad");
    std::fs::create_dir_all(dir.join("t")).unwrap();
    let head = "[[table]]\nid = \"t.a\"\ntitle = \"A\"\nsystem = \"any\"\nsource = \"t\"\n";
    let row = "\n[[table.row]]\nweight = 1\nname = \"x\"\ntext = \"x\"\n";
    std::fs::write(
        dir.join("t/a.toml"),
        format!("{head}text_only = \"yes\"\n{row}"),
    )
    .unwrap();
    let o = run_in(&dir, &["--content", "t", "validate"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(err.contains("a.toml:6:"), "{err}");
    assert!(err.contains("text_only"), "{err}");
    let ext = "\n[[table]]\nextends = \"t.a\"\ntext_only = true\n";
    std::fs::write(
        dir.join("t/a.toml"),
        format!("{head}text_only = true\n{row}{ext}"),
    )
    .unwrap();
    let o = run_in(&dir, &["--content", "t", "validate"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("an extension keeps the `text_only` of the table it extends"),
        "{}",
        stderr(&o)
    );
}
