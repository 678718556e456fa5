//! Layers laid over a situation so it reads new: a twist
//! (`gen.situation.twist`) and how it ends if the party does nothing
//! (`gen.situation.ending`), each drawn by weight, on a stream of its own
//! (`twist`, `ending`), among the rows whose tags the situation meets:
//! `outdoor` or `indoor` (the region's setting; a situation under a roof
//! in the open, [`Region::roofs`], is neither), `foes` (foes on stage)
//! and `people` (someone on stage who talks: an `npc:` person, or a
//! `human` or `townsfolk` foe); a row needs all its tags.
//!
//! With foes on stage, the spoils too ([`spoils`], on the `spoils`
//! stream): what foes who carry things have on them, from the system's
//! treasure table (`gen.treasure.core` in shillings, `gen.treasure.mettle`
//! in what METTLE tracks), or, among beasts and the like, an odd find in
//! the lair or the remains (`gen.treasure.trinket`). A freed captive who
//! follows the party (rows tagged `needs:captive`) only where the situation
//! or its twist holds a captive (tagged `captive`).

use super::super::GenError;
use super::super::npc::Npc;
use crate::content::region::{
    CAPTIVE, LAYER_TABLES, NEEDS_CAPTIVE, NOT_IN, RAIN, SCENE_KINDS, TERRAIN_TAG,
};
use crate::content::validate::traits::{UNLIVING, bodies};
use crate::content::{Library, Region, Row};
use crate::rules::RulesSystem;
use crate::seed::Stream;
use crate::tables::TableRoll;

/// The twist table.
pub const TWIST: &str = LAYER_TABLES[0];
/// The ending table.
pub const ENDING: &str = LAYER_TABLES[1];

/// What a situation offers its layers and its spoils: where it stands and
/// who is on stage (the tags of [`crate::content::region::LAYER_TAGS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stage<'r> {
    /// The region the encounter is in: its name (for `terrain:` tags), its
    /// setting and its water.
    pub region: &'r Region,
    /// The situation stands under a roof in a region under the open sky
    /// ([`Region::roofs`]: a wine cellar in the ruins): nothing that needs
    /// the open fits, and nothing written for below ground either.
    pub roofed: bool,
    /// What kind of scene the situation says it is (its
    /// [`SCENE_KINDS`] tags): a hazard that runs its course or stays, people
    /// who keep the place or are on the move, a scene after dark.
    pub kinds: Kinds,
    /// The weather says rain or snow (tagged `rain` or `snow`): no small
    /// fire that "will be a large one soon".
    pub wet: bool,
    /// There are foes on stage.
    pub foes: bool,
    /// There are two foes or more (a band that can split, scatter or lose
    /// its leader).
    pub band: bool,
    /// The foes are of two archetypes or more: a leader and those who
    /// follow (a bandit captain and bandits), so no "leader away".
    pub led: bool,
    /// No foe on stage is undead, a spirit or a construct: everyone there
    /// eats, sleeps and tires.
    pub living: bool,
    /// There are non-hostile people on stage.
    pub others: bool,
    /// A foe on stage talks and bargains (a `human` or `townsfolk` foe).
    pub parley: bool,
    /// A foe on stage carries goods it could take or leave (see
    /// `CARRIERS`).
    pub carriers: bool,
}

/// A set of [`SCENE_KINDS`]: the kinds a situation's tags name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Kinds(u8);

impl Kinds {
    /// The kinds among `tags`.
    pub fn of<S: AsRef<str>>(tags: &[S]) -> Kinds {
        let bits = SCENE_KINDS
            .iter()
            .enumerate()
            .filter(|(_, k)| tags.iter().any(|t| t.as_ref() == **k));
        Kinds(bits.fold(0, |acc, (i, _)| acc | 1 << i))
    }

    /// The same kinds and `kind` (one of [`SCENE_KINDS`]).
    pub fn with(self, kind: &str) -> Kinds {
        Kinds(self.0 | Kinds::of(&[kind]).0)
    }

    /// Whether `kind` is among them.
    pub fn has(self, kind: &str) -> bool {
        SCENE_KINDS
            .iter()
            .position(|k| *k == kind)
            .is_some_and(|i| self.0 & 1 << i != 0)
    }
}

/// The scene kind, and the weather tag, of a scene after dark.
pub(super) const NIGHT: &str = "night";

/// The weather tags of a wet day.
const WET: [&str; 2] = [RAIN, "snow"];

/// Foe kinds that talk and bargain.
const TALKERS: [&str; 2] = ["human", "townsfolk"];

impl<'r> Stage<'r> {
    /// The stage of an encounter in `region` with this situation and
    /// weather, these foes and others. Weather tagged `night` (a moonlit
    /// frost) makes a night scene, as the situation's own `night` does.
    pub fn of(
        library: &Library,
        (region, situation, weather): (&'r Region, &TableRoll, Option<&TableRoll>),
        foes: &[Npc],
        others: &[Npc],
    ) -> Stage<'r> {
        let says = |tags: &[&str]| {
            weather.is_some_and(|w| w.tags.iter().any(|t| tags.contains(&t.as_str())))
        };
        let after_dark = says(&[NIGHT]);
        let mut kinds = Kinds::of(&situation.tags);
        if after_dark {
            kinds = kinds.with(NIGHT);
        }
        Stage {
            region,
            roofed: region.roofs(&situation.tags),
            kinds,
            wet: says(&WET),
            foes: !foes.is_empty(),
            band: foes.len() >= 2,
            led: foes.iter().any(|n| n.archetype != foes[0].archetype),
            living: !foes.iter().any(|n| UNLIVING.contains(&n.kind.as_str())),
            others: !others.is_empty(),
            parley: foes.iter().any(|n| TALKERS.contains(&n.kind.as_str())),
            carriers: foes.iter().any(|n| carrier(library, n)),
        }
    }

    /// Whether a layer row with `tags` fits the stage: it needs all its
    /// tags, meets none it names after [`NOT_IN`] (`not:fixture`), and its
    /// `terrain:` tags name this region if it has any (tags outside
    /// [`crate::content::region::LAYER_TAGS`], which `validate` refuses on
    /// layer rows, ask nothing).
    pub fn fits<S: AsRef<str>>(&self, tags: &[S]) -> bool {
        let terrains: Vec<&str> = tags
            .iter()
            .filter_map(|t| t.as_ref().strip_prefix(TERRAIN_TAG))
            .collect();
        let here = terrains.is_empty() || terrains.contains(&self.region.name.as_str());
        here && tags.iter().all(|t| match t.as_ref().strip_prefix(NOT_IN) {
            Some(not) => !self.meets(not),
            None => self.meets(t.as_ref()),
        })
    }

    /// Whether the stage meets one tag.
    fn meets(&self, tag: &str) -> bool {
        let people = self.others || self.parley;
        match tag {
            "outdoor" => self.region.outdoor() && !self.roofed,
            "indoor" => !self.region.outdoor(),
            "wild" | "settled" => self.region.setting == tag && !self.roofed,
            "water" => self.region.water,
            "wet" => self.wet,
            "foes" => self.foes,
            "band" => self.band,
            "people" => people,
            "someone" => self.foes || self.others,
            "parley" => self.parley,
            "friendly" => self.others && !self.foes,
            "carriers" => self.carriers,
            "trouble" => self.foes || !self.others,
            "led" => self.led,
            "living" => self.living,
            kind if SCENE_KINDS.contains(&kind) => self.kinds.has(kind),
            _ => true,
        }
    }
}

/// One layer from table `id`: a row that fits `stage`, drawn by weight and
/// resolved on `s`; none when the table is missing or no row fits.
pub(super) fn layer(
    library: &Library,
    id: &str,
    stage: Stage,
    s: &mut Stream,
) -> Result<Option<TableRoll>, GenError> {
    let Some(table) = library.get(id) else {
        return Ok(None);
    };
    let fitting: Vec<(usize, &Row)> = table
        .rows
        .iter()
        .enumerate()
        .filter(|(_, r)| stage.fits(&r.entry.tags))
        .collect();
    let weights: Vec<u64> = fitting
        .iter()
        .map(|(_, r)| r.entry.weight.unwrap_or(1).max(1))
        .collect();
    let Some(pick) = s.pick_weighted(&weights) else {
        return Ok(None);
    };
    Ok(Some(library.resolve(id, fitting[pick].0, s)?))
}

/// Foe kinds that carry purses and gear (the rest leave a lair's odd find).
const CARRIERS: [&str; 3] = ["human", "townsfolk", "monster"];

/// Bodies that carry nothing, whatever their kind: an ooze, a serpent.
const NO_HANDS: [&str; 2] = ["shapeless", "beast"];

/// Whether a foe carries purses and gear: a person or a monster with
/// hands (a skeleton's axe, an ogre's sack), not a beast, an ooze or a
/// serpent (their archetype's `body:` tag).
fn carrier(library: &Library, n: &Npc) -> bool {
    let body = library
        .get("gen.npc.mettle")
        .and_then(|t| t.rows.iter().find(|r| *r.entry.name == *n.archetype))
        .map(|r| bodies(&r.entry.tags)[0]);
    CARRIERS.contains(&n.kind.as_str()) && !body.is_some_and(|b| NO_HANDS.contains(&b))
}

/// The system's treasure table.
fn treasure_table(system: RulesSystem) -> &'static str {
    match system {
        RulesSystem::Core => "gen.treasure.core",
        RulesSystem::Mettle => "gen.treasure.mettle",
    }
}

/// Draws of the spoils before giving up on a row that fits (a table whose
/// only rows need a captive has been ruled out before).
const SPOILS_DRAWS: usize = 64;

/// What the foes leave: none without foes or the table; the system's
/// treasure when a foe carries things, else a trinket. A row must fit the
/// stage by its layer tags (a boat only by water), and a row tagged
/// [`NEEDS_CAPTIVE`] (a freed captive who follows the party) needs
/// `captive`: a row drawn that does not fit is drawn again on the same
/// stream, so the other rows keep their odds among themselves and every
/// spoils that fits at once is drawn as before.
pub(super) fn spoils(
    library: &Library,
    system: RulesSystem,
    (stage, captive): (Stage, bool),
    s: &mut Stream,
) -> Result<Option<TableRoll>, GenError> {
    if !stage.foes {
        return Ok(None);
    }
    let id = if stage.carriers {
        treasure_table(system)
    } else {
        "gen.treasure.trinket"
    };
    let fits =
        |tags: &[String]| stage.fits(tags) && (captive || !tags.iter().any(|t| t == NEEDS_CAPTIVE));
    let Some(table) = library.get(id) else {
        return Ok(None);
    };
    let owned = |r: &Row| {
        r.entry
            .tags
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
    };
    if !table.rows.iter().any(|r| fits(&owned(r))) {
        return Ok(None);
    }
    for _ in 0..SPOILS_DRAWS {
        let roll = library.roll_table(id, s)?;
        if fits(&roll.tags) {
            return Ok(Some(roll));
        }
    }
    Ok(None)
}

/// Whether a situation or its twist puts a captive on stage (tagged
/// [`CAPTIVE`]).
pub(super) fn holds_captive(situation: &TableRoll, twist: Option<&TableRoll>) -> bool {
    std::iter::once(situation)
        .chain(twist)
        .any(|r| r.tags.iter().any(|t| t == CAPTIVE))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn region(name: &str, setting: &str, water: bool) -> Region {
        Region {
            setting: setting.into(),
            water,
            ..Region::defaults(&format!("gen.encounter.{name}"))
        }
    }

    fn stage(region: &Region, foes: bool, others: bool, parley: bool) -> Stage<'_> {
        Stage {
            region,
            roofed: false,
            kinds: Kinds::default(),
            wet: false,
            foes,
            band: foes,
            led: false,
            living: true,
            others,
            parley,
            carriers: parley,
        }
    }

    #[test]
    fn a_row_needs_all_its_tags() {
        let cave = region("underground", "indoor", false);
        let s = stage(&cave, true, false, false);
        assert!(s.fits::<&str>(&[]));
        assert!(s.fits(&["foes"]));
        assert!(s.fits(&["indoor", "foes"]));
        assert!(!s.fits(&["outdoor"]));
        assert!(!s.fits(&["foes", "people"]));
        assert!(!s.fits(&["wild"]) && !s.fits(&["settled"]) && !s.fits(&["water"]));
        assert!(!s.fits(&["carriers"]) && !s.fits(&["parley"]));
    }

    #[test]
    fn who_is_on_stage_reads_apart() {
        let town = region("town", "settled", false);
        let friendly = stage(&town, false, true, false);
        assert!(friendly.fits(&["people", "friendly", "someone", "settled"]));
        assert!(!friendly.fits(&["parley"]) && !friendly.fits(&["foes"]));
        assert!(!friendly.fits(&["trouble"]));
        let bandits = stage(&town, true, false, true);
        assert!(bandits.fits(&["people", "parley", "carriers", "someone"]));
        assert!(!bandits.fits(&["friendly"]));
        let empty = stage(&town, false, false, false);
        assert!(!empty.fits(&["someone"]) && !empty.fits(&["people"]));
        assert!(empty.fits(&["trouble"]) && bandits.fits(&["trouble"]));
        let lone = Stage {
            band: false,
            ..bandits
        };
        assert!(bandits.fits(&["band"]) && !lone.fits(&["band"]));
    }

    #[test]
    fn a_scene_under_a_roof_takes_neither_the_open_nor_the_deep() {
        let ruins = region("ruins", "settled", false);
        let open = stage(&ruins, true, false, false);
        let cellar = Stage {
            roofed: true,
            ..open
        };
        assert!(open.fits(&["outdoor"]) && open.fits(&["settled"]));
        for tag in ["outdoor", "settled", "wild", "indoor"] {
            assert!(!cellar.fits(&[tag]), "{tag}");
        }
        assert!(cellar.fits(&["foes"]) && cellar.fits(&["terrain:ruins"]));
    }

    #[test]
    fn a_hazard_that_stays_takes_no_ending_that_needs_it_gone() {
        let ruins = region("ruins", "settled", false);
        let empty = stage(&ruins, false, false, false);
        let floor = Stage {
            kinds: Kinds::of(&["fixture"]),
            ..empty
        };
        let fire = Stage {
            kinds: Kinds::of(&["event", "night"]),
            ..empty
        };
        assert!(floor.fits(&["trouble", "not:event"]) && !floor.fits(&["not:fixture"]));
        assert!(fire.fits(&["not:fixture"]) && !fire.fits(&["not:event"]));
        assert!(empty.fits(&["not:fixture", "not:event"]) && !empty.fits(&["fixture"]));
        assert!(floor.fits(&["fixture"]) && !floor.fits(&["not:fixture", "trouble"]));
    }

    #[test]
    fn what_kind_of_scene_it_is_rules_out_what_contradicts_it() {
        let road = region("road", "wild", false);
        let foes = stage(&road, true, false, false);
        let den = Stage {
            kinds: Kinds::of(&["holding", "ambush"]),
            ..foes
        };
        let pack = Stage {
            kinds: Kinds::of(&["moving", "night", "foe:wolf"]),
            ..foes
        };
        let fleeing = ["foes", "not:holding"];
        let waits = ["not:event", "not:moving"];
        assert!(!den.fits(&fleeing) && den.fits(&waits));
        assert!(pack.fits(&fleeing) && !pack.fits(&waits));
        assert!(foes.fits(&fleeing) && foes.fits(&waits));
        assert!(!pack.fits(&["outdoor", "not:night"]) && den.fits(&["outdoor", "not:night"]));
        assert!(Kinds::of(&["holding"]).has("holding") && !Kinds::of(&["hold"]).has("hold"));
        let moonlit = Stage {
            kinds: Kinds::of(&["holding"]).with("night"),
            ..foes
        };
        assert!(moonlit.fits(&["not:moving"]) && !moonlit.fits(&["not:night"]));
        let trackers = Stage {
            kinds: Kinds::of(&["moving", "hunting", "day"]),
            ..foes
        };
        assert!(!trackers.fits(&["foes", "not:hunting"]) && !trackers.fits(&["not:day"]));
        assert!(trackers.fits(&["foes", "moving"]) && foes.fits(&["not:hunting"]));
        let captain = Stage { led: true, ..foes };
        let rain = Stage { wet: true, ..foes };
        assert!(foes.fits(&["not:wet"]) && !rain.fits(&["not:wet"]) && rain.fits(&["wet"]));
        assert!(foes.fits(&["not:led"]) && !captain.fits(&["not:led"]));
        let bones = Stage {
            living: false,
            ..foes
        };
        assert!(foes.fits(&["foes", "living"]) && !bones.fits(&["foes", "living"]));
    }

    #[test]
    fn terrain_tags_name_where_a_row_fits() {
        let swamp = region("swamp", "wild", true);
        let s = stage(&swamp, false, false, false);
        assert!(s.fits(&["terrain:swamp"]));
        assert!(s.fits(&["terrain:road", "terrain:swamp", "water"]));
        assert!(!s.fits(&["terrain:road"]));
        assert!(!s.fits(&["terrain:swamp", "settled"]));
    }
}
