//! A session's record (`sessions/N/record.toml`): what happened at the
//! table, written by `record N` pre-filled from the pack and edited by the
//! GM. Every key is optional but `session` and `day`; the guide's Campaigns chapter, section
//! "The session record" lists them with examples.
//!
//! The record is read with serde (every type mistake pointed at by line
//! and column) and kept with its text, so that each refusal of the ledger
//! ([`crate::campaign::ledger`]) points at the value it is about
//! ([`RecordFile::at`]).
//!
//! ```toml
//! session = 1                # the folder's number
//! day = 3                    # the day the session ended on
//! stop = "Gallows Ford"      # a stop of the campaign map, by name or number
//! settlement = true          # optional: else from the stop's kind
//! full_rest = true           # Core: take a full rest after it if you can
//! met = ["encounter/1", "trap/2"]
//! npcs_met = ["npc/1"]
//! vouchers_spent = ["KI-0042"]
//! money = -20                # shillings gained (+) or spent (−)
//! rations = 4                # the party's rations left
//! water = 3                  # the party's units of water left
//! helped = ["Gallows Ford"]  # stops whose trouble the party dealt with
//! slain = ["encounter/2", "npc/1"]  # people of the pack who died
//!
//! [[pc]]
//! name = "Viktor"
//! damage = 5                 # Core: health lost (in all); METTLE: Mettle lost
//! conditions = ["frightened"]       # Core: conditions gained
//! injuries = ["injury/1", "roll"]   # Core: a slip, a row's name, or rolled
//! mutations = ["roll"]              # Core: a slip or rolled
//! corruption = 1             # Core: corruption gained
//! omens = 1                  # Core: omens spent
//! lowered = { STR = 1 }      # Core: abilities lowered until a full rest
//! statuses = ["Afflicted"]   # METTLE: statuses gained
//! hungry = 2                 # METTLE: days without food at the end
//! thirsty = 0                # METTLE: days without water at the end
//! cured = ["frightened"]     # conditions or statuses that ended in play
//! heal_edge = 2              # METTLE: the Edge of a Heal made at the table
//! heal_twist = true          # METTLE: that Heal passed after a Twist
//! healer = "Cress"           # METTLE: who makes the Heal Check in downtime
//! fate = "dead"              # or "left"; with remains = true (Core)
//!
//! [[joined]]                 # a PC who joined: a stat block or sheet
//! name = "Oda"
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::diagnostic::Diagnostic;
use crate::error::Error;
use crate::input::{Step, locate};

/// The word for an item of a record that is rolled when the record is
/// read (`injuries = ["roll"]`).
pub const ROLL: &str = "roll";

/// A session's record, as written. Counts and lists not given are zero
/// and empty.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The session this records; must be the number of its folder
    /// (`sessions/2/record.toml` says `session = 2`).
    pub session: u32,
    /// The day the session ended on, counted from the campaign's day 1;
    /// never earlier than the day it started on. The days between carry.
    pub day: u32,
    /// Where the party stopped: a stop of the campaign map by name (any
    /// case) or by its number on the map; free text when the campaign has
    /// no map. Left out: where it was.
    #[serde(
        default,
        deserialize_with = "crate::input::name_or_number",
        skip_serializing_if = "Option::is_none"
    )]
    pub stop: Option<String>,
    /// Whether the party stopped in a settlement (only there a Core full
    /// rest can be taken). Left out: a village or town on the map is one;
    /// without a map, not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settlement: Option<bool>,
    /// Core Rules: whether the party takes a full rest after the session
    /// when it can (in a settlement, with the money). Left out: it does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full_rest: Option<bool>,
    /// Items of the pack met at the table, by address (`encounter/1`,
    /// `trap/2`); every other item was not met.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub met: Vec<String>,
    /// NPCs of the pack the party met, by address (`npc/1`): they are
    /// remembered by the campaign and can be brought back.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub npcs_met: Vec<String>,
    /// Downtime Vouchers spent, by serial: each must be in hand, once.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vouchers_spent: Vec<String>,
    /// Shillings the party gained (+) or spent (−) this session; the
    /// purse may never go below zero.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub money: i64,
    /// The party's rations left at the end (left out: as before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rations: Option<u32>,
    /// The party's units of water left at the end (left out: as before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub water: Option<u32>,
    /// Stops whose trouble the party dealt with this session, each a stop
    /// of the campaign map by name (any case) or number that the party has
    /// been at or passed: coming back, a journey tells what came of their
    /// help instead of how the trouble grew.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub helped: Vec<String>,
    /// People of the pack who died this session, each by address — an
    /// encounter's (`encounter/2`, on the way too), meaning its named
    /// leader, or an NPC's (`npc/1`, `npc/2 of session 1`) — or by the
    /// name the pack gives them (a returning face too): the campaign never
    /// brings them back, nor names them in a rumour.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub slain: Vec<String>,
    /// `[[pc]]`: what happened to one PC (a PC without an entry took
    /// nothing).
    #[serde(default, rename = "pc", skip_serializing_if = "Vec::is_empty")]
    pub pcs: Vec<PcRecord>,
    /// `[[joined]]`: PCs who joined the party during the session, each a
    /// full METTLE stat block or Core Rules sheet, as in party files.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub joined: Vec<toml::Table>,
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

/// `[[pc]]`: what one PC took, gained or lost in the session.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PcRecord {
    /// The PC's name as in the party (or a `[[joined]]` PC of an earlier
    /// record).
    pub name: String,
    /// Core Rules: health lost and not healed by the end, the session's
    /// total (over many blows, so not read as critical damage, which is
    /// damage taken at once); METTLE: Mettle lost (a PC whose Mettle ends
    /// at 0 or below stays there until healed). Never negative.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub damage: i64,
    /// Core Rules: conditions gained (they last until a full rest).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<String>,
    /// Core Rules: injuries taken, each a slip of the pack by address
    /// (`injury/1`), a row of the injury table by name (`Injured leg`,
    /// its sub-rolls drawn), or `roll` (rolled when the record is read).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub injuries: Vec<String>,
    /// Core Rules: mutations gained, each a slip of the pack by address
    /// (`mutation/1`) or `roll`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mutations: Vec<String>,
    /// Core Rules: corruption gained; the ledger rolls the soulblight
    /// check for it.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub corruption: i64,
    /// Core Rules: omens spent during the session (re-rolls, cheating
    /// death, sacred powers); never more than the PC has at its start. A
    /// full rest brings them back to the maximum.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub omens: i64,
    /// Core Rules: abilities lowered until a full rest (a day without
    /// food, water or sleep), by how much: `{ STR = 1 }`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub lowered: BTreeMap<String, i64>,
    /// METTLE: statuses gained (they carry or clear between sessions as
    /// the Status rules say).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub statuses: Vec<String>,
    /// METTLE: days without food at the end of the session (the journey
    /// log's last rest says them; `record N` pre-fills them): the next
    /// journey's hunger clock starts there. 0 ends Hungry (and Starving:
    /// restored by food); left out: as before (`statuses = ["Hungry"]`
    /// alone is at least a day).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hungry: Option<u32>,
    /// METTLE: days without water at the end of the session, as `hungry`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thirsty: Option<u32>,
    /// Conditions (Core) or statuses (METTLE) the PC had that ended
    /// during the session.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cured: Vec<String>,
    /// METTLE: the Edge of a Heal Check that succeeded at the table for a
    /// PC at 0 Mettle or below; left out, the Heal Check is rolled in
    /// downtime (a failure at the table is `fate = "dead"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heal_edge: Option<u32>,
    /// METTLE: the Heal Check made at the table passed after a Twist (the
    /// Edge dice rerolled; the group chose its price); only with
    /// `heal_edge`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub heal_twist: bool,
    /// METTLE: the PC who makes this PC's Heal Check in downtime; left
    /// out, the standing PC with the largest CULTURE (or the PC alone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub healer: Option<String>,
    /// The PC died or left the party during the session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fate: Option<Fate>,
    /// Core Rules: the remains of a PC who died were brought back (the
    /// funeral costs half).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub remains: bool,
}

/// How a PC left the party.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Fate {
    Dead,
    Left,
}

/// A record with the file it was read from, so that every refusal can
/// point at its line and column.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordFile {
    /// The file as messages name it.
    pub path: PathBuf,
    pub text: String,
    pub record: Record,
}

impl RecordFile {
    /// A record file, read and parsed (a type mistake is pointed at).
    pub fn read(path: &Path) -> Result<RecordFile, Error> {
        let text = crate::input::read_text(path, "session record")?;
        RecordFile::from_text(path, text)
    }

    /// A record from its text (`path` names it in messages).
    pub fn from_text(path: &Path, text: String) -> Result<RecordFile, Error> {
        let record = crate::input::from_toml(path, &text, "session record")?;
        Ok(RecordFile {
            path: path.to_owned(),
            text,
            record,
        })
    }

    /// A problem at the value at `steps` (`[Key("pc"), Index(0),
    /// Key("damage")]`), with its line and a caret; at the deepest part
    /// that exists when the key was left out.
    pub(crate) fn at(&self, steps: &[Step], message: impl Into<String>) -> Diagnostic {
        let file = self.path.display().to_string();
        match locate(&self.text, steps) {
            Some((line, col, width)) => {
                Diagnostic::at(file, line, col, message).with_source(&self.text, width)
            }
            None => Diagnostic::at(file, 1, 1, message),
        }
    }

    /// A problem at a key of the record's top level.
    pub(crate) fn at_key(&self, key: &str, message: impl Into<String>) -> Diagnostic {
        self.at(&[Step::Key(key)], message)
    }

    /// A problem at item `index` of a top-level list (`vouchers_spent`).
    pub(crate) fn at_item(
        &self,
        key: &str,
        index: usize,
        message: impl Into<String>,
    ) -> Diagnostic {
        self.at(&[Step::Key(key), Step::Index(index)], message)
    }

    /// A problem at a key of `[[pc]]` entry `pc` (its item `index` for a
    /// list).
    pub(crate) fn at_pc(
        &self,
        pc: usize,
        key: &str,
        index: Option<usize>,
        message: impl Into<String>,
    ) -> Diagnostic {
        let mut steps = vec![Step::Key("pc"), Step::Index(pc), Step::Key(key)];
        steps.extend(index.map(Step::Index));
        self.at(&steps, message)
    }
}
