//! "Previously" as a pack carries it: the recap's parts (where and when
//! the session starts, each PC's change and state, losses, lasting
//! injuries and mutations, the purse, Heal Checks due), built by
//! `campaign::recap` from the ledger and printed by the handouts.

use serde::Serialize;

/// "Previously", as the run sheet and `pack.md` print it.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Recap {
    /// `Session 5 starts on day 12 at Saltmere.`
    pub start: String,
    /// The last session in one line: `Session 4: days 8–11, Ashford →
    /// Saltmere.` (empty before session 2).
    pub last: String,
    /// Each PC present: their net change over the last session, their
    /// state now, and the damage already taken (filled boxes).
    pub pcs: Vec<PcRecap>,
    /// Deaths and departures in the last session, and funerals due.
    pub losses: Vec<String>,
    /// New injuries and mutations of the last session, each with its
    /// effect: `Ada — Revulsion (mutation): …`.
    pub lasting: Vec<String>,
    /// Vouchers in hand: `KI-0042 (Ada, session 1)`.
    pub vouchers: Vec<String>,
    /// How many vouchers each PC holds, in the order of the first each
    /// holds: `Ada 2` (for a page short of room: the serials are on the
    /// After-the-session sheet).
    pub held: Vec<String>,
    /// The purse, and its change over the last session.
    pub purse: String,
    /// METTLE: the Heal Checks a group may make at the table.
    pub heal: Vec<HealDue>,
}

/// One PC in "Previously".
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PcRecap {
    /// The PC's name.
    pub name: String,
    /// The net change over the last session (`Mettle 7 → 3, +Afflicted`;
    /// `no change`; `joined`; empty in session 1).
    pub change: String,
    /// How they stand now (`Mettle 3 of 7; Afflicted`).
    pub now: String,
    /// Mettle or health below the maximum: boxes to fill on the track.
    pub taken: usize,
    /// Mettle (METTLE) or health (Core) now.
    pub level: i64,
}

/// A Heal Check the table may roll: who, by whom, the dice and the exact
/// odds, plain and with the Twist.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HealDue {
    /// The patient; `None`: any PC who falls (the party's first healer).
    pub patient: Option<String>,
    /// Who makes the Heal Check.
    pub healer: String,
    /// The line as printed.
    pub line: String,
}

impl Recap {
    /// The recap as lines after its start (each PC, losses, injuries and
    /// mutations, purse and vouchers, Heal Checks): what a template
    /// written before the recap reads as `campaign.previously`.
    pub fn lines(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .last
            .is_empty()
            .then(Vec::new)
            .unwrap_or_else(|| vec![self.last.clone()]);
        out.extend(
            self.pcs
                .iter()
                .filter(|p| !p.change.is_empty())
                .map(|p| format!("{}: {} — now {}", p.name, p.change, p.now)),
        );
        out.extend(self.losses.iter().chain(&self.lasting).cloned());
        if !self.last.is_empty() {
            out.push(self.purse.clone());
        }
        out.extend(self.heal.iter().map(|h| format!("Heal Check: {}", h.line)));
        out
    }
}
