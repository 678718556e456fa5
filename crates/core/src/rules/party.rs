//! The party the GM brings to the table — METTLE stat blocks or Core Rules
//! sheets — and which rules a thing is made for. A party can be written out
//! in full (a party file, read by the top crate's `input`) or summarised as one
//! number per PC (`3,4,4,5`); either way it must be legal and match the
//! system.

use serde::{Deserialize, Serialize};

use super::core::{self, Sheet};
use super::mettle::{self, StatBlock, Weapon};

/// Which rules an NPC, encounter or pack is made for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RulesSystem {
    /// METTLE Core: d6 pools, stat blocks.
    Mettle,
    /// The d20 Core Rules: abilities, character sheets.
    Core,
}

impl RulesSystem {
    /// The system's name as a GM reads it.
    pub fn label(self) -> &'static str {
        match self {
            RulesSystem::Mettle => "METTLE",
            RulesSystem::Core => "Core Rules",
        }
    }
}

/// The party, in one system or the other.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Party {
    /// The PCs' stat blocks, when the party plays METTLE.
    #[serde(default)]
    pub mettle: Vec<StatBlock>,
    /// The PCs' sheets, when the party plays the Core Rules.
    #[serde(default)]
    pub core: Vec<Sheet>,
    /// Units of water each PC can carry on a journey (a source found fills
    /// to this); unset: the journey's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub water_capacity: Option<u32>,
}

/// How a pool summary is written, for hints.
pub fn summary_hint(system: RulesSystem) -> String {
    let example = match system {
        RulesSystem::Mettle => "3,4,4,5",
        RulesSystem::Core => "10,12,9,11",
    };
    format!("each number is one PC's value in every attribute, such as `{example}`")
}

impl Party {
    /// A party from a pool summary such as `3,4,4,5`: one PC per number,
    /// every attribute (or ability) at that value, light armour and a
    /// plain weapon.
    pub fn from_summary(text: &str, system: RulesSystem) -> Result<Party, String> {
        let values: Result<Vec<u32>, _> =
            text.split(',').map(|v| v.trim().parse::<u32>()).collect();
        let values = values
            .ok()
            .filter(|v| !v.is_empty() && v.len() <= 8)
            .ok_or_else(|| {
                format!("`{text}` is neither a file nor a list of 1 to 8 numbers such as `3,4,4,5`")
            })?;
        let (lo, hi, what) = match system {
            RulesSystem::Mettle => (1, mettle::MAX_POOL, "a METTLE attribute's dice"),
            RulesSystem::Core => (1, core::HUMAN_MAX as u32, "a new human's ability score"),
        };
        if let Some((i, v)) = values
            .iter()
            .enumerate()
            .find(|(_, v)| !(lo..=hi).contains(*v))
        {
            return Err(format!(
                "`{text}`: PC {} is {v}, outside {lo}-{hi} ({what})",
                i + 1
            ));
        }
        let mut party = Party {
            mettle: Vec::new(),
            core: Vec::new(),
            water_capacity: None,
        };
        for (i, v) in values.iter().enumerate() {
            let name = format!("PC {}", i + 1);
            match system {
                RulesSystem::Mettle => party.mettle.push(StatBlock {
                    name,
                    NATURE: *v,
                    CULTURE: *v,
                    POISE: *v,
                    MOTIVE: *v,
                    FRAME: *v,
                    callings: Vec::new(),
                    armor: 1,
                    weapons: vec![Weapon {
                        name: "sword".into(),
                        dm: 2,
                        ranged: false,
                    }],
                    speed: 1,
                    statuses: Vec::new(),
                }),
                RulesSystem::Core => party.core.push(Sheet {
                    name,
                    human: true,
                    STR: i64::from(*v),
                    AGI: i64::from(*v),
                    WIT: i64::from(*v),
                    health: None,
                    armour: 1,
                    damage: "d6".into(),
                    weapon: Some("sword".into()),
                    omens: 2,
                    max_omens: 2,
                    corruption: 0,
                    skills: Vec::new(),
                    traits: Vec::new(),
                    conditions: Vec::new(),
                }),
            }
        }
        party.check(system)?;
        for sheet in &party.core {
            let problems = core::check_generated_sheet(sheet);
            if !problems.is_empty() {
                return Err(format!(
                    "the party breaks the rules: {}: {}",
                    sheet.name,
                    problems.join("; ")
                ));
            }
        }
        Ok(party)
    }

    /// The party's stat blocks must be legal and match the system.
    pub fn check(&self, system: RulesSystem) -> Result<(), String> {
        let (count, problems): (usize, Vec<String>) = match system {
            RulesSystem::Mettle => (
                self.mettle.len(),
                self.mettle
                    .iter()
                    .flat_map(|b| {
                        mettle::check_block(b)
                            .into_iter()
                            .map(move |p| format!("{}: {p}", b.name))
                    })
                    .collect(),
            ),
            RulesSystem::Core => (
                self.core.len(),
                self.core
                    .iter()
                    .flat_map(|s| {
                        core::check_sheet(s)
                            .into_iter()
                            .map(move |p| format!("{}: {p}", s.name))
                    })
                    .collect(),
            ),
        };
        if count == 0 {
            let (other, flag) = match system {
                RulesSystem::Mettle => (self.core.len(), "--system core"),
                RulesSystem::Core => (self.mettle.len(), "--system mettle"),
            };
            // A party of the other system: the flag is what was forgotten.
            let hint = if other > 0 {
                format!("; it has {other} of the other system's — add {flag}")
            } else {
                String::new()
            };
            return Err(format!(
                "the party has no {} characters{hint}; give [[{}]] entries or a pool summary like 3,4,4",
                system.label(),
                match system {
                    RulesSystem::Mettle => "mettle",
                    RulesSystem::Core => "core",
                }
            ));
        }
        if !problems.is_empty() {
            return Err(format!(
                "the party breaks the rules: {}",
                problems.join("; ")
            ));
        }
        Ok(())
    }
}
