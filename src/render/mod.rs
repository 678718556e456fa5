//! Presentation (being split into page, handouts, terminal and wording).

pub mod foes;
pub mod handouts;
pub mod map;
pub mod markdown;
pub mod run;
pub mod zones;
