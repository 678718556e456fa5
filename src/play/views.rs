//! The two views of a session in play. The GM's holds everything; the
//! players' is built from an allow-list — the title, the players' map as
//! the party knows it (no Difficulty, no stop unknown to the party) and
//! the handouts the GM pushed, each as its players' side only — so no
//! GM-only field can reach it by being forgotten.

use serde::Serialize;

use super::Play;
use super::action::{Action, Shown};
use super::marks::Marks;
use super::outcome::{Kept, Outcome};
use crate::generators::map::Reveal;
use crate::handouts::drawings::chart::{self, View};
use crate::rules::RulesSystem;

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

/// The players' view (`/api/players`): an allow-list.
#[derive(Serialize)]
pub(crate) struct Players<'a> {
    api: u32,
    title: &'a str,
    version: u64,
    map: Svg,
    handouts: Vec<Handout>,
}

/// A map as a page draws it: its SVG, if the session has a map.
#[derive(Serialize)]
struct Svg {
    svg: Option<String>,
}

/// A handout pushed to the players: its players' side only.
#[derive(Serialize)]
struct Handout {
    k: usize,
    title: String,
    text: String,
}

/// The players' view.
pub(crate) fn players(play: &Play, version: u64) -> Players<'_> {
    let marks = &play.marks;
    let handouts = marks
        .pushed
        .iter()
        .filter_map(|&k| {
            let (title, text) = handout(play, marks, k)?;
            Some(Handout { k, title, text })
        })
        .collect();
    Players {
        api: 1,
        title: &play.fixed.title,
        version,
        map: Svg {
            svg: svg(play, marks, true),
        },
        handouts,
    }
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

/// The GM's view (`/api/gm`): everything, but of the log only the lines
/// after `since` within the last [`super::api::LOG_WINDOW`] (each answer
/// bounded however long the log), with `log_total` (the last line's
/// number) and `struck` (the lines struck within that window).
#[derive(Serialize)]
pub(crate) struct Gm<'a> {
    api: u32,
    title: &'a str,
    session: usize,
    campaign: bool,
    system: RulesSystem,
    share: &'a str,
    /// A campaign's day (none outside one).
    day: Option<u32>,
    stop: Option<String>,
    pcs: Vec<Pc<'a>>,
    items: Vec<ItemRow<'a>>,
    tables: Vec<TableRow<'a>>,
    heal: Vec<HealRow<'a>>,
    /// A campaign's supplies (none outside one).
    supplies: Option<Supplies>,
    map: GmMap<'a>,
    tracker: TrackerView<'a>,
    results: Vec<Recent<'a>>,
    log: Vec<LogLine<'a>>,
    log_total: usize,
    struck: Vec<usize>,
}

/// A PC as the GM's party card shows them.
#[derive(Serialize)]
struct Pc<'a> {
    name: &'a str,
    /// Fallen: no Mettle or health left.
    sitting: bool,
    track: Track<'a>,
    statuses: Vec<&'a String>,
    /// The PC's Downtime Vouchers not spent.
    vouchers: Vec<&'a String>,
    healed: Option<Healed>,
    /// As the record says: a failed Heal Check is `dead`.
    fate: Option<&'static str>,
    /// Core Rules: omens left (none under METTLE).
    omens: Option<i64>,
    corruption: i64,
    injuries: &'a [String],
    mutations: &'a [String],
}

/// Mettle or health: its name, now and at most.
#[derive(Serialize)]
struct Track<'a> {
    label: &'a str,
    now: i64,
    max: i64,
}

/// A Heal Check made.
#[derive(Serialize)]
struct Healed {
    passed: bool,
    edge: u32,
    twist: bool,
}

/// An item of the pack, with whether it was met (or spent).
#[derive(Serialize)]
struct ItemRow<'a> {
    address: &'a str,
    kind: &'a str,
    title: &'a str,
    odds: &'a str,
    text: &'a str,
    met: bool,
    serial: Option<&'a str>,
    spent: bool,
}

/// A table the GM may roll on.
#[derive(Serialize)]
struct TableRow<'a> {
    id: &'a str,
    title: String,
}

/// The GM's map, and its stops with what the party knows of each.
#[derive(Serialize)]
struct GmMap<'a> {
    svg: Option<String>,
    stops: Vec<StopRow<'a>>,
}

#[derive(Serialize)]
struct StopRow<'a> {
    name: &'a str,
    visited: bool,
    known: bool,
}

/// A line of the log, and whether it is struck.
#[derive(Serialize)]
struct LogLine<'a> {
    k: usize,
    line: &'a str,
    struck: bool,
}

/// The GM's view.
pub(crate) fn gm(play: &Play, since: usize) -> Gm<'_> {
    let f = &play.fixed;
    let marks = &play.marks;
    let (day, stop) = marks.day_stop(play);
    let total = play.entries.len();
    let window = total - play.lines.len();
    Gm {
        api: 1,
        title: &f.title,
        session: f.session,
        campaign: f.campaign,
        system: f.system,
        share: &f.share,
        day: f.campaign.then_some(day),
        stop,
        pcs: (0..f.pcs.len()).map(|i| pc(play, i)).collect(),
        items: items(play),
        tables: f
            .library
            .tables
            .values()
            .map(|t| TableRow {
                id: &t.id,
                title: t.title.to_string(),
            })
            .collect(),
        heal: heal(play, marks),
        supplies: supplies(play, marks),
        map: GmMap {
            svg: svg(play, marks, false),
            stops: stops(play),
        },
        tracker: tracker(play, marks),
        results: results(play, marks),
        log: log(play, since),
        log_total: total,
        struck: marks.struck.range(window + 1..).copied().collect(),
    }
}

/// PC `i` as the party card shows them.
fn pc(play: &Play, i: usize) -> Pc<'_> {
    let (f, marks) = (&play.fixed, &play.marks);
    let (p, m) = (&f.pcs[i], &marks.pcs[i]);
    let mut statuses: Vec<&String> = p.statuses.iter().filter(|s| !m.cured.contains(s)).collect();
    statuses.extend(&m.gained);
    let vouchers = f
        .vouchers
        .iter()
        .filter(|(s, h)| *h == p.name && !marks.spent.contains(s))
        .map(|(s, _)| s)
        .collect();
    let now = marks.now(play, i);
    let healed = m.healed.as_ref().map(|h| Healed {
        passed: h.passed,
        edge: h.edge,
        twist: h.twist,
    });
    let failed = m.healed.as_ref().is_some_and(|h| !h.passed);
    Pc {
        name: &p.name,
        sitting: now <= 0,
        track: Track {
            label: p.label,
            now,
            max: p.max,
        },
        statuses,
        vouchers,
        healed,
        fate: failed.then_some("dead"),
        omens: p.omens.map(|had| had - m.omens),
        corruption: m.corruption,
        injuries: &m.injuries,
        mutations: &m.mutations,
    }
}

fn items(play: &Play) -> Vec<ItemRow<'_>> {
    let marks = &play.marks;
    let met: Vec<&String> = marks.met.iter().chain(&marks.npcs_met).collect();
    play.fixed
        .items
        .iter()
        .map(|i| ItemRow {
            address: &i.address,
            kind: i.kind,
            title: &i.title,
            odds: &i.odds,
            text: &i.text,
            met: met.contains(&&i.address),
            serial: i.serial.as_deref(),
            spent: i.serial.as_ref().is_some_and(|s| marks.spent.contains(s)),
        })
        .collect()
}

/// The map's stops, with what the party knows of each (none: no map).
fn stops(play: &Play) -> Vec<StopRow<'_>> {
    let Some(map) = &play.fixed.map else {
        return Vec::new();
    };
    let r = reveal(play, &play.marks);
    map.stops
        .iter()
        .map(|s| StopRow {
            name: &s.name,
            visited: r.as_ref().is_some_and(|r| r.visited(s.id)),
            known: r.as_ref().is_some_and(|r| r.knows_stop(s.id)),
        })
        .collect()
}

/// The log's lines after `since`, of those the view holds.
fn log(play: &Play, since: usize) -> Vec<LogLine<'_>> {
    let total = play.entries.len();
    let window = total - play.lines.len();
    (since.clamp(window, total)..total)
        .map(|i| LogLine {
            k: i + 1,
            line: &play.lines[i - window],
            struck: play.marks.struck.contains(&(i + 1)),
        })
        .collect()
}

/// How many of the last rolls the GM's view carries.
pub(crate) const RESULTS: usize = 5;

/// One of the last rolls: its line and result (its trail of dice) as its
/// answer had them; `check` is the Check's number (a Check's or its
/// Twist's) and `twist_open` whether its Twist may still be taken.
#[derive(Serialize)]
struct Recent<'a> {
    k: usize,
    #[serde(rename = "do")]
    verb: String,
    line: &'a str,
    result: &'a Outcome,
    check: Option<usize>,
    twist_open: bool,
}

/// The last [`RESULTS`] rolls of the log (tables, dice, Checks, Twists,
/// Heal Checks), newest first, so a reloaded page or a restarted `play`
/// shows them again.
fn results<'a>(play: &'a Play, marks: &Marks) -> Vec<Recent<'a>> {
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
            Recent {
                k: e.k,
                verb: e.action.args().0,
                line: &r.line,
                result: &r.outcome,
                check,
                twist_open: open,
            }
        })
        .collect()
}

/// A Heal Check the GM may roll: the patient, the healer, the dice
/// against Difficulty 3 and their odds (plain and with the Twist), and
/// whether it was rolled.
#[derive(Serialize)]
struct HealRow<'a> {
    pc: Option<&'a str>,
    healer: &'a str,
    dice: String,
    difficulty: u32,
    odds: String,
    odds_twist: String,
    done: bool,
}

fn heal<'a>(play: &'a Play, marks: &Marks) -> Vec<HealRow<'a>> {
    play.fixed
        .heal
        .iter()
        .map(|h| {
            let e = |twist: &str| crate::dice::parse(&format!("{}D vs 3{twist}", h.pool)).ok();
            let p = |twist| {
                e(twist)
                    .and_then(|e| crate::dice::odds(&e).ok())
                    .and_then(|o| match o.detail {
                        crate::dice::odds::OddsDetail::Check(c) => {
                            Some(crate::wording::lines::percent(c.success))
                        }
                        _ => None,
                    })
                    .unwrap_or_default()
            };
            let done = h
                .patient
                .as_ref()
                .and_then(|n| play.fixed.pcs.iter().position(|p| p.name == *n))
                .is_some_and(|i| marks.pcs[i].healed.is_some());
            HealRow {
                pc: h.patient.as_deref(),
                healer: &h.healer,
                dice: format!("{}D", h.pool),
                difficulty: 3,
                odds: p(""),
                odds_twist: p(" twist"),
                done,
            }
        })
        .collect()
}

/// A campaign's purse, rations and water now.
#[derive(Serialize)]
struct Supplies {
    money: String,
    rations: i64,
    water: i64,
}

fn supplies(play: &Play, marks: &Marks) -> Option<Supplies> {
    let f = &play.fixed;
    f.campaign.then(|| Supplies {
        money: format!("{}ʂ", f.money + marks.money),
        rations: i64::from(f.rations) + marks.rations,
        water: i64::from(f.water) + marks.water,
    })
}

/// The encounter tracker: round 0 and no one, when none is running.
#[derive(Serialize)]
struct TrackerView<'a> {
    round: u32,
    turn: Option<&'a str>,
    combatants: Vec<CombatantRow<'a>>,
}

#[derive(Serialize)]
struct CombatantRow<'a> {
    name: &'a str,
    side: &'a str,
    init: Option<i64>,
    card: Option<&'a str>,
    track: Track<'a>,
    /// None yet (the page's card has the place for them).
    statuses: [&'a str; 0],
}

fn tracker<'a>(play: &'a Play, marks: &'a Marks) -> TrackerView<'a> {
    let Some(t) = &marks.tracker else {
        return TrackerView {
            round: 0,
            turn: None,
            combatants: Vec::new(),
        };
    };
    let combatants = t
        .combatants
        .iter()
        .map(|c| {
            // A PC's track is the party's: one number, wherever it is set.
            let pc = (c.side == "pc")
                .then(|| play.fixed.pcs.iter().position(|p| p.name == c.name))
                .flatten();
            let now = pc.map_or(c.now, |i| marks.now(play, i));
            CombatantRow {
                name: &c.name,
                side: c.side,
                init: c.init,
                card: c.card.as_deref(),
                track: Track {
                    label: c.label,
                    now,
                    max: c.max,
                },
                statuses: [],
            }
        })
        .collect();
    TrackerView {
        round: t.round,
        turn: t.turn.map(|i| t.combatants[i].name.as_str()),
        combatants,
    }
}
