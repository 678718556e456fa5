//! The run sheet (page 1): title, seed and share line; the contents with
//! page numbers; each PC with a Mettle or health track to tick; one line
//! per encounter with its threat and the journey in one line; an
//! initiative ladder; a notes box filling the rest of the page.

use super::ShareLine;
use crate::generators::pack::Pack;
use crate::render::layout::Flow;
use crate::render::lines;
use crate::rules::RulesSystem;

/// Body text on the run sheet (read at the table).
const BODY: f64 = 9.5;
const HEAD: f64 = 11.0;

/// The run sheet. `contents` holds each later section's title and page
/// (1-based); the first layout pass gives it (see `super::pack_pdf`).
pub(super) fn cover(f: &mut Flow, pack: &Pack, share: &ShareLine, contents: &[(String, usize)]) {
    f.section(&pack.title);
    f.para(
        &format!(
            "Session pack · {} · seed {}",
            pack.system.label(),
            share.seed
        ),
        11.0,
        true,
    );
    f.para(&share.plain(), 9.0, false);
    f.gap(4.0);
    f.columns(
        16.0,
        &mut [
            &mut |f: &mut Flow| contents_table(f, contents),
            &mut |f: &mut Flow| party(f, pack),
        ],
    );
    at_a_glance(f, pack, contents);
    ladder(f, pack);
    f.note_lines("Notes", 2);
}

/// The contents: each section and the page it starts on.
fn contents_table(f: &mut Flow, contents: &[(String, usize)]) {
    f.heading("Contents", HEAD);
    let rows: Vec<Vec<String>> = contents
        .iter()
        .map(|(title, page)| vec![title.clone(), page.to_string()])
        .collect();
    f.table(&["section", "page"], &rows, &[0.84, 0.16], BODY);
}

/// Each PC with the numbers the GM needs and a track to tick.
fn party(f: &mut Flow, pack: &Pack) {
    f.heading("The party", HEAD);
    match pack.system {
        RulesSystem::Mettle => {
            for b in &pack.party.mettle {
                let mettle = b.mettle() as usize;
                f.para(&b.name, 10.0, true);
                f.para(
                    &format!(
                        "{} · Soak {} · {}",
                        lines::mettle_attributes(b),
                        b.soak(),
                        lines::weapons_dm(b, lines::Markup::Plain)
                    ),
                    BODY,
                    false,
                );
                f.tracks(&[(format!("Mettle {mettle}"), mettle)], BODY);
            }
        }
        RulesSystem::Core => {
            for s in &pack.party.core {
                let health = s.STR.max(0) as usize;
                f.para(&s.name, 10.0, true);
                f.para(
                    &format!(
                        "{} · armour {} · {}",
                        lines::core_attributes(s),
                        s.armour,
                        lines::core_attack(s, lines::Markup::Plain)
                    ),
                    BODY,
                    false,
                );
                let mut tracks = vec![(format!("health {health}"), health)];
                if s.max_omens > 0 {
                    tracks.push(("omens".to_owned(), s.max_omens.max(0) as usize));
                }
                f.tracks(&tracks, BODY);
            }
        }
    }
}

/// One line per encounter with its threat, and the journey in one line.
fn at_a_glance(f: &mut Flow, pack: &Pack, contents: &[(String, usize)]) {
    let page_of = |prefix: &str| {
        contents
            .iter()
            .find(|(t, _)| t.starts_with(prefix))
            .map_or(String::new(), |(_, p)| format!(" · p. {p}"))
    };
    if !pack.encounters.is_empty() {
        f.heading("Encounters", HEAD);
        for (i, e) in pack.encounters.iter().enumerate() {
            let foes = foe_summary(e);
            let threat = if e.foes.is_empty() {
                "no foes".to_owned()
            } else {
                format!("threat {} ({:.2})", e.threat.verdict, e.threat.ratio)
            };
            f.para(
                &format!(
                    "{}. {} — {threat}{foes}{}",
                    i + 1,
                    e.situation.row,
                    page_of(&format!("Encounter {}:", i + 1))
                ),
                BODY,
                false,
            );
        }
    }
    if let Some(j) = &pack.journey {
        let days = j.days.len();
        f.heading("Journey", HEAD);
        f.para(
            &format!(
                "{} → {}: {} legs, {days} day{} · {} · no encounter on the way {}{}",
                j.from,
                j.to,
                j.legs.len(),
                if days == 1 { "" } else { "s" },
                lines::journey_lead(j),
                lines::percent(j.no_encounter),
                page_of("Journey")
            ),
            BODY,
            false,
        );
    }
}

/// ` · Marsh leech ×8, Bog horror`.
fn foe_summary(e: &crate::generators::encounter::Encounter) -> String {
    let mut kinds: Vec<(String, usize)> = Vec::new();
    for n in &e.foes {
        let kind = crate::generators::display_name(&n.archetype);
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

/// The initiative ladder: METTLE's passing rule with a box per combatant
/// and round; ACS card initiative as the order of the cards with room to
/// write who holds each.
fn ladder(f: &mut Flow, pack: &Pack) {
    f.keep(HEAD * 2.0 + BODY * 10.0);
    f.heading("Initiative ladder", HEAD);
    match pack.system {
        RulesSystem::Mettle => {
            f.para(
                "1. Whoever calls the first attack holds Initiative.  2. The target of each Action goes next, if it still has an Action.  3. If not (or the Action had no target), pass to anyone who still has one.  4. When nobody has an Action left, a new round begins. Tick a box as each combatant acts.",
                BODY,
                false,
            );
            let names: Vec<String> = pack.party.mettle.iter().map(|b| b.name.clone()).collect();
            f.ladder(&names, 4, 8, BODY);
        }
        RulesSystem::Core => {
            f.para(
                "Deal every player two cards, one for their PC and one for a foe. Jokers act at will (and get a bonus action); then Aces down to 2s; ties by suit: spades, hearts, diamonds, clubs. Write who holds each card.",
                BODY,
                false,
            );
            let order: Vec<String> = [
                "Joker", "A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2",
            ]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
            f.ladder(&order, 0, 0, BODY);
        }
    }
}
