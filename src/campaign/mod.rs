//! A campaign: one folder (`campaign.toml`, the party, content, templates,
//! each session's plan and record), in which every pack starts where the
//! last session ended.
//!
//! - [`folder`]: finding `campaign.toml` walking up from the working
//!   folder, reading it, and the texts of a campaign ([`folder::Files`]),
//!   from disk or a bundle.
//! - [`plan`]: a session's plan (what to prep) and the session it makes:
//!   its seed (`"<campaign seed>/session/<N>"`), the region's map (made once
//!   under `"<campaign seed>/map"`) and the journey from the party's stop.
//! - [`prefill`]: a session's record pre-filled from its pack (`record N`,
//!   and the pack's "After the session" sheet).

pub(crate) mod folder;
pub(crate) mod plan;
pub(crate) mod prefill;
