//! The situation's hazard, in the encounter's system: METTLE's hazard in
//! Pool+Bonus form (Difficulty 0: count Edge, add the bonus) with its
//! damage and the chance an ongoing one ends; or, for the Core Rules, the
//! row's save reading (an ability save, damage and/or a condition) with the
//! chance each of the party's scores fails it.

use serde::Serialize;

use super::super::GenError;
use super::super::trap::{self, TrapOdds};
use crate::content::{Effect, owned};
use crate::dice::odds::OddsDetail;
use crate::dice::{self};
use crate::rules::{Party, RulesSystem};
use crate::tables::TableRoll;

/// A hazard the situation puts in the party's way.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "system", rename_all = "lowercase")]
pub enum HazardNote {
    /// A METTLE hazard: a pool rolled against the party.
    Mettle {
        /// Pool+Bonus, rolled at Difficulty 0.
        hazard: String,
        /// What soaks its damage.
        #[serde(skip_serializing_if = "Option::is_none")]
        soak: Option<String>,
        /// The status a hit inflicts.
        #[serde(skip_serializing_if = "Option::is_none")]
        status: Option<String>,
        /// (damage, chance) for one roll.
        damage: Vec<(i64, f64)>,
        /// Chance a roll shows no Edge (an ongoing hazard ends).
        ends: f64,
    },
    /// A Core Rules hazard: a save.
    Core {
        /// The ability of the save that avoids it.
        save: String,
        /// The damage roll on a failure (exploding).
        #[serde(skip_serializing_if = "Option::is_none")]
        damage: Option<String>,
        /// The damage is direct (armour does not reduce it).
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        direct: bool,
        /// The condition a failed save brings.
        #[serde(skip_serializing_if = "Option::is_none")]
        condition: Option<String>,
        /// For each of the party's scores in that ability.
        odds: Vec<TrapOdds>,
    },
}

/// The hazard of a situation, if it has one, in `system`.
pub(super) fn note(
    situation: &TableRoll,
    system: RulesSystem,
    party: &Party,
) -> Result<Option<HazardNote>, GenError> {
    let Some(mettle) = situation.effects.iter().find(|e| e.hazard.is_some()) else {
        return Ok(None);
    };
    match system {
        RulesSystem::Mettle => mettle_note(mettle).map(Some),
        RulesSystem::Core => {
            let core = situation
                .effects
                .iter()
                .find(|e| e.save.is_some())
                .ok_or_else(|| {
                    GenError::Request(format!(
                        "`{}` ({}) has a METTLE hazard but no Core Rules reading; \
                         add an effect with `save` and `damage` or `condition`",
                        situation.row, situation.table
                    ))
                })?;
            core_note(core, party).map(Some)
        }
    }
}

fn mettle_note(e: &Effect) -> Result<HazardNote, GenError> {
    let h = e.hazard.clone().unwrap_or_default();
    let expr = dice::parse(&h).map_err(|err| GenError::Request(err.to_string()))?;
    let odds = dice::odds(&expr).map_err(|err| GenError::Request(err.to_string()))?;
    let OddsDetail::Hazard(o) = odds.detail else {
        return Err(GenError::Request(format!("`{h}` is not a hazard")));
    };
    Ok(HazardNote::Mettle {
        hazard: h.into_owned(),
        soak: owned(&e.soak),
        status: owned(&e.status),
        damage: o.damage.table.iter().map(|r| (r.value, r.chance)).collect(),
        ends: o.ends,
    })
}

fn core_note(e: &Effect, party: &Party) -> Result<HazardNote, GenError> {
    let save = e.save.as_deref().unwrap_or_default().to_owned();
    let trap::Against::Abilities(scores) =
        trap::Request::for_party(RulesSystem::Core, party).against
    else {
        unreachable!("a Core request is measured against abilities")
    };
    Ok(HazardNote::Core {
        odds: trap::save_odds(e.damage.as_deref(), scores.of(&save))?,
        save,
        damage: owned(&e.damage),
        direct: e.direct.unwrap_or(false),
        condition: trap::condition_text(e),
    })
}
