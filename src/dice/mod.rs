//! The dice engine: one notation for every roll the seeds use.
//!
//! - [`parse`] reads text into an [`Expr`] (errors point at the character).
//! - [`roll`] rolls it on a seeded [`Stream`](crate::seed::Stream), keeping
//!   every die for display.
//! - [`odds`] computes its exact distribution analytically.
//! - [`limits`] keeps absurd expressions from hanging the tool.

pub mod ast;
pub mod dist;
pub mod limits;
pub mod odds;
pub mod parse;
pub mod roll;

pub use ast::Expr;
pub use odds::{Odds, odds};
pub use parse::{ParseError, parse};
pub use roll::{Rolled, roll};

#[cfg(test)]
mod tests;
