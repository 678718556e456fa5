//! Game text formatted once for every output: the terminal (`terminal`)
//! and the handouts (`handouts`: Markdown and PDF) take their lines from
//! here, so a stat line or a trap's save reads the same everywhere.
//!
//! - [`lines`]: chances as percentages, METTLE stat lines, Core Rules
//!   sheet lines, a journey's lead.
//! - [`perils`]: traps and hazards, their rules and odds in their own
//!   system (METTLE hazard or Core Rules save).
//! - [`markup`]: names written as they are or escaped for Markdown.

pub mod lines;
pub mod markup;
pub mod perils;
