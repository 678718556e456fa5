//! Where the session stands: the log's actions folded in order, struck
//! marks left out — items and NPCs met, each PC's damage and statuses,
//! vouchers spent, supplies, arrivals, Heal Checks made, handouts pushed,
//! and the encounter tracker.

use std::collections::BTreeSet;

use super::Play;

/// A Heal Check made at the table.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Healed {
    pub passed: bool,
    pub edge: u32,
    /// The Twist was taken (the Edge dice rerolled).
    pub twist: bool,
}

/// One PC's marks.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct PcMarks {
    pub damage: i64,
    /// Statuses gained in play, in the order marked.
    pub gained: Vec<String>,
    /// Statuses they started with that ended in play.
    pub cured: Vec<String>,
    pub healed: Option<Healed>,
    /// Core Rules: injuries and mutations taken in play (the slips'
    /// addresses), omens spent and corruption gained.
    pub injuries: Vec<String>,
    pub mutations: Vec<String>,
    pub omens: i64,
    pub corruption: i64,
}

/// One side of the encounter tracker.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Combatant {
    pub name: String,
    pub side: &'static str,
    pub init: Option<i64>,
    pub card: Option<String>,
    pub label: &'static str,
    pub now: i64,
    pub max: i64,
}

/// The encounter tracker: round, whose turn, the combatants in turn
/// order.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Tracker {
    pub round: u32,
    pub turn: Option<usize>,
    pub combatants: Vec<Combatant>,
    /// Who acted this round.
    pub acted: Vec<usize>,
}

/// The marks of the log.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Marks {
    pub met: Vec<String>,
    pub npcs_met: Vec<String>,
    pub pcs: Vec<PcMarks>,
    pub spent: Vec<String>,
    pub money: i64,
    pub rations: i64,
    pub water: i64,
    /// Where the party stopped, and on which day, in order.
    pub arrivals: Vec<(String, u32)>,
    /// Handouts shown to the players: the actions' numbers.
    pub pushed: Vec<usize>,
    pub struck: BTreeSet<usize>,
    /// Checks already twisted.
    pub twisted: BTreeSet<usize>,
    pub tracker: Option<Tracker>,
}

impl Marks {
    /// Whether `name` is a PC in the running tracker.
    pub(crate) fn tracks_pc(&self, name: Option<&str>) -> bool {
        self.tracker.as_ref().is_some_and(|t| {
            t.combatants
                .iter()
                .any(|c| c.side == "pc" && Some(c.name.as_str()) == name)
        })
    }

    /// A PC's track now: the start less the damage marked.
    pub(crate) fn now(&self, play: &Play, i: usize) -> i64 {
        play.fixed.pcs[i].now - self.pcs[i].damage
    }

    /// The day now, and the party's stop.
    pub(crate) fn day_stop(&self, play: &Play) -> (u32, Option<String>) {
        match self.arrivals.last() {
            Some((stop, day)) => (*day, Some(stop.clone())),
            None => (play.fixed.day, play.fixed.stop.clone()),
        }
    }
}

/// The index of the PC named `name` (any case), or why not.
pub(crate) fn pc(play: &Play, name: &str) -> Result<usize, String> {
    play.fixed
        .pcs
        .iter()
        .position(|p| p.name == name)
        .ok_or_else(|| {
            let names: Vec<&str> = play.fixed.pcs.iter().map(|p| p.name.as_str()).collect();
            format!(
                "there is no PC `{name}` in this session; the PCs are: {}",
                names.join(", ")
            )
        })
}

/// A combatant from a PC.
pub(crate) fn pc_combatant(play: &Play, marks: &Marks, i: usize) -> Combatant {
    let p = &play.fixed.pcs[i];
    Combatant {
        name: p.name.clone(),
        side: "pc",
        init: None,
        card: None,
        label: p.label,
        now: marks.now(play, i),
        max: p.max,
    }
}
