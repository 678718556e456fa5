//! Omens spent in play (Core Rules, Omens): a `[[pc]]` entry's `omens`,
//! checked against the omens the PC has and taken off their sheet. Spent
//! omens come back with a full rest ([`super::full_rest`]'s `restore`), and an
//! omen the ledger spends to cheat death from soulblight is one the PC
//! still has after those spent at the table.

use super::{Change, change, rule};
use crate::campaign::record::{PcRecord, RecordFile};
use crate::campaign::state::{CorePc, PcState, State};
use crate::diagnostic::Diagnostic;

/// The problems of `[[pc]]` entry `i`'s `omens`: never negative, never
/// more than the PC has at the start of the session (`joined`: PCs who
/// joined in it, with the omens of their sheets).
pub(super) fn problems(
    state: &State,
    joined: &[PcState],
    record: &RecordFile,
    i: usize,
    pc: &PcRecord,
) -> Vec<Diagnostic> {
    let at = |message: String| record.at_pc(i, "omens", None, message);
    if pc.omens < 0 {
        return vec![
            at(format!(
                "omens = {}: omens spent are never negative",
                pc.omens
            ))
            .with_hint(
                "write how many omens the PC spent in the session, 0 or more; a full rest brings them back",
            ),
        ];
    }
    let name = pc.name.trim();
    let sheet = state
        .pc(name)
        .filter(|p| p.is_present())
        .or_else(|| joined.iter().find(|p| p.name.eq_ignore_ascii_case(name)))
        .and_then(|p| p.core())
        .map(|c| &c.sheet);
    match sheet {
        Some(s) if pc.omens > s.omens => vec![
            at(format!(
                "omens = {}, but {} has {} of {} at the start of session {}",
                pc.omens,
                pc.name.trim(),
                count(s.omens),
                s.max_omens,
                record.record.session
            ))
            .with_hint(format!(
                "a PC spends only the omens they have (at most {}); a full rest brings them back to the maximum",
                s.omens
            )),
        ],
        _ => Vec::new(),
    }
}

/// `1 omen`, `2 omens`.
fn count(n: i64) -> String {
    crate::generators::count(n, "omen", "omens")
}

/// Spend `spent` omens (checked: at most those the PC has) off PC
/// `name`'s sheet.
pub(super) fn spend(c: &mut CorePc, name: &str, spent: i64, changes: &mut Vec<Change>) {
    if spent <= 0 {
        return;
    }
    let before = c.sheet.omens;
    c.sheet.omens = (before - spent).max(0);
    changes.push(change(
        name,
        format!(
            "omens {before} → {} ({} spent in play)",
            c.sheet.omens,
            count(spent)
        ),
        rule::OMENS_SPENT,
    ));
}
