//! Where a campaign is at the start of a session: the day, the party's
//! stop, each PC as they are now, the vouchers in hand, the NPCs met, the
//! stops visited, the paths travelled and the party's trail, the purse and
//! the supplies. A [`State`] is made only by
//! [`crate::campaign::ledger::fold`]; packs start from it and `campaign
//! --json` prints it (the guide's Campaigns chapter, "The campaign ledger", lists every key).

use serde::Serialize;

use crate::generators::map::{Map, Reveal, TrailStep};
use crate::rules::RulesSystem;
use crate::rules::core::Sheet;
use crate::rules::mettle::StatBlock;

/// The campaign at the start of session `session`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct State {
    /// The session this is the start of (1: the party as it started).
    pub session: u32,
    /// The day the session starts on (day 1 is the campaign's first).
    pub day: u32,
    /// The party's stop (a stop name of the campaign map, or the GM's
    /// own words without a map); `None` before the party has one.
    pub stop: Option<String>,
    /// Every PC who was ever in the party, in the order they came: those
    /// present first in party order, then the dead and those who left.
    pub pcs: Vec<PcState>,
    /// Vouchers in hand, in the order they were issued.
    pub vouchers: Vec<HeldVoucher>,
    /// NPCs of earlier packs the party met, in the order met.
    pub npcs_met: Vec<MetNpc>,
    /// Stops the party has been at, in the order first reached.
    pub visited: Vec<String>,
    /// Paths of the campaign map the party has travelled, in the order
    /// first travelled (each once, whichever way; empty without a map).
    pub travelled: Vec<Travelled>,
    /// The party's trail: one leg a recorded session, in order.
    pub trail: Vec<TrailLeg>,
    /// The party's purse in shillings (never below zero).
    pub money: i64,
    /// The party's rations and units of water left, as last recorded
    /// (`None`: never recorded; the plan's supplies apply).
    pub rations: Option<u32>,
    pub water: Option<u32>,
    /// Stops whose trouble the records say the party dealt with
    /// (`helped`), by the map's names, in the order first recorded: a
    /// journey coming back tells what came of it. Left out of the JSON
    /// (and so of [`State::digest`]) while empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub helped: Vec<String>,
    /// People of the packs the records say died (`slain`), by name, in the
    /// order recorded: never brought back, never named in a rumour. Left
    /// out of the JSON (and so of [`State::digest`]) while empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub slain: Vec<String>,
    /// Core Rules: funerals owed, due by the next full rest.
    pub funerals_due: Vec<Funeral>,
    /// Vouchers spent so far, by serial (a serial spent again is refused).
    pub spent: Vec<SpentVoucher>,
    /// Vouchers that went unspent with a PC who died or left (a serial
    /// spent afterwards is refused, saying so). Not in the JSON, so not
    /// in [`State::digest`]: the death or departure that retired them is
    /// (`pcs`, `vouchers`), and the ledger's changes list them.
    #[serde(skip)]
    pub retired: Vec<RetiredVoucher>,
    /// Downtime Vouchers issued by the ledger so far; the next one's
    /// serial number is this plus one.
    pub downtime_vouchers: u32,
}

/// One PC as they are now.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PcState {
    pub name: String,
    /// `present`, `dead` or `left`.
    pub presence: Presence,
    /// The session they died in or left (`None` while present).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gone_in: Option<u32>,
    /// The session they joined in (0: with the party from the start).
    pub joined_in: u32,
    /// The PC in the campaign's system: a Core Rules sheet or a METTLE
    /// stat block, never both nor neither. In the JSON it is the one key
    /// `core` or `mettle`, after `joined_in`.
    #[serde(flatten)]
    pub rules: PcRules,
}

/// A PC as their system has them: one system a PC, as the party file gives
/// each PC under `core` or `mettle`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PcRules {
    /// Core Rules: the sheet now, with what a full rest restores.
    Core(CorePc),
    /// METTLE: the stat block now, with current Mettle.
    Mettle(MettlePc),
}

/// Whether a PC is still with the party.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Presence {
    Present,
    Dead,
    Left,
}

/// A Core Rules PC now.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CorePc {
    /// The sheet as it is now: current STR/AGI/WIT (lowered ones
    /// lowered), health (always given), omens and maximum omens,
    /// corruption, every condition (temporary and permanent), traits and
    /// skills gained from mutations.
    pub sheet: Sheet,
    /// The abilities a full rest restores: the party file's, changed only
    /// for good (a mutation, a permanent injury).
    pub base: Abilities,
    /// The conditions of `sheet.conditions` that never clear (from a
    /// permanent injury); every other condition is temporary.
    pub permanent: Vec<String>,
    /// Injuries taken, in order (temporary ones go at a full rest).
    pub injuries: Vec<Taken>,
    /// Mutations gained, in order (always permanent).
    pub mutations: Vec<Taken>,
}

/// STR, AGI and WIT.
#[allow(non_snake_case)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Abilities {
    pub STR: i64,
    pub AGI: i64,
    pub WIT: i64,
}

/// An injury or mutation a PC took.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Taken {
    /// The table row (`Injured leg`, `Bestial arm`).
    pub name: String,
    /// Its text as applied (sub-rolls resolved).
    pub text: String,
    /// The session it was taken in.
    pub session: u32,
    /// Where it came from: a slip (`injury/1 of session 2`), a row named
    /// in the record, `rolled` from the record, or `soulblight`.
    pub from: String,
    /// Whether it lasts for good (mutations always; an injury of an omen
    /// spent to cheat death).
    pub permanent: bool,
}

/// A METTLE PC now.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MettlePc {
    /// The stat block, its statuses as they are now.
    pub block: StatBlock,
    /// Current Mettle: the maximum when it refilled; 0 or below while the
    /// PC waits to be healed.
    pub mettle: i64,
    /// Maximum Mettle: MOTIVE + the highest attribute but FRAME.
    pub max_mettle: i64,
    /// Passed a Heal Check with no Edge: alive at 0 or below, and not
    /// rolled for again until hurt again (new damage recorded). Left out
    /// of the JSON when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stable: bool,
    /// Days without food and without water as the last record left
    /// them (Scenes, Status: Hungry +1 Difficulty a day, Thirsty +2): the
    /// next journey's hunger clock starts from them. Left out of the JSON
    /// at 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub hungry: u32,
    #[serde(skip_serializing_if = "is_zero")]
    pub thirsty: u32,
    /// Lasting prices (a Heal Twist's `Disfigured`, `Lost a part`): they
    /// stay on the PC for good, in every later pack. Left out of the JSON
    /// when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lasting: Vec<Taken>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A voucher in hand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeldVoucher {
    pub serial: String,
    /// The PC who holds it.
    pub holder: String,
    /// The session whose pack printed it, or after which the downtime
    /// that gave it took place.
    pub issued_in: u32,
    /// Whether the ledger issued it for a downtime (else a pack did).
    pub downtime: bool,
}

/// A voucher spent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SpentVoucher {
    pub serial: String,
    /// The session it was spent in.
    pub session: u32,
}

/// A voucher that went with its holder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetiredVoucher {
    pub serial: String,
    /// The PC who held it, who died or left.
    pub holder: String,
}

/// An NPC the party met.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MetNpc {
    /// The NPC's address in the pack of `session` (`npc/2`).
    pub address: String,
    pub name: String,
    pub session: u32,
}

/// A path of the campaign map the party has travelled: its ends, by stop
/// name, the way it first went, and the session it first went that way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Travelled {
    pub from: String,
    pub to: String,
    pub session: u32,
}

/// One session of the party's trail: the days it ran and the stops the
/// party passed, in order, from where it started the session to where the
/// record says it stopped (one stop when it stayed put). The records say
/// the day a session ended, not the day each stop was reached.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TrailLeg {
    pub session: u32,
    pub day_start: u32,
    pub day_end: u32,
    pub stops: Vec<String>,
}

/// A funeral owed for a dead Core PC.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Funeral {
    /// The dead PC.
    pub pc: String,
    /// The session they died in.
    pub session: u32,
    /// Whether the remains were brought back (half the cost).
    pub remains: bool,
    /// Its cost in shillings: 512, or 256 with the remains.
    pub cost: i64,
}

impl State {
    /// The PCs with the party now.
    pub fn present(&self) -> impl Iterator<Item = &PcState> {
        self.pcs.iter().filter(|p| p.presence == Presence::Present)
    }

    /// A PC by name (any case), present or not.
    pub fn pc(&self, name: &str) -> Option<&PcState> {
        let lower = name.trim().to_lowercase();
        self.pcs.iter().find(|p| p.name.to_lowercase() == lower)
    }

    /// What the party knows of the campaign's map at this point, and its
    /// trail (stop names read as the map's stops; a name not on it is
    /// left out), setting out for `heading`.
    pub fn reveal(&self, map: &Map, heading: Option<usize>) -> Reveal {
        let id = |name: &String| map.stop_named(name).map(|s| s.id);
        let visited = self.visited.iter().filter_map(id).collect();
        let travelled = self
            .travelled
            .iter()
            .filter_map(|t| map.path_between(id(&t.from)?, id(&t.to)?))
            .collect();
        let trail = self
            .trail
            .iter()
            .map(|leg| TrailStep {
                session: leg.session,
                day_start: leg.day_start,
                day_end: leg.day_end,
                stops: leg.stops.iter().filter_map(id).collect(),
            })
            .collect();
        Reveal::new(map, visited, travelled, heading, trail)
    }

    /// A short fingerprint of the whole state (16 hex digits of FNV-1a
    /// over its JSON, [`crate::hash::fnv1a_64`]): a pack stores the
    /// fingerprint of the state it started from, so an earlier record
    /// edited afterwards shows
    /// ([`crate::campaign::ledger::stale_packs`]).
    pub fn digest(&self) -> String {
        // Through `&mut dyn Write`, as the crate writes all its JSON.
        let mut json = Vec::new();
        serde_json::to_writer(&mut json as &mut dyn std::io::Write, self)
            .expect("a state serialises");
        format!("{:016x}", crate::hash::fnv1a_64(&json))
    }
}

impl PcState {
    /// Whether the PC is with the party.
    pub fn is_present(&self) -> bool {
        self.presence == Presence::Present
    }

    /// The PC's Core Rules sheet, for a Core PC.
    pub fn core(&self) -> Option<&CorePc> {
        match &self.rules {
            PcRules::Core(c) => Some(c),
            PcRules::Mettle(_) => None,
        }
    }

    /// The PC's METTLE stat block and Mettle, for a METTLE PC.
    pub fn mettle(&self) -> Option<&MettlePc> {
        match &self.rules {
            PcRules::Mettle(m) => Some(m),
            PcRules::Core(_) => None,
        }
    }

    /// [`PcState::core`], to change.
    pub fn core_mut(&mut self) -> Option<&mut CorePc> {
        match &mut self.rules {
            PcRules::Core(c) => Some(c),
            PcRules::Mettle(_) => None,
        }
    }

    /// [`PcState::mettle`], to change.
    pub fn mettle_mut(&mut self) -> Option<&mut MettlePc> {
        match &mut self.rules {
            PcRules::Mettle(m) => Some(m),
            PcRules::Core(_) => None,
        }
    }
}

impl PcRules {
    /// The system the PC plays.
    pub fn system(&self) -> RulesSystem {
        match self {
            PcRules::Core(_) => RulesSystem::Core,
            PcRules::Mettle(_) => RulesSystem::Mettle,
        }
    }
}

impl CorePc {
    /// A PC as their sheet has them (health filled in: `None` is full).
    pub(crate) fn new(mut sheet: Sheet) -> CorePc {
        sheet.health = Some(sheet.current_health());
        CorePc {
            base: Abilities {
                STR: sheet.STR,
                AGI: sheet.AGI,
                WIT: sheet.WIT,
            },
            sheet,
            permanent: Vec::new(),
            injuries: Vec::new(),
            mutations: Vec::new(),
        }
    }

    /// Current health.
    pub fn health(&self) -> i64 {
        self.sheet.current_health()
    }

    /// The conditions a full rest clears (all but the permanent ones).
    pub fn temporary_conditions(&self) -> Vec<&str> {
        self.sheet
            .conditions
            .iter()
            .filter(|c| !self.permanent.contains(c))
            .map(String::as_str)
            .collect()
    }
}

impl Abilities {
    /// (name, value) in sheet order.
    pub fn each(&self) -> [(&'static str, i64); 3] {
        [("STR", self.STR), ("AGI", self.AGI), ("WIT", self.WIT)]
    }

    /// The abilities of a sheet.
    pub fn of(sheet: &Sheet) -> Abilities {
        Abilities {
            STR: sheet.STR,
            AGI: sheet.AGI,
            WIT: sheet.WIT,
        }
    }
}

impl MettlePc {
    /// A PC as their stat block has them: Mettle full.
    pub(crate) fn new(block: StatBlock) -> MettlePc {
        let max = i64::from(block.mettle());
        MettlePc {
            block,
            mettle: max,
            max_mettle: max,
            stable: false,
            hungry: 0,
            thirsty: 0,
            lasting: Vec::new(),
        }
    }
}
