//! Where the session stands: the log's actions folded in order, struck
//! marks left out — items and NPCs met, each PC's damage and statuses,
//! vouchers spent, supplies, arrivals, Heal Checks made, handouts pushed,
//! and the encounter tracker.

use std::collections::BTreeSet;

use serde_json::Value;

use super::action::Action;
use super::{Entry, Play};

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
#[derive(Debug, Clone, Default)]
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
    /// The marks of `play`'s log.
    pub(crate) fn of(play: &Play) -> Marks {
        Marks::without(play, None)
    }

    /// The marks of `play`'s log with action `skip` struck too.
    pub(crate) fn without(play: &Play, skip: Option<usize>) -> Marks {
        let struck: BTreeSet<usize> = play
            .entries
            .iter()
            .filter_map(|e| match e.action {
                Action::Undo { k } => Some(k),
                _ => None,
            })
            .chain(skip)
            .collect();
        let mut m = Marks {
            pcs: vec![PcMarks::default(); play.fixed.pcs.len()],
            struck,
            ..Marks::default()
        };
        for e in &play.entries {
            if !m.struck.contains(&e.k) {
                m.add(play, e);
            }
        }
        m
    }

    fn add(&mut self, play: &Play, e: &Entry) {
        let pc = |name: &str| play.fixed.pcs.iter().position(|p| p.name == name);
        match &e.action {
            Action::Met { address } => {
                let npc = play
                    .fixed
                    .items
                    .iter()
                    .any(|i| i.address == *address && i.kind == "npc");
                let list = if npc {
                    &mut self.npcs_met
                } else {
                    &mut self.met
                };
                list.push(address.clone());
            }
            Action::Damage { pc: name, amount } => {
                if let Some(i) = pc(name) {
                    self.pcs[i].damage += amount;
                }
            }
            Action::Status {
                pc: name,
                status,
                on,
            } => {
                if let Some(i) = pc(name) {
                    let started = play.fixed.pcs[i].statuses.contains(status);
                    let p = &mut self.pcs[i];
                    match (on, started) {
                        (true, false) => p.gained.push(status.clone()),
                        (true, true) => p.cured.retain(|s| s != status),
                        (false, false) => p.gained.retain(|s| s != status),
                        (false, true) => p.cured.push(status.clone()),
                    }
                }
            }
            Action::Spend { serial } => self.spent.push(serial.clone()),
            Action::Supplies {
                money,
                rations,
                water,
            } => {
                self.money += money;
                self.rations += rations;
                self.water += water;
            }
            Action::Arrive { stop, day } => self.arrivals.push((stop.clone(), *day)),
            Action::Heal { pc: name, .. } => {
                if let Some(i) = pc(name) {
                    self.pcs[i].healed = Some(healed(&e.result));
                }
            }
            Action::Twist { k } => {
                self.twisted.insert(*k);
            }
            Action::Push { .. } => self.pushed.push(e.k),
            Action::Tracker { .. } => self.tracker = super::perform::tracker_after(play, self, e),
            Action::Roll { .. }
            | Action::Dice { .. }
            | Action::Check { .. }
            | Action::Undo { .. } => {}
        }
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

fn healed(result: &Value) -> Healed {
    Healed {
        passed: result["passed"].as_bool().unwrap_or(false),
        edge: result["edge"].as_u64().unwrap_or(0) as u32,
        twist: result["twist"].as_bool().unwrap_or(false),
    }
}
