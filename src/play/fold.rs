//! The play log folded into its marks: each action in order, struck ones
//! left out, into [`Marks`] (the tracker's turns through
//! [`super::perform::tracker_after`]). A session in play keeps its marks
//! and adds each new line once ([`Marks::push`]); only an `undo` folds
//! the log again from the start (a mark struck may change what came
//! after it, such as a tracker started since), so a session of n actions
//! folds in O(n), not O(n²).

use std::collections::BTreeSet;

use super::action::Action;
use super::marks::{Healed, Marks, PcMarks};
use super::outcome::Kept;
use super::perform::tracker_after;
use super::{Entry, Fixed, Play};

#[cfg(test)]
thread_local! {
    /// How many times this thread folded a log from its start (tests).
    pub(crate) static FOLDS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

impl Marks {
    /// The marks of a session with no action yet.
    pub(crate) fn start(fixed: &Fixed) -> Marks {
        Marks {
            pcs: vec![PcMarks::default(); fixed.pcs.len()],
            ..Marks::default()
        }
    }

    /// The marks of `play`'s log, folded from its first line (what
    /// `play.marks` must always equal).
    pub(crate) fn of(play: &Play) -> Marks {
        Marks::without(play, None)
    }

    /// The marks after `e`, the action just appended to `play`'s entries:
    /// added once, or the log folded again after an `undo`.
    pub(crate) fn push(&mut self, play: &Play, e: &Entry) {
        if matches!(e.action, Action::Undo { .. }) {
            *self = Marks::of(play);
        } else {
            self.add(play, e);
        }
    }

    /// The marks of `play`'s log with action `skip` struck too.
    pub(crate) fn without(play: &Play, skip: Option<usize>) -> Marks {
        let struck: BTreeSet<usize> = play
            .entries
            .iter()
            .filter_map(|e| match e.action {
                Action::Undo { k, .. } => Some(k),
                _ => None,
            })
            .chain(skip)
            .collect();
        #[cfg(test)]
        FOLDS.with(|n| n.set(n.get() + 1));
        let mut m = Marks {
            struck,
            ..Marks::start(&play.fixed)
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
            Action::Met { address, pc: taker } => self.add_met(play, address, taker.as_deref()),
            Action::Omens { pc: name, spent } => {
                if let Some(i) = pc(name) {
                    self.pcs[i].omens += spent;
                }
            }
            Action::Corruption { pc: name, amount } => {
                if let Some(i) = pc(name) {
                    self.pcs[i].corruption += amount;
                }
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
            Action::Spend { serial } => self.spent.push(
                super::perform::voucher(&play.fixed, serial)
                    .map_or_else(|| serial.clone(), |(s, _)| s),
            ),
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
                    self.pcs[i].healed = healed(&e.kept);
                }
            }
            Action::Twist { k } => {
                self.twisted.insert(*k);
                // The Twist of a Heal Check is that Heal Check's outcome.
                if let Some(Action::Heal { pc: name, .. }) =
                    play.entries.get(k - 1).map(|h| &h.action)
                    && !self.struck.contains(k)
                    && let Some(i) = pc(name)
                {
                    self.pcs[i].healed = healed(&e.kept);
                }
            }
            Action::Push { .. } => self.pushed.push(e.k),
            Action::Tracker { op, name, now } => {
                self.add_tracker(play, e, op, name.as_deref(), *now)
            }
            Action::Roll { .. }
            | Action::Dice { .. }
            | Action::Check { .. }
            | Action::Undo { .. } => {}
        }
    }

    /// An item met; an injury or a mutation goes to the PC who took it.
    fn add_met(&mut self, play: &Play, address: &str, taker: Option<&str>) {
        let kind = play
            .fixed
            .items
            .iter()
            .find(|i| i.address == address)
            .map(|i| i.kind);
        let list = if kind == Some("npc") {
            &mut self.npcs_met
        } else {
            &mut self.met
        };
        list.push(address.to_owned());
        let pc = |name: &str| play.fixed.pcs.iter().position(|p| p.name == name);
        if let Some(i) = taker.and_then(pc) {
            let p = &mut self.pcs[i];
            match kind {
                Some("injury") => p.injuries.push(address.to_owned()),
                Some("mutation") => p.mutations.push(address.to_owned()),
                _ => {}
            }
        }
    }

    /// A tracker action: a PC's track in the encounter is the party's,
    /// so a PC set there is damage (or healing) marked once, for the
    /// record.
    fn add_tracker(
        &mut self,
        play: &Play,
        e: &Entry,
        op: &str,
        name: Option<&str>,
        now: Option<i64>,
    ) {
        let pc = |name: &str| play.fixed.pcs.iter().position(|p| p.name == name);
        if op == "set"
            && self.tracks_pc(name)
            && let (Some(i), Some(now)) = (name.and_then(pc), now)
        {
            // Never below none lost (a log written before this rule may
            // heal past it; a new action is refused).
            let lost = (self.now(play, i) - now).max(-self.pcs[i].damage);
            self.pcs[i].damage += lost;
        }
        self.tracker = tracker_after(play, self, e);
    }
}

/// A Heal Check's outcome kept, as the marks hold it.
fn healed(kept: &Kept) -> Option<Healed> {
    match *kept {
        Kept::Heal {
            passed,
            edge,
            twist,
            ..
        } => Some(Healed {
            passed,
            edge,
            twist,
        }),
        _ => None,
    }
}
