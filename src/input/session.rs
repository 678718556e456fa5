//! The session file (`prep SESSION.toml`): its keys and defaults, read and
//! checked, every flaw pointed at by line and column; and the pack request
//! it stands for.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use super::{Step, flaw_steps, from_toml, read_text};
use crate::diagnostic::Diagnostic;
use crate::diagnostic::Report;
use crate::error::Error;
use crate::generators::journey::Route;
use crate::generators::pack::{MapPlan, Request};
use crate::generators::{Address, Rerolls};
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
    /// How many times each item has been rerolled (`prep --reroll`
    /// writes it): `"encounter/2" = 1`.
    #[serde(default)]
    pub rerolls: BTreeMap<String, u32>,
}

/// Most times one item may be rerolled.
pub const MAX_REROLLS: u32 = 10_000;

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
            rerolls: Rerolls(self.rerolls.clone()),
        }
    }

    /// How many items of `kind` the session asks for (`None`: no such
    /// kind, or one that holds nothing to reroll).
    pub fn count_of(&self, kind: &str) -> Option<usize> {
        let map = usize::from(self.map.is_some());
        Some(match kind {
            "encounter" => self.encounters,
            "trap" => self.traps,
            "npc" => self.npcs,
            "injury" => self.injuries,
            "mutation" => self.mutations,
            "voucher" => self.vouchers.len(),
            "map" => map,
            "journey" => usize::from(self.map.as_ref().is_some_and(|m| m.journey)),
            _ => return None,
        })
    }

    /// What is wrong with an address this session is asked about
    /// (`--only`, `--reroll`, `[rerolls]`), if anything; a voucher has
    /// nothing to reroll (its holder is the session's, its serial the
    /// pack's).
    pub fn address_flaw(&self, text: &str, reroll: bool) -> Option<String> {
        let Some(at) = Address::parse(text) else {
            return Some(format!(
                "`{text}` is not an item's address; an address is a kind and a number from 1, \
                 such as `encounter/2` or `npc/3`"
            ));
        };
        let Some(n) = self.count_of(at.kind()) else {
            return Some(format!(
                "`{text}`: a pack has no `{}` items; the kinds are {}",
                at.kind(),
                KINDS.join(", ")
            ));
        };
        if reroll && at.kind() == "voucher" {
            return Some(format!(
                "`{text}`: a voucher has nothing to reroll (its holder comes from the session, \
                 its serial from the pack)"
            ));
        }
        (at.index() >= n).then(|| match n {
            0 => format!("`{text}`: the session asks for no {} items", at.kind()),
            n => format!(
                "`{text}`: the session has {}/1 to {}/{n}",
                at.kind(),
                at.kind()
            ),
        })
    }
}

/// Every kind of item a pack holds, in its order.
pub const KINDS: [&str; 8] = [
    "encounter",
    "trap",
    "npc",
    "map",
    "journey",
    "voucher",
    "injury",
    "mutation",
];

/// The `[rerolls]` entries that name no item of the session, or count
/// past [`MAX_REROLLS`], pointed at.
fn reroll_flaws(session: &Session, path: &Path, text: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (address, times) in &session.rerolls {
        let steps = [Step::Key("rerolls"), Step::Key(address)];
        let flaw = session.address_flaw(address, true).or_else(|| {
            (*times > MAX_REROLLS).then(|| {
                format!("`{address}` = {times}: an item is rerolled at most {MAX_REROLLS} times")
            })
        });
        if let Some(message) = flaw {
            out.push(super::pointed(
                path,
                text,
                &steps,
                format!("[rerolls] {message}"),
            ));
        }
    }
    out
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
    let mut diagnostics: Vec<_> = session
        .request()
        .flaws()
        .into_iter()
        .map(|(table, f)| {
            let prefix: Vec<Step> = table.map(Step::Key).into_iter().collect();
            super::pointed(path, text, &flaw_steps(&prefix, &f), f.message)
        })
        .collect();
    diagnostics.extend(reroll_flaws(&session, path, text));
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
