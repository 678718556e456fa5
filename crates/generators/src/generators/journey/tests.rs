//! Unit tests: each Twist's price, water filling to capacity, the clock.

use super::*;
use crate::generators::map;
use crate::generators::nth;

fn party(system: RulesSystem) -> Party {
    match system {
        RulesSystem::Mettle => Party::from_summary("3,4,4,5", system).unwrap(),
        RulesSystem::Core => Party::from_summary("10,12,9,11", system).unwrap(),
    }
}

fn request(m: map::Map, system: RulesSystem) -> Request {
    Request {
        first_season: Default::default(),
        from: m.start,
        to: m.goal,
        map: m,
        party: party(system),
        system,
        route: Route::Safest,
        rations: 3,
        water: 3,
        capacity: 3,
        kits: vec!["trapping".into()],
        twist: true,
        used: Vec::new(),
        remembered: Vec::new(),
        shun: Vec::new(),
        taken: Vec::new(),
        heard: Vec::new(),
        pool: None,
        first_day: 1,
        fasting: Vec::new(),
        visits: Default::default(),
        helped: Vec::new(),
        hearsay: Default::default(),
    }
}

#[test]
fn journeys_arrive_and_add_up() {
    let library = crate::content::test_library();
    let seed = Seed::new("journeys").unwrap();
    for i in 0..120 {
        let m = nth(&library, &map::Request::default(), &seed, i).unwrap();
        let system = if i % 2 == 0 {
            RulesSystem::Mettle
        } else {
            RulesSystem::Core
        };
        let mut req = request(m, system);
        req.route = if i % 4 < 2 {
            Route::Shortest
        } else {
            Route::Safest
        };
        req.twist = i % 3 != 0;
        let j = nth(&library, &req, &seed, i).unwrap();
        assert!(!j.legs.is_empty());
        assert_eq!(j.legs[0].from, j.from);
        assert_eq!(j.legs.last().unwrap().to, j.to);
        for l in &j.legs {
            assert!(l.safe <= l.safe_with_twist + 1e-12);
            assert!((0.0..=1.0).contains(&l.safe));
        }
        let met: u32 = j.passages.iter().map(|p| p.encounters).sum();
        assert_eq!(met as usize, j.encounters.len(), "#{i}");
        let days: Vec<u32> = j.days.iter().map(|d| d.day).collect();
        assert!(days.windows(2).all(|w| w[0] < w[1]), "#{i}: {days:?}");
        let last = j.days.last().unwrap();
        assert_eq!(j.days_taken, last.through.unwrap_or(last.day));
    }
}

#[test]
fn safest_is_never_less_safe_than_shortest() {
    let library = crate::content::test_library();
    let seed = Seed::new("routes").unwrap();
    for i in 0..200 {
        let m = nth(
            &library,
            &map::Request {
                stops: 20,
                terrains: vec![],
            },
            &seed,
            i,
        )
        .unwrap();
        let system = [RulesSystem::Mettle, RulesSystem::Core][i % 2];
        let mk = |route| Request {
            route,
            ..request(m.clone(), system)
        };
        let safe = nth(&library, &mk(Route::Safest), &seed, i).unwrap();
        let short = nth(&library, &mk(Route::Shortest), &seed, i).unwrap();
        assert!(safe.no_encounter >= short.no_encounter - 1e-12, "#{i}");
        let regions = |j: &Journey| j.legs.iter().map(|l| l.regions).sum::<u32>();
        assert!(regions(&short) <= regions(&safe), "#{i}");
    }
}

/// A trip at the start of `req`'s journey, for pricing Twists by hand.
fn trip<'a>(
    library: &'a Library,
    req: &'a Request,
    seed: &'a Seed,
    at: &'a Address,
) -> trip::Trip<'a> {
    let lead = route::lead(&req.party, req.system).unwrap();
    trip::Trip::new(library, req, seed, at, lead)
}

fn small_map() -> map::Map {
    let library = crate::content::test_library();
    nth(
        &library,
        &map::Request::default(),
        &Seed::new("twists").unwrap(),
        0,
    )
    .unwrap()
}

#[test]
fn an_extra_day_costs_a_day_of_food_and_water() {
    let library = crate::content::test_library();
    let seed = Seed::new("extra").unwrap();
    let at = Address::new("journey", 0);
    for system in [RulesSystem::Mettle, RulesSystem::Core] {
        let req = request(small_map(), system);
        let n = req.party.mettle.len().max(req.party.core.len()) as u32;
        // Whatever the hour, three watches hold exactly one daily rest.
        for awake in 0..3 {
            let mut t = trip(&library, &req, &seed, &at);
            t.clock.awake = awake;
            let (r, w, watch) = (t.clock.larder.rations, t.clock.larder.water, t.clock.watch);
            t.lose_a_day(req.to);
            assert_eq!(t.clock.watch, watch + 3);
            let rests = t.clock.states.iter().filter(|s| s.doing == "rest").count();
            assert_eq!(rests, 1, "{system:?} awake {awake}");
            assert_eq!(t.clock.larder.rations, r - n);
            assert_eq!(t.clock.larder.water, w - n);
        }
    }
}

#[test]
fn lost_supplies_take_a_day_of_rations_then_finds_then_goods() {
    let library = crate::content::test_library();
    let seed = Seed::new("supplies").unwrap();
    let at = Address::new("journey", 0);
    let req = request(small_map(), RulesSystem::Mettle);
    let mut t = trip(&library, &req, &seed, &at);
    assert_eq!(t.clock.larder.rations, 12);
    t.lose_supplies();
    assert_eq!(t.clock.larder.rations, 8);
    t.clock.larder.rations = 2;
    t.lose_supplies();
    assert_eq!(t.clock.larder.rations, 0);
    t.clock.larder.perishable = 5;
    t.lose_supplies();
    assert_eq!(t.clock.larder.perishable, 1);
    t.clock.larder.perishable = 0;
    let before = t.clock.larder.clone();
    assert!(t.lose_supplies().contains("trade goods"));
    assert_eq!(t.clock.larder, before);
}

#[test]
fn lost_parties_come_out_next_to_where_they_meant_to_go() {
    let library = crate::content::test_library();
    let req = request(small_map(), RulesSystem::Mettle);
    let at = Address::new("journey", 0);
    let next = req.map.neighbours(req.from)[0].1;
    let near: Vec<usize> = req.map.neighbours(next).iter().map(|n| n.1).collect();
    let mut seen = std::collections::BTreeSet::new();
    for i in 0..60 {
        let seed = Seed::new(&format!("lost {i}")).unwrap();
        let mut t = trip(&library, &req, &seed, &at);
        let s = t.stray(i, next);
        assert!(near.contains(&s) && s != next, "{s} not next to {next}");
        seen.insert(s);
    }
    assert_eq!(seen.len(), near.len(), "every neighbour can come up");
}

#[test]
fn a_source_fills_every_pc_to_capacity() {
    let library = crate::content::test_library();
    let seed = Seed::new("water").unwrap();
    let at = Address::new("journey", 0);
    let mut req = request(small_map(), RulesSystem::Core);
    req.water = 0;
    req.capacity = 5;
    let mut t = trip(&library, &req, &seed, &at);
    assert_eq!(t.clock.larder.water, 0);
    t.clock.larder.fill_water();
    assert_eq!(t.clock.larder.water, 5 * 4);
    // In the walk: every water watch leaves water as it was or full.
    let mut filled = 0;
    for i in 0..200 {
        let m = nth(&library, &map::Request::default(), &seed, i).unwrap();
        let system = [RulesSystem::Mettle, RulesSystem::Core][i % 2];
        let mut req = request(m, system);
        req.water = 0;
        req.capacity = 2 + (i % 4) as u32;
        let j = nth(&library, &req, &seed, i).unwrap();
        let full = |s: &WatchState| req.capacity * (4 - s.dead.len() as u32);
        let mut before = 0;
        for s in &j.watches {
            if s.doing == "water" && s.water != before {
                assert_eq!(s.water, full(s), "#{i} watch {}", s.watch);
                filled += 1;
            }
            before = s.water;
        }
        // A rest right after a found source: everyone drinks.
        for w in j.watches.windows(2) {
            if w[0].doing == "water" && w[0].water == full(&w[0]) && w[1].doing == "rest" {
                assert_eq!(w[1].drank, Some(4 - w[0].dead.len() as u32), "#{i}");
            }
        }
    }
    assert!(filled > 20, "sources were found {filled} times");
}

/// A METTLE PC's best CALLING (best attribute without one).
fn best_calling(b: &crate::rules::mettle::StatBlock) -> u32 {
    match b.callings.iter().map(|c| c.dice).max() {
        Some(d) => d,
        None => [b.NATURE, b.CULTURE, b.POISE, b.MOTIVE, b.FRAME]
            .into_iter()
            .max()
            .unwrap(),
    }
}

/// After a METTLE rest: each PC alive went one more day without or was
/// fed (as many fed as the rest says, when no one died); the living carry
/// no more Difficulty than their CALLING; the state's days are the lead's.
fn check_hunger(req: &Request, before: &[Wanting], dead: usize, s: &WatchState, label: &str) {
    let days = |list: &[Wanting], name: &str| {
        list.iter()
            .find(|w| w.name == name)
            .map_or((0, 0), |w| (w.hungry, w.thirsty))
    };
    let living: Vec<_> = req
        .party
        .mettle
        .iter()
        .filter(|b| !s.dead.contains(&b.name))
        .collect();
    let (mut no_hunger, mut no_thirst) = (0, 0);
    for b in &living {
        let ((h0, t0), (h, t)) = (days(before, &b.name), days(&s.wanting, &b.name));
        assert!(
            h == 0 || h == h0 + 1,
            "{label}: {} hungry {h0} → {h}",
            b.name
        );
        assert!(
            t == 0 || t == t0 + 1,
            "{label}: {} thirsty {t0} → {t}",
            b.name
        );
        assert!(
            h + 2 * t <= best_calling(b),
            "{label}: {} lives at +{}",
            b.name,
            h + 2 * t
        );
        no_hunger += u32::from(h == 0);
        no_thirst += u32::from(t == 0);
    }
    if s.dead.len() == dead {
        assert_eq!(Some(no_hunger), s.fed, "{label}: fed");
        assert_eq!(Some(no_thirst), s.drank, "{label}: drank");
    }
    let lead = route::lead(&req.party, req.system).unwrap().name;
    if !s.dead.contains(&lead) {
        let (h, t) = days(&s.wanting, &lead);
        assert_eq!(
            (s.hungry, s.thirsty),
            (Some(h), Some(t)),
            "{label}: the lead"
        );
    }
}

#[test]
fn hunger_and_thirst_kill_when_their_difficulty_exceeds_a_pcs_calling() {
    // PC 1 has CALLINGS of 2 and 3 dice, PC 2 none (every attribute 5):
    // with water but no food the Difficulty grows by 1 a day, so PC 1 dies
    // at the fourth rest (+4 > 3) and PC 2 at the sixth (+6 > 5).
    let library = crate::content::test_library();
    let seed = Seed::new("starving").unwrap();
    let at = Address::new("journey", 0);
    let mut req = request(small_map(), RulesSystem::Mettle);
    req.party = Party::from_summary("2,5", RulesSystem::Mettle).unwrap();
    req.party.mettle[0].callings = ["Fisher", "Ferryman"]
        .iter()
        .zip([2, 3])
        .map(|(name, dice)| crate::rules::mettle::Calling {
            name: (*name).into(),
            dice,
        })
        .collect();
    req.rations = 0;
    req.water = 30;
    let mut t = trip(&library, &req, &seed, &at);
    let camp = clock::Place::wild("the dunes".into());
    let mut died = Vec::new();
    for day in 1..=6 {
        t.clock.rest(&camp);
        let s = t.clock.states.last().unwrap();
        assert_eq!(s.hungry, Some(day));
        assert_eq!(s.thirsty, Some(0));
        died.push(s.dead.len());
    }
    assert_eq!(died, [0, 0, 0, 1, 1, 2]);
    let log: Vec<&String> = t.clock.days.iter().flat_map(|d| &d.entries).collect();
    let said = |text: &str| log.iter().filter(|l| l.contains(text)).count();
    assert_eq!(
        said("PC 1 has starved to death: +4 Difficulty is past their best CALLING (3D)."),
        1,
        "{log:#?}"
    );
    assert_eq!(
        said("PC 2 has starved to death: +6 Difficulty is past their best CALLING (5D)."),
        1
    );
    // The dead no longer eat or drink: the survivor drinks alone.
    assert_eq!(t.clock.states[3].drank, Some(2));
    assert_eq!(t.clock.states[4].drank, Some(1));
    assert_eq!(t.clock.states[4].water, 30 * 2 - 2 * 4 - 1);
}

/// Words a journey of one system must never print (the other's terms).
fn foreign_words(system: RulesSystem) -> &'static [&'static str] {
    match system {
        RulesSystem::Mettle => &["STR", "AGI", "WIT", "omen", "omens"],
        RulesSystem::Core => &[
            "POISE", "NATURE", "CULTURE", "MOTIVE", "FRAME", "Mettle", "METTLE", "Edge",
        ],
    }
}

/// The first word of the other system in `text`, if any.
fn foreign_word(text: &str, system: RulesSystem) -> Option<String> {
    if system == RulesSystem::Mettle && text.contains('ʂ') {
        return Some("ʂ".into());
    }
    let list = foreign_words(system);
    text.split(|c: char| !c.is_alphanumeric())
        .find(|w| list.contains(w))
        .map(str::to_owned)
}

/// The rules every journey keeps, whatever the dice (see the issue's
/// "Must show").
fn check_journey(j: &Journey, req: &Request, label: &str) {
    let n = req.party.mettle.len().max(req.party.core.len()) as u32;
    let full = req.capacity * n;
    // Supplies within bounds after every watch; a rest at least every
    // fourth watch; hunger and thirst from the rests logged.
    let mut awake = 0u32;
    let mut by_watch = vec![(0u32, 0u32)];
    let mut before = Vec::new();
    let mut dead = 0;
    for s in &j.watches {
        assert!(
            s.water <= full.max(req.water * n),
            "{label}: water {}",
            s.water
        );
        if s.doing == "rest" {
            awake = 0;
            if req.system == RulesSystem::Mettle {
                check_hunger(req, &before, dead, s, &format!("{label} watch {}", s.watch));
            }
        } else {
            awake += 1;
            assert!(awake <= 3, "{label}: {awake} watches awake at {}", s.watch);
            assert_eq!(s.wanting, before, "{label}: hunger changed between rests");
        }
        assert!(s.dead.len() >= dead, "{label}: the dead came back");
        dead = s.dead.len();
        before = s.wanting.clone();
        by_watch.push((s.hungry.unwrap_or(0), s.thirsty.unwrap_or(0)));
    }
    // Every leg walked to its end arrives once in the log; a leg every PC
    // died on arrives nowhere.
    let reaches = j
        .days
        .iter()
        .flat_map(|d| &d.entries)
        .filter(|e| e.starts_with("They reach "))
        .count();
    let walked = j
        .passages
        .iter()
        .filter(|p| !p.reached.starts_with("on the way to "))
        .count();
    assert_eq!(reaches, walked, "{label}: arrivals");
    // A death by hunger or thirst ends the journey with the leg it fell in.
    if let Some(w) = j.watches.iter().find(|s| !s.dead.is_empty()) {
        let last = j.passages.last().unwrap();
        assert!(last.watch < w.watch, "{label}: went on after a death");
        assert!(j.arrival.is_none() || last.reached == req.map.stops[req.to].name);
    }
    // Each METTLE Travel Check: the path's Difficulty plus the days
    // without food plus twice the days without water.
    for p in &j.passages {
        let path = req
            .map
            .paths
            .iter()
            .find(|x| {
                let (a, b) = (&req.map.stops[x.a].name, &req.map.stops[x.b].name);
                (*a == p.from && *b == p.to) || (*a == p.to && *b == p.from)
            })
            .expect("a passage follows a path");
        match req.system {
            RulesSystem::Mettle => {
                let (h, t) = by_watch[p.watch as usize];
                assert_eq!(p.penalty, Some(h + 2 * t), "{label} leg {}", p.leg);
                assert_eq!(p.difficulty, Some(path.difficulty + h + 2 * t));
            }
            RulesSystem::Core => {
                assert!(p.difficulty.is_none() && p.twist.is_none());
                assert!(p.encounter_chance.is_some());
            }
        }
        // A leg every PC died on pays no price: it ends on the way.
        let walked = !p.reached.starts_with("on the way to ");
        if walked && p.twist.as_ref().is_some_and(|t| t.twist == Twist::Lost) {
            let to = req.map.stop_named(&p.to).unwrap().id;
            let near: Vec<String> = req
                .map
                .neighbours(to)
                .iter()
                .map(|x| req.map.stops[x.1].name.clone())
                .collect();
            assert!(near.contains(&p.reached), "{label}: lost to {}", p.reached);
        }
    }
    for w in j.passages.windows(2) {
        assert_eq!(w[1].from, w[0].reached, "{label}: legs join up");
        // An extra day: the leg took three watches more than its length.
        if w[0]
            .twist
            .as_ref()
            .is_some_and(|t| t.twist == Twist::ExtraDay)
        {
            assert!(w[1].watch >= w[0].watch + w[0].watches + 3, "{label}");
        }
    }
    // Each Twist's price shows in the leg it was paid on.
    for p in j
        .passages
        .iter()
        .filter(|p| !p.reached.starts_with("on the way to "))
    {
        let twist = p.twist.as_ref().map(|t| t.twist);
        assert_eq!(p.ambushed, twist == Some(Twist::Ambushed), "{label}");
        if matches!(twist, Some(Twist::AnotherEncounter | Twist::WorseEncounter)) {
            assert!(p.encounters >= 1, "{label} leg {}: no encounter", p.leg);
        }
        if let Some(t) = &p.twist {
            assert!(!t.price.is_empty(), "{label}: {} unpriced", t.name);
        }
        if p.ambushed {
            lying_in_wait(req, j, p, label);
        }
        // A ford or a bridge stands on running water: skins filled there.
        let to = req.map.stop_named(&p.reached).unwrap();
        if map::WATER_KINDS.contains(&to.kind.as_str()) {
            let said = format!("At {} the river runs clean: they fill their skins", to.name);
            let told = j.days.iter().flat_map(|d| &d.entries);
            assert!(
                told.clone().any(|l| l.starts_with(&said)),
                "{label}: dry at {}",
                to.name
            );
        }
    }
    // Days in the summary are the days in the log.
    assert_eq!(j.days_taken, j.days.last().unwrap().day, "{label}");
    if let Some(a) = &j.arrival {
        assert!(
            a.starts_with(&format!("day {},", j.days_taken)),
            "{label}: {a}"
        );
    }
    let met: u32 = j.passages.iter().map(|p| p.encounters).sum();
    assert_eq!(met as usize, j.encounters.len(), "{label}");
    // Worded in its own system's terms only.
    let text = crate::terminal::items::journey(j);
    if let Some(w) = foreign_word(&text, req.system) {
        panic!("{label}: `{w}` in a {:?} journey:\n{text}", req.system);
    }
}

/// An Ambushed Twist says who: foes of the stop's own terrain wait there,
/// an encounter of the journey laid out as an ambush (METTLE: the party in
/// the middle zone, foes on a flank).
fn lying_in_wait(req: &Request, j: &Journey, p: &Passage, label: &str) {
    let to = req.map.stop_named(&p.reached).unwrap();
    let leg = format!("{} → {}, in ambush on arrival", p.from, p.reached);
    let e = j
        .encounters
        .iter()
        .find(|e| e.leg == leg)
        .unwrap_or_else(|| panic!("{label}: no one waits at {}", p.reached));
    assert!(!e.foes.is_empty(), "{label}: an ambush without foes");
    assert_eq!(e.encounter.terrain, to.terrain, "{label}: {}", e.name);
    if req.system == RulesSystem::Mettle {
        let z = &e.encounter.layout.zones;
        assert!(
            z[0].starts
                .iter()
                .all(|n| !req.party.mettle.iter().any(|b| &b.name == n))
        );
        assert!(
            !z[1].starts.is_empty(),
            "{label}: the party waits in the middle"
        );
    }
    let said = format!(
        "An ambush waits for them on the way into {}: {}",
        p.reached, e.name
    );
    let told = j
        .days
        .iter()
        .flat_map(|d| &d.entries)
        .any(|l| l.starts_with(&said));
    // Drawn among the terrain's own ambushes.
    assert!(
        e.encounter.lies_in_wait(),
        "{label}: {} is no ambush",
        e.name
    );
    assert!(
        told,
        "{label}: the log does not say who waits at {}",
        p.reached
    );
    // Where it needs a kind of place (`at:`), the stop is one: no
    // gatehouse watch on the way into a barrow.
    let at: Vec<&str> = e
        .encounter
        .situation
        .tags
        .iter()
        .filter_map(|t| t.strip_prefix("at:"))
        .collect();
    let name = to.name.to_lowercase();
    assert!(
        at.is_empty() || at.iter().any(|a| *a == to.kind || name.contains(a)),
        "{label}: {} on the way into {} ({})",
        e.name,
        to.name,
        to.kind
    );
}

#[test]
fn ten_thousand_journeys_keep_the_rules() {
    let library = crate::content::test_library();
    let seed = Seed::new("journey rules").unwrap();
    let maps: Vec<map::Map> = (0..40)
        .map(|i| nth(&library, &map::Request::default(), &seed, i).unwrap())
        .collect();
    let kits = [
        vec![],
        vec!["fishing".to_owned()],
        vec!["trapping".into(), "camping".into()],
        vec!["fishing".into(), "trapping".into(), "camping".into()],
    ];
    let mut twists = std::collections::BTreeMap::new();
    let (mut deaths, mut wiped) = (0, 0);
    for i in 0..10_000usize {
        let system = [RulesSystem::Mettle, RulesSystem::Core][i % 2];
        let m = maps[i % maps.len()].clone();
        let mut req = request(m, system);
        req.rations = (i / 2 % 5) as u32;
        req.water = (i / 10 % 4) as u32;
        req.capacity = req.water.max(1 + (i / 40 % 4) as u32);
        req.kits = kits[i / 7 % 4].clone();
        req.route = [Route::Safest, Route::Shortest][i / 3 % 2];
        let j = nth(&library, &req, &seed, i).unwrap();
        check_journey(&j, &req, &format!("#{i}"));
        deaths += usize::from(j.watches.iter().any(|w| !w.dead.is_empty()));
        wiped += usize::from(
            j.passages
                .last()
                .unwrap()
                .reached
                .starts_with("on the way to "),
        );
        for p in &j.passages {
            if let Some(t) = &p.twist {
                *twists.entry(format!("{:?}", t.twist)).or_insert(0) += 1;
            }
        }
    }
    // Every Twist came up and was priced.
    assert_eq!(twists.len(), 6, "{twists:?}");
    // Hunger and thirst killed in some, and every PC on the way in some.
    assert!(
        deaths > 0 && wiped > 0,
        "{deaths} with deaths, {wiped} wiped out"
    );
    eprintln!("{deaths} journeys with deaths, {wiped} wiped out on the way");
}

#[test]
fn a_journey_counts_its_days_from_its_first_day() {
    // The same journey set out on day 9 of a campaign: the same watches,
    // legs and rolls, every day 8 later, and as many days taken.
    let library = crate::content::test_library();
    let seed = Seed::new("calendar").unwrap();
    let later = |days: Vec<u32>| days.into_iter().map(|d| d + 8).collect::<Vec<_>>();
    for i in 0..20 {
        let m = nth(&library, &map::Request::default(), &seed, i).unwrap();
        let system = [RulesSystem::Mettle, RulesSystem::Core][i % 2];
        let first = nth(&library, &request(m.clone(), system), &seed, i).unwrap();
        let ninth = Request {
            pool: None,
            first_day: 9,
            fasting: Vec::new(),
            ..request(m, system)
        };
        let ninth = nth(&library, &ninth, &seed, i).unwrap();
        assert_eq!(ninth.days[0].day, 9, "#{i}");
        assert_eq!(ninth.days_taken, first.days_taken, "#{i}");
        assert_eq!(ninth.passages, first.passages, "#{i}");
        assert_eq!(
            later(first.days.iter().map(|d| d.day).collect()),
            ninth.days.iter().map(|d| d.day).collect::<Vec<_>>()
        );
        assert_eq!(
            later(first.watches.iter().map(|w| w.day).collect()),
            ninth.watches.iter().map(|w| w.day).collect::<Vec<_>>()
        );
        assert_eq!(
            later(first.supplies.iter().map(|s| s.day).collect()),
            ninth.supplies.iter().map(|s| s.day).collect::<Vec<_>>()
        );
        assert_eq!(
            later(first.encounters.iter().map(|e| e.day).collect()),
            ninth.encounters.iter().map(|e| e.day).collect::<Vec<_>>()
        );
        if let (Some(a), Some(b)) = (&first.arrival, &ninth.arrival) {
            let day = |s: &str| {
                s["day ".len()..s.find(',').unwrap()]
                    .parse::<u32>()
                    .unwrap()
            };
            assert_eq!(day(a) + 8, day(b), "{a} / {b}");
        }
    }
}

#[test]
fn one_ration_and_one_unit_of_water_are_counted_in_the_singular() {
    // One PC who carries 2 rations and 1 unit of water (room for 1): the
    // log says "1 ration" left and fills "(1 unit)".
    let library = crate::content::test_library();
    let seed = Seed::new("singular").unwrap();
    let mut said = Vec::new();
    for i in 0..40 {
        let m = nth(&library, &map::Request::default(), &seed, i).unwrap();
        let system = [RulesSystem::Mettle, RulesSystem::Core][i % 2];
        let req = Request {
            party: Party::from_summary(["3", "10"][i % 2], system).unwrap(),
            rations: 2,
            water: 1,
            capacity: 1,
            kits: Vec::new(),
            ..request(m, system)
        };
        let j = nth(&library, &req, &seed, i).unwrap();
        said.extend(j.days.into_iter().flat_map(|d| d.entries));
    }
    for line in &said {
        for wrong in ["1 rations", "1 units", "(1 units)"] {
            assert!(!line.contains(wrong), "{line}");
        }
    }
    assert!(
        said.iter().any(|l| l.contains("; 1 ration and")),
        "{said:#?}"
    );
    assert!(said.iter().any(|l| l.contains("(1 unit)")), "{said:#?}");
}

/// The log lines that arrive at a stop.
fn reach_lines(j: &Journey) -> Vec<String> {
    j.days
        .iter()
        .flat_map(|d| d.entries.iter())
        .filter(|l| l.starts_with("They reach "))
        .cloned()
        .collect()
}

#[test]
fn a_stop_told_before_says_what_moved_on_not_its_hook() {
    let library = crate::content::test_library();
    let seed = Seed::new("since").unwrap();
    let mut checked = 0;
    for i in 0..12 {
        let m = nth(&library, &map::Request::default(), &seed, i).unwrap();
        let first = nth(&library, &request(m.clone(), RulesSystem::Mettle), &seed, i).unwrap();
        let told: Vec<&Told> = first.told.iter().collect();
        assert!(
            told.iter().all(|t| t.since.is_none()),
            "#{i}: a first visit tells the hook"
        );
        let mut visits = Visits::new();
        for t in &told {
            visits.insert(t.stop.clone(), Vec::new());
        }
        let again = Request {
            visits,
            ..request(m.clone(), RulesSystem::Mettle)
        };
        let again = nth(&library, &again, &seed, i).unwrap();
        let lines = reach_lines(&again);
        let mut since = Vec::new();
        for t in &again.told {
            let stop = m.stops.iter().find(|s| s.name == t.stop).unwrap();
            let line = lines
                .iter()
                .find(|l| l.starts_with(&format!("They reach {} (", stop.name)))
                .unwrap();
            assert!(!line.contains(&stop.hook), "#{i}: the hook again: {line}");
            assert!(line.contains("Since they were last here, "), "#{i}: {line}");
            let row = t
                .since
                .clone()
                .expect("a stop told before gets a since row");
            let folk = map::SAFE_KINDS.contains(&stop.kind.as_str());
            let table = library.table("gen.place.since").unwrap();
            let tags = &table
                .rows
                .iter()
                .find(|r| r.entry.name == row)
                .unwrap()
                .entry
                .tags;
            assert!(
                folk || !tags.iter().any(|t| t == "folk"),
                "#{i}: {row} needs folk at a {}",
                stop.kind
            );
            since.push(row);
            checked += 1;
        }
        let mut unique = since.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(
            unique.len(),
            since.len(),
            "#{i}: one journey tells a row twice: {since:?}"
        );
    }
    assert!(checked >= 12, "only {checked} stops came back to");
}

#[test]
fn an_encounter_on_the_way_meets_the_weather_of_its_day() {
    let library = crate::content::test_library();
    let seed = Seed::new("seasons").unwrap();
    let mut checked = 0;
    for i in 0..30 {
        let m = nth(&library, &map::Request::default(), &seed, i).unwrap();
        // Day 89: the journey crosses from spring into summer on day 92.
        let req = Request {
            first_day: 89,
            fasting: Vec::new(),
            ..request(m, RulesSystem::Mettle)
        };
        let j = nth(&library, &req, &seed, i).unwrap();
        for n in &j.encounters {
            let e = &n.encounter;
            let Some(w) = &e.weather else { continue };
            if e.terrain != "underground" {
                let season = crate::generators::weather::Season::of_day(n.day);
                assert_eq!(w.table, season.table(), "#{i}: day {}", n.day);
                checked += 1;
            }
        }
    }
    assert!(checked >= 10, "only {checked} encounters on the way");
}

/// The rows a journey told at stops come back to, with the tags of each.
fn since_rows_told(library: &Library, j: &Journey) -> Vec<(String, Vec<String>)> {
    let table = library.table("gen.place.since").unwrap();
    j.told
        .iter()
        .filter_map(|t| t.since.clone())
        .map(|row| {
            let tags = table
                .rows
                .iter()
                .find(|r| r.entry.name == row)
                .unwrap()
                .entry
                .tags
                .iter()
                .map(|t| t.to_string())
                .collect();
            (row, tags)
        })
        .collect()
}

/// Issue 50: a stop whose trouble a record says the party dealt with
/// tells what came of it (`helped` rows, "Since they dealt with its
/// trouble"); one they left alone tells how the trouble grew (`ignored`
/// rows, "Since they were last here").
#[test]
fn a_stop_the_party_helped_tells_what_came_of_it_and_one_left_alone_how_it_grew() {
    let library = crate::content::test_library();
    let seed = Seed::new("since").unwrap();
    let (mut helped_rows, mut ignored_rows) = (0, 0);
    for i in 0..12 {
        let m = nth(&library, &map::Request::default(), &seed, i).unwrap();
        let first = nth(&library, &request(m.clone(), RulesSystem::Mettle), &seed, i).unwrap();
        let visits: Visits = first
            .told
            .iter()
            .map(|t| (t.stop.clone(), Vec::new()))
            .collect();
        let stops: Vec<String> = visits.keys().cloned().collect();
        for helped in [true, false] {
            let again = Request {
                visits: visits.clone(),
                helped: if helped { stops.clone() } else { Vec::new() },
                ..request(m.clone(), RulesSystem::Mettle)
            };
            let again = nth(&library, &again, &seed, i).unwrap();
            let (want, not) = if helped {
                ("helped", "ignored")
            } else {
                ("ignored", "helped")
            };
            for (row, tags) in since_rows_told(&library, &again) {
                assert!(!tags.iter().any(|t| t == not), "#{i}: {row} is {not}");
                assert!(tags.iter().any(|t| t == want), "#{i}: {row} is not {want}");
                if helped {
                    helped_rows += 1;
                } else {
                    ignored_rows += 1;
                }
            }
            let intro = if helped {
                "Since they dealt with its trouble, "
            } else {
                "Since they were last here, "
            };
            for line in reach_lines(&again) {
                if line.contains("Since ") {
                    assert!(line.contains(intro), "#{i}: {line}");
                }
            }
        }
    }
    assert!(
        helped_rows >= 12 && ignored_rows >= 12,
        "{helped_rows} {ignored_rows}"
    );
}

/// Issue 50: routine nights in camp on days in a row are one entry of the
/// log (`Days 3–5`), anything else stays its own line, and the log still
/// covers every day the journey took, each once.
#[test]
fn routine_nights_in_a_row_are_one_entry_and_every_day_is_still_told() {
    let library = crate::content::test_library();
    let seed = Seed::new("folded").unwrap();
    let mut folded = 0;
    for i in 0..80 {
        let m = nth(
            &library,
            &map::Request {
                stops: 16,
                terrains: Vec::new(),
            },
            &seed,
            i,
        )
        .unwrap();
        let system = if i % 2 == 0 {
            RulesSystem::Mettle
        } else {
            RulesSystem::Core
        };
        let mut req = request(m, system);
        (req.rations, req.water, req.capacity) = (9, 9, 9);
        let j = nth(&library, &req, &seed, i).unwrap();
        let only_camp = |d: &Day| {
            d.through.is_none()
                && d.entries.len() == 1
                && d.entries[0].starts_with("Camp for the night: everyone eats and drinks; ")
        };
        for w in j.days.windows(2) {
            assert!(
                !(only_camp(&w[0]) && only_camp(&w[1]) && w[0].day + 1 == w[1].day),
                "#{i}: days {} and {} are both a routine night: {:?}",
                w[0].day,
                w[1].day,
                j.days
            );
        }
        let mut next = req.first_day;
        for d in &j.days {
            assert_eq!(d.day, next, "#{i}: {:?}", j.days);
            let last = d.through.unwrap_or(d.day);
            if let Some(t) = d.through {
                assert!(t > d.day, "#{i}");
                assert_eq!(d.entries.len(), 1, "#{i}");
                assert!(
                    d.entries[0].starts_with("Camp each night: everyone eats and drinks; "),
                    "#{i}: {:?}",
                    d.entries
                );
                folded += 1;
            }
            next = last + 1;
        }
        assert_eq!(next - req.first_day, j.days_taken, "#{i}");
    }
    // Legs are mostly a day or less, so days of nothing but a night in
    // camp are few; `log`'s own test folds every kind of run.
    assert!(folded >= 1, "no run folded");
}

/// Issue 50: at each village, town or inn reached the party hears a
/// rumour naming a person or creature of the pack or campaign, or another
/// stop of the map; never a frame's mark left in, never one frame twice
/// on a journey.
#[test]
fn a_settlement_reached_tells_a_rumour_naming_someone_or_somewhere_known() {
    let library = crate::content::test_library();
    let seed = Seed::new("rumours").unwrap();
    let hearsay = Hearsay {
        people: vec!["Mara Voss".into()],
        creatures: vec!["a bog horror".into()],
        heard: Vec::new(),
    };
    let (mut heard, mut kinds) = (0, [0; 3]);
    for i in 0..60 {
        let m = nth(
            &library,
            &map::Request {
                stops: 16,
                terrains: Vec::new(),
            },
            &seed,
            i,
        )
        .unwrap();
        let mut req = request(m.clone(), RulesSystem::Mettle);
        (req.rations, req.water, req.capacity) = (9, 9, 9);
        req.hearsay = hearsay.clone();
        let j = nth(&library, &req, &seed, i).unwrap();
        let lines: Vec<&String> = j.days.iter().flat_map(|d| &d.entries).collect();
        let mut frames = Vec::new();
        // Those met on the way may be named too.
        let mut known = hearsay.clone();
        known.add(
            j.encounters
                .iter()
                .flat_map(|e| e.encounter.foes.iter().chain(&e.encounter.others)),
        );
        for (k, line) in lines.iter().enumerate() {
            let Some(stop) = m.stops.iter().find(|s| {
                line.starts_with(&format!("They reach {} (", s.name))
                    && map::SAFE_KINDS.contains(&s.kind.as_str())
            }) else {
                continue;
            };
            let first = !lines[..k]
                .iter()
                .any(|l| l.starts_with(&format!("They reach {} (", stop.name)));
            let next = lines.get(k + 1).map(|l| l.as_str()).unwrap_or_default();
            let said = format!("Rumour at {}: ", stop.name);
            assert_eq!(next.starts_with(&said), first, "#{i}: {line} / {next}");
            let Some(rumour) = next.strip_prefix(&said) else {
                continue;
            };
            assert!(!rumour.contains('~'), "#{i}: {rumour}");
            let places = m
                .stops
                .iter()
                .filter(|s| s.name != stop.name && rumour.contains(&s.name));
            let named = [
                known.people.iter().any(|p| rumour.contains(p.as_str())),
                known.creatures.iter().any(|c| rumour.contains(c.as_str())),
                places.count() > 0,
            ];
            assert!(
                named.iter().any(|&n| n),
                "#{i}: names nobody known: {rumour}"
            );
            for (n, k) in named.iter().zip(&mut kinds) {
                *k += usize::from(*n);
            }
            frames.push(rumour.chars().take(20).collect::<String>());
            heard += 1;
        }
        let before = frames.len();
        frames.sort();
        frames.dedup();
        assert_eq!(frames.len(), before, "#{i}: a frame twice");
    }
    assert!(heard >= 30, "only {heard} rumours heard");
    assert!(kinds.iter().all(|&k| k >= 3), "{kinds:?}");
}

/// Issue 50: a campaign's memory covers rumours. The frames earlier
/// sessions told (`Hearsay::heard`, here every other row of the table)
/// are not told again while others fit; without that memory the same
/// journeys tell them.
#[test]
fn rumour_frames_told_in_earlier_sessions_wait_until_the_others_are_told() {
    let library = crate::content::test_library();
    let seed = Seed::new("rumour-memory").unwrap();
    let rows = &library.table(rumours::RUMOURS).unwrap().rows;
    let heard: Vec<String> = rows
        .iter()
        .step_by(2)
        .map(|r| r.entry.name.to_string())
        .collect();
    let told = |remembered: &[String]| {
        let mut out = Vec::new();
        for i in 0..40 {
            let m = nth(
                &library,
                &map::Request {
                    stops: 16,
                    terrains: Vec::new(),
                },
                &seed,
                i,
            )
            .unwrap();
            let mut req = request(m, RulesSystem::Mettle);
            (req.rations, req.water, req.capacity) = (9, 9, 9);
            req.hearsay = Hearsay {
                people: vec!["Mara Voss".into()],
                creatures: vec!["a bog horror".into()],
                heard: remembered.to_vec(),
            };
            out.extend(nth(&library, &req, &seed, i).unwrap().rumours);
        }
        out
    };
    let fresh = told(&[]);
    let again = fresh.iter().filter(|f| heard.contains(f)).count();
    assert!(again >= 10, "{again} of {} would repeat", fresh.len());
    let remembering = told(&heard);
    assert!(remembering.len() >= 30, "{remembering:?}");
    let repeated: Vec<&String> = remembering.iter().filter(|f| heard.contains(f)).collect();
    assert!(repeated.is_empty(), "told again: {repeated:?}");
}
