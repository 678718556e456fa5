//! Issue 32's points, each measured (see the README's "Speed" section):
//! the built-in tables loaded from their compact form against checking the
//! TOML (what every table command paid before), whole `tablewright`
//! processes of every table command against `roll`, the whole METTLE odds
//! grid in the library and as one `check 1-20 --vs 0-30` process,
//! `gen npc --jsonl` streaming, and a 100,000-row `--content` table read
//! in the library and rolled once by a whole process (its peak memory is
//! measured with `/usr/bin/time -v`: see CONTRIBUTING.md).
//!
//! `TW_BENCH_EXE=/path/to/tablewright cargo bench --features bench --bench speed` runs the
//! process benchmarks on another build (an older one, for before/after).

use std::hint::black_box;
use std::process::{Command, Stdio};

use criterion::{Criterion, criterion_group, criterion_main};
use tablewright::content::validate::build;
use tablewright::content::{Library, SourceFile, builtin_files};
use tablewright::dice::odds::check_grid;
use tablewright::dice::{self, Expr};

fn builtin_tables(c: &mut Criterion) {
    let mut group = c.benchmark_group("built-in tables");
    group.sample_size(20);
    group.bench_function("compact form (Library::load)", |b| {
        b.iter(|| Library::load(black_box(&[])))
    });
    let files = builtin_files();
    group.bench_function("TOML parsed and checked (before)", |b| {
        b.iter(|| build(black_box(&files)))
    });
    group.finish();
}

fn grid(c: &mut Criterion) {
    let Ok(Expr::Pool(pool)) = dice::parse("1D vs 0") else {
        panic!("a Check")
    };
    c.bench_function("check grid, pools 1-20 x Difficulties 0-30", |b| {
        b.iter(|| check_grid(black_box(&pool), (1, 20), (0, 30)).unwrap())
    });
}

#[path = "../tests/shared/many_rows.rs"]
mod shared;
use shared::many_rows;

/// A folder holding the 100,000-row table (10.2 MB of TOML).
fn big_table_folder() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tw-bench-rows-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("rows.toml"), many_rows(100_000)).unwrap();
    dir
}

fn big_table(c: &mut Criterion) {
    let mut group = c.benchmark_group("100,000-row table");
    group.sample_size(10);
    let file = SourceFile::new("rows.toml", many_rows(100_000), 1);
    group.bench_function("read and checked (validate::build)", |b| {
        b.iter(|| build(black_box(std::slice::from_ref(&file))))
    });
    group.finish();
}

fn processes(c: &mut Criterion) {
    let exe = std::env::var("TW_BENCH_EXE")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_tablewright").to_owned());
    let mut group = c.benchmark_group("process");
    group.sample_size(20);
    let commands: &[&[&str]] = &[
        &["roll", "--seed", "bench", "3d6"],
        &["tables"],
        &["table", "core.injury", "--seed", "bench"],
        &["gen", "npc", "--seed", "bench"],
        &["gen", "encounter", "--seed", "bench"],
        &["odds", "--table", "core.mutation"],
        &["validate"],
        &["check", "1-20", "--vs", "0-30"],
        &[
            "gen", "npc", "--seed", "bench", "--count", "10000", "--jsonl",
        ],
    ];
    let run = |args: &[&str]| {
        Command::new(&exe)
            .args(args)
            .current_dir(std::env::temp_dir())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap()
            .success()
    };
    for args in commands {
        // An older build lacks the newer commands: those are left out.
        if !run(args) {
            eprintln!("{exe}: `{}` fails; not measured", args.join(" "));
            continue;
        }
        group.bench_function(args.join(" "), |b| b.iter(|| assert!(run(args))));
    }
    let big = big_table_folder();
    let content = big.display().to_string();
    let args: &[&str] = &[
        "--content",
        &content,
        "table",
        "bench.rows",
        "--seed",
        "bench",
    ];
    group.sample_size(10);
    group.bench_function("table bench.rows (100,000 rows)", |b| {
        b.iter(|| assert!(run(args)))
    });
    group.finish();
    let _ = std::fs::remove_dir_all(big);
}

criterion_group!(benches, builtin_tables, grid, big_table, processes);
criterion_main!(benches);
