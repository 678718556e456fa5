//! Where a campaign is at the start of session N: each earlier session's
//! pack made again (its items only, no files) from the state it started
//! from, its facts ([`PackFacts`]: addresses, vouchers issued, slips, NPCs,
//! planned legs) folded with its record by the rules
//! ([`crate::campaign::fold`]), one session after another — so session N
//! starts from the state the records give, and its draws stay its own
//! (`"<campaign seed>/session/<N>"`), whatever the records say.

use crate::campaign::folder::{CampaignFile, Files};
use crate::campaign::ledger::{IssuedVoucher, PackNpc, Slip};
use crate::campaign::plan::{self, Prepared};
use crate::campaign::state::State;
use crate::campaign::{Ledger, PackFacts, RecordFile, SessionInput, Start, fold};
use crate::content::Library;
use crate::diagnostic::{Diagnostic, Report};
use crate::error::Error;
use crate::generators::map::Map;
use crate::generators::memory::{Memory, name_words};
use crate::generators::session::{self, Pack};
use crate::rules::{Party, RulesSystem};
use crate::seed::Seed;

/// A campaign folded up to session N.
pub(crate) struct History<'a> {
    /// Where the campaign started.
    pub start: Start<'a>,
    /// Each session before N: its pack's facts and its record.
    pub inputs: Vec<SessionInput>,
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

/// The campaign's sessions before `n` folded over its start, each
/// session's pack made again from the state it started from.
pub(crate) fn before<'a>(
    files: &Files,
    file: &CampaignFile,
    library: &'a Library,
    party: &Party,
    map: Option<&Map>,
    n: usize,
) -> Result<History<'a>, Error> {
    let mut replay = Replay::new(files, file, library, party, map)?;
    for k in 1..n {
        replay.step(files, file, k)?;
    }
    replay.finish(n)
}

/// [`before`] one session at a time: each step makes session `k`'s pack
/// from the state it starts from and folds its record (as the files
/// hold it then). A caller that writes record `k` after seeing pack `k`
/// (the long campaign tests) steps on without making every earlier pack
/// again.
pub(crate) struct Replay<'a> {
    start: Start<'a>,
    inputs: Vec<SessionInput>,
    packs: Vec<Pack>,
    ledger: Ledger,
    memory: Memory,
}

impl<'a> Replay<'a> {
    /// Where the campaign starts: nothing made or folded yet.
    pub(crate) fn new(
        files: &Files,
        file: &CampaignFile,
        library: &'a Library,
        party: &Party,
        map: Option<&Map>,
    ) -> Result<Self, Error> {
        let start_stop = match map {
            Some(m) => Some(m.stops[plan::start_stop(files, file, m)?].name.clone()),
            None => None,
        };
        let start = Start {
            system: file.system,
            seed: Seed::new(&file.seed)?,
            party: party.clone(),
            stop: start_stop,
            map: map.cloned(),
            money: file.money,
            stock: file.map.as_ref().map(|m| crate::campaign::ledger::Stock {
                rations: m.rations,
                water: m.water,
            }),
            library,
        };
        let ledger = folded(&start, &[])?;
        Ok(Replay {
            start,
            inputs: Vec::new(),
            packs: Vec::new(),
            ledger,
            memory: Memory::default(),
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
        let library = self.start.library;
        let state = state_at(&self.ledger, k)?;
        let mut prepared = plan::prepare(files, file, k, library, &state)?;
        let acting = made_from(&mut prepared, &state, &self.start.party, file.system);
        let made = pack_of(
            &prepared,
            library,
            &acting,
            &memory_at(&self.memory, &state),
        )?;
        self.memory.remember(made.used());
        let record = match files.record(k) {
            Some(t) => Some(RecordFile::from_text(
                &files.path_of(&t.name),
                t.text.clone(),
            )?),
            None => None,
        };
        let mut pack_facts = facts(&made, state.digest());
        pack_facts
            .npcs
            .extend(returning_facts(&prepared.plan.bring_back, &self.packs));
        self.inputs.push(SessionInput {
            number: k as u32,
            pack: Some(pack_facts),
            record,
        });
        self.packs.push(made);
        self.ledger = folded(&self.start, &self.inputs)?;
        Ok(self.packs.last().expect("just made"))
    }

    /// Session `k`, the last stepped, folded again with its record as
    /// `files` holds it now (a record written after its pack was made).
    #[cfg(test)]
    pub(crate) fn record(&mut self, files: &Files, k: usize) -> Result<&Ledger, Error> {
        let record = match files.record(k) {
            Some(t) => Some(RecordFile::from_text(
                &files.path_of(&t.name),
                t.text.clone(),
            )?),
            None => None,
        };
        if let Some(input) = self.inputs.last_mut().filter(|i| i.number == k as u32) {
            input.record = record;
        }
        self.ledger = folded(&self.start, &self.inputs)?;
        Ok(&self.ledger)
    }

    /// The ledger so far.
    #[cfg(test)]
    pub(crate) fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    /// Where the campaign stands for session `n` (every session before
    /// it stepped).
    pub(crate) fn finish(self, n: usize) -> Result<History<'a>, Error> {
        let state = state_at(&self.ledger, n)?;
        let memory = memory_at(&self.memory, &state);
        Ok(History {
            start: self.start,
            inputs: self.inputs,
            ledger: self.ledger,
            state,
            packs: self.packs,
            memory,
        })
    }
}

/// The ledger of every session before `next`, and of `next` itself (its
/// pack's facts when `prepped`, no record): what `campaign` prints.
pub(crate) fn ledger(
    files: &Files,
    file: &CampaignFile,
    library: &Library,
    party: &Party,
    map: Option<&Map>,
    next: usize,
    prepped: bool,
) -> Result<Ledger, Error> {
    let history = before(files, file, library, party, map, next)?;
    if !prepped || files.plan_for(next).is_none() {
        return Ok(history.ledger);
    }
    let state = &history.state;
    let mut prepared = plan::prepare(files, file, next, library, state)?;
    let acting = made_from(&mut prepared, state, party, file.system);
    let made = pack_of(&prepared, library, &acting, &history.memory)?;
    let mut pack_facts = facts(&made, state.digest());
    pack_facts
        .npcs
        .extend(returning_facts(&prepared.plan.bring_back, &history.packs));
    let mut inputs = history.inputs;
    inputs.push(SessionInput {
        number: next as u32,
        pack: Some(pack_facts),
        record: None,
    });
    folded(&history.start, &inputs)
}

/// The state session `k` starts from, or why there is none: a session
/// before it without a record.
fn state_at(ledger: &Ledger, k: usize) -> Result<State, Error> {
    ledger.state_before(k as u32).cloned().ok_or_else(|| {
        let last = ledger.now.session;
        Error::input(
            Diagnostic::message(format!(
                "session {k} cannot start yet: session {last} has no record, so where the \
                 campaign stands after it is not known"
            ))
            .with_hint(format!(
                "play session {last}, then `tablewright record {last}` and fill it in; \
                 `tablewright prep` makes the next session"
            )),
        )
    })
}

/// The fold, its problems as one report.
fn folded(start: &Start, inputs: &[SessionInput]) -> Result<Ledger, Error> {
    fold(start, inputs).map_err(|diagnostics| {
        Error::Input(Report {
            headline: Some("the session records do not fit the campaign:".into()),
            diagnostics,
            closing: Some(
                "hint: fix the records (the guide's Campaigns chapter lists every key) and run \
                 again"
                    .into(),
            ),
        })
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
            let m = p.mettle.as_ref()?;
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
        match system {
            RulesSystem::Mettle => party
                .mettle
                .extend(pc.mettle.as_ref().map(|m| m.block.clone())),
            RulesSystem::Core => party.core.extend(pc.core.as_ref().map(|c| c.sheet.clone())),
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
