//! `tablewright play`: one session at the table.
//!
//! - [`api`]: the seam between a session in play and its server.
//! - [`server`]: the GM's and the players' screens over HTTP.

pub(crate) mod api;
pub(crate) mod server;
