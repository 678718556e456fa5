//! Where a campaign is at the start of session N: each earlier session's
//! pack made again (its items only, no files) from the state it started
//! from, its facts ([`PackFacts`]: addresses, vouchers issued, slips, NPCs,
//! planned legs) folded with its record by the rules
//! ([`crate::campaign::Folding`]), one session after another, each record
//! pushed once on the state the one before left — so session N starts
//! from the state the records give, and its draws stay its own
//! (`"<campaign seed>/session/<N>"`), whatever the records say. [`before`]
//! is the one way to where session N starts: `prep`, `record`, `play`,
//! the record check and `campaign` all go through it.

use crate::campaign::folder::{CampaignFile, Files};
use crate::campaign::ledger::{IssuedVoucher, PackNpc, Slip};
use crate::campaign::plan::{self, Prepared};
use crate::campaign::state::{PcRules, State};
use crate::campaign::{Folding, Ledger, PackFacts, RecordFile, SessionInput, Start};
use crate::content::Library;
use crate::diagnostic::{Diagnostic, Report};
use crate::error::Error;
use crate::generators::map::Map;
use crate::generators::memory::{Memory, name_words};
use crate::generators::session::{self, Pack};
use crate::rules::{Party, RulesSystem};
use crate::seed::Seed;

/// A campaign folded up to session N.
pub(crate) struct History {
    /// The ledger of the sessions before N.
    pub ledger: Ledger,
    /// The state session N starts from.
    pub state: State,
    /// The packs of the sessions before N, in order (items only).
    pub packs: Vec<Pack>,
    /// What those packs used, and every PC's name words: what session N
    /// avoids ([`crate::generators::memory`]).
    pub memory: Memory,
}

/// A campaign's files, as the walk over its sessions reads them.
struct Campaign<'c, 'l> {
    files: &'c Files,
    file: &'c CampaignFile,
    library: &'l Library,
    party: &'c Party,
}

/// The campaign's sessions before `n` folded over its start, each
/// session's pack made again from the state it started from.
pub(crate) fn before(
    files: &Files,
    file: &CampaignFile,
    library: &Library,
    party: &Party,
    map: Option<&Map>,
    n: usize,
) -> Result<History, Error> {
    let c = Campaign {
        files,
        file,
        library,
        party,
    };
    walk(&c, map, n, |_, _, _| Ok(None))
}

/// The ledger of every session before `next`, and of `next` itself (its
/// pack's facts when `prepped`, no record): what `campaign` prints.
pub(crate) fn ledger(
    files: &Files,
    file: &CampaignFile,
    library: &Library,
    party: &Party,
    map: Option<&Map>,
    (next, prepped): (usize, bool),
) -> Result<Ledger, Error> {
    let c = Campaign {
        files,
        file,
        library,
        party,
    };
    let then = |state: &State, packs: &[Pack], memory: &Memory| {
        if !prepped || files.plan_for(next).is_none() {
            return Ok(None);
        }
        let (input, _) = session_input(&c, next, state, packs, memory, None)?;
        Ok(Some(input))
    };
    Ok(walk(&c, map, next, then)?.ledger)
}

/// Where session `n` starts: every session before it made and folded once,
/// in order ([`Folding`]: each record pushed on the state the last one
/// left), then session `n`'s own input folded too when `then` makes one
/// from where it starts (the state, the earlier packs, what they used).
fn walk(
    c: &Campaign,
    map: Option<&Map>,
    n: usize,
    then: impl FnOnce(&State, &[Pack], &Memory) -> Result<Option<SessionInput>, Error>,
) -> Result<History, Error> {
    let start = start_of(c, map)?;
    let mut folding = Folding::new(&start);
    let mut packs: Vec<Pack> = Vec::new();
    let mut used = Memory::default();
    for k in 1..n {
        let state = state_at(folding.state(), k)?;
        let record = record_of(c.files, k)?;
        let (input, made) = session_input(c, k, state, &packs, &used, record)?;
        used.remember(made.used());
        packs.push(made);
        folding.push(&input).map_err(refused)?;
    }
    let state = state_at(folding.state(), n)?.clone();
    let memory = memory_at(&used, &state);
    if let Some(input) = then(&state, &packs, &memory)? {
        folding.push(&input).map_err(refused)?;
    }
    Ok(History {
        ledger: folding.finish(),
        state,
        packs,
        memory,
    })
}

/// [`before`] one session at a time, for the long campaign tests: each
/// step makes session `k`'s pack from the state it starts from and folds
/// its record (as the files hold it then); [`Replay::record`] folds the
/// last session again with the record written after its pack was made.
/// (It folds the whole list again at each step: a test's cost, not
/// `prep`'s, which goes through [`walk`].)
#[cfg(test)]
pub(crate) struct Replay<'a> {
    start: Start<'a>,
    inputs: Vec<SessionInput>,
    packs: Vec<Pack>,
    ledger: Ledger,
    used: Memory,
}

#[cfg(test)]
impl<'a> Replay<'a> {
    /// Where the campaign starts: nothing made or folded yet.
    pub(crate) fn new(
        files: &Files,
        file: &CampaignFile,
        library: &'a Library,
        party: &Party,
        map: Option<&Map>,
    ) -> Result<Self, Error> {
        let c = Campaign {
            files,
            file,
            library,
            party,
        };
        let start = start_of(&c, map)?;
        let ledger = crate::campaign::fold(&start, &[]).map_err(refused)?;
        Ok(Replay {
            start,
            inputs: Vec::new(),
            packs: Vec::new(),
            ledger,
            used: Memory::default(),
        })
    }

    /// Session `k`'s pack made from the state it starts from (its
    /// record, if `files` holds one, folded).
    pub(crate) fn step(
        &mut self,
        files: &Files,
        file: &CampaignFile,
        k: usize,
    ) -> Result<&Pack, Error> {
        let party = self.start.party.clone();
        let c = Campaign {
            files,
            file,
            library: self.start.library,
            party: &party,
        };
        let state = state_at(&self.ledger.now, k)?.clone();
        let record = record_of(files, k)?;
        let (input, made) = session_input(&c, k, &state, &self.packs, &self.used, record)?;
        self.used.remember(made.used());
        self.packs.push(made);
        self.inputs.push(input);
        self.ledger = crate::campaign::fold(&self.start, &self.inputs).map_err(refused)?;
        Ok(self.packs.last().expect("just made"))
    }

    /// Session `k`, the last stepped, folded again with its record as
    /// `files` holds it now.
    pub(crate) fn record(&mut self, files: &Files, k: usize) -> Result<&Ledger, Error> {
        let record = record_of(files, k)?;
        if let Some(input) = self.inputs.last_mut().filter(|i| i.number == k as u32) {
            input.record = record;
        }
        self.ledger = crate::campaign::fold(&self.start, &self.inputs).map_err(refused)?;
        Ok(&self.ledger)
    }

    /// The ledger so far.
    pub(crate) fn ledger(&self) -> &Ledger {
        &self.ledger
    }
}

/// Session `k`'s record as `files` hold it, if any.
fn record_of(files: &Files, k: usize) -> Result<Option<RecordFile>, Error> {
    Ok(match files.record(k) {
        Some(t) => Some(RecordFile::from_text(
            &files.path_of(&t.name),
            t.text.clone(),
        )?),
        None => None,
    })
}

/// Where the campaign starts: its seed, the party, the map and its stop.
fn start_of<'l>(c: &Campaign<'_, 'l>, map: Option<&Map>) -> Result<Start<'l>, Error> {
    let stop = match map {
        Some(m) => Some(m.stops[plan::start_stop(c.files, c.file, m)?].name.clone()),
        None => None,
    };
    Ok(Start {
        system: c.file.system,
        seed: Seed::new(&c.file.seed)?,
        party: c.party.clone(),
        stop,
        map: map.cloned(),
        money: c.file.money,
        stock: c.file.map.as_ref().map(|m| crate::campaign::ledger::Stock {
            rations: m.rations,
            water: m.water,
        }),
        library: c.library,
    })
}

/// Session `k`'s input to the fold: its pack made again from `state`
/// (avoiding what the earlier `packs` `used`), its facts, and `record`;
/// with the pack.
fn session_input(
    c: &Campaign,
    k: usize,
    state: &State,
    packs: &[Pack],
    used: &Memory,
    record: Option<RecordFile>,
) -> Result<(SessionInput, Pack), Error> {
    let mut prepared = plan::prepare(c.files, c.file, k, c.library, state)?;
    let acting = made_from(&mut prepared, state, c.party, c.file.system);
    let made = pack_of(&prepared, c.library, &acting, &memory_at(used, state))?;
    let mut pack_facts = facts(&made, state.digest());
    pack_facts
        .npcs
        .extend(returning_facts(&prepared.plan.bring_back, packs));
    let input = SessionInput {
        number: k as u32,
        pack: Some(pack_facts),
        record,
    };
    Ok((input, made))
}

/// The state session `k` starts from (`state`, where the fold stands),
/// or why there is none: a session before it without a record.
fn state_at(state: &State, k: usize) -> Result<&State, Error> {
    if state.session as usize == k {
        return Ok(state);
    }
    let last = state.session;
    Err(Error::input(
        Diagnostic::message(format!(
            "session {k} cannot start yet: session {last} has no record, so where the \
             campaign stands after it is not known"
        ))
        .with_hint(format!(
            "play session {last}, then `tablewright record {last}` and fill it in; \
             `tablewright prep` makes the next session"
        )),
    ))
}

/// The fold's problems with a record, as one report.
fn refused(diagnostics: Vec<Diagnostic>) -> Error {
    Error::Input(Report {
        headline: Some("the session records do not fit the campaign:".into()),
        diagnostics,
        closing: Some(
            "hint: fix the records (the guide's Campaigns chapter lists every key) and run \
             again"
                .into(),
        ),
    })
}

/// What the earlier packs `used`, with the name words of every PC the
/// campaign has had (present, dead or gone), the stops whose trouble
/// the records say the party dealt with and the people they say died
/// (never brought back), for a session starting from `state`.
fn memory_at(used: &Memory, state: &State) -> Memory {
    let mut memory = Memory {
        pc_words: name_words(state.pcs.iter().map(|p| p.name.as_str())),
        helped: state.helped.clone(),
        people_met: state.npcs_met.iter().map(|n| n.name.clone()).collect(),
        ..used.clone()
    };
    for name in &state.slain {
        memory.bury(name);
    }
    memory
}

/// What a campaign's session is made from besides its plan, in one place
/// for `prep` and for the record check (which makes the pack again): the
/// party as the state has it, with the party file's water capacity, and
/// the supplies the last record left. Returns the party.
pub(crate) fn made_from(
    prepared: &mut Prepared,
    state: &State,
    party_file: &Party,
    system: RulesSystem,
) -> Party {
    let party = Party {
        water_capacity: party_file.water_capacity,
        ..party_now(state, system)
    };
    supplies(prepared, state, party.mettle.len() + party.core.len());
    party
}

/// The party's supplies as one pool: what the last record left (to the
/// unit), else the campaign's `[map]` share a PC for every PC present (as
/// in session 1). The journey carries the pool whole (PCs who sit out
/// take no share away; no unit is lost to dividing it), and the plan's
/// share a PC is what the pool gives each, for its water capacity.
fn supplies(prepared: &mut Prepared, state: &State, pcs: usize) {
    let Some(m) = prepared.session.map.as_mut() else {
        return;
    };
    let rations = state.rations.unwrap_or(m.rations * pcs as u32);
    let water = state.water.unwrap_or(m.water * pcs as u32);
    let share =
        |total: u32| (total / pcs.max(1) as u32).min(crate::generators::journey::MAX_SUPPLY);
    m.rations = share(rations);
    m.water = share(water);
    if let Some(f) = prepared.map.as_mut() {
        f.supplies = Some((rations, water));
        f.fasting = fasting(state);
    }
}

/// METTLE: each PC present with days without food or water, as the last
/// record left them: the journey's hunger clock starts there.
fn fasting(state: &State) -> Vec<crate::generators::journey::Wanting> {
    state
        .present()
        .filter_map(|p| {
            let m = p.mettle()?;
            (m.hungry + m.thirsty > 0).then(|| crate::generators::journey::Wanting {
                name: p.name.clone(),
                hungry: m.hungry,
                thirsty: m.thirsty,
            })
        })
        .collect()
}

/// A session's pack, items only, for its party as the state has it,
/// avoiding what `memory` holds.
pub(crate) fn pack_of(
    prepared: &Prepared,
    library: &Library,
    party: &Party,
    memory: &Memory,
) -> Result<Pack, Error> {
    #[cfg(test)]
    tests::MADE.with(|n| n.set(n.get() + 1));
    let mut req = prepared.session.request();
    if let Some(m) = req.map.as_mut() {
        m.fixed = prepared.map.clone();
    }
    Ok(generate_for(
        library,
        &req,
        party,
        &prepared.sitting_out,
        &prepared.seed,
        memory,
    )?)
}

/// A pack's items for `party`, made for those of it who act: the PCs in
/// `sitting_out` (at 0 Mettle or below) take no journey role and count in
/// no encounter or trap fitting or zones, but stay on the run sheet. When
/// nobody acts, the pack is made for the whole party.
pub(crate) fn generate_for(
    library: &Library,
    req: &session::Request,
    party: &Party,
    sitting_out: &[String],
    seed: &crate::seed::Seed,
    memory: &Memory,
) -> Result<Pack, crate::generators::GenError> {
    let mut acting = party.clone();
    acting.mettle.retain(|b| !sitting_out.contains(&b.name));
    if acting.mettle.is_empty() && acting.core.is_empty() {
        acting = party.clone();
    }
    let mut pack = session::generate_remembering(library, req, &acting, seed, memory)?;
    pack.party = party.clone();
    Ok(pack)
}

/// The party as the state has it: the PCs present, each stat block or
/// sheet as it is now.
pub(crate) fn party_now(state: &State, system: RulesSystem) -> Party {
    let mut party = Party {
        mettle: Vec::new(),
        core: Vec::new(),
        water_capacity: None,
    };
    for pc in state.present() {
        match (&pc.rules, system) {
            (PcRules::Mettle(m), RulesSystem::Mettle) => party.mettle.push(m.block.clone()),
            (PcRules::Core(c), RulesSystem::Core) => party.core.push(c.sheet.clone()),
            _ => {}
        }
    }
    party
}

/// A plan's `bring_back` NPCs as its record names them: each by the
/// address its pack's sheet prints (`npc/2 of session 1`), found in the
/// earlier `packs` (one a session, in order). One that names no NPC of an
/// earlier pack is left out (`prep` refuses the plan at its line).
pub(crate) fn returning_facts(bring_back: &[String], packs: &[Pack]) -> Vec<PackNpc> {
    bring_back
        .iter()
        .filter_map(|text| {
            let (at, k) = returning_address(text)?;
            let npc = packs.get(k.checked_sub(1)?)?.npcs.get(at.index())?;
            Some(PackNpc {
                address: format!("{at} of session {k}"),
                name: npc.name.clone(),
            })
        })
        .collect()
}

/// `npc/2 of session 1` read: the NPC's address in its pack and the
/// session (`None` for anything else).
pub(crate) fn returning_address(text: &str) -> Option<(crate::generators::Address, usize)> {
    let (at, k) = text.split_once(" of session ")?;
    let at = crate::generators::Address::parse(at.trim())?;
    let k = k.trim().parse::<usize>().ok()?;
    (at.kind() == "npc").then_some((at, k))
}

/// What a pack holds that its record may name.
pub(crate) fn facts(pack: &Pack, digest: String) -> PackFacts {
    let addressed = |kind: &str, i: usize| crate::generators::Address::new(kind, i).to_string();
    PackFacts {
        items: pack
            .addresses()
            .iter()
            .map(ToString::to_string)
            .chain(pack.journey_encounters().into_iter().map(|(at, _)| at))
            .collect(),
        vouchers: pack
            .vouchers
            .iter()
            .map(|v| IssuedVoucher {
                serial: v.serial.clone(),
                holder: v.holder.clone(),
            })
            .collect(),
        injuries: pack
            .injuries
            .iter()
            .enumerate()
            .map(|(i, item)| Slip {
                address: addressed("injury", i),
                item: item.clone(),
            })
            .collect(),
        mutations: pack
            .mutations
            .iter()
            .enumerate()
            .map(|(i, item)| Slip {
                address: addressed("mutation", i),
                item: item.clone(),
            })
            .collect(),
        npcs: pack
            .npcs
            .iter()
            .enumerate()
            .map(|(i, n)| PackNpc {
                address: addressed("npc", i),
                name: n.name.clone(),
            })
            .collect(),
        people: pack
            .people()
            .into_iter()
            .map(|(address, name)| PackNpc { address, name })
            .collect(),
        legs: pack.journey.as_ref().map_or_else(Vec::new, |j| {
            let mut stops: Vec<String> =
                j.legs.first().map(|l| l.from.clone()).into_iter().collect();
            stops.extend(j.legs.iter().map(|l| l.to.clone()));
            stops
        }),
        start_digest: Some(digest),
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::path::Path;

    use clap::Parser;

    use crate::cli::Cli;
    use crate::pack::Sources;
    use crate::workspace::Workspace;

    thread_local! {
        /// Earlier sessions' packs made again on this thread ([`super::pack_of`]).
        pub(super) static MADE: Cell<usize> = const { Cell::new(0) };
    }

    /// Run `args` in the campaign at `root` (or none); its workspace.
    fn run(args: &[&str], root: Option<&Path>) -> Workspace {
        let argv = std::iter::once("tablewright").chain(args.iter().copied());
        let cli = Cli::try_parse_from(argv).unwrap();
        let (mut ws, request) = crate::app::request::read(&cli).unwrap();
        if let Some(root) = root {
            ws = ws.with_campaign(root.to_owned()).unwrap();
        }
        let (mut out, mut err) = (Vec::new(), Vec::new());
        crate::app::run_request(&ws, request, &mut out, &mut err)
            .unwrap_or_else(|e| panic!("{args:?}: {e}"));
        ws
    }

    fn made_by(f: impl FnOnce()) -> usize {
        MADE.with(|n| n.set(0));
        f();
        MADE.with(Cell::get)
    }

    /// Where session 3 starts is made once per command: each earlier
    /// session's pack once, whatever asks (`play` once made the history
    /// twice: for the pack's sources, then again for the state).
    #[test]
    fn each_earlier_pack_is_made_once_for_where_a_session_starts() {
        let dir = std::env::temp_dir().join(format!("tw-history-once-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let root = dir.join("camp");
        run(&["init", root.to_str().unwrap()], None);
        let mut ws = run(&["prep"], Some(&root));
        for k in ["1", "2"] {
            run(&["record", k], Some(&root));
            ws = run(&["prep"], Some(&root));
        }
        let asked = Default::default();
        assert_eq!(
            made_by(|| drop(Sources::read_campaign(&ws, Some(3), &asked).unwrap())),
            2
        );
        assert_eq!(
            made_by(|| drop(crate::play::campaign_fixed(&ws, 3).unwrap())),
            2
        );
        // The ledger with session 3 prepped: sessions 1 and 2, then 3.
        assert_eq!(made_by(|| drop(Sources::campaign_ledger(&ws).unwrap())), 3);
        let ledger = Sources::campaign_ledger(&ws).unwrap();
        assert_eq!(ledger.sessions.len(), 3);
        assert!(ledger.sessions[2].prepped && !ledger.sessions[2].recorded);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
