//! The ledger's rules with exact figures, and one refusal per check, each
//! pinned to its message and line.

use std::path::Path;
use std::sync::OnceLock;

use super::*;
use crate::campaign::record::RecordFile;
use crate::generators::map::{Path as Road, Stop};
use crate::generators::{injury, mutation, nth};
use crate::rules::core::Sheet;
use crate::rules::mettle::StatBlock;
use crate::seed::DieSource;

fn library() -> &'static Library {
    static L: OnceLock<Library> = OnceLock::new();
    L.get_or_init(crate::content::test_library)
}

const SEED: &str = "ledger-test";

/// Ashford (village) —3 watches— Gallows Ford (ford) —1— Kettleby (town),
/// Ashford —5— Kettleby; Old Keep (ruin) on no road.
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
            stop(3, "Old Keep", "ruin"),
        ],
        paths: vec![road(0, 1, 3), road(1, 2, 1), road(0, 2, 5)],
        start: 0,
        goal: 2,
    }
}

fn sheet(name: &str, str_: i64, agi: i64, wit: i64) -> Sheet {
    Sheet {
        name: name.into(),
        human: true,
        STR: str_,
        AGI: agi,
        WIT: wit,
        health: None,
        armour: 1,
        damage: "d6".into(),
        weapon: None,
        omens: 2,
        max_omens: 2,
        corruption: 0,
        skills: vec![],
        traits: vec![],
        conditions: vec![],
    }
}

fn block(name: &str, [n, c, p, m, f]: [u32; 5]) -> StatBlock {
    StatBlock {
        name: name.into(),
        NATURE: n,
        CULTURE: c,
        POISE: p,
        MOTIVE: m,
        FRAME: f,
        callings: vec![],
        armor: 1,
        weapons: vec![],
        speed: 1,
        statuses: vec![],
    }
}

fn core_start(money: i64) -> Start<'static> {
    Start {
        system: RulesSystem::Core,
        seed: Seed::new(SEED).unwrap(),
        party: Party {
            mettle: vec![],
            core: vec![sheet("Balthasar", 10, 10, 10), sheet("Sybilla", 8, 10, 12)],
            water_capacity: None,
        },
        stop: None,
        map: Some(map()),
        money,
        stock: None,
        library: library(),
    }
}

/// Ada (Mettle 3 + 4 = 7, CULTURE 3), Brannoc (7, CULTURE 2), Cress (8,
/// CULTURE 4).
fn mettle_start(seed: &str) -> Start<'static> {
    Start {
        system: RulesSystem::Mettle,
        seed: Seed::new(seed).unwrap(),
        party: Party {
            mettle: vec![
                block("Ada", [3, 3, 4, 3, 2]),
                block("Brannoc", [4, 2, 2, 3, 4]),
                block("Cress", [2, 4, 3, 4, 2]),
            ],
            core: vec![],
            water_capacity: None,
        },
        stop: None,
        map: Some(map()),
        money: 0,
        stock: None,
        library: library(),
    }
}

/// Session 1's pack: two encounters, an NPC, an `Injured leg` slip, a
/// mutation slip and a voucher for Ada.
fn pack() -> PackFacts {
    let seed = Seed::new("ledger-test/session/1").unwrap();
    let leg = injury::Request {
        character: None,
        permanent: false,
        name: Some("Injured leg".into()),
    };
    PackFacts {
        items: [
            "encounter/1",
            "encounter/2",
            "npc/1",
            "voucher/1",
            "injury/1",
            "mutation/1",
        ]
        .map(String::from)
        .to_vec(),
        vouchers: vec![IssuedVoucher {
            serial: "LE-1111-2222".into(),
            holder: "Ada".into(),
        }],
        injuries: vec![Slip {
            address: "injury/1".into(),
            item: nth(library(), &leg, &seed, 0).unwrap(),
        }],
        mutations: vec![Slip {
            address: "mutation/1".into(),
            item: nth(library(), &mutation::Request::default(), &seed, 0).unwrap(),
        }],
        npcs: vec![PackNpc {
            address: "npc/1".into(),
            name: "Mara Voss".into(),
        }],
        people: vec![PackNpc {
            address: "encounter/2".into(),
            name: "Osric Vell".into(),
        }],
        legs: ["Ashford", "Gallows Ford", "Kettleby"]
            .map(String::from)
            .to_vec(),
        start_digest: None,
    }
}

fn record(n: u32, text: &str) -> RecordFile {
    RecordFile::from_text(
        Path::new(&format!("sessions/{n}/record.toml")),
        text.to_owned(),
    )
    .unwrap()
}

fn played(n: u32, text: &str) -> SessionInput {
    SessionInput {
        number: n,
        pack: Some(pack()),
        record: Some(record(n, text)),
    }
}

fn prepped(n: u32) -> SessionInput {
    SessionInput {
        number: n,
        pack: Some(pack()),
        record: None,
    }
}

/// Every change of session `n` as `who: what`.
fn said(ledger: &Ledger, n: u32) -> Vec<String> {
    ledger
        .session(n)
        .unwrap()
        .changes
        .iter()
        .map(|c| format!("{}: {}", c.who, c.what))
        .collect()
}

fn rules_of(ledger: &Ledger, n: u32, who: &str) -> Vec<String> {
    ledger
        .session(n)
        .unwrap()
        .changes
        .iter()
        .filter(|c| c.who == who)
        .map(|c| c.rule.clone())
        .collect()
}

fn core_pc<'a>(state: &'a State, name: &str) -> &'a crate::campaign::state::CorePc {
    state.pc(name).unwrap().core().unwrap()
}

fn mettle_pc<'a>(state: &'a State, name: &str) -> &'a crate::campaign::state::MettlePc {
    state.pc(name).unwrap().mettle().unwrap()
}

/// The first line of each refusal.
fn refused(start: &Start, sessions: &[SessionInput]) -> Vec<String> {
    match fold(start, sessions) {
        Ok(_) => panic!("the records were accepted"),
        Err(problems) => problems
            .iter()
            .map(|d| d.to_string().lines().next().unwrap().to_owned())
            .collect(),
    }
}

// ----- Core Rules -----

#[test]
fn a_full_rest_costs_32_plus_16_for_each_condition_it_clears() {
    let start = core_start(0);
    let ledger = fold(
        &start,
        &[
            played(
                1,
                r#"session = 1
day = 3
stop = "Kettleby"
money = 200

[[pc]]
name = "Sybilla"
damage = 3
conditions = ["frightened"]
injuries = ["injury/1"]
"#,
            ),
            prepped(2),
        ],
    )
    .unwrap();
    let said = said(&ledger, 1);
    // Sybilla clears frightened and hobbled: 32 + 16 × 2 = 64; Balthasar 32.
    assert!(
        said.contains(&"Sybilla: full rest: 64ʂ (32ʂ + 16ʂ × 2 conditions)".into()),
        "{said:#?}"
    );
    assert!(
        said.contains(&"Balthasar: full rest: 32ʂ (32ʂ + 16ʂ × 0 conditions)".into()),
        "{said:#?}"
    );
    assert!(
        said.contains(
            &"Sybilla: health 5 → 8, cleared frightened, hobbled, injuries healed: Injured leg"
                .into()
        ),
        "{said:#?}"
    );
    assert!(
        said.contains(
            &"party: a week of full rest at Kettleby: 96ʂ (money 200ʂ → 104ʂ), day 3 → 10".into()
        ),
        "{said:#?}"
    );
    let now = ledger.state_before(2).unwrap();
    assert_eq!((now.money, now.day), (104, 10));
    let sybilla = core_pc(now, "Sybilla");
    assert_eq!(sybilla.health(), 8);
    assert!(sybilla.sheet.conditions.is_empty());
    assert!(sybilla.injuries.is_empty());
    assert_eq!(now.visited, ["Ashford", "Gallows Ford", "Kettleby"]);
    assert!(rules_of(&ledger, 1, "Sybilla").contains(&rule::FULL_REST.to_owned()));
}

#[test]
fn in_the_wild_or_without_the_money_the_party_carries_its_state() {
    let wild = fold(
        &core_start(500),
        &[played(
            1,
            "session = 1\nday = 3\nstop = \"Gallows Ford\"\n[[pc]]\nname = \"Sybilla\"\ndamage = 3\nconditions = [\"frightened\"]\n",
        )],
    )
    .unwrap();
    assert!(said(&wild, 1).contains(
        &"party: no full rest: Gallows Ford is not a settlement, so everyone carries their state".into()
    ));
    let now = &wild.now;
    assert_eq!((now.money, now.day), (500, 3));
    assert_eq!(core_pc(now, "Sybilla").health(), 5);
    assert_eq!(core_pc(now, "Sybilla").sheet.conditions, ["frightened"]);
    let poor = fold(
        &core_start(0),
        &[played(
            1,
            "session = 1\nday = 3\nstop = \"Kettleby\"\nmoney = 40\n[[pc]]\nname = \"Sybilla\"\ndamage = 3\nconditions = [\"frightened\"]\n",
        )],
    )
    .unwrap();
    assert!(said(&poor, 1).contains(
        &"party: no full rest: it costs 80ʂ (32ʂ Balthasar, 32ʂ + 16ʂ × 1 Sybilla), the party has 40ʂ; everyone carries their state".into()
    ), "{:#?}", said(&poor, 1));
    assert_eq!((poor.now.money, poor.now.day), (40, 3));
    assert_eq!(core_pc(&poor.now, "Sybilla").health(), 5);
}

#[test]
fn soulblight_on_a_d12_at_or_under_the_corruption() {
    // Sybilla's d12 from `ledger-test` at record/1/Sybilla/soulblight/0
    // is a 2.
    let roll = Seed::new(SEED)
        .unwrap()
        .stream("record/1/Sybilla/soulblight/0")
        .die(12);
    assert_eq!(roll, 2);
    let sybilla = |corruption: u32| {
        fold(
            &core_start(0),
            &[played(
                1,
                &format!("session = 1\nday = 2\nstop = \"Gallows Ford\"\n[[pc]]\nname = \"Sybilla\"\ncorruption = {corruption}\n"),
            )],
        )
        .unwrap()
    };
    // 1 corruption: the 2 is above it, nothing happens.
    let none = sybilla(1);
    assert!(
        said(&none, 1).contains(
            &"Sybilla: corruption 0 + 1 = 1; soulblight check d12 = 2, above 1: no soulblight"
                .into()
        ),
        "{:#?}",
        said(&none, 1)
    );
    let s = core_pc(&none.now, "Sybilla");
    assert_eq!((s.sheet.corruption, s.health()), (1, 8));
    // 2 corruption: the 2 is at or under it — 2 direct damage, corruption
    // 2 − 2 = 0; 2 of 8 health is not critical, so no mutation.
    let blight = sybilla(2);
    assert!(said(&blight, 1).contains(
        &"Sybilla: corruption 0 + 2 = 2; soulblight check d12 = 2, at or under 2: soulblight — 2 direct damage (health 8 → 6), corruption 2 → 0".into()
    ), "{:#?}", said(&blight, 1));
    let s = core_pc(&blight.now, "Sybilla");
    assert_eq!((s.sheet.corruption, s.health()), (0, 6));
    assert!(s.mutations.is_empty());
    assert_eq!(rules_of(&blight, 1, "Sybilla")[0], rule::SOULBLIGHT);
}

#[test]
fn critical_damage_from_soulblight_brings_a_permanent_mutation() {
    // Balthasar (health 10) suffers 12 corruption and rolls a 12: 12
    // direct damage, enough to kill on the spot — a mutation, and an omen
    // spent to cheat death (health 1, a permanent injury).
    let ledger = fold(
        &core_start(0),
        &[played(
            1,
            "session = 1\nday = 2\nstop = \"Gallows Ford\"\n[[pc]]\nname = \"Balthasar\"\ncorruption = 12\n",
        )],
    )
    .unwrap();
    let said = said(&ledger, 1);
    assert_eq!(
        said[2],
        "Balthasar: corruption 0 + 12 = 12; soulblight check d12 = 12, at or under 12: soulblight — 12 direct damage (health 10 → 0: enough to kill on the spot), corruption 12 → 0"
    );
    assert!(
        said.contains(&"Balthasar: spent an omen to cheat death: omens 2 → 1, health 0 → 1".into()),
        "{said:#?}"
    );
    let b = core_pc(&ledger.now, "Balthasar");
    assert_eq!(b.mutations.len(), 1, "{said:#?}");
    assert_eq!(b.mutations[0].from, "soulblight");
    assert!(b.mutations[0].permanent);
    assert_eq!(b.injuries.len(), 1);
    assert!(b.injuries[0].permanent);
    assert_eq!(b.sheet.omens, 1);
    assert!(ledger.now.pc("Balthasar").unwrap().is_present());
    let rules = rules_of(&ledger, 1, "Balthasar");
    assert!(rules.contains(&rule::SOULBLIGHT_MUTATION.to_owned()));
    assert!(rules.contains(&rule::OMEN_SAVE.to_owned()));
}

#[test]
fn a_funeral_is_halved_with_the_remains_and_paid_by_the_full_rest() {
    let ledger = fold(
        &core_start(300),
        &[played(
            1,
            "session = 1\nday = 3\nstop = \"Kettleby\"\n[[pc]]\nname = \"Balthasar\"\nfate = \"dead\"\nremains = true\n",
        )],
    )
    .unwrap();
    let said = said(&ledger, 1);
    assert!(said.contains(&"party: a funeral for Balthasar is due by the next full rest: 256ʂ (512ʂ halved: the remains were brought back)".into()), "{said:#?}");
    assert!(
        said.contains(&"party: paid 256ʂ for Balthasar's funeral (money 300ʂ → 44ʂ)".into()),
        "{said:#?}"
    );
    assert!(
        said.contains(
            &"party: a week of full rest at Kettleby: 32ʂ (money 44ʂ → 12ʂ), day 3 → 10".into()
        ),
        "{said:#?}"
    );
    assert_eq!(ledger.now.money, 12);
    assert!(ledger.now.funerals_due.is_empty());
    assert_eq!(core_pc(&ledger.now, "Sybilla").sheet.max_omens, 2);
}

#[test]
fn an_unpaid_funeral_costs_every_other_pc_an_omen_for_good() {
    let ledger = fold(
        &core_start(100),
        &[played(
            1,
            "session = 1\nday = 3\nstop = \"Kettleby\"\n[[pc]]\nname = \"Balthasar\"\nfate = \"dead\"\n",
        )],
    )
    .unwrap();
    let said = said(&ledger, 1);
    assert!(
        said.contains(
            &"Sybilla: Balthasar's funeral (512ʂ) unpaid: maximum omens 2 → 1 for good".into()
        ),
        "{said:#?}"
    );
    let s = core_pc(&ledger.now, "Sybilla");
    assert_eq!((s.sheet.omens, s.sheet.max_omens), (1, 1));
    assert_eq!(ledger.now.money, 68);
    // In the wild, the funeral waits for the next full rest.
    let waiting = fold(
        &core_start(100),
        &[played(
            1,
            "session = 1\nday = 3\nstop = \"Gallows Ford\"\n[[pc]]\nname = \"Balthasar\"\nfate = \"dead\"\n",
        )],
    )
    .unwrap();
    assert_eq!(waiting.now.funerals_due.len(), 1);
    assert_eq!(waiting.now.funerals_due[0].cost, 512);
    assert_eq!(core_pc(&waiting.now, "Sybilla").sheet.max_omens, 2);
}

// ----- METTLE -----

#[test]
fn mettle_above_zero_refills_and_at_zero_or_below_stays_until_healed() {
    let ledger = fold(
        &mettle_start(SEED),
        &[played(
            1,
            "session = 1\nday = 2\nstop = \"Gallows Ford\"\n[[pc]]\nname = \"Ada\"\ndamage = 3\n[[pc]]\nname = \"Brannoc\"\ndamage = 9\nheal_edge = 0\n",
        )],
    )
    .unwrap();
    let said = said(&ledger, 1);
    assert!(
        said.contains(&"Ada: Mettle 7 → 4 (3 lost)".into()),
        "{said:#?}"
    );
    assert!(said.contains(&"Ada: Mettle 4 → 7".into()), "{said:#?}");
    assert!(
        said.contains(&"Brannoc: stable, but no Edge: Mettle stays at -2 until healed".into()),
        "{said:#?}"
    );
    assert!(
        said.contains(&"Brannoc: Mettle stays at -2: the PC sits out until healed".into()),
        "{said:#?}"
    );
    assert_eq!(mettle_pc(&ledger.now, "Ada").mettle, 7);
    assert_eq!(mettle_pc(&ledger.now, "Brannoc").mettle, -2);
    assert!(rules_of(&ledger, 1, "Ada").contains(&rule::METTLE_REFILL.to_owned()));
}

#[test]
fn each_edge_of_the_heal_restores_a_point_a_day_and_the_others_take_vouchers() {
    let ledger = fold(
        &mettle_start(SEED),
        &[played(
            1,
            "session = 1\nday = 2\nstop = \"Gallows Ford\"\n[[pc]]\nname = \"Brannoc\"\ndamage = 9\nheal_edge = 2\n",
        )],
    )
    .unwrap();
    let said = said(&ledger, 1);
    // −2 needs 3 points: 2 days at 2 a day → 2, then a new Scene refills.
    assert!(
        said.contains(&"Brannoc: Mettle -2 → 2 after 2 days' rest (Edge 2: 2 a day)".into()),
        "{said:#?}"
    );
    assert!(
        said.contains(&"party: downtime: 2 days (day 2 → 4)".into()),
        "{said:#?}"
    );
    assert!(said.contains(&"Brannoc: Mettle 2 → 7".into()), "{said:#?}");
    assert!(
        said.contains(&"Ada: took Downtime Voucher LE-S1-ADA".into()),
        "{said:#?}"
    );
    // Cress (the best CULTURE) made the Heal at the table: tied up in
    // it, no voucher (issue 51, finding 7).
    assert!(
        !said
            .iter()
            .any(|s| s.starts_with("Cress: took Downtime Voucher")),
        "{said:#?}"
    );
    assert_eq!(ledger.now.day, 4);
    assert_eq!(mettle_pc(&ledger.now, "Brannoc").mettle, 7);
}

#[test]
fn the_heal_check_in_downtime_is_cultures_dice_against_3() {
    // Cress (CULTURE 4) heals Brannoc: 4D from record/1/Brannoc/heal/0.
    for (seed, success) in [(HEAL_PASSES, true), (HEAL_FAILS, false)] {
        let ledger = fold(
            &mettle_start(seed),
            &[played(
                1,
                "session = 1\nday = 2\nstop = \"Gallows Ford\"\n[[pc]]\nname = \"Brannoc\"\ndamage = 9\n",
            )],
        )
        .unwrap();
        let said = said(&ledger, 1);
        let check = said
            .iter()
            .find(|s| s.starts_with("Brannoc: Heal Check by Cress: 4D vs 3"))
            .unwrap_or_else(|| panic!("{said:#?}"));
        assert_eq!(
            check,
            if success {
                "Brannoc: Heal Check by Cress: 4D vs 3, 55.32% to live (86.33% with a Twist) — dice [4, 3, 1, 4], Score 4, Edge 2: success"
            } else {
                "Brannoc: Heal Check by Cress: 4D vs 3, 55.32% to live (86.33% with a Twist) — dice [4, 1, 1, 5], Score 2, Edge 2: failure with Edge, so a Twist (Wasted supplies: Bandages, drugs or surgical tools are used up or ruined in the effort.) rerolls the Edge dice [4, 6] → Score 2, Edge 2: failure"
            }
        );
        let brannoc = ledger.now.pc("Brannoc").unwrap();
        if success {
            assert!(check.ends_with("success"), "{check}");
            assert!(brannoc.is_present());
            // Cress was involved: only Ada takes a voucher.
            assert_eq!(ledger.now.vouchers.iter().filter(|v| v.downtime).count(), 1);
        } else {
            assert!(check.ends_with("failure"), "{check}");
            assert!(said.contains(&"Brannoc: died: the Heal Check failed".into()));
            assert_eq!(brannoc.presence, crate::campaign::state::Presence::Dead);
            assert!(ledger.now.funerals_due.is_empty(), "METTLE has no funerals");
        }
    }
}

/// Seeds whose Heal Check for Brannoc passes, and fails even with the
/// Twist.
const HEAL_PASSES: &str = "heal-1";
const HEAL_FAILS: &str = "heal-5";

#[test]
fn voucher_serials_name_session_and_holder_and_spent_vouchers_retire() {
    let one = "session = 1\nday = 2\nstop = \"Gallows Ford\"\n[[pc]]\nname = \"Brannoc\"\ndamage = 9\nheal_edge = 3\n";
    let two = "session = 2\nday = 5\nvouchers_spent = [\"LE-S1-ADA\"]\n[[pc]]\nname = \"Ada\"\ndamage = 8\nheal_edge = 1\n";
    let mut second = played(2, two);
    second.pack.as_mut().unwrap().vouchers.clear();
    let ledger = fold(&mettle_start(SEED), &[played(1, one), second]).unwrap();
    let serials = |s: &State| {
        s.vouchers
            .iter()
            .map(|v| v.serial.clone())
            .collect::<Vec<_>>()
    };
    // Cress (the best CULTURE) healed Brannoc at the table: no voucher.
    assert_eq!(
        serials(ledger.state_before(2).unwrap()),
        ["LE-1111-2222", "LE-S1-ADA"]
    );
    // Session 2: Ada spends LE-S1-ADA and falls, healed by Cress; Brannoc
    // takes session 2's, its serial naming its session and holder.
    assert_eq!(serials(&ledger.now), ["LE-1111-2222", "LE-S2-BRANNO"]);
    assert_eq!(ledger.now.spent[0].serial, "LE-S1-ADA");
    assert_eq!(ledger.now.downtime_vouchers, 2);
    assert!(said(&ledger, 2).contains(&"Ada: spent voucher LE-S1-ADA".into()));
}

#[test]
fn statuses_carry_or_clear_as_the_status_rules_say() {
    let ledger = fold(
        &mettle_start(SEED),
        &[played(
            1,
            "session = 1\nday = 2\n[[pc]]\nname = \"Ada\"\nstatuses = [\"Afflicted\", \"Surprised\", \"Rattled\"]\n",
        )],
    )
    .unwrap();
    assert_eq!(mettle_pc(&ledger.now, "Ada").block.statuses, ["Afflicted"]);
    assert!(
        said(&ledger, 1)
            .contains(&"Ada: Surprised clears: next Scene, they are no longer Surprised".into())
    );
}

// ----- Refusals -----

#[test]
fn a_voucher_spent_twice_or_never_held_is_refused() {
    let start = mettle_start(SEED);
    assert_eq!(
        refused(
            &start,
            &[played(
                1,
                "session = 1\nday = 1\nvouchers_spent = [\"LE-1111-2222\", \"LE-1111-2222\"]\n"
            )]
        ),
        ["sessions/1/record.toml:3:35: voucher LE-1111-2222 is spent twice"]
    );
    assert_eq!(
        refused(
            &start,
            &[played(
                1,
                "session = 1\nday = 1\nvouchers_spent = [\"LE-1111-2223\"]\n"
            )]
        ),
        [
            "sessions/1/record.toml:3:19: voucher LE-1111-2223 was never held: no voucher in hand has that serial"
        ]
    );
    let spent = "session = 1\nday = 1\nvouchers_spent = [\"LE-1111-2222\"]\n";
    let again = "session = 2\nday = 1\nvouchers_spent = [\"LE-1111-2222\"]\n";
    let mut second = played(2, again);
    second.pack.as_mut().unwrap().vouchers.clear();
    assert_eq!(
        refused(&start, &[played(1, spent), second]),
        ["sessions/2/record.toml:3:19: voucher LE-1111-2222 was already spent in session 1"]
    );
}

#[test]
fn a_pc_not_in_the_party_is_refused() {
    assert_eq!(
        refused(
            &core_start(0),
            &[played(
                1,
                "session = 1\nday = 1\n\n[[pc]]\nname = \"Sybila\"\n"
            )]
        ),
        ["sessions/1/record.toml:5:8: Sybila is not in the party"]
    );
}

#[test]
fn an_injury_or_mutation_that_does_not_exist_is_refused() {
    let start = core_start(0);
    assert_eq!(
        refused(
            &start,
            &[played(
                1,
                "session = 1\nday = 1\n[[pc]]\nname = \"Sybilla\"\ninjuries = [\"injury/1\", \"injury/4\"]\n"
            )]
        ),
        ["sessions/1/record.toml:5:25: the pack of session 1 has no injury slip `injury/4`"]
    );
    assert_eq!(
        refused(
            &start,
            &[played(
                1,
                "session = 1\nday = 1\n[[pc]]\nname = \"Sybilla\"\ninjuries = [\"Broken leg\"]\n"
            )]
        ),
        ["sessions/1/record.toml:5:13: no injury `Broken leg` in the injury table"]
    );
    assert_eq!(
        refused(
            &start,
            &[played(
                1,
                "session = 1\nday = 1\n[[pc]]\nname = \"Sybilla\"\nmutations = [\"mutation/2\"]\n"
            )]
        ),
        ["sessions/1/record.toml:5:14: the pack of session 1 has no mutation slip `mutation/2`"]
    );
}

#[test]
fn a_stop_the_party_could_not_have_reached_is_refused() {
    let start = core_start(0);
    assert_eq!(
        refused(
            &start,
            &[played(1, "session = 1\nday = 9\nstop = \"Old Keep\"\n")]
        ),
        [
            "sessions/1/record.toml:3:8: the party could not have reached Old Keep: no road leads there from Ashford, where session 1 started"
        ]
    );
    assert_eq!(
        refused(
            &start,
            &[played(1, "session = 1\nday = 1\nstop = \"Kettleby\"\n")]
        ),
        [
            "sessions/1/record.toml:3:8: the party could not have reached Kettleby: it is 4 watches (2 days) by road from Ashford, where session 1 started, but the session ran from day 1 to day 1 (1 day)"
        ]
    );
    assert_eq!(
        refused(
            &start,
            &[played(1, "session = 1\nday = 2\nstop = \"Ketleby\"\n")]
        ),
        ["sessions/1/record.toml:3:8: the campaign map has no stop `Ketleby`"]
    );
}

/// Issue 50: `helped` names the stops whose trouble the party dealt with
/// (a stop of the map, by name in any case or number, one the party has
/// been at or passed); the state keeps them, for the journey's next visit.
#[test]
fn a_record_names_the_stops_whose_trouble_the_party_dealt_with() {
    let start = core_start(0);
    let ledger = fold(
        &start,
        &[played(
            1,
            "session = 1\nday = 2\nstop = \"Kettleby\"\nhelped = [\"gallows ford\", \"3\", \"Kettleby\"]\n",
        )],
    )
    .unwrap();
    assert_eq!(ledger.now.helped, ["Gallows Ford", "Kettleby"]);
    assert!(
        said(&ledger, 1).contains(&"party: dealt with the trouble at Gallows Ford".to_owned()),
        "{:?}",
        said(&ledger, 1)
    );
    let text =
        |helped: &str| format!("session = 1\nday = 2\nstop = \"Kettleby\"\nhelped = [{helped}]\n");
    assert_eq!(
        refused(&start, &[played(1, &text("\"Gallow Ford\""))]),
        ["sessions/1/record.toml:4:11: helped: the campaign map has no stop `Gallow Ford`"]
    );
    assert_eq!(
        refused(&start, &[played(1, &text("\"Old Keep\""))]),
        [
            "sessions/1/record.toml:4:11: helped: the party was never at Old Keep, so it cannot have dealt with its trouble"
        ]
    );
    let no_map = Start {
        map: None,
        ..core_start(0)
    };
    assert_eq!(
        refused(
            &no_map,
            &[played(1, "session = 1\nday = 2\nhelped = [\"Kettleby\"]\n")]
        ),
        [
            "sessions/1/record.toml:3:11: helped: names stops of the campaign map, and this campaign has none"
        ]
    );
}

/// Issue 50: `slain` names the people of the pack who died — an
/// encounter's named leader by its address, an NPC by address, anyone by
/// name (any case) — each kept once in the state; anything else is
/// refused at its line, saying who it could be.
#[test]
fn a_record_names_the_people_who_died() {
    let start = core_start(0);
    let text = |slain: &str| format!("session = 1\nday = 2\nslain = [{slain}]\n");
    let ledger = fold(
        &start,
        &[played(
            1,
            &text("\"encounter/2\", \"npc/1\", \"osric vell\""),
        )],
    )
    .unwrap();
    assert_eq!(ledger.now.slain, ["Osric Vell", "Mara Voss"]);
    assert!(
        said(&ledger, 1).contains(&"party: Osric Vell died".to_owned()),
        "{:?}",
        said(&ledger, 1)
    );
    let json = serde_json::to_value(&ledger.now).unwrap();
    assert_eq!(
        json["slain"],
        serde_json::json!(["Osric Vell", "Mara Voss"])
    );
    let none = fold(&start, &[played(1, "session = 1\nday = 2\n")]).unwrap();
    let json = serde_json::to_value(&none.now).unwrap();
    assert!(json.get("slain").is_none(), "left out while empty");
    assert_eq!(
        refused(&start, &[played(1, &text("\"encounter/1\""))]),
        [
            "sessions/1/record.toml:3:10: slain: `encounter/1` names no one who could die: its foes are beasts or monsters, or there are none, and nobody comes back in it"
        ]
    );
    assert_eq!(
        refused(&start, &[played(1, &text("\"Osric Velll\""))]),
        ["sessions/1/record.toml:3:10: slain: the pack of session 1 has no person `Osric Velll`"]
    );
    assert_eq!(
        refused(&start, &[played(1, &text("\"npc/4\""))]),
        ["sessions/1/record.toml:3:10: slain: the pack of session 1 has no person `npc/4`"]
    );
}

#[test]
fn an_ability_out_of_range_is_refused() {
    let start = core_start(0);
    assert_eq!(
        refused(
            &start,
            &[played(
                1,
                "session = 1\nday = 1\n[[pc]]\nname = \"Balthasar\"\nlowered = { STR = 12 }\n"
            )]
        ),
        ["sessions/1/record.toml:5:19: STR 10 lowered by 12 is -2, out of range (0-19)"]
    );
    assert_eq!(
        refused(
            &start,
            &[played(
                1,
                "session = 1\nday = 1\n[[joined]]\nname = \"Oda\"\nSTR = 25\nAGI = 9\nWIT = 9\n"
            )]
        ),
        ["sessions/1/record.toml:5:7: Oda: STR 25 is outside 0-19"]
    );
}

#[test]
fn money_below_zero_is_refused() {
    assert_eq!(
        refused(
            &core_start(10),
            &[played(1, "session = 1\nday = 1\nmoney = -15\n")]
        ),
        [
            "sessions/1/record.toml:3:9: money = -15: the party had 10ʂ, which leaves -5ʂ — money never goes below zero"
        ]
    );
}

#[test]
fn a_record_of_a_session_never_prepped_is_refused() {
    let never = SessionInput {
        number: 1,
        pack: None,
        record: Some(record(1, "session = 1\nday = 1\n")),
    };
    assert_eq!(
        refused(&core_start(0), &[never]),
        ["sessions/1/record.toml:1:11: a record of session 1, which was never prepped"]
    );
}

#[test]
fn an_earlier_record_edited_after_later_sessions_were_prepped_names_the_packs() {
    let start = core_start(0);
    let first = played(1, "session = 1\nday = 2\nstop = \"Gallows Ford\"\n");
    let ledger = fold(&start, &[first.clone(), prepped(2)]).unwrap();
    let digest = ledger.state_before(2).unwrap().digest();
    let mut two = played(2, "session = 2\nday = 3\n");
    two.pack.as_mut().unwrap().start_digest = Some(digest.clone());
    let mut three = prepped(3);
    three.pack.as_mut().unwrap().start_digest = Some(
        fold(&start, &[first.clone(), two.clone()])
            .unwrap()
            .now
            .digest(),
    );
    let sessions = [first, two.clone(), three.clone()];
    let ledger = fold(&start, &sessions).unwrap();
    assert!(stale_packs(&ledger, &sessions).is_empty());
    // Session 1's record now says the party took damage.
    let edited = played(
        1,
        "session = 1\nday = 2\nstop = \"Gallows Ford\"\n[[pc]]\nname = \"Sybilla\"\ndamage = 2\n",
    );
    let sessions = [edited, two, three];
    let ledger = fold(&start, &sessions).unwrap();
    assert_eq!(stale_packs(&ledger, &sessions), [2, 3]);
}

#[test]
fn records_come_in_order_and_match_their_folder() {
    let start = core_start(0);
    assert_eq!(
        refused(&start, &[prepped(1), played(2, "session = 2\nday = 1\n")]),
        ["sessions/2/record.toml:1:11: session 2 has a record, but session 1 has none"]
    );
    assert_eq!(
        refused(&start, &[played(1, "session = 2\nday = 1\n")]),
        ["sessions/1/record.toml:1:11: session = 2, but this is the record of session 1"]
    );
}

// ----- Every key documented -----

/// A section of the guide's Campaigns chapter, from its heading to the
/// next.
fn readme_section(heading: &str) -> &'static str {
    let readme = include_str!("../../../docs/src/campaigns.md");
    let from = readme
        .find(&format!("\n## {heading}\n"))
        .unwrap_or_else(|| panic!("no section {heading} in docs/src/campaigns.md"));
    let rest = &readme[from + 4..];
    let end = rest.find("\n## ").unwrap_or(rest.len());
    &rest[..end]
}

/// Every key of a JSON or TOML value, as `parent.key` paths (lists as
/// `[]`), except below `skip`.
fn keys(value: &serde_json::Value, path: &str, skip: &[&str], out: &mut Vec<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                let here = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                out.push(here.clone());
                if !skip.contains(&k.as_str()) {
                    keys(v, &here, skip, out);
                }
            }
        }
        serde_json::Value::Array(items) => {
            for v in items {
                keys(v, &format!("{path}[]"), skip, out);
            }
        }
        _ => {}
    }
}

/// Whether the section names key `path`'s last part in backticks
/// (`` `key` ``, `` `.key` ``, `` `now.key` ``, `` `key[]` ``, a list of
/// keys in one cell).
fn documented(section: &str, path: &str) -> bool {
    let last = path.rsplit('.').next().unwrap().trim_end_matches("[]");
    [
        format!("`{last}`"),
        format!(".{last}`"),
        format!("`{last}[]"),
        format!(".{last}[]"),
        format!("`{last}`,"),
        format!("`[[{last}]]`"),
    ]
    .iter()
    .any(|p| section.contains(p.as_str()))
}

#[test]
fn every_record_key_is_in_the_readme() {
    let record = crate::campaign::record::Record {
        session: 1,
        day: 1,
        stop: Some("x".into()),
        settlement: Some(true),
        full_rest: Some(true),
        met: vec!["x".into()],
        npcs_met: vec!["x".into()],
        vouchers_spent: vec!["x".into()],
        money: 1,
        rations: Some(1),
        water: Some(1),
        helped: vec!["x".into()],
        slain: vec!["x".into()],
        pcs: vec![crate::campaign::record::PcRecord {
            name: "x".into(),
            damage: 1,
            conditions: vec!["x".into()],
            injuries: vec!["x".into()],
            mutations: vec!["x".into()],
            corruption: 1,
            omens: 1,
            lowered: [("STR".to_owned(), 1)].into(),
            statuses: vec!["x".into()],
            hungry: Some(1),
            thirsty: Some(1),
            cured: vec!["x".into()],
            heal_edge: Some(1),
            heal_twist: true,
            healer: Some("x".into()),
            fate: Some(crate::campaign::record::Fate::Dead),
            remains: true,
        }],
        joined: vec![toml::Table::new()],
    };
    let value = serde_json::to_value(&record).unwrap();
    let mut all = Vec::new();
    keys(&value, "", &["lowered", "joined"], &mut all);
    assert!(all.len() >= 24, "{all:?}");
    let section = readme_section("The session record");
    let missing: Vec<_> = all.iter().filter(|k| !documented(section, k)).collect();
    assert!(
        missing.is_empty(),
        "not in the guide (docs/src/campaigns.md): {missing:?}"
    );
}

#[test]
fn every_key_of_campaign_json_is_in_the_readme() {
    let section = readme_section("The campaign ledger");
    let core = fold(
        &core_start(300),
        &[
            played(
                1,
                "session = 1\nday = 3\nstop = \"Kettleby\"\nhelped = [\"Kettleby\"]\nnpcs_met = [\"npc/1\"]\nrations = 2\nwater = 1\n[[pc]]\nname = \"Balthasar\"\ncorruption = 12\ninjuries = [\"injury/1\"]\n[[pc]]\nname = \"Sybilla\"\nfate = \"dead\"\n",
            ),
            prepped(2),
        ],
    )
    .unwrap();
    let mettle = fold(
        &mettle_start(SEED),
        &[played(
            1,
            "session = 1\nday = 2\nvouchers_spent = [\"LE-1111-2222\"]\n[[pc]]\nname = \"Brannoc\"\ndamage = 9\nheal_edge = 2\n",
        )],
    )
    .unwrap();
    let mut all = Vec::new();
    for ledger in [&core, &mettle] {
        let mut value = serde_json::to_value(ledger).unwrap();
        // Funerals are paid here; show one owed too.
        value["now"]["funerals_due"] =
            serde_json::json!([{"pc": "x", "session": 1, "remains": false, "cost": 512}]);
        keys(&value, "", &["sheet", "block"], &mut all);
    }
    all.sort();
    all.dedup();
    assert!(all.len() > 50, "{all:?}");
    let missing: Vec<_> = all.iter().filter(|k| !documented(section, k)).collect();
    assert!(
        missing.is_empty(),
        "not in the guide (docs/src/campaigns.md): {missing:?}"
    );
}

#[test]
fn the_readme_shows_a_refusal_as_it_is_printed() {
    let section = readme_section("The session record");
    let from = section.find("```text\n").unwrap() + 8;
    let shown = &section[from..from + section[from..].find("```").unwrap()];
    let mut session = played(
        1,
        "session = 1\nday = 1\nvouchers_spent = [\"AC-1F0B-77C3\"]\n",
    );
    session.pack.as_mut().unwrap().vouchers[0].serial = "AC-1F0B-77C2".into();
    let problems = fold(&mettle_start("across-the-salt"), &[session]).unwrap_err();
    assert_eq!(format!("{}\n", problems[0]), shown);
}

#[test]
fn fifty_recorded_sessions_fold_quickly() {
    // As benches/ledger.rs: PC 2 falls each session and is healed at the
    // table by PC 3 (the best CULTURE); PC 1 takes a voucher, spent next
    // time.
    let start = Start {
        system: RulesSystem::Mettle,
        seed: Seed::new("bench-campaign").unwrap(),
        party: Party::from_summary("3,2,4", RulesSystem::Mettle).unwrap(),
        stop: None,
        map: Some(map()),
        money: 0,
        stock: None,
        library: library(),
    };
    let mut folding = Folding::new(&start);
    let mut sessions = Vec::new();
    for n in 1..=50u32 {
        let day = folding.state().day;
        let stop = if !n.is_multiple_of(2) {
            "Kettleby"
        } else {
            "Gallows Ford"
        };
        let mut text = format!("session = {n}\nday = {}\nstop = \"{stop}\"\n", day + 2);
        if n > 1 {
            text.push_str(&format!("vouchers_spent = [\"BE-S{}-PC1\"]\n", n - 1));
        }
        text.push_str("[[pc]]\nname = \"PC 2\"\ndamage = 8\nheal_edge = 2\n");
        let mut s = played(n, &text);
        s.pack.as_mut().unwrap().vouchers.clear();
        folding.push(&s).unwrap();
        sessions.push(s);
    }
    // Its speed is held by `cargo bench --features bench --bench ledger` (under 100 ms);
    // this test holds what the fold gives.
    let ledger = fold(&start, &sessions).unwrap();
    assert_eq!(ledger.now.session, 51);
    assert_eq!(ledger.now.downtime_vouchers, 50);
}

// ----- The reveal (issue 30): paths travelled and the trail -----

/// A session played with its own planned journey (`legs`, from the
/// party's stop; empty: none).
fn played_along(n: u32, legs: &[&str], text: &str) -> SessionInput {
    let mut pack = pack();
    pack.legs = legs.iter().map(|s| s.to_string()).collect();
    SessionInput {
        number: n,
        pack: Some(pack),
        record: Some(record(n, text)),
    }
}

#[test]
fn the_ledger_keeps_the_paths_travelled_and_the_trail_session_by_session() {
    let start = core_start(0);
    let ledger = fold(
        &start,
        &[
            // Along the planned journey: Ashford → Gallows Ford → Kettleby.
            played_along(
                1,
                &["Ashford", "Gallows Ford", "Kettleby"],
                "session = 1\nday = 3\nstop = \"Kettleby\"\nfull_rest = false\n",
            ),
            // Back by the direct road the plan took.
            played_along(
                2,
                &["Kettleby", "Ashford"],
                "session = 2\nday = 6\nstop = \"Ashford\"\n",
            ),
            // No journey: the quickest road (through the ford, 4 watches
            // against the direct road's 5), every path already travelled.
            played_along(
                3,
                &[],
                "session = 3\nday = 8\nstop = \"Kettleby\"\nfull_rest = false\n",
            ),
            // Stayed put.
            played_along(4, &[], "session = 4\nday = 9\n"),
        ],
    )
    .unwrap();
    let now = &ledger.now;
    let paths: Vec<(&str, &str, u32)> = now
        .travelled
        .iter()
        .map(|t| (t.from.as_str(), t.to.as_str(), t.session))
        .collect();
    assert_eq!(
        paths,
        [
            ("Ashford", "Gallows Ford", 1),
            ("Gallows Ford", "Kettleby", 1),
            ("Kettleby", "Ashford", 2),
        ]
    );
    let trail: Vec<(u32, u32, u32, Vec<&str>)> = now
        .trail
        .iter()
        .map(|l| {
            let stops = l.stops.iter().map(String::as_str).collect();
            (l.session, l.day_start, l.day_end, stops)
        })
        .collect();
    assert_eq!(
        trail,
        [
            (1, 1, 3, vec!["Ashford", "Gallows Ford", "Kettleby"]),
            (2, 3, 6, vec!["Kettleby", "Ashford"]),
            (3, 6, 8, vec!["Ashford", "Gallows Ford", "Kettleby"]),
            (4, 8, 9, vec!["Kettleby"]),
        ]
    );
    assert_eq!(now.visited, ["Ashford", "Gallows Ford", "Kettleby"]);
    // The state before session 2 holds session 1's alone.
    let before2 = ledger.state_before(2).unwrap();
    assert_eq!(before2.travelled.len(), 2);
    assert_eq!(before2.trail.len(), 1);
    // As the atlas reads it: stops by id, paths by index; Old Keep, on no
    // road, is neither visited nor heard of.
    let m = map();
    let r = now.reveal(&m, None);
    assert_eq!(r.visited, [0, 1, 2]);
    assert!(r.heard.is_empty());
    assert_eq!(r.travelled, [0, 1, 2]);
    assert_eq!(r.trail[1].stops, [2, 0]);
    let r1 = before2.reveal(&m, Some(3));
    assert_eq!(
        (r1.travelled.clone(), r1.heard.clone()),
        (vec![0, 1], vec![3])
    );
    assert!(!r1.knows_path(2));
}

#[test]
fn a_planned_journey_from_elsewhere_is_not_the_road_walked() {
    // The pack's journey starts at Ashford, but the party is at Kettleby
    // (a pack made from an older state): the quickest road is walked.
    let ledger = fold(
        &core_start(0),
        &[
            played_along(
                1,
                &[],
                "session = 1\nday = 2\nstop = \"Kettleby\"\nfull_rest = false\n",
            ),
            played_along(
                2,
                &["Ashford", "Gallows Ford"],
                "session = 2\nday = 3\nstop = \"Gallows Ford\"\n",
            ),
        ],
    )
    .unwrap();
    assert_eq!(
        ledger.now.trail[1].stops,
        ["Kettleby".to_owned(), "Gallows Ford".to_owned()]
    );
}

mod carried;
mod drift;
mod findings;
mod heal;
mod long;
mod smaller;
