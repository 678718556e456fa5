//! Encounters (in progress).
