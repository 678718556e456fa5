//! The record's `[[joined]]` PCs: each read as the system's stat block
//! or sheet, legal by the rules, and named apart from every PC the
//! campaign has had.

use crate::campaign::ledger::Start;
use crate::campaign::record::RecordFile;
use crate::campaign::state::{CorePc, MettlePc, PcRules, PcState, Presence, State};
use crate::diagnostic::Diagnostic;
use crate::input::Step;
use crate::rules::core::{self, Sheet};
use crate::rules::mettle::{self, StatBlock};
use crate::rules::{Flaw, RulesSystem};

/// The `[[joined]]` PCs as the system's stat blocks or sheets, each legal.
pub(in crate::campaign::ledger) fn joined(
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
        let (pc, flaws) = match read(start.system, table, n) {
            Ok(read) => read,
            Err((what, e, entries)) => {
                problems.push(
                    at(
                        None,
                        None,
                        format!("[[joined]] {}: not a {what}: {}", i + 1, e.trim()),
                    )
                    .with_hint(format!(
                        "a joining PC is written as in party files' [[{entries}]] entries"
                    )),
                );
                continue;
            }
        };
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
        let taken = state.pc(&pc.name).is_some()
            || out
                .iter()
                .any(|p: &PcState| p.name.eq_ignore_ascii_case(&pc.name));
        if taken {
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

/// One `[[joined]]` table as the system's PC, with its flaws by the
/// rules; or what it is not (`Core Rules sheet`), serde's words, and the
/// party file's entries it is written as.
fn read(
    system: RulesSystem,
    table: &toml::Table,
    n: u32,
) -> Result<(PcState, Vec<Flaw>), (&'static str, String, &'static str)> {
    let value = toml::Value::Table(table.clone());
    match system {
        RulesSystem::Core => match value.try_into::<Sheet>() {
            Ok(sheet) => {
                let flaws = core::sheet_flaws(&sheet);
                let pc = pc_of(sheet.name.clone(), n, PcRules::Core(CorePc::new(sheet)));
                Ok((pc, flaws))
            }
            Err(e) => Err(("Core Rules sheet", e.message().to_owned(), "core")),
        },
        RulesSystem::Mettle => match value.try_into::<StatBlock>() {
            Ok(block) => {
                let flaws = mettle::block_flaws(&block);
                let pc = pc_of(block.name.clone(), n, PcRules::Mettle(MettlePc::new(block)));
                Ok((pc, flaws))
            }
            Err(e) => Err(("METTLE stat block", e.message().to_owned(), "mettle")),
        },
    }
}

fn pc_of(name: String, n: u32, rules: PcRules) -> PcState {
    PcState {
        name,
        presence: Presence::Present,
        gone_in: None,
        joined_in: n,
        rules,
    }
}
