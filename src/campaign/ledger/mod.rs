//! The ledger: the records folded over the starting party, by the rules.
//!
//! [`fold`] is pure: the campaign's start ([`Start`]: system, party,
//! seed, start stop, map, purse, tables) and each session's facts
//! ([`SessionInput`]: its pack's [`PackFacts`] if it was prepped, its
//! record if it was played) in, the [`Ledger`] out — the state before
//! every session and, for each recorded session, every change with the
//! rule that made it. Every record is checked against the campaign as it
//! stood (who holds which voucher, which stops connect, which slips and
//! rows exist, who is in the party, the purse) before anything is
//! folded; each problem is a [`Diagnostic`] at its line and column.
//!
//! Rolls (soulblight, an injury or mutation rolled from the record, the
//! Heal Check in downtime) draw from the campaign seed's streams under
//! `record/<N>/<pc>/<field>/<i>`, so a record always rolls the same.
//!
//! Each push is three stages, each a list of small named steps, one rule
//! to a step (ARCHITECTURE.md, "The ledger's fold"):
//!
//! - `checks`: the record checked (`checks/`: session and items,
//!   `joining`, `pcs`, `core_pc`);
//! - `play`: the session applied, each PC's entry by `core` or
//!   `mettle`;
//! - between sessions: `full_rest` (Core: funerals and the full rest) or
//!   `mettle` (statuses, `heal`, Downtime Vouchers, Mettle refilled),
//!   then `provisions` (supplies bought in a settlement).
//!
//! Below the steps, shared by them: `fate` (death, leaving, funerals
//! due, vouchers retired), `rule`, `road`, `omens`, `vouchers`, `want`
//! (METTLE's Hungry, Thirsty and Starving carried between sessions).

use serde::Serialize;

mod checks;
mod core;
mod fate;
mod full_rest;
pub(crate) mod heal;
mod mettle;
mod omens;
mod play;
mod provisions;
pub(crate) mod road;
pub(crate) mod rule;
mod vouchers;
mod want;

use super::record::RecordFile;
use super::state::{CorePc, MettlePc, PcRules, PcState, Presence, State};
use crate::content::Library;
use crate::diagnostic::Diagnostic;
use crate::generators::injury::Injury;
use crate::generators::map::Map;
use crate::generators::mutation::Mutation;
use crate::rules::{Party, RulesSystem};
use crate::seed::{Seed, Stream};

/// Where a campaign starts.
#[derive(Debug, Clone)]
pub struct Start<'a> {
    pub system: RulesSystem,
    /// The campaign seed (`campaign.toml`'s `seed`).
    pub seed: Seed,
    /// The party as it started (the party file).
    pub party: Party,
    /// The stop the party starts at (a stop name of the map, or the GM's
    /// words); `None`: the map's start, else none.
    pub stop: Option<String>,
    /// The campaign's region, made once (`None`: no map; stops are free
    /// text and nothing checks that they connect).
    pub map: Option<Map>,
    /// The party's purse at the start, in shillings.
    pub money: i64,
    /// What a party stocks up to in a settlement (the campaign's `[map]`
    /// supplies a PC; `None`: no map, nothing bought by the ledger).
    pub stock: Option<Stock>,
    /// The tables in effect (injuries and mutations rolled from a record).
    pub library: &'a Library,
}

/// The campaign's `[map]` supplies a PC: what a party stocking up in a
/// settlement buys up to ([`provisions`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stock {
    /// Rations a PC.
    pub rations: u32,
    /// Units of water a PC (the skins hold the party file's
    /// `water_capacity`, else the journey's default, never less).
    pub water: u32,
}

/// One session of the campaign, as the folder holds it.
#[derive(Debug, Clone)]
pub struct SessionInput {
    /// N of `sessions/N/`.
    pub number: u32,
    /// The facts of its pack, if it was prepped.
    pub pack: Option<PackFacts>,
    /// Its record, if it was played and recorded.
    pub record: Option<RecordFile>,
}

/// What a session's pack holds that its record may name.
#[derive(Debug, Clone, Default)]
pub struct PackFacts {
    /// Every item's address as the GM reads it (`encounter/1`, `trap/2`,
    /// `npc/1`, `map/1`, `journey/1`, `voucher/1`, `injury/1`, …).
    pub items: Vec<String>,
    /// The vouchers the pack printed (new ones; vouchers carried from
    /// earlier sessions are in the state, not here).
    pub vouchers: Vec<IssuedVoucher>,
    /// The injury slips, by address (`injury/1`).
    pub injuries: Vec<Slip<Injury>>,
    /// The mutation slips, by address (`mutation/1`).
    pub mutations: Vec<Slip<Mutation>>,
    /// The NPCs, by address (`npc/1`), with their names.
    pub npcs: Vec<PackNpc>,
    /// The people of the encounters who could die (a record's `slain`):
    /// each encounter's named leader and the face it brings back, by the
    /// encounter's address (`encounter/2`, `journey/1/encounter/1`).
    pub people: Vec<PackNpc>,
    /// The stops of the planned journey in order, from the party's stop
    /// (empty: no journey).
    pub legs: Vec<String>,
    /// [`State::digest`] of the state the pack started from (`None`: not
    /// known, e.g. a pack made before campaigns); see [`stale_packs`].
    pub start_digest: Option<String>,
}

/// A voucher a pack printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IssuedVoucher {
    pub serial: String,
    pub holder: String,
}

/// A slip of a pack and its address.
#[derive(Debug, Clone)]
pub struct Slip<T> {
    /// `injury/1`.
    pub address: String,
    pub item: T,
}

/// An NPC of a pack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackNpc {
    /// `npc/1`.
    pub address: String,
    pub name: String,
}

/// One change the ledger made, and the rule that made it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    /// A PC's name, or `party`.
    pub who: String,
    /// What changed, with the figures (`health 4 → 8`).
    pub what: String,
    /// The rule, named by its document and section (`Core Rules: full
    /// rest — 32ʂ + 16ʂ × 1 condition`), or `record` for what the record
    /// says happened.
    pub rule: String,
}

/// The campaign's sessions folded.
#[derive(Debug, Clone, Serialize)]
pub struct Ledger {
    pub system: RulesSystem,
    /// The state before session 1: the party as it started (not in the
    /// JSON: `sessions[0]` says what changed from it).
    #[serde(skip)]
    pub start: State,
    /// Every session the folder holds, in order, with what changed.
    pub sessions: Vec<SessionLedger>,
    /// The campaign now: the state before the first session without a
    /// record.
    pub now: State,
}

/// One session in the ledger.
#[derive(Debug, Clone, Serialize)]
pub struct SessionLedger {
    pub number: u32,
    /// Whether its pack was prepped.
    pub prepped: bool,
    /// Whether it has a record (folded).
    pub recorded: bool,
    /// The day it started on and (recorded) ended on.
    pub day_start: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub day_end: Option<u32>,
    /// Where it started and (recorded) where the party stopped.
    pub stop_start: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_end: Option<String>,
    /// Items of the pack met (the record's `met`).
    pub met: Vec<String>,
    /// What changed during the session (the record) and between it and
    /// the next (rests, soulblight, funerals, Heal, vouchers), in order.
    pub changes: Vec<Change>,
    /// The state the session started from (`None` for a session after
    /// the first without a record).
    #[serde(skip)]
    pub before: Option<State>,
}

impl Ledger {
    /// The state session `n` starts from: for any session up to the first
    /// without a record (later ones have no state yet).
    pub fn state_before(&self, n: u32) -> Option<&State> {
        if n == self.now.session {
            return Some(&self.now);
        }
        self.sessions
            .iter()
            .find(|s| s.number == n)
            .and_then(|s| s.before.as_ref())
    }

    /// Session `n`'s entry.
    pub fn session(&self, n: u32) -> Option<&SessionLedger> {
        self.sessions.iter().find(|s| s.number == n)
    }
}

/// Fold every recorded session over the start, by the rules. Sessions
/// come in order of their numbers from 1; the fold stops at the first
/// without a record (a record after it is refused). Every problem of the
/// first faulty record is returned, pointed at; nothing after it is
/// folded. ([`Folding`] does the same one session at a time, for a
/// caller that needs the state before session N to make its pack.)
pub fn fold(start: &Start, sessions: &[SessionInput]) -> Result<Ledger, Vec<Diagnostic>> {
    let mut folding = Folding::new(start);
    for s in sessions {
        folding.push(s)?;
    }
    Ok(folding.finish())
}

/// A fold under way: push sessions in order, read the state the next one
/// starts from, finish into the [`Ledger`].
///
/// ```text
/// let mut f = Folding::new(&start);
/// for n in 1.. {
///     let before = f.state();          // session n's pack starts here
///     let pack = /* make pack n from `before` */;
///     f.push(&SessionInput { number: n, pack: Some(facts), record })?;
/// }
/// let ledger = f.finish();
/// ```
#[derive(Debug)]
pub struct Folding<'s, 'a> {
    start: &'s Start<'a>,
    first: State,
    state: State,
    entries: Vec<SessionLedger>,
    /// Whether every session so far had a record.
    open: bool,
}

impl<'s, 'a> Folding<'s, 'a> {
    /// The party as it started, nothing folded yet.
    pub fn new(start: &'s Start<'a>) -> Self {
        let first = initial(start);
        Folding {
            start,
            state: first.clone(),
            first,
            entries: Vec::new(),
            open: true,
        }
    }

    /// The state the next session starts from (`state().session` is its
    /// number): after every record pushed so far.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Fold one session: its record checked (every problem pointed at)
    /// and applied with the rules between it and the next. A session
    /// without a record closes the fold: later sessions are listed, and a
    /// later record is refused.
    pub fn push(&mut self, s: &SessionInput) -> Result<(), Vec<Diagnostic>> {
        let start = self.start;
        let state = &mut self.state;
        if !self.open || s.number != state.session {
            if let Some(record) = &s.record {
                return Err(vec![
                    record
                        .at_key(
                            "session",
                            format!(
                                "session {} has a record, but session {} has none",
                                s.number, state.session
                            ),
                        )
                        .with_hint(format!(
                            "record the sessions in order: `tablewright record {}` first",
                            state.session
                        )),
                ]);
            }
            self.open = false;
            self.entries.push(SessionLedger::unplayed(s, None));
            return Ok(());
        }
        let Some(record) = &s.record else {
            self.open = false;
            self.entries
                .push(SessionLedger::unplayed(s, Some(state.clone())));
            return Ok(());
        };
        let found = checks::check(start, state, s, record);
        if !found.is_empty() {
            return Err(found);
        }
        let pack = s.pack.as_ref().expect("checked: the session was prepped");
        let before = state.clone();
        let mut changes = Vec::new();
        play::session(start, state, s.number, pack, record, &mut changes);
        match start.system {
            RulesSystem::Core => full_rest::between(start, state, s.number, record, &mut changes),
            RulesSystem::Mettle => mettle::between(start, state, s.number, record, &mut changes),
        }
        provisions::restock(start, state, record, &mut changes);
        state.session = s.number + 1;
        self.entries.push(SessionLedger {
            number: s.number,
            prepped: true,
            recorded: true,
            day_start: before.day,
            day_end: Some(record.record.day),
            stop_start: before.stop.clone(),
            stop_end: state.stop.clone(),
            met: record.record.met.clone(),
            changes,
            before: Some(before),
        });
        Ok(())
    }

    /// The ledger of every session pushed.
    pub fn finish(self) -> Ledger {
        Ledger {
            system: self.start.system,
            start: self.first,
            sessions: self.entries,
            now: self.state,
        }
    }
}

/// The state before session 1: the party as its file has it.
fn initial(start: &Start) -> State {
    // Only the system's own PCs are the party.
    let rules: Vec<(String, PcRules)> = match start.system {
        RulesSystem::Core => (start.party.core.iter())
            .map(|sheet| {
                (
                    sheet.name.clone(),
                    PcRules::Core(CorePc::new(sheet.clone())),
                )
            })
            .collect(),
        RulesSystem::Mettle => (start.party.mettle.iter())
            .map(|block| {
                (
                    block.name.clone(),
                    PcRules::Mettle(MettlePc::new(block.clone())),
                )
            })
            .collect(),
    };
    let pcs = rules
        .into_iter()
        .map(|(name, rules)| PcState {
            name,
            presence: Presence::Present,
            gone_in: None,
            joined_in: 0,
            rules,
        })
        .collect();
    let stop = start.stop.clone().or_else(|| {
        start
            .map
            .as_ref()
            .and_then(|m| m.stops.get(m.start))
            .map(|s| s.name.clone())
    });
    let stop = match (&start.map, stop) {
        (Some(map), Some(s)) => Some(map.stop_named(&s).map_or(s, |found| found.name.clone())),
        (_, s) => s,
    };
    State {
        session: 1,
        day: 1,
        visited: stop.iter().cloned().collect(),
        travelled: Vec::new(),
        trail: Vec::new(),
        stop,
        pcs,
        vouchers: Vec::new(),
        npcs_met: Vec::new(),
        money: start.money,
        rations: None,
        water: None,
        helped: Vec::new(),
        slain: Vec::new(),
        funerals_due: Vec::new(),
        spent: Vec::new(),
        retired: Vec::new(),
        downtime_vouchers: 0,
    }
}

impl SessionLedger {
    /// A session not (yet) played.
    fn unplayed(s: &SessionInput, before: Option<State>) -> SessionLedger {
        SessionLedger {
            number: s.number,
            prepped: s.pack.is_some(),
            recorded: false,
            day_start: before.as_ref().map_or(0, |b| b.day),
            day_end: None,
            stop_start: before.as_ref().and_then(|b| b.stop.clone()),
            stop_end: None,
            met: Vec::new(),
            changes: Vec::new(),
            before,
        }
    }
}

/// A change by a rule.
pub(crate) fn change(who: &str, what: impl Into<String>, rule: impl Into<String>) -> Change {
    Change {
        who: who.to_owned(),
        what: what.into(),
        rule: rule.into(),
    }
}

/// The stream for one roll of a record: `record/<N>/<pc>/<field>/<i>`
/// under the campaign seed.
pub(crate) fn record_stream(seed: &Seed, session: u32, pc: &str, field: &str, i: usize) -> Stream {
    seed.stream(&record_path(session, pc, field, i))
}

/// `record/<N>/<pc>/<field>/<i>`.
pub(crate) fn record_path(session: u32, pc: &str, field: &str, i: usize) -> String {
    format!("record/{session}/{pc}/{field}/{i}")
}

/// Prepped sessions whose pack started from a state other than the one
/// the records give now (an earlier record was edited after they were
/// prepped): `crate::pack::stale` names what changed for each.
pub fn stale_packs(ledger: &Ledger, sessions: &[SessionInput]) -> Vec<u32> {
    sessions
        .iter()
        .filter_map(|s| {
            let digest = s.pack.as_ref()?.start_digest.as_ref()?;
            let now = ledger.state_before(s.number)?;
            (now.digest() != *digest).then_some(s.number)
        })
        .collect()
}

#[cfg(test)]
mod tests;
