//! The rules core: numbers and small mechanics taken from the seed documents,
//! shared by the dice engine, the content validator and the generators.
//!
//! - [`mettle`]: METTLE Core — reading a pool (Score and Edge), the Difficulty
//!   and Edge ladders, Teamwork.
//! - [`core_d20`]: the d20 Core Rules — exploding damage, saves, contests.
//! - [`status_cp`]: the status/control chapter — CP → dice value, control
//!   potential.

pub mod core_d20;
pub mod mettle;
pub mod status_cp;
