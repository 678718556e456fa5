//! Applying a table result's `effects` to a Core Rules character sheet,
//! within the rules' bounds: abilities never above the entry's `max` (15
//! for humans unless the entry allows more, never above 19) and never below
//! 0 (STR 0 is death, AGI 0 paralysis, WIT 0 a coma); health follows a
//! lowered STR down without counting as critical damage; armour value never
//! above 3. Dice in a change (`-d4`) use the very roll shown in the
//! result's text, so the sheet and the slip agree.

use serde::Serialize;

use super::inline_rolls;
use crate::content::Effect;
use crate::rules::core::{ABILITY_MAX, ARMOUR_MAX, HUMAN_MAX, Sheet};
use crate::tables::TableRoll;

/// One change made to a sheet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    /// What changed, in words (`maximum omens +1`).
    pub what: String,
    /// The value before.
    pub before: String,
    /// The value after.
    pub after: String,
    /// What the new value means, when it means something (`STR 0: the
    /// character dies`).
    pub note: Option<String>,
}

fn ability_note(name: &str, value: i64) -> Option<String> {
    (value == 0).then(|| {
        match name {
            "STR" => "STR 0: the character dies",
            "AGI" => "AGI 0: the character is paralysed",
            _ => "WIT 0: the character falls into a coma",
        }
        .to_owned()
    })
}

/// Apply every effect of one table result (not its sub-results).
/// `condition_for` may rename a condition (the other arm, blind…).
pub fn apply(
    sheet: &mut Sheet,
    result: &TableRoll,
    condition_for: &dyn Fn(&Sheet, &str) -> String,
) -> Vec<Change> {
    let mut changes = Vec::new();
    let mut used: Used = Default::default();
    for effect in &result.effects {
        changes.extend(apply_one(sheet, result, effect, &mut used, condition_for));
    }
    changes
}

type Used = std::collections::BTreeMap<String, usize>;

fn apply_one(
    sheet: &mut Sheet,
    result: &TableRoll,
    e: &Effect,
    used: &mut Used,
    condition_for: &dyn Fn(&Sheet, &str) -> String,
) -> Vec<Change> {
    let mut out = Vec::new();
    let lasting = match e.lasts.as_deref() {
        Some("permanent") => "permanently",
        Some("until full rest") => "until a full rest",
        _ => "",
    };
    if let (Some(name), Some(change)) = (&e.ability, &e.change) {
        out.extend(change_ability(
            sheet, result, e, name, change, lasting, used,
        ));
    }
    if let Some(c) = &e.condition {
        let named = condition_for(sheet, c);
        out.push(add_to(
            &mut sheet.conditions,
            &named,
            format!("condition: {named} {lasting}").trim().to_owned(),
        ));
    }
    if let Some(v) = &e.trait_ {
        out.push(add_to(&mut sheet.traits, v, format!("trait: {v}")));
    }
    if let Some(v) = &e.skill {
        out.push(add_to(&mut sheet.skills, v, format!("skill: {v}")));
    }
    if let Some(d) = e.omens_max {
        let before = sheet.max_omens;
        sheet.max_omens = (sheet.max_omens + d).max(0);
        sheet.omens = sheet.omens.min(sheet.max_omens);
        out.push(Change {
            what: format!("maximum omens {d:+}"),
            before: before.to_string(),
            after: sheet.max_omens.to_string(),
            note: None,
        });
    }
    if let Some(a) = e.armour {
        let before = sheet.armour;
        sheet.armour = (sheet.armour + a).clamp(0, ARMOUR_MAX);
        out.push(Change {
            what: format!("armour value {a:+} (never above {ARMOUR_MAX})"),
            before: before.to_string(),
            after: sheet.armour.to_string(),
            note: None,
        });
    }
    if let Some(d) = &e.damage {
        let natural = format!("natural weapon: {} ({d})", result.row.to_lowercase());
        out.push(add_to(&mut sheet.traits, &natural, natural.clone()));
    }
    out
}

/// Add `item` to a list of the sheet (once), as the change `what`.
fn add_to(list: &mut Vec<String>, item: &str, what: String) -> Change {
    let before = list.join(", ");
    if !list.iter().any(|x| x == item) {
        list.push(item.to_owned());
    }
    Change {
        what,
        before,
        after: list.join(", "),
        note: None,
    }
}

/// Raise, lower or halve an ability, within the entry's ceiling and 0; a
/// change until a full rest is also noted as a condition, and health
/// follows STR.
fn change_ability(
    sheet: &mut Sheet,
    result: &TableRoll,
    e: &Effect,
    name: &str,
    change: &str,
    lasting: &str,
    used: &mut Used,
) -> Option<Change> {
    // An entry's 15 is the human limit: other kinds go on to their own.
    let cap = match e.max {
        Some(m) if m == HUMAN_MAX => sheet.ability_cap(),
        Some(m) => m,
        None => sheet.ability_cap(),
    }
    .min(ABILITY_MAX);
    let score = sheet.ability_mut(name)?;
    let before = *score;
    let after = if change == "halve" {
        (before + 1).div_euclid(2)
    } else {
        let amount = amount(change, result, used);
        if change.trim_start().starts_with('+') {
            // An increase stops at the entry's ceiling, and never
            // lowers a score that is already above it.
            (before + amount).min(cap).max(before)
        } else {
            (before - amount).max(0)
        }
    };
    *score = after;
    if lasting == "until a full rest" && after != before {
        sheet
            .conditions
            .push(format!("{name} {} until a full rest", after - before));
    }
    sheet.settle_health();
    Some(Change {
        what: format!("{name} {change} {lasting}").trim().to_owned(),
        before: before.to_string(),
        after: after.to_string(),
        note: ability_note(name, after),
    })
}

/// How much a change (`+2`, `-d4`) moves a score: a number, or the result
/// of the matching inline roll in the result's text.
fn amount(change: &str, result: &TableRoll, used: &mut Used) -> i64 {
    let body = change.trim().trim_start_matches(['+', '-']);
    if !body.contains('d') {
        return body.parse().unwrap_or(0);
    }
    let k = used.entry(body.to_owned()).or_insert(0);
    let rolls = inline_rolls(result, body);
    // Two changes written with one roll in the text ("STR and AGI drop by
    // {d4}") share that roll.
    let v = rolls.get(*k).or(rolls.last()).copied().unwrap_or(0);
    *k += 1;
    v
}
