//! The battlefield's layout and who starts where: METTLE Quick Zones (the
//! party on the left flank, melee foes in the middle, shooters on the right
//! flank) or ACS range bands (a centre and two to four arms of Short,
//! Medium and Long bands; the party at Medium on the first arm, shooters at
//! Short on the second).

use serde::Serialize;

use super::super::npc::Npc;
use crate::rules::RulesSystem;
use crate::seed::{DieSource, Stream};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Layout {
    /// `quick zones` or `range bands`.
    pub kind: String,
    pub zones: Vec<Zone>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Zone {
    pub name: String,
    /// Who starts here.
    pub starts: Vec<String>,
}

impl Layout {
    pub fn zone_names(&self) -> Vec<String> {
        self.zones.iter().map(|z| z.name.clone()).collect()
    }
}

/// A foe who only shoots (METTLE: every weapon ranged; Core: a bow, sling
/// or crossbow).
fn ranged(n: &Npc) -> bool {
    match &n.mettle {
        Some(m) => m.block.weapons.iter().all(|w| w.ranged),
        None => n
            .core
            .as_ref()
            .and_then(|c| c.sheet.weapon.as_ref())
            .is_some_and(|w| {
                ["bow", "sling", "crossbow"]
                    .iter()
                    .any(|r| w.to_lowercase().contains(r))
            }),
    }
}

fn names(v: &[&Npc]) -> Vec<String> {
    v.iter().map(|n| n.name.clone()).collect()
}

fn zone(name: impl Into<String>, starts: Vec<String>) -> Zone {
    Zone {
        name: name.into(),
        starts,
    }
}

/// The layout for a system, the party's names and the foes (ACS bands draw
/// their number of arms from `s`).
pub(super) fn layout(
    system: RulesSystem,
    party: &[String],
    foes: &[Npc],
    s: &mut Stream,
) -> Layout {
    let (melee, shooters): (Vec<&Npc>, Vec<&Npc>) = foes.iter().partition(|f| !ranged(f));
    match system {
        RulesSystem::Mettle => Layout {
            kind: "quick zones".into(),
            zones: vec![
                zone("Left flank", party.to_vec()),
                zone("The middle", names(&melee)),
                zone("Right flank", names(&shooters)),
            ],
        },
        RulesSystem::Core => {
            let arms = 2 + s.die(3) - 1; // two to four arms
            let mut zones = vec![zone("Close: the centre", names(&melee))];
            for arm in 1..=arms {
                for band in ["Short", "Medium −2", "Long −4"] {
                    let starts = match (arm, band) {
                        (1, "Medium −2") => party.to_vec(),
                        (2, "Short") => names(&shooters),
                        _ => Vec::new(),
                    };
                    zones.push(zone(format!("Arm {arm}: {band}"), starts));
                }
            }
            Layout {
                kind: "range bands".into(),
                zones,
            }
        }
    }
}
