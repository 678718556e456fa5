//! A campaign's memory: what the packs of its earlier sessions used — the
//! situations of encounters (the pack's and those on the way), the traps
//! (by trigger and effect), the NPCs' names and the concepts of the NPC
//! cards — and the words of the PCs' names, which no NPC takes. A pack
//! made with a memory draws an item again while it repeats what the memory
//! holds, as it does for what the pack itself already said
//! ([`super::Said`]): each draw is a whole new roll, so the rows left keep
//! the odds the table gives them, among themselves (its weights
//! renormalised over the unused rows). A table all of whose rows were used
//! is used up: its rows may repeat from then on, and [`Memory::used_up`]
//! names it once, in the session where that first shows. Whatever a pack
//! repeats of what the party met is named item by item
//! (`session::Pack::repeats`).
//!
//! A situation is remembered with the layers laid over it, its twist and
//! its ending ([`layered_key`]): while its table has rows unused, a pack
//! avoids the rows used; once the table is used up, it avoids only the
//! same row with the same twist and ending, so a row comes back reading
//! new.
//!
//! It remembers the rumour frames journeys told: a journey draws the
//! others first ([`super::journey::rumours`]); and the trait rows (want,
//! secret, manner, look) of the NPC cards and the foe leaders: a person
//! draws each trait among the rows not met first ([`super::traits`]).
//!
//! It remembers the map stops whose hooks a journey told, and what moved
//! on there since at each later visit: a stop the party comes back to says
//! what changed, not its hook again ([`super::journey`]'s `visits`), and
//! the stops whose trouble the records say the party dealt with, so what
//! changed follows from whether they helped.
//!
//! The memory is folded from the earlier packs, each made again from its
//! own sources, so a campaign rebuilt from its bundle remembers the same.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::concept;
use super::encounter::Encounter;
use super::encounter::returning::{Face, Was};
pub use super::encounter::{layered_key, situation_key};
use super::npc::{self, Npc};
use super::trap::Trap;
use crate::content::{Library, Row};
pub use npc::{name_words, shares_a_word};

/// Stops told of before, by name, with the `gen.place.since` rows told
/// at each after its hook.
pub type Visits = BTreeMap<String, Vec<String>>;

/// A stop whose hook a journey told (`since: None`), or what moved on
/// there since a campaign's earlier session told it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Told {
    /// The stop's name.
    pub stop: String,
    /// What moved on there since (a `gen.place.since` row), or `None` for the
    /// hook itself.
    pub since: Option<String>,
}

impl Told {
    /// A stop's hook told.
    pub fn hook(stop: &str) -> Told {
        Told {
            stop: stop.to_owned(),
            since: None,
        }
    }
}

/// What earlier packs used, and the PCs' name words.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Memory {
    /// Encounter situations used, as `<table>/<row>` and their layers
    /// ([`layered_key`]).
    pub situations: BTreeSet<String>,
    /// Traps used, each by its trigger and effect (`Pressure plate +
    /// Darts`) or a rules trap's name ([`super::trap::Trap::identity`]).
    pub traps: BTreeSet<String>,
    /// NPC names used (cards, people on stage, named foes).
    pub names: BTreeSet<String>,
    /// The concepts of NPC cards used, as `<table>/<row>`
    /// ([`super::concept`]).
    pub concepts: BTreeSet<String>,
    /// The words of every PC's name, lowercase: no NPC name holds one.
    pub pc_words: Vec<String>,
    /// The map stops whose hook a journey told, each with what moved on
    /// there since (`gen.place.since` rows) at later visits.
    pub visits: Visits,
    /// The stops whose trouble the campaign's records say the party dealt
    /// with (a record's `helped`), by name: set from the campaign's state,
    /// never folded from packs.
    pub helped: Vec<String>,
    /// The names of the NPCs the records say the party met, set from the
    /// campaign's state: rumours may name them.
    pub people_met: Vec<String>,
    /// The people the party met who may come back, by name: the named
    /// leaders of foe groups (people, not beasts or monsters) and the NPC
    /// cards ([`super::encounter::returning`]); the first meeting kept.
    pub people: BTreeMap<String, Face>,
    /// The people known to be dead, by name: never brought back.
    pub fallen: BTreeSet<String>,
    /// The people who came back already, by name: the others come first.
    pub returned: BTreeSet<String>,
    /// The rumour frames journeys told (`gen.place.rumour` rows, by name):
    /// the others come first.
    pub rumours: BTreeSet<String>,
    /// The trait rows of the people met, NPC cards and foe leaders
    /// (`<table>/<row>`), with how many times each was met: the rows met
    /// least come first.
    pub traits: BTreeMap<String, usize>,
}

impl Memory {
    /// A memory of nothing used, for a party whose PCs are `pcs`.
    pub fn for_pcs<'a>(pcs: impl IntoIterator<Item = &'a str>) -> Memory {
        Memory {
            pc_words: name_words(pcs),
            ..Memory::default()
        }
    }

    /// Add what another pack used.
    pub fn remember(&mut self, used: Memory) {
        self.situations.extend(used.situations);
        self.traps.extend(used.traps);
        self.names.extend(used.names);
        self.concepts.extend(used.concepts);
        for (name, face) in used.people {
            self.people.entry(name).or_insert(face);
        }
        self.fallen.extend(used.fallen);
        self.returned.extend(used.returned);
        self.rumours.extend(used.rumours);
        for (key, n) in used.traits {
            *self.traits.entry(key).or_default() += n;
        }
        for (stop, since) in used.visits {
            self.visits.entry(stop).or_default().extend(since);
        }
    }

    /// Remember what a journey told at its stops.
    pub fn told(&mut self, told: &[Told]) {
        for t in told {
            let since = self.visits.entry(t.stop.clone()).or_default();
            since.extend(t.since.clone());
        }
    }

    /// The set of remembered parts of a kind (`situation`, `trap`,
    /// `name`, `concept`).
    fn set_mut(&mut self, what: &str) -> Option<&mut BTreeSet<String>> {
        match what {
            "situation" => Some(&mut self.situations),
            "trap" => Some(&mut self.traps),
            "name" => Some(&mut self.names),
            "concept" => Some(&mut self.concepts),
            _ => None,
        }
    }

    /// Remember one part of an item.
    pub fn add(&mut self, what: &str, key: String) {
        if let Some(set) = self.set_mut(what) {
            set.insert(key);
        }
    }

    /// Whether a part of an item is remembered.
    pub fn holds(&self, what: &str, key: &str) -> bool {
        let set = match what {
            "situation" => &self.situations,
            "trap" => &self.traps,
            "name" => &self.names,
            "concept" => &self.concepts,
            _ => return false,
        };
        set.contains(key)
    }

    /// Whether nothing is remembered (the PCs' words aside).
    pub fn is_empty(&self) -> bool {
        self.situations.is_empty()
            && self.traps.is_empty()
            && self.names.is_empty()
            && self.concepts.is_empty()
            && self.visits.is_empty()
            && self.people.is_empty()
            && self.rumours.is_empty()
            && self.traits.is_empty()
    }

    /// Remember that a person met died (a record's `slain`): they never
    /// come back.
    pub fn bury(&mut self, name: &str) {
        self.fallen.insert(name.to_owned());
    }

    /// The people who may come back into a pack's encounters: those met
    /// and not known to be dead, leaving out `here` (the pack's own
    /// people, or those already brought back); those who have not come
    /// back before while there are any.
    pub fn faces(&self, here: &[String]) -> Vec<&Face> {
        let alive: Vec<&Face> = self
            .people
            .values()
            .filter(|f| !self.fallen.contains(&f.name) && !here.contains(&f.name))
            .collect();
        let fresh: Vec<&Face> = alive
            .iter()
            .copied()
            .filter(|f| !self.returned.contains(&f.name))
            .collect();
        if fresh.is_empty() { alive } else { fresh }
    }

    /// Remember the people an encounter puts on stage that may come back
    /// (its leader, when a person), and who came back in it.
    pub(crate) fn meet_in(&mut self, e: &Encounter) {
        if let Some(l) = e.person_leader() {
            self.meet(l, Was::Foe);
        }
        for n in e.foes.iter().chain(&e.others) {
            self.hear(&n.traits.keys);
        }
        if let Some(r) = &e.returning {
            self.returned.insert(r.name.clone());
        }
    }

    /// The trait rows met, each as many times as it was met: a draw
    /// takes among the rows that fit those met least.
    pub fn heard(&self) -> Vec<String> {
        self.traits
            .iter()
            .flat_map(|(k, n)| std::iter::repeat_n(k.clone(), *n))
            .collect()
    }

    /// Remember trait rows met (`<table>/<row>`).
    pub fn hear(&mut self, keys: &[String]) {
        for k in keys {
            *self.traits.entry(k.clone()).or_default() += 1;
        }
    }

    /// Remember a person met.
    pub fn meet(&mut self, n: &Npc, was: Was) {
        self.people.entry(n.name.clone()).or_insert_with(|| Face {
            name: n.name.clone(),
            archetype: n.archetype.clone(),
            was,
        });
    }

    /// The tables (by id) whose every row a pack may draw is remembered:
    /// situation tables, `gen.npc.concept` when every concept of every
    /// person archetype (the NPC cards') is ([`concept::used_up`]), and
    /// `gen.place.rumour` when every frame was told. Their rows may repeat.
    pub fn used_up(&self, library: &Library) -> Vec<String> {
        let rows: BTreeSet<String> = self.situations.iter().map(|k| base(k).to_owned()).collect();
        let mut out = used_up_of(&rows, library, |_| true);
        if concept::used_up(library, &self.concepts) {
            out.push(concept::TABLE.to_owned());
        }
        let rumours = super::journey::rumours::RUMOURS;
        let heard = |r: &Row| self.rumours.contains(&r.entry.name.to_string());
        if !self.rumours.is_empty()
            && library
                .get(rumours)
                .is_some_and(|t| t.rows.iter().filter(|r| library.drawable(r)).all(heard))
        {
            out.push(rumours.to_owned());
        }
        out
    }

    /// The situations still to avoid: the rows remembered of a table not
    /// used up (`<table>/<row>`), and of a used-up table the rows with
    /// the layers they had (a row remembered without layers is no longer
    /// avoided there).
    pub(crate) fn live_situations(&self, library: &Library) -> Vec<String> {
        let used_up = self.used_up(library);
        let spent = |k: &str| {
            k.split_once('/')
                .is_some_and(|(t, _)| used_up.iter().any(|u| u == t))
        };
        let live: BTreeSet<String> = self
            .situations
            .iter()
            .filter_map(|k| match spent(k) {
                false => Some(base(k).to_owned()),
                true => (base(k) != k).then(|| k.clone()),
            })
            .collect();
        live.into_iter().collect()
    }

    /// The concepts NPC cards used (`<table>/<row>`), while they are not
    /// used up: a card's draw leaves them out.
    pub(crate) fn met_concepts(&self, library: &Library) -> Vec<String> {
        if concept::used_up(library, &self.concepts) {
            return Vec::new();
        }
        self.concepts.iter().cloned().collect()
    }

    /// The keys a pack's items avoid while their draws allow (see
    /// [`super::Said::remembering`]): situations and NPC concepts of
    /// tables not used up, traps and NPC names, as
    /// [`super::Distinct::remembered`] writes them.
    pub fn keys(&self, library: &Library) -> Vec<String> {
        let situations = self
            .live_situations(library)
            .into_iter()
            .map(|k| format!("situation: {k}"));
        let concepts = self
            .met_concepts(library)
            .into_iter()
            .filter_map(|k| concept::text(library, &k))
            .map(|text| format!("concept: {text}"));
        let traps = self.traps.iter().map(|t| format!("trap: {t}"));
        let names = self.names.iter().map(|n| format!("name: {n}"));
        situations
            .chain(traps)
            .chain(names)
            .chain(concepts)
            .collect()
    }
}

/// The tables of `keys` (`<table>/<row>`) whose every drawable row that
/// `counts` is among them.
fn used_up_of(keys: &BTreeSet<String>, library: &Library, counts: fn(&Row) -> bool) -> Vec<String> {
    let mut tables: Vec<&str> = keys
        .iter()
        .filter_map(|k| k.split_once('/').map(|(t, _)| t))
        .collect();
    tables.dedup();
    tables
        .into_iter()
        .filter(|id| {
            library.get(id).is_some_and(|t| {
                t.rows
                    .iter()
                    .filter(|r| counts(r) && library.drawable(r))
                    .all(|r| keys.contains(&situation_key(id, &r.entry.name)))
            })
        })
        .map(str::to_owned)
        .collect()
}

/// The situation a remembered key names, without its layers.
fn base(key: &str) -> &str {
    key.split('|').next().unwrap_or(key)
}

/// One part of an item a campaign remembers: what it is (`situation`,
/// `trap`, `name`, `concept`) and how it is remembered.
pub type Part = (&'static str, String);

/// A part of an item that repeats what an earlier pack of the campaign
/// used: the tables had nothing unused left for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Repeat {
    /// The item (`encounter/2`, `journey/1/encounter/1`, `npc/3`).
    pub address: String,
    /// `situation` (`<table>/<row>`), `trap` (trigger + effect, or a
    /// rules trap's name), `concept` (an NPC card's concept,
    /// `<table>/<row>`) or `name`.
    pub what: &'static str,
    /// What repeats, as the memory holds it.
    pub text: String,
}

/// What a campaign remembers of an encounter: its situation, its people's
/// names and its trap.
pub(crate) fn encounter_parts(e: &Encounter) -> Vec<Part> {
    let mut out = vec![("situation", e.memory_key())];
    // People's names only: a beast or monster goes by its kind and a
    // number ("Wolf 1"), which every pack may use again.
    out.extend(
        e.foes
            .iter()
            .chain(&e.others)
            .filter(|n| n.is_person())
            .map(|n| ("name", n.name.clone())),
    );
    out.extend(e.trap.iter().flat_map(trap_parts));
    out
}

/// What a campaign remembers of a trap: its trigger and effect.
pub(crate) fn trap_parts(t: &Trap) -> Vec<Part> {
    vec![("trap", t.identity())]
}

/// What a campaign remembers of an NPC card: its concept (by key) and
/// its name.
pub(crate) fn card_parts(n: &Npc) -> Vec<Part> {
    vec![("concept", n.concept_key.clone()), ("name", n.name.clone())]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::test_library;

    #[test]
    fn a_name_shares_a_word_with_a_pc_by_given_or_family_name_in_any_case() {
        let shun = name_words(["Cress", "Ada Vell"]);
        assert_eq!(shun, vec!["cress", "ada", "vell"]);
        assert!(shares_a_word("Cress Salter", &shun));
        assert!(shares_a_word("Mira VELL", &shun));
        assert!(!shares_a_word("Cressida Salter", &shun));
        assert!(!shares_a_word("Cress Salter", &[]));
    }

    #[test]
    fn a_table_all_of_whose_rows_are_remembered_is_used_up_and_no_longer_avoided() {
        let library = test_library();
        let id = "gen.encounter.road";
        let rows: Vec<String> = library
            .table(id)
            .unwrap()
            .rows
            .iter()
            .map(|r| r.entry.name.to_string())
            .collect();
        let mut memory = Memory::default();
        for r in &rows[1..] {
            memory.situations.insert(situation_key(id, r));
        }
        assert!(memory.used_up(&library).is_empty());
        assert_eq!(memory.live_situations(&library).len(), rows.len() - 1);
        memory.situations.insert(situation_key(id, &rows[0]));
        assert_eq!(memory.used_up(&library), vec![id.to_owned()]);
        assert!(memory.live_situations(&library).is_empty());
        memory.traps.insert("Pit".into());
        assert_eq!(memory.keys(&library), vec!["trap: Pit".to_owned()]);
    }

    #[test]
    fn npc_concepts_are_avoided_by_their_line_until_every_persons_every_concept_is_remembered() {
        let library = test_library();
        let id = "gen.npc.core";
        let rows = &library.table(id).unwrap().rows;
        let people: Vec<&Row> = rows.iter().filter(|r| npc::is_person(r)).collect();
        let beast = rows.iter().find(|r| !npc::is_person(r)).unwrap();
        let mut memory = Memory::default();
        memory
            .concepts
            .insert(situation_key(id, &people[0].entry.name));
        assert_eq!(
            memory.keys(&library),
            vec![format!("concept: {}", people[0].entry.text)]
        );
        // Every archetype's own line remembered: its concept rows are left.
        for r in &people {
            memory.concepts.insert(situation_key(id, &r.entry.name));
        }
        assert!(memory.used_up(&library).is_empty());
        let pool = concept::pool(&library, id);
        assert!(pool.len() >= 5 * people.len(), "{}", pool.len());
        memory.concepts.extend(pool);
        // Beasts are never NPC cards: the people alone use the table up.
        assert!(
            !memory
                .concepts
                .contains(&situation_key(id, &beast.entry.name))
        );
        assert_eq!(memory.used_up(&library), vec![concept::TABLE.to_owned()]);
        assert!(memory.keys(&library).is_empty());
        assert!(memory.met_concepts(&library).is_empty());
    }

    #[test]
    fn a_layered_situation_is_avoided_by_its_row_until_the_table_is_used_up_then_by_its_layers() {
        let library = test_library();
        let id = "gen.encounter.road";
        let rows: Vec<String> = library
            .table(id)
            .unwrap()
            .rows
            .iter()
            .map(|r| r.entry.name.to_string())
            .collect();
        let mut memory = Memory::default();
        let first = layered_key(id, &rows[0], &["Bait", "They leave"]);
        memory.situations.insert(first.clone());
        assert_eq!(
            memory.live_situations(&library),
            vec![situation_key(id, &rows[0])]
        );
        for r in &rows[1..] {
            memory
                .situations
                .insert(layered_key(id, r, &["Bait", "Fled"]));
        }
        assert_eq!(memory.used_up(&library), vec![id.to_owned()]);
        let live = memory.live_situations(&library);
        assert_eq!(live.len(), rows.len());
        assert!(live.contains(&first), "{live:?}");
        assert!(!live.contains(&situation_key(id, &rows[0])));
    }
}
