//! The rules core: numbers and small mechanics taken from the seed documents,
//! shared by the dice engine, the content validator and the generators.
//!
//! - [`mettle`]: METTLE Core — reading a pool (Score and Edge), the Difficulty
//!   and Edge ladders, Teamwork.
//! - [`core_d20`]: the d20 Core Rules — exploding damage, saves, contests.
//! - [`acs`]: ACS terrain cards — the 54-card deck, card strengths, which
//!   tiles fit, the card rule and who lays the first tile.
//! - [`party`]: the party (stat blocks or sheets) and [`RulesSystem`].
//! - [`status_cp`]: the status/control chapter — CP → dice value, control
//!   potential.

pub mod acs;
pub mod core_d20;
pub mod mettle;
pub mod party;
pub mod status_cp;

pub use party::{Party, RulesSystem};

/// One way a stat block or sheet breaks the rules, and the field it sits in
/// (a key, then an index into a list, so a file reader can point at it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flaw {
    pub key: &'static str,
    pub index: Option<usize>,
    pub message: String,
}

impl Flaw {
    pub fn at(key: &'static str, message: String) -> Flaw {
        Flaw {
            key,
            index: None,
            message,
        }
    }

    pub fn item(key: &'static str, index: usize, message: String) -> Flaw {
        Flaw {
            key,
            index: Some(index),
            message,
        }
    }
}

/// The messages alone.
pub fn messages(flaws: Vec<Flaw>) -> Vec<String> {
    flaws.into_iter().map(|f| f.message).collect()
}
