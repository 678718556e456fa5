//! Regions are data: every `gen.encounter.<region>` table, built in or from
//! `--content`, makes `<region>` a terrain for encounters, maps, journeys
//! and foraging. What the generators need of a region is declared under the
//! table's `[table.region]` (every key optional, defaults below and in
//! the guide's Table format chapter (`docs/src/table-format.md`)), never in code:
//!
//! - `danger` (0-3, default 2): rungs of the Difficulty ladder the land
//!   adds to a map path whose wilder end lies in the region; 3 alone lets a
//!   path reach Nigh Impossible.
//! - `forage` (default vegetation and small game): what a forager finds
//!   there — any of `vegetation`, `small game`, `big game`.
//! - `water` (default false): a body of water in the region (fish, and a
//!   forager's water).
//! - `encounter_chance` (`"x:y"`, default none): a Core Rules journey's
//!   chance of an encounter each travelling watch there; without it the
//!   chance follows the path's Difficulty (1:8 … 1:2).
//! - `places` (default the region's name): the tag of the `gen.poi` rows a
//!   map draws the region's stops from.
//! - `setting` (default `wild`): what an encounter there stands in — `wild`
//!   (open country), `settled` (in the open among buildings: a town, ruins)
//!   or `indoor` (under a roof or rock). Rows tagged `sky` (rain, wind)
//!   need the open, rows tagged `built` (furniture, doors) need buildings,
//!   and a situation layer tagged `outdoor` or `indoor` needs that setting.
//!   Traps read the setting as a kind of place ([`Region::place`]): `wild`
//!   is the open land, `settled` and `indoor` are `built` (walls, floors,
//!   doors and furniture).

use serde::Serialize;

/// Tables whose id starts with this make a region.
pub const PREFIX: &str = "gen.encounter.";
/// What a forager may find in a region.
pub(crate) const FORAGE: [&str; 3] = ["vegetation", "small game", "big game"];
/// The highest `danger`.
pub const MAX_DANGER: u32 = 3;
/// The default `danger` of a region that does not declare one.
pub const DEFAULT_DANGER: u32 = 2;
/// What an encounter in a region stands in (the first is the default).
pub const SETTINGS: [&str; 3] = ["wild", "settled", "indoor"];
/// The tag of a row that needs the open sky (rain, wind).
pub const SKY: &str = "sky";
/// The tag of a row that needs buildings (furniture, doors, windows).
pub const BUILT: &str = "built";
/// The tag prefix of a tile or sporadic (`acs.tiles`, `acs.sporadics`)
/// that never fits one terrain (`not:swamp`: no burning ground in the
/// mire); where no tile of a call fits, the player picks another of the
/// suit's category, as the ACS lets them.
pub const NOT_IN: &str = "not:";
/// The tag of a tile (`acs.tiles`) laid only with foes on stage who are
/// people or monsters with hands (not beasts): a hideyhole with someone
/// in it, an alarm someone hears.
pub const NEEDS_FOES: &str = "foes";
/// The tag of a tile or sporadic that, under the open sky, is never laid
/// in weather tagged `rain`: no burning ground in a downpour.
pub const DRY: &str = "dry";
/// The tag of a tile that darkens the whole scene (pitch dark): under the
/// open sky it is laid only where the situation is set at night (tagged
/// `night`, one of [`SCENE_KINDS`]); under a roof or rock, anywhere.
pub const DARK: &str = "dark";
/// The tag of a situation (a `gen.encounter.<region>` row) that stands
/// under a roof or rock in a region under the open sky (a cellar in the
/// ruins, a taproom in town): its tiles and sporadics are those of an
/// `indoor` setting, and no layer that needs the open (`outdoor`, `wild`,
/// `settled`) is laid over it; the day's weather is still drawn for the way
/// there. Layers tagged `indoor` stay below ground: they speak of rock and
/// the surface.
pub const UNDER_ROOF: &str = "indoor";
/// What the sky does that a tile can need of the weather (`acs.tiles`) and
/// a weather row can say (`gen.weather.<season>`): under the open sky a
/// RAIN tile is laid only in weather tagged `rain` (rain, sleet, hail or
/// falling snow), a FOG tile in `fog` (mist, low cloud, smoke, dust), a
/// WIND tile in `wind`.
pub const WEATHER_TAGS: [&str; 3] = [RAIN, "fog", "wind"];
/// What a weather row says of a wet sky (rain, sleet, hail or falling
/// snow): a [`DRY`] tile is never laid under it.
pub const RAIN: &str = "rain";
/// Everything a seasonal weather row may say of the sky: the tiles'
/// [`WEATHER_TAGS`], and for situations that need a kind of day
/// ([`WEATHER_NEED`]) `storm` (thunder, lightning, hail or a gale), `snow`
/// (falling or lying) and `cold` (frost, ice, snow or a bitter day); and
/// `night`, a row set after dark (a moonlit frost, a wet night in camp):
/// its encounter is a night scene, as a situation tagged `night` is (no
/// "night is coming on fast"; darkness may lie under the sky).
pub const SKY_TAGS: [&str; 7] = ["rain", "fog", "wind", "storm", "snow", "cold", "night"];
/// The tag prefix of a situation (a `gen.encounter.<region>` row) that
/// needs a kind of weather: `weather:storm` meets only weather rows tagged
/// `storm` (every such tag of the row at once), and no weather at all
/// where the season has none for the terrain (the situation is the day's
/// weather).
pub const WEATHER_NEED: &str = "weather:";
/// The tables of layers laid over an encounter's situation: its twist and
/// its ending.
pub const LAYER_TABLES: [&str; 2] = ["gen.situation.twist", "gen.situation.ending"];
/// The tags a layer row may carry (what it needs of the situation), and
/// a spoils row (a treasure row) besides [`NEEDS_CAPTIVE`]: where the
/// scene stands (`outdoor`, `indoor`, `wild`, `settled`, `water`: its
/// region's setting and water; `wet`: its weather says rain or snow), who is on stage (`foes`, `band`, `led`: foes
/// of two archetypes or more, a leader among them, `living`: no foe who is
/// undead, a spirit or a construct, none that eats or tires, `people`, `someone`,
/// `parley`, `friendly`, `carriers`, `trouble`), and what kind of scene it
/// is (the situation's own [`SCENE_KINDS`]), as the encounter generator
/// reads them; a row may also name the
/// terrains it fits with [`TERRAIN_TAG`] tags, and what it must not meet
/// with [`NOT_IN`] before any of these (`not:fixture`: no "gone by
/// morning" for a rotten floor).
pub const LAYER_TAGS: [&str; 23] = [
    "outdoor", "indoor", "wild", "settled", "water", "wet", "foes", "band", "led", "living",
    "people", "someone", "parley", "friendly", "carriers", "trouble", "event", "fixture",
    "holding", "moving", "night", "hunting", "day",
];
/// The kinds of scene a situation row may say it is, which its layers read
/// (a layer's `not:holding`): `event`, a hazard that runs its course (a
/// fire, a hailstorm); `fixture`, a hazard that stays (a rotten floor, a
/// shaft); `holding`, whoever is on stage keeps this place and will be here
/// later (a den, a toll post, a hermit's hut, a rite at its stone);
/// `moving`, whoever is on stage is on the way somewhere (wolves pacing the
/// party, a fleeing thief, pilgrims on the road); `night`, the scene is
/// set at dusk or after dark; `hunting`, the foes came for the party itself
/// (tracking it, paid to take it, lying in wait for it); `day`, the scene is
/// fixed in daylight well before evening (at dawn, on market day).
pub const SCENE_KINDS: [&str; 7] = [
    "event", "fixture", "holding", "moving", "night", "hunting", "day",
];
/// Every bare tag (one without a `prefix:`) a situation row may carry: what
/// it is (`non-combat` and one of `traveller`, `hazard`, `omen`), `ambush`
/// (the foes strike first), [`CAPTIVE`], [`UNDER_ROOF`], and its
/// [`SCENE_KINDS`]. Anything else is a misspelling that would do nothing.
pub const SITUATION_TAGS: [&str; 14] = [
    "non-combat",
    "traveller",
    "hazard",
    "omen",
    "ambush",
    CAPTIVE,
    UNDER_ROOF,
    "event",
    "fixture",
    "holding",
    "moving",
    "night",
    "hunting",
    "day",
];
/// Every bare tag a tile or sporadic (`acs.tiles`, `acs.sporadics`) may
/// carry besides the suits and strengths of the ACS deck
/// (`rules::acs::SUITS`, `LEVELS`): what the generators read (`any-level`,
/// the `field-2`/`field-3` of a tile that covers a side or the whole
/// field, [`SKY`], [`BUILT`], [`WEATHER_TAGS`], [`NEEDS_FOES`], [`DRY`], [`DARK`],
/// `sporadic`), and the ACS's own names for what a tile is (`sight`,
/// `barrier`, `surface`, `noise`, `cover`, `hazard`, `movement`, `melee`,
/// `creature`), which no generator reads but a GM filters by.
pub const TILE_TAGS: [&str; 21] = [
    "any-level",
    "field-2",
    "field-3",
    SKY,
    BUILT,
    "rain",
    "fog",
    "wind",
    NEEDS_FOES,
    DRY,
    DARK,
    "sporadic",
    "sight",
    "barrier",
    "surface",
    "noise",
    "cover",
    "hazard",
    "movement",
    "melee",
    "creature",
];
/// The prefix of a layer or spoils row's tag naming a terrain it fits
/// (`terrain:swamp`): a row with several fits any of them.
pub const TERRAIN_TAG: &str = "terrain:";
/// The tag of a situation or twist row that puts a captive on stage (not a
/// need): the spoils may then be a captive freed, the treasure rows tagged
/// [`NEEDS_CAPTIVE`].
pub const CAPTIVE: &str = "captive";
/// The tag of a treasure row drawn as spoils only when a captive is on
/// stage.
pub const NEEDS_CAPTIVE: &str = "needs:captive";

/// A region (terrain) and what the generators need of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Region {
    /// The region's name, lower case (the `<region>` of its table's id).
    pub name: String,
    /// Its encounter table.
    pub table: String,
    /// 0-3: Difficulty rungs the land adds to a map path.
    pub danger: u32,
    /// What a forager can find there.
    pub forage: Vec<String>,
    /// A body of water is there.
    pub water: bool,
    /// Core Rules: `(x, y)` for an `x:y` chance per travelling watch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encounter_chance: Option<(u32, u32)>,
    /// The `gen.poi` tag its map stops are drawn from.
    pub places: String,
    /// One of [`SETTINGS`].
    pub setting: String,
}

impl Region {
    /// The region of table `id` with every property at its default.
    pub fn defaults(id: &str) -> Region {
        let name = id.strip_prefix(PREFIX).unwrap_or(id).to_owned();
        Region {
            table: id.to_owned(),
            danger: DEFAULT_DANGER,
            forage: vec!["vegetation".into(), "small game".into()],
            water: false,
            encounter_chance: None,
            places: name.clone(),
            setting: SETTINGS[0].to_owned(),
            name,
        }
    }

    /// What a forager finds here, as the forage generator names it
    /// (`body of water` last when there is water).
    pub fn features(&self) -> Vec<String> {
        let mut has = self.forage.clone();
        if self.water {
            has.push("body of water".into());
        }
        has
    }

    /// Whether an encounter here is in the open (not `indoor`).
    pub fn outdoor(&self) -> bool {
        self.setting != "indoor"
    }

    /// Whether an encounter here stands among buildings (not `wild`).
    pub fn built(&self) -> bool {
        self.setting != "wild"
    }

    /// The kind of place a trap is set in here, as trap rows' `place:` tags
    /// name it: `wild` (the open land) or `built` (a `settled` or `indoor`
    /// setting).
    pub fn place(&self) -> &'static str {
        if self.built() { "built" } else { "wild" }
    }

    /// Whether a row with `tags` may be laid here: a [`SKY`] row only in
    /// the open, a [`BUILT`] row only among buildings, a row tagged
    /// [`NOT_IN`] this region's name never.
    pub fn allows<S: AsRef<str>>(&self, tags: &[S]) -> bool {
        tags.iter().all(|t| match t.as_ref() {
            SKY => self.outdoor(),
            BUILT => self.built(),
            t => t.strip_prefix(NOT_IN) != Some(self.name.as_str()),
        })
    }

    /// Whether a situation tagged `tags` stands under a roof in this
    /// region under the open sky (tagged [`UNDER_ROOF`]).
    pub fn roofs<S: AsRef<str>>(&self, tags: &[S]) -> bool {
        self.outdoor() && tags.iter().any(|t| t.as_ref() == UNDER_ROOF)
    }

    /// The scene of a situation tagged `tags` here: this region, or for a
    /// situation tagged [`UNDER_ROOF`] in the open, the same region with
    /// an `indoor` setting (no rain tile in the wine cellar).
    pub fn scene<S: AsRef<str>>(&self, tags: &[S]) -> std::borrow::Cow<'_, Region> {
        if self.roofs(tags) {
            std::borrow::Cow::Owned(Region {
                setting: SETTINGS[2].to_owned(),
                ..self.clone()
            })
        } else {
            std::borrow::Cow::Borrowed(self)
        }
    }

    /// The `x:y` chance as written.
    pub fn chance_text(&self) -> Option<String> {
        self.encounter_chance.map(|(x, y)| format!("{x}:{y}"))
    }
}

/// Read an `x:y` chance (1 ≤ x < y ≤ 100).
pub(crate) fn parse_chance(text: &str) -> Option<(u32, u32)> {
    let (x, y) = text.trim().split_once(':')?;
    let (x, y): (u32, u32) = (x.trim().parse().ok()?, y.trim().parse().ok()?);
    (x >= 1 && x < y && y <= 100).then_some((x, y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chances_read_and_refuse() {
        assert_eq!(parse_chance("1:6"), Some((1, 6)));
        assert_eq!(parse_chance(" 2 : 9 "), Some((2, 9)));
        for bad in ["0:6", "6:6", "7:6", "1:101", "1-6", "x:y", ""] {
            assert_eq!(parse_chance(bad), None, "{bad}");
        }
    }

    #[test]
    fn defaults_name_the_region_after_its_table() {
        let r = Region::defaults("gen.encounter.saltflats");
        assert_eq!(r.name, "saltflats");
        assert_eq!(r.places, "saltflats");
        assert_eq!(r.place(), "wild");
        assert_eq!(r.features(), ["vegetation", "small game"]);
        assert_eq!(r.setting, "wild");
    }

    #[test]
    fn sky_rows_need_the_open_and_built_rows_buildings() {
        let mut r = Region::defaults("gen.encounter.x");
        let (sky, built, plain) = (["diamonds", SKY], [BUILT], ["spades"]);
        assert!(r.allows(&sky) && !r.allows(&built) && r.allows(&plain));
        r.setting = "settled".into();
        assert!(r.allows(&sky) && r.allows(&built));
        r.setting = "indoor".into();
        assert!(!r.allows(&sky) && r.allows(&built) && !r.outdoor());
    }

    #[test]
    fn a_row_not_in_a_terrain_is_never_laid_there() {
        let swamp = Region::defaults("gen.encounter.swamp");
        let hills = Region::defaults("gen.encounter.hills");
        let fire = ["clubs", "not:swamp"];
        assert!(!swamp.allows(&fire) && hills.allows(&fire));
        assert!(swamp.allows(&["not:swampland"]));
    }

    #[test]
    fn a_scene_under_a_roof_is_indoor_and_keeps_its_terrain() {
        let ruins = Region {
            setting: "settled".into(),
            ..Region::defaults("gen.encounter.ruins")
        };
        let cellar = ruins.scene(&["foe:bear", UNDER_ROOF]);
        assert_eq!(
            (cellar.name.as_str(), cellar.setting.as_str()),
            ("ruins", "indoor")
        );
        assert!(!cellar.allows(&[SKY]) && cellar.allows(&[BUILT]));
        assert_eq!(*ruins.scene(&["foe:bear"]), ruins);
    }
}
