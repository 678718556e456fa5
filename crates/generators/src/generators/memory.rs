//! A campaign's memory: what the packs of its earlier sessions used — the
//! situations of encounters (the pack's and those on the way), the traps
//! and the NPCs' names — and the words of the PCs' names, which no NPC
//! takes. A pack made with a memory draws an item again while it repeats
//! what the memory holds, as it does for what the pack itself already said
//! ([`super::Said`]): each draw is a whole new roll, so the rows left keep
//! the odds the table gives them, among themselves (its weights
//! renormalised over the unused rows). A table all of whose rows were used
//! is used up: its rows may repeat from then on, and [`Memory::used_up`]
//! names it once, in the session where that first shows.
//!
//! A situation is remembered with the layers laid over it, its twist and
//! its ending ([`layered_key`]): while its table has rows unused, a pack
//! avoids the rows used; once the table is used up, it avoids only the
//! same row with the same twist and ending, so a row comes back reading
//! new.
//!
//! The memory is folded from the earlier packs, each made again from its
//! own sources, so a campaign rebuilt from its bundle remembers the same.

use std::collections::BTreeSet;

use crate::content::Library;

/// What earlier packs used, and the PCs' name words.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Memory {
    /// Encounter situations used, as `<table>/<row>` and their layers
    /// ([`layered_key`]).
    pub situations: BTreeSet<String>,
    /// Trap names used.
    pub traps: BTreeSet<String>,
    /// NPC names used (cards, people on stage, named foes).
    pub names: BTreeSet<String>,
    /// The words of every PC's name, lowercase: no NPC name holds one.
    pub pc_words: Vec<String>,
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
    }

    /// Whether nothing is remembered (the PCs' words aside).
    pub fn is_empty(&self) -> bool {
        self.situations.is_empty() && self.traps.is_empty() && self.names.is_empty()
    }

    /// The situation tables (by id) whose every row is remembered: their
    /// rows may repeat.
    pub fn used_up(&self, library: &Library) -> Vec<String> {
        let rows: BTreeSet<&str> = self.situations.iter().map(|k| base(k)).collect();
        let mut tables: Vec<&str> = rows
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
                        .all(|r| rows.contains(situation_key(id, &r.entry.name).as_str()))
                })
            })
            .map(str::to_owned)
            .collect()
    }

    /// The situations still to avoid: the rows remembered of a table not
    /// used up (`<table>/<row>`), and of a used-up table the rows with
    /// the layers they had (a row remembered without layers is no longer
    /// avoided there).
    pub fn live_situations(&self, library: &Library) -> Vec<String> {
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

    /// The keys a pack's items avoid while their draws allow (see
    /// [`super::Said::remembered`]): situations of tables not used up,
    /// trap names and NPC names, as [`super::Distinct`] writes them.
    pub fn keys(&self, library: &Library) -> Vec<String> {
        let situations = self
            .live_situations(library)
            .into_iter()
            .map(|k| format!("situation: {k}"));
        let traps = self.traps.iter().map(|t| format!("trap: {t}"));
        let names = self.names.iter().map(|n| format!("name: {n}"));
        situations.chain(traps).chain(names).collect()
    }
}

/// How a situation is remembered: `<table>/<row>`.
pub fn situation_key(table: &str, row: &str) -> String {
    format!("{table}/{row}")
}

/// How a situation with its layers (its twist's and ending's rows) is
/// remembered: `<table>/<row>|<layer>|…` (`<table>/<row>` without any).
pub fn layered_key(table: &str, row: &str, layers: &[&str]) -> String {
    let mut key = situation_key(table, row);
    for l in layers {
        key.push('|');
        key.push_str(l);
    }
    key
}

/// The situation a remembered key names, without its layers.
fn base(key: &str) -> &str {
    key.split('|').next().unwrap_or(key)
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
