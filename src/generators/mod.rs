//! Generators: pure functions of (tables, request, seed) → typed,
//! serializable results that the rules core accepts.
//!
//! Item `i` of a kind draws only from the streams under `gen/<kind>/<i>`,
//! so `--count 3` begins with the same two items as `--count 2`, and every
//! part of an item (its name, its stats, its foes) has a sub-stream of its
//! own.
//!
//! - [`npc`]: METTLE or Core Rules stat blocks from archetype tables.
//! - [`injury`], [`mutation`]: Core Rules harm, applied to a character sheet.
//! - [`forage`]: one watch of foraging.
//! - [`trap`]: a trap as a METTLE hazard vs POISE, with its exact odds.
//! - [`encounter`]: a situation, foes, zones, terrain cards and the odds
//!   that matter.

pub mod encounter;
pub mod forage;
pub mod injury;
pub mod journey;
pub mod map;
pub mod mutation;
pub mod npc;
pub mod pack;
pub mod sheet;
pub mod trap;

use std::fmt;

use crate::seed::{Seed, Stream};
use crate::tables::{RollError, Step, TableRoll};

/// Why a generator could not make what was asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GenError {
    /// A request that the tables cannot satisfy, with what to do instead.
    Request(String),
    /// A table roll failed.
    Table(RollError),
}

impl fmt::Display for GenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenError::Request(m) => f.write_str(m),
            GenError::Table(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for GenError {}

impl From<RollError> for GenError {
    fn from(e: RollError) -> Self {
        GenError::Table(e)
    }
}

/// The stream for part `part` of item `index` of `kind`.
pub fn stream(seed: &Seed, kind: &str, index: usize, part: &str) -> Stream {
    stream_at(seed, &format!("{kind}/{index}"), part)
}

/// The stream for part `part` of the item at `tag` (`encounter/3`, or
/// `journey/0/leg/2/encounter` for an item inside another).
pub fn stream_at(seed: &Seed, tag: &str, part: &str) -> Stream {
    seed.stream(&format!("gen/{tag}/{part}"))
}

/// Results of inline rolls in a table result's own trail, in order, whose
/// notation is `expr` (e.g. the `d4` of "STR drops by {d4}").
pub fn inline_rolls(roll: &TableRoll, expr: &str) -> Vec<i64> {
    roll.trail
        .iter()
        .filter_map(|s| match s {
            Step::Dice { expr: e, result } if e == expr => Some(*result),
            _ => None,
        })
        .collect()
}

/// Every result in a roll's tree (itself, sub-tables, roll-again results),
/// depth first.
pub fn all_results(roll: &TableRoll) -> Vec<&TableRoll> {
    let mut out = vec![roll];
    for r in roll.nested.iter().chain(&roll.rerolls) {
        out.extend(all_results(r));
    }
    out
}

/// Title-case an archetype name: `bandit-captain` → `Bandit captain`.
pub fn display_name(archetype: &str) -> String {
    let words = archetype.replace('-', " ");
    let mut chars = words.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
