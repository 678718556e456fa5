//! What a person wants, hides, does and looks like: one row of each trait
//! table (`gen.npc.want`, `gen.npc.secret`, `gen.npc.manner`,
//! `gen.npc.look`), drawn among the rows tagged with the archetype's kind,
//! each on a stream of its own (`<address>/want`, …) so the rest of the
//! NPC is drawn as it was without them.
//!
//! Kinds: `human` and `townsfolk` draw their own rows; `undead` and
//! `spirit` draw the `monster` rows as well as any of their own (a
//! barrow-wight or a ghost that speaks); `beast`, `swarm` and `construct`
//! draw only rows tagged with their own kind, and the built-in tables have
//! none, so they have no traits. A row tagged `needs:alive` fits only the
//! living (a toothache, a black eye, a fear of dying): `undead`, `spirit`
//! and `construct` never draw it. A table that is missing, or has no row
//! for the kind, leaves that trait out.
//!
//! Bodies: an archetype tagged `body:shapeless`, `beast`, `bones` or
//! `headless` ([`crate::content::validate::traits::BODIES`]) draws only the rows tagged with its body (an
//! ooze has no hat to wear nor a deal to hide); any other draws only the
//! rows without a `body:` tag or tagged `body:person`.
//!
//! Archetypes: a row tagged `for:<archetype>` (one or more) fits only the
//! archetypes it names (only an innkeeper polishes the same clean cup; a
//! tribute in salt and iron is asked by a troll or a goblin-chief, not a
//! ghost), on top of the rules above; a row without one fits every
//! archetype of its kinds.
//!
//! Memory: a campaign remembers the rows its NPC cards and foe leaders
//! drew (`<table>/<row>`, [`Traits::keys`]), and how often; a draw takes
//! among the rows that fit the ones met least (none met, while there are
//! any), keeping their odds among themselves, so fifty sessions of people
//! do not all want to sell the mule.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{Address, GenError};
use crate::content::validate::traits::{ALIVE, FOR, TABLES, UNLIVING, fits_body};
use crate::content::{Library, Row, Table, Text, era};
use crate::seed::{Seed, Stream};

/// The four traits; each `None` when its table has no row for the kind.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Traits {
    /// Something they want now (reads after "Wants:").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub want: Option<String>,
    /// What they hide: for the GM only, never on the players' side.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
    /// A voice or a habit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub manner: Option<String>,
    /// One visible detail.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub look: Option<String>,
    /// The rows drawn, as `<table>/<row>`: what a campaign remembers.
    #[serde(skip)]
    pub keys: Vec<String>,
}

impl Traits {
    /// Whether no trait was drawn (a beast).
    pub fn is_empty(&self) -> bool {
        self.lines().is_empty()
    }

    /// The traits drawn, each with its label, in the order a card shows
    /// them: `("Wants", …)`, `("Secret", …)`, `("Manner", …)`, `("Look", …)`.
    pub fn lines(&self) -> Vec<(&'static str, &str)> {
        [
            ("Wants", &self.want),
            ("Secret", &self.secret),
            ("Manner", &self.manner),
            ("Look", &self.look),
        ]
        .into_iter()
        .filter_map(|(label, v)| v.as_deref().map(|v| (label, v)))
        .collect()
    }

    /// The traits without the secret: what a handout the players may read
    /// shows.
    pub fn public(&self) -> Traits {
        Traits {
            secret: None,
            keys: Vec::new(),
            ..self.clone()
        }
    }
}

/// The trait-table tags an archetype kind draws: its own, and `monster`
/// for `undead` and `spirit`.
pub(crate) fn tags_for(kind: &str) -> Vec<&str> {
    match kind {
        "undead" | "spirit" => vec![kind, "monster"],
        _ => vec![kind],
    }
}

/// Who an NPC is, as the trait tables read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Who<'a> {
    /// The archetype's name (`innkeeper`, `pale-one`): what `for:` tags
    /// name.
    pub archetype: &'a str,
    /// Its kind (`human`, `townsfolk`, `monster`, `undead`, …).
    pub kind: &'a str,
    /// Its body (`person`, `shapeless`, `beast`, `bones`, `headless`).
    pub body: &'a str,
}

impl Who<'_> {
    /// Whether a trait row with `tags` fits this NPC: its kind (or
    /// `monster` for the dead), alive if it needs the living, its body,
    /// and its archetype if the row names any (`for:`). `kinds` are the
    /// tags its kind draws ([`tags_for`]), worked out once per table.
    fn fits(&self, kinds: &[&str], tags: &[Text]) -> bool {
        let has = |t: &str| tags.iter().any(|x| x == t);
        let dead = UNLIVING.contains(&self.kind);
        let mut named = tags.iter().filter_map(|t| t.strip_prefix(FOR)).peekable();
        let for_us = named.peek().is_none() || named.any(|a| a == self.archetype);
        kinds.iter().any(|k| has(k)) && !(dead && has(ALIVE)) && self.has_body(tags) && for_us
    }

    /// Whether the `body:` tags of a row name this NPC's body (none: a
    /// person's).
    fn has_body(&self, tags: &[Text]) -> bool {
        fits_body(tags, self.body)
    }
}

/// The traits of `who` at `at`, each among the rows that fit met least
/// often in `heard` (keys a campaign remembers, [`Traits::keys`], once for
/// each meeting).
pub fn draw(
    library: &Library,
    who: &Who,
    seed: &Seed,
    at: &Address,
    heard: &[String],
) -> Result<Traits, GenError> {
    let mut out = [None, None, None, None];
    let mut keys = Vec::new();
    for (slot, (id, key)) in out.iter_mut().zip(TABLES) {
        if let Some((text, row)) = one(library, id, who, heard, &mut at.stream(seed, key))? {
            *slot = Some(text);
            keys.push(row);
        }
    }
    let [want, secret, manner, look] = out;
    Ok(Traits {
        want,
        secret,
        manner,
        look,
        keys,
    })
}

/// `heard` with the trait rows `more` drawn earlier in the same pack or
/// encounter, in a campaign (`heard` holds what its memory met): there a
/// pack's people spread over the rows met least, not all on the one left.
/// Outside a campaign (`heard` empty) each item is drawn on its own, as
/// `gen --item` draws it.
pub fn also_heard(mut heard: Vec<String>, more: impl IntoIterator<Item = String>) -> Vec<String> {
    if !heard.is_empty() {
        heard.extend(more);
    }
    heard
}

/// A trait row's key: `<table>/<row name>`.
fn key(id: &str, row: &Row) -> String {
    format!("{id}/{}", row.entry.name)
}

/// One trait: a row of `id` that fits `who` (of those, one met least
/// often in `heard`), by weight, resolved on `s`; with its key.
fn one(
    library: &Library,
    id: &str,
    who: &Who,
    heard: &[String],
    s: &mut Stream,
) -> Result<Option<(String, String)>, GenError> {
    let Some(table) = library.get(id) else {
        return Ok(None);
    };
    let kinds = tags_for(who.kind);
    let fits = |r: &Row| era::fits(r, library.era.as_deref()) && who.fits(&kinds, &r.entry.tags);
    let rows: Vec<usize> = (0..table.rows.len())
        .filter(|&i| fits(&table.rows[i]))
        .collect();
    let rows = least_met(id, table, rows, heard);
    let weights: Vec<u64> = rows.iter().map(|&i| weight(&table.rows[i])).collect();
    let Some(pick) = s.pick_weighted(&weights) else {
        return Ok(None);
    };
    let text = library.resolve(id, rows[pick], s)?.text;
    Ok(Some((text, key(id, &table.rows[rows[pick]]))))
}

/// Of the rows `rows` of table `id`, those met least often in `heard`.
fn least_met(id: &str, table: &Table, rows: Vec<usize>, heard: &[String]) -> Vec<usize> {
    if heard.is_empty() {
        return rows;
    }
    // Only this table's keys (`<id>/<row name>`), counted by row name.
    let mut met: BTreeMap<&str, usize> = BTreeMap::new();
    for k in heard {
        if let Some(name) = k.strip_prefix(id).and_then(|k| k.strip_prefix('/')) {
            *met.entry(name).or_default() += 1;
        }
    }
    let times: Vec<usize> = rows
        .iter()
        .map(|&i| met.get(&*table.rows[i].entry.name).copied().unwrap_or(0))
        .collect();
    let least = times.iter().copied().min().unwrap_or(0);
    rows.into_iter()
        .zip(times)
        .filter(|&(_, t)| t == least)
        .map(|(i, _)| i)
        .collect()
}

/// A row's weight: its own, or the width of its range on a ranged table.
fn weight(row: &Row) -> u64 {
    row.entry
        .weight
        .or(row.entry.range.map(|(a, b)| (b - a + 1).max(0) as u64))
        .unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::test_library as library;
    use crate::generators::{encounter, npc, nth};
    use crate::rules::{Party, RulesSystem};

    /// An NPC of `kind` and `body` of no archetype a `for:` tag names.
    fn who<'a>(kind: &'a str, body: &'a str) -> Who<'a> {
        Who {
            archetype: "",
            kind,
            body,
        }
    }

    /// Words that need a person's body, clothes or dealings.
    const PERSON: [&str; 22] = [
        "hand",
        "hands",
        "finger",
        "fingers",
        "hat",
        "coat",
        "boots",
        "hair",
        "nose",
        "eyebrows",
        "smile",
        "smiles",
        "tattoo",
        "freckles",
        "spectacles",
        "sling",
        "pipe",
        "earring",
        "shirt",
        "paid",
        "face",
        "wrist",
    ];

    /// Issue 50: every archetype of a body unlike a person's (an ooze, a
    /// serpent, a skeleton, a headless rider) draws all four traits, each
    /// from the rows of its body, and none needs a person's body; every
    /// person archetype draws all four too.
    #[test]
    fn every_archetype_draws_traits_that_fit_its_body() {
        use crate::content::validate::traits::bodies;
        let library = library();
        let seed = Seed::new("bodies").unwrap();
        let rows = &library.table("gen.npc.mettle").unwrap().rows;
        let mut odd = 0;
        for (k, row) in rows.iter().enumerate() {
            let body = bodies(&row.entry.tags)[0];
            let kind: &str = row.entry.tags.iter().find(|t| !t.contains(':')).unwrap();
            for i in 0..40 {
                let at = Address::new("npc", k * 40 + i);
                let t = draw(
                    &library,
                    &Who {
                        archetype: &row.entry.name,
                        kind,
                        body,
                    },
                    &seed,
                    &at,
                    &[],
                )
                .unwrap();
                let name = &row.entry.name;
                if ["human", "townsfolk"].contains(&kind) || body != "person" {
                    assert_eq!(t.lines().len(), 4, "{name}: {t:?}");
                }
                if body == "person" {
                    continue;
                }
                odd += 1;
                for (label, text) in t.lines() {
                    let words = text.split(|c: char| !c.is_alphabetic());
                    let person = words.into_iter().find(|w| PERSON.contains(w));
                    assert!(person.is_none(), "{name} ({body}) {label}: {text}");
                }
            }
        }
        assert!(odd >= 8 * 40, "{odd}");
    }

    #[test]
    fn kinds_draw_their_rows_and_beasts_none() {
        let library = library();
        let seed = Seed::new("traits").unwrap();
        let monster_rows: Vec<String> = library
            .table("gen.npc.want")
            .unwrap()
            .rows
            .iter()
            .filter(|r| r.entry.tags.iter().any(|t| t == "monster" || t == "spirit"))
            .map(|r| r.entry.text.to_string())
            .collect();
        for i in 0..200 {
            let at = Address::new("npc", i);
            for kind in ["human", "townsfolk", "monster", "undead", "spirit"] {
                let t = draw(&library, &who(kind, "person"), &seed, &at, &[]).unwrap();
                assert_eq!(t.lines().len(), 4, "{kind} #{i}: {t:?}");
            }
            let ghost = draw(&library, &who("spirit", "person"), &seed, &at, &[]).unwrap();
            assert!(monster_rows.contains(ghost.want.as_ref().unwrap()));
            for kind in ["beast", "swarm", "construct"] {
                assert!(
                    draw(&library, &who(kind, "person"), &seed, &at, &[])
                        .unwrap()
                        .is_empty()
                );
            }
        }
    }

    /// Words that give a person a sex the rolled name may contradict.
    const GENDERED: [&str; 8] = [
        "he", "she", "him", "her", "his", "hers", "himself", "herself",
    ];

    fn gendered(text: &str) -> Option<String> {
        text.split(|c: char| !c.is_alphabetic())
            .map(str::to_lowercase)
            .find(|w| GENDERED.contains(&w.as_str()))
    }

    /// Over 1,000 NPCs a system (and 1,000 people), every NPC whose kind
    /// has trait rows has all four, non-empty and without a gendered
    /// pronoun; beasts, swarms and constructs have none.
    #[test]
    fn every_person_and_speaking_monster_has_four_traits() {
        let library = library();
        let seed = Seed::new("traits-sweep").unwrap();
        for system in [RulesSystem::Mettle, RulesSystem::Core] {
            for people_only in [false, true] {
                let req = npc::Request {
                    system,
                    archetype: None,
                    tier: None,
                    terrain: None,
                    people_only,
                    fits: Vec::new(),
                    shun: Vec::new(),
                    taken: Vec::new(),
                    heard: Vec::new(),
                    met: Vec::new(),
                };
                let mut with = 0;
                for i in 0..1_000 {
                    let n = nth(&library, &req, &seed, i).unwrap();
                    let lines = n.traits.lines();
                    if ["beast", "swarm", "construct"].contains(&n.kind.as_str()) {
                        assert!(
                            lines.is_empty(),
                            "{system:?} #{i} {}: {lines:?}",
                            n.archetype
                        );
                        continue;
                    }
                    with += 1;
                    assert_eq!(lines.len(), 4, "{system:?} #{i} {}: {lines:?}", n.archetype);
                    for (label, text) in lines {
                        assert!(!text.trim().is_empty(), "#{i} {label} is empty");
                        assert_eq!(gendered(text), None, "#{i} {label}: {text}");
                    }
                }
                assert!(with >= 500, "{system:?}: only {with} NPCs with traits");
            }
        }
    }

    /// Over 700 encounters a system, the foe group's leader (the highest
    /// tier among the foes whose kind has traits) has all four, and no
    /// other foe has any; the people on stage have theirs.
    #[test]
    fn a_foe_groups_leader_has_four_traits() {
        let library = library();
        let seed = Seed::new("leaders").unwrap();
        let mut led = 0;
        for system in [RulesSystem::Mettle, RulesSystem::Core] {
            let summary = match system {
                RulesSystem::Mettle => "3,3,4,4",
                RulesSystem::Core => "10,11,12,9",
            };
            for i in 0..700 {
                let req = encounter::Request {
                    terrain: encounter::TERRAINS[i % encounter::TERRAINS.len()].into(),
                    system,
                    party: Party::from_summary(summary, system).unwrap(),
                    pin: Default::default(),
                    shun: Vec::new(),
                    taken: Vec::new(),
                    heard: Vec::new(),
                    season: Default::default(),
                };
                let e = nth(&library, &req, &seed, i).unwrap();
                let speaking =
                    |f: &&npc::Npc| !["beast", "swarm", "construct"].contains(&f.kind.as_str());
                let with: Vec<&npc::Npc> = e.foes.iter().filter(|f| !f.traits.is_empty()).collect();
                let Some(top) = e.foes.iter().filter(speaking).map(|f| f.tier).max() else {
                    assert!(with.is_empty(), "#{i}: a beast leads");
                    continue;
                };
                led += 1;
                assert_eq!(with.len(), 1, "#{i}: {} foes with traits", with.len());
                assert_eq!(with[0].traits.lines().len(), 4, "#{i}");
                assert_eq!(
                    with[0].tier, top,
                    "#{i}: the leader is not the highest tier"
                );
                assert_eq!(e.leader(), Some(with[0]));
                for o in e.others.iter().filter(speaking) {
                    assert_eq!(o.traits.lines().len(), 4, "#{i}: {}", o.name);
                }
            }
        }
        assert!(led >= 500, "only {led} encounters with a leader");
    }

    /// Words that only fit the living: a body that aches, bleeds, sleeps
    /// or dies.
    const LIVING: [&str; 9] = [
        "toothache",
        "dying",
        "will die",
        "sleeps",
        "black eye",
        "broken at least twice",
        "burn scar",
        "warm, dry place",
        "earlobe",
    ];

    /// Over 2,000 undead and spirits (and the monsters beside them for
    /// contrast), no trait of the dead reads as if they were alive.
    #[test]
    fn the_dead_draw_no_trait_that_only_fits_the_living() {
        let library = library();
        let seed = Seed::new("the-dead").unwrap();
        let mut living_monsters = 0;
        for i in 0..1_000 {
            let at = Address::new("npc", i);
            for kind in ["undead", "spirit", "construct", "monster"] {
                let t = draw(&library, &who(kind, "person"), &seed, &at, &[]).unwrap();
                for (label, text) in t.lines() {
                    let hit = LIVING.iter().find(|w| text.contains(*w));
                    match (kind, hit) {
                        ("monster", Some(_)) => living_monsters += 1,
                        (_, Some(w)) => panic!("{kind} #{i} {label}: {text} ({w})"),
                        _ => {}
                    }
                }
            }
        }
        assert!(
            living_monsters > 0,
            "no living trait was drawn: the test tests nothing"
        );
    }

    #[test]
    fn the_public_side_has_no_secret() {
        let library = library();
        let seed = Seed::new("public").unwrap();
        let t = draw(
            &library,
            &who("human", "person"),
            &seed,
            &Address::new("npc", 0),
            &[],
        )
        .unwrap();
        let p = t.public();
        assert!(t.secret.is_some() && p.secret.is_none());
        assert_eq!(p.lines().len(), 3);
    }

    /// A campaign's memory of traits: a person draws each trait among the
    /// rows met least, so the rows not met come first, and once every row
    /// that fits was met, those met once come before those met twice.
    #[test]
    fn traits_are_drawn_among_the_rows_met_least() {
        let library = library();
        let seed = Seed::new("heard").unwrap();
        let who = who("human", "person");
        let mut heard: Vec<String> = Vec::new();
        let fitting = library
            .get("gen.npc.want")
            .unwrap()
            .rows
            .iter()
            .filter(|r| who.fits(&tags_for(who.kind), &r.entry.tags))
            .count();
        assert!(fitting >= 40, "{fitting} wants fit a human");
        for i in 0..2 * fitting {
            let t = draw(&library, &who, &seed, &Address::new("npc", i), &heard).unwrap();
            let want = t
                .keys
                .iter()
                .find(|k| k.starts_with("gen.npc.want/"))
                .unwrap();
            let times = heard.iter().filter(|k| *k == want).count();
            // The first round draws each row once, the second each again.
            assert_eq!(times, i / fitting, "draw {i}: {want} met {times} times");
            heard.extend(t.keys);
        }
    }
}
