//! An encounter sheet: the situation, foes with boxes to tick, the zone
//! diagram, the terrain cards and the odds of every attack.

use crate::generators::encounter::Encounter;
use crate::generators::npc::Npc;
use crate::render::layout::Flow;
use crate::render::lines::{self, percent};
use crate::render::{perils, zones};

/// An encounter's pages: the situation, foes with boxes to tick, zones,
/// terrain, the odds of every attack.
pub(super) fn encounter(f: &mut Flow, number: usize, e: &Encounter) {
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
    f.para(lines::initiative(e.system), 8.0, false);
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
    for r in lines::tile_rules(e) {
        let kind = if r.sporadic { " (sporadic)" } else { "" };
        f.para(&format!("{}{kind}: {}", r.name, r.rule), 8.0, false);
    }
    if let Some(h) = &e.hazard {
        f.para(&format!("Hazard: {}", perils::hazard(h)), 9.0, false);
    }
    if let Some(t) = &e.trap {
        let roll = perils::roll(t);
        f.para(&format!("Trap: {} — {roll}", t.name), 9.0, false);
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
