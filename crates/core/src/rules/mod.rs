//! The rules core: numbers and small mechanics taken from the seed documents,
//! shared by the dice engine, the content validator and the generators.
//!
//! - [`mettle`]: METTLE Core — reading a pool (Score and Edge), the Difficulty
//!   and Edge ladders, Teamwork.
//! - [`core`]: the d20 Core Rules — exploding damage, saves, contests.
//! - [`acs`]: ACS terrain cards — the 54-card deck, card strengths, which
//!   tiles fit, the card rule and who lays the first tile.
//! - [`party`]: the party (stat blocks or sheets) and [`RulesSystem`].
//! - [`status_cp`]: the status/control chapter — CP → dice value, control
//!   potential.

pub mod acs;
pub mod core;
pub mod mettle;
pub mod party;
pub mod status_cp;

pub use party::{Party, RulesSystem};

/// One thing wrong, and where it sits, so a file reader can point at the
/// line: a [`Field`] of a stat block or sheet here, a place in a map in
/// `generators::map` (`Flaw<map::Place>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flaw<At = Field> {
    /// Where the problem sits.
    pub at: At,
    /// What is wrong, in words.
    pub message: String,
}

/// A field of a stat block or sheet: a key, then an index into a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    /// The key, as the file writes it.
    pub key: &'static str,
    /// The 0-based position in the key's list, when the key holds a list.
    pub index: Option<usize>,
}

impl<At> Flaw<At> {
    /// A problem at `at`.
    pub fn new(at: At, message: String) -> Flaw<At> {
        Flaw { at, message }
    }
}

impl Flaw<Field> {
    /// A problem with the key `key` as a whole.
    pub fn at(key: &'static str, message: String) -> Flaw {
        Flaw::new(Field { key, index: None }, message)
    }

    /// A problem with item `index` (0-based) of the list under `key`.
    pub fn item(key: &'static str, index: usize, message: String) -> Flaw {
        Flaw::new(
            Field {
                key,
                index: Some(index),
            },
            message,
        )
    }
}

impl<At> std::fmt::Display for Flaw<At> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// The messages alone.
pub fn messages<At>(flaws: Vec<Flaw<At>>) -> Vec<String> {
    flaws.into_iter().map(|f| f.message).collect()
}
