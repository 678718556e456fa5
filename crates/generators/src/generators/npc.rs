//! NPCs from the archetype tables (`gen.npc.mettle`, `gen.npc.core`): a
//! name, a concept (the archetype's own line or one of its rows in
//! `gen.npc.concept`, [`super::concept`]), and a stat block rolled within
//! the archetype's ranges — always legal by the rules core.
//!
//! - METTLE: the five attributes from their ranges, CALLINGS with pools of
//!   2 + tier (at most the highest attribute + 1), the weapon with its DM
//!   (a weapon written "hatchet or short bow" becomes a melee and a ranged
//!   weapon), Armor, Speed 2 for beasts and 1 otherwise; Mettle and Soak
//!   derived.
//! - Core Rules: STR, AGI and WIT from their ranges (humans capped at 15),
//!   health = STR, armour, the damage die, skills, traits, omens.

use serde::Serialize;

use super::concept;
use super::traits::{self, Traits};
use super::{Address, GenError, Generator, display_name};
use crate::content::validate::traits::bodies;
use crate::content::{Library, Row, Stats, Text, owned};
use crate::rules::RulesSystem;
use crate::rules::core::{self, Sheet};
use crate::rules::mettle::{self, Calling, StatBlock, Weapon};
use crate::seed::{DieSource, Seed, Stream};

/// The archetype table for a system.
pub fn table_for(system: RulesSystem) -> &'static str {
    match system {
        RulesSystem::Mettle => "gen.npc.mettle",
        RulesSystem::Core => "gen.npc.core",
    }
}

/// What an NPC is asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The rules the NPC is made for.
    pub system: RulesSystem,
    /// The archetype (a row of the NPC table) to use; `None` draws one.
    pub archetype: Option<String>,
    /// Only archetypes of this tier, 1 (minion) to 3 (boss).
    pub tier: Option<u8>,
    /// The terrain the NPC lives in (a pack's): only archetypes its
    /// encounter table (`gen.encounter.<terrain>`) names are drawn while
    /// any of them is left with a concept not yet met (no smith or knight
    /// met below ground); then any archetype.
    pub terrain: Option<String>,
    /// Draw only people (`human` and `townsfolk` archetypes), never beasts
    /// or monsters: a pack's NPC cards.
    pub people_only: bool,
    /// Words no personal name may hold while the name tables have others:
    /// the PCs' given and family names (lowercase), so that no NPC is
    /// named like a PC ([`name_words`]).
    pub shun: Vec<String>,
    /// Whole names no personal name repeats while the name tables have
    /// others: those a campaign's earlier packs used, and those already
    /// given in this pack.
    pub taken: Vec<String>,
    /// Concepts the party met (a campaign's NPC cards), by key
    /// ([`super::concept`]): an archetype all of whose concepts were met is
    /// not drawn while the request leaves others to draw, and a concept
    /// met is not drawn while its archetype has others; those left keep
    /// their odds among themselves.
    pub met: Vec<String>,
    /// The concepts a situation allows its person (its `concept:` tags:
    /// a concept row's name, or the archetype's name for its own line):
    /// when any is the archetype's, the concept is drawn among those only
    /// ([`super::concept::fitting`]). Empty: every concept may be drawn.
    pub fits: Vec<String>,
    /// Trait rows the party met (`<table>/<row>`, [`super::traits`]):
    /// each trait is drawn among the others while any fit.
    pub heard: Vec<String>,
}

/// An NPC: a name, an archetype, a concept, traits and the stats of one
/// system. Serialised through a private view (`NpcJson`): the system the
/// stats are in is the key `system`, before `grade` and the one key
/// `mettle` or `core`.
#[derive(Debug, Clone, PartialEq)]
pub struct Npc {
    /// A personal name for people; beasts and monsters go by their kind.
    pub name: String,
    /// The archetype's row name.
    pub archetype: String,
    /// The archetype's kind (`human`, `beast`, …).
    pub kind: String,
    /// The archetype's tier, 1 (minion) to 3 (boss).
    pub tier: u8,
    /// One line: who they are and what they want.
    pub concept: String,
    /// How a campaign remembers the concept ([`super::concept`]); not in
    /// the JSON.
    pub concept_key: String,
    /// Steps up (veteran, +) or down (green, −) from the archetype, made
    /// by an encounter to fit the party.
    pub grade: i8,
    /// The NPC in the system it is made for: a METTLE stat block or a Core
    /// Rules sheet, never both nor neither.
    pub rules: NpcRules,
    /// Want, secret, manner and look ([`super::traits`]); none for a beast.
    pub traits: Traits,
}

/// An NPC's numbers in the one system it is made for. In the JSON it is
/// the one key `mettle` or `core`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NpcRules {
    /// The METTLE stat block.
    Mettle(MettleNpc),
    /// The Core Rules sheet.
    Core(CoreNpc),
}

impl NpcRules {
    /// The system the numbers are in.
    pub fn system(&self) -> RulesSystem {
        match self {
            NpcRules::Mettle(_) => RulesSystem::Mettle,
            NpcRules::Core(_) => RulesSystem::Core,
        }
    }

    /// The METTLE stat block, when made for METTLE.
    pub fn mettle(&self) -> Option<&MettleNpc> {
        match self {
            NpcRules::Mettle(m) => Some(m),
            NpcRules::Core(_) => None,
        }
    }

    /// The Core Rules sheet, when made for the Core Rules.
    pub fn core(&self) -> Option<&CoreNpc> {
        match self {
            NpcRules::Core(c) => Some(c),
            NpcRules::Mettle(_) => None,
        }
    }
}

/// An NPC as its JSON has it, field for field in the JSON's order: the
/// system (which [`Npc::rules`] holds) written as its own key.
#[derive(Serialize)]
struct NpcJson<'a> {
    name: &'a str,
    archetype: &'a str,
    kind: &'a str,
    tier: u8,
    concept: &'a str,
    system: RulesSystem,
    #[serde(skip_serializing_if = "is_zero")]
    grade: i8,
    #[serde(flatten)]
    rules: &'a NpcRules,
    #[serde(flatten)]
    traits: &'a Traits,
}

impl Serialize for Npc {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Every field named, so a new one cannot be left out unseen.
        let Npc {
            name,
            archetype,
            kind,
            tier,
            concept,
            concept_key: _,
            grade,
            rules,
            traits,
        } = self;
        NpcJson {
            name,
            archetype,
            kind,
            tier: *tier,
            concept,
            system: rules.system(),
            grade: *grade,
            rules,
            traits,
        }
        .serialize(serializer)
    }
}

impl Npc {
    /// The rules the NPC is made for.
    pub fn system(&self) -> RulesSystem {
        self.rules.system()
    }

    /// Whether the NPC is a person (human or townsfolk, with a name of
    /// their own), not a beast or monster that goes by its kind.
    pub fn is_person(&self) -> bool {
        self.kind == "human" || self.kind == "townsfolk"
    }
}

/// An NPC's METTLE numbers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MettleNpc {
    /// The stat block.
    pub block: StatBlock,
    /// Mettle: MOTIVE plus the highest attribute other than FRAME.
    pub mettle: u32,
    /// Soak: FRAME plus Armor.
    pub soak: u32,
}

/// An NPC's Core Rules numbers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CoreNpc {
    /// The character sheet.
    pub sheet: Sheet,
    /// Maximum health (STR).
    pub max_health: i64,
}

/// Names of every archetype in a system's table.
pub fn archetypes(library: &Library, system: RulesSystem) -> Result<Vec<String>, GenError> {
    Ok(library
        .table(table_for(system))?
        .rows
        .iter()
        .map(|r| r.entry.name.to_string())
        .collect())
}

/// An archetype's tier (`tier:` tag), 1 without one.
pub(crate) fn tier_of(row: &Row) -> u8 {
    row.entry
        .tags
        .iter()
        .find_map(|t| t.strip_prefix("tier:").and_then(|n| n.parse().ok()))
        .unwrap_or(1)
}

fn kind_of(row: &Row) -> String {
    row.entry
        .tags
        .iter()
        .find(|t| !t.contains(':'))
        .map_or_else(|| "creature".into(), |t| t.to_string())
}

/// A value uniformly within a range written `"2-4"` (or `"3"`).
fn in_range(range: &str, s: &mut Stream) -> i64 {
    let (a, b) = match range.split_once('-') {
        Some((a, b)) => (a.trim().parse().unwrap_or(1), b.trim().parse().unwrap_or(1)),
        None => {
            let v = range.trim().parse().unwrap_or(1);
            (v, v)
        }
    };
    let (lo, hi): (i64, i64) = (a.min(b), a.max(b));
    lo + i64::from(s.die((hi - lo + 1) as u32)) - 1
}

const RANGED_WORDS: [&str; 7] = [
    "bow", "sling", "crossbow", "javelin", "dart", "musket", "thrown",
];

fn weapons(stats: &Stats) -> Vec<Weapon> {
    let dm = stats.dm.unwrap_or(1).clamp(0, 10) as u32;
    let Some(text) = &stats.weapon else {
        return vec![Weapon {
            name: "fists".into(),
            dm: dm.min(1),
            ranged: false,
        }];
    };
    text.split(" or ")
        .map(|w| {
            let name = w.trim().to_owned();
            let lower = name.to_lowercase();
            Weapon {
                ranged: RANGED_WORDS.iter().any(|r| lower.contains(r)),
                name,
                dm,
            }
        })
        .collect()
}

/// Whether an archetype is a person (`human` or `townsfolk`), with a
/// personal name, rather than a beast or a monster.
pub(crate) fn is_person(row: &Row) -> bool {
    row.entry
        .tags
        .iter()
        .any(|t| t == "human" || t == "townsfolk")
}

/// A personal name for people; beasts and monsters go by their kind.
fn name_for(
    library: &Library,
    row: &Row,
    seed: &Seed,
    at: &Address,
    (shun, taken): (&[String], &[String]),
) -> Result<String, GenError> {
    if !is_person(row) {
        return Ok(display_name(&row.entry.name));
    }
    let mut s = at.stream(seed, "name");
    // The first draw, and the first that holds no PC's word (kept when
    // every draw repeats a name taken).
    let (mut first, mut unshunned) = (None, None);
    // A name holding a PC's word, or one taken, is drawn again on the
    // same stream: the names left keep their odds among themselves.
    for _ in 0..NAME_DRAWS {
        let given = library.roll_table("gen.names.given", &mut s)?;
        let family = library.roll_table("gen.names.family", &mut s)?;
        let name = format!("{} {}", given.row, family.row);
        if !shares_a_word(&name, shun) {
            if !taken.contains(&name) {
                return Ok(name);
            }
            unshunned.get_or_insert_with(|| name.clone());
        }
        first.get_or_insert(name);
    }
    Ok(unshunned.or(first).expect("at least one draw"))
}

/// The words of names, lowercase, each once (`Cress Salter` → `cress`,
/// `salter`).
pub fn name_words<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for name in names {
        for w in words(name) {
            if !out.contains(&w) {
                out.push(w);
            }
        }
    }
    out
}

/// Whether `name` holds one of `shunned` (lowercase words).
pub fn shares_a_word(name: &str, shunned: &[String]) -> bool {
    !shunned.is_empty() && words(name).iter().any(|w| shunned.contains(w))
}

fn words(name: &str) -> Vec<String> {
    name.split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Most draws of a personal name that holds a PC's word or repeats a name
/// taken before the first is kept (the name tables would be all but made
/// of the party's names, or all but used up).
const NAME_DRAWS: usize = 256;

/// The archetype row a request asks for (or one drawn by weight).
fn choose_row<'a>(
    library: &'a Library,
    req: &Request,
    s: &mut Stream,
) -> Result<&'a Row, GenError> {
    let table = library.table(table_for(req.system))?;
    let candidates: Vec<(usize, &Row)> = table
        .rows
        .iter()
        .enumerate()
        .filter(|(_, r)| library.drawable(r))
        .filter(|(_, r)| req.archetype.as_ref().is_none_or(|a| &r.entry.name == a))
        .filter(|(_, r)| req.tier.is_none_or(|t| tier_of(r) == t))
        .filter(|(_, r)| !req.people_only || is_person(r))
        .collect();
    if candidates.is_empty() {
        let names: Vec<&str> = table.rows.iter().map(|r| r.entry.name.as_ref()).collect();
        let hint = match (&req.archetype, req.tier) {
            (Some(a), _) if !names.contains(&a.as_str()) => {
                let close = crate::content::validate::closest(a, names.iter().copied());
                match close {
                    Some(c) => format!("there is no archetype `{a}`; did you mean `{c}`?"),
                    None => format!(
                        "there is no archetype `{a}`; the archetypes are: {}",
                        names.join(", ")
                    ),
                }
            }
            (Some(a), _)
                if req.people_only
                    && !table
                        .rows
                        .iter()
                        .any(|r| &r.entry.name == a && is_person(r)) =>
            {
                format!("the archetype `{a}` is a beast or a monster, not a person")
            }
            (Some(a), Some(t)) => format!("the archetype `{a}` is not tier {t}; leave out --tier"),
            (Some(a), None) => format!("the archetype `{a}` cannot be drawn"),
            (None, Some(t)) => {
                format!("no archetype is tier {t}; tiers run 1 (minion) to 3 (boss)")
            }
            (None, None) if req.people_only => {
                "no archetype is a person (a `human` or `townsfolk` tag)".into()
            }
            (None, None) => "the archetype table is empty".into(),
        };
        return Err(GenError::Request(hint));
    }
    let fresh: Vec<(usize, &Row)> = candidates
        .iter()
        .filter(|(_, r)| concept::has_fresh(library, table_for(req.system), r, &req.met))
        .copied()
        .collect();
    let candidates = if fresh.is_empty() { candidates } else { fresh };
    let fits = terrain_archetypes(library, req.terrain.as_deref());
    let home: Vec<(usize, &Row)> = (candidates.iter())
        .filter(|(_, r)| fits.contains(&r.entry.name.as_ref()))
        .copied()
        .collect();
    let candidates = if home.is_empty() { candidates } else { home };
    let weights: Vec<u64> = (candidates.iter())
        .map(|(_, r)| r.entry.weight.unwrap_or(1))
        .collect();
    let pick = s.pick_weighted(&weights).expect("positive weights");
    Ok(candidates[pick].1)
}

impl Generator for Request {
    const KIND: &'static str = "npc";
    type Item = Npc;

    /// The NPC at `at` (an encounter's foes sit inside the encounter:
    /// `encounter/0/foe/2`).
    fn make(&self, library: &Library, seed: &Seed, at: &Address) -> Result<Npc, GenError> {
        let mut pick = at.stream(seed, "archetype");
        let row = choose_row(library, self, &mut pick)?;
        let stats = (*row.entry.stats).clone().unwrap_or_default();
        let tier = tier_of(row);
        let kind = kind_of(row);
        let name = name_for(library, row, seed, at, (&self.shun, &self.taken))?;
        let mut s = at.stream(seed, "stats");
        let rules = match self.system {
            RulesSystem::Mettle => NpcRules::Mettle(mettle_npc(&stats, tier, &kind, &name, &mut s)),
            RulesSystem::Core => NpcRules::Core(core_npc(row, &stats, &name, &mut s)),
        };
        let body = bodies(&row.entry.tags)[0];
        let who = traits::Who {
            archetype: &row.entry.name,
            kind: &kind,
            body,
        };
        let traits = traits::draw(library, &who, seed, at, &self.heard)?;
        let table = table_for(self.system);
        let concept = concept::draw(
            library,
            table,
            row,
            (&self.met, &self.fits),
            &mut at.stream(seed, "concept"),
        );
        Ok(Npc {
            name,
            archetype: row.entry.name.to_string(),
            kind,
            tier,
            concept: concept.text,
            concept_key: concept.key,
            grade: 0,
            rules,
            traits,
        })
    }
}

/// The archetypes a terrain's encounter table names (`foe:` and `npc:`
/// tags), in table order; none without a terrain or its table.
fn terrain_archetypes<'a>(library: &'a Library, terrain: Option<&str>) -> Vec<&'a str> {
    let Some(table) = terrain.and_then(|t| library.table(&format!("gen.encounter.{t}")).ok())
    else {
        return Vec::new();
    };
    table
        .rows
        .iter()
        .flat_map(|r| &r.entry.tags)
        .filter_map(|t| t.strip_prefix("foe:").or_else(|| t.strip_prefix("npc:")))
        .collect()
}

/// A METTLE stat block within the archetype's ranges (the `stats` stream).
fn mettle_npc(stats: &Stats, tier: u8, kind: &str, name: &str, s: &mut Stream) -> MettleNpc {
    let mut roll = |r: &Option<Text>| in_range(r.as_deref().unwrap_or("2"), s) as u32;
    let (n, c, p, m, f) = (
        roll(&stats.NATURE),
        roll(&stats.CULTURE),
        roll(&stats.POISE),
        roll(&stats.MOTIVE),
        roll(&stats.FRAME),
    );
    let highest = n.max(c).max(p).max(m).max(f);
    let callings = stats
        .callings
        .iter()
        .map(|name| Calling {
            name: name.to_string(),
            dice: (2 + u32::from(tier)).min(highest + 1).min(mettle::MAX_POOL),
        })
        .collect();
    let block = StatBlock {
        name: name.to_owned(),
        NATURE: n,
        CULTURE: c,
        POISE: p,
        MOTIVE: m,
        FRAME: f,
        callings,
        armor: stats.armor.unwrap_or(0).clamp(0, 6) as u32,
        weapons: weapons(stats),
        speed: if kind == "beast" { 2 } else { 1 },
        statuses: Vec::new(),
    };
    let (mettle, soak) = (block.mettle(), block.soak());
    MettleNpc {
        block,
        mettle,
        soak,
    }
}

/// A Core Rules sheet within the archetype's ranges (the `stats` stream).
fn core_npc(row: &Row, stats: &Stats, name: &str, s: &mut Stream) -> CoreNpc {
    let human = is_person(row);
    let cap = if human {
        core::HUMAN_MAX
    } else {
        core::ABILITY_MAX
    };
    let mut roll = |r: &Option<Text>| in_range(r.as_deref().unwrap_or("10"), s).clamp(1, cap);
    let (st, ag, wi) = (roll(&stats.STR), roll(&stats.AGI), roll(&stats.WIT));
    let omens = stats.omens.unwrap_or(0).clamp(0, 2);
    let sheet = Sheet {
        name: name.to_owned(),
        human,
        STR: st,
        AGI: ag,
        WIT: wi,
        health: None,
        armour: stats.armor.unwrap_or(0).clamp(0, core::ARMOUR_MAX),
        damage: stats.damage.as_deref().unwrap_or("d6").to_owned(),
        weapon: owned(&stats.weapon),
        omens,
        max_omens: omens,
        corruption: 0,
        skills: stats.skills.iter().map(|s| s.to_string()).collect(),
        traits: stats.traits.iter().map(|s| s.to_string()).collect(),
        conditions: Vec::new(),
    };
    let max_health = sheet.max_health();
    CoreNpc { sheet, max_health }
}

fn is_zero(v: &i8) -> bool {
    *v == 0
}

const DAMAGE_STEPS: [&str; 5] = ["d4", "d6", "d8", "d10", "d12"];

/// Make an NPC one step tougher (`up`) or weaker, within the rules'
/// bounds. METTLE: a veteran gains +1 NATURE, CULTURE, MOTIVE, CALLINGS and
/// weapon DM; a green foe loses 1 POISE, FRAME, Armor and DM (pools stay
/// 1-12, DM 0-10). Core Rules: STR, AGI and WIT
/// ±2 (within 1 and the kind's cap), the damage die one step (d4-d12), and
/// a weaker foe loses a point of armour. Returns false when nothing could
/// change.
pub(crate) fn regrade(npc: &mut Npc, up: bool) -> bool {
    let before = npc.clone();
    let step: i64 = if up { 1 } else { -1 };
    match &mut npc.rules {
        NpcRules::Mettle(m) => regrade_mettle(m, up, step),
        NpcRules::Core(c) => regrade_core(c, up, step),
    }
    let changed = *npc != before;
    if changed {
        npc.grade += step as i8;
    }
    changed
}

/// [`regrade`] for a METTLE stat block: `step` is +1 or −1.
fn regrade_mettle(m: &mut MettleNpc, up: bool, step: i64) {
    let b = &mut m.block;
    let bump =
        |v: &mut u32| *v = (i64::from(*v) + step).clamp(1, i64::from(mettle::MAX_POOL)) as u32;
    if up {
        // A veteran hits harder and holds on longer (MOTIVE → Mettle).
        for v in [&mut b.NATURE, &mut b.CULTURE, &mut b.MOTIVE] {
            bump(v);
        }
        for c in &mut b.callings {
            bump(&mut c.dice);
        }
    } else {
        // A green foe is easier to hit and to hurt.
        for v in [&mut b.POISE, &mut b.FRAME] {
            bump(v);
        }
        b.armor = b.armor.saturating_sub(1);
    }
    for w in &mut b.weapons {
        w.dm = (i64::from(w.dm) + step).clamp(0, 10) as u32;
    }
    m.mettle = b.mettle();
    m.soak = b.soak();
}

/// [`regrade`] for a Core Rules sheet: `step` is +1 or −1.
fn regrade_core(c: &mut CoreNpc, up: bool, step: i64) {
    let sh = &mut c.sheet;
    let cap = sh.ability_cap();
    for v in [&mut sh.STR, &mut sh.AGI, &mut sh.WIT] {
        *v = (*v + 2 * step).clamp(1, cap);
    }
    if let Some(i) = DAMAGE_STEPS.iter().position(|d| *d == sh.damage) {
        let j = (i as i64 + step).clamp(0, DAMAGE_STEPS.len() as i64 - 1) as usize;
        sh.damage = DAMAGE_STEPS[j].into();
    }
    if !up {
        sh.armour = (sh.armour - 1).max(0);
    }
    c.max_health = sh.max_health();
}

/// Everything about an NPC the rules core refuses.
pub fn check(npc: &Npc) -> Vec<String> {
    let mut out = Vec::new();
    match &npc.rules {
        NpcRules::Mettle(m) => {
            out.extend(mettle::check_block(&m.block));
            if m.mettle != m.block.mettle() || m.soak != m.block.soak() {
                out.push("derived Mettle or Soak do not match the attributes".into());
            }
            if m.block.weapons.is_empty() {
                out.push("no weapon".into());
            }
        }
        NpcRules::Core(c) => {
            out.extend(core::check_generated_sheet(&c.sheet));
            if c.max_health != c.sheet.STR {
                out.push("maximum health is not STR".into());
            }
        }
    }
    if npc.name.trim().is_empty() || npc.concept.trim().is_empty() {
        out.push("an NPC needs a name and a concept".into());
    }
    if !(1..=3).contains(&npc.tier) {
        out.push(format!("tier {} is outside 1-3", npc.tier));
    }
    out
}

impl super::Distinct for Npc {
    /// A person is said once: their concept and their name.
    fn keys(&self) -> Vec<String> {
        vec![
            format!("concept: {}", self.concept),
            format!("name: {}", self.name),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::test_library as library;
    use crate::generators::nth;

    #[test]
    fn ten_thousand_npcs_are_legal() {
        let library = library();
        let seed = Seed::new("npc-sweep").unwrap();
        for system in [RulesSystem::Mettle, RulesSystem::Core] {
            let req = Request {
                system,
                archetype: None,
                tier: None,
                terrain: None,
                people_only: false,
                fits: Vec::new(),
                met: Vec::new(),
                shun: Vec::new(),
                taken: Vec::new(),
                heard: Vec::new(),
            };
            for i in 0..5_000 {
                let npc = nth(&library, &req, &seed, i).unwrap();
                let problems = check(&npc);
                assert!(
                    problems.is_empty(),
                    "{system:?} #{i} {}: {problems:?}",
                    npc.archetype
                );
            }
        }
    }

    /// A request for a person of `system`, anywhere, with no memory.
    fn people(system: RulesSystem) -> Request {
        Request {
            system,
            archetype: None,
            tier: None,
            terrain: None,
            people_only: true,
            fits: Vec::new(),
            met: Vec::new(),
            shun: Vec::new(),
            taken: Vec::new(),
            heard: Vec::new(),
        }
    }

    #[test]
    fn a_terrain_draws_its_own_folk_until_their_concepts_are_met() {
        let library = library();
        let seed = Seed::new("home folk").unwrap();
        let home = terrain_archetypes(&library, Some("underground"));
        let mut req = Request {
            terrain: Some("underground".into()),
            ..people(RulesSystem::Mettle)
        };
        let mut met = Vec::new();
        for i in 0..400 {
            let npc = nth(&library, &req, &seed, i).unwrap();
            assert!(home.contains(&npc.archetype.as_str()), "{}", npc.archetype);
            met.push(npc.concept_key);
        }
        // Every concept of the folk below ground met: anyone may come.
        req.met = met;
        let strangers = (0..50)
            .map(|i| nth(&library, &req, &seed, i).unwrap())
            .filter(|n| !home.contains(&n.archetype.as_str()))
            .count();
        assert!(strangers > 40, "{strangers} of 50 from elsewhere");
    }

    #[test]
    fn every_archetype_in_both_systems() {
        let library = library();
        let seed = Seed::new("archetypes").unwrap();
        let mettle = archetypes(&library, RulesSystem::Mettle).unwrap();
        assert_eq!(mettle, archetypes(&library, RulesSystem::Core).unwrap());
        for (i, a) in mettle.iter().enumerate() {
            for system in [RulesSystem::Mettle, RulesSystem::Core] {
                let req = Request {
                    system,
                    archetype: Some(a.clone()),
                    tier: None,
                    terrain: None,
                    people_only: false,
                    fits: Vec::new(),
                    met: Vec::new(),
                    shun: Vec::new(),
                    taken: Vec::new(),
                    heard: Vec::new(),
                };
                let npc = nth(&library, &req, &seed, i).unwrap();
                assert_eq!(&npc.archetype, a);
                assert!(check(&npc).is_empty());
            }
        }
    }

    #[test]
    fn people_only_draws_people_and_says_why_not() {
        let library = library();
        let table = library.table(table_for(RulesSystem::Mettle)).unwrap();
        let kinds = |person: bool| table.rows.iter().filter(|r| is_person(r) == person).count();
        assert!(
            kinds(true) > 0 && kinds(false) > 0,
            "the test needs both kinds"
        );
        let seed = Seed::new("people").unwrap();
        for system in [RulesSystem::Mettle, RulesSystem::Core] {
            let mut req = people(system);
            let table = library.table(table_for(system)).unwrap();
            for i in 0..300 {
                let npc = nth(&library, &req, &seed, i).unwrap();
                let row = table
                    .rows
                    .iter()
                    .find(|r| r.entry.name == npc.archetype)
                    .unwrap();
                assert!(is_person(row), "#{i} is a {}", npc.archetype);
                assert_ne!(npc.name, display_name(&npc.archetype), "#{i} has no name");
            }
            req.archetype = Some("wolf".into());
            let GenError::Request(m) = nth(&library, &req, &seed, 0).unwrap_err() else {
                panic!()
            };
            assert!(m.contains("not a person"), "{m}");
        }
    }

    #[test]
    fn requests_that_cannot_be_met_say_why() {
        let library = library();
        let seed = Seed::new("x").unwrap();
        let req = Request {
            system: RulesSystem::Core,
            archetype: Some("bandti".into()),
            tier: None,
            terrain: None,
            people_only: false,
            fits: Vec::new(),
            met: Vec::new(),
            shun: Vec::new(),
            taken: Vec::new(),
            heard: Vec::new(),
        };
        let GenError::Request(m) = nth(&library, &req, &seed, 0).unwrap_err() else {
            panic!()
        };
        assert!(m.contains("did you mean `bandit`?"), "{m}");
    }
}
