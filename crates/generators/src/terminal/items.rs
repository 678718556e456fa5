//! Markdown-ish text of generated items (`gen`): stat blocks, slips, trap
//! cards and encounter sheets as a GM reads them on the terminal.

use std::fmt::Write;

use crate::generators::encounter::Encounter;
use crate::generators::forage::Forage;
use crate::generators::injury::{Applied, Injury};
use crate::generators::journey::{Journey, count};
use crate::generators::map::{Map, Reveal};
use crate::generators::mutation::Mutation;
use crate::generators::npc::{Npc, NpcRules};
use crate::generators::trap::Trap;
use crate::generators::voucher::Voucher;
use crate::rules::RulesSystem;
use crate::rules::core::Sheet;
use crate::wording::lines::{self, percent};
use crate::wording::markup::Markup;
use crate::wording::perils;

fn grade_word(grade: i8) -> String {
    match grade {
        0 => String::new(),
        g if g > 0 => format!(" (veteran +{g})"),
        g => format!(" (green {g})"),
    }
}

/// An NPC's stat block.
pub fn npc(n: &Npc) -> String {
    let mut s = format!(
        "### {}{} (tier {}, {})\n{}\n",
        lines::who(n),
        grade_word(n.grade),
        n.tier,
        n.kind,
        n.concept
    );
    for (label, text) in n.traits.lines() {
        let _ = writeln!(s, "{label}: {text}");
    }
    match &n.rules {
        NpcRules::Mettle(m) => {
            let b = &m.block;
            let _ = writeln!(s, "{}", lines::mettle_attributes(b));
            let _ = writeln!(
                s,
                "Mettle {} · Soak {} (FRAME {} + Armor {}) · Speed {}",
                m.mettle, m.soak, b.FRAME, b.armor, b.speed
            );
            let _ = writeln!(s, "Weapons: {}", lines::weapons_pools(b));
            if !b.callings.is_empty() {
                let _ = writeln!(s, "CALLINGS: {}", lines::callings(b, Markup::Plain));
            }
        }
        NpcRules::Core(c) => s.push_str(&sheet(&c.sheet)),
    }
    s
}

/// A Core Rules sheet in a few lines.
pub fn sheet(sh: &Sheet) -> String {
    let mut s = format!(
        "{} · health {}/{} · armour {} · {} ({})\n",
        lines::core_attributes(sh),
        sh.current_health(),
        sh.max_health(),
        sh.armour,
        sh.weapon.as_deref().unwrap_or("weapon"),
        sh.damage
    );
    if sh.max_omens > 0 || sh.omens > 0 {
        let _ = writeln!(s, "omens {}/{}", sh.omens, sh.max_omens);
    }
    for (label, list) in [
        ("skills", &sh.skills),
        ("traits", &sh.traits),
        ("conditions", &sh.conditions),
    ] {
        if !list.is_empty() {
            let _ = writeln!(s, "{label}: {}", list.join(", "));
        }
    }
    s
}

fn applied(a: &Applied, out: &mut String) {
    if a.changes.is_empty() {
        let _ = writeln!(out, "{}'s sheet does not change.", a.before.name);
        return;
    }
    let _ = writeln!(out, "Changes to {}:", a.before.name);
    for c in &a.changes {
        let note = c
            .note
            .as_deref()
            .map(|n| format!(" — {n}"))
            .unwrap_or_default();
        let before = if c.before.is_empty() {
            "(none)"
        } else {
            &c.before
        };
        let _ = writeln!(out, "- {}: {before} → {}{note}", c.what, c.after);
    }
    let _ = writeln!(out, "New sheet:\n{}", sheet(&a.after));
}

/// A downtime voucher: its holder, serial and what it does.
pub fn voucher(v: &Voucher) -> String {
    format!(
        "### Downtime voucher: {}\nserial: {}\n{}\n",
        v.holder, v.serial, v.text
    )
}

/// An injury as the terminal shows it.
pub fn injury(i: &Injury) -> String {
    let mut s = format!(
        "### Injury: {}{}\n{}\ntrail: {}\n",
        i.name,
        if i.permanent { " (permanent)" } else { "" },
        i.text,
        i.roll.trail_text()
    );
    if let Some(a) = &i.character {
        applied(a, &mut s);
    }
    s
}

/// A mutation as the terminal shows it.
pub fn mutation(m: &Mutation) -> String {
    let mut s = String::from("### Mutation\n");
    for g in &m.gained {
        let _ = writeln!(s, "- **{}** ({}): {}", g.name, g.band, g.text);
        let _ = writeln!(s, "  trail: {}", g.trail);
        for r in &g.replaced {
            let _ = writeln!(s, "  rolled again instead of {r}");
        }
    }
    if let Some(a) = &m.character {
        applied(a, &mut s);
    }
    s
}

/// A watch of foraging as the terminal shows it.
pub fn forage(f: &Forage) -> String {
    let mut s = format!(
        "### Foraging ({}): {} — {} ration{}{}\n",
        f.terrain,
        f.result,
        f.rations,
        if f.rations == 1 { "" } else { "s" },
        if f.perishable {
            ", perishable (gone unless eaten at the next daily rest)"
        } else {
            ""
        }
    );
    let _ = writeln!(s, "trail: {}", f.roll.trail_text());
    for step in &f.steps {
        let _ = writeln!(s, "- {step}");
    }
    let _ = writeln!(
        s,
        "odds for this forager: food {} per watch, {:.2} rations on average (has: {})",
        percent(f.chance_of_food),
        f.expected_rations,
        if f.has.is_empty() {
            "nothing useful".into()
        } else {
            f.has.join(", ")
        }
    );
    s
}

/// A trap as the terminal shows it.
pub fn trap(t: &Trap) -> String {
    let mut s = format!("### Trap: {}\n", t.name);
    // Every trap is drawn to fit its terrain (a rules trap by its place).
    let _ = writeln!(s, "- Set in: {}", t.terrain);
    let _ = writeln!(s, "- Trigger: {}", t.trigger);
    let _ = writeln!(s, "- Clue: {}", t.clue);
    let _ = writeln!(s, "- Effect: {}", t.effect);
    if let Some(d) = &t.disarm {
        let _ = writeln!(s, "- Disarm: {d}");
    }
    let _ = writeln!(s, "- {}", perils::roll(t));
    if !t.odds.is_empty() {
        let _ = writeln!(s, "  | {} |", perils::odds_head(t).join(" | "));
        let _ = writeln!(s, "  |---|---|---|");
        for row in perils::odds_rows(t) {
            let _ = writeln!(s, "  | {} |", row.join(" | "));
        }
    }
    if let Some(line) = perils::fit_line(t) {
        let _ = writeln!(s, "- Fit: {line}");
    }
    s
}

/// An encounter as the terminal shows it.
pub fn encounter(e: &Encounter) -> String {
    let mut s = format!("## Encounter ({}, {})\n", e.terrain, e.system.label());
    let _ = writeln!(s, "**{}**: {}", e.situation.row, e.situation.text);
    if let Some(t) = &e.weather {
        let word = if e.below_ground() {
            "Conditions"
        } else {
            "Weather"
        };
        let _ = writeln!(s, "{word} ({}): {}", t.row, t.text);
    }
    if let Some(t) = &e.twist {
        let _ = writeln!(s, "Twist ({}): {}", t.row, t.text);
    }
    if let Some(t) = &e.ending {
        let _ = writeln!(s, "Ending ({}): {}", t.row, t.text);
    }
    if let Some(r) = &e.returning {
        let _ = writeln!(s, "Returning ({}): {}", r.row, r.text);
    }
    if let Some(t) = &e.spoils {
        let _ = writeln!(s, "Spoils ({}): {}", t.row, t.text);
    }
    let _ = writeln!(s, "trail: {}", e.situation.trail_text());
    let _ = writeln!(
        s,
        "Threat: {} (ratio {}; party deals {:.2}/round against foes' {:.0} toughness, foes deal {:.2}/round against the party's {:.0})",
        e.threat.verdict,
        e.threat.ratio_said(),
        e.threat.party_damage_per_round,
        e.threat.foe_toughness,
        e.threat.foe_damage_per_round,
        e.threat.party_toughness
    );
    if !e.foes.is_empty() {
        let _ = writeln!(s, "\n#### Foes");
        for f in &e.foes {
            s.push_str(&npc(f));
        }
    }
    if !e.others.is_empty() {
        let _ = writeln!(s, "\n#### Others");
        for f in &e.others {
            s.push_str(&npc(f));
        }
    }
    let _ = writeln!(s, "\n#### Zones ({})", e.layout.kind);
    // An empty zone is listed where a tile or a sporadic lies in it.
    let tiles = e.terrain_cards.iter().flat_map(|d| &d.tiles);
    let laid: Vec<&str> = tiles.chain(&e.sporadics).map(|t| t.at.as_str()).collect();
    for z in &e.layout.zones {
        if !z.starts.is_empty() {
            let _ = writeln!(s, "- {}: {}", z.name, z.starts.join(", "));
        } else if laid.contains(&z.name.as_str()) {
            let _ = writeln!(s, "- {}: nobody at the start", z.name);
        }
    }
    terrain_cards(e, &mut s);
    if !e.sporadics.is_empty() {
        let _ = writeln!(s, "Sporadics: {}", lines::sporadics(e));
    }
    for r in lines::tile_rules(e) {
        let kind = if r.sporadic { " (sporadic)" } else { "" };
        let _ = writeln!(s, "- {}{kind}: {}", r.name, r.rule);
    }
    if let Some(h) = &e.hazard {
        let _ = writeln!(s, "Hazard: {}", perils::hazard(h));
    }
    if let Some(t) = &e.trap {
        s.push('\n');
        s.push_str(&trap(t));
    }
    if !e.odds.is_empty() {
        attack_odds(e, &mut s);
    }
    s
}

/// The terrain cards each side lays, and the tiles they place.
fn terrain_cards(e: &Encounter, out: &mut String) {
    let _ = writeln!(
        out,
        "\n#### Terrain cards (first to lay: {})",
        e.first_to_lay
    );
    for d in &e.terrain_cards {
        let bonus = d
            .bonus
            .as_deref()
            .map(|b| format!("; {b}"))
            .unwrap_or_default();
        let bennies = match d.bennies {
            0 => String::new(),
            1 => "; 1 benny to the side".to_owned(),
            n => format!("; {n} bennies to the side"),
        };
        let _ = writeln!(out, "- {}: {}{bonus}{bennies}", d.side, d.cards.join(" "));
        for t in &d.tiles {
            let _ = writeln!(
                out,
                "  - {} at {} (from {}){}",
                t.name,
                t.at,
                t.from,
                if t.benny { ", starts with a benny" } else { "" }
            );
        }
    }
}

/// The exact odds of every attack; attackers with the very same numbers
/// against a defender share a row.
fn attack_odds(e: &Encounter, out: &mut String) {
    let _ = writeln!(out, "\n#### Odds (exact, per attack)");
    let _ = writeln!(
        out,
        "| attacker | defender | attack | hit | damage | fells |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|");
    let mut rows: Vec<(Vec<&str>, &crate::generators::encounter::AttackOdds)> = Vec::new();
    for o in &e.odds {
        let same = rows.iter_mut().find(|(_, r)| {
            r.defender == o.defender
                && r.attack == o.attack
                && r.hit == o.hit
                && r.expected_damage == o.expected_damage
                && r.fells == o.fells
        });
        match same {
            Some((names, _)) => names.push(&o.attacker),
            None => rows.push((vec![&o.attacker], o)),
        }
    }
    for (names, o) in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {:.2} | {} |",
            names.join(", "),
            o.defender,
            o.attack,
            percent(o.hit),
            o.expected_damage,
            percent(o.fells)
        );
    }
}

/// A map as a Markdown listing: stops, then paths.
pub fn map(m: &Map, players: bool) -> String {
    map_known(m, players, None)
}

/// [`map`], for the players in a campaign (`reveal`) only the stops the
/// party has visited or heard of and the paths it has travelled.
pub fn map_known(m: &Map, players: bool, reveal: Option<&Reveal>) -> String {
    let hidden = |stop: usize| players && reveal.is_some_and(|r| !r.knows_stop(stop));
    let heard = |stop: usize| players && reveal.is_some_and(|r| !r.visited(stop));
    let unwalked = |path: usize| players && reveal.is_some_and(|r| !r.knows_path(path));
    let count = match (players, reveal) {
        (true, Some(_)) => format!(
            "{} stops known",
            (0..m.stops.len()).filter(|&i| !hidden(i)).count()
        ),
        _ => format!("{} stops", m.stops.len()),
    };
    let mut s = format!(
        "## Point-crawl map ({count}, {} regions across)\nStart: **{}** · Goal: **{}**\n\n",
        m.size, m.stops[m.start].name, m.stops[m.goal].name
    );
    if players {
        let _ = writeln!(s, "| # | stop | kind | terrain |\n|---|---|---|---|");
    } else {
        let _ = writeln!(
            s,
            "| # | stop | kind | terrain | hook |\n|---|---|---|---|---|"
        );
    }
    for st in m.stops.iter().filter(|st| !hidden(st.id)) {
        if players {
            let _ = writeln!(
                s,
                "| {} | {}{} | {} | {} |",
                st.id + 1,
                st.name,
                if heard(st.id) { " (heard of)" } else { "" },
                st.kind,
                st.terrain
            );
        } else {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} |",
                st.id + 1,
                st.name,
                st.kind,
                st.terrain,
                st.hook.replace('|', "/")
            );
        }
    }
    if players {
        let _ = writeln!(
            s,
            "\n| path | regions | watches | days |\n|---|---|---|---|"
        );
    } else {
        let _ = writeln!(
            s,
            "\n| path | regions | watches | days | terrain | {} |\n|---|---|---|---|---|---|",
            if m.core_chances() {
                "encounter a watch"
            } else {
                "Difficulty"
            }
        );
    }
    for (k, p) in m.paths.iter().enumerate() {
        if unwalked(k) {
            continue;
        }
        let name = format!("{} – {}", m.stops[p.a].name, m.stops[p.b].name);
        if players {
            let _ = writeln!(s, "| {name} | {} | {} | {} |", p.regions, p.watches, p.days);
        } else {
            let danger = match p.encounter_chance {
                Some(_) => p.danger_label(),
                None => format!("{} ({})", p.difficulty, p.difficulty_word),
            };
            let _ = writeln!(
                s,
                "| {name} | {} | {} | {} | {} | {danger} |",
                p.regions, p.watches, p.days, p.terrain
            );
        }
    }
    s
}

/// A journey: the route with its exact odds, then the day-by-day log, in
/// the words of its system.
pub fn journey(j: &Journey) -> String {
    let mettle = j.system == RulesSystem::Mettle;
    let who = lines::journey_lead(j);
    let mut s = format!(
        "## Journey: {} → {} ({} route, {})\n{who}. Chance of no encounter on the whole way: {}. Water: up to {} a PC.\n\n",
        j.from,
        j.to,
        j.route.word(),
        j.system.label(),
        percent(j.no_encounter),
        count(j.water_capacity, "unit", "units")
    );
    if mettle {
        let _ = writeln!(
            s,
            "| leg | regions | terrain | Difficulty | safe | safe with a Twist |\n|---|---|---|---|---|---|"
        );
    } else {
        let _ = writeln!(
            s,
            "| leg | regions | watches | terrain | encounter a watch | no encounter |\n|---|---|---|---|---|---|"
        );
    }
    for l in &j.legs {
        let _ = if mettle {
            writeln!(
                s,
                "| {} → {} | {} | {} | {} | {} | {} |",
                l.from,
                l.to,
                l.regions,
                l.terrain,
                l.difficulty,
                percent(l.safe),
                percent(l.safe_with_twist)
            )
        } else {
            writeln!(
                s,
                "| {} → {} | {} | {} | {} | {} | {} |",
                l.from,
                l.to,
                l.regions,
                l.watches,
                l.terrain,
                l.encounter_chance.as_deref().unwrap_or("-"),
                percent(l.safe)
            )
        };
    }
    for d in &j.days {
        let _ = match d.through {
            Some(last) => writeln!(s, "\n**Days {}–{last}**", d.day),
            None => writeln!(s, "\n**Day {}**", d.day),
        };
        for e in &d.entries {
            let _ = writeln!(s, "- {e}");
        }
    }
    let _ = writeln!(
        s,
        "\n{}; {}; {} and {} of water left{}.",
        match &j.arrival {
            Some(a) => format!("Arrived {a}"),
            None => "They did not arrive".into(),
        },
        count(j.days_taken, "day", "days"),
        count(j.rations_left, "ration", "rations"),
        count(j.water_left, "unit", "units"),
        match j.shillings_spent {
            Some(c) => format!("; {c}ʂ spent"),
            None => String::new(),
        }
    );
    s
}
