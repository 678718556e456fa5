//! Speed budgets of the dice engine (see the README's "Speed" section):
//! parse+roll throughput, the exact METTLE success table, and the whole
//! `tablewright roll 3d6` process.

use std::hint::black_box;
use std::process::Command;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tablewright::dice::{self, Expr, odds::success_table};
use tablewright::seed::Seed;

fn parse_and_roll(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse+roll");
    group.throughput(Throughput::Elements(1));
    for text in ["3d6", "2d6+4", "4d6kh3", "d6!", "6D vs 6", "3D+3"] {
        let mut stream = Seed::new("bench").unwrap().stream("");
        group.bench_function(text, |b| {
            b.iter(|| {
                let expr = dice::parse(black_box(text)).unwrap();
                match &expr {
                    // Tables and generators only need the number: the
                    // allocation-free path.
                    Expr::Roll(r) => r.total(&mut stream),
                    other => dice::roll(other, &mut stream).value(),
                }
            })
        });
    }
    group.finish();
}

fn roll_with_record(c: &mut Criterion) {
    let mut stream = Seed::new("bench").unwrap().stream("");
    let expr = dice::parse("3d6").unwrap();
    c.bench_function("roll 3d6 with every die recorded", |b| {
        b.iter(|| dice::roll(black_box(&expr), &mut stream))
    });
}

fn exact_tables(c: &mut Criterion) {
    c.bench_function(
        "exact METTLE success table, pools 1-20 x Difficulty 0-30",
        |b| b.iter(|| success_table(black_box(20), black_box(30))),
    );
    let twist = dice::parse("6D vs 6 raise 1 twist").unwrap();
    c.bench_function("exact odds 6D vs 6 raise 1 twist", |b| {
        b.iter(|| dice::odds(black_box(&twist)).unwrap())
    });
}

fn whole_process(c: &mut Criterion) {
    let exe = env!("CARGO_BIN_EXE_tablewright");
    let mut group = c.benchmark_group("process");
    group.sample_size(30);
    group.bench_function("tablewright roll 3d6", |b| {
        b.iter(|| {
            let status = Command::new(exe)
                .args(["roll", "--seed", "bench", "3d6"])
                .stdout(std::process::Stdio::null())
                .status()
                .unwrap();
            assert!(status.success());
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    parse_and_roll,
    roll_with_record,
    exact_tables,
    whole_process
);
criterion_main!(benches);
