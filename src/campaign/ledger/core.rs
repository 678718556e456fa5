//! The Core Rules in the ledger: a PC's record (conditions, lowered
//! abilities, injuries, mutations, damage, corruption and its soulblight
//! check); what happens between sessions is [`super::full_rest`].

use super::{Change, PackFacts, Start, change, fate, record_path, record_stream, rule};
use crate::campaign::record::{PcRecord, ROLL};
use crate::campaign::state::{Abilities, CorePc, State, Taken};
use crate::generators::sheet::Change as SheetChange;
use crate::generators::{Address, Generator, injury, mutation};
use crate::rules::core_d20::{Harm, Sheet, suffer_corruption};
use crate::seed::DieSource;

/// Apply `[[pc]]` entry `entry` to PC `k` in session `n`: one step per
/// key, in this order, the soulblight check last.
pub(super) fn pc_record(
    start: &Start,
    state: &mut State,
    k: usize,
    n: u32,
    pack: &PackFacts,
    entry: &PcRecord,
    changes: &mut Vec<Change>,
) {
    let name = state.pcs[k].name.clone();
    let Some(c) = state.pcs[k].core.as_mut() else {
        return;
    };
    cure(c, &name, &entry.cured, changes);
    condition(c, &name, &entry.conditions, changes);
    lower(c, &name, entry, changes);
    injuries(start, c, &name, n, pack, &entry.injuries, changes);
    mutations(start, c, &name, n, pack, &entry.mutations, changes);
    super::omens::spend(c, &name, entry.omens, changes);
    damage(c, &name, entry.damage, changes);
    if entry.corruption > 0 && soulblight(start, c, &name, n, entry.corruption, changes) {
        fate::die(
            start,
            state,
            k,
            n,
            true,
            "died of soulblight (no omen left to cheat death)",
            rule::DEATH,
            changes,
        );
    }
}

/// `cured`: conditions that ended.
fn cure(c: &mut CorePc, name: &str, cured: &[String], changes: &mut Vec<Change>) {
    for cured in cured {
        c.sheet.conditions.retain(|x| x != cured);
        c.permanent.retain(|x| x != cured);
        changes.push(change(
            name,
            format!("condition ended: {cured}"),
            rule::RECORD,
        ));
    }
}

/// `conditions`: conditions gained, until a full rest.
fn condition(c: &mut CorePc, name: &str, conditions: &[String], changes: &mut Vec<Change>) {
    for cond in conditions {
        if !c.sheet.conditions.contains(cond) {
            c.sheet.conditions.push(cond.clone());
        }
        changes.push(change(
            name,
            format!("condition: {cond} (until a full rest)"),
            rule::RECORD,
        ));
    }
}

/// `lowered`: abilities lowered until a full rest.
fn lower(c: &mut CorePc, name: &str, entry: &PcRecord, changes: &mut Vec<Change>) {
    for (ability, by) in &entry.lowered {
        if let Some(score) = c.sheet.ability_mut(ability) {
            let before = *score;
            *score = (before - by).max(0);
            let after = *score;
            c.sheet.settle_health();
            changes.push(change(
                name,
                format!("{ability} {before} → {after} until a full rest"),
                rule::ABILITY,
            ));
        }
    }
}

/// `injuries`: each a slip of the pack, a row of the injury table by
/// name, or rolled.
fn injuries(
    start: &Start,
    c: &mut CorePc,
    name: &str,
    n: u32,
    pack: &PackFacts,
    items: &[String],
    changes: &mut Vec<Change>,
) {
    for (j, item) in items.iter().enumerate() {
        let made = if item == ROLL {
            rolled_injury(start, n, name, "injuries", j, None, false)
                .map(|i| (i, "rolled from the record".to_owned()))
        } else if let Some(slip) = pack.injuries.iter().find(|s| &s.address == item) {
            Ok((slip.item.clone(), format!("{item} of session {n}")))
        } else {
            rolled_injury(start, n, name, "injuries", j, Some(item.clone()), false)
                .map(|i| (i, "named in the record".to_owned()))
        };
        match made {
            Ok((injury, from)) => take_injury(c, name, n, &injury, from, changes),
            Err(e) => changes.push(change(
                name,
                format!("injury {item} not rolled: {e}"),
                rule::INJURY,
            )),
        }
    }
}

/// `mutations`: each a slip of the pack, or rolled.
fn mutations(
    start: &Start,
    c: &mut CorePc,
    name: &str,
    n: u32,
    pack: &PackFacts,
    items: &[String],
    changes: &mut Vec<Change>,
) {
    for (j, item) in items.iter().enumerate() {
        let made = if item == ROLL {
            rolled_mutation(start, &c.sheet, &record_path(n, name, "mutations", j))
                .map(|m| (m, "rolled from the record".to_owned()))
        } else if let Some(slip) = pack.mutations.iter().find(|s| &s.address == item) {
            Ok((slip.item.clone(), format!("{item} of session {n}")))
        } else {
            continue;
        };
        match made {
            Ok((m, from)) => take_mutation(c, name, n, &m, from, changes),
            Err(e) => changes.push(change(
                name,
                format!("mutation {item} not rolled: {e}"),
                rule::MUTATION,
            )),
        }
    }
}

/// `damage`: the session's total, taken over many blows — critical
/// damage, a mortal wound and instant death are each about damage taken
/// at once, so none of them is read from it.
fn damage(c: &mut CorePc, name: &str, damage: i64, changes: &mut Vec<Change>) {
    if damage > 0 {
        let before = c.health();
        let after = (before - damage).max(0);
        c.sheet.health = Some(after);
        changes.push(change(
            name,
            format!("health {before} → {after} ({damage} damage over the session)"),
            rule::DAMAGE,
        ));
    }
}

/// What a blow did, in words after the figures.
fn harm_words(harm: Harm) -> &'static str {
    match harm {
        Harm::None | Harm::Hurt => "",
        Harm::Critical => ": critical damage",
        Harm::MortalWound => ": a mortal wound",
        Harm::InstantDeath => ": enough to kill on the spot",
    }
}

/// Suffer `gained` corruption and roll the soulblight check (a d12 from
/// `record/<N>/<pc>/soulblight/0`); critical damage from it brings a
/// mutation, death an omen spent (health 1, a permanent injury) if one is
/// left. Returns whether the PC died.
fn soulblight(
    start: &Start,
    c: &mut CorePc,
    name: &str,
    n: u32,
    gained: i64,
    changes: &mut Vec<Change>,
) -> bool {
    let roll = i64::from(record_stream(&start.seed, n, name, "soulblight", 0).die(12));
    let health = c.health();
    let out = suffer_corruption(
        c.sheet.corruption,
        gained,
        roll,
        health,
        c.sheet.max_health(),
    );
    let total = out.before + out.gained;
    c.sheet.corruption = out.after;
    c.sheet.health = Some(out.health_after);
    let what = if out.soulblight {
        format!(
            "corruption {} + {} = {total}; soulblight check d12 = {roll}, at or under {total}: soulblight — \
             {} direct damage (health {health} → {}{}), corruption {total} → {}",
            out.before,
            out.gained,
            out.damage,
            out.health_after,
            harm_words(out.harm),
            out.after
        )
    } else {
        format!(
            "corruption {} + {} = {total}; soulblight check d12 = {roll}, above {total}: no soulblight",
            out.before, out.gained
        )
    };
    changes.push(change(name, what, rule::SOULBLIGHT));
    if out.mutation {
        let path = format!("{}/mutation", record_path(n, name, "soulblight", 0));
        match rolled_mutation(start, &c.sheet, &path) {
            Ok(m) => {
                let before = changes.len();
                take_mutation(c, name, n, &m, "soulblight".into(), changes);
                for ch in &mut changes[before..] {
                    ch.rule = rule::SOULBLIGHT_MUTATION.into();
                }
            }
            Err(e) => changes.push(change(
                name,
                format!("mutation not rolled: {e}"),
                rule::SOULBLIGHT_MUTATION,
            )),
        }
    }
    if matches!(out.harm, Harm::MortalWound | Harm::InstantDeath) {
        if c.sheet.omens > 0 {
            let omens = c.sheet.omens;
            c.sheet.omens -= 1;
            c.sheet.health = Some(1);
            changes.push(change(
                name,
                format!(
                    "spent an omen to cheat death: omens {omens} → {}, health 0 → 1",
                    omens - 1
                ),
                rule::OMEN_SAVE,
            ));
            let path = format!("{}/injury", record_path(n, name, "soulblight", 0));
            if let Ok(injury) = injury_at(start, &path, None, true) {
                let before = changes.len();
                take_injury(
                    c,
                    name,
                    n,
                    &injury,
                    "an omen spent to cheat death".into(),
                    changes,
                );
                for ch in &mut changes[before..] {
                    ch.rule = rule::OMEN_SAVE.into();
                }
            }
        } else {
            return true;
        }
    }
    false
}

/// An injury rolled for a record (`name`: a row pinned by its name).
fn rolled_injury(
    start: &Start,
    n: u32,
    pc: &str,
    field: &str,
    j: usize,
    name: Option<String>,
    permanent: bool,
) -> Result<injury::Injury, String> {
    injury_at(start, &record_path(n, pc, field, j), name, permanent)
}

/// The injury generator's first item under `<campaign seed>/<path>`.
fn injury_at(
    start: &Start,
    path: &str,
    name: Option<String>,
    permanent: bool,
) -> Result<injury::Injury, String> {
    let req = injury::Request {
        character: None,
        permanent,
        name,
    };
    req.make(
        start.library,
        &start.seed.join(path),
        &Address::new("injury", 0),
    )
    .map_err(|e| e.to_string())
}

/// The mutation generator's first item under `<campaign seed>/<path>`,
/// rolled for `sheet` (a curse on omens already 0 rolls again).
fn rolled_mutation(start: &Start, sheet: &Sheet, path: &str) -> Result<mutation::Mutation, String> {
    let req = mutation::Request {
        character: Some(sheet.clone()),
    };
    req.make(
        start.library,
        &start.seed.join(path),
        &Address::new("mutation", 0),
    )
    .map_err(|e| e.to_string())
}

/// Conditions `sheet::apply` adds for a lowered ability (`STR -2 until a
/// full rest`): the ledger keeps those as current below base instead.
fn ability_note(condition: &str) -> bool {
    ["STR ", "AGI ", "WIT "]
        .iter()
        .any(|a| condition.starts_with(a))
        && condition.ends_with("until a full rest")
}

/// The sheet's changes in words.
fn describe(list: &[SheetChange]) -> String {
    list.iter()
        .map(|ch| {
            if ch.before == ch.after || ch.what.contains(':') {
                ch.what.clone()
            } else {
                format!("{} ({} → {})", ch.what, ch.before, ch.after)
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// An injury taken: applied to the sheet; a permanent one moves the base
/// abilities and its conditions never clear.
fn take_injury(
    c: &mut CorePc,
    name: &str,
    n: u32,
    injury: &injury::Injury,
    from: String,
    changes: &mut Vec<Change>,
) {
    let before = Abilities::of(&c.sheet);
    let conditions_before = c.sheet.conditions.clone();
    let applied = injury.apply_to(&mut c.sheet);
    c.sheet.conditions.retain(|x| !ability_note(x));
    if injury.permanent {
        shift_base(c, before);
        for cond in &c.sheet.conditions {
            if !conditions_before.contains(cond) && !c.permanent.contains(cond) {
                c.permanent.push(cond.clone());
            }
        }
    }
    c.injuries.push(Taken {
        name: injury.name.clone(),
        text: injury.text.clone(),
        session: n,
        from: from.clone(),
        permanent: injury.permanent,
    });
    let effects = describe(&applied);
    changes.push(change(
        name,
        format!(
            "injury: {} ({from}){}{}",
            injury.name,
            if injury.permanent { ", for good" } else { "" },
            if effects.is_empty() {
                String::new()
            } else {
                format!(" — {effects}")
            }
        ),
        rule::INJURY,
    ));
}

/// A mutation gained: applied, every change for good.
fn take_mutation(
    c: &mut CorePc,
    name: &str,
    n: u32,
    m: &mutation::Mutation,
    from: String,
    changes: &mut Vec<Change>,
) {
    let before = Abilities::of(&c.sheet);
    let conditions_before = c.sheet.conditions.clone();
    let applied = match &m.character {
        Some(a) => {
            c.sheet = a.after.clone();
            a.changes.clone()
        }
        None => m.apply_to(&mut c.sheet),
    };
    c.sheet.settle_health();
    shift_base(c, before);
    for cond in &c.sheet.conditions {
        if !conditions_before.contains(cond) && !c.permanent.contains(cond) {
            c.permanent.push(cond.clone());
        }
    }
    for g in &m.gained {
        c.mutations.push(Taken {
            name: g.name.clone(),
            text: g.text.clone(),
            session: n,
            from: from.clone(),
            permanent: true,
        });
    }
    let names: Vec<&str> = m.gained.iter().map(|g| g.name.as_str()).collect();
    let effects = describe(&applied);
    changes.push(change(
        name,
        format!(
            "mutation: {} ({from}), for good{}",
            names.join(", "),
            if effects.is_empty() {
                String::new()
            } else {
                format!(" — {effects}")
            }
        ),
        rule::MUTATION,
    ));
}

/// A change for good: the base abilities move with the sheet.
fn shift_base(c: &mut CorePc, before: Abilities) {
    let after = Abilities::of(&c.sheet);
    c.base.STR += after.STR - before.STR;
    c.base.AGI += after.AGI - before.AGI;
    c.base.WIT += after.WIT - before.WIT;
}
