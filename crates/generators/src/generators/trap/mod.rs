//! Traps, in the pack's system.
//!
//! - **METTLE**: one of the five traps of the Scenes chapter
//!   (`mettle.traps`) or one built from parts (`gen.trap.trigger`,
//!   `gen.trap.clue`, `gen.trap.effect`) that fit its terrain and each
//!   other (`parts`). A trap is a hazard that checks
//!   against the victim's POISE like an Attack: only a success does its
//!   damage (Edge + bonus) or effect. Its odds are for each POISE asked
//!   (the party's, or 1-6): the chance to be hit and the damage on a hit.
//! - **Core Rules** (`core`): the chapter has no traps, so a trap is a
//!   trigger and a clue (the same tables) and an effect from
//!   `gen.trap.core.effect`, our reading: a save (d20 at or under STR, AGI
//!   or WIT) avoids it, a failure takes exploding damage and/or a
//!   condition. Its odds are for each score the party has in that ability:
//!   the chance to fail the save and the damage on a failure.
//!
//! Every trap is set in a terrain (the request's, or one drawn on the
//! `<trap>/terrain` stream) and carries a way to find, disarm, bypass or
//! reset it (`gen.trap.disarm`).

mod core;
mod fit;
mod parts;
#[cfg(test)]
mod place_tests;

pub use core::{condition_text, save_odds};
pub use fit::{Fit, HIT_FAIR, KILL_FLOOR, PcOdds, SHARE_FAIR, sized_text};

use serde::Serialize;

use super::{Address, GenError, Generator};
use crate::content::{Effect, Library, Region, owned};
use crate::dice::ast::{Expr, Pool};
use crate::dice::odds::OddsDetail;
use crate::dice::{self};
use crate::rules::{Party, RulesSystem};
use crate::seed::{DieSource, Seed, Stream};

/// Where a trap comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The five traps of the rules.
    Rules,
    /// Built from trigger, clue and effect tables.
    Parts,
    /// Either: a third of traps come from the rules.
    Any,
}

/// What a trap is asked for.
#[derive(Debug, Clone)]
pub struct Request {
    /// Where the trap comes from.
    pub source: Source,
    /// The system, and the values to give odds for.
    pub against: Against,
    /// The party the trap is fitted to (`None`: the trap as the tables
    /// give it, with odds for `against` only).
    pub party: Option<Party>,
    /// The terrain it is set in (`None`: one drawn among the regions).
    pub terrain: Option<String>,
    /// Whether foes who are people are at hand to keep it (a trap lurking
    /// in an encounter with them): only then may it be one that alerts its
    /// keepers (a tripwire round their camp, a tin-can alarm).
    pub keepers: bool,
}

/// What a trap's odds are measured against, which also says its system.
#[derive(Debug, Clone, PartialEq)]
pub enum Against {
    /// METTLE: these POISE values.
    Poise(Vec<u32>),
    /// Core Rules: these ability scores.
    Abilities(Abilities),
}

/// The ability scores a Core trap's save odds are given for, each list
/// sorted with no repeats.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Abilities {
    /// STR scores.
    pub str: Vec<u32>,
    /// AGI scores.
    pub agi: Vec<u32>,
    /// WIT scores.
    pub wit: Vec<u32>,
}

impl Abilities {
    /// The scores of the ability named (`STR`, `AGI`, `WIT`).
    pub fn of(&self, ability: &str) -> &[u32] {
        match ability {
            "STR" => &self.str,
            "AGI" => &self.agi,
            _ => &self.wit,
        }
    }
}

impl Default for Request {
    fn default() -> Self {
        Request {
            source: Source::Any,
            against: Against::Poise((1..=6).collect()),
            party: None,
            terrain: None,
            keepers: false,
        }
    }
}

/// Sorted, without repeats: odds for each value once.
fn distinct(values: impl Iterator<Item = i64>) -> Vec<u32> {
    let mut v: Vec<u32> = values.map(|x| x.clamp(0, 30) as u32).collect();
    v.sort_unstable();
    v.dedup();
    v
}

impl Request {
    /// A trap for a party in `system`: any source, odds against the
    /// party's POISE values (METTLE) or its STR, AGI and WIT scores (Core),
    /// chosen and sized for the party (`fit`).
    pub fn for_party(system: RulesSystem, party: &Party) -> Request {
        let against = match system {
            RulesSystem::Mettle => {
                Against::Poise(distinct(party.mettle.iter().map(|b| i64::from(b.POISE))))
            }
            RulesSystem::Core => Against::Abilities(Abilities {
                str: distinct(party.core.iter().map(|s| s.STR)),
                agi: distinct(party.core.iter().map(|s| s.AGI)),
                wit: distinct(party.core.iter().map(|s| s.WIT)),
            }),
        };
        Request {
            source: Source::Any,
            against,
            party: Some(party.clone()),
            terrain: None,
            keepers: false,
        }
    }
}

/// A trap: what springs it, the clue that gives it away, what it does,
/// and its exact odds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Trap {
    /// The trap's name.
    pub name: String,
    /// The rules it is made for.
    pub system: RulesSystem,
    /// Whether it is one of the rules' traps or built from parts.
    pub from: Source,
    /// The terrain it is set in.
    pub terrain: String,
    /// What springs it.
    pub trigger: String,
    /// What gives it away.
    pub clue: String,
    /// What it does, in words.
    pub effect: String,
    /// How to find, disarm, bypass or reset it (`gen.trap.disarm`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disarm: Option<String>,
    /// METTLE: the hazard in Pool+Bonus form, checked against `vs`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hazard: Option<String>,
    /// What the odds are measured against: `POISE` (METTLE), or the
    /// ability of the save (Core Rules: `STR`, `AGI`, `WIT`).
    pub vs: String,
    /// METTLE: what soaks the hazard's damage.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub soak: Option<String>,
    /// METTLE: the status a hit inflicts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// Core Rules: the damage roll on a failed save (exploding).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damage: Option<String>,
    /// Core Rules: the damage is direct (armour does not reduce it).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub direct: bool,
    /// Core Rules: the condition a failed save brings, and for how long.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// The odds for each value it is measured against.
    pub odds: Vec<TrapOdds>,
    /// The rolls that made it, one line each.
    pub trail: Vec<String>,
    /// How the trap fits the party it was made for: each PC's odds, and
    /// the grade it was sized by (`None`: made for no party).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fit: Option<Fit>,
}

/// Exact odds of the trap against one POISE (METTLE) or one ability score
/// (Core Rules).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TrapOdds {
    /// The POISE, or the score in the save's ability.
    pub value: u32,
    /// Chance the trap takes effect: its Score beats POISE, or the save
    /// fails.
    pub hit: f64,
    /// Mean damage when it does, before Soak or armour.
    pub mean_damage_on_hit: f64,
    /// (damage, chance) when it does; the chances sum to `hit` (none for
    /// a trap without damage).
    pub damage: Vec<(i64, f64)>,
}

/// Odds of a `NDs+B` hazard against each POISE.
pub fn hazard_odds(hazard: &str, poise: &[u32]) -> Result<Vec<TrapOdds>, GenError> {
    let Ok(Expr::Pool(pool)) = dice::parse(hazard) else {
        return Err(GenError::Request(format!(
            "`{hazard}` is not a hazard in Pool+Bonus form"
        )));
    };
    poise
        .iter()
        .map(|&p| {
            let check = Pool {
                difficulty: Some(p),
                ..pool.clone()
            };
            let odds =
                dice::odds(&Expr::Pool(check)).map_err(|e| GenError::Request(e.to_string()))?;
            let OddsDetail::Check(c) = odds.detail else {
                unreachable!("a pool with a Difficulty is a Check")
            };
            let damage: Vec<(i64, f64)> = c
                .by_edge
                .iter()
                .map(|r| (i64::from(r.edge) + i64::from(pool.bonus), r.chance))
                .filter(|(_, q)| *q > 0.0)
                .collect();
            let mean = if c.success > 0.0 {
                damage.iter().map(|(v, q)| *v as f64 * q).sum::<f64>() / c.success
            } else {
                0.0
            };
            Ok(TrapOdds {
                value: p,
                hit: c.success,
                mean_damage_on_hit: mean,
                damage,
            })
        })
        .collect()
}

fn hazard_effect(effects: &[Effect]) -> Option<&Effect> {
    effects
        .iter()
        .find(|e| e.hazard.is_some() || e.status.is_some())
}

/// The part of a rules trap's text after `label:` up to the next label.
fn section(text: &str, label: &str) -> String {
    let labels = ["Trigger:", "Clue:", "Effect:"];
    let Some(start) = text.find(label) else {
        return String::new();
    };
    let rest = &text[start + label.len()..];
    let end = labels
        .iter()
        .filter_map(|l| rest.find(l))
        .min()
        .unwrap_or(rest.len());
    rest[..end].trim().to_owned()
}

impl Generator for Request {
    const KIND: &'static str = "trap";
    type Item = Trap;

    /// The trap at `at` for a request: as the tables give it, or chosen
    /// and sized for the request's party (`fit`).
    fn make(&self, library: &Library, seed: &Seed, at: &Address) -> Result<Trap, GenError> {
        let region = self.region(library, seed, at)?;
        let Some(party) = &self.party else {
            return Ok(self.drawn(library, seed, at, region)?.0);
        };
        let mut best: Option<(f64, Trap)> = None;
        for k in 0..fit::MAX_CHOICES {
            let choice = if k == 0 {
                at.clone()
            } else {
                at.child("choice", k)
            };
            let (trap, alarm) = self.drawn(library, seed, &choice, region)?;
            for grade in fit::grades() {
                let Some(mut sized) = self.sized(&trap, grade)? else {
                    continue;
                };
                let mut measured = fit::measure(&sized, party, alarm)?;
                measured.grade = grade;
                if grade != 0 {
                    measured.table_roll = trap.hazard.clone().or_else(|| trap.damage.clone());
                }
                let d = fit::distance(&measured);
                sized.fit = Some(measured);
                if best.as_ref().is_none_or(|(b, _)| d < *b) {
                    best = Some((d, sized));
                }
                if d <= 1.0 {
                    break;
                }
            }
            if best.as_ref().is_some_and(|(d, _)| *d <= 1.0) {
                break;
            }
        }
        Ok(best.expect("the first draw is measured").1)
    }
}

impl Request {
    /// The terrain the trap at `at` is set in: the request's, or one of
    /// the regions drawn on the `terrain` stream.
    fn region<'l>(
        &self,
        library: &'l Library,
        seed: &Seed,
        at: &Address,
    ) -> Result<&'l Region, GenError> {
        if let Some(t) = &self.terrain {
            return library.region(t).map_err(GenError::Request);
        }
        let all: Vec<&Region> = library.regions().collect();
        if all.is_empty() {
            return Err(GenError::Request(
                "no terrain is in effect (no `gen.encounter.<region>` table)".into(),
            ));
        }
        let k = at.stream(seed, "terrain").die(all.len() as u32) as usize;
        Ok(all[k - 1])
    }

    /// The trap at `at` in `region` as the tables give it, and whether it
    /// is an alarm (its roll does no damage).
    fn drawn(
        &self,
        library: &Library,
        seed: &Seed,
        at: &Address,
        region: &Region,
    ) -> Result<(Trap, bool), GenError> {
        let place = parts::Place {
            library,
            seed,
            at,
            region,
            keepers: self.keepers,
            timeless: false,
        };
        match &self.against {
            Against::Poise(poise) => mettle_trap(&place, self.source, poise),
            Against::Abilities(scores) => core::trap(&place, self.source, scores),
        }
    }

    /// `t` sized `grade` grades (its roll, the roll in its effect's text
    /// and its odds), or `None` past the ladder's end.
    fn sized(&self, t: &Trap, grade: i8) -> Result<Option<Trap>, GenError> {
        if grade == 0 {
            return Ok(Some(t.clone()));
        }
        let Some(roll) = fit::sized_roll(t, grade) else {
            return Ok(None);
        };
        let mut out = t.clone();
        match &self.against {
            Against::Poise(poise) => {
                let from = t.hazard.clone().unwrap_or_default();
                out.effect = out.effect.replace(&from, &roll);
                out.odds = hazard_odds(&roll, poise)?;
                out.hazard = Some(roll);
            }
            Against::Abilities(scores) => {
                out.odds = save_odds(Some(&roll), scores.of(&t.vs))?;
                out.damage = Some(roll);
            }
        }
        Ok(Some(out))
    }
}

/// The METTLE rules' traps.
const RULES: &str = "mettle.traps";

/// What a trap is made of before its odds: name, trigger, clue, effect
/// (text and data), the way to deal with it and the trail of rolls.
struct Drawn {
    name: String,
    trigger: String,
    clue: String,
    effect: String,
    effects: Vec<Effect>,
    /// The effect row's tags (`alarm`: its roll does no damage).
    tags: Vec<String>,
    disarm: Option<String>,
    trail: Vec<String>,
}

/// One of the five traps of the METTLE rules that fit the terrain (its
/// `place:` tags: no flooding room in a forest), on the `parts` stream,
/// with a way to deal with it. One that alerts its keepers is drawn
/// without them only when asked for a rules trap where nothing else fits
/// (the tripwire, in the wild of a campaign before mines).
fn from_rules(place: &parts::Place, parts: &mut Stream) -> Result<Drawn, GenError> {
    let place = &match place.any_fits(RULES) {
        true => *place,
        false => parts::Place {
            keepers: true,
            ..*place
        },
    };
    let r = place.fitting(RULES, parts)?;
    let d = place.disarm(&r, &[])?;
    let mut trail = vec![r.trail_text()];
    trail.extend(d.as_ref().map(crate::tables::TableRoll::trail_text));
    Ok(Drawn {
        name: r.row.clone(),
        trigger: section(&r.text, "Trigger:"),
        clue: section(&r.text, "Clue:"),
        effect: section(&r.text, "Effect:"),
        effects: r.effects.clone(),
        tags: r.tags.clone(),
        disarm: d.map(|d| format!("{}: {}", d.row, d.text)),
        trail,
    })
}

/// A METTLE trap: from the rules (a third of the time, with `Any`) or from
/// parts, with its odds against each POISE.
fn mettle_trap(
    place: &parts::Place,
    source: Source,
    poise: &[u32],
) -> Result<(Trap, bool), GenError> {
    if poise.iter().any(|&p| p > 30) {
        return Err(GenError::Request("POISE values run 0-30".into()));
    }
    let mut s = place.at.stream(place.seed, "source");
    let from = match source {
        // A rules trap a third of the time, where one fits without keepers
        // it lacks and, with no era declared, one of no era's own (the
        // mine is a modern campaign's, or asked for with `--from rules`).
        Source::Any if s.die(3) == 1 && place.timeless().any_fits(RULES) => Source::Rules,
        Source::Any => Source::Parts,
        other => other,
    };
    let rules_place = match source {
        Source::Any => place.timeless(),
        _ => *place,
    };
    let drawn = match from {
        Source::Rules => from_rules(&rules_place, &mut place.at.stream(place.seed, "parts"))?,
        _ => place.assemble("gen.trap.effect")?,
    };
    let effect = hazard_effect(&drawn.effects).cloned().unwrap_or_default();
    let odds = match &effect.hazard {
        Some(h) => hazard_odds(h, poise)?,
        None => Vec::new(),
    };
    let alarm = drawn.tags.iter().any(|t| t == "alarm");
    let trap = Trap {
        name: drawn.name,
        system: RulesSystem::Mettle,
        from,
        terrain: place.region.name.clone(),
        trigger: drawn.trigger,
        clue: drawn.clue,
        effect: drawn.effect,
        disarm: drawn.disarm,
        hazard: owned(&effect.hazard),
        vs: effect.vs.as_deref().unwrap_or("POISE").to_owned(),
        soak: owned(&effect.soak),
        status: owned(&effect.status),
        damage: None,
        direct: false,
        condition: None,
        odds,
        trail: drawn.trail,
        fit: None,
    };
    Ok((trap, alarm))
}

/// What the rules refuse in a trap.
pub fn check(t: &Trap) -> Vec<String> {
    let mut out = match t.system {
        RulesSystem::Mettle => mettle_check(t),
        RulesSystem::Core => core::check(t),
    };
    if t.trigger.is_empty() || t.clue.is_empty() || t.effect.is_empty() {
        out.push("a trap needs a trigger, a clue and an effect".into());
    }
    for o in &t.odds {
        let listed: f64 = o.damage.iter().map(|(_, q)| q).sum();
        let adds_up = o.damage.is_empty() || (listed - o.hit).abs() <= 1e-9;
        if !(0.0..=1.0).contains(&o.hit) || !adds_up {
            out.push(format!("odds against {} {} do not add up", t.vs, o.value));
        }
    }
    out
}

/// What METTLE refuses in a trap: a hazard in Pool+Bonus form (or a
/// status) against POISE, and nothing of the Core Rules.
fn mettle_check(t: &Trap) -> Vec<String> {
    let mut out = Vec::new();
    if t.vs != "POISE" {
        out.push(format!("a trap checks against POISE, not {}", t.vs));
    }
    if let Some(h) = &t.hazard {
        let ok = matches!(
            dice::parse(h),
            Ok(Expr::Pool(Pool {
                difficulty: None,
                extra: 0,
                raises: 0,
                twist: false,
                ..
            }))
        );
        if !ok {
            out.push(format!("`{h}` is not a hazard in Pool+Bonus form"));
        }
    } else if t.status.is_none() {
        out.push("a trap needs a hazard or a status".into());
    }
    if let Some(s) = &t.status
        && !crate::rules::mettle::STATUSES.contains(&s.as_str())
    {
        out.push(format!("`{s}` is not a METTLE status"));
    }
    if t.damage.is_some() || t.condition.is_some() || t.direct {
        out.push("a METTLE trap with Core Rules damage or a condition".into());
    }
    out
}

impl Trap {
    /// The row a part of the trap was drawn from (`Pressure plate` of
    /// `Pressure plate: a flagstone…`); a rules trap's parts are its own,
    /// named after it.
    fn part_row<'a>(&'a self, text: &'a str) -> &'a str {
        match self.from {
            Source::Rules => &self.name,
            _ => text.split_once(": ").map_or(text, |(row, _)| row),
        }
    }

    /// What a campaign remembers a trap by: its trigger and its effect
    /// (`Pressure plate + Darts`), or a rules trap's name.
    pub fn identity(&self) -> String {
        match self.from {
            Source::Rules => self.name.clone(),
            _ => format!(
                "{} + {}",
                self.part_row(&self.trigger),
                self.part_row(&self.effect)
            ),
        }
    }
}

impl super::Distinct for Trap {
    /// A trap is set once in a pack: its name.
    fn keys(&self) -> Vec<String> {
        vec![format!("trap: {}", self.name)]
    }

    /// Its trigger and its effect, each once while the tables have others
    /// (a rules trap's are its own, named after it).
    fn soft_keys(&self) -> Vec<String> {
        vec![
            format!("trap trigger: {}", self.part_row(&self.trigger)),
            format!("trap effect: {}", self.part_row(&self.effect)),
        ]
    }

    /// A campaign remembers a trap by its trigger and effect together.
    fn remembered(&self) -> Vec<String> {
        vec![format!("trap: {}", self.identity())]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::nth;

    #[test]
    fn ten_thousand_traps_are_legal() {
        let library = crate::content::test_library();
        let seed = Seed::new("traps").unwrap();
        let req = Request::default();
        let (mut built, mut rules_built, mut rules_wild) = (0, 0, 0);
        for i in 0..10_000 {
            let t = nth(&library, &req, &seed, i).unwrap();
            assert!(check(&t).is_empty(), "#{i} {}: {:?}", t.name, check(&t));
            let rules = usize::from(t.from == Source::Rules);
            if library.region(&t.terrain).unwrap().place() == "wild" {
                rules_wild += rules;
            } else {
                built += 1;
                rules_built += rules;
            }
        }
        // Among walls a third come from the rules (five standard
        // deviations either side); in the wild with no era declared no
        // rules trap fits the mix (the mine is a modern campaign's).
        assert!(built > 3000, "{built}");
        let sd = ((built * 2) as f64 / 9.0).sqrt().ceil() as usize;
        let third = built / 3;
        assert!(
            (third - 5 * sd..=third + 5 * sd).contains(&rules_built),
            "{rules_built} of {built}"
        );
        assert_eq!(rules_wild, 0);
    }

    /// Issue 50: a trap drawn in the mix (no `--from`) while no era is
    /// declared is never one of an era's own (the rules' mine,
    /// `era:modern`); asked for from the rules, or in a modern campaign,
    /// the mine still comes.
    #[test]
    fn the_mix_draws_no_trap_of_an_eras_own_while_none_is_declared() {
        let mut library = crate::content::test_library();
        let seed = Seed::new("eras").unwrap();
        let mines = |library: &Library, source| {
            let req = Request {
                source,
                terrain: Some("forest".into()),
                ..Request::default()
            };
            (0..300)
                .filter(|&i| nth(library, &req, &seed, i).unwrap().name == "Anti-personnel mine")
                .count()
        };
        assert_eq!(mines(&library, Source::Any), 0);
        assert!(mines(&library, Source::Rules) > 250);
        library.era = Some("modern".into());
        assert!(mines(&library, Source::Any) > 50);
    }

    #[test]
    fn scything_blade_odds_are_exact() {
        // 5D+7 vs POISE 3: the Check 5D vs 3 succeeds 69.68% of the time.
        let odds = hazard_odds("5D+7", &[3]).unwrap();
        assert!((odds[0].hit - 0.6968).abs() < 5e-5);
        assert_eq!(odds[0].damage.first().unwrap().0, 7);
        let (library, _) = Library::load(&[]);
        let seed = Seed::new("blade").unwrap();
        let req = Request {
            source: Source::Rules,
            against: Against::Poise(vec![3]),
            party: None,
            terrain: None,
            keepers: false,
        };
        let blade = (0..100)
            .map(|i| nth(&library, &req, &seed, i).unwrap())
            .find(|t| t.name == "Scything blade")
            .unwrap();
        assert_eq!(blade.hazard.as_deref(), Some("5D+7"));
        assert!(blade.clue.contains("whirr"), "{}", blade.clue);
        assert!((blade.odds[0].hit - odds[0].hit).abs() < 1e-15);
    }
}
