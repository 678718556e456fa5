//! tablewright's table files and their rolling.
//!
//! - [`content`]: the table format (schema, inline templates), the built-in
//!   tables embedded at build time, loading with overrides and extensions,
//!   validation that proves generation, regions.
//! - [`tables`]: rolling a table with its trail of dice; exact table odds.
//! - [`bounded`]: reading a file the user named, bounded (every reader of
//!   user files in the tool goes through it).

#![warn(missing_docs)]

pub mod bounded;
pub mod content;
pub mod tables;

// The floor below, under the names its modules had in one crate.
use tablewright_core::{diagnostic, dice, hash, rules, seed};
