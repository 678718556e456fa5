//! Tests of a session in play.
