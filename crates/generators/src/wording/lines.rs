//! Lines formatted once for every output (terminal text, Markdown handouts
//! and the PDF): chances as percentages, and the stat lines of METTLE stat
//! blocks and Core Rules sheets. Each style of line is one function; the
//! Markdown templates get these lines as values in their context.

use serde::Serialize;

use super::markup::Markup;
use crate::generators::display_name;
use crate::generators::encounter::Encounter;
use crate::generators::journey::Journey;
use crate::generators::npc::{Npc, NpcRules};
use crate::rules::RulesSystem;
use crate::rules::core::Sheet;
use crate::rules::mettle::{Calling, StatBlock};

/// A chance as a percentage a person can read: `69.68%`, `0.0046%`,
/// `3.5e-13`.
pub fn percent(p: f64) -> String {
    crate::generators::checks::percent(p)
}

/// Who leads a journey, in its system's words: `Lead: Kirin (POISE 5D)`
/// (METTLE) or `Tracker: Sybilla (WIT 12); two regions a watch` (Core
/// Rules).
pub fn journey_lead(j: &Journey) -> String {
    match j.system {
        RulesSystem::Mettle => format!("Lead: {} ({} {}D)", j.lead, j.lead_with, j.lead_pool),
        RulesSystem::Core => format!(
            "Tracker: {} (WIT {}); two regions a watch",
            j.lead, j.lead_pool
        ),
    }
}

/// Items joined with `sep`.
fn joined<T>(items: &[T], sep: &str, item: impl Fn(&T) -> String) -> String {
    items.iter().map(item).collect::<Vec<_>>().join(sep)
}

/// The METTLE attributes in full: `NATURE 3 · CULTURE 2 · POISE 1 ·
/// MOTIVE 2 · FRAME 3`.
pub fn mettle_attributes(b: &StatBlock) -> String {
    joined(&b.attributes(), " · ", |(name, v)| format!("{name} {v}"))
}

/// The METTLE attributes by initial, for a tight line: `N3 C2 P1 M2 F3`.
pub fn mettle_initials_short(b: &StatBlock) -> String {
    mettle_initials(b, " ", "")
}

/// The METTLE attributes by initial, `sep` between them and `gap` between
/// initial and number: `N 3 · C 2 · …` or `N3 C2 …`.
fn mettle_initials(b: &StatBlock, sep: &str, gap: &str) -> String {
    joined(&b.attributes(), sep, |(name, v)| {
        format!("{}{gap}{v}", &name[..1])
    })
}

/// Weapons with their Damage Modifier: `Club DM 2; Bow DM 3`.
pub fn weapons_dm(b: &StatBlock, markup: Markup) -> String {
    joined(&b.weapons, "; ", |w| {
        format!("{} DM {}", markup.name(&w.name), w.dm)
    })
}

/// Weapons with their Damage Modifier, ranged ones marked: `Club (DM 2);
/// Bow (DM 3, ranged)`.
pub fn weapons_ranged(b: &StatBlock, markup: Markup) -> String {
    joined(&b.weapons, "; ", |w| {
        let ranged = if w.ranged { ", ranged" } else { "" };
        format!("{} (DM {}{ranged})", markup.name(&w.name), w.dm)
    })
}

/// Weapons with their Damage Modifier, reach and attack pool: `Club (DM 2,
/// melee, 4D); Bow (DM 3, ranged, 3D)`.
pub fn weapons_pools(b: &StatBlock) -> String {
    joined(&b.weapons, "; ", |w| {
        let reach = if w.ranged { "ranged," } else { "melee," };
        format!("{} (DM {}, {reach} {}D)", w.name, w.dm, b.attack_pool(w))
    })
}

/// CALLINGS with their dice: `Lore 2D; Brawl 3D`.
pub fn callings(b: &StatBlock, markup: Markup) -> String {
    joined(&b.callings, "; ", |c| calling(c, markup))
}

/// One calling with its dice: `Swordplay 4D`.
pub fn calling(c: &Calling, markup: Markup) -> String {
    format!("{} {}D", markup.name(&c.name), c.dice)
}

/// The Core Rules attributes: `STR 3 · AGI 2 · WIT 1`.
pub fn core_attributes(sh: &Sheet) -> String {
    format!("STR {} · AGI {} · WIT {}", sh.STR, sh.AGI, sh.WIT)
}

/// A Core Rules attack: the weapon (or `weapon`) and its damage, `Axe d8`.
pub fn core_attack(sh: &Sheet, markup: Markup) -> String {
    let weapon = sh.weapon.as_deref().unwrap_or("weapon");
    format!("{} {}", markup.name(weapon), sh.damage)
}

/// A foe's numbers in three parts: its stats, the Mettle or health to tick
/// off, and its attacks.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Foe {
    /// The stat line (attributes or abilities, Soak or armour).
    pub stats: String,
    /// The Mettle (METTLE) or health (Core Rules) to tick off.
    pub toughness: i64,
    /// Its attacks, in one line.
    pub attack: String,
}

/// A foe on one line of the PDF's encounter page: `NATURE 3 · … · FRAME 3
/// · Soak 4 · Speed 1` or `STR 3 · AGI 2 · WIT 1 · armour 1`.
pub fn foe_line(n: &Npc) -> Foe {
    match &n.rules {
        NpcRules::Mettle(m) => Foe {
            stats: format!(
                "{} · Soak {} · Speed {}",
                mettle_attributes(&m.block),
                m.soak,
                m.block.speed
            ),
            toughness: m.mettle.into(),
            attack: weapons_dm(&m.block, Markup::Plain),
        },
        NpcRules::Core(c) => Foe {
            stats: format!("{} · armour {}", core_attributes(&c.sheet), c.sheet.armour),
            toughness: c.max_health,
            attack: core_attack(&c.sheet, Markup::Plain),
        },
    }
}

/// A foe in the cells of a Markdown table: `N3 C2 P1 M2 F3, Soak 4` or
/// `STR 3 AGI 2 WIT 1, armour 1`, names escaped.
pub fn foe_cells(n: &Npc) -> Foe {
    match &n.rules {
        NpcRules::Mettle(m) => Foe {
            stats: format!("{}, Soak {}", mettle_initials(&m.block, " ", ""), m.soak),
            toughness: m.mettle.into(),
            attack: weapons_dm(&m.block, Markup::Markdown),
        },
        NpcRules::Core(c) => {
            let sh = &c.sheet;
            Foe {
                stats: format!(
                    "STR {} AGI {} WIT {}, armour {}",
                    sh.STR, sh.AGI, sh.WIT, sh.armour
                ),
                toughness: c.max_health,
                attack: core_attack(sh, Markup::Markdown),
            }
        }
    }
}

/// An NPC as a Markdown table row under `NATURE | CULTURE | POISE | MOTIVE
/// | FRAME | Mettle | Soak | Speed`, or under `STR | AGI | WIT | health |
/// armour | damage`.
pub fn npc_row(n: &Npc) -> String {
    let cells: Vec<String> = match &n.rules {
        NpcRules::Mettle(m) => {
            let b = &m.block;
            let attributes = b.attributes().map(|(_, v)| v);
            let numbers = attributes.into_iter().chain([m.mettle, m.soak, b.speed]);
            numbers.map(|v| v.to_string()).collect()
        }
        NpcRules::Core(c) => {
            let sh = &c.sheet;
            let numbers = [sh.STR, sh.AGI, sh.WIT, c.max_health, sh.armour];
            let numbers = numbers.iter().map(i64::to_string);
            numbers
                .chain([super::markup::escape_md(&sh.damage)])
                .collect()
        }
    };
    format!("| {} |", cells.join(" | "))
}

/// An NPC's name, followed by its kind unless the name already starts with
/// it: `Mirela — Bandit captain`, `Bandit captain`.
pub fn who(n: &Npc) -> String {
    let kind = display_name(&n.archetype);
    if n.name.starts_with(&kind) {
        n.name.clone()
    } else {
        format!("{} — {kind}", n.name)
    }
}

/// An encounter's sporadics with where they stand: `Crows (left flank),
/// Fog (whole field)`.
pub fn sporadics(e: &Encounter) -> String {
    joined(&e.sporadics, ", ", |p| format!("{} ({})", p.name, p.at))
}

/// How turns go in an encounter of `system`: METTLE passes Initiative to
/// the target of each Action; a Core Rules encounter (ACS bands) deals
/// initiative cards, as the ACS reads.
pub fn initiative(system: RulesSystem) -> &'static str {
    match system {
        RulesSystem::Mettle => {
            "Initiative: whoever calls the first attack acts first; then the target of each Action goes next."
        }
        RulesSystem::Core => {
            "Initiative by cards: deal each player two cards, one for their PC and one for a foe (the GM keeps a boss's); turns run from Jokers (act at any time, with a bonus action) through Aces down to 2s, ♠ ♥ ♦ ♣ within a rank."
        }
    }
}

/// One rule of the terrain in play: a tile or sporadic, once per name.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TileRule {
    /// The tile's or sporadic's name.
    pub name: String,
    /// Its rule, worded for the encounter's system.
    pub rule: String,
    /// It is a sporadic, not a tile.
    pub sporadic: bool,
}

/// The rules of an encounter's tiles and sporadics, in the encounter's
/// system: each name once, tiles first, in the order they were laid.
pub fn tile_rules(e: &Encounter) -> Vec<TileRule> {
    let tiles = e.terrain_cards.iter().flat_map(|d| &d.tiles);
    let all = tiles
        .map(|t| (t, false))
        .chain(e.sporadics.iter().map(|s| (s, true)));
    let mut out: Vec<TileRule> = Vec::new();
    for (p, sporadic) in all {
        if !out.iter().any(|r| r.name == p.name) {
            out.push(TileRule {
                name: p.name.clone(),
                rule: p.text.clone(),
                sporadic,
            });
        }
    }
    out
}
