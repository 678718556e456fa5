//! Terminal text: what a GM reads at the table. Pure functions from results
//! to strings; JSON output is serde's job. Lines the handouts print too
//! (stat lines, percentages, trap and hazard rules) come from `wording`.
//!
//! - [`rolls`]: rolled expressions and table results, with their dice.
//! - [`odds`]: exact odds of expressions, checks and tables.
//! - [`items`]: generated items (`gen`): stat blocks, slips, trap cards,
//!   encounter sheets, maps and journeys.
//! - [`clean`]: the terminal's escaping layer, which everything printed
//!   goes through (control characters shown, never sent).

pub mod clean;
pub mod items;
pub mod odds;
pub mod rolls;

pub use odds::{odds_text, table_odds_text};
pub use rolls::{rolled_text, table_roll_text};
