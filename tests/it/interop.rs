//! `export` and `import`: tables out to Foundry VTT, Obsidian, Markdown
//! and JSON, and back in — every built-in table round trip, the fields of
//! the Foundry documents, Obsidian block ids, and real RollTables from
//! Foundry systems' packs (tests/fixtures/foundry, sources in its README).

use std::collections::BTreeSet;

use serde_json::Value;

use crate::common::{ok, ok_json, run_in, stderr, stdout, temp_dir};

/// Every table id in effect (built in).
fn all_ids() -> Vec<String> {
    let doc = ok_json(&["--json", "tables"]);
    doc["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap().to_owned())
        .collect()
}

/// `export <every table> --format <format>` on stdout.
fn export_all(format: &str) -> String {
    let ids = all_ids();
    let mut args = vec!["export", "--format", format];
    args.extend(ids.iter().map(String::as_str));
    ok(&args)
}

fn as_i64(v: &Value) -> i64 {
    v.as_i64().unwrap_or_else(|| panic!("not an integer: {v}"))
}

/// Every document has the RollTable fields, each result the TableResult
/// fields, with ranges that tile the formula's results and weights that
/// match them.
#[test]
fn foundry_export_has_every_rolltable_field() {
    let docs: Value = serde_json::from_str(&export_all("foundry")).unwrap();
    let tables = ok_json(&["--json", "tables"]);
    let tables = tables["tables"].as_array().unwrap();
    let docs = docs.as_array().unwrap();
    assert_eq!(docs.len(), tables.len());
    let ids: BTreeSet<&str> = docs.iter().map(|d| d["_id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), docs.len(), "document ids are unique");
    for (doc, table) in docs.iter().zip(tables) {
        let what = table["id"].as_str().unwrap();
        let id = doc["_id"].as_str().unwrap();
        assert!(
            id.len() == 16 && id.chars().all(|c| c.is_ascii_alphanumeric()),
            "{what}: _id {id}"
        );
        assert_eq!(doc["name"], table["title"], "{what}");
        assert!(doc["description"].is_string(), "{what}");
        assert_eq!(
            doc["replacement"],
            Value::Bool(!table["deck"].as_bool().unwrap()),
            "{what}"
        );
        assert_eq!(doc["displayRoll"], Value::Bool(true), "{what}");
        assert_eq!(doc["flags"]["tablewright"]["id"], table["id"], "{what}");
        let formula = doc["formula"].as_str().unwrap();
        let results = doc["results"].as_array().unwrap();
        let rows = table["rows"].as_array().unwrap();
        assert_eq!(results.len(), rows.len(), "{what}");
        let mut next = None;
        for (r, row) in results.iter().zip(rows) {
            assert_eq!(r["type"], "text", "{what}");
            assert_eq!(r["drawn"], Value::Bool(false), "{what}");
            assert_eq!(r["name"], row["name"], "{what}");
            assert_eq!(
                r["text"], r["description"],
                "{what}: text (v12) and description (v13) agree"
            );
            let text = r["text"].as_str().unwrap();
            assert!(!text.contains("{table:"), "{what}: {text}");
            let range = r["range"].as_array().unwrap();
            let (a, b) = (as_i64(&range[0]), as_i64(&range[1]));
            assert!(a <= b, "{what}: range {a}-{b}");
            let weight = as_i64(&r["weight"]);
            match row["weight"].as_i64() {
                Some(w) => {
                    assert_eq!(weight, w, "{what}: the row's weight");
                    assert_eq!(
                        b - a + 1,
                        w,
                        "{what}: a weighted row's range is as wide as its weight"
                    );
                    assert_eq!(
                        a,
                        next.unwrap_or(1),
                        "{what}: weighted ranges follow each other from 1"
                    );
                    next = Some(b + 1);
                }
                None => {
                    assert_eq!(weight, b - a + 1, "{what}");
                    let own = row["range"].as_array().unwrap();
                    assert_eq!((as_i64(&own[0]), as_i64(&own[1])), (a, b), "{what}");
                }
            }
        }
        if let Some(end) = next {
            assert_eq!(
                formula,
                format!("1d{}", end - 1),
                "{what}: a weighted table rolls over its weights"
            );
        } else {
            assert!(formula.contains('d'), "{what}: {formula}");
        }
    }
}

/// A roll on a table exported with it is a document link to it; one
/// exported alone names the table instead.
#[test]
fn foundry_links_tables_exported_together() {
    let together: Value = serde_json::from_str(&ok(&[
        "export",
        "core.mutation",
        "core.mutation.mind",
        "--format",
        "foundry",
    ]))
    .unwrap();
    let mind_id = together[1]["_id"].as_str().unwrap();
    let first = together[0]["results"][0]["text"].as_str().unwrap();
    assert!(
        first.contains(&format!("@UUID[RollTable.{mind_id}]{{Mutations: mind}}")),
        "{first}"
    );
    let alone: Value =
        serde_json::from_str(&ok(&["export", "core.mutation", "--format", "foundry"])).unwrap();
    let first = alone["results"][0]["text"].as_str().unwrap();
    assert!(first.ends_with("roll on Mutations: mind"), "{first}");
    assert!(!first.contains("@UUID"), "{first}");
}

/// Every table in one note: each lookup table headed `dice: <formula>`,
/// followed by its block id, unique and made of lowercase letters, digits
/// and single dashes; every roller link names a block of the note.
#[test]
fn obsidian_block_ids_are_unique_and_well_formed() {
    let note = export_all("obsidian");
    let lines: Vec<&str> = note.lines().collect();
    let mut ids = BTreeSet::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(id) = line.strip_prefix('^') else {
            continue;
        };
        assert!(
            !id.is_empty()
                && id
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                && !id.starts_with('-')
                && !id.ends_with('-')
                && !id.contains("--"),
            "block id `{id}`"
        );
        assert!(ids.insert(id.to_owned()), "block id `{id}` twice");
        assert_eq!(lines[i - 1], "", "a blank line before ^{id}");
        assert!(lines[i - 2].starts_with("| "), "^{id} follows its table");
    }
    assert_eq!(ids.len(), all_ids().len());
    assert_eq!(note.matches("| dice: ").count(), ids.len());
    for link in note.split("[[#^").skip(1) {
        let id = link.split("]]").next().unwrap();
        assert!(
            ids.contains(id),
            "a link to ^{id}, which is not in the note"
        );
    }
}

/// `--to DIR`: one file per table, through the pack writer (a differing
/// file is refused without --force, the same bytes are no change).
#[test]
fn export_to_a_folder_writes_one_file_per_table() {
    let dir = temp_dir("export-to");
    let args = [
        "export",
        "core.injury",
        "core.forage",
        "--format",
        "gfm",
        "--to",
        "tables",
    ];
    let o = run_in(&dir, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("wrote 2 files"), "{}", stdout(&o));
    let injury = std::fs::read_to_string(dir.join("tables/core.injury.md")).unwrap();
    assert!(injury.contains("| d12 | result |"), "{injury}");
    assert!(dir.join("tables/core.forage.md").is_file());
    std::fs::write(dir.join("tables/core.injury.md"), "mine").unwrap();
    let o = run_in(&dir, &args);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("--force"), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(dir.join("tables/core.injury.md")).unwrap(),
        "mine"
    );
    let mut forced = args.to_vec();
    forced.push("--force");
    assert!(run_in(&dir, &forced).status.success());
    assert_eq!(
        std::fs::read_to_string(dir.join("tables/core.injury.md")).unwrap(),
        injury
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Foundry markup that must never reach a row's text.
const MARKUP: [&str; 9] = [
    "@UUID",
    "[[",
    "]]",
    "&Reference",
    "&amp;",
    "&lt;",
    "<p>",
    "</",
    "@Check",
];

/// The real RollTables in tests/fixtures/foundry (v10 to v13 shapes)
/// import, validate, and roll every row — each table 4,000 times on each
/// of 5 seeds, so a row of 1 in 100 is missed with odds below 1e-80 —
/// and no roll's text carries Foundry markup.
#[test]
fn real_foundry_tables_import_validate_and_roll_every_row() {
    let dir = temp_dir("import-foundry");
    let fixtures = format!("{}/tests/fixtures/foundry", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = std::fs::read_dir(&fixtures)
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .filter(|p| p.ends_with(".json"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 4);
    let mut args = vec!["import".to_owned()];
    args.extend(files.iter().cloned());
    args.extend(["--to".into(), "tables".into()]);
    let o = run_in(&dir, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    let report = stdout(&o);
    assert!(
        report.contains("inline dice") && report.contains("document links"),
        "{report}"
    );
    let v = run_in(&dir, &["validate", "--content", "tables"]);
    assert!(v.status.success(), "{}", stderr(&v));
    let listed: Value =
        serde_json::from_slice(&run_in(&dir, &["--json", "tables", "--content", "tables"]).stdout)
            .unwrap();
    let imported: Vec<&Value> = listed["tables"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["id"].as_str().unwrap().starts_with("imported."))
        .collect();
    assert_eq!(imported.len(), 5, "five RollTables in four files");
    for table in imported {
        let id = table["id"].as_str().unwrap();
        let labels: BTreeSet<String> = table["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let text = r["text"].as_str().unwrap();
                for m in MARKUP {
                    assert!(!text.contains(m), "{id}: `{m}` left in {text}");
                }
                let (a, b) = (as_i64(&r["range"][0]), as_i64(&r["range"][1]));
                if a == b {
                    a.to_string()
                } else {
                    format!("{a}-{b}")
                }
            })
            .collect();
        let mut seen = BTreeSet::new();
        for seed in ["a", "b", "c", "d", "e"] {
            let o = run_in(
                &dir,
                &[
                    "--json",
                    "table",
                    id,
                    "--times",
                    "4000",
                    "--seed",
                    seed,
                    "--content",
                    "tables",
                ],
            );
            assert!(o.status.success(), "{id}: {}", stderr(&o));
            let rolled: Value = serde_json::from_slice(&o.stdout).unwrap();
            for r in rolled["results"].as_array().unwrap() {
                let text = r["text"].as_str().unwrap();
                for m in MARKUP.iter().chain(&["{", "}"]) {
                    assert!(!text.contains(m), "{id}: `{m}` in a rolled text: {text}");
                }
                seen.insert(r["label"].as_str().unwrap().to_owned());
            }
        }
        assert_eq!(seen, labels, "{id}: every row rolled");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The tables of a file, as `tables --json` gives them, less where they
/// came from (the file, its lines, what they override).
fn comparable(doc: &Value) -> Vec<Value> {
    doc["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let mut t = t.clone();
            let o = t.as_object_mut().unwrap();
            for k in ["origin", "overrides", "extended_by"] {
                o.remove(k);
            }
            for row in o["rows"].as_array_mut().unwrap() {
                let r = row.as_object_mut().unwrap();
                r.remove("line");
                r.remove("from");
            }
            t
        })
        .collect()
}

/// The rows of `id` in `doc` as (range, weight, text).
fn rows_of(doc: &Value, id: &str) -> Vec<(Value, Value, String)> {
    let table = doc["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == id)
        .unwrap_or_else(|| panic!("no {id}"));
    table["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["range"].clone(),
                r["weight"].clone(),
                r["text"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// Export every built-in table in `format` into one file, import it into
/// a folder, and list what is in effect then.
fn round_trip(name: &str, format: &str, file: &str) -> (Value, Value) {
    let dir = temp_dir(name);
    std::fs::write(dir.join(file), export_all(format)).unwrap();
    let o = run_in(&dir, &["import", file, "--to", "back"]);
    assert!(o.status.success(), "{format}: {}", stderr(&o));
    let before = ok_json(&["--json", "tables"]);
    let o = run_in(&dir, &["--json", "tables", "--content", "back"]);
    assert!(o.status.success(), "{format}: {}", stderr(&o));
    let after: Value = serde_json::from_slice(&o.stdout).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    (before, after)
}

/// A `json` export imported back is exactly the same tables: every key of
/// every row (tags, effects, stats), notes, region, dice, deck.
#[test]
fn json_export_imports_back_as_the_same_tables() {
    let (before, after) = round_trip("roundtrip-json", "json", "all.json");
    assert_eq!(comparable(&before), comparable(&after));
    let overridden = after["tables"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t.get("overrides").is_some())
        .count();
    assert_eq!(
        overridden,
        all_ids().len(),
        "every table came back from the imported file"
    );
}

/// A `foundry` export of every built-in table, imported back, gives each
/// table its ranges, weights and text (rolls on tables exported together
/// come back as `{table:…}`).
#[test]
fn foundry_export_round_trips_ranges_weights_and_text() {
    let (before, after) = round_trip("roundtrip-foundry", "foundry", "all.json");
    for id in all_ids() {
        assert_eq!(rows_of(&before, &id), rows_of(&after, &id), "{id}");
    }
    // What Foundry has no field for travels in `flags.tablewright`, so the
    // tables come back whole.
    assert_eq!(comparable(&before), comparable(&after));
}

/// A `gfm` export of every built-in table, imported back as a pasted
/// Markdown table, gives each its ranges, weights and text.
#[test]
fn gfm_export_round_trips_ranges_weights_and_text() {
    let dir = temp_dir("roundtrip-gfm");
    let before = ok_json(&["--json", "tables"]);
    let mut files = Vec::new();
    for id in all_ids() {
        let name = format!("{id}.md");
        std::fs::write(dir.join(&name), ok(&["export", &id, "--format", "gfm"])).unwrap();
        files.push(name);
    }
    let mut args = vec!["import".to_owned()];
    args.extend(files);
    args.extend(["--to".into(), "back".into()]);
    let o = run_in(&dir, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run_in(&dir, &["--json", "tables", "--content", "back"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let after: Value = serde_json::from_slice(&o.stdout).unwrap();
    for table in before["tables"].as_array().unwrap() {
        let id = table["id"].as_str().unwrap();
        let title = table["title"].as_str().unwrap();
        let back = after["tables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["title"] == title && t["id"].as_str().unwrap().starts_with("imported."))
            .unwrap_or_else(|| panic!("{id} did not come back"));
        assert_eq!(
            rows_of(&before, id),
            rows_of(&after, back["id"].as_str().unwrap()),
            "{id}"
        );
        assert_eq!(table["dice"], back["dice"], "{id}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Pasted tables: a CSV with a die column (`01-05`, `00`) and a Markdown
/// table with a weight column become tables that validate.
#[test]
fn pasted_csv_and_markdown_tables_import() {
    let dir = temp_dir("import-pasted");
    std::fs::write(
        dir.join("loot.csv"),
        "d100,Name,Result\n01-50,Copper,\"A purse of {2d6} coppers, damp\"\n51-99,Silver,A silver ring\n00,Gold,A crown\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("weather.md"),
        "# Weather\n\nSome words.\n\n| weight | result |\n|---|:---|\n| 3 | Rain, and {pick: wind \\| fog} |\n| 1 | **Storm.** Lightning |\n",
    )
    .unwrap();
    let o = run_in(&dir, &["import", "loot.csv", "weather.md"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let listed = run_in(&dir, &["--json", "tables", "--content", "content"]);
    let listed: Value = serde_json::from_slice(&listed.stdout).unwrap();
    let loot = rows_of(&listed, "imported.loot");
    assert_eq!(loot[0].0, serde_json::json!([1, 50]));
    assert_eq!(loot[2].0, serde_json::json!([100, 100]));
    assert_eq!(loot[0].2, "A purse of {2d6} coppers, damp");
    let weather = rows_of(&listed, "imported.weather");
    assert_eq!(weather[0].1, serde_json::json!(3));
    assert_eq!(weather[0].2, "Rain, and {pick: wind | fog}");
    assert_eq!(weather[1].2, "Lightning");
    let o = run_in(
        &dir,
        &[
            "table",
            "imported.weather",
            "--seed",
            "s",
            "--times",
            "50",
            "--content",
            "content",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Undoes what made a folder's parent unwritable, even when a test fails.
struct Unwritable {
    parent: std::path::PathBuf,
    immutable: bool,
}

impl Unwritable {
    /// `parent` made unwritable: by its mode, or, for root (whom modes
    /// do not stop), by the immutable flag where `chattr` can set it.
    /// `None` when neither holds (then permissions say nothing here).
    fn make(parent: &std::path::Path) -> Option<Unwritable> {
        use std::os::unix::fs::PermissionsExt;
        let writable = |p: &std::path::Path| {
            let probe = p.join(".probe");
            let ok = std::fs::write(&probe, "x").is_ok();
            let _ = std::fs::remove_file(&probe);
            ok
        };
        std::fs::set_permissions(parent, std::fs::Permissions::from_mode(0o555)).unwrap();
        let mut guard = Unwritable {
            parent: parent.to_owned(),
            immutable: false,
        };
        if !writable(parent) {
            return Some(guard);
        }
        guard.immutable = std::process::Command::new("chattr")
            .arg("+i")
            .arg(parent)
            .output()
            .is_ok_and(|o| o.status.success());
        (guard.immutable && !writable(parent)).then_some(guard)
    }
}

impl Drop for Unwritable {
    fn drop(&mut self) {
        use std::os::unix::fs::PermissionsExt;
        if self.immutable {
            let _ = std::process::Command::new("chattr")
                .arg("-i")
                .arg(&self.parent)
                .output();
        }
        let _ = std::fs::set_permissions(&self.parent, std::fs::Permissions::from_mode(0o755));
    }
}

/// `manpage --to DIR` the same way as `import --to` (issue 39): the pages
/// go into a writable folder whose parent is not, nothing of the stage is
/// left, and the same pages again write nothing.
#[cfg(unix)]
#[test]
fn manpage_to_a_writable_folder_in_a_read_only_parent() {
    let dir = temp_dir("manpage-read-only-parent");
    let shared = dir.join("parent/man1");
    std::fs::create_dir_all(&shared).unwrap();
    let Some(guard) = Unwritable::make(&dir.join("parent")) else {
        eprintln!("skipped: a read-only parent cannot be made here (see the import test)");
        return;
    };
    for _ in 0..2 {
        let o = run_in(&dir, &["manpage", "--to", "parent/man1"]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let names: BTreeSet<String> = std::fs::read_dir(&shared)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.contains("tablewright.1"), "{names:?}");
    assert!(names.contains("tablewright-prep.1"), "{names:?}");
    assert!(
        names
            .iter()
            .all(|n| n.ends_with(".1") || n == ".tablewright-manifest"),
        "{names:?}"
    );
    drop(guard);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 39: `import --to DIR` and `export --to DIR` work in a folder that
/// is writable when the folder holding it is not (a GM's shared content
/// folder): the set is staged inside DIR, then moved in; nothing of the
/// stage is left, a stage a killed run left is removed, the same import
/// again writes nothing, and a changed one needs --force.
#[cfg(unix)]
#[test]
fn import_to_a_writable_folder_in_a_read_only_parent() {
    let dir = temp_dir("import-read-only-parent");
    let shared = dir.join("parent/shared");
    std::fs::create_dir_all(&shared).unwrap();
    std::fs::write(dir.join("loot.csv"), "d4,Result\n1-2,Copper\n3-4,Silver\n").unwrap();
    std::fs::create_dir(shared.join(".tw-stage-00112233aabbccdd")).unwrap();
    std::fs::write(shared.join("mine.toml.bak"), "a GM's file").unwrap();
    let Some(guard) = Unwritable::make(&dir.join("parent")) else {
        eprintln!(
            "skipped: this process writes in a folder of mode 0555 and cannot set the \
             immutable flag (root without CAP_LINUX_IMMUTABLE?), so a read-only parent \
             cannot be made"
        );
        return;
    };
    let to = "parent/shared";
    let o = run_in(&dir, &["import", "loot.csv", "--to", to]);
    assert!(o.status.success(), "{}", stderr(&o));
    let names = |p: &std::path::Path| -> BTreeSet<String> {
        std::fs::read_dir(p)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    };
    let want = |extra: &[&str]| -> BTreeSet<String> {
        [".tablewright-manifest", "loot.toml", "mine.toml.bak"]
            .iter()
            .chain(extra)
            .map(|s| s.to_string())
            .collect()
    };
    assert_eq!(names(&shared), want(&[]));
    let first = std::fs::read(shared.join("loot.toml")).unwrap();
    assert!(String::from_utf8_lossy(&first).contains("Silver"));
    // The same again: nothing to write.
    let o = run_in(&dir, &["import", "loot.csv", "--to", to]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Changed: refused without --force, replaced with it.
    std::fs::write(dir.join("loot.csv"), "d4,Result\n1-2,Copper\n3-4,Gold\n").unwrap();
    let o = run_in(&dir, &["import", "loot.csv", "--to", to]);
    assert!(!o.status.success());
    assert_eq!(std::fs::read(shared.join("loot.toml")).unwrap(), first);
    let o = run_in(&dir, &["--force", "import", "loot.csv", "--to", to]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        String::from_utf8_lossy(&std::fs::read(shared.join("loot.toml")).unwrap()).contains("Gold")
    );
    // `export --to` the same way.
    let o = run_in(
        &dir,
        &["export", "core.injury", "--format", "gfm", "--to", to],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(names(&shared), want(&["core.injury.md"]));
    drop(guard);
    let _ = std::fs::remove_dir_all(&dir);
}
