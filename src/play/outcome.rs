//! What came of an action, as types: the whole [`Outcome`] its answer
//! carries (serialised only there, and for the GM's last rolls), and the
//! small [`Kept`] part a session keeps of every action for as long as it
//! is in play — what the fold, a later Twist and the players' view read
//! back. Nothing is read back by a string key: renaming a field is a
//! compile error, not a silent zero.

use serde::Serialize;

use crate::dice::Rolled;
use crate::tables::TableRoll;

/// A Check's outcome (METTLE: a pool against a Difficulty; Core Rules: a
/// save), or its Twist's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Checked {
    pub odds: String,
    pub expr: String,
    pub success: bool,
    pub score: u32,
    pub edge: u32,
    /// Failed with Edge, no Twist taken: a Twist may be called.
    pub twist_offered: bool,
    pub text: String,
    pub rolled: Rolled,
}

/// A Heal Check's outcome, or its Twist's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Healing {
    pub healer: String,
    pub odds: String,
    pub passed: bool,
    pub edge: u32,
    /// The Twist was taken (the Edge dice rerolled).
    pub twist: bool,
    /// Failed with Edge, no Twist taken: a Twist may be called.
    pub twist_offered: bool,
    pub rolled: Rolled,
}

/// What an action's answer says came of it (`result`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub(crate) enum Outcome {
    Table {
        text: String,
        roll: Box<TableRoll>,
    },
    Dice {
        value: i64,
        text: String,
        rolled: Rolled,
    },
    Check(Box<Checked>),
    Heal(Box<Healing>),
    /// The Core Rules' initiative cards dealt (0–53).
    Cards {
        cards: Vec<u32>,
    },
    /// A mark, or a move of the tracker: nothing rolled.
    Nothing {},
}

/// What a session keeps of an action's outcome.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) enum Kept {
    #[default]
    Nothing,
    Check {
        odds: String,
        success: bool,
        edge: u32,
        twist_offered: bool,
    },
    Heal {
        odds: String,
        passed: bool,
        edge: u32,
        twist: bool,
        twist_offered: bool,
    },
    Cards(Vec<u32>),
}

impl Outcome {
    /// The part kept.
    pub(crate) fn kept(&self) -> Kept {
        match self {
            Outcome::Check(c) => Kept::Check {
                odds: c.odds.clone(),
                success: c.success,
                edge: c.edge,
                twist_offered: c.twist_offered,
            },
            Outcome::Heal(h) => Kept::Heal {
                odds: h.odds.clone(),
                passed: h.passed,
                edge: h.edge,
                twist: h.twist,
                twist_offered: h.twist_offered,
            },
            Outcome::Cards { cards } => Kept::Cards(cards.clone()),
            Outcome::Table { .. } | Outcome::Dice { .. } | Outcome::Nothing {} => Kept::Nothing,
        }
    }
}

impl Kept {
    /// Whether a Twist may still be called on it (a failed Check's or
    /// Heal Check's with Edge), and its odds.
    pub(crate) fn twist_offered(&self) -> Option<&str> {
        match self {
            Kept::Check {
                odds,
                twist_offered: true,
                ..
            }
            | Kept::Heal {
                odds,
                twist_offered: true,
                ..
            } => Some(odds),
            _ => None,
        }
    }
}
