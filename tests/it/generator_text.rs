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

/// TableSmith shows its results as a page: its tags are markup, made
/// plain (`<br>` a new line), and its character references the
/// characters they stand for, each counted in the report.
#[test]
fn tablesmith_markup_reads_as_its_page_shows_it() {
    let words = "Stop and <b>read</b> the sign & calm\nThen go café.";
    reads_as(
        "markup.tab",
        &[],
        "imported.markup.start",
        &[words],
        "Stop and <b>read</b> the sign & Mood",
    );
    let (o, _) = import("text-markup", &[&text_fixture("markup.tab")]);
    let report = stdout(&o);
    assert!(report.contains("5 × HTML tags"), "{report}");
    assert!(report.contains("6 × HTML character references"), "{report}");
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

/// Issue 53: `toa-weather`'s rain table reads its rate and its length
/// each twice — in the words and in the name of its table of gallons.
/// Rolled 8,100 times (a fixed seed), every result's gallons are those
/// the file gives for the rate and length its words say, and each rate
/// comes up as often as `2d3` gives it (1, 2, 3, 2, 1 in 9), within five
/// standard deviations of a binomial count over 8,100 rolls.
#[test]
fn toa_weather_gives_one_rain_at_each_use_and_its_odds() {
    let Some(c) = corpus("ipt", "toa-weather is not rolled") else {
        return;
    };
    let p = c.join("toa-weather.ipt").display().to_string();
    let (o, dir) = import("toa-rolled", &[p.as_str()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rates = ["Light", "Gentle", "Steady", "Heavy", "VeryHeavy"];
    let lengths = ["brief", "short", "typical", "long", "very long"];
    // The file's tables of gallons, `Light30` … `VeryHeavy150`.
    let gallons = [
        [2, 3, 5, 6, 8],
        [3, 6, 9, 12, 16],
        [5, 9, 14, 19, 23],
        [6, 12, 19, 25, 31],
        [8, 16, 23, 31, 39],
    ];
    let n = 8_100;
    let (results, _) = roll(&dir, "imported.toa-weather.rainmaster", n);
    assert_eq!(results.len(), n);
    let mut seen = [0usize; 5];
    for r in &results {
        let text = r["text"].as_str().unwrap();
        let rest = text.strip_prefix("A ").unwrap_or_else(|| panic!("{text}"));
        let (rate, rest) = rest.split_once(" rain that lasts a ").unwrap();
        let ri = rates.iter().position(|x| *x == rate).expect(text);
        let li = lengths
            .iter()
            .rposition(|l| rest.starts_with(&format!("{l} (")))
            .expect(text);
        let (_, got) = rest.rsplit_once(": ").unwrap();
        assert_eq!(got, gallons[ri][li].to_string(), "{text}");
        seen[ri] += 1;
    }
    for (count, ways) in seen.iter().zip([1.0, 2.0, 3.0, 2.0, 1.0]) {
        let p: f64 = ways / 9.0;
        let (mean, sd) = (n as f64 * p, (n as f64 * p * (1.0 - p)).sqrt());
        assert!(
            (*count as f64 - mean).abs() <= 5.0 * sd,
            "{seen:?}: {count} against {mean:.0} ± {:.0}",
            5.0 * sd
        );
    }
}
