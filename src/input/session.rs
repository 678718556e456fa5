//! The session file (`prep SESSION.toml`) and a campaign's plan
//! (`sessions/N/plan.toml`, a session file that leaves the campaign's keys
//! to `campaign.toml` and adds `to`, `route` and `bring_back`): their one
//! set of keys and defaults ([`Session`]), the pack request it stands
//! for, and the checks that need the tables. Both are read by
//! [`super::session_text`], one reader with one set of messages.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::{Step, flaw_steps};
use crate::content::Library;
use crate::diagnostic::Report;
use crate::error::Error;
use crate::generators::encounter::Pin;
use crate::generators::journey::Route;
use crate::generators::session::{Entries, MapPlan, Request};
use crate::generators::trap::Source;
use crate::generators::weather::Season;
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
    /// The season of the session's day 1 (spring if none); in a campaign,
    /// `campaign.toml`'s.
    pub season: Option<Season>,
    /// A party file (relative to the session file) or a pool summary;
    /// required in a session file (a plan's is the campaign's).
    #[serde(default)]
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
    /// `[[encounter]]`: the first encounters, each with its own settings.
    #[serde(default, rename = "encounter")]
    pub encounter_entries: Vec<EncounterEntry>,
    /// `[[trap]]`: the first traps.
    #[serde(default, rename = "trap")]
    pub trap_entries: Vec<TrapEntry>,
    /// `[[npc]]`: the first NPCs.
    #[serde(default, rename = "npc")]
    pub npc_entries: Vec<NpcEntry>,
    /// `[[injury]]`: the first injury slips (Core Rules).
    #[serde(default, rename = "injury")]
    pub injury_entries: Vec<InjuryEntry>,
    /// Table folders (`"content"` or a list), read relative to the session
    /// file, before any `--content`.
    #[serde(default, deserialize_with = "one_or_many")]
    pub content: Vec<String>,
    /// A template folder, read relative to the session file
    /// (`--templates` wins).
    pub templates: Option<String>,
    /// A campaign plan's: where the party means to go this session (a
    /// stop of the campaign map by name or number, or `"goal"`).
    #[serde(default, deserialize_with = "super::name_or_number")]
    pub to: Option<String>,
    /// A campaign plan's: the journey's route (`"safest"`, `"shortest"`).
    pub route: Option<Route>,
    /// A campaign plan's: NPCs of earlier packs brought back, each
    /// `"npc/<K> of session <M>"`.
    #[serde(default)]
    pub bring_back: Vec<String>,
}

/// `[[encounter]]`: one encounter with its own terrain, situation (a row
/// of the terrain's encounter table, by name) or foe kinds.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncounterEntry {
    pub terrain: Option<String>,
    pub situation: Option<String>,
    #[serde(default)]
    pub foes: Vec<String>,
}

/// `[[trap]]`: one trap, from the rules' five, built from parts, or any.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrapEntry {
    pub from: Option<String>,
}

/// `[[npc]]`: one NPC of an archetype and tier.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NpcEntry {
    pub archetype: Option<String>,
    pub tier: Option<u8>,
}

/// `[[injury]]`: one injury slip; `permanent = true` for the injury of an
/// omen spent to cheat death (every effect for good); `name` pins a row
/// of the injury table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InjuryEntry {
    #[serde(default)]
    pub permanent: bool,
    pub name: Option<String>,
}

/// A kind's total: the count, or as many as its entries when no count is
/// given.
fn total(count: usize, entries: usize) -> usize {
    if count == 0 { entries } else { count }
}

/// `from = "rules"`: where a trap comes from.
pub(super) fn trap_source(from: &str) -> Option<Source> {
    match from {
        "rules" => Some(Source::Rules),
        "parts" => Some(Source::Parts),
        "any" => Some(Source::Any),
        _ => None,
    }
}

/// A string or a list of strings.
pub(crate) fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Either {
        One(String),
        Many(Vec<String>),
    }
    Ok(match Either::deserialize(d)? {
        Either::One(s) => vec![s],
        Either::Many(v) => v,
    })
}

pub(crate) use super::limits::MAX_REROLLS;

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
pub(crate) fn default_system() -> RulesSystem {
    RulesSystem::Mettle
}
fn default_terrain() -> String {
    "road".into()
}
pub(crate) fn default_stops() -> usize {
    10
}
fn default_route() -> Route {
    Route::Safest
}
pub(crate) fn default_supply() -> u32 {
    3
}

impl Session {
    /// The session's table folders and template folder, as paths relative
    /// to the folder of the session file at `path`.
    pub fn folders(&self, path: &Path) -> (Vec<PathBuf>, Option<PathBuf>) {
        let base = path.parent().unwrap_or(Path::new(""));
        (
            self.content.iter().map(|c| base.join(c)).collect(),
            self.templates.as_ref().map(|t| base.join(t)),
        )
    }

    /// The pack this session asks for.
    pub fn request(&self) -> Request {
        Request {
            title: self.title.clone(),
            system: self.system,
            terrain: self.terrain.trim().to_lowercase(),
            encounters: total(self.encounters, self.encounter_entries.len()),
            traps: total(self.traps, self.trap_entries.len()),
            npcs: total(self.npcs, self.npc_entries.len()),
            injuries: total(self.injuries, self.injury_entries.len()),
            mutations: self.mutations,
            vouchers: self.vouchers.clone(),
            map: self.map.as_ref().map(|m| MapPlan {
                stops: m.stops,
                terrains: m.terrains.iter().map(|t| t.trim().to_lowercase()).collect(),
                journey: m.journey,
                route: m.route,
                rations: m.rations,
                water: m.water,
                kits: m.kits.clone(),
                fixed: None,
            }),
            first_season: self.season.unwrap_or_default(),
            rerolls: Rerolls(self.rerolls.clone()),
            entries: self.entries(),
        }
    }

    /// The `[[encounter]]`, `[[trap]]`, `[[npc]]` and `[[injury]]` entries
    /// as a pack request takes them.
    fn entries(&self) -> Entries {
        Entries {
            encounters: self
                .encounter_entries
                .iter()
                .map(|e| {
                    let pin = Pin {
                        situation: e.situation.clone(),
                        foes: e.foes.clone(),
                        ambush: false,
                    };
                    (e.terrain.as_ref().map(|t| t.trim().to_lowercase()), pin)
                })
                .collect(),
            traps: self
                .trap_entries
                .iter()
                .map(|t| t.from.as_deref().and_then(trap_source))
                .collect(),
            npcs: self
                .npc_entries
                .iter()
                .map(|n| (n.archetype.clone(), n.tier))
                .collect(),
            injuries: self
                .injury_entries
                .iter()
                .map(|i| (i.permanent, i.name.clone()))
                .collect(),
        }
    }

    /// How many items of `kind` the session asks for (`None`: no such
    /// kind).
    pub fn count_of(&self, kind: &str) -> Option<usize> {
        let map = usize::from(self.map.is_some());
        Some(match kind {
            "encounter" => total(self.encounters, self.encounter_entries.len()),
            "trap" => total(self.traps, self.trap_entries.len()),
            "npc" => total(self.npcs, self.npc_entries.len()),
            "injury" => total(self.injuries, self.injury_entries.len()),
            "mutation" => self.mutations,
            "voucher" => self.vouchers.len(),
            "map" => map,
            "journey" => usize::from(self.map.as_ref().is_some_and(|m| m.journey)),
            _ => return None,
        })
    }

    /// What is wrong with an address this session is asked about
    /// (`--only`, `--reroll`, `[rerolls]`), if anything (a rerolled
    /// voucher keeps its holder and gets a new serial).
    pub fn address_flaw(&self, text: &str) -> Option<String> {
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
pub(crate) const KINDS: [&str; 8] = [
    "encounter",
    "trap",
    "npc",
    "map",
    "journey",
    "voucher",
    "injury",
    "mutation",
];

/// What the entries name that the tables do not hold — a situation not in
/// the terrain's table, a foe or NPC archetype not in the system's, one
/// situation pinned twice — each pointed at, with the closest name.
pub(crate) fn table_flaws(
    session: &Session,
    path: &Path,
    text: &str,
    library: &Library,
) -> Result<(), Error> {
    let mut out = Vec::new();
    let names = |id: &str| -> Vec<String> {
        library
            .get(id)
            .map(|t| t.rows.iter().map(|r| r.entry.name.to_string()).collect())
            .unwrap_or_default()
    };
    let mut unknown = |steps: &[Step], what: String, word: &str, known: &[String]| {
        let close = crate::content::validate::closest(word, known.iter().map(String::as_str));
        let d = super::pointed(path, text, steps, what);
        out.push(match close {
            Some(c) => d.with_suggestion(Some(c.to_owned())),
            None => d.with_hint(format!("the names are: {}", known.join(", "))),
        });
    };
    let archetypes = names(crate::generators::npc::table_for(session.system));
    let mut pinned = std::collections::BTreeSet::new();
    for (i, e) in session.encounter_entries.iter().enumerate() {
        let terrain = e.terrain.as_deref().unwrap_or(&session.terrain);
        let id = library
            .region(terrain)
            .map_or_else(|_| format!("gen.encounter.{terrain}"), |r| r.table.clone());
        let rows = names(&id);
        if let Some(s) = &e.situation {
            let steps = [
                Step::Key("encounter"),
                Step::Index(i),
                Step::Key("situation"),
            ];
            if !rows.contains(s) {
                let what = format!(
                    "[[encounter]] {}: no situation `{s}` in the {terrain} encounters",
                    i + 1
                );
                unknown(&steps, what, s, &rows);
            } else if !pinned.insert((terrain.to_owned(), s.clone())) {
                let what = format!(
                    "[[encounter]] {}: `{s}` is pinned twice, but nothing is said twice in a pack",
                    i + 1
                );
                unknown(&steps, what, s, &[]);
            }
        }
        for (k, f) in e.foes.iter().enumerate() {
            if !archetypes.contains(f) {
                let steps = [
                    Step::Key("encounter"),
                    Step::Index(i),
                    Step::Key("foes"),
                    Step::Index(k),
                ];
                let what = format!("[[encounter]] {}: no foe archetype `{f}`", i + 1);
                unknown(&steps, what, f, &archetypes);
            }
        }
    }
    let injuries = names(crate::generators::injury::TABLE);
    for (i, e) in session.injury_entries.iter().enumerate() {
        if let Some(n) = &e.name
            && !injuries.contains(n)
        {
            let steps = [Step::Key("injury"), Step::Index(i), Step::Key("name")];
            let what = format!("[[injury]] {}: no injury `{n}` in the injury table", i + 1);
            unknown(&steps, what, n, &injuries);
        }
    }
    for (i, n) in session.npc_entries.iter().enumerate() {
        if let Some(a) = &n.archetype
            && !archetypes.contains(a)
        {
            let steps = [Step::Key("npc"), Step::Index(i), Step::Key("archetype")];
            let what = format!("[[npc]] {}: no archetype `{a}`", i + 1);
            unknown(&steps, what, a, &archetypes);
        }
    }
    if out.is_empty() {
        return Ok(());
    }
    Err(Error::Input(Report {
        headline: Some("the session file names what the tables do not hold:".into()),
        diagnostics: out,
        closing: Some(
            "hint: fix the lines above (`tablewright tables` lists every table) and run again"
                .into(),
        ),
    }))
}

/// The session's own folders (`content`, `templates`, relative to the
/// session file at `path`), each checked to be there.
pub(crate) fn session_folders(
    path: &Path,
    text: &str,
    session: &Session,
) -> Result<(Vec<PathBuf>, Option<PathBuf>), Error> {
    let missing = missing_folders(path, text, session);
    if !missing.is_empty() {
        return Err(Error::Input(Report {
            headline: Some("the session file names folders that are not there:".into()),
            diagnostics: missing,
            closing: None,
        }));
    }
    Ok(session.folders(path))
}

/// Folders the session names (`content`, `templates`) that are not there.
fn missing_folders(
    path: &Path,
    text: &str,
    session: &Session,
) -> Vec<crate::diagnostic::Diagnostic> {
    let (content, templates) = session.folders(path);
    let mut out = Vec::new();
    for (i, dir) in content.iter().enumerate() {
        if !dir.is_dir() {
            let steps = [Step::Key("content"), Step::Index(i)];
            out.push(
                super::pointed(
                    path,
                    text,
                    &steps,
                    format!("the content folder `{}` does not exist (it is read relative to the session file)", dir.display()),
                )
                .with_hint("make the folder, or fix the path (`tablewright init` makes one with an example region)"),
            );
        }
    }
    if let Some(dir) = templates.filter(|d| !d.is_dir()) {
        out.push(
            super::pointed(
                path,
                text,
                &[Step::Key("templates")],
                format!("the templates folder `{}` does not exist (it is read relative to the session file)", dir.display()),
            )
            .with_hint("make the folder, or remove the `templates` key to use the built-in templates"),
        );
    }
    out
}

/// The session's terrains against the tables in effect (regions come from
/// content, so this waits for the tables), each pointed at.
pub(crate) fn session_terrains(
    path: &Path,
    text: &str,
    session: &Session,
    library: &crate::content::Library,
) -> Result<(), Error> {
    let mut diagnostics: Vec<_> = session
        .request()
        .terrain_flaws(library)
        .into_iter()
        .map(|(table, f)| {
            let prefix: Vec<Step> = table.map(Step::Key).into_iter().collect();
            super::pointed(path, text, &flaw_steps(&prefix, &f), f.message)
        })
        .collect();
    for (i, e) in session.encounter_entries.iter().enumerate() {
        if let Some(Err(message)) = e.terrain.as_ref().map(|t| library.region(t)) {
            let steps = [Step::Key("encounter"), Step::Index(i), Step::Key("terrain")];
            let message = format!("[[encounter]] {}: {message}", i + 1);
            diagnostics.push(super::pointed(path, text, &steps, message));
        }
    }
    if diagnostics.is_empty() {
        return Ok(());
    }
    Err(Error::Input(Report {
        headline: Some("the session file asks for what a pack cannot give:".into()),
        diagnostics,
        closing: Some(
            "hint: a terrain is any region with a `gen.encounter.<region>` table; `tablewright tables --terrains` lists them".into(),
        ),
    }))
}
