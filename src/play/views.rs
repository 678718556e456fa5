//! The two views of a session in play. The GM's holds everything; the
//! players' is built from an allow-list — the title, the players' map as
//! the party knows it (no Difficulty, no stop unknown to the party) and
//! the handouts the GM pushed, each as its players' side only — so no
//! GM-only field can reach it by being forgotten.

use serde_json::{Value, json};

use super::Play;
use super::action::{Action, Shown};
use super::marks::Marks;
use super::outcome::Kept;
use crate::generators::map::Reveal;
use crate::handouts::drawings::chart::{self, View};

/// What the party knows of the map now: the start, and the stops it has
/// arrived at since (with the paths between them travelled).
fn reveal(play: &Play, marks: &Marks) -> Option<Reveal> {
    let (map, start) = (play.fixed.map.as_ref()?, play.fixed.reveal.as_ref()?);
    let mut visited = start.visited.clone();
    let mut travelled = start.travelled.clone();
    let mut at = play
        .fixed
        .stop
        .as_deref()
        .and_then(|s| map.stop_named(s))
        .map(|s| s.id);
    for (stop, _) in &marks.arrivals {
        let Some(s) = map.stop_named(stop).map(|s| s.id) else {
            continue;
        };
        if let Some(p) = at.and_then(|a| map.path_between(a, s))
            && !travelled.contains(&p)
        {
            travelled.push(p);
        }
        if !visited.contains(&s) {
            visited.push(s);
        }
        at = Some(s);
    }
    let mut r = Reveal::new(map, visited, travelled, None, start.trail.clone());
    let more: Vec<usize> = start
        .heard
        .iter()
        .copied()
        .filter(|&h| !r.visited(h))
        .collect();
    r.heard.extend(more);
    r.heard.sort_unstable();
    r.heard.dedup();
    Some(r)
}

/// What the party knows of the map now (tests).
#[cfg(test)]
pub(crate) fn reveal_now(play: &Play) -> Reveal {
    reveal(play, &play.marks).expect("a campaign's map")
}

/// The maps drawn last, by whose they are and what the party knew: a
/// map is drawn again only when an arrival changes it.
#[derive(Default)]
pub(crate) struct Drawn(std::sync::Mutex<Vec<DrawnMap>>);

/// A map drawn: the players' or not, where the party is, the stops
/// visited, what else the party knew (heard of, then paths travelled),
/// and the SVG.
type DrawnMap = (bool, Option<usize>, Vec<usize>, Vec<usize>, String);

fn svg(play: &Play, marks: &Marks, players: bool) -> Option<String> {
    let map = play.fixed.map.as_ref()?;
    // The party's marker is the map's start: after an arrival, that stop.
    let here = marks
        .arrivals
        .last()
        .and_then(|(s, _)| map.stop_named(s))
        .map(|s| s.id);
    let moved;
    let map = match here {
        Some(h) if h != map.start => {
            moved = crate::generators::map::Map {
                start: h,
                ..map.clone()
            };
            &moved
        }
        _ => map,
    };
    let r = reveal(play, marks);
    // What the party knows: visited; heard of, then the paths travelled.
    let key = r.as_ref().map_or((Vec::new(), Vec::new()), |r| {
        let known = r.heard.iter().chain([&usize::MAX]).chain(&r.travelled);
        (r.visited.clone(), known.copied().collect())
    });
    let mut drawn = play
        .drawn
        .0
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((.., svg)) = drawn
        .iter()
        .find(|(p, at, v, h, _)| *p == players && *at == here && (v, h) == (&key.0, &key.1))
    {
        return Some(svg.clone());
    }
    let view = View {
        players,
        reveal: r.as_ref(),
    };
    let svg = crate::page::svg::document(&chart::draw_view(map, view));
    drawn.retain(|(p, ..)| *p != players);
    drawn.push((players, here, key.0, key.1, svg.clone()));
    Some(svg)
}

/// The players' view: an allow-list.
pub(crate) fn players(play: &Play, version: u64) -> Value {
    let marks = &play.marks;
    let handouts: Vec<Value> = marks
        .pushed
        .iter()
        .filter_map(|&k| {
            let (title, text) = handout(play, marks, k)?;
            Some(json!({"k": k, "title": title, "text": text}))
        })
        .collect();
    json!({
        "api": 1,
        "title": play.fixed.title,
        "version": version,
        "map": {"svg": svg(play, marks, true)},
        "handouts": handouts,
    })
}

/// A pushed handout's players' side: an item's, or a check's result
/// without its Difficulty.
fn handout(play: &Play, marks: &Marks, k: usize) -> Option<(String, String)> {
    let Action::Push(shown) = &play.entries.get(k - 1)?.action else {
        return None;
    };
    match shown {
        Shown::Item(a) => play
            .fixed
            .items
            .iter()
            .find(|i| i.address == *a)
            .map(|i| i.players.clone()),
        Shown::Check(of) => {
            let e = play.entries.get(of - 1)?;
            let Action::Check { pc, pool, .. } = &e.action else {
                return None;
            };
            let twisted = play.entries.iter().rev().find(|t| {
                matches!(t.action, Action::Twist { k } if k == *of) && !marks.struck.contains(&t.k)
            });
            let Kept::Check { success, edge, .. } = twisted.unwrap_or(e).kept else {
                return None;
            };
            let said = if success { "success" } else { "failure" };
            let with = if twisted.is_some() {
                " after a Twist"
            } else {
                ""
            };
            Some((
                format!("{pc}'s check"),
                format!("{pool}: {said}{with}, Edge {edge}"),
            ))
        }
    }
}

/// The GM's view: everything, but of the log only the lines after
/// `since` within the last [`super::api::LOG_WINDOW`] (each answer bounded however
/// long the log), with `log_total` (the last line's number) and
/// `struck` (the lines struck within that window).
pub(crate) fn gm(play: &Play, since: usize) -> Value {
    let f = &play.fixed;
    let marks = &play.marks;
    let (day, stop) = marks.day_stop(play);
    let pcs: Vec<Value> = f
        .pcs
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let m = &marks.pcs[i];
            let mut statuses: Vec<&String> =
                p.statuses.iter().filter(|s| !m.cured.contains(s)).collect();
            statuses.extend(&m.gained);
            let vouchers: Vec<&String> = f
                .vouchers
                .iter()
                .filter(|(s, h)| *h == p.name && !marks.spent.contains(s))
                .map(|(s, _)| s)
                .collect();
            let now = marks.now(play, i);
            // As the record says: a failed Heal Check is `fate = "dead"`.
            let healed = m
                .healed
                .as_ref()
                .map(|h| json!({"passed": h.passed, "edge": h.edge, "twist": h.twist}));
            let fate = m
                .healed
                .as_ref()
                .is_some_and(|h| !h.passed)
                .then_some("dead");
            // Core Rules: omens left, corruption gained, the slips taken.
            let omens = p.omens.map(|had| had - m.omens);
            json!({"name": p.name, "sitting": now <= 0,
                   "track": {"label": p.label, "now": now, "max": p.max},
                   "statuses": statuses, "vouchers": vouchers, "healed": healed, "fate": fate,
                   "omens": omens, "corruption": m.corruption,
                   "injuries": m.injuries, "mutations": m.mutations})
        })
        .collect();
    let met: Vec<&String> = marks.met.iter().chain(&marks.npcs_met).collect();
    let items: Vec<Value> = f
        .items
        .iter()
        .map(|i| {
            let spent = i.serial.as_ref().is_some_and(|s| marks.spent.contains(s));
            json!({"address": i.address, "kind": i.kind, "title": i.title, "odds": i.odds,
                   "text": i.text, "met": met.contains(&&i.address), "serial": i.serial,
                   "spent": spent})
        })
        .collect();
    let tables: Vec<Value> = f
        .library
        .tables
        .values()
        .map(|t| json!({"id": t.id, "title": t.title.to_string()}))
        .collect();
    let stops: Vec<Value> = match (&f.map, reveal(play, marks)) {
        (Some(map), r) => map
            .stops
            .iter()
            .map(|s| {
                json!({
                    "name": s.name,
                    "visited": r.as_ref().is_some_and(|r| r.visited(s.id)),
                    "known": r.as_ref().is_some_and(|r| r.knows_stop(s.id)),
                })
            })
            .collect(),
        _ => Vec::new(),
    };
    let total = play.entries.len();
    let window = total - play.lines.len();
    let log: Vec<Value> = (since.clamp(window, total)..total)
        .map(|i| {
            let k = i + 1;
            json!({"k": k, "line": play.lines[i - window], "struck": marks.struck.contains(&k)})
        })
        .collect();
    let struck: Vec<usize> = marks.struck.range(window + 1..).copied().collect();
    json!({
        "api": 1, "title": f.title, "session": f.session, "campaign": f.campaign,
        "system": f.system, "share": f.share,
        "day": f.campaign.then_some(day), "stop": stop,
        "pcs": pcs, "items": items, "tables": tables,
        "heal": heal(play, marks),
        "supplies": supplies(play, marks),
        "map": {"svg": svg(play, marks, false), "stops": stops},
        "tracker": tracker(play, marks),
        "results": results(play, marks),
        "log": log, "log_total": total, "struck": struck,
    })
}

/// How many of the last rolls the GM's view carries.
pub(crate) const RESULTS: usize = 5;

/// The last [`RESULTS`] rolls of the log (tables, dice, Checks, Twists,
/// Heal Checks), newest first, each with its line and result (its trail
/// of dice) as its answer had them, so a reloaded page or a restarted
/// `play` shows them again: `check` is the Check's number (a Check's or
/// its Twist's) and `twist_open` whether its Twist may still be taken.
fn results(play: &Play, marks: &Marks) -> Vec<Value> {
    play.recent
        .iter()
        .map(|r| {
            let e = &play.entries[r.k - 1];
            let of_check = |k: usize| matches!(play.entries[k - 1].action, Action::Check { .. });
            let check = match e.action {
                Action::Check { .. } => Some(e.k),
                Action::Twist { k } => of_check(k).then_some(k),
                _ => None,
            };
            // A failed Check's or Heal Check's Twist, not yet taken (a Heal
            // Check struck takes none).
            let open = matches!(e.action, Action::Check { .. } | Action::Heal { .. })
                && e.kept.twist_offered().is_some()
                && !marks.twisted.contains(&e.k)
                && !marks.struck.contains(&e.k);
            let (verb, _) = e.action.args();
            json!({"k": e.k, "do": verb, "line": r.line, "result": r.outcome.json(),
                   "check": check, "twist_open": open})
        })
        .collect()
}

fn heal(play: &Play, marks: &Marks) -> Vec<Value> {
    play.fixed
        .heal
        .iter()
        .map(|h| {
            let e = |twist: &str| crate::dice::parse(&format!("{}D vs 3{twist}", h.pool)).ok();
            let p = |twist| {
                e(twist)
                    .and_then(|e| crate::dice::odds(&e).ok())
                    .and_then(|o| match o.detail {
                        crate::dice::odds::OddsDetail::Check(c) => Some(crate::wording::lines::percent(c.success)),
                        _ => None,
                    })
                    .unwrap_or_default()
            };
            let done = h.patient.as_ref().and_then(|n| play.fixed.pcs.iter().position(|p| p.name == *n))
                .is_some_and(|i| marks.pcs[i].healed.is_some());
            json!({"pc": h.patient, "healer": h.healer, "dice": format!("{}D", h.pool), "difficulty": 3,
                   "odds": p(""), "odds_twist": p(" twist"), "done": done})
        })
        .collect()
}

fn supplies(play: &Play, marks: &Marks) -> Value {
    let f = &play.fixed;
    if !f.campaign {
        return Value::Null;
    }
    json!({"money": format!("{}ʂ", f.money + marks.money),
           "rations": i64::from(f.rations) + marks.rations,
           "water": i64::from(f.water) + marks.water})
}

fn tracker(play: &Play, marks: &Marks) -> Value {
    let Some(t) = &marks.tracker else {
        return json!({"round": 0, "turn": null, "combatants": []});
    };
    let combatants: Vec<Value> = t
        .combatants
        .iter()
        .map(|c| {
            // A PC's track is the party's: one number, wherever it is set.
            let pc = (c.side == "pc")
                .then(|| play.fixed.pcs.iter().position(|p| p.name == c.name))
                .flatten();
            let now = pc.map_or(c.now, |i| marks.now(play, i));
            json!({"name": c.name, "side": c.side, "init": c.init, "card": c.card,
                        "track": {"label": c.label, "now": now, "max": c.max}, "statuses": []})
        })
        .collect();
    json!({"round": t.round, "turn": t.turn.map(|i| &t.combatants[i].name), "combatants": combatants})
}
