//! A campaign's ledger: 50 recorded sessions folded over the starting
//! party (every record checked, every rule applied, every roll drawn) —
//! what `campaign`, `prep` and `record` pay before they start. Issue 29
//! asks for under 100 ms.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use tablewright::campaign::ledger::{IssuedVoucher, PackFacts, SessionInput, Start};
use tablewright::campaign::{Folding, RecordFile, fold};
use tablewright::content::Library;
use tablewright::generators::map::{Map, Path as Road, Stop};
use tablewright::seed::Seed;
use tablewright::{Party, RulesSystem};

const SESSIONS: u32 = 50;

/// Ashford (village) —3— Gallows Ford (ford) —1— Kettleby (town).
fn map() -> Map {
    let stop = |id: usize, name: &str, kind: &str| Stop {
        id,
        name: name.into(),
        kind: kind.into(),
        terrain: "road".into(),
        hook: String::new(),
        x: id as f64 * 3.0,
        y: 0.0,
    };
    let road = |a: usize, b: usize, watches: u32| Road {
        a,
        b,
        regions: watches * 2,
        watches,
        days: watches.div_ceil(2),
        terrain: "road".into(),
        difficulty: 1,
        difficulty_word: "Routine".into(),
        encounter_chance: None,
    };
    Map {
        size: 10.0,
        stops: vec![
            stop(0, "Ashford", "village"),
            stop(1, "Gallows Ford", "ford"),
            stop(2, "Kettleby", "town"),
        ],
        paths: vec![road(0, 1, 3), road(1, 2, 1)],
        start: 0,
        goal: 2,
    }
}

fn start(system: RulesSystem, library: &Library) -> Start<'_> {
    // Core: PC 1-3 of STR 12, 10, 11. METTLE: PC 1-3 of every attribute
    // 3, 2, 4 (Mettle 6, 4, 8).
    let summary = match system {
        RulesSystem::Core => "12,10,11",
        RulesSystem::Mettle => "3,2,4",
    };
    let party = Party::from_summary(summary, system).unwrap();
    Start {
        system,
        seed: Seed::new("bench-campaign").unwrap(),
        party,
        stop: None,
        map: Some(map()),
        money: 0,
        stock: None,
        library,
    }
}

/// A pack with two encounters, an NPC and (METTLE) a voucher for PC 1.
fn pack(system: RulesSystem, n: u32) -> PackFacts {
    PackFacts {
        items: ["encounter/1", "encounter/2", "npc/1"]
            .map(String::from)
            .to_vec(),
        vouchers: match system {
            RulesSystem::Mettle => vec![IssuedVoucher {
                serial: format!("BE-{n:04X}-0000"),
                holder: "PC 1".into(),
            }],
            RulesSystem::Core => vec![],
        },
        npcs: vec![tablewright::campaign::ledger::PackNpc {
            address: "npc/1".into(),
            name: format!("Stranger {n}"),
        }],
        ..PackFacts::default()
    }
}

/// Session `n`'s record, starting on `day`: the party moves between
/// Kettleby and Gallows Ford; Core PCs take damage, conditions, an
/// injury every fifth session and corruption (the soulblight check);
/// METTLE's PC 2 falls each session and is healed in downtime while the
/// others take vouchers, one of which is spent the next session.
fn record(system: RulesSystem, n: u32, day: u32) -> String {
    let stop = if !n.is_multiple_of(2) {
        "Kettleby"
    } else {
        "Gallows Ford"
    };
    let mut t = format!(
        "session = {n}\nday = {}\nstop = \"{stop}\"\nmet = [\"encounter/1\"]\nnpcs_met = [\"npc/1\"]\nrations = 3\nwater = 2\n",
        day + 2
    );
    match system {
        RulesSystem::Core => {
            t.push_str("money = 300\n");
            t.push_str("[[pc]]\nname = \"PC 2\"\ndamage = 3\nconditions = [\"frightened\"]\n");
            if n.is_multiple_of(5) {
                t.push_str("injuries = [\"roll\"]\n");
            }
            t.push_str("[[pc]]\nname = \"PC 3\"\ncorruption = 1\n");
        }
        RulesSystem::Mettle => {
            if n > 1 {
                // PC 1's voucher from the last downtime (PC 3, the best
                // CULTURE, healed PC 2 at the table: no voucher).
                t.push_str(&format!("vouchers_spent = [\"BE-S{}-PC1\"]\n", n - 1));
            }
            t.push_str("[[pc]]\nname = \"PC 2\"\ndamage = 8\nheal_edge = 2\n");
            t.push_str("[[pc]]\nname = \"PC 1\"\ndamage = 2\nstatuses = [\"Surprised\"]\n");
        }
    }
    t
}

/// 50 recorded sessions, each record written from the state before it.
fn campaign(start: &Start) -> Vec<SessionInput> {
    let mut folding = Folding::new(start);
    let mut sessions = Vec::new();
    for n in 1..=SESSIONS {
        let day = folding.state().day;
        let text = record(start.system, n, day);
        let path = format!("sessions/{n}/record.toml");
        let s = SessionInput {
            number: n,
            pack: Some(pack(start.system, n)),
            record: Some(RecordFile::from_text(Path::new(&path), text).unwrap()),
        };
        if let Err(problems) = folding.push(&s) {
            panic!("session {n}: {}", problems[0]);
        }
        sessions.push(s);
    }
    sessions
}

fn ledger(c: &mut Criterion) {
    let (library, _) = Library::load(&[]);
    let mut group = c.benchmark_group("ledger");
    for (name, system) in [
        ("50 sessions, Core Rules", RulesSystem::Core),
        ("50 sessions, METTLE", RulesSystem::Mettle),
    ] {
        let start = start(system, &library);
        let sessions = campaign(&start);
        let ledger = fold(&start, &sessions).unwrap();
        assert_eq!(ledger.now.session, SESSIONS + 1);
        group.bench_function(name, |b| {
            b.iter(|| fold(black_box(&start), black_box(&sessions)).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, ledger);
criterion_main!(benches);
