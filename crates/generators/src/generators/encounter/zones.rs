//! The battlefield's layout and who starts where, as the situation has it.
//! METTLE Quick Zones: the party on a flank drawn on the `deploy` stream,
//! melee foes in the middle and shooters on the other flank; in an ambush
//! (a situation tagged `ambush`, or whose text says foes wait, lie in wait,
//! circle or surround) the party in the middle and the foes on both flanks,
//! melee on one, shooters on the other. ACS range bands: a centre and two
//! to four arms of Short, Medium and Long bands (named without the ACS's
//! shot penalties, −2 at Medium and −4 at Long: a Core Rules attack has no
//! roll to take them; its ranges count zones); the party at Medium on the
//! first arm, shooters at Short on the second; in an ambush the party in
//! the centre, melee foes at Short on the first arm and shooters at Short
//! on the last.

use serde::Serialize;

use super::super::npc::{Npc, NpcRules};
use crate::rules::RulesSystem;
use crate::seed::{DieSource, Stream};
use crate::tables::TableRoll;

/// Where an encounter takes place: its zones (or range bands) and who
/// starts where.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Layout {
    /// `quick zones` or `range bands`.
    pub kind: String,
    /// The zones, in order.
    pub zones: Vec<Zone>,
}

/// One zone of a layout.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Zone {
    /// The zone's name.
    pub name: String,
    /// Who starts here.
    pub starts: Vec<String>,
}

impl Layout {
    pub(crate) fn zone_names(&self) -> Vec<String> {
        self.zones.iter().map(|z| z.name.clone()).collect()
    }
}

/// A foe who only shoots (METTLE: every weapon ranged; Core: a bow, sling
/// or crossbow).
fn ranged(n: &Npc) -> bool {
    match &n.rules {
        NpcRules::Mettle(m) => m.block.weapons.iter().all(|w| w.ranged),
        NpcRules::Core(c) => c.sheet.weapon.as_ref().is_some_and(|w| {
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

/// What in a situation's text says the foes lie in wait for the party
/// (matched in lowercase).
const AMBUSH_WORDS: [&str; 11] = [
    "ambush",
    "in wait",
    "wait in ",
    "wait on ",
    "wait at ",
    "wait above",
    "waiting for the last",
    "lies flat",
    "circle the camp",
    "surround",
    "strike first",
];

/// Whether the situation is an ambush: tagged `ambush`, or its text says
/// the foes lie in wait, circle or surround ([`AMBUSH_WORDS`]).
pub(super) fn ambush(situation: &TableRoll) -> bool {
    lies_in_wait(&situation.text, &situation.tags)
}

/// Whether a situation's text and tags make it an ambush ([`ambush`]).
pub(super) fn lies_in_wait<T: AsRef<str>>(text: &str, tags: &[T]) -> bool {
    let text = text.to_lowercase();
    tags.iter().any(|t| t.as_ref() == "ambush") || AMBUSH_WORDS.iter().any(|w| text.contains(w))
}

/// The layout for a system, the party's names and the foes, in an ambush
/// or not (ACS bands draw their number of arms from the first stream; the
/// party's flank is drawn from the second).
pub(super) fn layout(
    system: RulesSystem,
    (party, foes): (&[String], &[Npc]),
    ambush: bool,
    (s, deploy): (&mut Stream, &mut Stream),
) -> Layout {
    let (melee, shooters): (Vec<&Npc>, Vec<&Npc>) = foes.iter().partition(|f| !ranged(f));
    let (melee, shooters) = (names(&melee), names(&shooters));
    match system {
        RulesSystem::Mettle => quick_zones(party.to_vec(), (melee, shooters), ambush, deploy),
        RulesSystem::Core => range_bands(party.to_vec(), (melee, shooters), ambush, s),
    }
}

/// METTLE Quick Zones: the party on a drawn flank, or in the middle of an
/// ambush with the foes on both flanks.
fn quick_zones(
    party: Vec<String>,
    (melee, shooters): (Vec<String>, Vec<String>),
    ambush: bool,
    deploy: &mut Stream,
) -> Layout {
    let [left, middle, right] = if ambush && !(melee.is_empty() && shooters.is_empty()) {
        let (mut one, mut other) = (melee, shooters);
        if other.is_empty() {
            // Melee foes alone close in from both sides.
            other = one.split_off(one.len().div_ceil(2));
        }
        [one, party, other]
    } else if deploy.die(2) == 1 {
        [party, melee, shooters]
    } else {
        [shooters, melee, party]
    };
    Layout {
        kind: "quick zones".into(),
        zones: vec![
            zone("Left flank", left),
            zone("The middle", middle),
            zone("Right flank", right),
        ],
    }
}

/// ACS range bands: two to four arms drawn from `s`; the party at Medium
/// on the first arm, or in the centre of an ambush.
fn range_bands(
    party: Vec<String>,
    (melee, shooters): (Vec<String>, Vec<String>),
    ambush: bool,
    s: &mut Stream,
) -> Layout {
    let arms = 2 + s.die(3) - 1; // two to four arms
    let ambush = ambush && !(melee.is_empty() && shooters.is_empty());
    let (centre, mut party, mut melee) = match ambush {
        true => (party, Vec::new(), melee),
        false => (melee, party, Vec::new()),
    };
    let mut shooters = shooters;
    let mut zones = vec![zone("Close: the centre", centre)];
    for arm in 1..=arms {
        for band in ["Short", "Medium", "Long"] {
            let starts = match (arm, band) {
                (1, "Medium") => std::mem::take(&mut party),
                (1, "Short") => std::mem::take(&mut melee),
                (a, "Short") if a == if ambush { arms } else { 2 } => std::mem::take(&mut shooters),
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
