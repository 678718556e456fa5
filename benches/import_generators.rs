//! Issue 41: `import` of a 20,000-row file of each generator format
//! (Inspiration Pad Pro, TableSmith, Perchance, an Obsidian Dice Roller
//! note), each read into drafts and written as TOML
//! (the reader, in the library), and imported whole by a `tablewright
//! import` process (read, validated with the built-in tables, written):
//! each under a second. The rows call tables, roll dice and pick, so every
//! path of each reader is taken.

use std::fmt::Write;
use std::hint::black_box;
use std::process::Command;

use criterion::{Criterion, criterion_group, criterion_main};
use tablewright::app::fuzzing;

const ROWS: usize = 20_000;

/// An IPP file: a main table of `ROWS` weighted rows calling two small
/// tables, with inline choices and dice.
fn ipt() -> String {
    let mut s = String::from("Table: Main\n");
    for i in 0..ROWS {
        let _ = writeln!(
            s,
            "{}:row {i} [@Beast] with [|a|b|c] and {{2d6}} [@2 Loot]",
            i % 5 + 1
        );
    }
    s.push_str(
        "\nTable: Beast\nType: Lookup\nRoll: 1d6\n1-3:boar\n4-6:bear\n\nTable: Loot\ncoins\ngems\n",
    );
    s
}

/// A TableSmith file: a ranged group of `ROWS` rows calling a weighted one.
fn tab() -> String {
    let mut s = String::from(":Start\n");
    for i in 0..ROWS {
        let _ = writeln!(s, "{},row {i} [Beast] with {{Dice~2d6}} [Beast]:2", i + 1);
    }
    s.push_str(";Beast\n2,boar\n1,bear\n");
    s
}

/// A Perchance generator: a list of `ROWS` weighted items with
/// references, choices, ranges and a sublist.
fn perchance() -> String {
    let mut s = String::from("main\n");
    for i in 0..ROWS {
        let _ = writeln!(
            s,
            "\trow {i} [beast] with {{a|b^2|c}} and {{1-6}} [beast.wild] ^{}",
            i % 5 + 1
        );
    }
    s.push_str("\nbeast\n\tboar\n\twild\n\t\tbear ^2\n\t\twolf\n");
    s
}

/// An Obsidian note: a `dice:` table of `ROWS` rows rolling dice and
/// another table of the note.
fn obsidian() -> String {
    let mut s = format!("| dice: 1d{ROWS} | Result |\n| --- | --- |\n");
    for i in 1..=ROWS {
        let _ = writeln!(s, "| {i} | row {i} `dice: 2d6` `dice: [[#^beast]]` |");
    }
    s.push_str("\n^main\n\n| Beast |\n| --- |\n| boar |\n| bear |\n\n^beast\n");
    s
}

fn import(c: &mut Criterion) {
    let mut group = c.benchmark_group("import 20,000 rows");
    group.sample_size(10);
    let exe = env!("CARGO_BIN_EXE_tablewright");
    let dir = std::env::temp_dir().join(format!("tw-bench-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in [
        ("big.ipt", ipt()),
        ("big.tab", tab()),
        ("big.perchance", perchance()),
        ("big.md", obsidian()),
    ] {
        let obsidian = name.ends_with(".md");
        group.bench_function(format!("{name}: read into TOML"), |b| {
            b.iter(|| match obsidian {
                true => fuzzing::import_obsidian(black_box(&text)),
                false => fuzzing::import(black_box(name), black_box(&text)),
            })
        });
        std::fs::write(dir.join(name), &text).unwrap();
        let mut args = vec!["import", name, "--to", "out", "--force"];
        if obsidian {
            args.extend(["--from", "obsidian"]);
        }
        group.bench_function(format!("{name}: tablewright import (process)"), |b| {
            b.iter(|| {
                let o = Command::new(exe)
                    .current_dir(&dir)
                    .args(&args)
                    .output()
                    .unwrap();
                assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            })
        });
    }
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, import);
criterion_main!(benches);
