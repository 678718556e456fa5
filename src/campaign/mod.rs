//! A campaign: one folder whose packs start where the last session ended.
//! The party file is the start; what happened at each session is a
//! record; the campaign now is a pure fold of the records over the start,
//! by the seeds' rules, every change naming its rule (DESIGN.md §9).
//!
//! - [`folder`]: finding `campaign.toml` walking up from the working
//!   folder, reading it, and the texts of a campaign ([`folder::Files`]),
//!   from disk or a bundle.
//! - [`plan`]: a session's plan (what to prep) and the session it makes:
//!   its seed (`"<campaign seed>/session/<N>"`), the region's map (made once
//!   under `"<campaign seed>/map"`) and the journey from the party's stop.
//! - [`prefill`]: a session's record pre-filled from its pack (`record N`,
//!   and the pack's "After the session" sheet).
//! - [`recap`]: the run sheet's "Previously" (the last session in a
//!   screenful) and the Heal Checks the table may roll.
//! - [`record`]: a session's record (`sessions/N/record.toml`): its keys,
//!   read with the line and column of every value so that each refusal
//!   points at it.
//! - [`state`]: [`state::State`], where the campaign is at the start of a
//!   session: day, stop, each PC as they are now, vouchers in hand, NPCs
//!   met, stops visited, money and supplies.
//! - [`ledger`]: [`ledger::fold`], the records folded over the starting
//!   party by the rules (Core full rests, soulblight, funerals; METTLE
//!   Mettle, Heal in downtime, Downtime Vouchers, statuses), with every
//!   record checked against the campaign before anything is written.

pub(crate) mod folder;
pub mod ledger;
pub(crate) mod plan;
pub(crate) mod prefill;
pub mod recap;
pub mod record;
pub mod state;

pub use ledger::{Change, Folding, Ledger, PackFacts, SessionInput, Start, fold};
pub use record::{Record, RecordFile};
pub use state::{PcState, State};
