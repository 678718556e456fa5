//! A `[[pc]]` entry of a record: the PC in the party and given once,
//! only its own system's keys, its figures in range; METTLE's statuses,
//! cures and healer here, the Core Rules' in [`super::core_pc`].

use super::core_pc;
use crate::campaign::ledger::{SessionInput, Start};
use crate::campaign::record::{Fate, PcRecord, RecordFile};
use crate::campaign::state::{PcState, Presence, State};
use crate::content::validate::closest;
use crate::diagnostic::Diagnostic;
use crate::rules::RulesSystem;
use crate::rules::mettle;

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
const METTLE_KEYS: [&str; 6] = [
    "statuses",
    "heal_edge",
    "heal_twist",
    "healer",
    "hungry",
    "thirsty",
];

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
        "hungry" => pc.hungry.is_some(),
        "thirsty" => pc.thirsty.is_some(),
        _ => false,
    }
}

/// Every problem of `[[pc]]` entry `i`: a PC of the party, given once,
/// with its own system's keys and figures in range; then the system's
/// own checks.
pub(super) fn pc_problems(
    start: &Start,
    state: &State,
    s: &SessionInput,
    record: &RecordFile,
    i: usize,
    pc: &PcRecord,
    joined: &[String],
) -> Vec<Diagnostic> {
    if let Some(d) = not_in_party(state, record, i, pc, joined) {
        return vec![d];
    }
    let mut out = Vec::new();
    out.extend(twice(record, i, pc));
    out.extend(other_system_keys(start.system, record, i, pc));
    out.extend(figures(record, i, pc));
    let now = state.pc(&pc.name);
    if start.system == RulesSystem::Core {
        out.extend(core_pc::problems(
            start,
            s,
            i,
            record,
            pc,
            now.and_then(|p| p.core()),
        ));
    } else {
        out.extend(mettle_pc_problems(state, i, record, pc, now, joined));
    }
    out
}

/// `name`: a PC of the party (present, or joined in this record).
fn not_in_party(
    state: &State,
    record: &RecordFile,
    i: usize,
    pc: &PcRecord,
    joined: &[String],
) -> Option<Diagnostic> {
    let party: Vec<&str> = state
        .present()
        .map(|p| p.name.as_str())
        .chain(joined.iter().map(String::as_str))
        .collect();
    if party.iter().any(|p| p.eq_ignore_ascii_case(pc.name.trim())) {
        return None;
    }
    Some(match state.pc(&pc.name) {
        Some(gone) => record
            .at_pc(
                i,
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
        None => record
            .at_pc(i, "name", None, format!("{} is not in the party", pc.name))
            .with_suggestion(closest(&pc.name, party.iter().copied()).map(str::to_owned))
            .with_hint(format!("the party is {}", party.join(", "))),
    })
}

/// A PC with an entry before this one.
fn twice(record: &RecordFile, i: usize, pc: &PcRecord) -> Option<Diagnostic> {
    record.record.pcs[..i]
        .iter()
        .any(|o| o.name.trim().eq_ignore_ascii_case(pc.name.trim()))
        .then(|| {
            record
                .at_pc(
                    i,
                    "name",
                    None,
                    format!("{} has two [[pc]] entries", pc.name),
                )
                .with_hint("put everything that happened to a PC in one entry")
        })
}

/// Keys only the other system's records have.
fn other_system_keys(
    system: RulesSystem,
    record: &RecordFile,
    i: usize,
    pc: &PcRecord,
) -> Vec<Diagnostic> {
    let (other, name) = match system {
        RulesSystem::Core => (&METTLE_KEYS[..], "the Core Rules"),
        RulesSystem::Mettle => (&CORE_KEYS[..], "METTLE"),
    };
    other
        .iter()
        .filter(|key| given(pc, key))
        .map(|key| {
            record
                .at_pc(
                    i,
                    key,
                    None,
                    format!("`{key}` is not a key of {name} records"),
                )
                .with_hint(format!("this campaign plays {name}; remove the line"))
        })
        .collect()
}

/// `damage`, `corruption` and `remains`: in range, and `remains` with a
/// death.
fn figures(record: &RecordFile, i: usize, pc: &PcRecord) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let at =
        |key: &str, index: Option<usize>, message: String| record.at_pc(i, key, index, message);
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
    out
}

/// A METTLE `[[pc]]` entry: its statuses, cures, Heal and healer.
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
    if let Some(m) = now.and_then(|p| p.mettle()) {
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
    out.extend(crate::campaign::ledger::heal::record_problems(
        record, i, pc,
    ));
    out.extend(fasting_problem(record, i, pc, now));
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

/// `hungry` and `thirsty`: days that put a living PC's Difficulty past
/// their best CALLING would have killed them (Scenes, Status: Hungry and
/// Thirsty), so the record says `fate = "dead"` or fewer days.
fn fasting_problem(
    record: &RecordFile,
    i: usize,
    pc: &PcRecord,
    now: Option<&PcState>,
) -> Option<Diagnostic> {
    let m = now?.mettle()?;
    if pc.fate.is_some() || (pc.hungry.is_none() && pc.thirsty.is_none()) {
        return None;
    }
    let hungry = pc.hungry.unwrap_or(m.hungry);
    let thirsty = pc.thirsty.unwrap_or(m.thirsty);
    let (difficulty, calling) =
        crate::campaign::ledger::want::past_calling(&m.block, hungry, thirsty)?;
    let key = if pc.thirsty.is_some() {
        "thirsty"
    } else {
        "hungry"
    };
    Some(
        record
            .at_pc(
                i,
                key,
                None,
                format!(
                    "{} would have died of it: {hungry} days without food and {thirsty} without water are +{difficulty} Difficulty, past their best CALLING ({calling}D)",
                    pc.name
                ),
            )
            .with_hint("give the days as the journey log's last rest says them, or `fate = \"dead\"`"),
    )
}
