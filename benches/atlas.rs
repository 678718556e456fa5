//! The atlas budget (issue 30): a region of 300 stops generated, and its
//! GM's and players' atlas laid out and written as PDF, on A4 and on
//! letter.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tablewright::content::Library;
use tablewright::generators::{Address, Generator, map};
use tablewright::handouts::map_pdf;
use tablewright::handouts::{Fonts, Paper};
use tablewright::seed::Seed;

fn atlas(c: &mut Criterion) {
    let (library, _) = Library::load(&[]);
    let seed = Seed::new("atlas-bench").unwrap();
    let fonts = Fonts::load();
    let req = map::Request {
        stops: 300,
        terrains: Vec::new(),
    };
    let at = Address::new(map::Request::KIND, 0);
    let mut group = c.benchmark_group("atlas");
    group.sample_size(10);
    group.bench_function("300-stop map", |b| {
        b.iter(|| black_box(req.make(&library, &seed, &at).unwrap()))
    });
    for paper in [Paper::A4, Paper::Letter] {
        group.bench_function(format!("300-stop map + atlas PDF ({paper:?})"), |b| {
            b.iter(|| {
                let m = req.make(&library, &seed, &at).unwrap();
                black_box(map_pdf(&m, "atlas", "bench".into(), paper, &fonts))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, atlas);
criterion_main!(benches);
