//! A row's structured data against the table's rules: each effect (the
//! abilities it names, its change and clamp, durations, hazards, damage,
//! chances and numbers in range) and an NPC stat block (ability ranges,
//! pools, armour, omens, weapon DM).

use super::{Spot, parse_range, suggest};
use crate::content::schema::{Effect, Stats, System};
use crate::diagnostic::Diagnostic;
use crate::dice::ast::{Expr, Pool};
use crate::dice::{self};
use crate::rules::core::{ABILITY_MAX as CORE_MAX, HUMAN_MAX};
use crate::rules::mettle::ATTRIBUTES as METTLE_ATTRIBUTES;

const CORE_ABILITIES: [&str; 3] = ["STR", "AGI", "WIT"];
const LASTS: [&str; 8] = [
    "instant",
    "round",
    "stretch",
    "scene",
    "watch",
    "until full rest",
    "permanent",
    "ongoing",
];

/// Problems found in one effect or stat block, all pointing at its start.
struct Found<'a, 'p> {
    spot: Spot<'a>,
    at: usize,
    problems: &'p mut Vec<Diagnostic>,
}

impl Found<'_, '_> {
    fn push(&mut self, message: String, hint: impl Into<String>) {
        let d = self.spot.at(self.at, 1, message, hint);
        self.problems.push(d);
    }
}

fn abilities_for(system: System) -> Vec<&'static str> {
    match system {
        System::Core => CORE_ABILITIES.to_vec(),
        System::Mettle => METTLE_ATTRIBUTES.to_vec(),
        _ => CORE_ABILITIES
            .iter()
            .chain(METTLE_ATTRIBUTES.iter())
            .copied()
            .collect(),
    }
}

/// Every problem in one effect of a row.
pub(super) fn check_effect(
    spot: Spot,
    system: System,
    at: usize,
    e: &Effect,
    problems: &mut Vec<Diagnostic>,
) {
    let mut found = Found { spot, at, problems };
    ability_names(&mut found, system, e);
    if let Some(change) = &e.change {
        check_change(&mut found, system, e, change);
    }
    if let Some(l) = &e.lasts
        && !LASTS.contains(&l.as_ref())
    {
        found.push(
            format!("`lasts = \"{l}\"` is not a known duration"),
            format!("use one of: {}", LASTS.join(", ")),
        );
    }
    if let Some(d) = e.difficulty
        && d < 0
    {
        found.push(
            format!("`difficulty = {d}` is below 0"),
            "Difficulties are 0 or more (1 Routine … 15 Nigh Impossible)",
        );
    }
    effect_rolls(&mut found, e);
    effect_numbers(&mut found, system, e);
}

/// `ability`, `vs` and `save` must name abilities of the table's rules.
fn ability_names(found: &mut Found, system: System, e: &Effect) {
    let known = abilities_for(system);
    // ACS has its own statistics (AG, ST, Defence…): there `vs` and `save`
    // name what a modifier applies to, in the chapter's words.
    let own_stats = matches!(system, System::Acs | System::Cp);
    for (what, name) in [("ability", &e.ability), ("vs", &e.vs), ("save", &e.save)] {
        if what != "ability" && own_stats {
            continue;
        }
        if let Some(a) = name
            && !known.contains(&a.as_ref())
        {
            let suggestion = suggest(a, known.iter().copied());
            // After a "did you mean `x`?" the list starts a new sentence.
            let lead = if suggestion.is_some() { "The" } else { "the" };
            found.push(
                format!(
                    "`{what} = \"{a}\"` is not an ability of the {} rules",
                    system.as_str()
                ),
                format!(
                    "{lead} {} abilities are {}",
                    system.as_str(),
                    known.join(", ")
                ),
            );
            let last = found.problems.last_mut().expect("just pushed");
            last.suggestion = suggestion;
        }
    }
}

/// `change` must be a signed roll or `halve`, name its ability, and say how
/// an increase clamps.
fn check_change(found: &mut Found, system: System, e: &Effect, change: &str) {
    let increase = change.trim_start().starts_with('+');
    if change != "halve" {
        let trimmed = change.trim();
        let body = trimmed.get(1..).unwrap_or("");
        let signed = trimmed.starts_with(['+', '-']) && !body.starts_with(['+', '-']);
        if !(signed && matches!(dice::parse(body), Ok(Expr::Roll(_)))) {
            found.push(
                format!("`change = \"{change}\"` is not a signed roll or `halve`"),
                "write \"-d4\", \"+d4\", \"+1\", \"-1\" or \"halve\"",
            );
        }
    }
    if e.ability.is_none() {
        found.push(
            format!("`change = \"{change}\"` without an `ability`"),
            "say which ability changes, e.g. ability = \"STR\"",
        );
    }
    if !increase {
        return;
    }
    match e.max {
        None => found.push(
            format!(
                "`change = \"{change}\"` could push {} past its bounds, and the row does not say how it clamps",
                e.ability.as_deref().unwrap_or("the ability")
            ),
            "add `max = 15` (the human limit) or `max = 19` (the absolute limit), as the rule says",
        ),
        Some(m) if system == System::Core && !(1..=CORE_MAX).contains(&m) => found.push(
            format!("`max = {m}`: Core Rules abilities never exceed {CORE_MAX}"),
            "use 15 for humans or 19 at most",
        ),
        _ => {}
    }
}

/// Hazards, caps, damage and chances must be dice of the right kind.
fn effect_rolls(found: &mut Found, e: &Effect) {
    for (what, h) in [("hazard", &e.hazard), ("cap", &e.cap)] {
        if let Some(h) = h {
            let ok = matches!(dice::parse(h), Ok(Expr::Pool(Pool { extra: 0, difficulty: None, raises: 0, twist: false, ref team, .. })) if team.is_empty());
            if !ok {
                found.push(
                    format!("`{what} = \"{h}\"` is not a hazard in Pool+Bonus form"),
                    "write a pool and a bonus like \"3D+3\" or \"5D\" (uppercase D, no die size)",
                );
            }
        }
    }
    if let Some(d) = &e.damage
        && !matches!(dice::parse(d), Ok(Expr::Roll(_)))
    {
        found.push(
            format!("`damage = \"{d}\"` is not a roll"),
            "write a damage roll such as \"d6\" or \"d6!\"",
        );
    }
    if let Some(c) = &e.chance
        && !matches!(dice::parse(c), Ok(Expr::Chance(_)))
    {
        found.push(
            format!("`chance = \"{c}\"` is not an x:y chance"),
            "write it like \"1:8\"",
        );
    }
}

/// Armour, omens, rations and minimum damage within their rules' range.
fn effect_numbers(found: &mut Found, system: System, e: &Effect) {
    if let Some(a) = e.armour
        && system == System::Core
        && !(0..=3).contains(&a)
    {
        found.push(
            format!("`armour = {a}`: the Core Rules cap armour value at 3"),
            "use 0 to 3",
        );
    }
    if let Some(o) = e.omens_max
        && !(-2..=2).contains(&o)
    {
        found.push(
            format!("`omens_max = {o}`: omens run from 0 to 2"),
            "use -2 to 2",
        );
    }
    for (what, v) in [("rations", e.rations), ("min_damage", e.min_damage)] {
        if let Some(v) = v
            && v < 0
        {
            found.push(format!("`{what} = {v}` is negative"), "use 0 or more");
        }
    }
}

/// Every problem in a row's NPC stat block.
pub(super) fn check_stats(
    spot: Spot,
    system: System,
    at: usize,
    s: &Stats,
    tags: &[String],
    problems: &mut Vec<Diagnostic>,
) {
    let mut found = Found { spot, at, problems };
    stat_ranges(&mut found, system, s, tags);
    if let Some(d) = &s.damage
        && !["d4", "d6", "d8", "d10", "d12"].contains(&d.as_ref())
    {
        found.push(
            format!("`damage = \"{d}\"` is not a Core Rules damage die"),
            "use d4, d6, d8, d10 or d12",
        );
    }
    let armor_max = if system == System::Mettle { 6 } else { 3 };
    if let Some(a) = s.armor
        && !(0..=armor_max).contains(&a)
    {
        found.push(
            format!("`armor = {a}` is outside 0-{armor_max}"),
            if armor_max == 3 {
                "armour value never exceeds 3"
            } else {
                "METTLE Armor on a stat block runs 0-6"
            },
        );
    }
    if let Some(o) = s.omens
        && !(0..=2).contains(&o)
    {
        found.push(
            format!("`omens = {o}` is outside 0-2"),
            "most GM characters have 0 omens, important ones 1 or 2",
        );
    }
    if let Some(dm) = s.dm
        && !(0..=10).contains(&dm)
    {
        found.push(
            format!("`dm = {dm}` is outside 0-10"),
            "weapon DM is a small bonus added to Edge",
        );
    }
}

/// Ability ranges and pools: within their rules' bounds, and only the
/// table's rules' own.
fn stat_ranges(found: &mut Found, system: System, s: &Stats, tags: &[String]) {
    let human = tags.iter().any(|t| t == "human" || t == "townsfolk");
    let core_cap = if human { HUMAN_MAX } else { CORE_MAX };
    let core = [("STR", &s.STR), ("AGI", &s.AGI), ("WIT", &s.WIT)];
    let mettle = [
        ("NATURE", &s.NATURE),
        ("CULTURE", &s.CULTURE),
        ("POISE", &s.POISE),
        ("MOTIVE", &s.MOTIVE),
        ("FRAME", &s.FRAME),
    ];
    let within = |v: &str, cap: i64| parse_range(v).is_some_and(|(a, b)| a >= 1 && b <= cap);
    for (name, v) in core {
        if let Some(v) = v
            && !within(v, core_cap)
        {
            found.push(
                format!(
                    "`{name} = \"{v}\"` is outside 1-{core_cap}{}",
                    if human { " (humans)" } else { "" }
                ),
                "Core Rules abilities run 1-19, humans at most 15; write a range like \"8-12\"",
            );
        }
    }
    for (name, v) in mettle {
        if let Some(v) = v
            && !within(v, 12)
        {
            found.push(
                format!("`{name} = \"{v}\"` is not a pool range within 1-12"),
                "write a range of dice like \"2-4\"",
            );
        }
    }
    if system == System::Core && mettle.iter().any(|(_, v)| v.is_some()) {
        found.push(
            "a Core Rules archetype with METTLE pools".into(),
            "core archetypes use STR, AGI and WIT",
        );
    }
    if system == System::Mettle && core.iter().any(|(_, v)| v.is_some()) {
        found.push(
            "a METTLE archetype with Core Rules abilities".into(),
            "METTLE archetypes use NATURE, CULTURE, POISE, MOTIVE and FRAME",
        );
    }
}
