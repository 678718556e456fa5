//! A record checked against the campaign as it stood when the session
//! started, before anything is folded: each refusal at its line and
//! column, with a hint.

use super::{SessionInput, Start, road};
use crate::campaign::record::{Fate, PcRecord, ROLL, RecordFile};
use crate::campaign::state::{CorePc, MettlePc, PcState, Presence, State};
use crate::content::validate::closest;
use crate::diagnostic::Diagnostic;
use crate::generators::{Address, count};
use crate::input::Step;
use crate::rules::core_d20::{self, Sheet};
use crate::rules::mettle::{self, StatBlock};
use crate::rules::{Flaw, RulesSystem};

/// Every problem of `record` (session `s`) against `state`.
pub(crate) fn check(
    start: &Start,
    state: &State,
    s: &SessionInput,
    record: &RecordFile,
) -> Vec<Diagnostic> {
    let r = &record.record;
    let mut out = Vec::new();
    if r.session != s.number {
        out.push(
            record
                .at_key(
                    "session",
                    format!(
                        "session = {}, but this is the record of session {}",
                        r.session, s.number
                    ),
                )
                .with_hint(format!(
                    "write `session = {}`: a record is read from its session's folder",
                    s.number
                )),
        );
    }
    let Some(pack) = &s.pack else {
        out.push(
            record
                .at_key(
                    "session",
                    format!("a record of session {}, which was never prepped", s.number),
                )
                .with_hint(format!(
                    "prep it first (`tablewright prep {}`), play it, then record it",
                    s.number
                )),
        );
        return out;
    };
    if r.day < state.day {
        out.push(
            record
                .at_key(
                    "day",
                    format!(
                        "day {} is before day {}, the day session {} started on",
                        r.day, state.day, s.number
                    ),
                )
                .with_hint("`day` is the day the session ended on; days only go forward"),
        );
    }
    out.extend(stop_problems(start, state, s.number, record));
    let has = |kind: &str, a: &str| pack.items.iter().any(|i| i == a && i.starts_with(kind));
    for (i, a) in r.met.iter().enumerate() {
        if !pack.items.contains(a) {
            out.push(unknown_item(record, "met", i, a, s.number, &pack.items));
        }
    }
    let npcs: Vec<String> = pack.npcs.iter().map(|n| n.address.clone()).collect();
    for (i, a) in r.npcs_met.iter().enumerate() {
        if !has("npc/", a) && !npcs.contains(a) {
            out.push(unknown_item(record, "npcs_met", i, a, s.number, &npcs));
        }
    }
    out.extend(super::vouchers::problems(state, pack, record));
    if state.money + r.money < 0 {
        out.push(
            record
                .at_key(
                    "money",
                    format!(
                        "money = {}: the party had {}ʂ, which leaves {}ʂ — money never goes below zero",
                        r.money,
                        state.money,
                        state.money + r.money
                    ),
                )
                .with_hint(format!(
                    "the party can spend at most {}ʂ; record what it gained as well",
                    state.money
                )),
        );
    }
    let joined = joined(start, state, record);
    let joined_names: Vec<String> = match &joined {
        Ok(pcs) => pcs.iter().map(|p| p.name.clone()).collect(),
        Err(problems) => {
            out.extend(problems.iter().cloned());
            Vec::new()
        }
    };
    let joined_pcs: &[PcState] = joined.as_deref().unwrap_or(&[]);
    for (i, pc) in r.pcs.iter().enumerate() {
        out.extend(pc_problems(start, state, s, record, i, pc, &joined_names));
        if start.system == RulesSystem::Core {
            out.extend(super::omens::problems(state, joined_pcs, record, i, pc));
        }
    }
    out
}

/// The record's stop: on the map, and reachable by road from where the
/// session started in the days it took.
fn stop_problems(start: &Start, state: &State, n: u32, record: &RecordFile) -> Vec<Diagnostic> {
    let (Some(map), Some(stop)) = (&start.map, &record.record.stop) else {
        return Vec::new();
    };
    let Some(to) = map.stop_named(stop) else {
        let names = map.stops.iter().map(|s| s.name.as_str());
        return vec![
            record
                .at_key("stop", format!("the campaign map has no stop `{stop}`"))
                .with_suggestion(closest(stop, names).map(str::to_owned))
                .with_hint(format!(
                    "name a stop of the map or give its number (1 to {})",
                    map.stops.len()
                )),
        ];
    };
    let Some(from) = state.stop.as_deref().and_then(|s| map.stop_named(s)) else {
        return Vec::new();
    };
    // The session's days, the first and the last included.
    let (first, last) = (state.day, record.record.day);
    if last < first {
        return Vec::new();
    }
    let available = last - first + 1;
    match road::quickest(map, from.id, to.id) {
        None => vec![
            record
                .at_key(
                    "stop",
                    format!(
                        "the party could not have reached {}: no road leads there from {}, where session {n} started",
                        to.name, from.name
                    ),
                )
                .with_hint("name a stop connected to the party's by the map's paths"),
        ],
        Some((_, watches)) if road::days(watches) > available => vec![
            record
                .at_key(
                    "stop",
                    format!(
                        "the party could not have reached {}: it is {} ({}) by road from {}, \
                         where session {n} started, but the session ran from day {first} to day {last} ({})",
                        to.name,
                        count(watches, "watch", "watches"),
                        count(road::days(watches), "day", "days"),
                        from.name,
                        count(available, "day", "days")
                    ),
                )
                .with_hint("fix `stop`, or `day` (the day the session ended on); the party travels two watches a day"),
        ],
        Some(_) => Vec::new(),
    }
}

/// An address the pack does not hold.
fn unknown_item(
    record: &RecordFile,
    key: &str,
    i: usize,
    address: &str,
    n: u32,
    known: &[String],
) -> Diagnostic {
    let d = record.at_item(
        key,
        i,
        format!("the pack of session {n} has no item `{address}`"),
    );
    match closest(address, known.iter().map(String::as_str)) {
        Some(c) => d.with_suggestion(Some(c.to_owned())),
        None if known.is_empty() => d.with_hint("the pack has none of these"),
        None => d.with_hint(format!("the pack has {}", known.join(", "))),
    }
}

/// The `[[joined]]` PCs as the system's stat blocks or sheets, each legal.
pub(super) fn joined(
    start: &Start,
    state: &State,
    record: &RecordFile,
) -> Result<Vec<PcState>, Vec<Diagnostic>> {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    let n = record.record.session;
    for (i, table) in record.record.joined.iter().enumerate() {
        let at = |key: Option<&'static str>, index: Option<usize>, message: String| {
            let mut steps = vec![Step::Key("joined"), Step::Index(i)];
            steps.extend(key.map(Step::Key));
            steps.extend(index.map(Step::Index));
            record.at(&steps, message)
        };
        let value = toml::Value::Table(table.clone());
        let (pc, flaws): (Option<PcState>, Vec<Flaw>) = match start.system {
            RulesSystem::Core => match value.try_into::<Sheet>() {
                Ok(sheet) => {
                    let flaws = core_d20::sheet_flaws(&sheet);
                    (
                        Some(pc_of(sheet.name.clone(), n, Some(CorePc::new(sheet)), None)),
                        flaws,
                    )
                }
                Err(e) => {
                    problems.push(
                        at(
                            None,
                            None,
                            format!(
                                "[[joined]] {}: not a Core Rules sheet: {}",
                                i + 1,
                                e.message().trim()
                            ),
                        )
                        .with_hint("a joining PC is written as in party files' [[core]] entries"),
                    );
                    (None, Vec::new())
                }
            },
            RulesSystem::Mettle => match value.try_into::<StatBlock>() {
                Ok(block) => {
                    let flaws = mettle::block_flaws(&block);
                    (
                        Some(pc_of(
                            block.name.clone(),
                            n,
                            None,
                            Some(MettlePc::new(block)),
                        )),
                        flaws,
                    )
                }
                Err(e) => {
                    problems.push(
                        at(
                            None,
                            None,
                            format!(
                                "[[joined]] {}: not a METTLE stat block: {}",
                                i + 1,
                                e.message().trim()
                            ),
                        )
                        .with_hint("a joining PC is written as in party files' [[mettle]] entries"),
                    );
                    (None, Vec::new())
                }
            },
        };
        let Some(pc) = pc else { continue };
        for f in &flaws {
            problems.push(
                at(
                    Some(f.at.key),
                    f.at.index,
                    format!("{}: {}", pc.name, f.message),
                )
                .with_hint("fix the value: the rules hold every PC to these bounds"),
            );
        }
        if state.pc(&pc.name).is_some()
            || out
                .iter()
                .any(|p: &PcState| p.name.eq_ignore_ascii_case(&pc.name))
        {
            problems.push(
                at(
                    Some("name"),
                    None,
                    format!(
                        "[[joined]] {}: the campaign already has a PC named {}",
                        i + 1,
                        pc.name
                    ),
                )
                .with_hint("give the new PC a name of their own"),
            );
        }
        out.push(pc);
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

fn pc_of(name: String, n: u32, core: Option<CorePc>, mettle: Option<MettlePc>) -> PcState {
    PcState {
        name,
        presence: Presence::Present,
        gone_in: None,
        joined_in: n,
        core,
        mettle,
    }
}

/// Keys of `[[pc]]` only one system has, with that system.
const CORE_KEYS: [&str; 7] = [
    "conditions",
    "injuries",
    "mutations",
    "corruption",
    "omens",
    "lowered",
    "remains",
];
const METTLE_KEYS: [&str; 4] = ["statuses", "heal_edge", "heal_twist", "healer"];

/// Whether a `[[pc]]` key is given (non-default).
fn given(pc: &PcRecord, key: &str) -> bool {
    match key {
        "conditions" => !pc.conditions.is_empty(),
        "injuries" => !pc.injuries.is_empty(),
        "mutations" => !pc.mutations.is_empty(),
        "corruption" => pc.corruption != 0,
        "omens" => pc.omens != 0,
        "lowered" => !pc.lowered.is_empty(),
        "remains" => pc.remains,
        "statuses" => !pc.statuses.is_empty(),
        "heal_edge" => pc.heal_edge.is_some(),
        "heal_twist" => pc.heal_twist,
        "healer" => pc.healer.is_some(),
        _ => false,
    }
}

/// Every problem of `[[pc]]` entry `i`.
fn pc_problems(
    start: &Start,
    state: &State,
    s: &SessionInput,
    record: &RecordFile,
    i: usize,
    pc: &PcRecord,
    joined: &[String],
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let at =
        |key: &str, index: Option<usize>, message: String| record.at_pc(i, key, index, message);
    let party: Vec<&str> = state
        .present()
        .map(|p| p.name.as_str())
        .chain(joined.iter().map(String::as_str))
        .collect();
    let known = party.iter().any(|p| p.eq_ignore_ascii_case(pc.name.trim()));
    if !known {
        let d = match state.pc(&pc.name) {
            Some(gone) => at(
                "name",
                None,
                format!(
                    "{} is not in the party: they {} in session {}",
                    gone.name,
                    if gone.presence == Presence::Dead {
                        "died"
                    } else {
                        "left"
                    },
                    gone.gone_in.unwrap_or(0)
                ),
            )
            .with_hint("remove this entry; a new PC joins with a [[joined]] entry"),
            None => at("name", None, format!("{} is not in the party", pc.name))
                .with_suggestion(closest(&pc.name, party.iter().copied()).map(str::to_owned))
                .with_hint(format!("the party is {}", party.join(", "))),
        };
        out.push(d);
        return out;
    }
    if record.record.pcs[..i]
        .iter()
        .any(|o| o.name.trim().eq_ignore_ascii_case(pc.name.trim()))
    {
        out.push(
            at("name", None, format!("{} has two [[pc]] entries", pc.name))
                .with_hint("put everything that happened to a PC in one entry"),
        );
    }
    let (theirs, other, system) = match start.system {
        RulesSystem::Core => (&CORE_KEYS[..], &METTLE_KEYS[..], "the Core Rules"),
        RulesSystem::Mettle => (&METTLE_KEYS[..], &CORE_KEYS[..], "METTLE"),
    };
    let _ = theirs;
    for key in other {
        if given(pc, key) {
            out.push(
                at(
                    key,
                    None,
                    format!("`{key}` is not a key of {system} records"),
                )
                .with_hint(format!("this campaign plays {system}; remove the line")),
            );
        }
    }
    if pc.damage < 0 {
        out.push(
            at(
                "damage",
                None,
                format!("damage = {}: damage is never negative", pc.damage),
            )
            .with_hint("write what was lost and not healed by the end, 0 or more"),
        );
    }
    if pc.corruption < 0 {
        out.push(
            at(
                "corruption",
                None,
                format!(
                    "corruption = {}: corruption gained is never negative",
                    pc.corruption
                ),
            )
            .with_hint("corruption only goes down by soulblight, which the ledger rolls"),
        );
    }
    if pc.remains && pc.fate != Some(Fate::Dead) {
        out.push(
            at(
                "remains",
                None,
                format!("remains = true, but {} did not die", pc.name),
            )
            .with_hint("`remains` goes with `fate = \"dead\"`"),
        );
    }
    let now = state.pc(&pc.name);
    if start.system == RulesSystem::Core {
        out.extend(core_pc_problems(
            start,
            s,
            i,
            record,
            pc,
            now.and_then(|p| p.core.as_ref()),
        ));
    } else {
        out.extend(mettle_pc_problems(state, i, record, pc, now, joined));
    }
    out
}

fn core_pc_problems(
    start: &Start,
    s: &SessionInput,
    i: usize,
    record: &RecordFile,
    pc: &PcRecord,
    now: Option<&CorePc>,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let at =
        |key: &str, index: Option<usize>, message: String| record.at_pc(i, key, index, message);
    let pack = s.pack.as_ref();
    let slips = |kind: &str| -> Vec<String> {
        pack.map(|p| match kind {
            "injury" => p.injuries.iter().map(|x| x.address.clone()).collect(),
            _ => p.mutations.iter().map(|x| x.address.clone()).collect(),
        })
        .unwrap_or_default()
    };
    let rows: Vec<String> = start
        .library
        .get(crate::generators::injury::TABLE)
        .map(|t| t.rows.iter().map(|r| r.entry.name.to_string()).collect())
        .unwrap_or_default();
    for (key, kind) in [("injuries", "injury"), ("mutations", "mutation")] {
        let list = if kind == "injury" {
            &pc.injuries
        } else {
            &pc.mutations
        };
        let known = slips(kind);
        for (j, item) in list.iter().enumerate() {
            if item == ROLL || known.contains(item) {
                continue;
            }
            if let Some(a) = Address::parse(item) {
                let d = at(
                    key,
                    Some(j),
                    format!(
                        "the pack of session {} has no {kind} slip `{item}`",
                        s.number
                    ),
                );
                out.push(if a.kind() == kind && !known.is_empty() {
                    d.with_hint(format!(
                        "its {kind} slips are {}; or write \"roll\"",
                        known.join(", ")
                    ))
                } else {
                    d.with_hint(format!(
                        "name a {kind} slip of the pack, or write \"roll\" to roll one"
                    ))
                });
            } else if kind == "injury" && rows.contains(item) {
                continue;
            } else if kind == "injury" {
                out.push(
                    at(
                        key,
                        Some(j),
                        format!("no injury `{item}` in the injury table"),
                    )
                    .with_suggestion(
                        closest(item, rows.iter().map(String::as_str)).map(str::to_owned),
                    )
                    .with_hint("give a slip's address (`injury/1`), a row's name or \"roll\""),
                );
            } else {
                out.push(
                    at(
                        key,
                        Some(j),
                        format!("`{item}` is neither a mutation slip of the pack nor \"roll\""),
                    )
                    .with_hint("give a slip's address (`mutation/1`) or \"roll\""),
                );
            }
        }
    }
    for (ability, by) in &pc.lowered {
        let current = now.map(|c| Abilities::get(&c.sheet, ability));
        match current {
            _ if !["STR", "AGI", "WIT"].contains(&ability.as_str()) => out.push(
                at(
                    "lowered",
                    None,
                    format!("lowered: `{ability}` is not an ability"),
                )
                .with_suggestion(
                    closest(ability, ["STR", "AGI", "WIT"].into_iter()).map(str::to_owned),
                )
                .with_hint("the abilities are STR, AGI and WIT"),
            ),
            _ if *by < 1 => out.push(
                record
                    .at(
                        &[
                            Step::Key("pc"),
                            Step::Index(i),
                            Step::Key("lowered"),
                            Step::Key(ability),
                        ],
                        format!("lowered {ability} by {by}: an ability is lowered by 1 or more"),
                    )
                    .with_hint("leave out an ability that was not lowered"),
            ),
            Some(Some(v)) if v - by < 0 => out.push(
                record
                    .at(
                        &[
                            Step::Key("pc"),
                            Step::Index(i),
                            Step::Key("lowered"),
                            Step::Key(ability),
                        ],
                        format!(
                            "{ability} {v} lowered by {by} is {}, out of range (0-{})",
                            v - by,
                            core_d20::ABILITY_MAX
                        ),
                    )
                    .with_hint(
                        "an ability never goes below 0 (STR 0 is death: record `fate = \"dead\"`)",
                    ),
            ),
            _ => {}
        }
    }
    if let Some(c) = now {
        for (j, cured) in pc.cured.iter().enumerate() {
            let has =
                c.sheet.conditions.iter().any(|x| x == cured) || pc.conditions.contains(cured);
            if !has {
                out.push(
                    at(
                        "cured",
                        Some(j),
                        format!("{} has no condition `{cured}` to cure", pc.name),
                    )
                    .with_suggestion(
                        closest(cured, c.sheet.conditions.iter().map(String::as_str))
                            .map(str::to_owned),
                    )
                    .with_hint("list only conditions the PC had"),
                );
            }
        }
    }
    for (j, c) in pc.conditions.iter().enumerate() {
        if c.trim().is_empty() {
            out.push(
                at("conditions", Some(j), "an empty condition".into())
                    .with_hint("name the condition or remove it"),
            );
        }
    }
    out
}

/// An ability of a sheet by name.
struct Abilities;

impl Abilities {
    fn get(sheet: &Sheet, name: &str) -> Option<i64> {
        match name {
            "STR" => Some(sheet.STR),
            "AGI" => Some(sheet.AGI),
            "WIT" => Some(sheet.WIT),
            _ => None,
        }
    }
}

fn mettle_pc_problems(
    state: &State,
    i: usize,
    record: &RecordFile,
    pc: &PcRecord,
    now: Option<&PcState>,
    joined: &[String],
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let at =
        |key: &str, index: Option<usize>, message: String| record.at_pc(i, key, index, message);
    for (j, st) in pc.statuses.iter().enumerate() {
        if !mettle::STATUSES.contains(&st.as_str()) {
            out.push(
                at(
                    "statuses",
                    Some(j),
                    format!("`{st}` is not a METTLE status"),
                )
                .with_suggestion(closest(st, mettle::STATUSES.into_iter()).map(str::to_owned))
                .with_hint(format!("the statuses are {}", mettle::STATUSES.join(", "))),
            );
        }
    }
    if let Some(m) = now.and_then(|p| p.mettle.as_ref()) {
        for (j, cured) in pc.cured.iter().enumerate() {
            if !m.block.statuses.contains(cured) && !pc.statuses.contains(cured) {
                out.push(
                    at(
                        "cured",
                        Some(j),
                        format!("{} has no status `{cured}` to cure", pc.name),
                    )
                    .with_suggestion(
                        closest(cured, m.block.statuses.iter().map(String::as_str))
                            .map(str::to_owned),
                    )
                    .with_hint("list only statuses the PC had"),
                );
            }
        }
    }
    out.extend(super::heal::record_problems(record, i, pc));
    if let Some(h) = &pc.healer {
        let standing = state
            .present()
            .map(|p| p.name.as_str())
            .chain(joined.iter().map(String::as_str))
            .any(|n| n.eq_ignore_ascii_case(h.trim()));
        if !standing {
            out.push(
                at(
                    "healer",
                    None,
                    format!("the healer {h} is not in the party"),
                )
                .with_suggestion(
                    closest(h, state.present().map(|p| p.name.as_str())).map(str::to_owned),
                )
                .with_hint("name a PC of the party, or leave `healer` out"),
            );
        }
    }
    out
}
