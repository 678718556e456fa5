//! Issue 51, finding 4: every arrival a journey logs (a Lost Twist's
//! too) is one the map's reachability rule (`map::reach`) allows, so the
//! record check and `play` accept the pack's own days.

use super::*;
use crate::generators::map::{self, reach};
use crate::generators::nth;

#[test]
fn no_arrival_beats_the_maps_reachability_rule() {
    let library = crate::content::test_library();
    let seed = Seed::new("reach").unwrap();
    let mut lost = 0;
    for i in 0..300 {
        let m = nth(
            &library,
            &map::Request {
                stops: 12,
                terrains: vec![],
            },
            &seed,
            i,
        )
        .unwrap();
        let system = if i % 3 == 0 {
            RulesSystem::Core
        } else {
            RulesSystem::Mettle
        };
        let req = Request {
            first_season: Default::default(),
            from: m.start,
            to: m.goal,
            party: match system {
                RulesSystem::Mettle => Party::from_summary("2,3,3", system).unwrap(),
                RulesSystem::Core => Party::from_summary("10,12,9", system).unwrap(),
            },
            map: m,
            system,
            route: Route::Shortest,
            rations: 3,
            water: 3,
            capacity: 3,
            kits: vec!["camping".into()],
            twist: true,
            used: Vec::new(),
            remembered: Vec::new(),
            shun: Vec::new(),
            taken: Vec::new(),
            heard: Vec::new(),
            pool: None,
            first_day: 5,
            fasting: Vec::new(),
            visits: Default::default(),
            helped: Vec::new(),
            hearsay: Default::default(),
        };
        let j = nth(&library, &req, &seed, i).unwrap();
        lost += j
            .passages
            .iter()
            .filter(|p| p.twist.as_ref().is_some_and(|t| t.twist == Twist::Lost))
            .count();
        for d in &j.days {
            for e in &d.entries {
                let Some(rest) = e.strip_prefix("They reach ") else {
                    continue;
                };
                let name = rest.split(" (").next().unwrap();
                let to = req.map.stop_named(name).unwrap().id;
                let soonest = reach::soonest(&req.map, req.from, to, 5).unwrap();
                assert!(
                    d.day >= soonest,
                    "#{i}: {name} on day {} but day {soonest} at the soonest\n{:#?}",
                    d.day,
                    j.days
                );
                assert!(reach::check(&req.map, req.from, to, 5, d.day).is_ok());
            }
        }
    }
    assert!(lost >= 5, "only {lost} Lost Twists");
}

#[test]
fn the_rule_accepts_the_soonest_day_and_refuses_the_day_before() {
    // `play`'s arrival and the record check both ask `reach::check`: on
    // the boundary, the soonest day is accepted and the day before it
    // refused with that soonest day; a stop off every road is no road.
    let library = crate::content::test_library();
    let seed = Seed::new("reach-edge").unwrap();
    let mut far = 0;
    for i in 0..100 {
        let m: map::Map = nth(
            &library,
            &map::Request {
                stops: 10,
                terrains: vec![],
            },
            &seed,
            i,
        )
        .unwrap();
        for to in 0..m.stops.len() {
            let Some((_, watches)) = reach::quickest(&m, m.start, to) else {
                assert_eq!(
                    reach::check(&m, m.start, to, 3, 99),
                    Err(reach::Unreachable::NoRoad)
                );
                continue;
            };
            let soonest = reach::soonest(&m, m.start, to, 3).unwrap();
            assert_eq!(soonest, 3 + watches.div_ceil(2).saturating_sub(1));
            assert_eq!(reach::check(&m, m.start, to, 3, soonest), Ok(()));
            if soonest > 3 {
                far += 1;
                assert_eq!(
                    reach::check(&m, m.start, to, 3, soonest - 1),
                    Err(reach::Unreachable::TooFar {
                        watches,
                        days: watches.div_ceil(2),
                        soonest,
                    })
                );
            }
        }
    }
    assert!(far >= 100, "only {far} stops a day or more away");
}
