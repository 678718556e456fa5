//! A Core Rules injury (`core.injury`, d12) with its sub-rolls resolved (the
//! d4 of an ability loss, the d2 of which arm), applied to a character
//! sheet when one is given: the other arm or eye the second time (and blind
//! when both eyes are gone), lost ability points until a full rest, health
//! following a lowered STR. An injury taken by spending an omen to cheat
//! death is permanent (`permanent`).

use serde::Serialize;

use super::sheet::{self, Change};
use super::{Address, GenError, Generator};
use crate::content::Library;
use crate::rules::core::Sheet;
use crate::seed::Seed;
use crate::tables::{Step, TableRoll};

/// What an injury is asked for.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// The Core Rules character the injury is applied to, if any.
    pub character: Option<Sheet>,
    /// The injury of an omen spent to cheat death: every effect is permanent.
    pub permanent: bool,
    /// A row of the injury table pinned by its name (a session's
    /// `[[injury]] name`); its sub-rolls are still drawn.
    pub name: Option<String>,
}

/// A Core Rules injury, drawn from the injury table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Injury {
    /// The injury's name.
    pub name: String,
    /// What it does, every inline roll resolved.
    pub text: String,
    /// Every effect is permanent (an omen spent to cheat death).
    pub permanent: bool,
    /// The table roll it came from, with its trail.
    pub roll: TableRoll,
    /// The character's sheet before and after, when one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub character: Option<Applied>,
}

/// A sheet before and after.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Applied {
    /// The sheet as given.
    pub before: Sheet,
    /// The sheet with the changes made.
    pub after: Sheet,
    /// What changed, one change each.
    pub changes: Vec<Change>,
}

/// The condition an injury gives this character: the other arm the second
/// time, the other eye the second time, blind when both eyes are gone.
fn injury_condition(roll: &TableRoll) -> impl Fn(&Sheet, &str) -> String + '_ {
    move |sheet: &Sheet, condition: &str| match condition {
        "arm injury" => {
            let rolled = roll.trail.iter().find_map(|s| match s {
                Step::Pick { of: 2, chosen } => Some(*chosen),
                _ => None,
            });
            let (this, other) = match rolled {
                Some(2) => ("arm injury (secondary arm)", "arm injury (primary arm)"),
                _ => ("arm injury (primary arm)", "arm injury (secondary arm)"),
            };
            let has = |c: &str| sheet.conditions.iter().any(|x| x == c);
            if has(this) && !has(other) {
                other.into()
            } else {
                this.into()
            }
        }
        "eye injury" if sheet.conditions.iter().any(|c| c == "eye injury") => "blind".into(),
        other => other.to_owned(),
    }
}

impl Injury {
    /// Apply this injury (a pack's slip, rolled without a sheet) to a
    /// sheet, as if it had been rolled for it: the other arm or eye the
    /// second time, lost ability points, health following STR.
    pub fn apply_to(&self, sheet: &mut Sheet) -> Vec<Change> {
        sheet::apply(sheet, &self.roll, &injury_condition(&self.roll))
    }
}

/// The injury's text for one that never heals: "until a full rest" and
/// "for now" become "for good", so the slip says what is applied.
fn permanent_text(text: &str) -> String {
    text.replace("until a full rest", "for good")
        .replace("for now", "for good")
}

/// The injury table.
pub const TABLE: &str = "core.injury";

impl Generator for Request {
    const KIND: &'static str = "injury";
    type Item = Injury;

    /// The injury at `at` for a request.
    fn make(&self, library: &Library, seed: &Seed, at: &Address) -> Result<Injury, GenError> {
        let mut s = at.stream(seed, "roll");
        let mut roll = match &self.name {
            None => library.roll_table(TABLE, &mut s)?,
            Some(name) => {
                let index = library
                    .table(TABLE)?
                    .rows
                    .iter()
                    .position(|r| &r.entry.name == name)
                    .ok_or_else(|| {
                        GenError::Request(format!("`{name}` is not an injury of `{TABLE}`"))
                    })?;
                library.resolve(TABLE, index, &mut s)?
            }
        };
        if self.permanent {
            for e in &mut roll.effects {
                e.lasts = Some("permanent".into());
            }
            roll.text = permanent_text(&roll.text);
        }
        let character = self.character.as_ref().map(|before| {
            let mut after = before.clone();
            let rename = injury_condition(&roll);
            let changes = sheet::apply(&mut after, &roll, &rename);
            Applied {
                before: before.clone(),
                after,
                changes,
            }
        });
        Ok(Injury {
            name: roll.row.clone(),
            text: roll.text.clone(),
            permanent: self.permanent,
            roll,
            character,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::nth;
    use crate::rules::core::{check_sheet, sybilla};

    #[test]
    fn ten_thousand_injuries_leave_legal_sheets() {
        let library = crate::content::test_library();
        let seed = Seed::new("injuries").unwrap();
        let req = Request {
            character: Some(sybilla()),
            permanent: false,
            name: None,
        };
        let mut seen = std::collections::BTreeSet::new();
        for i in 0..10_000 {
            let injury = nth(&library, &req, &seed, i).unwrap();
            let applied = injury.character.as_ref().unwrap();
            assert!(
                check_sheet(&applied.after).is_empty(),
                "#{i}: {:?}",
                check_sheet(&applied.after)
            );
            seen.insert(injury.roll.label.clone());
            if let "3" | "4" | "5" = injury.roll.label.as_str() {
                let d4 = super::super::inline_rolls(&injury.roll, "d4")[0];
                let ability = ["STR", "AGI", "WIT"][injury.roll.result as usize - 3];
                let get = |s: &Sheet| match ability {
                    "STR" => s.STR,
                    "AGI" => s.AGI,
                    _ => s.WIT,
                };
                assert_eq!(
                    get(&applied.before) - get(&applied.after),
                    d4.min(get(&applied.before))
                );
                assert!(injury.text.contains(&d4.to_string()));
            }
        }
        assert_eq!(seen.len(), 12);
    }

    #[test]
    fn permanent_injuries_say_so() {
        let library = crate::content::test_library();
        let seed = Seed::new("permanent").unwrap();
        let req = Request {
            character: Some(sybilla()),
            permanent: true,
            name: None,
        };
        let mut lasting = 0;
        for i in 0..300 {
            let injury = nth(&library, &req, &seed, i).unwrap();
            assert!(
                !injury.text.contains("full rest") && !injury.text.contains("for now"),
                "#{i}: {}",
                injury.text
            );
            if injury.text.contains("for good") {
                lasting += 1;
            }
        }
        // Rows 2-10 carry a duration: about three in four injuries.
        assert!(lasting > 150, "{lasting}");
    }

    #[test]
    fn the_other_arm_and_eye_the_second_time() {
        let (library, _) = Library::load(&[]);
        let seed = Seed::new("second-time").unwrap();
        let mut arm = None;
        let mut eye = None;
        for i in 0..500 {
            let injury = nth(&library, &Request::default(), &seed, i).unwrap();
            match injury.roll.label.as_str() {
                "7" if arm.is_none() => arm = Some(injury.roll),
                "8" if eye.is_none() => eye = Some(injury.roll),
                _ => {}
            }
        }
        let arm = arm.unwrap();
        let side = |r: &TableRoll| {
            r.trail
                .iter()
                .find_map(|s| match s {
                    Step::Pick { of: 2, chosen } => Some(*chosen),
                    _ => None,
                })
                .unwrap()
        };
        let first = if side(&arm) == 1 {
            "arm injury (primary arm)"
        } else {
            "arm injury (secondary arm)"
        };
        let other = if side(&arm) == 1 {
            "arm injury (secondary arm)"
        } else {
            "arm injury (primary arm)"
        };
        let mut s = sybilla();
        sheet::apply(&mut s, &arm, &injury_condition(&arm));
        assert_eq!(s.conditions, vec![first.to_owned()]);
        sheet::apply(&mut s, &arm, &injury_condition(&arm));
        assert_eq!(s.conditions, vec![first.to_owned(), other.to_owned()]);
        let eye = eye.unwrap();
        let mut s = sybilla();
        sheet::apply(&mut s, &eye, &injury_condition(&eye));
        sheet::apply(&mut s, &eye, &injury_condition(&eye));
        assert_eq!(
            s.conditions,
            vec!["eye injury".to_owned(), "blind".to_owned()]
        );
    }

    #[test]
    fn str_loss_pulls_health_down() {
        let mut s = sybilla();
        s.health = Some(8);
        let (library, _) = Library::load(&[]);
        let seed = Seed::new("str-loss").unwrap();
        let injury = (0..200)
            .map(|i| {
                nth(
                    &library,
                    &Request {
                        character: Some(s.clone()),
                        permanent: false,
                        name: None,
                    },
                    &seed,
                    i,
                )
                .unwrap()
            })
            .find(|inj| inj.roll.label == "3")
            .unwrap();
        let after = &injury.character.unwrap().after;
        assert!(after.STR < 8);
        assert_eq!(after.health, Some(after.STR));
    }
}
