//! A session pack as one PDF: a cover with contents, then a section per
//! handout (each a bookmark: encounters, NPC cards, trap cards, the maps, the
//! journey, vouchers, slips), the share line and page number on every page.
//! One function per section; stat lines come from [`crate::render::lines`].

use super::ShareLine;
use crate::generators::display_name;
use crate::generators::encounter::Encounter;
use crate::generators::journey::Journey;
use crate::generators::map::Map;
use crate::generators::npc::Npc;
use crate::generators::pack::Pack;
use crate::generators::trap::Trap;
use crate::render::layout::{Card, Flow};
use crate::render::lines::{self, percent};
use crate::render::pdf::{self, Fonts, Paper};
use crate::render::{map, zones};

/// The whole pack as one PDF.
pub fn pack_pdf(
    pack: &Pack,
    share: &ShareLine,
    paper: Paper,
    ink_saver: bool,
    fonts: &Fonts,
) -> Vec<u8> {
    let mut f = Flow::new(fonts, paper, share.plain(), ink_saver);
    cover(&mut f, pack, share);
    for (i, e) in pack.encounters.iter().enumerate() {
        encounter(&mut f, i + 1, e);
    }
    if !pack.npcs.is_empty() {
        npc_cards(&mut f, &pack.npcs);
    }
    if !pack.traps.is_empty() {
        trap_cards(&mut f, &pack.traps);
    }
    if let Some(m) = &pack.map {
        for players in [false, true] {
            map_pages(&mut f, m, players);
        }
    }
    if let Some(j) = &pack.journey {
        journey(&mut f, j);
    }
    if !pack.vouchers.is_empty() {
        vouchers(&mut f, pack, share);
    }
    if !pack.injuries.is_empty() || !pack.mutations.is_empty() {
        slips(&mut f, pack);
    }
    let (pages, sections) = f.finish();
    pdf::document(&pack.title, paper, &pages, &sections, fonts)
}

/// The title, the share line and the contents.
fn cover(f: &mut Flow, pack: &Pack, share: &ShareLine) {
    f.section(&pack.title);
    f.para(&format!("Session pack — seed {}", share.seed), 11.0, true);
    f.para(&share.plain(), 9.0, false);
    let mut contents = Vec::new();
    for (i, e) in pack.encounters.iter().enumerate() {
        contents.push(format!(
            "Encounter {}: {} ({})",
            i + 1,
            e.situation.row,
            e.threat.verdict
        ));
    }
    if !pack.npcs.is_empty() {
        contents.push(format!("NPC cards ({})", pack.npcs.len()));
    }
    if !pack.traps.is_empty() {
        contents.push(format!("Trap cards ({})", pack.traps.len()));
    }
    if pack.map.is_some() {
        contents.push("Point-crawl map (GM and players)".into());
    }
    if pack.journey.is_some() {
        contents.push("Journey log".into());
    }
    if !pack.vouchers.is_empty() {
        contents.push(format!("Downtime vouchers ({})", pack.vouchers.len()));
    }
    if !pack.injuries.is_empty() || !pack.mutations.is_empty() {
        contents.push("Injury and mutation slips".into());
    }
    f.gap(8.0);
    f.heading("Contents", 12.0);
    for c in contents {
        f.para(&format!("• {c}"), 10.0, false);
    }
}

/// An encounter's pages: the situation, foes with boxes to tick, zones,
/// terrain, the odds of every attack.
fn encounter(f: &mut Flow, number: usize, e: &Encounter) {
    f.section(&format!("Encounter {number}: {}", e.situation.row));
    f.para(&e.situation.text, 10.0, false);
    f.para(
        &format!(
            "Terrain {} · threat {} (ratio {:.2}) · trail: {}",
            e.terrain,
            e.threat.verdict,
            e.threat.ratio,
            e.situation.trail_text()
        ),
        8.0,
        false,
    );
    if !e.foes.is_empty() {
        f.heading("Foes", 12.0);
        for n in &e.foes {
            foe(f, n);
        }
    }
    f.heading(&format!("Zones ({})", e.layout.kind), 12.0);
    f.drawing(&zones::draw(e));
    terrain(f, e);
    if !e.odds.is_empty() {
        attack_odds(f, e);
    }
    f.para("Initiative: whoever calls the first attack acts first; then the target of each Action goes next.", 8.0, false);
}

/// A foe: who, its stat line, and its Mettle or health as boxes.
fn foe(f: &mut Flow, n: &Npc) {
    let line = lines::foe_line(n);
    let tough = line.toughness as usize;
    f.para(
        &format!("{} (tier {}, {})", lines::who(n), n.tier, n.kind),
        10.0,
        true,
    );
    f.para(&format!("{} · {}", line.stats, line.attack), 9.0, false);
    let label = if n.mettle.is_some() {
        format!("Mettle {tough}")
    } else {
        format!("Health {tough}")
    };
    f.ticks(&label, tough, 9.0);
}

/// The terrain cards and what else is on the field: sporadics, a hazard,
/// a trap.
fn terrain(f: &mut Flow, e: &Encounter) {
    f.heading(
        &format!("Terrain cards (first to lay: {})", e.first_to_lay),
        12.0,
    );
    for d in &e.terrain_cards {
        let tiles: Vec<String> = d
            .tiles
            .iter()
            .map(|t| {
                let benny = if t.benny { " (benny)" } else { "" };
                format!("{} at {}{benny}", t.name, t.at)
            })
            .collect();
        f.para(
            &format!("{}: {} → {}", d.side, d.cards.join(" "), tiles.join("; ")),
            9.0,
            false,
        );
    }
    if !e.sporadics.is_empty() {
        f.para(&format!("Sporadics: {}", lines::sporadics(e)), 9.0, false);
    }
    if let Some(h) = &e.hazard {
        f.para(
            &format!(
                "Hazard: {} (ends on no Edge: {})",
                h.hazard,
                percent(h.ends)
            ),
            9.0,
            false,
        );
    }
    if let Some(t) = &e.trap {
        let hazard = t.hazard.as_deref().unwrap_or("no roll");
        f.para(&format!("Trap: {} — {hazard}", t.name), 9.0, false);
    }
}

/// The exact odds of every attack, as a table.
fn attack_odds(f: &mut Flow, e: &Encounter) {
    f.heading("Odds (exact, per attack)", 12.0);
    let rows: Vec<Vec<String>> = e
        .odds
        .iter()
        .map(|o| {
            vec![
                o.attacker.clone(),
                o.defender.clone(),
                o.attack.clone(),
                percent(o.hit),
                format!("{:.2}", o.expected_damage),
                percent(o.fells),
            ]
        })
        .collect();
    f.table(
        &["attacker", "defender", "attack", "hit", "damage", "fells"],
        &rows,
        &[0.2, 0.18, 0.26, 0.12, 0.12, 0.12],
        8.0,
    );
}

/// NPC cards to cut out, six to a page.
fn npc_cards(f: &mut Flow, npcs: &[Npc]) {
    f.section("NPC cards");
    let cards: Vec<Card> = npcs
        .iter()
        .map(|n| Card {
            title: format!("{} — {}", n.name, display_name(&n.archetype)),
            body: format!("{}\n{}", n.concept, lines::card_stats(n)),
        })
        .collect();
    f.cards(&cards, 2, 3);
}

/// Trap cards to cut out, three to a page.
fn trap_cards(f: &mut Flow, traps: &[Trap]) {
    f.section("Trap cards");
    let cards: Vec<Card> = traps
        .iter()
        .map(|t| {
            let odds: Vec<String> = t
                .odds
                .iter()
                .map(|o| format!("POISE {}: {}", o.poise, percent(o.hit)))
                .collect();
            Card {
                title: format!("Trap: {}", t.name),
                body: format!(
                    "Trigger: {}\nClue: {}\nEffect: {}\nHazard: {} vs {}\n{}",
                    t.trigger,
                    t.clue,
                    t.effect,
                    t.hazard.as_deref().unwrap_or("no roll"),
                    t.vs,
                    odds.join(" · ")
                ),
            }
        })
        .collect();
    f.cards(&cards, 1, 3);
}

/// The map drawing, then its paths (and for the GM, the stops' hooks).
fn map_pages(f: &mut Flow, m: &Map, players: bool) {
    f.section(if players {
        "Point-crawl map (players)"
    } else {
        "Point-crawl map"
    });
    f.drawing(&map::draw(m, players));
    f.new_page();
    let rows: Vec<Vec<String>> = m
        .paths
        .iter()
        .map(|p| {
            let mut r = vec![
                format!("{} – {}", m.stops[p.a].name, m.stops[p.b].name),
                p.regions.to_string(),
                p.days.to_string(),
            ];
            if !players {
                r.push(format!("{} ({})", p.difficulty, p.difficulty_word));
            }
            r
        })
        .collect();
    if players {
        f.table(&["path", "regions", "days"], &rows, &[0.6, 0.2, 0.2], 9.0);
        return;
    }
    f.table(
        &["path", "regions", "days", "Difficulty"],
        &rows,
        &[0.5, 0.15, 0.15, 0.2],
        9.0,
    );
    for s in &m.stops {
        f.para(
            &format!("{} ({}, {}): {}", s.name, s.kind, s.terrain, s.hook),
            8.5,
            false,
        );
    }
}

/// The journey's lead and odds, then the log day by day.
fn journey(f: &mut Flow, j: &Journey) {
    f.section(&format!("Journey: {} → {}", j.from, j.to));
    f.para(
        &format!(
            "Lead: {} ({} {}D) · chance of no encounter on the whole way: {}",
            j.lead,
            j.lead_with,
            j.lead_pool,
            percent(j.no_encounter)
        ),
        9.0,
        false,
    );
    for d in &j.days {
        f.para(&format!("Day {}", d.day), 10.0, true);
        for e in &d.entries {
            f.para_at(&format!("• {e}"), 8.5, false, 8.0);
        }
    }
}

/// Downtime vouchers to cut out, eight to a page.
fn vouchers(f: &mut Flow, pack: &Pack, share: &ShareLine) {
    f.section("Downtime vouchers");
    let cards: Vec<Card> = pack
        .vouchers
        .iter()
        .map(|v| Card {
            title: format!("DOWNTIME VOUCHER · No. {}", v.serial),
            body: format!(
                "For: {}\n{}\n{}",
                if v.holder.is_empty() {
                    "________________"
                } else {
                    &v.holder
                },
                v.text,
                share.plain()
            ),
        })
        .collect();
    f.cards(&cards, 2, 4);
}

/// Injury and mutation slips to cut out, eight to a page.
fn slips(f: &mut Flow, pack: &Pack) {
    f.section("Injury and mutation slips");
    let injuries = pack.injuries.iter().map(|i| Card {
        title: format!(
            "Injury — {}{}",
            i.name,
            if i.permanent { " (permanent)" } else { "" }
        ),
        body: format!("{}\n{}", i.text, i.roll.trail_text()),
    });
    let mutations = pack.mutations.iter().map(|m| {
        let names: Vec<&str> = m.gained.iter().map(|g| g.name.as_str()).collect();
        let texts: Vec<&str> = m.gained.iter().map(|g| g.text.as_str()).collect();
        Card {
            title: format!("Mutation — {}", names.join(" + ")),
            body: texts.join("\n"),
        }
    });
    let cards: Vec<Card> = injuries.chain(mutations).collect();
    f.cards(&cards, 2, 4);
}
