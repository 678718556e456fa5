//! Layers laid over a situation so it reads new: a twist
//! (`gen.situation.twist`) and how it ends if the party does nothing
//! (`gen.situation.ending`), each drawn by weight, on a stream of its own
//! (`twist`, `ending`), among the rows whose tags the situation meets:
//! `outdoor` or `indoor` (the region's setting), `foes` (foes on stage)
//! and `people` (someone on stage who talks: an `npc:` person, or a
//! `human` or `townsfolk` foe); a row needs all its tags.
//!
//! With foes on stage, the spoils too ([`spoils`], on the `spoils`
//! stream): what foes who carry things have on them, from the system's
//! treasure table (`gen.treasure.core` in shillings, `gen.treasure.mettle`
//! in what METTLE tracks), or, among beasts and the like, an odd find in
//! the lair or the remains (`gen.treasure.trinket`). A freed captive who
//! follows the party (rows tagged `needs:captive`) only where the situation
//! or its twist holds a captive (tagged `captive`).

use super::super::GenError;
use super::super::npc::Npc;
use crate::content::region::{CAPTIVE, LAYER_TABLES, NEEDS_CAPTIVE};
use crate::content::{Library, Row};
use crate::rules::RulesSystem;
use crate::seed::Stream;
use crate::tables::TableRoll;

/// The twist table.
pub const TWIST: &str = LAYER_TABLES[0];
/// The ending table.
pub const ENDING: &str = LAYER_TABLES[1];

/// What a situation offers its layers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stage {
    /// The encounter is not under a roof (its region's setting is not
    /// `indoor`).
    pub outdoor: bool,
    /// There are foes on stage.
    pub foes: bool,
    /// There are non-hostile people on stage.
    pub people: bool,
}

impl Stage {
    /// The stage of an encounter in the open (or not) with these foes and
    /// others.
    pub fn of(outdoor: bool, foes: &[Npc], others: &[Npc]) -> Stage {
        let talks = |n: &Npc| n.kind == "human" || n.kind == "townsfolk";
        Stage {
            outdoor,
            foes: !foes.is_empty(),
            people: !others.is_empty() || foes.iter().any(talks),
        }
    }

    /// Whether a layer row with `tags` fits the stage (tags outside
    /// [`crate::content::region::LAYER_TAGS`], which `validate` refuses,
    /// ask nothing).
    pub fn fits<S: AsRef<str>>(&self, tags: &[S]) -> bool {
        tags.iter().all(|t| match t.as_ref() {
            "outdoor" => self.outdoor,
            "indoor" => !self.outdoor,
            "foes" => self.foes,
            "people" => self.people,
            _ => true,
        })
    }
}

/// One layer from table `id`: a row that fits `stage`, drawn by weight and
/// resolved on `s`; none when the table is missing or no row fits.
pub(super) fn layer(
    library: &Library,
    id: &str,
    stage: Stage,
    s: &mut Stream,
) -> Result<Option<TableRoll>, GenError> {
    let Some(table) = library.get(id) else {
        return Ok(None);
    };
    let fitting: Vec<(usize, &Row)> = table
        .rows
        .iter()
        .enumerate()
        .filter(|(_, r)| stage.fits(&r.entry.tags))
        .collect();
    let weights: Vec<u64> = fitting
        .iter()
        .map(|(_, r)| r.entry.weight.unwrap_or(1).max(1))
        .collect();
    let Some(pick) = s.pick_weighted(&weights) else {
        return Ok(None);
    };
    Ok(Some(library.resolve(id, fitting[pick].0, s)?))
}

/// Foe kinds that carry purses and gear (the rest leave a lair's odd find).
const CARRIERS: [&str; 3] = ["human", "townsfolk", "monster"];

/// The system's treasure table.
fn treasure_table(system: RulesSystem) -> &'static str {
    match system {
        RulesSystem::Core => "gen.treasure.core",
        RulesSystem::Mettle => "gen.treasure.mettle",
    }
}

/// Draws of the spoils before giving up on a row that fits (a table whose
/// only rows need a captive has been ruled out before).
const SPOILS_DRAWS: usize = 64;

/// What the foes leave: none without foes or the table; the system's
/// treasure when a foe carries things, else a trinket. A row tagged
/// [`NEEDS_CAPTIVE`] (a freed captive who follows the party) only when
/// `captive`: drawn otherwise, the table is rolled again on the same
/// stream, so the other rows keep their odds among themselves and every
/// spoils without one is drawn as before.
pub(super) fn spoils(
    library: &Library,
    system: RulesSystem,
    (foes, captive): (&[Npc], bool),
    s: &mut Stream,
) -> Result<Option<TableRoll>, GenError> {
    if foes.is_empty() {
        return Ok(None);
    }
    let id = if foes.iter().any(|f| CARRIERS.contains(&f.kind.as_str())) {
        treasure_table(system)
    } else {
        "gen.treasure.trinket"
    };
    let fits = |tags: &[String]| captive || !tags.iter().any(|t| t == NEEDS_CAPTIVE);
    let Some(table) = library.get(id) else {
        return Ok(None);
    };
    let owned = |r: &Row| {
        r.entry
            .tags
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
    };
    if !table.rows.iter().any(|r| fits(&owned(r))) {
        return Ok(None);
    }
    for _ in 0..SPOILS_DRAWS {
        let roll = library.roll_table(id, s)?;
        if fits(&roll.tags) {
            return Ok(Some(roll));
        }
    }
    Ok(None)
}

/// Whether a situation or its twist puts a captive on stage (tagged
/// [`CAPTIVE`]).
pub(super) fn holds_captive(situation: &TableRoll, twist: Option<&TableRoll>) -> bool {
    std::iter::once(situation)
        .chain(twist)
        .any(|r| r.tags.iter().any(|t| t == CAPTIVE))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_needs_all_its_tags() {
        let stage = Stage {
            outdoor: false,
            foes: true,
            people: false,
        };
        assert!(stage.fits::<&str>(&[]));
        assert!(stage.fits(&["foes"]));
        assert!(stage.fits(&["indoor", "foes"]));
        assert!(!stage.fits(&["outdoor"]));
        assert!(!stage.fits(&["foes", "people"]));
    }
}
