//! Issue 50, item 5: a campaign's memory of everything. Fifty sessions of
//! 3 encounters, 2 traps and 4 NPCs each, made as a campaign makes them
//! (each pack remembering what every earlier pack used,
//! `session::generate_remembering` with `Pack::used` folded in, as
//! `pack::history` does), in one terrain and in a mixed region, in both
//! systems. From session 21 on it measures the share of encounters (by
//! their situation's text), traps (by trigger and effect text) and NPC
//! cards (by name, and by concept line) that repeat one the party met, and
//! asserts that every repeat is announced: named in the pack's
//! `campaign.repeats` (`Pack::repeats`), and, for a situation or a concept,
//! its table said to be used up by that pack or an earlier one. It prints
//! the figures (`cargo test --test it fifty -- --nocapture`).
//!
//! People's traits (want, secret, manner, look) of the NPC cards and the
//! foe leaders are counted over all fifty sessions: no line is printed
//! much more often than an even share of the rows would give it.

use std::collections::{BTreeMap, BTreeSet};

use tablewright::content::Library;
use tablewright::generators::Rerolls;
use tablewright::generators::memory::Memory;
use tablewright::generators::session::{self, Entries, Pack, Repeat, Request};
use tablewright::seed::Seed;
use tablewright::{Party, RulesSystem};

const SESSIONS: usize = 50;
/// The first session measured.
const FROM: usize = 21;

/// Repeats of what the party met, counted from session [`FROM`] on.
#[derive(Debug, Default)]
struct Tally {
    encounters: (usize, usize),
    /// Encounters whose situation's row (before its dice) the party met.
    rows: (usize, usize),
    traps: (usize, usize),
    npc_names: (usize, usize),
    npc_concepts: (usize, usize),
    /// Situations repeated, in any session, while their table still had
    /// rows the party had not met.
    early: usize,
    /// Every trait line printed (cards and leaders, all sessions), by
    /// label and text, with how often.
    traits: BTreeMap<(String, String), usize>,
}

fn share((repeats, of): (usize, usize)) -> f64 {
    repeats as f64 / of.max(1) as f64
}

impl Tally {
    /// For each trait label: lines printed, distinct lines, and the most
    /// any one was printed.
    fn trait_counts(&self) -> Vec<(String, usize, usize, usize)> {
        let mut out: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
        for ((label, _), n) in &self.traits {
            let e = out.entry(label).or_default();
            e.0 += n;
            e.1 += 1;
            e.2 = e.2.max(*n);
        }
        out.into_iter()
            .map(|(l, (all, distinct, most))| (l.to_owned(), all, distinct, most))
            .collect()
    }

    fn line(&self, what: &str) -> String {
        let traits: Vec<String> = self
            .trait_counts()
            .iter()
            .map(|(l, all, distinct, most)| {
                format!("{l} {all} lines, {distinct} distinct, top {most}")
            })
            .collect();
        format!(
            "{what}: encounters {:.1}% (rows {:.1}%), traps {:.1}%, NPC names {:.1}%, NPC concepts {:.1}% \
             (of {} encounters, {} traps, {} NPCs from session {FROM} on); {} situations \
             repeated before their table was used up; traits: {}",
            100.0 * share(self.encounters),
            100.0 * share(self.rows),
            100.0 * share(self.traps),
            100.0 * share(self.npc_names),
            100.0 * share(self.npc_concepts),
            self.encounters.1,
            self.traps.1,
            self.npc_names.1,
            self.early,
            traits.join("; "),
        )
    }
}

/// What the party has met, by text, and the tables said to be used up.
#[derive(Default)]
struct Met {
    situations: BTreeSet<String>,
    rows: BTreeSet<String>,
    traps: BTreeSet<String>,
    names: BTreeSet<String>,
    concepts: BTreeSet<String>,
    used_up: BTreeSet<String>,
}

fn request(system: RulesSystem, terrain: &str) -> Request {
    Request {
        first_season: Default::default(),
        title: "Fifty".into(),
        system,
        terrain: terrain.into(),
        encounters: 3,
        traps: 2,
        npcs: 4,
        injuries: 0,
        mutations: 0,
        vouchers: Vec::new(),
        map: None,
        rerolls: Rerolls::default(),
        entries: Entries::default(),
    }
}

/// Whether `repeats` (a pack's `campaign.repeats`) name the part `what`
/// of the item at `address`.
fn announced(repeats: &[Repeat], address: &str, what: &str) -> bool {
    repeats
        .iter()
        .any(|r| r.address == address && r.what == what)
}

/// What a GM reads of an encounter's scene: its situation with the twist
/// and the ending laid over it.
fn scene_text(e: &tablewright::generators::encounter::Encounter) -> String {
    let twist = e.twist.as_ref().map_or("", |r| r.text.as_str());
    let ending = e.ending.as_ref().map_or("", |r| r.text.as_str());
    format!("{}\n{twist}\n{ending}", e.situation.text)
}

/// Count one session's repeats into `tally` (when measured) and check
/// every one is announced; then remember what the party met.
fn measure(pack: &Pack, repeats: &[Repeat], n: usize, met: &mut Met, tally: &mut Tally) {
    let counted = n >= FROM;
    let count = |slot: &mut (usize, usize), repeat: bool| {
        if counted {
            slot.0 += usize::from(repeat);
            slot.1 += 1;
        }
    };
    for (i, e) in pack.encounters.iter().enumerate() {
        let at = format!("encounter/{}", i + 1);
        let repeat = met.situations.contains(&scene_text(e));
        count(&mut tally.encounters, repeat);
        let key = format!("{}/{}", e.situation.table, e.situation.row);
        count(&mut tally.rows, met.rows.contains(&key));
        met.rows.insert(key);
        if repeat {
            assert!(
                announced(repeats, &at, "situation"),
                "session {n}: {at} unannounced"
            );
            // Before its table is used up, a repeat is the 64-draw
            // fallback (the rows left too rare to come up): counted.
            tally.early += usize::from(!met.used_up.contains(&e.situation.table));
        }
    }
    for (i, t) in pack.traps.iter().enumerate() {
        let at = format!("trap/{}", i + 1);
        let repeat = met.traps.contains(&format!("{}\n{}", t.trigger, t.effect));
        count(&mut tally.traps, repeat);
        assert!(
            !repeat || announced(repeats, &at, "trap"),
            "session {n}: {at} unannounced"
        );
    }
    for (i, npc) in pack.npcs.iter().enumerate() {
        let at = format!("npc/{}", i + 1);
        let name = met.names.contains(&npc.name);
        count(&mut tally.npc_names, name);
        assert!(
            !name || announced(repeats, &at, "name"),
            "session {n}: {at} unannounced"
        );
        let concept = met.concepts.contains(&npc.concept);
        count(&mut tally.npc_concepts, concept);
        if concept {
            assert!(
                announced(repeats, &at, "concept"),
                "session {n}: {at} unannounced"
            );
            let table = tablewright::generators::concept::TABLE;
            assert!(
                met.used_up.contains(table),
                "session {n}: {at} before used up"
            );
        }
    }
    met.situations
        .extend(pack.encounters.iter().map(scene_text));
    met.traps.extend(
        pack.traps
            .iter()
            .chain(pack.encounters.iter().flat_map(|e| &e.trap))
            .map(|t| format!("{}\n{}", t.trigger, t.effect)),
    );
    met.names.extend(pack.npcs.iter().map(|n| n.name.clone()));
    met.names.extend(
        pack.encounters
            .iter()
            .flat_map(|e| e.foes.iter().chain(&e.others))
            .map(|n| n.name.clone()),
    );
    met.concepts
        .extend(pack.npcs.iter().map(|n| n.concept.clone()));
    let people = pack.npcs.iter().chain(
        pack.encounters
            .iter()
            .flat_map(|e| e.foes.iter().chain(&e.others)),
    );
    for p in people {
        for (label, text) in p.traits.lines() {
            *tally.traits.entry((label.into(), text.into())).or_default() += 1;
        }
    }
}

/// Fifty sessions of a campaign whose session `n` is in `terrain(n)`.
fn campaign(system: RulesSystem, name: &str, terrain: &dyn Fn(usize) -> &'static str) -> Tally {
    let library = Library::load(&[]).0;
    let summary = match system {
        RulesSystem::Mettle => "3,4,4,5",
        RulesSystem::Core => "10,12,9,11",
    };
    let party = Party::from_summary(summary, system).unwrap();
    let pcs = party.mettle.iter().map(|b| b.name.as_str());
    let mut memory = Memory::for_pcs(pcs.chain(party.core.iter().map(|c| c.name.as_str())));
    let (mut met, mut tally) = (Met::default(), Tally::default());
    for n in 1..=SESSIONS {
        let seed = Seed::new(&format!("{name}/session/{n}")).unwrap();
        let req = request(system, terrain(n));
        let pack = session::generate_remembering(&library, &req, &party, &seed, &memory).unwrap();
        // What the campaign page says (as `pack::CampaignPart::page` makes
        // it): the tables this pack used up, and what it repeats.
        let mut after = memory.clone();
        after.remember(pack.used());
        met.used_up.extend(after.used_up(&library));
        let repeats = pack.repeats(&memory);
        measure(&pack, &repeats, n, &mut met, &mut tally);
        memory = after;
    }
    tally
}

const MIXED: [&str; 4] = ["road", "forest", "hills", "swamp"];

/// Session `n`'s terrain in a mixed region: the party wanders it.
fn wander(n: usize) -> &'static str {
    MIXED[(n * 7 + n / 3) % MIXED.len()]
}

#[test]
fn fifty_sessions_announce_every_repeat_and_keep_traps_and_names_fresh() {
    let mut lines = Vec::new();
    for system in [RulesSystem::Mettle, RulesSystem::Core] {
        for (label, terrain) in [
            ("forest", &(|_| "forest") as &dyn Fn(usize) -> &'static str),
            ("mixed", &wander),
        ] {
            let name = format!("fifty-{label}-{}", system.label());
            let t = campaign(system, &name, terrain);
            lines.push(t.line(&name));
            // What the built-in tables allow today (measured: traps, names
            // and NPC concepts 0% (concepts were 100% with one line an
            // archetype: 220 concepts now for 200 cards in 50 sessions);
            // encounters by text 0% in the forest (every situation row
            // used, 100% by row: the twists and endings keep them new) and
            // 0% in the mixed region (12.2% by row)).
            assert!(share(t.traps) <= 0.15, "{}", t.line(&name));
            assert!(share(t.npc_names) <= 0.15, "{}", t.line(&name));
            assert!(share(t.npc_concepts) <= 0.15, "{}", t.line(&name));
            let most = if label == "mixed" { 0.15 } else { 0.7 };
            assert!(share(t.encounters) <= most, "{}", t.line(&name));
            assert!(t.early <= 5, "{}", t.line(&name));
            // Traits drawn among the rows met least: none printed more
            // than twice an even share of the lines over the rows seen
            // (measured: top 5-6 against an even 4; 10-12 with only the
            // unmet rows first, when every row fitting had been met).
            for (label, all, distinct, most) in t.trait_counts() {
                let even = all.div_ceil(distinct);
                let tops: Vec<&(String, String)> = t
                    .traits
                    .iter()
                    .filter(|(k, n)| k.0 == label && **n + 2 >= most)
                    .map(|(k, _)| k)
                    .collect();
                assert!(
                    most <= 2 * even,
                    "{label}: top {most}, even {even} ({tops:?}): {}",
                    t.line(&name)
                );
            }
        }
    }
    for l in &lines {
        eprintln!("{l}");
    }
}
