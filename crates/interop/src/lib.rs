//! tablewright's tables in other tools' formats, both ways (see [`interop`]):
//! Foundry VTT RollTables, Obsidian and GitHub Markdown, CSV, the
//! `tablewright.tables/1` JSON, Inspiration Pad Pro, TableSmith, Perchance.

#![warn(missing_docs)]

pub mod interop;

// The floors below, under the names their modules had in one crate.
use tablewright_content::content;
use tablewright_core::{diagnostic, dice, hash};
use tablewright_generators::wording;
