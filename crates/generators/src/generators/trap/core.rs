//! Core Rules traps, our reading (the chapter has none): a trigger and a
//! clue from the shared tables and an effect from `gen.trap.core.effect`.
//! Whoever sets it off saves (d20 at or under the ability named); a
//! failure takes the effect's damage (exploding, after armour unless
//! direct) and/or its condition. The odds are, for each score the party
//! has in that ability, the chance to fail the save and the damage rolled
//! on a failure.

use super::parts::Place;
use super::{Abilities, Source, Trap, TrapOdds};
use crate::content::{Effect, owned};
use crate::dice::ast::Expr;
use crate::dice::odds::OddsDetail;
use crate::dice::{self};
use crate::generators::GenError;
use crate::rules::RulesSystem;
use crate::rules::core::{ABILITY_MAX, save_passes};

/// The abilities a save can name.
const ABILITIES: [&str; 3] = ["STR", "AGI", "WIT"];

/// A Core Rules trap at `at`, with save odds for each of the party's
/// scores in the save's ability.
pub(super) fn trap(
    place: &Place,
    source: Source,
    scores: &Abilities,
) -> Result<(Trap, bool), GenError> {
    if source == Source::Rules {
        return Err(GenError::Request(
            "the Core Rules have no traps of their own; Core traps are built from parts".into(),
        ));
    }
    let drawn = place.assemble("gen.trap.core.effect")?;
    let effect = drawn
        .effects
        .iter()
        .find(|e| e.save.is_some())
        .cloned()
        .ok_or_else(|| {
            GenError::Request(format!(
                "the Core trap effect `{}` names no save (`save = \"AGI\"`)",
                drawn.name
            ))
        })?;
    let save = effect.save.clone().unwrap_or_default();
    let odds = save_odds(effect.damage.as_deref(), scores.of(&save))?;
    Ok((
        Trap {
            name: drawn.name,
            system: RulesSystem::Core,
            from: Source::Parts,
            terrain: place.region.name.clone(),
            trigger: drawn.trigger,
            clue: drawn.clue,
            effect: drawn.effect,
            disarm: drawn.disarm,
            hazard: None,
            vs: save.into_owned(),
            soak: None,
            status: None,
            damage: owned(&effect.damage),
            direct: effect.direct.unwrap_or(false),
            condition: condition_text(&effect),
            odds,
            trail: drawn.trail,
            fit: None,
        },
        false,
    ))
}

/// The condition an effect brings, with how long it lasts:
/// `blind until the end of the stretch`.
pub fn condition_text(e: &Effect) -> Option<String> {
    let name = e.condition.as_ref()?;
    let how_long = match (e.lasts.as_deref(), e.duration.as_deref()) {
        (_, Some(d)) => format!(" {d}"),
        (Some("stretch"), _) => " until the end of the stretch".into(),
        (Some("round"), _) => " until the end of the round".into(),
        (Some("until full rest"), _) => " until a full rest".into(),
        (Some(other), _) => format!(" ({other})"),
        (None, None) => String::new(),
    };
    Some(format!("{name}{how_long}"))
}

/// The chance a d20 save against `score` fails (rolls over it).
pub(super) fn fail_chance(score: u32) -> f64 {
    let fails = (1..=20).filter(|&r| !save_passes(r, score)).count();
    fails as f64 / 20.0
}

/// For each score: the chance to fail the save, and the damage rolled on
/// a failure (before armour).
pub fn save_odds(damage: Option<&str>, scores: &[u32]) -> Result<Vec<TrapOdds>, GenError> {
    let dist = damage.map(damage_table).transpose()?;
    Ok(scores
        .iter()
        .map(|&score| {
            let fail = fail_chance(score);
            let (mean, table) = match &dist {
                Some((mean, table)) => (*mean, table.iter().map(|&(v, q)| (v, q * fail)).collect()),
                None => (0.0, Vec::new()),
            };
            TrapOdds {
                value: score,
                hit: fail,
                mean_damage_on_hit: mean,
                damage: table,
            }
        })
        .collect())
}

/// The mean and the (value, chance) table of a damage roll.
pub(super) fn damage_table(damage: &str) -> Result<(f64, Vec<(i64, f64)>), GenError> {
    let bad = |m: String| GenError::Request(format!("trap damage `{damage}`: {m}"));
    let expr = dice::parse(damage).map_err(|e| bad(e.to_string()))?;
    let odds = dice::odds(&expr).map_err(|e| bad(e.to_string()))?;
    let OddsDetail::Roll(summary) = odds.detail else {
        return Err(bad("not a damage roll".into()));
    };
    let table = summary.table.iter().map(|r| (r.value, r.chance)).collect();
    Ok((summary.mean, table))
}

/// What the Core Rules refuse in a trap: a save against one of the three
/// abilities, damage that is a roll, no METTLE hazard, status or POISE.
pub(super) fn check(t: &Trap) -> Vec<String> {
    let mut out = Vec::new();
    if !ABILITIES.contains(&t.vs.as_str()) {
        out.push(format!(
            "a Core trap's save is STR, AGI or WIT, not {}",
            t.vs
        ));
    }
    if let Some(d) = &t.damage
        && !matches!(dice::parse(d), Ok(Expr::Roll(_)))
    {
        out.push(format!("`{d}` is not a damage roll"));
    }
    if t.damage.is_none() && t.condition.is_none() {
        out.push("a trap needs damage or a condition".into());
    }
    if t.hazard.is_some() || t.status.is_some() || t.soak.is_some() {
        out.push("a Core trap with a METTLE hazard, status or soak".into());
    }
    if t.odds.iter().any(|o| o.value > ABILITY_MAX as u32) {
        out.push(format!("ability scores run 0-{ABILITY_MAX}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{Against, Request};
    use super::*;
    use crate::generators::nth;
    use crate::seed::Seed;

    #[test]
    fn a_save_fails_on_a_roll_over_the_score() {
        // AGI 10 passes on 1-10: fails half the time; 19 fails on a 20.
        assert_eq!(fail_chance(10), 0.5);
        assert_eq!(fail_chance(19), 0.05);
        assert_eq!(fail_chance(0), 1.0);
        let odds = save_odds(Some("d6!"), &[6, 12]).unwrap();
        assert_eq!(odds[0].hit, 0.7);
        assert_eq!(odds[1].hit, 0.4);
        // An exploding d6 averages 4: E = 5/6 · 3 + 1/6 · (5 + E).
        assert!((odds[0].mean_damage_on_hit - 4.0).abs() < 1e-9);
        let listed: f64 = odds[1].damage.iter().map(|(_, q)| q).sum();
        assert!((listed - 0.4).abs() < 1e-9);
    }

    #[test]
    fn ten_thousand_core_traps_are_legal_and_core() {
        let library = crate::content::test_library();
        let seed = Seed::new("core-traps").unwrap();
        let req = Request {
            source: Source::Any,
            against: Against::Abilities(Abilities {
                str: vec![8, 11],
                agi: vec![6, 10],
                wit: vec![12],
            }),
            party: None,
            terrain: None,
            keepers: false,
        };
        let mut saves = std::collections::BTreeSet::new();
        for i in 0..10_000 {
            let t = nth(&library, &req, &seed, i).unwrap();
            assert!(
                super::super::check(&t).is_empty(),
                "#{i}: {:?}",
                super::super::check(&t)
            );
            assert_eq!(t.system, RulesSystem::Core);
            let expected: &[u32] = match t.vs.as_str() {
                "STR" => &[8, 11],
                "AGI" => &[6, 10],
                _ => &[12],
            };
            let values: Vec<u32> = t.odds.iter().map(|o| o.value).collect();
            assert_eq!(values, expected, "#{i}");
            saves.insert(t.vs.clone());
        }
        assert_eq!(saves.len(), 3, "{saves:?}");
        let rules = Request {
            source: Source::Rules,
            ..req
        };
        assert!(nth(&library, &rules, &seed, 0).is_err());
    }
}
