//! Issue 51, finding 5, on the journey: hunger and thirst carried from
//! before it start the clock, and a PC who cannot see leads only when no
//! one can (METTLE: at the Scenes' +4 Difficulty).

use super::*;
use crate::generators::map;
use crate::generators::nth;

fn mettle_request(kind: &str) -> Request {
    let library = crate::content::test_library();
    let mut m = nth(
        &library,
        &map::Request::default(),
        &Seed::new("carried").unwrap(),
        0,
    )
    .unwrap();
    m.stops[m.start].kind = kind.into();
    Request {
        from: m.start,
        to: m.goal,
        map: m,
        party: Party::from_summary("3,4,4,5", RulesSystem::Mettle).unwrap(),
        system: RulesSystem::Mettle,
        route: Route::Safest,
        rations: 3,
        water: 3,
        capacity: 3,
        kits: vec![],
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
        hearsay: Default::default(),
    }
}

fn walk(req: &Request) -> Journey {
    let library = crate::content::test_library();
    nth(&library, req, &Seed::new("carried").unwrap(), 0).unwrap()
}

#[test]
fn hunger_and_thirst_from_before_weigh_on_the_first_travel_check() {
    let mut req = mettle_request("ruin");
    let lead = route::lead(&req.party, req.system).unwrap().name;
    req.fasting = vec![Wanting {
        name: lead.clone(),
        hungry: 2,
        thirsty: 1,
    }];
    let j = walk(&req);
    // Before any rest: +2 for two days without food, +2 for one without water.
    assert_eq!(j.passages[0].penalty, Some(4), "{:#?}", j.days[0]);
    assert!(
        j.days[0].entries[1].contains(&format!(
            "Hunger and thirst from before: {lead} sets out Hungry and Thirsty: +4 Difficulty (2 days without food, 1 without water)."
        )),
        "{:#?}",
        j.days[0]
    );
    // A status alone is a day.
    let mut req = mettle_request("ruin");
    let k = req
        .party
        .mettle
        .iter()
        .position(|b| b.name == lead)
        .unwrap();
    req.party.mettle[k].statuses = vec!["Hungry".into()];
    assert_eq!(walk(&req).passages[0].penalty, Some(1));
    // From a settlement they eat and drink before setting out.
    let mut req = mettle_request("village");
    req.fasting = vec![Wanting {
        name: lead.clone(),
        hungry: 2,
        thirsty: 1,
    }];
    let j = walk(&req);
    assert_eq!(j.passages[0].penalty, Some(0));
    let said = &j.days[0].entries[1];
    assert!(said.contains("They eat and drink at"), "{said}");
    // What they came in with is said as past, with no Difficulty that
    // the meal has already cleared.
    assert!(
        said.contains(&format!(
            "{lead} came in Hungry and Thirsty (2 days without food, 1 without water)."
        )),
        "{said}"
    );
    assert!(
        !said.contains("sets out") && !said.contains("Difficulty"),
        "{said}"
    );
}

#[test]
fn a_blinded_pc_leads_only_when_no_one_sees_and_then_at_plus_four() {
    let req = mettle_request("ruin");
    let sighted = route::lead(&req.party, req.system).unwrap();
    assert_eq!(sighted.blind, 0);
    // The best lead Blinded: the next best leads, at no extra Difficulty.
    let mut blind_lead = mettle_request("ruin");
    for b in &mut blind_lead.party.mettle {
        if b.name == sighted.name {
            b.statuses.push("Blinded".into());
        }
    }
    let next = route::lead(&blind_lead.party, blind_lead.system).unwrap();
    assert_ne!(next.name, sighted.name);
    assert_eq!(next.blind, 0);
    // Everyone Blinded: the best leads, every Check at +4 (Scenes).
    let mut all = mettle_request("ruin");
    for b in &mut all.party.mettle {
        b.statuses.push("Blinded".into());
    }
    let lead = route::lead(&all.party, all.system).unwrap();
    assert_eq!((lead.name.as_str(), lead.blind), (sighted.name.as_str(), 4));
    let seen = walk(&req);
    let blind = walk(&all);
    assert!(blind.days[0].entries[0].contains("Blinded like everyone: +4 Difficulty"));
    let first = |j: &Journey| {
        (
            j.passages[0].difficulty.unwrap(),
            j.passages[0].penalty.unwrap(),
        )
    };
    let ((d0, p0), (d1, p1)) = (first(&seen), first(&blind));
    assert_eq!(d1 - p1, d0 - p0 + 4);
    // The planned odds carry it too.
    assert!(blind.no_encounter < seen.no_encounter);
    // Core Rules: a blind PC does not track while another can see.
    let mut core = Party::from_summary("10,12,9,11", RulesSystem::Core).unwrap();
    let best = route::lead(&core, RulesSystem::Core).unwrap().name;
    for s in &mut core.core {
        if s.name == best {
            s.conditions.push("blind".into());
        }
    }
    assert_ne!(route::lead(&core, RulesSystem::Core).unwrap().name, best);
}
