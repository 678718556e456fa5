//! tablewright's generators and the game text they share.
//!
//! - [`generators`]: one [`generators::Generator`] per kind of item, each a
//!   pure function of tables, request, seed and address.
//! - [`wording`]: game text formatted once for every output (percentages,
//!   stat lines, trap and hazard rules, the escaping of user text).
//! - [`terminal`]: what a GM reads on the terminal (rolls, odds, generated
//!   items), on the shared lines of `wording`.

#![warn(missing_docs)]

pub mod generators;
pub mod terminal;
pub mod wording;

// The floors below, under the names their modules had in one crate.
use tablewright_content::{content, tables};
use tablewright_core::{dice, rules, seed};
