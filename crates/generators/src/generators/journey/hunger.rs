//! METTLE's Hungry and Thirsty, PC by PC (METTLE, Status): who goes
//! without at a rest in camp when food or water is short, the Difficulty
//! each then carries (+1 a day without food, +2 a day without water, each
//! cleared when they eat or drink), and who dies of it — a PC whose
//! Difficulty from them exceeds their CALLING. "Their CALLING" is read as
//! their best one; a PC with none (every PC of a pool summary such as
//! `3,4,4,5`) counts their best attribute, as the rule names no other pool.
//!
//! When there is not enough, the PCs nearest to death eat and drink first
//! (the smallest margin between their CALLING and their Difficulty; earlier
//! in the party on ties). The Travel Check carries the lead's Difficulty.

use serde::Serialize;

use crate::rules::Party;
use crate::rules::mettle::StatBlock;

/// A living PC's days without food and without water, as a watch's state
/// shows them (only PCs going without are listed).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Wanting {
    /// The PC's name.
    pub name: String,
    /// Days without food.
    pub hungry: u32,
    /// Days without water.
    pub thirsty: u32,
}

/// One METTLE PC's hunger and thirst.
#[derive(Debug, Clone, PartialEq)]
struct Fasting {
    name: String,
    /// Their best CALLING (best attribute with none): dead when the
    /// Difficulty from hunger and thirst exceeds it.
    calling: u32,
    hungry: u32,
    thirsty: u32,
}

impl Fasting {
    fn penalty(&self) -> u32 {
        self.hungry + 2 * self.thirsty
    }
}

/// The party's hunger and thirst (empty for a Core Rules party).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Hunger {
    pcs: Vec<Fasting>,
    /// Index of the lead, whose Difficulty the Travel Check carries.
    lead: usize,
    /// The PCs hunger or thirst has killed, in the order they died.
    pub dead: Vec<String>,
}

impl Hunger {
    /// Hunger for a METTLE party led by `lead` (none for a Core party),
    /// each PC setting out with the days `carried` gives them (a
    /// campaign's last record), else a day for a Hungry or Thirsty status
    /// of their stat block.
    pub(super) fn new(party: &Party, lead: &str, carried: &[Wanting]) -> Self {
        let pcs: Vec<Fasting> = party
            .mettle
            .iter()
            .map(|b| {
                let mut p = fasting(b);
                let has = |s: &str| u32::from(b.statuses.iter().any(|x| x == s));
                match carried.iter().find(|w| w.name == b.name) {
                    Some(w) => (p.hungry, p.thirsty) = (w.hungry, w.thirsty),
                    None => (p.hungry, p.thirsty) = (has("Hungry"), has("Thirsty")),
                }
                p
            })
            .collect();
        Hunger {
            lead: pcs.iter().position(|p| p.name == lead).unwrap_or(0),
            pcs,
            dead: Vec::new(),
        }
    }

    fn alive(&self, p: &Fasting) -> bool {
        !self.dead.contains(&p.name)
    }

    /// The lead's days without food and without water.
    pub(super) fn lead_days(&self) -> (u32, u32) {
        self.pcs
            .get(self.lead)
            .map_or((0, 0), |p| (p.hungry, p.thirsty))
    }

    /// The Difficulty hunger and thirst add to the lead's Travel Check.
    pub(super) fn penalty(&self) -> u32 {
        self.pcs.get(self.lead).map_or(0, Fasting::penalty)
    }

    /// `" Ada sets out Hungry and Thirsty: +4 Difficulty (2 days without
    /// food, 1 without water)."` for each PC carrying hunger or thirst
    /// from before the journey; empty when none does.
    pub(super) fn carried_line(&self, fed: bool) -> String {
        self.pcs
            .iter()
            .filter(|p| p.penalty() > 0)
            .map(|p| {
                let what = match (p.hungry > 0, p.thirsty > 0) {
                    (true, false) => "Hungry",
                    (false, true) => "Thirsty",
                    _ => "Hungry and Thirsty",
                };
                let days = days_without(p.hungry, p.thirsty);
                if fed {
                    // Said before the meal that clears it: no Difficulty
                    // goes on the road.
                    format!(" {} came in {what} ({days}).", p.name)
                } else {
                    format!(
                        " {} sets out {what}: +{} Difficulty ({days}).",
                        p.name,
                        p.penalty()
                    )
                }
            })
            .collect()
    }

    /// Whether anyone carries hunger or thirst.
    pub(super) fn wants(&self) -> bool {
        self.pcs.iter().any(|p| p.penalty() > 0)
    }

    /// Fed and watered in a settlement: every Difficulty cleared.
    pub(super) fn fed_in_town(&mut self) {
        for p in &mut self.pcs {
            p.hungry = 0;
            p.thirsty = 0;
        }
    }

    /// A rest in camp where `fed` of the living eat and `drank` drink,
    /// those nearest to death first; returns what the log says of it (the
    /// Difficulty each carries, who died) and how many are left alive.
    pub(super) fn rest_in_camp(&mut self, fed: u32, drank: u32) -> (String, u32) {
        let mut order: Vec<usize> = (0..self.pcs.len())
            .filter(|&i| self.alive(&self.pcs[i]))
            .collect();
        order.sort_by_key(|&i| {
            (
                i64::from(self.pcs[i].calling) - i64::from(self.pcs[i].penalty()),
                i,
            )
        });
        for (rank, &i) in order.iter().enumerate() {
            let p = &mut self.pcs[i];
            p.hungry = if (rank as u32) < fed { 0 } else { p.hungry + 1 };
            p.thirsty = if (rank as u32) < drank {
                0
            } else {
                p.thirsty + 1
            };
        }
        let deaths = self.deaths();
        let mut note = self.difficulties();
        note.push_str(&deaths);
        let alive = self.pcs.iter().filter(|p| self.alive(p)).count() as u32;
        (note, alive)
    }

    /// The living going without, for a watch's state.
    pub(super) fn wanting(&self) -> Vec<Wanting> {
        self.pcs
            .iter()
            .filter(|p| self.alive(p) && p.penalty() > 0)
            .map(|p| Wanting {
                name: p.name.clone(),
                hungry: p.hungry,
                thirsty: p.thirsty,
            })
            .collect()
    }

    /// `" Difficulty from hunger and thirst: PC 1 and PC 2 +1 (1 day
    /// without food); PC 4 +3 (…)."` (`everyone` when all the living
    /// share it), or empty when no one living goes without.
    fn difficulties(&self) -> String {
        let living: Vec<&Fasting> = self.pcs.iter().filter(|p| self.alive(p)).collect();
        let mut groups: Vec<((u32, u32), Vec<String>)> = Vec::new();
        for p in living.iter().filter(|p| p.penalty() > 0) {
            let days = (p.hungry, p.thirsty);
            match groups.iter_mut().find(|(d, _)| *d == days) {
                Some((_, names)) => names.push(p.name.clone()),
                None => groups.push((days, vec![p.name.clone()])),
            }
        }
        let each: Vec<String> = groups
            .iter()
            .map(|((h, t), names)| {
                let who = if names.len() == living.len() && names.len() > 1 {
                    "everyone".to_owned()
                } else {
                    crate::generators::join_and(names)
                };
                format!("{who} +{} ({})", h + 2 * t, days_without(*h, *t))
            })
            .collect();
        if each.is_empty() {
            return String::new();
        }
        format!(" Difficulty from hunger and thirst: {}.", each.join("; "))
    }

    /// The living whose Difficulty now exceeds their CALLING, marked dead;
    /// a sentence for each.
    fn deaths(&mut self) -> String {
        let mut out = String::new();
        let newly: Vec<usize> = (0..self.pcs.len())
            .filter(|&i| self.alive(&self.pcs[i]) && self.pcs[i].penalty() > self.pcs[i].calling)
            .collect();
        for i in newly {
            let p = &self.pcs[i];
            let how = match (p.hungry > 0, p.thirsty > 0) {
                (true, false) => "starved to death",
                (false, true) => "died of thirst",
                _ => "died of hunger and thirst",
            };
            out.push_str(&format!(
                " {} has {how}: +{} Difficulty is past their best CALLING ({}D).",
                p.name,
                p.penalty(),
                p.calling
            ));
            self.dead.push(p.name.clone());
        }
        out
    }
}

/// `2 days without food, 1 without water`.
fn days_without(hungry: u32, thirsty: u32) -> String {
    let days = |n: u32| crate::generators::count(n, "day", "days");
    match (hungry, thirsty) {
        (h, 0) => format!("{} without food", days(h)),
        (0, t) => format!("{} without water", days(t)),
        (h, t) => format!("{} without food, {t} without water", days(h)),
    }
}

/// A METTLE PC's hunger and thirst at the start: none, and their best
/// CALLING (best attribute with none).
fn fasting(b: &StatBlock) -> Fasting {
    let attribute = [b.NATURE, b.CULTURE, b.POISE, b.MOTIVE, b.FRAME];
    let calling = match b.callings.iter().map(|c| c.dice).max() {
        Some(dice) => dice,
        None => attribute.into_iter().max().unwrap_or(0),
    };
    Fasting {
        name: b.name.clone(),
        calling,
        hungry: 0,
        thirsty: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RulesSystem;

    #[test]
    fn the_nearest_to_death_eat_first_and_each_dies_past_their_calling() {
        // Every attribute 2 and 5, no CALLINGS: dead past +2 and past +5.
        let party = Party::from_summary("2,5", RulesSystem::Mettle).unwrap();
        let mut h = Hunger::new(&party, "PC 2", &[]);
        let (said, alive) = h.rest_in_camp(0, 2);
        assert_eq!(
            (said.as_str(), alive),
            (
                " Difficulty from hunger and thirst: everyone +1 (1 day without food).",
                2
            )
        );
        // One ration: PC 1 is a day from death (2 - 1), PC 2 four days.
        let (said, _) = h.rest_in_camp(1, 2);
        assert_eq!(
            said,
            " Difficulty from hunger and thirst: PC 2 +2 (2 days without food)."
        );
        assert_eq!((h.penalty(), h.lead_days()), (2, (2, 0)));
        let want = |name: &str, hungry, thirsty| Wanting {
            name: name.into(),
            hungry,
            thirsty,
        };
        assert_eq!(h.wanting(), [want("PC 2", 2, 0)]);
        // Nothing at all: PC 1 at +3 is past 2; PC 2 at +5 is not past 5.
        let (said, alive) = h.rest_in_camp(0, 0);
        assert_eq!(alive, 1);
        assert_eq!(
            said,
            " Difficulty from hunger and thirst: PC 2 +5 (3 days without food, 1 without water). \
             PC 1 has died of hunger and thirst: +3 Difficulty is past their best CALLING (2D)."
        );
        assert_eq!(h.dead, ["PC 1"]);
        assert_eq!(h.wanting(), [want("PC 2", 3, 1)]);
        // Fed and watered in town: the living carry nothing; the dead stay dead.
        h.fed_in_town();
        assert_eq!((h.penalty(), h.wanting(), h.dead.len()), (0, vec![], 1));
        let (said, alive) = h.rest_in_camp(1, 0);
        assert_eq!(
            (said.as_str(), alive),
            (
                " Difficulty from hunger and thirst: PC 2 +2 (1 day without water).",
                1
            )
        );
    }

    #[test]
    fn a_calling_counts_before_the_attributes_and_the_best_one_counts() {
        let mut party = Party::from_summary("6", RulesSystem::Mettle).unwrap();
        party.mettle[0].callings = [1, 3]
            .into_iter()
            .map(|dice| crate::rules::mettle::Calling {
                name: format!("Calling {dice}"),
                dice,
            })
            .collect();
        let mut h = Hunger::new(&party, "PC 1", &[]);
        // Thirst alone: +2, then +4 > 3 kills (attributes of 6 do not count).
        assert_eq!(h.rest_in_camp(1, 0).1, 1);
        let (said, alive) = h.rest_in_camp(1, 0);
        assert_eq!(alive, 0);
        assert!(
            said.ends_with(
                " PC 1 has died of thirst: +4 Difficulty is past their best CALLING (3D)."
            ),
            "{said}"
        );
    }
}
