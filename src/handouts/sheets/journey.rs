//! The journey log: the lead and the route, the exact odds of every leg
//! (a table with a column to write the result in), a ration and a water
//! box per PC per day with a log line, the encounters the dice put on the
//! way, and blank log lines (the day-by-day account is in `journey.md`).

use crate::generators::journey::{Journey, WatchState};
use crate::handouts::markdown::Wording;
use crate::page::layout::Flow;
use crate::rules::Party;
use crate::rules::RulesSystem;
use crate::wording::lines::{journey_lead, percent};

/// Body text (read at the table).
const BODY: f64 = 9.5;
const HEAD: f64 = 11.0;

/// The journey log.
pub(super) fn journey(f: &mut Flow, j: &Journey, party: &Party, w: &Wording) {
    f.section(&format!("{}: {} → {}", w.sheet.journey_log, j.from, j.to));
    f.para(
        &format!(
            "journey/1 · {}, the {} route · chance of no encounter on the whole way: {} · {}",
            journey_lead(j),
            route(j),
            percent(j.no_encounter),
            match &j.arrival {
                Some(a) if j.arrived => format!("as rolled: arrives {a}"),
                _ => "as rolled: does not arrive".to_owned(),
            }
        ),
        BODY,
        false,
    );
    legs(f, j);
    supplies(f, j, party);
    on_the_way(f, j);
    rolled(f, j);
    f.note_lines(&w.sheet.log, 3);
}

fn route(j: &Journey) -> &'static str {
    match j.route {
        crate::generators::journey::Route::Safest => "safest",
        crate::generators::journey::Route::Shortest => "shortest",
    }
}

/// The legs with their odds (METTLE: Difficulty and a safe Travel Check
/// with and without a Twist; Core Rules: the chance of an encounter each
/// watch and of none on the leg), and a column to write the result in.
fn legs(f: &mut Flow, j: &Journey) {
    let mettle = j.system == RulesSystem::Mettle;
    f.heading(
        if mettle {
            "Legs: Travel Check, the lead's pool vs the path's Difficulty"
        } else {
            "Legs: an encounter check every travelling watch"
        },
        HEAD,
    );
    let rows: Vec<Vec<String>> = j
        .legs
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let odds = if mettle {
                [
                    l.difficulty.to_string(),
                    percent(l.safe),
                    percent(l.safe_with_twist),
                ]
            } else {
                [
                    l.encounter_chance.clone().unwrap_or_default(),
                    percent(l.safe),
                    String::new(),
                ]
            };
            let mut row = vec![
                (i + 1).to_string(),
                format!("{} → {}", l.from, l.to),
                l.terrain.clone(),
                format!("{} / {}", l.regions, l.watches),
            ];
            row.extend(odds);
            row.push(String::new());
            row
        })
        .collect();
    let head: [&str; 8] = if mettle {
        [
            "#",
            "leg",
            "terrain",
            "regions / watches",
            "Diff.",
            "safe",
            "with Twist",
            "result",
        ]
    } else {
        [
            "#",
            "leg",
            "terrain",
            "regions / watches",
            "per watch",
            "safe",
            "",
            "result",
        ]
    };
    f.table(
        &head,
        &rows,
        &[0.04, 0.3, 0.1, 0.12, 0.07, 0.1, 0.11, 0.16],
        BODY,
    );
}

/// A ration box and a water box per PC for each day of the way.
fn supplies(f: &mut Flow, j: &Journey, party: &Party) {
    let names: Vec<String> = party
        .mettle
        .iter()
        .map(|b| b.name.clone())
        .chain(party.core.iter().map(|s| s.name.clone()))
        .collect();
    if names.is_empty() || j.days.is_empty() {
        return;
    }
    f.heading(
        "Supplies and log: per PC a ration box and a water box a day; a line for the day",
        HEAD,
    );
    // A folded run of days in the log (`through`) still has a line a day.
    for day in j
        .days
        .iter()
        .flat_map(|d| d.day..=d.through.unwrap_or(d.day))
    {
        let mut tracks = vec![(format!("Day {day}:"), 0)];
        tracks.extend(names.iter().map(|n| (n.clone(), 2)));
        f.tracks_then(&tracks, BODY, true);
    }
    f.para(
        &format!(
            "As rolled, they end with {} and {} water.{}",
            crate::generators::count(j.rations_left, "ration", "rations"),
            j.water_left,
            deaths(&j.watches)
        ),
        9.0,
        false,
    );
}

/// `" Hunger and thirst kill Dana on day 5, Troy and Kirin on day 6: the
/// party goes no further."`, or empty when they kill no one (METTLE).
fn deaths(watches: &[WatchState]) -> String {
    let mut by_day: Vec<(u32, Vec<String>)> = Vec::new();
    let mut seen = 0;
    for w in watches {
        for name in w.dead.iter().skip(seen) {
            match by_day.last_mut() {
                Some((day, names)) if *day == w.day => names.push(name.clone()),
                _ => by_day.push((w.day, vec![name.clone()])),
            }
        }
        seen = seen.max(w.dead.len());
    }
    if by_day.is_empty() {
        return String::new();
    }
    let each: Vec<String> = by_day
        .iter()
        .map(|(day, names)| format!("{} on day {day}", crate::generators::join_and(names)))
        .collect();
    format!(
        " Hunger and thirst kill {}: the party goes no further.",
        each.join(", ")
    )
}

/// What else the log says happened on the way, as rolled, for the GM
/// who reads only the paper: each Twist and its price, each search for
/// water and each foraging watch with what it found, and who went
/// without at each rest (METTLE: the Difficulty it adds).
fn on_the_way(f: &mut Flow, j: &Journey) {
    let mut lines: Vec<String> = j
        .passages
        .iter()
        .filter_map(|p| {
            let t = p.twist.as_ref()?;
            Some(format!(
                "Leg {}, {} → {} — Twist ({}): {}",
                p.leg, p.from, p.to, t.name, t.price
            ))
        })
        .collect();
    lines.extend(watch_lines(&j.watches));
    if lines.is_empty() {
        return;
    }
    f.heading(
        "On the way, as rolled: Twists, water, foraging, hunger",
        HEAD,
    );
    for l in lines {
        f.para(&l, 9.0, false);
    }
}

/// A line for each search for water, foraging watch, and rest where a PC
/// went without, in order.
fn watch_lines(watches: &[WatchState]) -> Vec<String> {
    let mut out = Vec::new();
    let mut before: Option<&WatchState> = None;
    for w in watches {
        let (water, found) = before.map_or((w.water, 0), |b| (b.water, b.perishable));
        match w.doing.as_str() {
            "water" if w.water > water => out.push(format!(
                "Day {}, {}: a watch searching for water — found, water {water} → {}.",
                w.day, w.at, w.water
            )),
            "water" => out.push(format!(
                "Day {}, {}: a watch searching for water — none found.",
                w.day, w.at
            )),
            "forage" => out.push(format!(
                "Day {}, {}: a watch foraging — {} found.",
                w.day,
                w.at,
                crate::generators::count(w.perishable.saturating_sub(found), "ration", "rations")
            )),
            "rest" if !w.wanting.is_empty() => {
                let each: Vec<String> = w
                    .wanting
                    .iter()
                    .map(|p| {
                        let days = |n| crate::generators::count(n, "day", "days");
                        format!(
                            "{} Difficulty +{} ({} without food, {} without water)",
                            p.name,
                            p.hungry + 2 * p.thirsty,
                            days(p.hungry),
                            days(p.thirsty)
                        )
                    })
                    .collect();
                out.push(format!(
                    "Day {}, rest: hungry and thirsty — {}.",
                    w.day,
                    each.join("; ")
                ));
            }
            _ => {}
        }
        before = Some(w);
    }
    out
}

/// What the dice rolled on the way, in brief: each encounter with its day
/// and leg (the day-by-day account is in `journey.md`).
fn rolled(f: &mut Flow, j: &Journey) {
    if j.encounters.is_empty() {
        return;
    }
    f.heading("Encounters on the way, as rolled", HEAD);
    for e in &j.encounters {
        let foes = if e.foes.is_empty() {
            String::new()
        } else {
            format!(" Foes: {} (threat {}).", e.foes.join(", "), e.threat)
        };
        f.para(
            &format!(
                "Day {}, {}: {} — {}{foes}",
                e.day, e.leg, e.name, e.situation
            ),
            9.0,
            false,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn watch(day: u32, dead: &[&str]) -> WatchState {
        WatchState {
            watch: day * 3,
            day,
            of_day: 3,
            doing: "rest".into(),
            at: "the fen".into(),
            groggy: false,
            rations: 0,
            perishable: 0,
            water: 0,
            fed: Some(0),
            drank: Some(0),
            hungry: Some(day),
            thirsty: Some(day),
            abilities: Vec::new(),
            wanting: Vec::new(),
            dead: dead.iter().map(|d| (*d).to_owned()).collect(),
            shillings_spent: None,
        }
    }

    #[test]
    fn the_sheet_says_water_searches_foraging_and_hunger_as_the_log_does() {
        let doing = |d: &str, water: u32, perishable: u32| WatchState {
            doing: d.into(),
            water,
            perishable,
            ..watch(2, &[])
        };
        let mut hungry = watch(3, &[]);
        hungry.wanting = vec![crate::generators::journey::Wanting {
            name: "Ada".into(),
            hungry: 1,
            thirsty: 1,
        }];
        let watches = [
            doing("travel", 1, 0),
            doing("water", 12, 0),
            doing("water", 12, 0),
            doing("forage", 12, 2),
            hungry,
        ];
        assert_eq!(
            watch_lines(&watches),
            [
                "Day 2, the fen: a watch searching for water — found, water 1 → 12.",
                "Day 2, the fen: a watch searching for water — none found.",
                "Day 2, the fen: a watch foraging — 2 rations found.",
                "Day 3, rest: hungry and thirsty — Ada Difficulty +3 (1 day without food, 1 day without water)."
            ]
        );
    }

    #[test]
    fn the_sheet_names_who_hunger_and_thirst_killed_by_day() {
        assert_eq!(deaths(&[watch(1, &[]), watch(2, &[])]), "");
        let watches = [
            watch(4, &[]),
            watch(5, &["Dana"]),
            watch(5, &["Dana"]),
            watch(6, &["Dana", "Troy", "Kirin"]),
        ];
        assert_eq!(
            deaths(&watches),
            " Hunger and thirst kill Dana on day 5, Troy and Kirin on day 6: the party goes \
             no further."
        );
    }
}
