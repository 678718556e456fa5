//! One watch of foraging (`core.forage`, d6), resolved for a forager: the
//! terrain says what grows and lives there (vegetation, small game, big
//! game, water), `--kits` and `--water` add the rest. Fruits and vegetables
//! need vegetation and carry a 1:8 exposure when eaten; fish needs a
//! fishing kit and water; small game a trapping kit and small game; big
//! game needs big game, a WIT save to track it and a ranged hit of 4 or more
//! damage (exploding, as all Core Rules damage) for 4 rations. On "choice"
//! the forager takes the option with the most rations expected (exact
//! odds). Foraged rations are perishable.
//!
//! **In METTLE terms** (a METTLE journey's foraging, `Request::mettle`):
//! the d6 still says what the land offers this watch, and the rolls the
//! Core Rules ask for become METTLE Checks. Our reading: a save is a
//! "challenging" task (Core Rules l.13), so tracking big game is a Check of
//! the forager's NATURE vs Challenging (3); the ranged attack that must do
//! 4 or more damage is a ranged Attack, CULTURE vs Challenging (3), a
//! success bringing the beast down. Fruits, fish and small game need no
//! roll in either system. The 1:8 exposure of fruits is an Affliction of
//! the Guide's choosing. Results are worded in METTLE terms only.

use serde::Serialize;

use super::{Address, GenError, Generator};
use crate::content::{Effect, Library, Row, Table};
use crate::dice::{self, Expr};
use crate::seed::{DieSource, Seed, Stream};
use crate::tables::TableRoll;

/// What a forager works with: the terrain, kits, water, WIT and weapon.
#[derive(Debug, Clone)]
pub struct Request {
    /// The terrain foraged in.
    pub terrain: String,
    /// `fishing`, `trapping`.
    pub kits: Vec<String>,
    /// A body of water in the region (besides what the terrain has).
    pub water: bool,
    /// The forager's WIT.
    pub wit: u32,
    /// The damage die of the forager's ranged weapon.
    pub damage: String,
    /// A METTLE forager: tracking and hunting are Checks, not saves.
    pub mettle: Option<MettleForager>,
}

/// The pools a METTLE forager checks with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MettleForager {
    /// NATURE, to track big game.
    pub track: u32,
    /// CULTURE, the ranged Attack that brings it down.
    pub shoot: u32,
}

/// The Difficulty of a METTLE forager's Checks: Challenging.
pub(crate) const METTLE_DIFFICULTY: u32 = 3;

impl Default for Request {
    fn default() -> Self {
        Request {
            terrain: "forest".into(),
            kits: Vec::new(),
            water: false,
            wit: 10,
            damage: "d6".into(),
            mettle: None,
        }
    }
}

/// One watch of foraging: the roll, what came of it and the exact odds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Forage {
    /// The terrain foraged in.
    pub terrain: String,
    /// What the forager has to work with.
    pub has: Vec<String>,
    /// The forage table's roll.
    pub roll: TableRoll,
    /// On "choice": the entry taken.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chose: Option<String>,
    /// What was found, in words.
    pub result: String,
    /// Rations found.
    pub rations: u32,
    /// The rations found spoil unless eaten at the next daily rest.
    pub perishable: bool,
    /// How it went, step by step (saves, damage rolls, what was missing).
    pub steps: Vec<String>,
    /// Fruits and vegetables: the 1:8 exposure, rolled now for when they
    /// are eaten (`true`: exposed to something the GM chooses).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exposed_if_eaten: Option<bool>,
    /// Exact chance that this watch finds any food, for this forager.
    pub chance_of_food: f64,
    /// Expected rations this watch, for this forager.
    pub expected_rations: f64,
}

/// What a forager has: the region's finds and water (its `[table.region]`,
/// see [`crate::content::region`]), kits, water.
fn features(library: &Library, req: &Request) -> Result<Vec<String>, GenError> {
    let region = library.region(&req.terrain).map_err(GenError::Request)?;
    let mut has = region.features();
    for kit in &req.kits {
        let kit = kit.trim().trim_end_matches(" kit").to_lowercase();
        if !["fishing", "trapping"].contains(&kit.as_str()) {
            return Err(GenError::Request(format!(
                "unknown kit `{kit}`; the kits are fishing and trapping"
            )));
        }
        has.push(format!("{kit} kit"));
    }
    if req.water && !has.iter().any(|h| h == "body of water") {
        has.push("body of water".into());
    }
    Ok(has)
}

fn ration_effect(row: &Row) -> Option<&Effect> {
    row.entry.effects.iter().find(|e| e.rations.is_some())
}

/// P(d20 ≤ WIT) × P(damage ≥ min) for rows with a save, 1 otherwise; 0 when
/// something is missing.
fn success_chance(e: &Effect, has: &[String], req: &Request) -> f64 {
    if e.rations.unwrap_or(0) == 0 || !e.needs.iter().all(|n| has.iter().any(|h| h == n)) {
        return 0.0;
    }
    let mut p = 1.0;
    if let Some(m) = req.mettle {
        let check = |pool| super::checks::chance(pool, METTLE_DIFFICULTY, false).unwrap_or(0.0);
        if e.save.is_some() {
            p *= check(m.track);
        }
        if e.min_damage.is_some() {
            p *= check(m.shoot);
        }
        return p;
    }
    if e.save.is_some() {
        p *= f64::from(req.wit.min(20)) / 20.0;
    }
    if let Some(min) = e.min_damage {
        p *= damage_at_least(&req.damage, min);
    }
    p
}

fn exploding(damage: &str) -> String {
    if damage.ends_with('!') {
        damage.to_owned()
    } else {
        format!("{damage}!")
    }
}

fn damage_at_least(damage: &str, min: i64) -> f64 {
    match dice::parse(&exploding(damage)) {
        Ok(Expr::Roll(r)) => dice::odds::roll_dist(&r).map_or(0.0, |d| d.at_least(min)),
        _ => 0.0,
    }
}

/// The row "choice" takes: the most rations expected, the earlier on ties.
fn best_choice<'a>(rows: &'a [Row], has: &[String], req: &Request) -> Option<&'a Row> {
    rows.iter()
        .filter_map(|r| {
            ration_effect(r).map(|e| {
                (
                    r,
                    f64::from(e.rations.unwrap_or(0) as u32) * success_chance(e, has, req),
                )
            })
        })
        .filter(|(_, expected)| *expected > 0.0)
        .fold(None, |best: Option<(&Row, f64)>, (r, x)| match best {
            Some((_, bx)) if bx >= x => best,
            _ => Some((r, x)),
        })
        .map(|(r, _)| r)
}

fn resolve(
    row: &Row,
    has: &[String],
    req: &Request,
    s: &mut Stream,
    steps: &mut Vec<String>,
) -> (u32, Option<bool>) {
    let Some(e) = ration_effect(row) else {
        return (0, None);
    };
    let missing: Vec<&str> = e
        .needs
        .iter()
        .map(|n| n.as_ref())
        .filter(|n| !has.iter().any(|h| h == n))
        .collect();
    if e.rations.unwrap_or(0) == 0 {
        steps.push("nothing edible this watch".into());
        return (0, None);
    }
    if !missing.is_empty() {
        let lacking: Vec<String> = (missing.iter())
            .map(|n| match n.ends_with(" kit") {
                true => format!("no {n} with them"),
                false => format!("no {n} here"),
            })
            .collect();
        steps.push(format!("no luck: {}", lacking.join(" and ")));
        return (0, None);
    }
    if let Some(ability) = &e.save
        && !track(ability, req, s, steps)
    {
        return (0, None);
    }
    if let Some(min) = e.min_damage
        && !kill(min, req, s, steps)
    {
        return (0, None);
    }
    let mut exposed = None;
    if let Some(chance) = &e.chance
        && let Ok(Expr::Chance(c)) = dice::parse(chance)
    {
        let roll = s.die(c.out_of);
        let hit = roll <= c.chances;
        steps.push(format!(
            "if eaten, the {chance} exposure: d{} = {roll} → {}",
            c.out_of,
            match (hit, req.mettle.is_some()) {
                (true, true) => "an Affliction of the Guide's choosing",
                (true, false) => "exposed to a disease, poison or drug of the GM's choice",
                _ => "safe",
            }
        ));
        exposed = Some(hit);
    }
    (e.rations.unwrap_or(0) as u32, exposed)
}

/// Tracking big game: the Core Rules' save, or a METTLE NATURE Check.
fn track(ability: &str, req: &Request, s: &mut Stream, steps: &mut Vec<String>) -> bool {
    let (pass, how) = match req.mettle {
        Some(m) => {
            let o = super::checks::roll(m.track, METTLE_DIFFICULTY, false, s);
            let text = super::checks::describe(m.track, METTLE_DIFFICULTY, &o);
            (
                o.success == Some(true),
                format!("NATURE Check to track: {text}"),
            )
        }
        None => {
            let d20 = s.die(20);
            let pass = d20 <= req.wit;
            let sign = if pass { "≤" } else { ">" };
            (
                pass,
                format!("{ability} save to track: d20 = {d20} {sign} {}", req.wit),
            )
        }
    };
    let end = if pass {
        "on the trail"
    } else {
        "the trail goes cold"
    };
    steps.push(format!("{how} → {end}"));
    pass
}

/// Bringing the beast down: the Core Rules' ranged hit of `min` or more
/// damage (exploding), or a METTLE ranged Attack (CULTURE).
fn kill(min: i64, req: &Request, s: &mut Stream, steps: &mut Vec<String>) -> bool {
    let (hit, how) = match req.mettle {
        Some(m) => {
            let o = super::checks::roll(m.shoot, METTLE_DIFFICULTY, false, s);
            let text = super::checks::describe(m.shoot, METTLE_DIFFICULTY, &o);
            (
                o.success == Some(true),
                format!("ranged Attack, CULTURE {text}"),
            )
        }
        None => {
            let text = exploding(&req.damage);
            let expr = dice::parse(&text).expect("a checked damage die");
            let v = dice::roll(&expr, s).value();
            let sign = if v >= min { "≥" } else { "<" };
            (
                v >= min,
                format!("ranged attack: {text} = {v} ({sign} {min})"),
            )
        }
    };
    let end = if hit { "a clean kill" } else { "it gets away" };
    steps.push(format!("{how} → {end}"));
    hit
}

impl Generator for Request {
    const KIND: &'static str = "forage";
    type Item = Forage;

    /// The forage at `at` for a request.
    fn make(&self, library: &Library, seed: &Seed, at: &Address) -> Result<Forage, GenError> {
        let has = features(library, self)?;
        check_request(self)?;
        let table = library.table("core.forage")?;
        let mut s = at.stream(seed, "watch");
        let roll = library.roll_table("core.forage", &mut s)?;
        let row = table
            .rows
            .iter()
            .find(|r| r.entry.name == roll.row && r.label() == roll.label)
            .expect("the rolled row");
        let mut steps = Vec::new();
        let mut chose = None;
        let taken =
            if ration_effect(row).is_none() && row.entry.effects.is_empty() && roll.result == 1 {
                match best_choice(&table.rows, &has, self) {
                    Some(best) => {
                        steps.push(format!(
                            "choice: takes {} (the most food expected)",
                            best.entry.name
                        ));
                        chose = Some(best.entry.name.to_string());
                        best
                    }
                    None => {
                        steps.push("choice: nothing here can feed them".into());
                        row
                    }
                }
            } else {
                row
            };
        let (rations, exposed) = resolve(taken, &has, self, &mut s, &mut steps);
        let (chance_of_food, expected_rations) = food_odds(table, &has, self);
        Ok(Forage {
            terrain: library
                .region(&self.terrain)
                .map_or_else(|_| self.terrain.clone(), |r| r.name.clone()),
            has,
            result: taken.entry.name.to_string(),
            roll,
            chose,
            rations,
            perishable: rations > 0,
            steps,
            exposed_if_eaten: exposed,
            chance_of_food,
            expected_rations,
        })
    }
}

/// A WIT on the scale and a damage die of the rules.
fn check_request(req: &Request) -> Result<(), GenError> {
    if !(1..=19).contains(&req.wit) {
        return Err(GenError::Request(format!(
            "--wit {}: WIT runs 1-19",
            req.wit
        )));
    }
    if !matches!(dice::parse(&req.damage), Ok(Expr::Roll(_)))
        || !crate::rules::core::DAMAGE_DICE.contains(&req.damage.trim_end_matches('!'))
    {
        return Err(GenError::Request(format!(
            "--damage {}: use d4, d6, d8, d10 or d12",
            req.damage
        )));
    }
    Ok(())
}

/// Exact odds for this forager, before the roll: the chance of food and
/// the rations expected.
fn food_odds(table: &Table, has: &[String], req: &Request) -> (f64, f64) {
    let chances = crate::tables::odds::row_chances(table);
    let mut chance_of_food = 0.0;
    let mut expected_rations = 0.0;
    for (r, p) in table.rows.iter().zip(chances) {
        let target = if ration_effect(r).is_none() && r.label() == "1" {
            best_choice(&table.rows, has, req)
        } else {
            Some(r)
        };
        if let Some(e) = target.and_then(ration_effect) {
            let q = success_chance(e, has, req);
            chance_of_food += p * q;
            expected_rations += p * q * f64::from(e.rations.unwrap_or(0) as u32);
        }
    }
    (chance_of_food, expected_rations)
}

/// What the rules refuse in a foraging result.
pub fn check(f: &Forage) -> Vec<String> {
    let mut out = Vec::new();
    if ![0, 1, 4].contains(&f.rations) {
        out.push(format!("{} rations: a watch finds 0, 1 or 4", f.rations));
    }
    if f.rations > 0 && !f.perishable {
        out.push("foraged rations must be perishable".into());
    }
    if f.rations == 4 && !f.steps.iter().any(|s| s.contains("a clean kill")) {
        out.push("4 rations without a kill".into());
    }
    if !(0.0..=1.0).contains(&f.chance_of_food) {
        out.push("chance of food outside 0-1".into());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::nth;

    #[test]
    fn ten_thousand_watches_follow_the_rules() {
        let library = crate::content::test_library();
        let seed = Seed::new("forage").unwrap();
        for (t, terrain) in crate::generators::encounter::TERRAINS.iter().enumerate() {
            let req = Request {
                terrain: (*terrain).into(),
                kits: if t % 2 == 0 {
                    vec!["fishing".into(), "trapping".into()]
                } else {
                    vec![]
                },
                water: t % 3 == 0,
                wit: 8 + t as u32,
                damage: "d6".into(),
                // Every other terrain forages in METTLE terms.
                mettle: (t % 2 == 1).then_some(MettleForager {
                    track: 2 + t as u32,
                    shoot: 3,
                }),
            };
            let mut food = 0u32;
            let n = 1500;
            for i in 0..n {
                let f = nth(&library, &req, &seed, i).unwrap();
                assert!(check(&f).is_empty(), "{terrain} #{i}: {:?}", check(&f));
                if req.mettle.is_some() {
                    let said = f.steps.join(" ");
                    assert!(!said.contains("WIT") && !said.contains("GM"), "{said}");
                }
                if f.rations > 0 {
                    food += 1;
                }
            }
            // Sampled chance of food within 5 sd of the exact one.
            let first = nth(&library, &req, &seed, 0).unwrap();
            let p = first.chance_of_food;
            let sd = (p * (1.0 - p) / f64::from(n as u32)).sqrt();
            let seen = f64::from(food) / f64::from(n as u32);
            assert!(
                (seen - p).abs() <= 5.0 * sd + 1e-9,
                "{terrain}: {seen} vs {p}"
            );
        }
    }

    #[test]
    fn exact_chance_of_food() {
        let (library, _) = Library::load(&[]);
        let seed = Seed::new("odds").unwrap();
        // Underground, no kits: nothing can be found at all.
        let req = Request {
            terrain: "underground".into(),
            ..Request::default()
        };
        assert_eq!(nth(&library, &req, &seed, 0).unwrap().chance_of_food, 0.0);
        // Forest, both kits, water, WIT 10, d6 bow: choice (1) takes a sure
        // ration; fruits, fish, small game are sure; big game is
        // 10/20 × P(d6! ≥ 4) = 1/2 × 1/2.
        let req = Request {
            terrain: "forest".into(),
            kits: vec!["fishing".into(), "trapping".into()],
            water: true,
            ..Request::default()
        };
        let f = nth(&library, &req, &seed, 0).unwrap();
        let expected = (4.0 + 0.25) / 6.0;
        assert!(
            (f.chance_of_food - expected).abs() < 1e-12,
            "{}",
            f.chance_of_food
        );
        // Choice prefers big game when 4 × 1/4 = 1 ties a sure ration? The
        // earlier row wins ties, so choice takes fruits.
        assert!((f.expected_rations - (4.0 + 4.0 * 0.25) / 6.0).abs() < 1e-12);
    }
}
