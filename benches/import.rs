//! `import` of a Foundry RollTable is linear in its results (issue 39:
//! 20,000 results took 69 s when each result's line was found by scanning
//! the text again). Whole processes of the release build, each
//! `tablewright import many.json --to DIR`: read, convert, validate with
//! the built-in tables and write. Budgets: 20,000 results under 1 s,
//! 100,000 under 3 s. `TW_BENCH_EXE=/path/to/tablewright` measures
//! another build.

use std::path::Path;
use std::process::Command;

use criterion::{Criterion, criterion_group, criterion_main};

/// A RollTable of `n` results as Foundry exports one (one key a line).
fn foundry_table(n: usize) -> String {
    let results: Vec<String> = (1..=n)
        .map(|i| {
            format!(
                "    {{\n      \"_id\": \"r{i:015}\",\n      \"type\": \"text\",\n      \
                 \"text\": \"<p>Result {i}: a <b>few</b> words and [[/r 1d6]] more</p>\",\n      \
                 \"range\": [\n        {i},\n        {i}\n      ],\n      \"weight\": 1,\n      \
                 \"drawn\": false\n    }}"
            )
        })
        .collect();
    format!(
        "{{\n  \"name\": \"Many results\",\n  \"formula\": \"1d{n}\",\n  \"replacement\": true,\n  \
         \"results\": [\n{}\n  ]\n}}\n",
        results.join(",\n")
    )
}

fn import(exe: &str, file: &Path, to: &Path) {
    let out = Command::new(exe)
        .arg("import")
        .arg(file)
        .arg("--to")
        .arg(to)
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn bench(c: &mut Criterion) {
    let exe = std::env::var("TW_BENCH_EXE")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_tablewright").to_owned());
    let dir = std::env::temp_dir().join(format!("tw-bench-import-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut group = c.benchmark_group("import");
    group.sample_size(10);
    for n in [20_000, 100_000] {
        let file = dir.join(format!("many-{n}.json"));
        std::fs::write(&file, foundry_table(n)).unwrap();
        let to = dir.join(format!("to-{n}"));
        group.bench_function(format!("Foundry, {n} results"), |b| {
            b.iter(|| import(&exe, &file, &to))
        });
    }
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench);
criterion_main!(benches);
