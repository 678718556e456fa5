//! The session pack: everything a session file asks for, generated from one
//! seed — encounters, traps, NPCs, a map with a journey, downtime vouchers,
//! injury and mutation slips — each from its own stream (`gen/pack/<part>/<i>`),
//! so asking for one more encounter never changes the others.

use serde::{Deserialize, Serialize};

use super::encounter::{self, Encounter, Party};
use super::injury::{self, Injury};
use super::journey::{self, Journey, Route};
use super::map::{self, Map};
use super::mutation::{self, Mutation};
use super::npc::{self, Npc, RulesSystem};
use super::trap::{self, Trap};
use super::{GenError, stream_at};
use crate::content::Library;
use crate::rules::Flaw;
use crate::seed::Seed;

/// A session file (`session.toml`), as written.
#[derive(Debug, Clone, Deserialize, Serialize)]
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

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MapRequest {
    #[serde(default = "default_stops")]
    pub stops: usize,
    #[serde(default)]
    pub terrains: Vec<String>,
    /// Send the party from the start to the goal (METTLE parties).
    #[serde(default)]
    pub journey: bool,
    #[serde(default = "default_route")]
    pub route: Route,
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

/// Most items of one kind in a pack.
pub const MAX_PART: usize = 50;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Voucher {
    pub holder: String,
    /// A serial drawn from the seed: no two vouchers of a pack share one,
    /// and a copied voucher shows up.
    pub serial: String,
    pub text: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pack {
    pub title: String,
    pub system: RulesSystem,
    pub terrain: String,
    pub encounters: Vec<Encounter>,
    pub traps: Vec<Trap>,
    pub npcs: Vec<Npc>,
    pub map: Option<Map>,
    pub journey: Option<Journey>,
    pub vouchers: Vec<Voucher>,
    pub injuries: Vec<Injury>,
    pub mutations: Vec<Mutation>,
}

const VOUCHER_TEXT: &str = "While the others were busy with a long task, this character was up to something useful. \
Hand this in during play to reveal one helpful thing they did back then — a purchase, a contact, \
a preparation, an upgrade — if the Guide agrees it fits. One use.";

impl Session {
    /// Everything in the session file that asks for more than a pack can
    /// hold or names what does not exist, with the field (and the table it
    /// sits in: `None` for the top level, `Some("map")`).
    pub fn flaws(&self) -> Vec<(Option<&'static str>, Flaw)> {
        let mut out = Vec::new();
        for (what, n) in [
            ("encounters", self.encounters),
            ("traps", self.traps),
            ("npcs", self.npcs),
            ("injuries", self.injuries),
            ("mutations", self.mutations),
            ("vouchers", self.vouchers.len()),
        ] {
            if n > MAX_PART {
                out.push((
                    None,
                    Flaw::at(
                        what,
                        format!("{what} = {n}: a pack holds at most {MAX_PART}"),
                    ),
                ));
            }
        }
        if !encounter::TERRAINS.contains(&self.terrain.as_str()) {
            out.push((
                None,
                Flaw::at(
                    "terrain",
                    format!(
                        "unknown terrain `{}`; choose from {}",
                        self.terrain,
                        encounter::TERRAINS.join(", ")
                    ),
                ),
            ));
        }
        if let Some(m) = &self.map {
            let (lo, hi) = map::STOPS;
            if !(lo..=hi).contains(&m.stops) {
                out.push((
                    Some("map"),
                    Flaw::at(
                        "stops",
                        format!("stops = {}: a map has {lo} to {hi} stops", m.stops),
                    ),
                ));
            }
            for (i, t) in m.terrains.iter().enumerate() {
                if !encounter::TERRAINS.contains(&t.as_str()) {
                    out.push((
                        Some("map"),
                        Flaw::item(
                            "terrains",
                            i,
                            format!(
                                "unknown terrain `{t}`; choose from {}",
                                encounter::TERRAINS.join(", ")
                            ),
                        ),
                    ));
                }
            }
        }
        out
    }
}

/// Generate a pack for a session and its party.
pub fn generate(
    library: &Library,
    session: &Session,
    party: &Party,
    seed: &Seed,
) -> Result<Pack, GenError> {
    if let Some((_, flaw)) = session.flaws().into_iter().next() {
        return Err(GenError::Request(flaw.message));
    }
    let system = session.system;
    let encounters = (0..session.encounters)
        .map(|i| {
            encounter::generate_at(
                library,
                &encounter::Request {
                    terrain: session.terrain.clone(),
                    system,
                    party: party.clone(),
                },
                seed,
                &format!("pack/encounter/{i}"),
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    let poise: Vec<u32> = match system {
        RulesSystem::Mettle => party.mettle.iter().map(|b| b.POISE).collect(),
        RulesSystem::Core => (1..=6).collect(),
    };
    let traps = (0..session.traps)
        .map(|i| {
            trap::generate_at(
                library,
                &trap::Request {
                    source: trap::Source::Any,
                    poise: poise.clone(),
                },
                seed,
                &format!("pack/trap/{i}"),
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    let npcs = (0..session.npcs)
        .map(|i| {
            npc::generate_in(
                library,
                &npc::Request {
                    system,
                    archetype: None,
                    tier: None,
                },
                seed,
                "pack/npc",
                i,
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    let (map, journey) = match &session.map {
        None => (None, None),
        Some(m) => {
            let req = map::Request {
                stops: m.stops,
                terrains: m.terrains.clone(),
            };
            let generated = map::generate(library, &req, seed, 0)?;
            let journey = if m.journey && system == RulesSystem::Mettle {
                Some(journey::generate(
                    library,
                    &journey::Request {
                        from: generated.start,
                        to: generated.goal,
                        map: generated.clone(),
                        party: party.clone(),
                        route: m.route,
                        rations: 3,
                        water: 3,
                        wit: 10,
                        kits: Vec::new(),
                        twist: true,
                    },
                    seed,
                    0,
                )?)
            } else {
                None
            };
            (Some(generated), journey)
        }
    };
    let mut vs = stream_at(seed, "pack/vouchers", "serials");
    let mut serials: Vec<String> = Vec::new();
    let prefix: String = seed
        .as_str()
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .take(2)
        .collect::<String>()
        .to_uppercase();
    let vouchers = session
        .vouchers
        .iter()
        .map(|holder| {
            let serial = loop {
                let s = format!(
                    "{}-{:04X}-{:04X}",
                    if prefix.is_empty() { "TW" } else { &prefix },
                    vs.below(0x10000),
                    vs.below(0x10000)
                );
                if !serials.contains(&s) {
                    serials.push(s.clone());
                    break s;
                }
            };
            Voucher {
                holder: holder.clone(),
                serial,
                text: VOUCHER_TEXT.into(),
            }
        })
        .collect();
    let injuries = (0..session.injuries)
        .map(|i| {
            injury::generate_at(
                library,
                &injury::Request::default(),
                seed,
                &format!("pack/injury/{i}"),
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mutations = (0..session.mutations)
        .map(|i| {
            mutation::generate_at(
                library,
                &mutation::Request::default(),
                seed,
                &format!("pack/mutation/{i}"),
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Pack {
        title: session.title.clone(),
        system,
        terrain: session.terrain.clone(),
        encounters,
        traps,
        npcs,
        map,
        journey,
        vouchers,
        injuries,
        mutations,
    })
}
