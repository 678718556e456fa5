//! An encounter sheet, one page: the situation and its threat; the foes
//! grouped by kind (`Marsh leech ×8`) with their numbers, CALLINGs and
//! weapons and a tick track per foe, beside what else is on the field (the
//! others on stage, hazard, trap, initiative); the zone diagram and the
//! rules of every tile and sporadic in it; the odds of every attack as two
//! compact grids (foes × PCs and PCs × foes, identical foes sharing a
//! row); ruled note lines in the space left.

use crate::generators::encounter::{Encounter, Placed};
use crate::generators::npc::Npc;
use crate::render::layout::Flow;
use crate::render::lines;
use crate::render::{perils, zones};

/// Body text on the sheet: read at the table, so never under 9 pt.
const BODY: f64 = 9.5;
/// Sub-headings.
const HEAD: f64 = 11.0;

/// An encounter's sheet.
pub(super) fn encounter(f: &mut Flow, number: usize, e: &Encounter) {
    f.section(&format!("Encounter {number}: {}", e.situation.row));
    f.para(&e.situation.text, 10.0, false);
    f.para(&headline(number, e), 9.0, false);
    let groups = groups(&e.foes);
    match groups.len() {
        0 => others(f, e),
        1 => f.columns(
            14.0,
            &mut [&mut |f: &mut Flow| foes(f, &groups), &mut |f: &mut Flow| {
                others(f, e)
            }],
        ),
        n => {
            let (left, right) = groups.split_at(n.div_ceil(2));
            f.columns(
                14.0,
                &mut [&mut |f: &mut Flow| foes(f, left), &mut |f: &mut Flow| {
                    f.gap(HEAD * 1.2 + 6.0);
                    foes_only(f, right);
                    others(f, e);
                }],
            );
        }
    }
    odds(f, e, &groups);
    f.heading(&format!("Zones ({})", e.layout.kind), HEAD);
    let width = f.content_width();
    f.drawing_scaled(&zones::draw(e, width), 1.0, 1.0);
    tile_rules(f, e);
    hazards(f, e);
    terrain_and_initiative(f, e);
    f.note_lines("Notes", 2);
}

/// Terrain, threat and where the situation came from.
/// The item's address (`encounter/2`), terrain, threat and trail.
fn headline(number: usize, e: &Encounter) -> String {
    let threat = if e.foes.is_empty() {
        "no foes".to_owned()
    } else {
        format!(
            "threat {} (ratio {:.2}; fair is 0.35–0.70)",
            e.threat.verdict, e.threat.ratio
        )
    };
    format!(
        "encounter/{number} · {} · {threat} · {}",
        e.terrain,
        e.situation.trail_text()
    )
}

/// Foes of one kind with the same numbers.
struct Group<'a> {
    members: Vec<&'a Npc>,
}

impl Group<'_> {
    fn first(&self) -> &Npc {
        self.members[0]
    }

    /// `Marsh leech ×8`, or one foe's name and kind.
    fn title(&self) -> String {
        let n = self.first();
        if self.members.len() == 1 {
            lines::who(n)
        } else {
            format!("{} ×{}", base_name(n), self.members.len())
        }
    }

    /// A short row label: `Marsh leech ×8`, `Marsh leech 1`, `Agna
    /// Thatcher`.
    fn short(&self) -> String {
        if self.members.len() == 1 {
            self.first().name.clone()
        } else {
            self.title()
        }
    }
}

/// The kind of a foe, which numbered foes' names start with: `Marsh
/// leech` (for `Marsh leech 3`); named people are `Cult fanatic`s.
fn base_name(n: &Npc) -> String {
    crate::generators::display_name(&n.archetype)
}

/// The foes grouped: same kind, same grade and the same numbers, in the
/// order they first appear.
fn groups(foes: &[Npc]) -> Vec<Group<'_>> {
    let mut out: Vec<(String, Group)> = Vec::new();
    for n in foes {
        let line = lines::foe_line(n);
        let key = format!(
            "{}|{}|{}|{}|{}|{}",
            n.archetype,
            n.grade,
            line.stats,
            line.attack,
            line.toughness,
            callings(n)
        );
        match out.iter_mut().find(|(k, _)| *k == key) {
            Some((_, g)) => g.members.push(n),
            None => out.push((key, Group { members: vec![n] })),
        }
    }
    out.into_iter().map(|(_, g)| g).collect()
}

/// A foe's CALLINGs (METTLE) or skills and traits (Core Rules).
fn callings(n: &Npc) -> String {
    match (&n.mettle, &n.core) {
        (Some(m), _) => lines::callings(&m.block, lines::Markup::Plain),
        (_, Some(c)) => c
            .sheet
            .skills
            .iter()
            .chain(&c.sheet.traits)
            .cloned()
            .collect::<Vec<_>>()
            .join(", "),
        _ => String::new(),
    }
}

/// The foes, a block per group: numbers, attacks, CALLINGs and a tick
/// track per foe.
fn foes(f: &mut Flow, groups: &[Group]) {
    f.heading("Foes", HEAD);
    foes_only(f, groups);
}

fn foes_only(f: &mut Flow, groups: &[Group]) {
    for g in groups {
        foe_group(f, g);
    }
}

fn foe_group(f: &mut Flow, g: &Group) {
    let n = g.first();
    let grade = match n.grade {
        g if g > 0 => format!(", veteran +{g}"),
        g if g < 0 => format!(", green {g}"),
        _ => String::new(),
    };
    f.para(&g.title(), 10.0, true);
    let (stats, attacks, track) = match (&n.mettle, &n.core) {
        (Some(m), _) => (
            format!(
                "{} · Soak {} · Speed {}",
                lines::mettle_attributes(&m.block),
                m.soak,
                m.block.speed
            ),
            lines::weapons_pools(&m.block),
            "Mettle",
        ),
        (_, Some(c)) => (
            format!(
                "{} · armour {}",
                lines::core_attributes(&c.sheet),
                c.sheet.armour
            ),
            lines::core_attack(&c.sheet, lines::Markup::Plain),
            "health",
        ),
        _ => (String::new(), String::new(), "Mettle"),
    };
    let stats = format!("tier {} {}{grade} · {stats}", n.tier, n.kind);
    let calls = callings(n);
    let word = if n.mettle.is_some() {
        "CALLINGs"
    } else {
        "skills, traits"
    };
    let calls = if calls.is_empty() {
        String::new()
    } else {
        format!(" · {word}: {calls}")
    };
    f.para(&format!("{stats} · {attacks}{calls}"), BODY, false);
    let tough = lines::foe_line(n).toughness.max(0) as usize;
    let tracks: Vec<(String, usize)> = if g.members.len() == 1 {
        vec![(format!("{track} {tough}"), tough)]
    } else {
        let base = base_name(n);
        let mut t = vec![(format!("{track} {tough} each:"), 0)];
        t.extend(g.members.iter().map(|m| {
            let label = m
                .name
                .strip_prefix(&base)
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .unwrap_or(&m.name);
            (label.to_owned(), tough)
        }));
        t
    };
    f.tracks(&tracks, BODY);
    f.gap(3.0);
}

/// The people on stage who are not foes.
fn others(f: &mut Flow, e: &Encounter) {
    if e.others.is_empty() {
        return;
    }
    f.heading("Also on stage", HEAD);
    for n in &e.others {
        let line = lines::foe_line(n);
        f.para(&lines::who(n), BODY, true);
        f.para(&format!("{} · {}", line.stats, line.attack), BODY, false);
    }
}

/// The situation's hazard and a trap lying in wait, in the pack's system.
fn hazards(f: &mut Flow, e: &Encounter) {
    if let Some(h) = &e.hazard {
        f.para(&format!("Hazard: {}", perils::hazard(h)), BODY, false);
    }
    if let Some(t) = &e.trap {
        f.para(&format!("Trap: {}", t.name), BODY, true);
        f.para(
            &format!(
                "Trigger: {} Clue: {} Effect: {}",
                t.trigger, t.clue, t.effect
            ),
            BODY,
            false,
        );
        let odds = perils::odds_short(t);
        let odds = if odds.is_empty() {
            String::new()
        } else {
            format!(" · {odds}")
        };
        f.para(&format!("{}{odds}", perils::roll(t)), BODY, false);
    }
}

/// The terrain cards drawn, and how initiative runs.
fn terrain_and_initiative(f: &mut Flow, e: &Encounter) {
    let sides: Vec<String> = e
        .terrain_cards
        .iter()
        .map(|d| {
            let bennies = match d.bennies {
                0 => String::new(),
                1 => " (1 benny to the side)".to_owned(),
                n => format!(" ({n} bennies to the side)"),
            };
            format!("{} {}{bennies}", d.side, d.cards.join(" "))
        })
        .collect();
    f.para(
        &format!(
            "Terrain cards: {}; first to lay: {}.",
            sides.join(" · "),
            e.first_to_lay
        ),
        BODY,
        false,
    );
    f.para(lines::initiative(e.system), BODY, false);
}

/// Every tile and sporadic on the field with its rules, keyed as in the
/// zone diagram.
fn tile_rules(f: &mut Flow, e: &Encounter) {
    let placed = zones::keyed(e);
    if placed.is_empty() {
        return;
    }
    let lines: Vec<String> = placed.iter().map(|(k, p)| tile_line(k, p)).collect();
    // Two columns of about the same length of text.
    let total: usize = lines.iter().map(String::len).sum();
    let split = (0..=lines.len())
        .min_by_key(|&i| {
            let left: usize = lines[..i].iter().map(String::len).sum();
            (2 * left).abs_diff(total)
        })
        .unwrap_or(0);
    let (left, right) = lines.split_at(split);
    f.columns(
        14.0,
        &mut [
            &mut |f: &mut Flow| paras(f, left, 9.0),
            &mut |f: &mut Flow| paras(f, right, 9.0),
        ],
    );
}

fn paras(f: &mut Flow, lines: &[String], size: f64) {
    for l in lines {
        f.para(l, size, false);
    }
}

/// `T1 CLATTER (Right flank, benny): rules`.
fn tile_line(key: &str, p: &Placed) -> String {
    let benny = if p.benny { ", starts with a benny" } else { "" };
    let text = if p.text.is_empty() {
        String::new()
    } else {
        format!(": {}", p.text)
    };
    format!("{key} {} ({}{benny}){text}", p.name, p.at)
}

/// The odds of every attack as one grid, foes down and PCs across: each
/// cell the foe's attack on the PC, then the PC's on the foe; a group of
/// identical foes is one row.
fn odds(f: &mut Flow, e: &Encounter, groups: &[Group]) {
    if e.odds.is_empty() {
        return;
    }
    let mut pcs: Vec<String> = Vec::new();
    for o in &e.odds {
        let is_foe = e.foes.iter().any(|n| n.name == o.defender);
        if !is_foe && !pcs.contains(&o.defender) {
            pcs.push(o.defender.clone());
        }
    }
    f.keep(HEAD * 2.0 + 9.0 * 6.0 + BODY * 4.0);
    f.heading("Odds of one attack (exact)", HEAD);
    f.para(
        "Each cell: the foe attacking the PC | the PC attacking the foe — chance to hit, mean damage after Soak (armour), and the chance one blow fells from full when above 0.",
        9.0,
        false,
    );
    let first_w = 0.22;
    let w = (1.0 - first_w) / pcs.len() as f64;
    let mut widths = vec![first_w];
    widths.extend(std::iter::repeat_n(w, pcs.len()));
    let mut header = vec!["foe | PC".to_owned()];
    header.extend(pcs.iter().cloned());
    let find = |a: &str, d: &str| {
        e.odds
            .iter()
            .find(|o| o.attacker == a && o.defender == d)
            .map(cell)
            .unwrap_or_else(|| "–".into())
    };
    let body: Vec<Vec<String>> = groups
        .iter()
        .map(|g| {
            let foe = &g.first().name;
            let mut row = vec![g.short()];
            row.extend(
                pcs.iter()
                    .map(|pc| format!("{} | {}", find(foe, pc), find(pc, foe))),
            );
            row
        })
        .collect();
    let head: Vec<&str> = header.iter().map(String::as_str).collect();
    f.table(&head, &body, &widths, 9.0);
}

/// `83% 1.8`, and `fells 5%` when one blow can fell.
fn cell(o: &crate::generators::encounter::AttackOdds) -> String {
    let fells = if o.fells > 0.0 {
        format!(" fells {}", short_percent(o.fells))
    } else {
        String::new()
    };
    format!("{} {:.1}{fells}", short_percent(o.hit), o.expected_damage)
}

/// A chance in whole percent that never rounds to a certainty it is not:
/// `83%`, `<1%`, `>99%`.
fn short_percent(p: f64) -> String {
    if p <= 0.0 {
        "0%".into()
    } else if p >= 1.0 {
        "100%".into()
    } else if p < 0.005 {
        "<1%".into()
    } else if p > 0.995 {
        ">99%".into()
    } else {
        format!("{:.0}%", p * 100.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_percent_never_claims_a_certainty() {
        assert_eq!(short_percent(0.0), "0%");
        assert_eq!(short_percent(0.001), "<1%");
        assert_eq!(short_percent(0.8298), "83%");
        assert_eq!(short_percent(0.999), ">99%");
        assert_eq!(short_percent(1.0), "100%");
    }
}
