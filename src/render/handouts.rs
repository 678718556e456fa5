//! The handouts of a session pack as files: one Markdown file per handout,
//! `pack.md` binding them, `pack.json`, and the map drawing as SVG. Pure:
//! this returns (file name, bytes) pairs; [`crate::output`] writes them.

use serde::Serialize;
use tera::Context;

use super::markdown::{TemplateError, Templates};
use crate::generators::display_name;
use crate::generators::pack::Pack;

/// What every handout carries so a table can reproduce it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShareLine {
    pub seed: String,
    pub options: String,
    pub version: String,
    pub content: String,
}

impl ShareLine {
    pub fn text(&self) -> String {
        format!(
            "Seed `{}` · {} · tablewright {} · tables {}",
            self.seed, self.options, self.version, self.content
        )
    }

    /// Without Markdown, for vouchers and PDF footers.
    pub fn plain(&self) -> String {
        format!(
            "seed {} · {} · tablewright {} · tables {}",
            self.seed, self.options, self.version, self.content
        )
    }
}

fn ctx(share: &ShareLine) -> Context {
    let mut c = Context::new();
    c.insert("share", &format!("*{}*", share.text()));
    c
}

/// Every file of a pack: (name, bytes), in a fixed order.
pub fn pack_files(
    pack: &Pack,
    templates: &Templates,
    share: &ShareLine,
) -> Result<Vec<(String, Vec<u8>)>, TemplateError> {
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut parts: Vec<String> = Vec::new();
    for (i, e) in pack.encounters.iter().enumerate() {
        let mut c = ctx(share);
        c.insert("e", e);
        c.insert("number", &(i + 1));
        c.insert("trail", &e.situation.trail_text());
        c.insert("zones_file", &format!("encounter-{}-zones.svg", i + 1));
        let md = templates.render("encounter.md", &c)?;
        files.push((format!("encounter-{}.md", i + 1), md.clone().into_bytes()));
        files.push((
            format!("encounter-{}-zones.svg", i + 1),
            super::svg(&super::zones::draw(e)).into_bytes(),
        ));
        parts.push(md);
    }
    if !pack.npcs.is_empty() {
        let mut cards = String::from("## NPC cards\n\n");
        for n in &pack.npcs {
            let mut c = ctx(share);
            c.insert("n", n);
            c.insert("kind", &display_name(&n.archetype));
            cards.push_str(&templates.render("npc.md", &c)?);
            cards.push_str("\n---\n\n");
        }
        cards.push_str(&format!("*{}*\n", share.text()));
        files.push(("npcs.md".into(), cards.clone().into_bytes()));
        parts.push(cards);
    }
    for (i, t) in pack.traps.iter().enumerate() {
        let mut c = ctx(share);
        c.insert("t", t);
        let md = templates.render("trap.md", &c)?;
        files.push((format!("trap-{}.md", i + 1), md.clone().into_bytes()));
        parts.push(md);
    }
    if let Some(m) = &pack.map {
        for players in [false, true] {
            let svg = super::svg(&super::map::draw(m, players));
            let svg_name = if players {
                "map-players.svg"
            } else {
                "map.svg"
            };
            let mut c = ctx(share);
            c.insert("m", m);
            c.insert("players", &players);
            c.insert("svg_file", svg_name);
            let md = templates.render("map.md", &c)?;
            let md_name = if players { "map-players.md" } else { "map.md" };
            files.push((svg_name.into(), svg.into_bytes()));
            files.push((md_name.into(), md.clone().into_bytes()));
            if !players {
                parts.push(md);
            }
        }
    }
    if let Some(j) = &pack.journey {
        let mut c = ctx(share);
        c.insert("j", j);
        let md = templates.render("journey.md", &c)?;
        files.push(("journey.md".into(), md.clone().into_bytes()));
        parts.push(md);
    }
    if !pack.vouchers.is_empty() {
        let mut c = ctx(share);
        c.insert("vouchers", &pack.vouchers);
        c.insert("plain_share", &share.plain());
        let md = templates.render("vouchers.md", &c)?;
        files.push(("vouchers.md".into(), md.clone().into_bytes()));
        parts.push(md);
    }
    if !pack.injuries.is_empty() || !pack.mutations.is_empty() {
        let mut c = ctx(share);
        c.insert("injuries", &pack.injuries);
        c.insert("mutations", &pack.mutations);
        let trails: Vec<String> = pack.injuries.iter().map(|i| i.roll.trail_text()).collect();
        c.insert("trails", &trails);
        let md = templates.render("slips.md", &c)?;
        files.push(("slips.md".into(), md.clone().into_bytes()));
        parts.push(md);
    }
    let mut c = ctx(share);
    c.insert("title", &pack.title);
    c.insert("seed", &share.seed);
    c.insert("encounters_count", &pack.encounters.len());
    c.insert("traps_count", &pack.traps.len());
    c.insert("npcs_count", &pack.npcs.len());
    c.insert("vouchers_count", &pack.vouchers.len());
    c.insert("has_map", &pack.map.is_some());
    c.insert("parts", &parts);
    let md = templates.render("pack.md", &c)?;
    files.insert(0, ("pack.md".into(), md.into_bytes()));
    #[derive(Serialize)]
    struct PackJson<'a> {
        share: &'a ShareLine,
        pack: &'a Pack,
    }
    let json =
        serde_json::to_string_pretty(&PackJson { share, pack }).expect("a pack serializes") + "\n";
    files.insert(1, ("pack.json".into(), json.into_bytes()));
    Ok(files)
}

/// The whole pack as one PDF: a cover, then a section per handout (each a
/// bookmark), the share line and page number on every page.
pub fn pack_pdf(
    pack: &Pack,
    share: &ShareLine,
    paper: super::pdf::Paper,
    ink_saver: bool,
    fonts: &super::pdf::Fonts,
) -> Vec<u8> {
    use super::layout::{Card, Flow};
    use super::lines::percent;
    let mut f = Flow::new(fonts, paper, share.plain(), ink_saver);
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
    for (i, e) in pack.encounters.iter().enumerate() {
        f.section(&format!("Encounter {}: {}", i + 1, e.situation.row));
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
                let (stats, tough, attack) = match (&n.mettle, &n.core) {
                    (Some(m), _) => (
                        format!(
                            "NATURE {} · CULTURE {} · POISE {} · MOTIVE {} · FRAME {} · Soak {} · Speed {}",
                            m.block.NATURE,
                            m.block.CULTURE,
                            m.block.POISE,
                            m.block.MOTIVE,
                            m.block.FRAME,
                            m.soak,
                            m.block.speed
                        ),
                        m.mettle as usize,
                        m.block
                            .weapons
                            .iter()
                            .map(|w| format!("{} DM {}", w.name, w.dm))
                            .collect::<Vec<_>>()
                            .join("; "),
                    ),
                    (_, Some(c)) => (
                        format!(
                            "STR {} · AGI {} · WIT {} · armour {}",
                            c.sheet.STR, c.sheet.AGI, c.sheet.WIT, c.sheet.armour
                        ),
                        c.max_health as usize,
                        format!(
                            "{} {}",
                            c.sheet.weapon.as_deref().unwrap_or("weapon"),
                            c.sheet.damage
                        ),
                    ),
                    _ => (String::new(), 0, String::new()),
                };
                let kind = display_name(&n.archetype);
                let who = if n.name.starts_with(&kind) {
                    n.name.clone()
                } else {
                    format!("{} — {kind}", n.name)
                };
                f.para(&format!("{who} (tier {}, {})", n.tier, n.kind), 10.0, true);
                f.para(&format!("{stats} · {attack}"), 9.0, false);
                let label = if n.mettle.is_some() {
                    format!("Mettle {tough}")
                } else {
                    format!("Health {tough}")
                };
                f.ticks(&label, tough, 9.0);
            }
        }
        f.heading(&format!("Zones ({})", e.layout.kind), 12.0);
        f.drawing(&super::zones::draw(e));
        f.heading(
            &format!("Terrain cards (first to lay: {})", e.first_to_lay),
            12.0,
        );
        for d in &e.terrain_cards {
            let tiles: Vec<String> = d
                .tiles
                .iter()
                .map(|t| {
                    format!(
                        "{} at {}{}",
                        t.name,
                        t.at,
                        if t.benny { " (benny)" } else { "" }
                    )
                })
                .collect();
            f.para(
                &format!("{}: {} → {}", d.side, d.cards.join(" "), tiles.join("; ")),
                9.0,
                false,
            );
        }
        if !e.sporadics.is_empty() {
            let s: Vec<String> = e
                .sporadics
                .iter()
                .map(|p| format!("{} ({})", p.name, p.at))
                .collect();
            f.para(&format!("Sporadics: {}", s.join(", ")), 9.0, false);
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
            f.para(
                &format!(
                    "Trap: {} — {}",
                    t.name,
                    t.hazard.as_deref().unwrap_or("no roll")
                ),
                9.0,
                false,
            );
        }
        if !e.odds.is_empty() {
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
        f.para("Initiative: whoever calls the first attack acts first; then the target of each Action goes next.", 8.0, false);
    }
    if !pack.npcs.is_empty() {
        f.section("NPC cards");
        let cards: Vec<Card> = pack
            .npcs
            .iter()
            .map(|n| {
                let stats = match (&n.mettle, &n.core) {
                    (Some(m), _) => format!(
                        "N {} · C {} · P {} · M {} · F {}\nMettle {} · Soak {}\n{}",
                        m.block.NATURE,
                        m.block.CULTURE,
                        m.block.POISE,
                        m.block.MOTIVE,
                        m.block.FRAME,
                        m.mettle,
                        m.soak,
                        m.block
                            .weapons
                            .iter()
                            .map(|w| format!("{} DM {}", w.name, w.dm))
                            .collect::<Vec<_>>()
                            .join("; ")
                    ),
                    (_, Some(c)) => format!(
                        "STR {} · AGI {} · WIT {} · health {}\narmour {} · {}",
                        c.sheet.STR,
                        c.sheet.AGI,
                        c.sheet.WIT,
                        c.max_health,
                        c.sheet.armour,
                        c.sheet.damage
                    ),
                    _ => String::new(),
                };
                Card {
                    title: format!("{} — {}", n.name, display_name(&n.archetype)),
                    body: format!("{}\n{stats}", n.concept),
                }
            })
            .collect();
        f.cards(&cards, 2, 3);
    }
    if !pack.traps.is_empty() {
        f.section("Trap cards");
        let cards: Vec<Card> = pack
            .traps
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
    if let Some(m) = &pack.map {
        for players in [false, true] {
            f.section(if players {
                "Point-crawl map (players)"
            } else {
                "Point-crawl map"
            });
            f.drawing(&super::map::draw(m, players));
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
            } else {
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
        }
    }
    if let Some(j) = &pack.journey {
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
    if !pack.vouchers.is_empty() {
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
    if !pack.injuries.is_empty() || !pack.mutations.is_empty() {
        f.section("Injury and mutation slips");
        let mut cards: Vec<Card> = pack
            .injuries
            .iter()
            .map(|i| Card {
                title: format!(
                    "Injury — {}{}",
                    i.name,
                    if i.permanent { " (permanent)" } else { "" }
                ),
                body: format!("{}\n{}", i.text, i.roll.trail_text()),
            })
            .collect();
        cards.extend(pack.mutations.iter().map(|m| {
            Card {
                title: format!(
                    "Mutation — {}",
                    m.gained
                        .iter()
                        .map(|g| g.name.clone())
                        .collect::<Vec<_>>()
                        .join(" + ")
                ),
                body: m
                    .gained
                    .iter()
                    .map(|g| g.text.clone())
                    .collect::<Vec<_>>()
                    .join("\n"),
            }
        }));
        f.cards(&cards, 2, 4);
    }
    let (pages, sections) = f.finish();
    super::pdf::document(&pack.title, paper, &pages, &sections, fonts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::Library;
    use crate::generators::pack;
    use crate::input::Session;
    use crate::rules::Party;
    use crate::rules::RulesSystem;
    use crate::seed::Seed;

    #[test]
    fn a_pack_renders_to_the_same_bytes_twice_in_one_process() {
        let (library, p) = Library::load(&[]);
        assert!(p.is_empty());
        let session: Session = toml::from_str(include_str!("../../session.toml")).unwrap();
        let party = Party::from_summary("3,4,4,5", RulesSystem::Mettle).unwrap();
        let seed = Seed::new("goblin-night").unwrap();
        let pack = pack::generate(&library, &session.request(), &party, &seed).unwrap();
        let share = ShareLine {
            seed: "goblin-night".into(),
            options: "test".into(),
            version: "0".into(),
            content: library.content_hash[..8].into(),
        };
        let fonts = super::super::pdf::Fonts::load();
        let a = pack_pdf(&pack, &share, super::super::pdf::Paper::A4, false, &fonts);
        let b = pack_pdf(&pack, &share, super::super::pdf::Paper::A4, false, &fonts);
        assert_eq!(a, b);
        let templates = Templates::load(None).unwrap();
        assert_eq!(
            pack_files(&pack, &templates, &share).unwrap(),
            pack_files(&pack, &templates, &share).unwrap()
        );
        // Ink saver: no filled shapes.
        let ink = pack_pdf(
            &pack,
            &share,
            super::super::pdf::Paper::Letter,
            true,
            &fonts,
        );
        assert_ne!(a, ink);
    }
}
