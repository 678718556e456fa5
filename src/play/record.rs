//! The record a played session's log fills in (`record N`).
