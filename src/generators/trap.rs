//! Traps: one of the five traps of the Scenes chapter (`mettle.traps`) or
//! one built from parts (`gen.trap.trigger`, `gen.trap.clue`,
//! `gen.trap.effect`). A trap is a METTLE hazard that checks against the
//! victim's POISE like an Attack: only a success does its damage (Edge +
//! bonus) or effect. Each trap carries its exact odds against POISE 1-6 (or
//! the POISE values asked for): the chance to be hit and the damage
//! distribution on a hit.

use serde::Serialize;

use super::{Address, GenError, Generator};
use crate::content::{Effect, Library};
use crate::dice::ast::{Expr, Pool};
use crate::dice::odds::OddsDetail;
use crate::dice::{self};
use crate::rules::{Party, RulesSystem};
use crate::seed::{DieSource, Seed};

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

#[derive(Debug, Clone)]
pub struct Request {
    pub source: Source,
    /// POISE values to give odds for.
    pub poise: Vec<u32>,
}

impl Default for Request {
    fn default() -> Self {
        Request {
            source: Source::Any,
            poise: (1..=6).collect(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Trap {
    pub name: String,
    pub from: Source,
    pub trigger: String,
    pub clue: String,
    pub effect: String,
    /// The hazard in Pool+Bonus form, checked against `vs`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hazard: Option<String>,
    pub vs: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub soak: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    pub odds: Vec<TrapOdds>,
    pub trail: Vec<String>,
}

/// Exact odds of the trap against one POISE.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TrapOdds {
    pub poise: u32,
    /// Chance the trap's Score beats POISE.
    pub hit: f64,
    /// Mean damage on a hit (Edge + bonus), before Soak.
    pub mean_damage_on_hit: f64,
    /// (damage, chance) on a hit; the chances sum to `hit`.
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
                poise: p,
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

    /// The trap at `at` for a request.
    fn make(&self, library: &Library, seed: &Seed, at: &Address) -> Result<Trap, GenError> {
        if self.poise.iter().any(|&p| p > 30) {
            return Err(GenError::Request("POISE values run 0-30".into()));
        }
        let mut s = at.stream(seed, "source");
        let from = match self.source {
            Source::Any if s.die(3) == 1 => Source::Rules,
            Source::Any => Source::Parts,
            other => other,
        };
        let mut parts = at.stream(seed, "parts");
        let (name, trigger, clue, effect_text, effect, trail) = match from {
            Source::Rules => {
                let r = library.roll_table("mettle.traps", &mut parts)?;
                (
                    r.row.clone(),
                    section(&r.text, "Trigger:"),
                    section(&r.text, "Clue:"),
                    section(&r.text, "Effect:"),
                    hazard_effect(&r.effects).cloned(),
                    vec![r.trail_text()],
                )
            }
            _ => {
                let t = library.roll_table("gen.trap.trigger", &mut parts)?;
                let c = library.roll_table("gen.trap.clue", &mut parts)?;
                let e = library.roll_table("gen.trap.effect", &mut parts)?;
                (
                    format!("{} with {}", e.row, t.row.to_lowercase()),
                    format!("{}: {}", t.row, t.text),
                    c.text.clone(),
                    format!("{}: {}", e.row, e.text),
                    hazard_effect(&e.effects).cloned(),
                    vec![t.trail_text(), c.trail_text(), e.trail_text()],
                )
            }
        };
        let effect = effect.unwrap_or_default();
        let odds = match &effect.hazard {
            Some(h) => hazard_odds(h, &self.poise)?,
            None => Vec::new(),
        };
        Ok(Trap {
            name,
            from,
            trigger,
            clue,
            effect: effect_text,
            hazard: effect.hazard.clone(),
            vs: effect.vs.clone().unwrap_or_else(|| "POISE".into()),
            soak: effect.soak.clone(),
            status: effect.status.clone(),
            odds,
            trail,
        })
    }
}

/// What the rules refuse in a trap.
pub fn check(t: &Trap) -> Vec<String> {
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
    for o in &t.odds {
        let listed: f64 = o.damage.iter().map(|(_, q)| q).sum();
        if !(0.0..=1.0).contains(&o.hit) || (listed - o.hit).abs() > 1e-9 {
            out.push(format!("odds against POISE {} do not add up", o.poise));
        }
    }
    if t.trigger.is_empty() || t.clue.is_empty() || t.effect.is_empty() {
        out.push("a trap needs a trigger, a clue and an effect".into());
    }
    out
}

/// The POISE a trap is measured against: the party's, or every value from
/// 1 to 6 for a Core Rules party (which has none).
pub fn poise_of(system: RulesSystem, party: &Party) -> Vec<u32> {
    match system {
        RulesSystem::Mettle => party.mettle.iter().map(|b| b.POISE).collect(),
        RulesSystem::Core => (1..=6).collect(),
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
        let mut rules = 0;
        for i in 0..10_000 {
            let t = nth(&library, &req, &seed, i).unwrap();
            assert!(check(&t).is_empty(), "#{i} {}: {:?}", t.name, check(&t));
            if t.from == Source::Rules {
                rules += 1;
            }
        }
        assert!((3000..3700).contains(&rules), "{rules}");
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
            poise: vec![3],
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
