//! A Core Rules mutation (`core.mutation`: a d12, then the d20 table it
//! points to, with every d6/d4 sub-pick resolved; 12 rolls twice, and a 12
//! among those rolls twice again — it always ends, because each roll stops
//! with chance 11/12). With a character sheet the changes are applied
//! within bounds: above 15 only where the entry says so, never above 19,
//! and "reroll if already 0" (the curse on maximum omens) rolls that d20
//! table again.

use serde::Serialize;

use super::injury::Applied;
use super::sheet::{self, Change};
use super::{Address, GenError, Generator, all_results};
use crate::content::Library;
use crate::rules::core::Sheet;
use crate::seed::Seed;
use crate::tables::TableRoll;

/// What a mutation is asked for.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// The Core Rules character the mutation is applied to, if any.
    pub character: Option<Sheet>,
}

/// One mutation the character gains.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Gained {
    /// The entry's name (`Bestial arm`), with the band it came from.
    pub name: String,
    /// The band of the mutation table it came from.
    pub band: String,
    /// What it does, every inline roll resolved.
    pub text: String,
    /// The rolls that drew it, in one line.
    pub trail: String,
    /// Results this entry replaced because they could not apply (a curse
    /// on omens that are already 0).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub replaced: Vec<String>,
}

/// A Core Rules mutation: the entries gained and, for a character, the
/// sheet before and after.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Mutation {
    /// The entries gained, in order.
    pub gained: Vec<Gained>,
    /// The table roll it came from, with its trail.
    pub roll: TableRoll,
    /// The character's sheet before and after, when one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub character: Option<Applied>,
}

impl Mutation {
    /// Apply this mutation's entries (a pack's slip, rolled without a
    /// sheet) to a sheet, within the bounds `sheet::apply` keeps. A curse
    /// on maximum omens that are already 0 changes nothing (a slip rolled
    /// for the sheet would have rolled again).
    pub fn apply_to(&self, sheet: &mut Sheet) -> Vec<Change> {
        let mut changes = Vec::new();
        for leaf in self.roll.leaves() {
            let entry = leaf.nested.first().unwrap_or(leaf);
            for result in all_results(entry) {
                changes.extend(sheet::apply(sheet, result, &|_, c| c.to_owned()));
            }
        }
        changes
    }
}

/// Whether a result asks to be rolled again on this sheet.
fn must_reroll(result: &TableRoll, sheet: &Sheet) -> bool {
    result.effects.iter().any(|e| {
        e.reroll_if_zero == Some(true) && e.omens_max.is_some_and(|d| d < 0) && sheet.max_omens == 0
    })
}

impl Generator for Request {
    const KIND: &'static str = "mutation";
    type Item = Mutation;

    /// The mutation at `at` for a request.
    fn make(&self, library: &Library, seed: &Seed, at: &Address) -> Result<Mutation, GenError> {
        let mut s = at.stream(seed, "roll");
        let roll = library.roll_table("core.mutation", &mut s)?;
        let mut sheet_now = self.character.clone();
        let mut changes: Vec<Change> = Vec::new();
        let mut gained = Vec::new();
        let mut rerolls = 0usize;
        for leaf in roll.leaves() {
            // The entry itself is the band's sub-table result.
            let mut entry = leaf.nested.first().cloned().unwrap_or_else(|| leaf.clone());
            let mut replaced = Vec::new();
            if let Some(sheet) = &sheet_now {
                while must_reroll(&entry, sheet) && rerolls < 100 {
                    replaced.push(format!("{} (maximum omens are already 0)", entry.row));
                    let mut again = at.stream(seed, &format!("reroll/{rerolls}"));
                    rerolls += 1;
                    entry = library.roll_table(&entry.table, &mut again)?;
                }
            }
            if let Some(sheet) = sheet_now.as_mut() {
                for result in all_results(&entry) {
                    changes.extend(sheet::apply(sheet, result, &|_, c| c.to_owned()));
                }
            }
            gained.push(Gained {
                name: entry.row.clone(),
                band: leaf.row.clone(),
                text: entry.text.to_string(),
                trail: format!(
                    "{} → {}",
                    leaf.trail
                        .first()
                        .map(|s| s.to_string())
                        .unwrap_or_default(),
                    entry.trail_text()
                ),
                replaced,
            });
        }
        let character = self.character.as_ref().map(|before| Applied {
            before: before.clone(),
            after: sheet_now.expect("a sheet was given"),
            changes,
        });
        Ok(Mutation {
            gained,
            roll,
            character,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::nth;
    use crate::rules::core::{ABILITY_MAX, check_sheet};

    fn hero() -> Sheet {
        Sheet {
            name: "Theobald".into(),
            human: true,
            STR: 14,
            AGI: 15,
            WIT: 13,
            health: None,
            armour: 3,
            damage: "d8".into(),
            weapon: None,
            omens: 0,
            max_omens: 0,
            corruption: 3,
            skills: vec![],
            traits: vec![],
            conditions: vec![],
        }
    }

    #[test]
    fn ten_thousand_mutations_stay_within_bounds() {
        let library = crate::content::test_library();
        let seed = Seed::new("mutations").unwrap();
        let req = Request {
            character: Some(hero()),
        };
        let mut twice = 0;
        let mut curses_replaced = 0;
        for i in 0..10_000 {
            let m = nth(&library, &req, &seed, i).unwrap();
            let applied = m.character.as_ref().unwrap();
            let after = &applied.after;
            assert!(
                check_sheet(after).is_empty(),
                "#{i}: {:?}",
                check_sheet(after)
            );
            for (name, v) in [("STR", after.STR), ("AGI", after.AGI), ("WIT", after.WIT)] {
                assert!(v <= ABILITY_MAX);
                if v > 15 {
                    // Only an entry that allows it may take a human past 15.
                    assert!(
                        applied
                            .changes
                            .iter()
                            .any(|c| c.what.starts_with(&format!("{name} +"))),
                        "#{i}: {name} {v} without an increase"
                    );
                }
            }
            assert!(
                m.gained.iter().all(|g| g.name != "Curse"),
                "#{i}: a curse on 0 omens stayed"
            );
            curses_replaced += m.gained.iter().filter(|g| !g.replaced.is_empty()).count();
            if m.gained.len() > 1 {
                twice += 1;
            }
            assert!(!m.gained.is_empty());
        }
        // 12 on the d12 (1 in 12) rolls twice.
        assert!((600..1100).contains(&twice), "{twice}");
        assert!(curses_replaced > 0);
    }

    #[test]
    fn increases_respect_the_entry_ceiling() {
        let (library, _) = Library::load(&[]);
        let seed = Seed::new("ceilings").unwrap();
        let mut strong = hero();
        strong.STR = 19;
        strong.human = false;
        for i in 0..2000 {
            let m = nth(
                &library,
                &Request {
                    character: Some(strong.clone()),
                },
                &seed,
                i,
            )
            .unwrap();
            assert!(m.character.unwrap().after.STR <= 19);
        }
    }

    #[test]
    fn two_changes_with_one_roll_share_it() {
        // Boneless and Skeleton lower STR and AGI by the same d4.
        let (library, _) = Library::load(&[]);
        let seed = Seed::new("boneless").unwrap();
        let mut seen = 0;
        for i in 0..20_000 {
            let m = nth(
                &library,
                &Request {
                    character: Some(hero()),
                },
                &seed,
                i,
            )
            .unwrap();
            if m.gained.len() == 1
                && (m.gained[0].name == "Boneless" || m.gained[0].name == "Skeleton")
            {
                let a = m.character.unwrap();
                let str_loss = a.before.STR - a.after.STR;
                let agi_loss = a.before.AGI - a.after.AGI;
                assert!((1..=4).contains(&str_loss), "{str_loss}");
                assert_eq!(str_loss, agi_loss);
                seen += 1;
            }
        }
        assert!(seen > 0);
    }
}
