//! The session file (`prep SESSION.toml`): its keys and defaults, read and
//! checked, every flaw pointed at by line and column; and the pack request
//! it stands for.

use std::path::Path;

use serde::Deserialize;

use super::{Step, flaw_steps, from_toml, read_text};
use crate::diagnostic::Report;
use crate::error::Error;
use crate::generators::journey::Route;
use crate::generators::pack::{MapPlan, Request};
use crate::rules::RulesSystem;

/// A session file (`session.toml`), as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Session {
    #[serde(default = "default_title")]
    pub title: String,
    /// Used when no `--seed` is given.
    pub seed: Option<String>,
    #[serde(default = "default_system")]
    pub system: RulesSystem,
    #[serde(default = "default_terrain")]
    pub terrain: String,
    /// A party file (relative to the session file) or a pool summary.
    pub party: String,
    #[serde(default)]
    pub encounters: usize,
    #[serde(default)]
    pub traps: usize,
    #[serde(default)]
    pub npcs: usize,
    #[serde(default)]
    pub injuries: usize,
    #[serde(default)]
    pub mutations: usize,
    /// One voucher per name.
    #[serde(default)]
    pub vouchers: Vec<String>,
    pub map: Option<MapRequest>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapRequest {
    #[serde(default = "default_stops")]
    pub stops: usize,
    #[serde(default)]
    pub terrains: Vec<String>,
    /// Send the party from the start to the goal, in the session's system.
    #[serde(default)]
    pub journey: bool,
    #[serde(default = "default_route")]
    pub route: Route,
    /// Rations and units of water each PC sets out with.
    #[serde(default = "default_supply")]
    pub rations: u32,
    #[serde(default = "default_supply")]
    pub water: u32,
    /// Kits the party carries: fishing, trapping, camping.
    #[serde(default)]
    pub kits: Vec<String>,
}

fn default_title() -> String {
    "Session pack".into()
}
fn default_system() -> RulesSystem {
    RulesSystem::Mettle
}
fn default_terrain() -> String {
    "road".into()
}
fn default_stops() -> usize {
    10
}
fn default_route() -> Route {
    Route::Safest
}
fn default_supply() -> u32 {
    3
}

impl Session {
    /// The pack this session asks for.
    pub fn request(&self) -> Request {
        Request {
            title: self.title.clone(),
            system: self.system,
            terrain: self.terrain.clone(),
            encounters: self.encounters,
            traps: self.traps,
            npcs: self.npcs,
            injuries: self.injuries,
            mutations: self.mutations,
            vouchers: self.vouchers.clone(),
            map: self.map.as_ref().map(|m| MapPlan {
                stops: m.stops,
                terrains: m.terrains.clone(),
                journey: m.journey,
                route: m.route,
                rations: m.rations,
                water: m.water,
                kits: m.kits.clone(),
            }),
        }
    }
}

/// A session file, read and checked. Returns the text too, for the party.
pub fn session(path: &Path) -> Result<(Session, String), Error> {
    let text = read_text(path, "session file")?;
    let session = session_from_text(path, &text)?;
    Ok((session, text))
}

/// A session file's text, checked ([`session`] without the reading).
pub fn session_from_text(path: &Path, text: &str) -> Result<Session, Error> {
    let session: Session = from_toml(path, text, "session file")?;
    let diagnostics: Vec<_> = session
        .request()
        .flaws()
        .into_iter()
        .map(|(table, f)| {
            let prefix: Vec<Step> = table.map(Step::Key).into_iter().collect();
            super::pointed(path, text, &flaw_steps(&prefix, &f), f.message)
        })
        .collect();
    if !diagnostics.is_empty() {
        return Err(Error::Input(Report {
            headline: Some("the session file asks for what a pack cannot give:".into()),
            diagnostics,
            closing: Some(
                "hint: fix the lines above (the README lists every session key) and run again"
                    .into(),
            ),
        }));
    }
    Ok(session)
}
