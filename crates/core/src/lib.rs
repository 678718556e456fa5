//! tablewright's bottom floor: what every other crate of the tool stands on,
//! with no file, no format and no game text in it.
//!
//! - [`seed`]: a shared seed text becomes independent random streams, one
//!   per generated item, so results reproduce byte for byte.
//! - [`dice`]: one notation for every roll in the rules — parse, roll on a
//!   stream, exact odds and bounds.
//! - [`rules`]: the numbers and mechanics of the rules core (METTLE, the
//!   Core Rules, ACS, the CP chapter, the party).
//! - [`hash`]: the stable hashes, one for each purpose (seed derivation
//!   and ids; a file's content; the fingerprints packs already carry).
//! - [`diagnostic`]: one shape for every problem in what a user wrote
//!   (file, line, column, message, hint), rendered one way.
//!
//! The modules keep the names they had when the tool was one crate, and
//! the crates above re-export them under those names, so a path reads the
//! same in every crate (ARCHITECTURE.md, "Crates").

#![warn(missing_docs)]

pub mod diagnostic;
pub mod dice;
pub mod hash;
pub mod rules;
pub mod seed;
