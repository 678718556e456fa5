//! Loading content is linear: 100,000 rows in one table file, and 10,000
//! tables in one file, read, checked and layered (`validate::build`, what
//! every command with `--content` pays before it starts).

use std::fmt::Write;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tablewright::content::SourceFile;
use tablewright::content::validate::build;

#[path = "../tests/shared/many_rows.rs"]
mod shared;
use shared::many_rows;

/// `tables` small d6 tables, each referring to the next.
fn many_tables(tables: usize) -> String {
    let mut s = String::new();
    for i in 0..tables {
        let next = if i + 1 < tables {
            format!(" then {{table:bench.t{}}}", i + 1)
        } else {
            String::new()
        };
        // Chains of references stay short (validate refuses deep ones).
        let next = if i % 8 == 7 { String::new() } else { next };
        let _ = write!(
            s,
            "[[table]]\nid = \"bench.t{i}\"\ntitle = \"T{i}\"\nsystem = \"any\"\nsource = \"bench\"\ndice = \"d6\"\n\n[[table.row]]\nroll = \"1-3\"\nname = \"Low\"\ntext = \"Low{next}\"\n\n[[table.row]]\nroll = \"4-6\"\nname = \"High\"\ntext = \"High\"\n\n"
        );
    }
    s
}

fn load(c: &mut Criterion) {
    let mut group = c.benchmark_group("load");
    group.sample_size(10);
    for (name, text) in [
        ("100,000 rows", many_rows(100_000)),
        ("10,000 tables", many_tables(10_000)),
    ] {
        let file = SourceFile::new("bench.toml", text, 1);
        let (_, problems) = build(std::slice::from_ref(&file));
        assert!(
            problems.is_empty(),
            "{:?}",
            &problems[..problems.len().min(3)]
        );
        group.bench_function(name, |b| {
            b.iter(|| build(black_box(std::slice::from_ref(&file))))
        });
    }
    group.finish();
}

criterion_group!(benches, load);
criterion_main!(benches);
