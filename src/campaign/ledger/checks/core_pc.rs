//! A Core Rules `[[pc]]` entry: its injury and mutation slips (of the
//! pack, a row of the injury table, or "roll"), its lowered abilities,
//! the conditions it cures and gains.

use crate::campaign::ledger::{SessionInput, Start};
use crate::campaign::record::{PcRecord, ROLL, RecordFile};
use crate::campaign::state::CorePc;
use crate::content::validate::closest;
use crate::diagnostic::Diagnostic;
use crate::generators::Address;
use crate::input::Step;
use crate::rules::core::{self, Sheet};

/// Every Core problem of `[[pc]]` entry `i` (`now`: the PC's sheet as
/// the session started, if they were in the party).
pub(super) fn problems(
    start: &Start,
    s: &SessionInput,
    i: usize,
    record: &RecordFile,
    pc: &PcRecord,
    now: Option<&CorePc>,
) -> Vec<Diagnostic> {
    let mut out = slip_problems(start, s, i, record, pc, now);
    out.extend(lowered_problems(i, record, pc, now));
    if let Some(c) = now {
        out.extend(cured_problems(i, record, pc, c));
    }
    for (j, c) in pc.conditions.iter().enumerate() {
        if c.trim().is_empty() {
            out.push(
                record
                    .at_pc(i, "conditions", Some(j), String::from("an empty condition"))
                    .with_hint("name the condition or remove it"),
            );
        }
    }
    out
}

/// `injuries` and `mutations`: each a slip of the pack, "roll", or (an
/// injury) a row of the injury table by name.
fn slip_problems(
    start: &Start,
    s: &SessionInput,
    i: usize,
    record: &RecordFile,
    pc: &PcRecord,
    now: Option<&CorePc>,
) -> Vec<Diagnostic> {
    let pack = s.pack.as_ref();
    let rows: Vec<String> = start
        .library
        .get(crate::generators::injury::TABLE)
        .map(|t| t.rows.iter().map(|r| r.entry.name.to_string()).collect())
        .unwrap_or_default();
    let mut out = Vec::new();
    for (key, kind, list) in [
        ("injuries", "injury", &pc.injuries),
        ("mutations", "mutation", &pc.mutations),
    ] {
        let known: Vec<String> = pack
            .map(|p| match kind {
                "injury" => p.injuries.iter().map(|x| x.address.clone()).collect(),
                _ => p.mutations.iter().map(|x| x.address.clone()).collect(),
            })
            .unwrap_or_default();
        for (j, item) in list.iter().enumerate() {
            let address = Address::parse(item);
            let row = address.is_none() && kind == "injury" && rows.contains(item);
            if kind == "mutation" && known.contains(item) {
                out.extend(mutation_twice(s, i, j, record, pc, now));
                continue;
            }
            if item == ROLL || known.contains(item) || row {
                continue;
            }
            let at = |message: String| record.at_pc(i, key, Some(j), message);
            out.push(match address {
                Some(a) => {
                    let d = at(format!(
                        "the pack of session {} has no {kind} slip `{item}`",
                        s.number
                    ));
                    if a.kind() == kind && !known.is_empty() {
                        d.with_hint(format!(
                            "its {kind} slips are {}; or write \"roll\"",
                            known.join(", ")
                        ))
                    } else {
                        d.with_hint(format!(
                            "name a {kind} slip of the pack, or write \"roll\" to roll one"
                        ))
                    }
                }
                None if kind == "injury" => at(format!("no injury `{item}` in the injury table"))
                    .with_suggestion(
                        closest(item, rows.iter().map(String::as_str)).map(str::to_owned),
                    )
                    .with_hint("give a slip's address (`injury/1`), a row's name or \"roll\""),
                None => at(format!(
                    "`{item}` is neither a mutation slip of the pack nor \"roll\""
                ))
                .with_hint("give a slip's address (`mutation/1`) or \"roll\""),
            });
        }
    }
    out
}

/// `lowered`: abilities by name, each by 1 or more, never below 0.
fn lowered_problems(
    i: usize,
    record: &RecordFile,
    pc: &PcRecord,
    now: Option<&CorePc>,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (ability, by) in &pc.lowered {
        let at_ability = |message: String| {
            record.at(
                &[
                    Step::Key("pc"),
                    Step::Index(i),
                    Step::Key("lowered"),
                    Step::Key(ability),
                ],
                message,
            )
        };
        let current = now.map(|c| ability_of(&c.sheet, ability));
        match current {
            _ if !["STR", "AGI", "WIT"].contains(&ability.as_str()) => out.push(
                record
                    .at_pc(
                        i,
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
                at_ability(format!(
                    "lowered {ability} by {by}: an ability is lowered by 1 or more"
                ))
                .with_hint("leave out an ability that was not lowered"),
            ),
            Some(Some(v)) if v - by < 0 => out.push(
                at_ability(format!(
                    "{ability} {v} lowered by {by} is {}, out of range (0-{})",
                    v - by,
                    core::ABILITY_MAX
                ))
                .with_hint(
                    "an ability never goes below 0 (STR 0 is death: record `fate = \"dead\"`)",
                ),
            ),
            _ => {}
        }
    }
    out
}

/// `cured`: conditions the PC had (or gains in this entry).
fn cured_problems(i: usize, record: &RecordFile, pc: &PcRecord, c: &CorePc) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (j, cured) in pc.cured.iter().enumerate() {
        let has = c.sheet.conditions.iter().any(|x| x == cured) || pc.conditions.contains(cured);
        if !has {
            out.push(
                record
                    .at_pc(
                        i,
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
    out
}

/// An ability of a sheet by name.
fn ability_of(sheet: &Sheet, name: &str) -> Option<i64> {
    match name {
        "STR" => Some(sheet.STR),
        "AGI" => Some(sheet.AGI),
        "WIT" => Some(sheet.WIT),
        _ => None,
    }
}

/// A mutation slip given twice in a record, or naming a mutation the PC
/// already has: a mutation is gained once (the GM rolls another).
fn mutation_twice(
    s: &SessionInput,
    i: usize,
    j: usize,
    record: &RecordFile,
    pc: &PcRecord,
    now: Option<&CorePc>,
) -> Option<Diagnostic> {
    let item = &pc.mutations[j];
    let at = |message: String| {
        record
            .at_pc(i, "mutations", Some(j), message)
            .with_hint("a mutation is gained once: write \"roll\" for another, or leave it out")
    };
    if pc.mutations[..j].contains(item) {
        return Some(at(format!("mutation slip `{item}` is listed twice")));
    }
    let slip = s
        .pack
        .as_ref()?
        .mutations
        .iter()
        .find(|m| &m.address == item)?;
    let had = now?
        .mutations
        .iter()
        .find(|t| slip.item.gained.iter().any(|g| g.name == t.name))?;
    Some(at(format!(
        "{} already has {} (session {}): mutation slip `{item}` would give it twice",
        pc.name, had.name, had.session
    )))
}
