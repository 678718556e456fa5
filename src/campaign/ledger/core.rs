//! The Core Rules in the ledger: a PC's record (conditions, lowered
//! abilities, injuries, mutations, damage, corruption and its soulblight
//! check); what happens between sessions is [`super::full_rest`].

use super::{Change, PackFacts, Slip, Start, change, fate, record_path, record_stream, rule};
use crate::campaign::record::{PcRecord, ROLL};
use crate::campaign::state::{Abilities, CorePc, State, Taken};
use crate::generators::sheet::Change as SheetChange;
use crate::generators::{Address, Generator, injury, mutation};
use crate::rules::core::{Harm, Sheet, suffer_corruption};
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
    let Some(c) = state.pcs[k].core_mut() else {
        return;
    };
    cure(c, &name, &entry.cured, changes);
    condition(c, &name, &entry.conditions, changes);
    lower(c, &name, entry, changes);
    slips(start, c, &name, n, &entry.injuries, &pack.injuries, changes);
    slips(
        start,
        c,
        &name,
        n,
        &entry.mutations,
        &pack.mutations,
        changes,
    );
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

/// `injuries` and `mutations`: each item a slip of the pack by its
/// address, [`ROLL`] rolled, or a row of the table by name (injuries
/// only); taken in order, each rolled for the PC as the items before it
/// left them. A roll that fails is said, not taken.
fn slips<T: Slipped>(
    start: &Start,
    c: &mut CorePc,
    name: &str,
    n: u32,
    items: &[String],
    slips: &[Slip<T>],
    changes: &mut Vec<Change>,
) {
    for (j, item) in items.iter().enumerate() {
        let path = record_path(n, name, T::FIELD, j);
        let made = if item == ROLL {
            T::roll(start, &c.sheet, &path, None)
                .map(|r| r.map(|t| (t, "rolled from the record".to_owned())))
        } else if let Some(slip) = slips.iter().find(|s| &s.address == item) {
            Some(Ok((slip.item.clone(), format!("{item} of session {n}"))))
        } else {
            T::roll(start, &c.sheet, &path, Some(item))
                .map(|r| r.map(|t| (t, "named in the record".to_owned())))
        };
        match made {
            None => {}
            Some(Ok((t, from))) => t.take(c, name, n, from, changes),
            Some(Err(e)) => changes.push(change(
                name,
                format!("{} {item} not rolled: {e}", T::WORD),
                T::RULE,
            )),
        }
    }
}

/// An injury or a mutation, as a `[[pc]]` entry's list names it.
trait Slipped: Clone {
    /// The entry's key (`injuries`).
    const FIELD: &'static str;
    /// The kind in a refusal (`injury`), and the rule it is said under.
    const WORD: &'static str;
    const RULE: &'static str;
    /// One rolled under `<campaign seed>/<path>` for `sheet` (`row`: the
    /// row the record names; `None` when the kind has no rows by name).
    fn roll(
        start: &Start,
        sheet: &Sheet,
        path: &str,
        row: Option<&str>,
    ) -> Option<Result<Self, String>>;
    /// The PC takes it.
    fn take(&self, c: &mut CorePc, pc: &str, n: u32, from: String, changes: &mut Vec<Change>);
}

impl Slipped for injury::Injury {
    const FIELD: &'static str = "injuries";
    const WORD: &'static str = "injury";
    const RULE: &'static str = rule::INJURY;

    fn roll(
        start: &Start,
        _: &Sheet,
        path: &str,
        row: Option<&str>,
    ) -> Option<Result<Self, String>> {
        Some(injury_at(start, path, row.map(str::to_owned), false))
    }

    fn take(&self, c: &mut CorePc, pc: &str, n: u32, from: String, changes: &mut Vec<Change>) {
        take_injury(c, pc, n, self, from, changes);
    }
}

impl Slipped for mutation::Mutation {
    const FIELD: &'static str = "mutations";
    const WORD: &'static str = "mutation";
    const RULE: &'static str = rule::MUTATION;

    /// The mutation table has no rows by name: a word that is no slip is
    /// passed over.
    fn roll(
        start: &Start,
        sheet: &Sheet,
        path: &str,
        row: Option<&str>,
    ) -> Option<Result<Self, String>> {
        row.is_none().then(|| rolled_mutation(start, sheet, path))
    }

    fn take(&self, c: &mut CorePc, pc: &str, n: u32, from: String, changes: &mut Vec<Change>) {
        take_mutation(c, pc, n, self, from, changes);
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
