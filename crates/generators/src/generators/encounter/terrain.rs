//! The terrain in play: each side's three cards from a shuffled 54-card
//! deck turned into ACS tiles by the card rule ([`crate::rules::acs`]), who
//! lays the first tile, and one to three sporadics from `acs.sporadics` —
//! each spot tile and sporadic placed in a zone of the layout, and each
//! carrying its rule worded for the encounter's system (from
//! `gen.tile_rules.mettle` or `gen.tile_rules.core`). Only tiles and
//! sporadics that fit the region's setting are laid ([`Region::allows`]:
//! no rain or wind indoors, no furniture in the wild) and, under the open
//! sky, the weather drawn for the encounter ([`Ground::fits`]: no rain tile
//! on a still, dry evening); where no tile of a call fits, the player picks
//! another of the suit's category at that strength, as the ACS lets them.

use serde::Serialize;

use super::super::{Address, GenError, pick};
use crate::content::region::{DARK, DRY, NEEDS_FOES, RAIN, WEATHER_TAGS};
use crate::content::{Library, Region, Row};
use crate::rules::RulesSystem;
use crate::rules::acs::{self, Bonus, Card};
use crate::seed::{DieSource, Seed, Stream};
use crate::tables::TableRoll;

/// One side's terrain cards and the tiles they became.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SideDraw {
    /// The side (`party`, `foes`).
    pub side: String,
    /// The cards drawn (`5♦`, `Joker`).
    pub cards: Vec<String>,
    /// The tiles they laid.
    pub tiles: Vec<Placed>,
    /// Bennies that could not sit on a tile (map-wide tiles) go to the side.
    pub bennies: u32,
    /// What a pair, triple or straight gave the side, in words.
    pub bonus: Option<String>,
}

/// Where a tile lies that covers the whole field (a [`Placed`]'s `at`
/// when it lies in no one zone).
pub const WHOLE_FIELD: &str = "whole field";

/// A tile or sporadic and where it lies.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Placed {
    /// The tile's name.
    pub name: String,
    /// Its rule, worded for the encounter's system.
    pub text: String,
    /// Its rule as the ACS writes it (`acs.tiles`, `acs.sporadics`).
    pub acs: String,
    /// A zone name, or `whole field`.
    pub at: String,
    /// It starts with a benny.
    pub benny: bool,
    /// The cards a tile came from (`5♦ + 8♦`), or `acs.sporadics` for a
    /// sporadic.
    pub from: String,
}

/// Where the tiles are laid: the region and, under the open sky, what its
/// weather says the sky does (the weather row's [`WEATHER_TAGS`]; none
/// drawn, anything goes).
#[derive(Clone, Copy)]
pub(super) struct Ground<'a> {
    /// The region.
    pub region: &'a Region,
    /// The weather drawn, if any.
    pub weather: Option<&'a TableRoll>,
    /// There are foes on stage who could hide in a nook or hear an alarm:
    /// people or monsters with hands, not beasts (a tile tagged
    /// [`NEEDS_FOES`] needs them).
    pub foes: bool,
    /// The situation is set at dusk or after dark (tagged `night`): only
    /// then does a tile tagged [`DARK`] lie under the open sky.
    pub night: bool,
}

impl Ground<'_> {
    /// A tile fits the region's setting ([`Region::allows`]), asks for
    /// foes only where there are some ([`NEEDS_FOES`]) and, under the open
    /// sky, asks only for the weather there is: a tile tagged `rain`, `fog`
    /// or `wind` needs the weather row to carry that tag, and one tagged
    /// [`DRY`] needs it not to carry `rain`; one tagged [`DARK`] needs the
    /// scene set at night.
    pub(super) fn fits<S: AsRef<str>>(&self, tags: &[S]) -> bool {
        let sky = self.weather.filter(|_| self.region.outdoor());
        let has = |tag: &str| tags.iter().any(|t| t.as_ref() == tag);
        let wet = sky.is_some_and(|w| w.tags.iter().any(|g| g == RAIN));
        self.region.allows(tags)
            && (self.foes || !has(NEEDS_FOES))
            && !(wet && has(DRY))
            && !(self.region.outdoor() && !self.night && has(DARK))
            && sky.is_none_or(|w| {
                tags.iter()
                    .map(AsRef::as_ref)
                    .filter(|t| WEATHER_TAGS.contains(t))
                    .all(|t| w.tags.iter().any(|g| g == t))
            })
    }
}

/// The whole-field tags of `acs.tiles`.
const FIELDS: [&str; 2] = ["field-2", "field-3"];

/// The `acs.tiles` that answer a call and fit the ground: those the card
/// rule names; else (none of them fits: no rain for RAIN) the suit's other
/// whole-field tiles at that strength (FOG on a misty morning); else the
/// suit's others at that strength, laid on a spot ([`covers_field`]).
fn tiles_for<'a>(rows: &'a [Row], call: &acs::Call, ground: Ground) -> Vec<&'a Row> {
    let fitting = |call: &acs::Call| {
        let mut tiles = acs::tiles_for(rows, |r| &r.entry.tags, call);
        tiles.retain(|r| ground.fits(&r.entry.tags));
        tiles
    };
    let mut tiles = fitting(call);
    for field in FIELDS
        .iter()
        .filter(|f| call.field.is_some_and(|c| c != **f))
    {
        if tiles.is_empty() {
            tiles = fitting(&acs::Call {
                field: Some(field),
                ..*call
            });
        }
    }
    if tiles.is_empty() {
        tiles = fitting(&acs::Call {
            field: None,
            ..*call
        });
    }
    tiles
}

/// Whether a tile covers the whole field (a `field-2` or `field-3` tile):
/// a spot tile laid for a whole-field play the weather refused sits on a
/// spot like any other.
fn covers_field(tile: &Row) -> bool {
    tile.entry.tags.iter().any(|t| FIELDS.contains(&t.as_ref()))
}

/// Turn one side's cards into tiles, by the card rule in `acs.card_rule`:
/// each tile is drawn from the `acs.tiles` that fit its call and the
/// ground, and a spot tile is placed in one of `zones`.
pub(super) fn play_cards(
    library: &Library,
    (side, ground): (&str, Ground),
    cards: &[Card],
    zones: &[String],
    s: &mut Stream,
) -> SideDraw {
    let rows: &[Row] = library.get("acs.tiles").map_or(&[], |t| &t.rows);
    let play = acs::play(cards, s, |call, s| {
        let tile: &Row = pick(&tiles_for(rows, call, ground), s).copied()?;
        let at = if call.field.is_some() && covers_field(tile) {
            WHOLE_FIELD.to_owned()
        } else {
            pick(zones, s).cloned().unwrap_or_default()
        };
        Some((tile, at))
    });
    SideDraw {
        side: side.into(),
        cards: cards.iter().map(|c| c.label()).collect(),
        tiles: play
            .tiles
            .into_iter()
            .map(|l| Placed {
                name: l.tile.0.entry.name.to_string(),
                text: l.tile.0.entry.text.to_string(),
                acs: l.tile.0.entry.text.to_string(),
                at: l.tile.1,
                benny: l.benny,
                from: l.from,
            })
            .collect(),
        bennies: play.bennies,
        bonus: play.bonus.map(|b| b.text().to_owned()),
    }
}

/// Both sides' terrain cards (three each from one shuffled deck, the
/// `cards` stream) and who lays the first tile.
pub(super) fn terrain_cards(
    library: &Library,
    (seed, at): (&Seed, &Address),
    ground: Ground,
    zones: &[String],
    foes: bool,
) -> (Vec<SideDraw>, String) {
    let mut cs = at.stream(seed, "cards");
    let mut cards = acs::deck();
    cs.shuffle(&mut cards);
    let party_side = play_cards(library, ("party", ground), &cards[0..3], zones, &mut cs);
    let mut foe_side = play_cards(library, ("foes", ground), &cards[3..6], zones, &mut cs);
    one_sky_of_a_kind(&party_side, &mut foe_side, zones, &mut cs);
    let straight = [&party_side, &foe_side]
        .into_iter()
        .find(|d| d.bonus.as_deref() == Some(Bonus::Straight.text()));
    let first = acs::first_to_lay(straight.map(|d| d.side.as_str()), foes);
    (vec![party_side, foe_side], first)
}

/// A tile's kind: its name before the strength (`RAIN` of `RAIN, heavy`).
fn kind(name: &str) -> &str {
    name.split(',').next().unwrap_or(name)
}

/// One whole-field tile of a kind: where the party's cards already spread
/// a kind over the whole field (RAIN, light), the foes' tile of that kind
/// (RAIN, heavy) lies on a spot of its own, drawn from the `cards` stream
/// after both sides have played: no light and heavy rain over one field.
fn one_sky_of_a_kind(party: &SideDraw, foes: &mut SideDraw, zones: &[String], s: &mut Stream) {
    let field = |t: &Placed| t.at == WHOLE_FIELD;
    let spread: Vec<&str> = (party.tiles.iter().filter(|t| field(t)))
        .map(|t| kind(&t.name))
        .collect();
    for t in foes.tiles.iter_mut().filter(|t| field(t)) {
        if spread.contains(&kind(&t.name)) {
            t.at = pick(zones, s).cloned().unwrap_or_default();
        }
    }
}

/// Sporadics in play: one to three of `acs.sporadics` that fit the ground
/// ([`Ground::fits`]), placed in zones (the `sporadics` stream).
pub(super) fn sporadics(
    library: &Library,
    (seed, at): (&Seed, &Address),
    ground: Ground,
    zones: &[String],
) -> Vec<Placed> {
    let mut ss = at.stream(seed, "sporadics");
    let Some(table) = library.get("acs.sporadics") else {
        return Vec::new();
    };
    let mut rows: Vec<&Row> = table.rows.iter().collect();
    ss.shuffle(&mut rows);
    rows.retain(|r| ground.fits(&r.entry.tags));
    let n = ss.die(3) as usize;
    rows.into_iter()
        .take(n)
        .map(|r| Placed {
            name: r.entry.name.to_string(),
            text: r.entry.text.to_string(),
            acs: r.entry.text.to_string(),
            at: pick(zones, &mut ss).cloned().unwrap_or_default(),
            benny: false,
            from: "acs.sporadics".into(),
        })
        .collect()
}

/// The table of tile rules for `system`.
pub(super) fn rules_table(system: RulesSystem) -> &'static str {
    match system {
        RulesSystem::Mettle => "gen.tile_rules.mettle",
        RulesSystem::Core => "gen.tile_rules.core",
    }
}

/// Word every placed tile's and sporadic's rule for `system`: its row of
/// the same name in the system's tile-rules table.
pub(super) fn word_for(
    library: &Library,
    system: RulesSystem,
    placed: &mut [&mut Placed],
) -> Result<(), GenError> {
    let id = rules_table(system);
    let rows: &[Row] = library.get(id).map_or(&[], |t| &t.rows);
    for p in placed.iter_mut() {
        let row = rows
            .iter()
            .find(|r| r.entry.name == p.name)
            .ok_or_else(|| {
                GenError::Request(format!(
                    "the tile `{}` has no rule in `{id}`; add a row named `{}` to it",
                    p.name, p.name
                ))
            })?;
        p.text = row.entry.text.to_string();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tile_and_sporadic_has_a_rule_in_each_system() {
        let library = crate::content::test_library();
        for system in [RulesSystem::Mettle, RulesSystem::Core] {
            let rules = &library.get(rules_table(system)).unwrap().rows;
            for from in ["acs.tiles", "acs.sporadics"] {
                for r in &library.get(from).unwrap().rows {
                    let n = rules
                        .iter()
                        .filter(|x| x.entry.name == r.entry.name)
                        .count();
                    assert_eq!(n, 1, "{from} `{}` in {system:?}", r.entry.name);
                }
            }
            // No row that is neither a tile nor a sporadic.
            let known = |n: &str| {
                ["acs.tiles", "acs.sporadics"].iter().any(|t| {
                    library
                        .get(t)
                        .unwrap()
                        .rows
                        .iter()
                        .any(|r| r.entry.name == n)
                })
            };
            assert!(rules.iter().all(|r| known(&r.entry.name)));
        }
    }

    #[test]
    fn card_rule_worked_examples() {
        let library = crate::content::test_library();
        let zones = vec!["Left flank".to_owned()];
        let wild = Region::defaults("gen.encounter.forest");
        let mut s = Seed::new("cards").unwrap().stream("");
        // 5♦ + 8♦ → Medium Rain over the whole field.
        let ground = Ground {
            region: &wild,
            weather: None,
            foes: true,
            night: false,
        };
        let d = play_cards(
            &library,
            ("party", ground),
            &[Card { suit: 2, rank: 5 }, Card { suit: 2, rank: 8 }],
            &zones,
            &mut s,
        );
        assert_eq!(d.tiles.len(), 1);
        assert_eq!(d.tiles[0].name, "RAIN, moderate");
        assert_eq!(d.tiles[0].at, "whole field");
        // K♠ → any spade tile, starting with a benny.
        for i in 0..20 {
            let mut s = Seed::new("king").unwrap().stream(&i.to_string());
            let d = play_cards(
                &library,
                ("foes", ground),
                &[Card { suit: 1, rank: 13 }],
                &zones,
                &mut s,
            );
            let t = &d.tiles[0];
            assert!(t.benny, "{t:?}");
            let row = library
                .get("acs.tiles")
                .unwrap()
                .rows
                .iter()
                .find(|r| r.entry.name == t.name)
                .unwrap();
            assert!(row.entry.tags.iter().any(|x| x == "spades"), "{}", t.name);
        }
    }

    /// The weather row `name` of `table`, as an encounter draws it.
    fn weather_row(library: &Library, table: &str, name: &str) -> TableRoll {
        let rows = &library.get(table).unwrap().rows;
        let i = rows.iter().position(|r| r.entry.name == name).unwrap();
        let mut s = Seed::new("w").unwrap().stream("");
        library.resolve(table, i, &mut s).unwrap()
    }

    #[test]
    fn the_weather_decides_the_sky_tiles() {
        let library = crate::content::test_library();
        let zones = vec!["Left flank".to_owned()];
        let forest = Region::defaults("gen.encounter.forest");
        // 5♦ + 8♦ call for Medium Rain over the whole field.
        let diamonds = [Card { suit: 2, rank: 5 }, Card { suit: 2, rank: 8 }];
        let lay = |weather: &TableRoll, i: usize| {
            let ground = Ground {
                region: &forest,
                weather: Some(weather),
                foes: true,
                night: false,
            };
            let mut s = Seed::new("sky").unwrap().stream(&i.to_string());
            play_cards(&library, ("party", ground), &diamonds, &zones, &mut s)
        };
        let wet = weather_row(&library, "gen.weather.autumn", "Endless rain");
        let still = weather_row(&library, "gen.weather.spring", "Midges");
        let misty = weather_row(&library, "gen.weather.spring", "Morning mist");
        for i in 0..30 {
            let t = &lay(&wet, i).tiles[0];
            assert_eq!(
                (t.name.as_str(), t.at.as_str()),
                ("RAIN, moderate", "whole field")
            );
            // A misty morning: the other whole-field diamond, fog.
            let t = &lay(&misty, i).tiles[0];
            assert_eq!(
                (t.name.as_str(), t.at.as_str()),
                ("FOG, moderate", "whole field")
            );
            // A still, warm evening: the player picks another diamond of
            // that strength, never rain, fog or wind, and lays it on a spot.
            let t = &lay(&still, i).tiles[0];
            assert!(
                ["LIGHT, dark", "EXPOSED GROUND"].contains(&t.name.as_str()),
                "{}",
                t.name
            );
            assert_eq!(t.at, "Left flank", "{} is no whole-field tile", t.name);
        }
        // Below ground no weather tag is asked of a fog tile (the
        // built-in fog is `not:underground`, a GM's own may not be).
        let under = library.region("underground").unwrap();
        let bad_air = weather_row(&library, "gen.weather.underground", "Bad air");
        let ground = Ground {
            region: under,
            weather: Some(&bad_air),
            foes: true,
            night: false,
        };
        assert!(ground.fits(&["diamonds", "sight", "medium", "field-3", "fog"]));
        assert!(!ground.fits(&["diamonds", "sight", "medium", "field-2", "sky", "rain"]));
        assert!(!ground.fits(&["fog", "not:underground"]));
        // A hideyhole needs someone in it; burning ground no downpour.
        assert!(
            !Ground {
                foes: false,
                ..ground
            }
            .fits(&["spades", "foes"])
        );
        assert!(ground.fits(&["spades", "foes"]));
        let wet = weather_row(&library, "gen.weather.autumn", "Endless rain");
        let forest = library.region("forest").unwrap();
        let rain = Ground {
            region: forest,
            weather: Some(&wet),
            foes: true,
            night: false,
        };
        assert!(!rain.fits(&["clubs", "dry"]) && rain.fits(&["clubs"]));
        assert!(ground.fits(&["clubs", "dry"]));
        // Pitch dark under the sky only at night; below ground, always.
        let black = ["diamonds", "sight", "major", "dark"];
        assert!(!rain.fits(&black) && ground.fits(&black));
        assert!(
            Ground {
                night: true,
                ..rain
            }
            .fits(&black)
        );
    }
}
