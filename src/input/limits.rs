//! The bounds of a GM's files that the command line checks too: how
//! many times an item is rerolled, how many sessions a campaign holds.
//! They sit apart, with no imports, so that the usage errors that name
//! them (`crate::error::usage`) need not reach into the readers that
//! return those errors.

/// Most times one item may be rerolled.
pub(crate) const MAX_REROLLS: u32 = 10_000;

/// Most sessions a campaign holds.
pub(crate) const MAX_SESSIONS: usize = 1000;
