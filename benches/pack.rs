//! The session pack budget: generate and render the sample session to
//! Markdown and to PDF (the README's `prep session.toml`, without the disk).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tablewright::Party;
use tablewright::RulesSystem;
use tablewright::Session;
use tablewright::content::Library;
use tablewright::generators::session as pack;
use tablewright::handouts::markdown::Templates;
use tablewright::handouts::{Fonts, Paper};
use tablewright::handouts::{ShareLine, pack_files, pack_pdf};
use tablewright::seed::Seed;

fn session_pack(c: &mut Criterion) {
    let (library, _) = Library::load(&[]);
    let session: Session = toml::from_str(include_str!("../session.toml")).unwrap();
    let party = Party::from_summary("3,4,4,5", RulesSystem::Mettle).unwrap();
    let seed = Seed::new("goblin-night").unwrap();
    let templates = Templates::load(None).unwrap();
    let fonts = Fonts::load();
    let share = ShareLine {
        seed: "goblin-night".into(),
        options: "bench".into(),
        version: "0".into(),
        format: 2,
        content: "0".into(),
        bundle: "0".into(),
    };
    let mut group = c.benchmark_group("session pack");
    group.sample_size(20);
    group.bench_function("generate + Markdown + PDF", |b| {
        b.iter(|| {
            let pack = pack::generate(&library, &session.request(), &party, &seed).unwrap();
            let files = pack_files(&pack, &templates, &share).unwrap();
            let pdf = pack_pdf(&pack, &share, Paper::A4, false, &fonts, &templates.wording);
            black_box((files, pdf))
        })
    });
    group.bench_function("load tables, templates and fonts", |b| {
        b.iter(|| {
            black_box((
                Library::load(&[]),
                Templates::load(None).unwrap(),
                Fonts::load(),
            ))
        })
    });
    group.finish();
}

fn generators(c: &mut Criterion) {
    use tablewright::generators::{encounter, npc};
    let (library, _) = Library::load(&[]);
    let seed = Seed::new("bench").unwrap();
    let mut group = c.benchmark_group("generators");
    group.sample_size(20);
    group.bench_function("mutation table roll (nested sub-tables)", |b| {
        let mut stream = seed.stream("mutation");
        b.iter(|| black_box(library.roll_table("core.mutation", &mut stream).unwrap()))
    });
    let req = npc::Request {
        system: RulesSystem::Mettle,
        archetype: None,
        tier: None,
        terrain: None,
        people_only: false,
        fits: Vec::new(),
        met: Vec::new(),
        shun: Vec::new(),
        taken: Vec::new(),
        heard: Vec::new(),
    };
    group.bench_function("1,000 NPCs", |b| {
        b.iter(|| {
            (0..1000)
                .map(|i| tablewright::generators::nth(&library, &req, &seed, i).unwrap())
                .collect::<Vec<_>>()
        })
    });
    let req = encounter::Request {
        terrain: "forest".into(),
        system: RulesSystem::Mettle,
        party: Party::from_summary("3,4,4,5", RulesSystem::Mettle).unwrap(),
        pin: encounter::Pin::default(),
        shun: Vec::new(),
        taken: Vec::new(),
        heard: Vec::new(),
        season: Default::default(),
    };
    group.bench_function("100 encounters", |b| {
        b.iter(|| {
            (0..100)
                .map(|i| tablewright::generators::nth(&library, &req, &seed, i).unwrap())
                .collect::<Vec<_>>()
        })
    });
    group.finish();
}

criterion_group!(benches, session_pack, generators);
criterion_main!(benches);
