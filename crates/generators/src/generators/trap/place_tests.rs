//! Issue 50: a trap fits its place, read as a GM reads it. Over a
//! thousand traps a system, each judged by its parts' names and words
//! (not by the tags that make the generator pick them): a flood needs a
//! room to fill or a stream bed to sweep, a portcullis an arch to stand
//! under, a cut bridge a bridge; nothing that needs a floor is set on a
//! rope, nothing that needs dry ground in water; a trap that cannot be
//! set again is never reset; a rules trap is dealt with by its mechanism.

use super::{Abilities, Against, Request, Source, Trap};
use crate::content::Library;
use crate::content::traps::DISARM;
use crate::generators::nth;
use crate::seed::Seed;

/// Triggers inside a room that can be shut.
const ROOMS: [&str; 13] = [
    "Lingering",
    "Seat of honour",
    "Lifted prize",
    "Opened lid",
    "Offering bowl",
    "Drawn book",
    "Statue's hand",
    "Fine rug",
    "Opened shutter",
    "Lit sconce",
    "Spoken word",
    "Hidden watcher",
    "On the way out",
];
/// Triggers on a way through a dry stream bed or gully (a covered spot on
/// the path and twine between two trees are not).
const BEDS: [&str; 4] = ["Dry ford", "Gully floor", "Fallen log", "Lookout's cord"];
/// Triggers at a threshold, under an arch.
const THRESHOLDS: [&str; 3] = ["Broken line", "On the way out", "Threshold stone"];
/// Triggers that hold the victim over a drop.
const SPANS: [&str; 3] = ["Weighted rope", "Rotten rung", "Footbridge"];
/// Triggers in water.
const WATERS: [&str; 2] = ["Stepping stones", "Wading"];
/// Triggers worked by hand.
fn by_hand(library: &Library, trigger: &str) -> bool {
    tags_of(library, crate::content::traps::TRIGGERS, trigger)
        .iter()
        .any(|t| t == "by:hand")
}

/// Effects that need a room to fill or hang in.
const IN_ROOMS: [&str; 2] = ["Flooding chamber", "Falling chandelier"];
/// Effects that need a floor under the victim.
const ON_FLOORS: [&str; 5] = [
    "Rolling stone",
    "Burning floor",
    "Spear wall",
    "Closing walls",
    "Flooding chamber",
];
/// Effects that need dry ground.
const ON_DRY: [&str; 3] = ["Tin-can alarm", "Snare", "Brush fire"];
/// Traps that cannot be set again once sprung.
const ONCE: [&str; 9] = [
    "Falling block",
    "Roof fall",
    "Rockfall",
    "Falling chandelier",
    "Cut bridge",
    "Flash flood",
    "Brush fire",
    "Tomb miasma",
    "Anti-personnel mine",
];

fn row_name(text: &str) -> &str {
    text.split_once(": ").map_or(text, |(r, _)| r)
}

fn tags_of(library: &Library, table: &str, name: &str) -> Vec<String> {
    library
        .get(table)
        .and_then(|t| t.rows.iter().find(|r| &*r.entry.name == name))
        .map(|r| r.entry.tags.iter().map(|t| t.to_string()).collect())
        .unwrap_or_default()
}

/// What a GM would call wrong with the place of trap `t`.
fn misplaced(library: &Library, t: &Trap) -> Option<String> {
    let effect = row_name(&t.effect);
    let trigger = row_name(&t.trigger);
    let wrong = |why: &str| Some(format!("{why}: {} ({trigger} + {effect})", t.name));
    if t.from == Source::Rules {
        return None;
    }
    let checks = [
        (
            IN_ROOMS.contains(&effect) && !ROOMS.contains(&trigger),
            "no room",
        ),
        (
            effect == "Flash flood" && !BEDS.contains(&trigger),
            "no stream bed",
        ),
        (
            effect == "Portcullis" && !THRESHOLDS.contains(&trigger),
            "no arch",
        ),
        (
            effect == "Cut bridge" && trigger != "Footbridge",
            "no bridge",
        ),
        (
            ON_FLOORS.contains(&effect) && SPANS.contains(&trigger),
            "no floor",
        ),
        (
            ON_DRY.contains(&effect) && WATERS.contains(&trigger),
            "in water",
        ),
        (
            t.effect.contains("the hand that set it off") && !by_hand(library, trigger),
            "no hand",
        ),
        (
            t.effect.contains("doorway") && !THRESHOLDS.contains(&trigger),
            "no doorway",
        ),
    ];
    checks
        .iter()
        .find(|(bad, _)| *bad)
        .and_then(|(_, why)| wrong(why))
}

/// Whether `t` (a trap that cannot be set again) is dealt with by a row
/// that resets it.
fn reset_once(library: &Library, t: &Trap) -> bool {
    let effect = match t.from {
        Source::Rules => t.name.as_str(),
        _ => row_name(&t.effect),
    };
    let Some(d) = t.disarm.as_deref() else {
        return false;
    };
    ONCE.contains(&effect)
        && tags_of(library, DISARM, row_name(d))
            .iter()
            .any(|x| x == "do:reset")
}

fn systems() -> [Against; 2] {
    [
        Against::Poise(vec![3]),
        Against::Abilities(Abilities {
            str: vec![10],
            agi: vec![10],
            wit: vec![10],
        }),
    ]
}

/// 1,400 traps of parts a system (200 in each terrain): none misplaced,
/// none that cannot be set again given a way to reset it.
#[test]
fn a_thousand_traps_a_system_fit_their_place() {
    let library = crate::content::test_library();
    let seed = Seed::new("placed").unwrap();
    let mut bad = Vec::new();
    let mut reset = Vec::new();
    let mut all = 0;
    for against in systems() {
        for (k, region) in library.regions().enumerate() {
            let req = Request {
                source: Source::Parts,
                against: against.clone(),
                party: None,
                terrain: Some(region.name.clone()),
                keepers: false,
            };
            for i in k * 200..(k + 1) * 200 {
                let t = nth(&library, &req, &seed, i).unwrap();
                all += 1;
                bad.extend(misplaced(&library, &t));
                if reset_once(&library, &t) {
                    reset.push(t.name.clone());
                }
            }
        }
    }
    assert!(all >= 2000, "{all}");
    assert!(
        bad.is_empty() && reset.is_empty(),
        "{} of {all} misplaced, {} once-only traps reset: {:?} {:?}",
        bad.len(),
        reset.len(),
        &bad[..bad.len().min(12)],
        &reset[..reset.len().min(6)]
    );
}

/// The rules' traps: dealt with by their own mechanism three times in
/// four (the rest a generic way), never reset when they cannot be.
#[test]
fn the_rules_traps_are_dealt_with_by_their_mechanism() {
    let library = crate::content::test_library();
    let seed = Seed::new("rules-placed").unwrap();
    let req = Request {
        source: Source::Rules,
        ..Request::default()
    };
    let (mut specific, mut all) = (0, 0);
    for i in 0..1000 {
        let t = nth(&library, &req, &seed, i).unwrap();
        let d = row_name(t.disarm.as_deref().unwrap());
        let generic = tags_of(&library, DISARM, d).iter().any(|x| x == "generic");
        specific += usize::from(!generic);
        all += 1;
        assert!(!reset_once(&library, &t), "#{i} {}: {d}", t.name);
    }
    let share = specific as f64 / all as f64;
    assert!((0.65..0.85).contains(&share), "{specific} of {all}");
}

/// Issue 50: an alarm that calls the lookouts (the rules' Tripwire round a
/// camp, the tin-can alarm: tagged `keepers`) is set only where foes who
/// are people keep it — never as a trap of its own — and is still drawn
/// there.
#[test]
fn an_alarm_is_set_only_where_its_keepers_are() {
    let library = crate::content::test_library();
    let seed = Seed::new("keepers").unwrap();
    let alarms = |t: &Trap| t.name == "Tripwire" || t.effect.starts_with("Tin-can alarm");
    for keepers in [false, true] {
        let mut found = 0;
        for source in [Source::Rules, Source::Parts] {
            let req = Request {
                source,
                terrain: Some("forest".into()),
                keepers,
                ..Request::default()
            };
            for i in 0..600 {
                let t = nth(&library, &req, &seed, i).unwrap();
                found += usize::from(alarms(&t));
            }
        }
        if keepers {
            assert!(found >= 20, "only {found} alarms where keepers are at hand");
        } else {
            assert_eq!(found, 0, "alarms with nobody to hear them");
        }
    }
}
