//! A trap built from parts that hang together, in the terrain it is set
//! in (the rules are [`crate::content::traps`]'s, read from the tables'
//! tags):
//!
//! 1. **Effect** (`<trap>/effect`): a weighted pick among the effect
//!    table's rows that fit the terrain and that some trigger there can
//!    spring.
//! 2. **Trigger** (`<trap>/trigger`): among those that fit the terrain and
//!    suit the effect (a `by:` for each `touch:`, none for a `never:`).
//! 3. **Clue** (`<trap>/clue`): a specific clue (the effect's mechanism
//!    or the trigger's kind) three times in four, a generic one the
//!    fourth (a d4), either kind when the other has no row there.
//! 4. **Disarm** (`<trap>/disarm`): a way to find, disarm, bypass or reset
//!    it (`gen.trap.disarm`) for its mechanism or trigger and place, by the same
//!    three-in-four rule; none when the table is not in effect.
//!
//! Each is drawn among the rows of the era in effect, on a stream of its
//! own, and its text resolved on that stream.

use super::Drawn;
use crate::content::traps::{self, CLUES, DISARM, Points, TRIGGERS};
use crate::content::{Library, Region, Row, era};
use crate::generators::{Address, GenError};
use crate::seed::{DieSource, Seed, Stream};
use crate::tables::TableRoll;

/// Where a trap is drawn: the tables, the seed, its address and terrain.
#[derive(Clone, Copy)]
pub(super) struct Place<'a> {
    pub library: &'a Library,
    pub seed: &'a Seed,
    pub at: &'a Address,
    pub region: &'a Region,
    /// Whether foes who are people are at hand (an encounter's): only then
    /// may an effect that calls on its keepers be drawn ([`traps::kept`]).
    pub keepers: bool,
    /// Rows of an era's own (`era:modern`) are left out while no era is
    /// declared: a trap drawn in the mix, not asked for from the rules.
    pub timeless: bool,
}

impl Place<'_> {
    /// The same place, drawing no row of an era's own while no era is
    /// declared ([`Place::timeless`]).
    pub(super) fn timeless(&self) -> Self {
        Place {
            timeless: true,
            ..*self
        }
    }

    /// A trap from parts: an effect from `effect_table` and the trigger,
    /// clue and way to disarm it that fit.
    pub(super) fn assemble(&self, effect_table: &str) -> Result<Drawn, GenError> {
        let triggers = self.rows(TRIGGERS)?;
        let clues = self.rows(CLUES)?;
        let effects: Vec<(usize, &Row)> = self
            .rows(effect_table)?
            .into_iter()
            .filter(|(_, e)| {
                triggers
                    .iter()
                    .any(|(_, t)| traps::suits(&e.entry.tags, &t.entry.tags))
            })
            .collect();
        let e = self.draw(effect_table, &effects, "effect")?;
        let springs: Vec<(usize, &Row)> = triggers
            .into_iter()
            .filter(|(_, t)| traps::suits(&e.tags, &t.entry.tags))
            .collect();
        let t = self.draw(TRIGGERS, &springs, "trigger")?;
        let c = self.by_kind(CLUES, &clues, "clue", |r| {
            traps::points(&r.entry.tags, &e.tags, &t.tags)
        })?;
        let c = c.ok_or_else(|| self.none_fit(CLUES))?;
        let d = self.disarm(&e, &t.tags)?;
        let mut trail = vec![t.trail_text(), c.trail_text(), e.trail_text()];
        trail.extend(d.as_ref().map(TableRoll::trail_text));
        Ok(Drawn {
            name: named(&e.row, &where_set(&t)),
            trigger: format!("{}: {}", t.row, t.text),
            clue: c.text.clone(),
            effect: format!("{}: {}", e.row, e.text),
            effects: e.effects.clone(),
            tags: e.tags.clone(),
            disarm: d.map(|d| format!("{}: {}", d.row, d.text)),
            trail,
        })
    }

    /// A way to deal with a trap whose effect (or rules row) is `effect`,
    /// sprung by a trigger with `trigger` tags (none for a rules trap):
    /// `None` without a `gen.trap.disarm` table or a row for it.
    pub(super) fn disarm(
        &self,
        effect: &TableRoll,
        trigger: &[String],
    ) -> Result<Option<TableRoll>, GenError> {
        if self.library.get(DISARM).is_none() {
            return Ok(None);
        }
        let rows = self.rows(DISARM)?;
        self.by_kind(DISARM, &rows, "disarm", |r| {
            traps::serves(&r.entry.tags, &effect.tags, trigger, self.region.place())
        })
    }

    /// The rows of `id` of the era in effect that fit the terrain, with
    /// their indices.
    fn rows(&self, id: &str) -> Result<Vec<(usize, &Row)>, GenError> {
        let table = self.library.table(id)?;
        Ok(table
            .rows
            .iter()
            .enumerate()
            .filter(|(_, r)| {
                era::fits(r, self.library.era.as_deref())
                    && !(self.timeless
                        && self.library.era.is_none()
                        && era::eras(r).next().is_some())
                    && traps::fits(&r.entry.tags, self.region)
                    && traps::kept(&r.entry.tags, self.keepers)
            })
            .collect())
    }

    /// A row of `rows` (of table `id`), specific three times in four and
    /// generic the fourth by `kind`, on the `part` stream (`None`: no row
    /// is either).
    fn by_kind(
        &self,
        id: &str,
        rows: &[(usize, &Row)],
        part: &str,
        kind: impl Fn(&Row) -> Points,
    ) -> Result<Option<TableRoll>, GenError> {
        let of = |k: Points| -> Vec<(usize, &Row)> {
            rows.iter().copied().filter(|(_, r)| kind(r) == k).collect()
        };
        let (specific, generic) = (of(Points::Specific), of(Points::Generic));
        let mut s = self.at.stream(self.seed, part);
        let wants_specific = s.die(4) != 4;
        let chosen = match (wants_specific, specific.is_empty(), generic.is_empty()) {
            (_, true, true) => return Ok(None),
            (true, false, _) | (false, false, true) => specific,
            _ => generic,
        };
        self.pick(id, &chosen, &mut s).map(Some)
    }

    /// A weighted pick among the rows of `id` that fit the terrain, on `s`.
    /// Whether some row of `id` fits here.
    pub(super) fn any_fits(&self, id: &str) -> bool {
        self.rows(id).is_ok_and(|rows| !rows.is_empty())
    }

    pub(super) fn fitting(&self, id: &str, s: &mut Stream) -> Result<TableRoll, GenError> {
        let rows = self.rows(id)?;
        if rows.is_empty() {
            return Err(self.none_fit(id));
        }
        self.pick(id, &rows, s)
    }

    /// A weighted pick among `rows` of table `id` on the `part` stream.
    fn draw(&self, id: &str, rows: &[(usize, &Row)], part: &str) -> Result<TableRoll, GenError> {
        if rows.is_empty() {
            return Err(self.none_fit(id));
        }
        self.pick(id, rows, &mut self.at.stream(self.seed, part))
    }

    fn pick(
        &self,
        id: &str,
        rows: &[(usize, &Row)],
        s: &mut Stream,
    ) -> Result<TableRoll, GenError> {
        let weights: Vec<u64> = rows.iter().map(|(_, r)| weight(r)).collect();
        let k = s.pick_weighted(&weights).unwrap_or(0);
        Ok(self.library.resolve(id, rows[k].0, s)?)
    }

    fn none_fit(&self, id: &str) -> GenError {
        GenError::Request(format!(
            "no row of `{id}` makes a trap that fits {} ({}); `tablewright validate` says what is missing",
            self.region.name,
            self.region.place()
        ))
    }
}

/// A row's weight: its `weight`, or the width of its range.
fn weight(r: &Row) -> u64 {
    r.entry
        .weight
        .or_else(|| r.entry.range.map(|(lo, hi)| (hi - lo + 1).max(1) as u64))
        .unwrap_or(1)
}

/// A trap's name: its effect, then where it is set, unless the effect's
/// name already says the place (`False boardwalk`, not `False boardwalk
/// on the boardwalk`).
fn named(effect: &str, set: &str) -> String {
    let place = set.rsplit(' ').next().unwrap_or_default().to_lowercase();
    let said = effect
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| !place.is_empty() && w == place);
    if said {
        effect.to_owned()
    } else {
        format!("{effect} {set}")
    }
}

/// Where a trigger sets a trap, to follow its effect in the trap's name
/// (`Darts on the way out`): the trigger row's `set:` tag, or `at the
/// <trigger>`.
fn where_set(trigger: &TableRoll) -> String {
    trigger
        .tags
        .iter()
        .find_map(|t| t.strip_prefix("set:"))
        .map_or_else(
            || format!("at the {}", trigger.row.to_lowercase()),
            str::to_owned,
        )
}

#[cfg(test)]
mod tests {
    use super::super::{Abilities, Against, Request, Source, Trap};
    use super::named;
    use crate::content::traps::{self, DISARM, Points};
    use crate::content::{Library, Row};
    use crate::generators::nth;
    use crate::seed::Seed;

    /// The row of table `id` the trap's trail says was drawn.
    fn row<'l>(library: &'l Library, t: &Trap, id: &str) -> &'l Row {
        let head = format!("{id} weights = ");
        let n: usize = t
            .trail
            .iter()
            .find_map(|s| s.strip_prefix(&head))
            .and_then(|s| s.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no {id} in {:?}", t.trail));
        &library.get(id).unwrap().rows[n - 1]
    }

    fn built_only(r: &Row) -> bool {
        let places: Vec<&str> = traps::values(&r.entry.tags, "place:").collect();
        places == ["built"]
    }

    /// Over 1,050 traps a system (150 in each terrain): every part fits the
    /// terrain, the trigger suits the effect, the clue points at this trap
    /// or any (three in four at this one), the way to disarm it at its
    /// mechanism; no built-only part in the wild, no needle in the hand
    /// sprung by a foot.
    #[test]
    fn a_thousand_traps_a_system_hang_together_in_every_terrain() {
        let library = crate::content::test_library();
        let seed = Seed::new("coherent").unwrap();
        let systems = [
            (Against::Poise(vec![3]), "gen.trap.effect"),
            (
                Against::Abilities(Abilities {
                    str: vec![10],
                    agi: vec![10],
                    wit: vec![10],
                }),
                "gen.trap.core.effect",
            ),
        ];
        for (against, effects) in systems {
            let (mut specific, mut all) = (0, 0);
            for (k, region) in library.regions().enumerate() {
                let req = Request {
                    source: Source::Parts,
                    against: against.clone(),
                    party: None,
                    terrain: Some(region.name.clone()),
                    keepers: false,
                };
                // Each terrain its own addresses, so its own dice.
                for i in k * 150..(k + 1) * 150 {
                    let t = nth(&library, &req, &seed, i).unwrap();
                    let at = format!("{} #{i} {}", region.name, t.name);
                    assert_eq!(t.terrain, region.name);
                    let e = row(&library, &t, effects);
                    let tr = row(&library, &t, traps::TRIGGERS);
                    let c = row(&library, &t, traps::CLUES);
                    let d = row(&library, &t, DISARM);
                    let (et, tt, ct) = (&e.entry.tags, &tr.entry.tags, &c.entry.tags);
                    for part in [e, tr, c] {
                        assert!(traps::fits(&part.entry.tags, region), "{at}: {part:?}");
                        if region.place() == "wild" {
                            assert!(!built_only(part), "{at}: built-only {:?}", part.entry.name);
                        }
                    }
                    assert!(traps::suits(et, tt), "{at}: {et:?} sprung by {tt:?}");
                    let touch_hand = et.iter().any(|x| x == "touch:hand");
                    let by_foot = tt.iter().any(|x| x == "by:foot");
                    assert!(
                        !(touch_hand && by_foot),
                        "{at}: a hand trap on a foot trigger"
                    );
                    let points = traps::points(ct, et, tt);
                    assert_ne!(
                        points,
                        Points::Elsewhere,
                        "{at}: clue {ct:?} for {et:?}/{tt:?}"
                    );
                    assert_ne!(
                        traps::serves(&d.entry.tags, et, tt, region.place()),
                        Points::Elsewhere
                    );
                    specific += usize::from(points == Points::Specific);
                    all += 1;
                    assert!(
                        t.disarm
                            .as_deref()
                            .is_some_and(|x| x.starts_with(&*d.entry.name))
                    );
                }
            }
            let share = specific as f64 / all as f64;
            assert!((0.70..0.80).contains(&share), "{effects}: {share}");
        }
    }

    #[test]
    fn a_terrain_is_drawn_when_none_is_asked_and_rules_traps_keep_their_stream() {
        let library = crate::content::test_library();
        let seed = Seed::new("anywhere").unwrap();
        let req = Request::default();
        let terrains: std::collections::BTreeSet<String> = (0..200)
            .map(|i| nth(&library, &req, &seed, i).unwrap().terrain)
            .collect();
        assert_eq!(terrains.len(), library.regions().count(), "{terrains:?}");
        let rules = Request {
            source: Source::Rules,
            ..Request::default()
        };
        let names: std::collections::BTreeSet<String> = (0..200)
            .map(|i| nth(&library, &rules, &seed, i).unwrap())
            .inspect(|t| assert!(t.disarm.is_some(), "{}", t.name))
            .map(|t| t.name)
            .collect();
        assert!(names.contains("Scything blade"), "{names:?}");
    }

    #[test]
    fn a_trap_is_named_for_its_place_once() {
        assert_eq!(
            named("False boardwalk", "on the boardwalk"),
            "False boardwalk"
        );
        assert_eq!(named("Darts", "on the way out"), "Darts on the way out");
        assert_eq!(named("Snare", "at the tripwire"), "Snare at the tripwire");
    }
}
