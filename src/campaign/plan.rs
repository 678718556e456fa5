//! A session's plan (`sessions/<N>/plan.toml`): what to prep, read and
//! checked, and the session it makes ([`prepare`]) — the plan's settings
//! (its own, or the last plan's before it), the campaign's title, system
//! and party, the session seed `"<campaign seed>/session/<N>"`, and the
//! region's map made once under `"<campaign seed>/map"`, with the journey
//! from the party's stop to where the plan says the party means to go.
//!
//! A plan is a session file read by the session reader as a plan
//! (`input::session_text::read`, `Form::Plan`: one set of keys, one set
//! of messages). Its keys are a session file's without `title`, `seed`, `system`,
//! `party`, `content`, `templates` and `[map]` (the campaign's), and three
//! of its own:
//!
//! - `to`: where the party means to go this session — a stop of the
//!   campaign map by name or number, or `"goal"` (the map's goal, the stop
//!   farthest from its start). The pack's journey runs from the party's
//!   stop to there; without `to` (or at it already) there is no journey.
//! - `route`: `"safest"` (default) or `"shortest"`, as a session's `[map]`.
//! - `bring_back`: NPCs of earlier packs to bring back, each
//!   `"npc/<K> of session <M>"`; they keep their stat blocks.
//!
//! The rest — `terrain`, `encounters`, `traps`, `npcs`, `injuries`,
//! `mutations`, `vouchers`, `[[encounter]]`, `[[trap]]`, `[[npc]]`,
//! `[[injury]]`, `[rerolls]` — mean what they mean in a session file. A
//! session without a plan of its own takes the last plan's settings but
//! not its `[rerolls]` (those name that session's items) nor its
//! `vouchers` (those are for the session whose plan names them).

use std::path::PathBuf;

use super::folder::{CampaignFile, Files, Text};
use crate::campaign::state::{Presence, State};
use crate::content::Library;
use crate::diagnostic::Diagnostic;
use crate::error::Error;
use crate::generators::journey::Route;
use crate::generators::map::{self, Map};
use crate::generators::session::Fixed;
use crate::generators::{Address, Generator};
use crate::input::session::MapRequest;
use crate::input::session_text::{self, Form, Given};
use crate::input::{self, Session, Step};
use crate::seed::Seed;

/// Session N of a campaign, ready to make its pack from.
#[derive(Debug, Clone)]
pub(crate) struct Prepared {
    /// The session whose plan this one takes (`number` when it has its
    /// own).
    pub plan_of: usize,
    /// The plan file (as named in messages) and its text.
    pub plan_path: PathBuf,
    pub plan_text: String,
    /// The plan as read (a session text read as a plan: its `to`,
    /// `route` and `bring_back` with it).
    pub plan: Session,
    /// The plan as a session (the campaign's title, system and party).
    pub session: Session,
    /// `"<campaign seed>/session/<N>"`.
    pub seed: Seed,
    /// The region's map with the party's stop and where it means to go.
    pub map: Option<Fixed>,
    /// Voucher holders the plan names who are out of the party (dead or
    /// gone): no voucher is printed for them.
    pub gone_holders: Vec<String>,
    /// Voucher holders the plan names who are at 0 Mettle or below: they
    /// sit out, so no voucher is printed for them.
    pub down_holders: Vec<String>,
    /// The PCs present at 0 Mettle or below: they sit out the pack's
    /// journey roles and encounter fitting.
    pub sitting_out: Vec<String>,
}

/// Whether a PC present is at 0 Mettle or below (METTLE: they sit out
/// everything that assumes they act until healed).
pub(crate) fn is_down(pc: &crate::campaign::state::PcState) -> bool {
    pc.is_present() && pc.mettle().is_some_and(|m| m.mettle <= 0)
}

/// Why the plan's journey was dropped, when its `to` is where the party
/// already is: `No journey this session: the plan's to is Saltmere, where
/// the party already is (sessions/3/plan.toml).`
pub(crate) fn dropped_journey(prepared: &Prepared) -> Option<String> {
    let f = prepared.map.as_ref()?;
    prepared.plan.to.as_ref()?;
    (f.to == Some(f.from)).then(|| {
        format!(
            "No journey this session: the party is already at {}, where the plan's \"to\" \
             (sessions/{}/plan.toml) would take it.",
            f.map.stops[f.from].name, prepared.plan_of
        )
    })
}

/// The session seed of session `n`.
pub(crate) fn session_seed(campaign: &str, n: usize) -> String {
    format!("{campaign}/session/{n}")
}

/// The region's map, made once for the campaign under
/// `"<campaign seed>/map"` (at `map/1`'s streams), or `None` when
/// `campaign.toml` has no `[map]`.
pub(crate) fn region_map(
    files: &Files,
    file: &CampaignFile,
    library: &Library,
) -> Result<Option<Map>, Error> {
    let Some(m) = &file.map else {
        return Ok(None);
    };
    // Each terrain a region of the tables in effect, pointed at its line.
    let path = files.path_of(&files.campaign.name);
    let unknown: Vec<Diagnostic> = m
        .terrains
        .iter()
        .enumerate()
        .filter_map(|(i, t)| {
            let message = library.region(t).err()?;
            Some(
                input::pointed(
                    &path,
                    &files.campaign.text,
                    &[Step::Key("map"), Step::Key("terrains"), Step::Index(i)],
                    message,
                )
                .with_hint(
                    "`tablewright tables --terrains` lists the terrains; a region of your own \
                     is a `gen.encounter.<name>` table in the campaign's content folder",
                ),
            )
        })
        .collect();
    if !unknown.is_empty() {
        return Err(Error::Input(crate::diagnostic::Report {
            headline: Some("the campaign's map names terrains the tables lack:".into()),
            diagnostics: unknown,
            closing: None,
        }));
    }
    let seed = Seed::new(&format!("{}/map", file.seed))?;
    let req = map::Request {
        stops: m.stops,
        terrains: m.terrains.iter().map(|t| t.trim().to_lowercase()).collect(),
    };
    Ok(Some(req.make(library, &seed, &Address::new("map", 0))?))
}

/// The stop the campaign starts at: `start` of `campaign.toml`, else the
/// map's start.
pub(crate) fn start_stop(files: &Files, file: &CampaignFile, map: &Map) -> Result<usize, Error> {
    match &file.start {
        None => Ok(map.start),
        Some(name) => map.stop_named(name).map(|s| s.id).ok_or_else(|| {
            let path = files.path_of(&files.campaign.name);
            Error::input(
                input::pointed(
                    &path,
                    &files.campaign.text,
                    &[Step::Key("start")],
                    format!("start = \"{name}\": the campaign map has no such stop"),
                )
                .with_hint(stops_hint(map)),
            )
        }),
    }
}

/// A stop as the GM wrote it: a number bare, a name quoted.
fn shown(t: &str) -> String {
    if t.parse::<u64>().is_ok() {
        t.to_owned()
    } else {
        format!("\"{t}\"")
    }
}

/// The map's stops, for a hint.
fn stops_hint(map: &Map) -> String {
    let names: Vec<String> = map
        .stops
        .iter()
        .map(|s| format!("{} {}", s.id + 1, s.name))
        .collect();
    format!("the stops are: {}", names.join(", "))
}

/// Session `n` of the campaign, from its plan (or the last plan before
/// it), checked against the tables; `stop` is the party's stop at its
/// start (the ledger's; `None`: where the campaign starts).
pub(crate) fn prepare(
    files: &Files,
    file: &CampaignFile,
    n: usize,
    library: &Library,
    state: &State,
) -> Result<Prepared, Error> {
    let stop = state.stop.as_deref();
    let Some((plan_of, text)) = files.plan_for(n) else {
        return Err(Error::input(
            Diagnostic::message(format!(
                "session {n} has no plan: there is no sessions/{n}/plan.toml and no plan before it"
            ))
            .with_hint(format!(
                "write sessions/{n}/plan.toml (`tablewright init` writes an example for session 1)"
            )),
        ));
    };
    let plan_path = files.path_of(&text.name);
    let mut plan = read_plan(&plan_path, text, file, n)?;
    if plan_of != n {
        plan.rerolls.clear();
        // A plan's vouchers are for the session whose plan names them: a
        // plan taken from an earlier session issues none again (Downtime
        // Vouchers come from downtime, in the ledger).
        plan.vouchers.clear();
    }
    let mut session = plan.clone();
    // A PC who died or left holds no new voucher (a plan taken from an
    // earlier session still names them).
    let gone_holders: Vec<String> = session
        .vouchers
        .iter()
        .filter(|h| state.pc(h).is_some_and(|p| p.presence != Presence::Present))
        .cloned()
        .collect();
    session.vouchers.retain(|h| !gone_holders.contains(h));
    // A PC at 0 Mettle or below sits out: no voucher either.
    let down_holders: Vec<String> = session
        .vouchers
        .iter()
        .filter(|h| state.pc(h).is_some_and(is_down))
        .cloned()
        .collect();
    session.vouchers.retain(|h| !down_holders.contains(h));
    let map = check_session(
        files,
        file,
        library,
        (&plan, &session),
        &plan_path,
        text,
        stop,
    )?
    .map(|fixed| Fixed {
        day: state.day,
        ..fixed
    });
    Ok(Prepared {
        gone_holders,
        down_holders,
        sitting_out: state
            .pcs
            .iter()
            .filter(|p| is_down(p))
            .map(|p| p.name.clone())
            .collect(),
        plan_of,
        plan_path,
        plan_text: text.text.clone(),
        plan,
        session,
        seed: Seed::new(&session_seed(&file.seed, n))?,
        map,
    })
}

/// A plan file read by the session reader as session `n`'s plan (its
/// keys checked, a campaign's key in it pointed at), with what the
/// campaign gives it: the campaign's title (with the session's number),
/// system and party, the map's numbers from `campaign.toml`.
fn read_plan(
    plan_path: &std::path::Path,
    text: &Text,
    file: &CampaignFile,
    n: usize,
) -> Result<Session, Error> {
    let given = Given {
        title: format!("{}: session {n}", file.title),
        system: file.system,
        party: file.party.clone(),
        map: file.map.as_ref().map(|m| MapRequest {
            stops: m.stops,
            terrains: m.terrains.clone(),
            journey: false,
            route: Route::Safest,
            rations: m.rations,
            water: m.water,
            kits: m.kits.clone(),
        }),
        season: file.season,
    };
    session_text::read(plan_path, &text.text, Form::Plan(&given))
}

/// The checks a plan's session passes before its pack is made — the
/// same for `prep` and `validate`: a session file's checks pointed at the
/// plan (the system's: no vouchers in a Core campaign, no injuries in a
/// METTLE one), its terrains and tables, and `to` on the campaign's map
/// (the map fixed from `stop`, else the campaign's start).
fn check_session(
    files: &Files,
    file: &CampaignFile,
    library: &Library,
    (plan, session): (&Session, &Session),
    plan_path: &std::path::Path,
    text: &Text,
    stop: Option<&str>,
) -> Result<Option<Fixed>, Error> {
    session_text::check(session, plan_path, &text.text)?;
    input::session_terrains(plan_path, &text.text, session, library)?;
    input::session::table_flaws(session, plan_path, &text.text, library)?;
    match region_map(files, file, library)? {
        Some(map) => Ok(Some(fixed(files, file, map, plan, plan_path, text, stop)?)),
        None if plan.to.is_some() => Err(Error::input(
            input::pointed(
                plan_path,
                &text.text,
                &[Step::Key("to")],
                "the campaign has no map, so the party cannot go anywhere on it".into(),
            )
            .with_hint("give campaign.toml a [map] (stops, terrains), or leave `to` out"),
        )),
        None => Ok(None),
    }
}

/// Every plan of the campaign checked as `prep` checks it (`validate` in
/// a campaign): how many there are.
pub(crate) fn check_plans(
    files: &Files,
    file: &CampaignFile,
    library: &Library,
) -> Result<usize, Error> {
    for (k, text) in &files.plans {
        let plan_path = files.path_of(&text.name);
        let plan = read_plan(&plan_path, text, file, *k)?;
        check_session(files, file, library, (&plan, &plan), &plan_path, text, None)?;
    }
    Ok(files.plans.len())
}

/// The campaign map with the party at `stop` (else the start) going to
/// the plan's `to`.
fn fixed(
    files: &Files,
    file: &CampaignFile,
    map: Map,
    plan: &Session,
    plan_path: &std::path::Path,
    text: &Text,
    stop: Option<&str>,
) -> Result<Fixed, Error> {
    let from = match stop.and_then(|s| map.stop_named(s)) {
        Some(s) => s.id,
        None => start_stop(files, file, &map)?,
    };
    let to = match plan.to.as_deref() {
        None => None,
        Some(t) if t.trim().eq_ignore_ascii_case("goal") => Some(map.goal),
        Some(t) => match map.stop_named(t) {
            Some(s) => Some(s.id),
            None => {
                return Err(Error::input(
                    input::pointed(
                        plan_path,
                        &text.text,
                        &[Step::Key("to")],
                        format!("to = {}: the campaign map has no such stop", shown(t)),
                    )
                    .with_hint(stops_hint(&map)),
                ));
            }
        },
    };
    Ok(Fixed {
        map,
        from,
        to,
        day: 1,
        supplies: None,
        fasting: Vec::new(),
    })
}
