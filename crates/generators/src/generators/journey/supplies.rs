//! Food and water between legs. In a settlement the party can buy meals
//! at the daily rest, so a party short of food stays for it; water is to
//! hand there. Elsewhere a party short of water spends a watch searching
//! (Core Rules: a WIT save by the best WIT; METTLE: a NATURE Check vs
//! Challenging by the best NATURE — our reading, as for foraging) and a
//! source fills everyone to capacity; a party short of food forages for a
//! watch, every PC at once (the Core foraging table; in METTLE terms for a
//! METTLE party, see [`super::super::forage`]). When the rest is due, the
//! search comes first and is groggy: better than resting without.

use super::super::checks;
use super::super::forage::{self, METTLE_DIFFICULTY, MettleForager};
use super::super::{GenError, Generator};
use super::clock::Place;
use super::trip::Trip;
use crate::rules::RulesSystem;
use crate::seed::DieSource;

impl Trip<'_> {
    /// Food and water at `stop` (not the goal) after leg `k`.
    pub(super) fn resupply(&mut self, k: usize, stop: usize) -> Result<(), GenError> {
        let place = self.place(stop);
        if place.settlement {
            if self.clock.larder.food_short() {
                self.clock.log(format!(
                    "Food is short: they stay in {} until the daily rest, when meals are sold.",
                    place.name
                ));
                while !self.clock.rest_due() {
                    self.clock.spend("wait", &place);
                }
                self.clock.rest(&place);
            }
            return Ok(());
        }
        // A watch spent here may begin with a forced rest: the dead (METTLE:
        // hunger and thirst) neither search nor forage, and the party goes
        // no further.
        if self.clock.larder.water_short() && self.fit_for_a_watch(&place) {
            self.search_water(k, &place);
        }
        if self.clock.larder.food_short() && self.fit_for_a_watch(&place) {
            self.forage(k, stop, &place)?;
        }
        Ok(())
    }

    /// The forced rest a watch here would begin with, taken first; true
    /// while hunger and thirst have killed no one.
    fn fit_for_a_watch(&mut self, place: &Place) -> bool {
        self.clock.rest_if_forced(place);
        self.clock.larder.hunger.dead.is_empty()
    }

    /// A watch searching for water.
    fn search_water(&mut self, k: usize, place: &Place) {
        let groggy = self.clock.begin("water", place);
        let mut s = self.at.stream(self.seed, &format!("leg/{k}/water"));
        let (found, how) = match self.req.system {
            RulesSystem::Mettle => {
                let (name, pool) = self
                    .req
                    .party
                    .mettle
                    .iter()
                    .map(|b| (b.name.clone(), b.NATURE))
                    .max_by_key(|(n, p)| (*p, std::cmp::Reverse(n.clone())))
                    .expect("a METTLE party");
                let o = checks::roll(pool, METTLE_DIFFICULTY, false, &mut s);
                let text = checks::describe(pool, METTLE_DIFFICULTY, &o);
                (
                    o.success == Some(true),
                    format!("{name}'s NATURE Check {text}"),
                )
            }
            RulesSystem::Core => {
                let pc = self
                    .clock
                    .larder
                    .pcs
                    .iter()
                    .max_by_key(|p| (p.now(2), std::cmp::Reverse(p.name.clone())))
                    .expect("a Core Rules party");
                let (name, wit) = (pc.name.clone(), pc.now(2));
                let d20 = i64::from(s.die(20));
                (
                    d20 <= wit,
                    format!("{name}'s WIT save d20 = {d20} vs {wit}"),
                )
            }
        };
        if found {
            self.clock.larder.fill_water();
        }
        let result = if found {
            format!(
                "a clean source: water filled to capacity ({})",
                super::count(self.clock.larder.water, "unit", "units")
            )
        } else {
            "no water found".into()
        };
        self.clock.log(format!(
            "Water is short: a watch spent searching, {how} → {result}."
        ));
        self.clock.end("water", place, groggy);
    }

    /// A watch of foraging at `stop`, every PC at once.
    fn forage(&mut self, k: usize, stop: usize, place: &Place) -> Result<(), GenError> {
        let groggy = self.clock.begin("forage", place);
        let s = self.stop(stop);
        let kits: Vec<String> = self
            .req
            .kits
            .iter()
            .filter_map(|k| super::kit_name(k).ok())
            .filter(|k| k != "camping")
            .collect();
        let foragers = self.foragers();
        let mut found = 0;
        let mut notes = Vec::new();
        for (pc, (name, wit, damage, mettle)) in foragers.into_iter().enumerate() {
            let req = forage::Request {
                terrain: s.terrain.clone(),
                kits: kits.clone(),
                // The region's own water (`[table.region]`) is among
                // what the forager has already.
                water: false,
                wit,
                damage,
                mettle,
            };
            let f = req.make(
                self.library,
                self.seed,
                &self.at.child("leg", k).child("forage", pc),
            )?;
            found += f.rations;
            let mut note = format!("{name}: {} ({})", f.result, f.rations);
            if !f.steps.is_empty() {
                note.push_str(&format!(", {}", f.steps.join("; ")));
            }
            notes.push(note);
        }
        self.clock.larder.perishable += found;
        self.clock.log(format!(
            "Food is short: everyone forages for a watch and finds {} — {}.",
            super::count(found, "perishable ration", "perishable rations"),
            notes.join("; ")
        ));
        self.clock.end("forage", place, groggy);
        Ok(())
    }

    /// Each PC as a forager: name, WIT and damage die (Core Rules), or
    /// NATURE and CULTURE (METTLE).
    #[allow(clippy::type_complexity)]
    fn foragers(&self) -> Vec<(String, u32, String, Option<MettleForager>)> {
        match self.req.system {
            RulesSystem::Mettle => self
                .req
                .party
                .mettle
                .iter()
                .map(|b| {
                    let m = MettleForager {
                        track: b.NATURE,
                        shoot: b.CULTURE,
                    };
                    (b.name.clone(), 10, "d6".to_owned(), Some(m))
                })
                .collect(),
            RulesSystem::Core => self
                .clock
                .larder
                .pcs
                .iter()
                .zip(&self.req.party.core)
                .map(|(p, sheet)| {
                    let wit = p.now(2).clamp(1, 19) as u32;
                    (p.name.clone(), wit, sheet.damage.clone(), None)
                })
                .collect(),
        }
    }
}
