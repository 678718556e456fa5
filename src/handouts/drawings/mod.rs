//! Game drawings, made of the page engine's shapes (`page`): each is a
//! [`Drawing`](crate::page::Drawing) written as SVG for the pack's files
//! and placed on the PDF sheets.
//!
//! - [`chart`]: the point-crawl map (stops, paths, labels), for the GM or
//!   the players.
//! - [`zones`]: an encounter's zone diagram.

pub mod chart;
pub(crate) mod zones;
