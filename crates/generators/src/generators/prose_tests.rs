//! Issue 50, "Must show": the people and the prose, read by checks that
//! share no code with the generators. Over a thousand NPC cards and a
//! thousand foe groups a system, every NPC card and every named foe leader
//! has a want, a secret, a manner and a look, and no gendered pronoun that
//! could disagree with the name rolled. Over ten thousand texts of every
//! kind (encounters and their layers and spoils, leaders, NPC cards, traps,
//! journey logs with their rumours): no placeholder left, no doubled word,
//! and none of the slips a reader stumbles on (`a owl`, `an bandit`, a
//! stray space, a doubled stop, a sentence started small, a bracket left
//! open).

use super::encounter::{self, Encounter, TERRAINS};
use super::journey::{self, Hearsay};
use super::trap::{self, Abilities, Against, Source};
use super::{map, npc, nth};
use crate::content::test_library as library;
use crate::rules::{Party, RulesSystem};
use crate::seed::Seed;

const SYSTEMS: [RulesSystem; 2] = [RulesSystem::Mettle, RulesSystem::Core];
const GENDERED: [&str; 8] = [
    "he", "she", "him", "her", "his", "hers", "himself", "herself",
];
/// Words after `a` that sound a consonant, or after `an` that sound a
/// vowel, against their first letter.
const A_VOWEL: [&str; 7] = ["one", "once", "uni", "use", "usu", "eu", "ewe"];
const AN_H: [&str; 3] = ["hour", "honest", "heir"];

fn encounter_request(i: usize, system: RulesSystem) -> encounter::Request {
    let summary = match system {
        RulesSystem::Mettle => ["3,3,4,4", "2,3", "5,5,5,6", "4"][i % 4],
        RulesSystem::Core => ["10,11,12,9", "8,9", "13,14,15,12", "11"][i % 4],
    };
    encounter::Request {
        terrain: TERRAINS[i % TERRAINS.len()].into(),
        system,
        party: Party::from_summary(summary, system).unwrap(),
        pin: Default::default(),
        shun: Vec::new(),
        taken: Vec::new(),
        heard: Vec::new(),
        season: Default::default(),
    }
}

fn npc_request(system: RulesSystem, people_only: bool) -> npc::Request {
    npc::Request {
        system,
        archetype: None,
        tier: None,
        terrain: None,
        people_only,
        fits: Vec::new(),
        met: Vec::new(),
        shun: Vec::new(),
        taken: Vec::new(),
        heard: Vec::new(),
    }
}

fn against(system: RulesSystem) -> Against {
    match system {
        RulesSystem::Mettle => Against::Poise(vec![3]),
        RulesSystem::Core => Against::Abilities(Abilities {
            str: vec![10],
            agi: vec![10],
            wit: vec![10],
        }),
    }
}

/// The words of a text, lowercase, letters and inner apostrophes only.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphabetic() || c == '\''))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// What reads wrong in one text.
fn slips(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    if text.contains(['{', '}', '@', '~']) || text.contains("TODO") {
        out.push("a placeholder left".into());
    }
    if text.contains("  ") || text.starts_with(' ') || text.ends_with(' ') {
        out.push("a stray space".into());
    }
    for p in [" .", " ,", " ;", " :", " ?", " !", ",,", ";;", ",.", ".,"] {
        if text.contains(p) {
            out.push(format!("`{p}`"));
        }
    }
    if text.replace("...", "").contains("..") {
        out.push("`..`".into());
    }
    if text.matches('(').count() != text.matches(')').count() {
        out.push("a bracket left open".into());
    }
    let raw: Vec<&str> = text.split_whitespace().collect();
    for pair in raw.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let bare = |w: &str| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        };
        let (wa, wb) = (bare(a), bare(b));
        let joined = a.ends_with(|c: char| c.is_alphanumeric())
            && b.starts_with(|c: char| c.is_alphanumeric());
        if joined && !wa.is_empty() && wa == wb && wa.chars().all(char::is_alphabetic) {
            out.push(format!("`{a} {b}` doubled"));
        }
        let vowel = wb.starts_with(['a', 'e', 'i', 'o', 'u']);
        // An initialism is read by its letters: "an NPC".
        let letters = b.len() > 1 && b.chars().take(2).all(|c| c.is_ascii_uppercase());
        if letters {
            continue;
        }
        if a == "a" || a == "A" {
            if vowel && !A_VOWEL.iter().any(|x| wb.starts_with(x)) {
                out.push(format!("`{a} {b}`"));
            }
        } else if (a == "an" || a == "An")
            && !vowel
            && !AN_H.iter().any(|x| wb.starts_with(x))
            && wb.chars().next().is_some_and(char::is_alphabetic)
        {
            out.push(format!("`{a} {b}`"));
        }
        if a.ends_with(['.', '?', '!']) && !a.ends_with("...") && a.len() > 2 {
            let first = b.chars().next().unwrap_or(' ');
            if first.is_lowercase() {
                out.push(format!("`{a} {b}`: a sentence started small"));
            }
        }
    }
    out
}

/// The texts of an encounter a GM reads: the scene, its layers, its
/// spoils and weather, and its leader.
fn encounter_texts(e: &Encounter) -> Vec<String> {
    let mut out = vec![e.situation.text.clone()];
    for l in [&e.twist, &e.ending, &e.spoils, &e.weather]
        .into_iter()
        .flatten()
    {
        out.push(l.text.clone());
    }
    if let Some(l) = e.leader() {
        out.extend(npc_texts(l));
    }
    out
}

/// An NPC's concept and traits.
fn npc_texts(n: &npc::Npc) -> Vec<String> {
    let mut out = vec![n.concept.clone()];
    out.extend(n.traits.lines().into_iter().map(|(_, t)| t.to_owned()));
    out
}

/// An NPC that lacks a trait, or has a gendered pronoun that may not
/// match their name.
fn person_problems(n: &npc::Npc) -> Vec<String> {
    let mut out = Vec::new();
    let t = &n.traits;
    for (label, v) in [
        ("want", &t.want),
        ("secret", &t.secret),
        ("manner", &t.manner),
        ("look", &t.look),
    ] {
        if v.as_deref().is_none_or(|v| v.trim().is_empty()) {
            out.push(format!("{} ({}) has no {label}", n.name, n.archetype));
        }
    }
    for text in npc_texts(n) {
        if let Some(w) = words(&text)
            .into_iter()
            .find(|w| GENDERED.contains(&w.as_str()))
        {
            out.push(format!("{}: `{w}` in {text:?}", n.name));
        }
    }
    out
}

#[test]
fn every_npc_card_and_named_foe_leader_has_the_four_traits_and_no_pronoun_against_the_name() {
    let library = library();
    let seed = Seed::new("people").unwrap();
    let mut wrong = Vec::new();
    for system in SYSTEMS {
        let cards = npc_request(system, true);
        for i in 0..1000 {
            let n = nth(&library, &cards, &seed, i).unwrap();
            wrong.extend(
                person_problems(&n)
                    .into_iter()
                    .map(|p| format!("card #{i}: {p}")),
            );
        }
        let mut leaders = 0;
        for i in 0..1000 {
            let e = nth(&library, &encounter_request(i, system), &seed, i).unwrap();
            // Every foe group led by a person has that person to play.
            let person = |f: &&npc::Npc| f.kind == "human" || f.kind == "townsfolk";
            if e.foes.iter().any(|f| person(&f)) {
                match e.person_leader() {
                    Some(l) => {
                        leaders += 1;
                        wrong.extend(
                            person_problems(l)
                                .into_iter()
                                .map(|p| format!("{system:?} encounter #{i}: {p}")),
                        );
                    }
                    None => wrong.push(format!("{system:?} encounter #{i}: people, no leader")),
                }
            }
        }
        assert!(leaders >= 200, "{system:?}: only {leaders} named leaders");
    }
    assert!(wrong.is_empty(), "{}:\n{}", wrong.len(), wrong.join("\n"));
}

#[test]
fn ten_thousand_texts_of_every_kind_read_without_a_slip() {
    let library = library();
    let seed = Seed::new("prose").unwrap();
    let mut texts: Vec<(String, String)> = Vec::new();
    for (k, system) in SYSTEMS.into_iter().enumerate() {
        for i in 0..700 {
            let e = nth(&library, &encounter_request(i, system), &seed, i).unwrap();
            let at = format!("{system:?} encounter #{i}");
            texts.extend(encounter_texts(&e).into_iter().map(|t| (at.clone(), t)));
        }
        for i in 0..400 {
            let n = nth(&library, &npc_request(system, i % 2 == 0), &seed, i).unwrap();
            let at = format!("{system:?} npc #{i}");
            texts.extend(npc_texts(&n).into_iter().map(|t| (at.clone(), t)));
        }
        let traps = trap::Request {
            source: Source::Parts,
            against: against(system),
            party: None,
            terrain: None,
            keepers: false,
        };
        for i in 0..500 {
            let t = nth(&library, &traps, &seed, i).unwrap();
            let at = format!("{system:?} trap #{i}");
            let parts = [&t.trigger, &t.clue, &t.effect].map(|s| Some(s.clone()));
            let more = [t.disarm.clone(), t.hazard.clone(), t.condition.clone()];
            texts.extend(
                parts
                    .into_iter()
                    .chain(more)
                    .flatten()
                    .map(|s| (at.clone(), s)),
            );
        }
        for i in 0..20 {
            let m = nth(
                &library,
                &map::Request {
                    stops: 12,
                    terrains: Vec::new(),
                },
                &seed,
                k * 100 + i,
            )
            .unwrap();
            let req = journey_request(m, system);
            let j = nth(&library, &req, &seed, i).unwrap();
            let at = format!("{system:?} journey #{i}");
            let lines = j.days.iter().flat_map(|d| &d.entries);
            texts.extend(lines.map(|l| (at.clone(), l.clone())));
        }
    }
    assert!(texts.len() >= 10_000, "only {} texts", texts.len());
    let wrong: Vec<String> = texts
        .iter()
        .flat_map(|(at, t)| {
            slips(t)
                .into_iter()
                .map(move |s| format!("{at}: {s}: {t:?}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{}:\n{}", wrong.len(), wrong.join("\n"));
}

/// A journey across `m` in `system` with room to eat and drink, hearing
/// rumours of a person and a creature.
fn journey_request(m: map::Map, system: RulesSystem) -> journey::Request {
    let party = match system {
        RulesSystem::Mettle => Party::from_summary("3,4,4,5", system),
        RulesSystem::Core => Party::from_summary("10,12,9,11", system),
    }
    .unwrap();
    journey::Request {
        from: m.start,
        to: m.goal,
        map: m,
        capacity: 6,
        party,
        system,
        route: journey::Route::Safest,
        rations: 6,
        water: 6,
        kits: Vec::new(),
        twist: true,
        used: Vec::new(),
        remembered: Vec::new(),
        shun: Vec::new(),
        taken: Vec::new(),
        heard: Vec::new(),
        pool: None,
        first_day: 1,
        first_season: Default::default(),
        fasting: Vec::new(),
        visits: Default::default(),
        helped: Vec::new(),
        hearsay: Hearsay {
            people: vec!["Mara Voss".into()],
            creatures: vec!["a bog horror".into()],
            heard: Vec::new(),
        },
    }
}

#[test]
fn the_slip_checks_catch_what_they_look_for() {
    for (text, want) in [
        ("A owl hoots.", "`A owl`"),
        ("They meet an bandit.", "`an bandit"),
        ("It is  late.", "stray space"),
        ("It ends . Then", "` .`"),
        ("The the end.", "doubled"),
        ("It ends. then it", "started small"),
        ("A sack (of meal.", "bracket"),
        ("{d6} goblins", "placeholder"),
    ] {
        let s = slips(text);
        assert!(s.iter().any(|x| x.contains(want)), "{text}: {s:?}");
    }
    for fine in [
        "A one-eyed crow and an hour later an owl in a uniform.",
        "They reach Woodcutters' Camp (camp): an NPC waits.",
        "Days 3–5: camp each night... then the road.",
        "He did it. It turns out fine (mostly).",
    ] {
        assert!(slips(fine).is_empty(), "{fine}: {:?}", slips(fine));
    }
}
