//! What the run sheet says, once for the PDF (page 1) and `pack.md`: each
//! PC with the numbers the GM needs and a track to tick, one line per
//! encounter with its threat and foes, the journey in one line, and the
//! initiative ladder (its rule and rows). The PDF adds page numbers; the
//! Markdown gets the same values in its template context.

use serde::Serialize;

use crate::generators::encounter::Encounter;
use crate::generators::journey::Journey;
use crate::generators::session::Pack;
use crate::generators::{count, display_name};
use crate::rules::RulesSystem;
use crate::wording::lines;
use crate::wording::markup::Markup;
use crate::wording::perils;

/// A PC on the run sheet: name, one stat line, and tracks to tick.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(super) struct Pc {
    pub name: String,
    pub stats: String,
    pub tracks: Vec<Track>,
}

/// A labelled row of tick boxes: `Mettle 6`, `health 9`, `omens`; the
/// first `filled` of them already ticked (damage taken before the
/// session, or omens spent).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(super) struct Track {
    pub label: String,
    pub boxes: usize,
    pub filled: usize,
}

/// The initiative ladder: the system's rule, a row per name (PCs, or the
/// order of the initiative cards), `blanks` rows to write a name on, and
/// `rounds` boxes to tick per row (0: a line to write on instead).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(super) struct Ladder {
    pub rule: &'static str,
    pub names: Vec<String>,
    pub blanks: usize,
    pub rounds: usize,
}

/// Each PC of the pack's party, in the pack's system.
pub(super) fn party(pack: &Pack, markup: Markup) -> Vec<Pc> {
    match pack.system {
        RulesSystem::Mettle => pack
            .party
            .mettle
            .iter()
            .map(|b| Pc {
                name: b.name.clone(),
                stats: format!(
                    "{} · Soak {} · {}",
                    lines::mettle_attributes(b),
                    b.soak(),
                    lines::weapons_dm(b, markup)
                ),
                tracks: vec![mettle_track(pack, b)],
            })
            .collect(),
        RulesSystem::Core => pack
            .party
            .core
            .iter()
            .map(|s| {
                // Only a campaign knows what was taken before the session.
                let campaign = pack.campaign.is_some();
                let health = s.max_health().max(0);
                let now = s.current_health().clamp(0, health);
                let mut tracks = vec![match campaign && now < health {
                    true => marked(&format!("health {now} of {health}"), health, health - now),
                    false => track(&format!("health {health}"), health),
                }];
                if s.max_omens > 0 {
                    let spent = match campaign {
                        true => (s.max_omens - s.omens).clamp(0, s.max_omens),
                        false => 0,
                    };
                    tracks.push(marked("omens", s.max_omens, spent));
                }
                Pc {
                    name: s.name.clone(),
                    stats: format!(
                        "{} · armour {} · {}",
                        lines::core_attributes(s),
                        s.armour,
                        lines::core_attack(s, markup)
                    ),
                    tracks,
                }
            })
            .collect(),
    }
}

fn track(label: &str, boxes: i64) -> Track {
    marked(label, boxes, 0)
}

/// A track of `boxes` with the first `filled` ticked.
fn marked(label: &str, boxes: i64, filled: i64) -> Track {
    let boxes = boxes.clamp(0, 60) as usize;
    Track {
        label: label.to_owned(),
        boxes,
        filled: (filled.max(0) as usize).min(boxes),
    }
}

/// A METTLE PC's Mettle track: in a campaign, the Mettle already lost
/// filled (all of it at 0 or below) and the label saying where it stands.
fn mettle_track(pack: &Pack, b: &crate::rules::mettle::StatBlock) -> Track {
    let max = i64::from(b.mettle());
    let now = pack
        .campaign
        .as_ref()
        .and_then(|c| c.recap.pcs.iter().find(|p| p.name == b.name));
    match now {
        Some(p) if p.taken > 0 => marked(
            &format!("Mettle {} of {max}", p.level).replace('-', "−"),
            max,
            p.taken as i64,
        ),
        _ => track(&format!("Mettle {max}"), max),
    }
}

/// Encounter `number` (1-based) in one line: `2. Sleeper by the spring —
/// threat hard (1.40) · Marsh leech ×8, Bog horror`.
pub(super) fn encounter_line(number: usize, e: &Encounter) -> String {
    format!("{number}. {}", encounter_text(e))
}

/// [`encounter_line`] without its number: `Sleeper by the spring —
/// threat hard (1.40) · Marsh leech ×8, Bog horror`.
pub(super) fn encounter_text(e: &Encounter) -> String {
    let threat = if e.foes.is_empty() {
        "no foes".to_owned()
    } else {
        format!("threat {} ({:.2})", e.threat.verdict, e.threat.ratio)
    };
    format!("{} — {threat}{}", e.situation.row, foe_summary(e))
}

/// ` · Marsh leech ×8, Bog horror`: the foes grouped by kind, in order of
/// first appearance (empty without foes).
pub(super) fn foe_summary(e: &Encounter) -> String {
    let mut kinds: Vec<(String, usize)> = Vec::new();
    for n in &e.foes {
        let kind = display_name(&n.archetype);
        match kinds.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, c)) => *c += 1,
            None => kinds.push((kind, 1)),
        }
    }
    if kinds.is_empty() {
        return String::new();
    }
    let names: Vec<String> = kinds
        .into_iter()
        .map(|(k, c)| if c > 1 { format!("{k} ×{c}") } else { k })
        .collect();
    format!(" · {}", names.join(", "))
}

/// The journey in one line: `Ashford → Saltmere: 3 legs, 2 days · Lead:
/// … · no encounter on the way 41.20%` (`2 days, did not arrive` when the
/// party stopped on the way).
pub(super) fn journey_line(j: &Journey) -> String {
    let days = count(j.days_taken, "day", "days");
    format!(
        "{} → {}: {}, {} · {} · no encounter on the way {}",
        j.from,
        j.to,
        count(j.legs.len(), "leg", "legs"),
        if j.arrived {
            days
        } else {
            format!("{days}, did not arrive")
        },
        lines::journey_lead(j),
        lines::percent(j.no_encounter)
    )
}

/// The initiative ladder of the pack's system: METTLE's passing rule with
/// a row per PC and four to write foes on, eight rounds to tick; Core
/// Rules' card order with a line to write who holds each card.
pub(super) fn ladder(pack: &Pack) -> Ladder {
    match pack.system {
        RulesSystem::Mettle => Ladder {
            rule: "1. Whoever calls the first attack holds Initiative.  2. The target of each Action goes next, if it still has an Action.  3. If not (or the Action had no target), pass to anyone who still has one.  4. When nobody has an Action left, a new round begins. Tick a box as each combatant acts.",
            names: pack.party.mettle.iter().map(|b| b.name.clone()).collect(),
            blanks: 4,
            rounds: 8,
        },
        RulesSystem::Core => Ladder {
            rule: "Deal every player two cards, one for their PC and one for a foe. Jokers act at will (and get a bonus action); then Aces down to 2s; ties by suit: spades, hearts, diamonds, clubs. Write who holds each card.",
            names: [
                "Joker", "A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2",
            ]
            .iter()
            .map(|s| (*s).to_owned())
            .collect(),
            blanks: 0,
            rounds: 0,
        },
    }
}

/// The run sheet's flags for traps that can kill a PC outright, one line
/// each: the pack's traps (`trap/1`), then the encounters' (`trap of
/// encounter/2`), each with the PCs at risk and the exact chance.
pub(super) fn deadly_traps(pack: &Pack) -> Vec<String> {
    let own = pack
        .traps
        .iter()
        .enumerate()
        .filter_map(|(i, t)| perils::deadly_line(t, &format!("trap/{}", i + 1)));
    let lurking = pack.encounters.iter().enumerate().filter_map(|(i, e)| {
        e.trap
            .as_ref()
            .and_then(|t| perils::deadly_line(t, &format!("encounter/{}'s trap", i + 1)))
    });
    own.chain(lurking).collect()
}

/// [`deadly_traps`] for `pack.md`, each line escaped.
pub(super) fn deadly_traps_md(pack: &Pack) -> Vec<String> {
    deadly_traps(pack)
        .iter()
        .map(|l| crate::wording::markup::escape_md(l))
        .collect()
}
