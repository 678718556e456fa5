//! The dice engine: one notation for every roll the seeds use.
//!
//! Modules:
//! - [`ast`]: the expression tree ([`Expr`]) and its canonical printing,
//!   with the rules every part of the engine shares (a term's sign, a
//!   Roll's halving or doubling, a pool's dice in hand, the CP table read
//!   for a `cp` expression).
//! - [`parse`](mod@parse): text → [`Expr`]; a [`ParseError`] points at the character
//!   and is shown as a [`Diagnostic`](crate::diagnostic::Diagnostic).
//! - [`roll`](mod@roll): rolls an expression on a seeded
//!   [`Stream`](crate::seed::Stream), keeping every die for display (and a
//!   fast total-only path that draws the same dice).
//! - [`odds`](mod@odds): its exact distribution, computed analytically.
//! - [`bounds`]: a Roll's exact smallest and largest results, from the
//!   expression (a distribution's far tails underflow or are cut).
//! - [`dist`]: exact distributions over integers and the operations on them
//!   (sums, floor, scaling, keep-highest/lowest, max/min of two).
//! - [`mods`]: the dice modifiers (keep/drop, rerolls, explosions,
//!   counting, `min`/`max`, sorting, labels) and the one reading of each
//!   that rolls, odds and bounds share.
//! - [`notes`]: the house rules and readings an expression uses, in words,
//!   for every output that shows it.
//! - [`limits`]: keeps absurd expressions from hanging the tool.
//! - `tests`: property and statistical tests of the whole engine.
//! - `readme_tests`: every notation in the README's table (and the peers'
//!   own examples) against an enumeration of every path of die faces.

pub mod ast;
pub mod bounds;
pub mod dist;
pub mod limits;
pub mod mods;
pub mod notes;
pub mod odds;
pub mod parse;
pub mod roll;

pub use ast::Expr;
pub use odds::{Odds, odds};
pub use parse::{ParseError, parse};
pub use roll::{Rolled, roll};

#[cfg(test)]
mod readme_tests;
#[cfg(test)]
mod tests;
