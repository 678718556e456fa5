//! Encounters: a situation from the terrain's table (`gen.encounter.<terrain>`),
//! its foes with full stat blocks, the zones (METTLE Quick Zones, or ACS
//! range bands with two to four arms), terrain tiles from a shuffled
//! 54-card deck by the ACS card rule (as written in `acs.card_rule`), the
//! sporadics in play, any hazard or trap, who starts where, and the exact
//! odds that matter: each foe's attack against each PC and back.
//!
//! **Threat.** A fight is measured by how fast each side could fell the
//! other: the foes' expected damage per round against the party's total
//! Mettle (or health), over the party's expected damage per round against
//! the foes' total. Expected damage is exact (METTLE: the Check's odds by
//! Edge, DM + Edge − Soak; Core Rules: every attack lands — the chapter
//! gives no attack roll — exploding damage minus armour). A ratio of 0.35
//! to 0.7 is a fair fight (the party wins in about half to a third of the
//! rounds the foes would need). When the situation gives no number, foes
//! are added (lowest tier first, never a second boss, at most eight) or
//! taken away; when it does (`{d3+1} poachers`), that many come, and the
//! foes are made veteran (harder-hitting) or green (easier to hurt) instead,
//! up to three grades each. The closest fit to the band is kept.
//!
//! - `threat`: the threat measure, attack odds and verdict.
//! - `foes`: choosing, counting, balancing and numbering the foes.
//! - `zones`: the layout and who starts where.
//! - `hazard`: the situation's hazard, in the encounter's system.
//! - `terrain`: terrain cards (by [`crate::rules::acs`]) and sporadics,
//!   those that fit the region's setting.
//! - the weather it meets, in its season ([`super::weather`]).
//! - `layers`: the twist and the ending laid over the situation, and the
//!   foes' spoils.
//! - `ambush`: who lies in wait at a map stop, for a journey's Ambushed
//!   Twist.

mod ambush;
#[cfg(test)]
mod coherence;
mod foes;
mod hazard;
mod layers;
pub mod returning;
mod said;
mod terrain;
mod threat;
mod zones;

use serde::Serialize;

use super::npc::{self, Npc};
use super::trap::{self, Trap};
use super::weather::{self, Season};
use super::{Address, GenError, Generator};
use crate::content::region::WEATHER_NEED;
use crate::content::{Library, Region};
use crate::rules::{Party, RulesSystem};
use crate::seed::{DieSource, Seed};
use crate::tables::TableRoll;

pub use ambush::{ambushes, suits};
pub use foes::MAX_FOES;
pub use hazard::HazardNote;
pub use layers::{ENDING, Stage, TWIST};
pub use terrain::{Placed, SideDraw, WHOLE_FIELD};
pub use threat::{AttackOdds, FAIR, Threat};
pub use zones::{Layout, Zone};

/// The built-in terrains (every `gen.encounter.<region>` table in effect
/// is one: see [`crate::content::region`]).
/// How a situation (or an archetype) is remembered by a campaign:
/// `<table>/<row>`.
pub fn situation_key(table: &str, row: &str) -> String {
    format!("{table}/{row}")
}

/// How a situation with its layers (its twist's and ending's rows) is
/// remembered: `<table>/<row>|<layer>|…` (`<table>/<row>` without any).
pub fn layered_key(table: &str, row: &str, layers: &[&str]) -> String {
    let mut key = situation_key(table, row);
    for l in layers {
        key.push('|');
        key.push_str(l);
    }
    key
}

#[doc(hidden)]
#[cfg(test)]
pub(crate) const TERRAINS: [&str; 7] = [
    "road",
    "forest",
    "swamp",
    "hills",
    "ruins",
    "underground",
    "town",
];

/// What an encounter is asked for.
#[derive(Debug, Clone)]
pub struct Request {
    /// The terrain the encounter happens in.
    pub terrain: String,
    /// The rules it is made for.
    pub system: RulesSystem,
    /// The party it is fitted to.
    pub party: Party,
    /// What a session pins for this encounter (nothing: all rolled).
    pub pin: Pin,
    /// Name words no foe or person on stage takes, besides the party's
    /// own: a campaign's PCs sitting out, dead or gone (lowercase).
    pub shun: Vec<String>,
    /// Whole names no foe or person on stage repeats while the name
    /// tables have others: a campaign's earlier packs' and this pack's.
    pub taken: Vec<String>,
    /// Trait rows the party met (a campaign's, `<table>/<row>`): its
    /// leader's traits are drawn among the others while any fit.
    pub heard: Vec<String>,
    /// The season its weather is drawn in ([`super::weather`]).
    pub season: Season,
}

impl Request {
    /// The words no personal name of the encounter holds: the party's
    /// names and [`Request::shun`].
    fn shunned(&self) -> Vec<String> {
        let party: Vec<&str> = match self.system {
            RulesSystem::Mettle => self.party.mettle.iter().map(|b| b.name.as_str()).collect(),
            RulesSystem::Core => self.party.core.iter().map(|c| c.name.as_str()).collect(),
        };
        let mut words = super::npc::name_words(party);
        for w in &self.shun {
            if !words.contains(w) {
                words.push(w.clone());
            }
        }
        words
    }
}

/// What a session pins for one encounter (`[[encounter]]`): the situation,
/// a row of the terrain's table named as written, and the foe kinds
/// (archetypes) instead of the ones the situation names; their numbers
/// are still fitted to the party.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Pin {
    /// The situation's row, by name.
    pub situation: Option<String>,
    /// The foe kinds (archetypes) instead of the situation's.
    pub foes: Vec<String>,
    /// The foes lie in wait and strike first, whatever the situation says
    /// (a journey's Ambushed Twist): laid out as an ambush.
    pub ambush: bool,
}

/// An encounter: the situation and its layers, the foes fitted to the
/// party, the scene's zones and terrain, hazards, and the exact odds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Encounter {
    /// The terrain it happens in.
    pub terrain: String,
    /// The rules it is made for.
    pub system: RulesSystem,
    /// What is going on (a row of the terrain's encounter table).
    pub situation: TableRoll,
    /// The weather it meets ([`super::weather`]): none where no row fits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weather: Option<TableRoll>,
    /// A complication laid over the situation (`gen.situation.twist`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub twist: Option<TableRoll>,
    /// How it ends if the party does nothing (`gen.situation.ending`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ending: Option<TableRoll>,
    /// Someone the party met in an earlier session of the campaign, come
    /// back ([`returning`]): set by the session, none outside a campaign.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub returning: Option<returning::Return>,
    /// What the foes leave behind (`gen.treasure.*`): none without foes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spoils: Option<TableRoll>,
    /// The foes, each with stats, fitted to the party.
    pub foes: Vec<Npc>,
    /// Non-hostile people the situation puts on stage.
    pub others: Vec<Npc>,
    /// The zones of the scene.
    pub layout: Layout,
    /// ACS: each side's cards and the tiles they lay.
    pub terrain_cards: Vec<SideDraw>,
    /// Which side lays the first tile.
    pub first_to_lay: String,
    /// ACS: sporadic tiles laid on the field.
    pub sporadics: Vec<Placed>,
    /// The situation's hazard, read in the encounter's system.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hazard: Option<HazardNote>,
    /// A trap in the scene, when the situation calls for one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trap: Option<Trap>,
    /// Exact odds of the attacks between the party and the foes.
    pub odds: Vec<AttackOdds>,
    /// How dangerous the fight is for this party.
    pub threat: Threat,
}

impl Encounter {
    /// Whether its situation is an ambush by its own words or tags (the
    /// foes lie in wait, circle or surround), as the zones read it.
    pub fn lies_in_wait(&self) -> bool {
        zones::ambush(&self.situation)
    }

    /// Whether its weather is the conditions under a roof of rock
    /// (`gen.weather.underground`, the same in every season), not a sky's:
    /// said as `Conditions`, not `Weather`.
    pub fn below_ground(&self) -> bool {
        (self.weather.as_ref()).is_some_and(|w| w.table == weather::UNDERGROUND)
    }

    /// The foes' leader, the one foe with a want, a secret, a manner and a
    /// look to play (`foes`); none among beasts.
    pub fn leader(&self) -> Option<&Npc> {
        self.foes.iter().find(|f| !f.traits.is_empty())
    }

    /// The leader when a person (`human` or `townsfolk`), who has a name
    /// of their own and may come back in a campaign; none among beasts and
    /// monsters.
    pub fn person_leader(&self) -> Option<&Npc> {
        self.leader().filter(|l| l.is_person())
    }

    /// What the leader is called over its traits: `Leading them` when
    /// others follow, `To play` for a lone foe.
    pub fn leader_label(&self) -> &'static str {
        if self.foes.len() > 1 {
            "Leading them"
        } else {
            "To play"
        }
    }
}

impl Request {
    /// The situation: the pinned row, resolved on the situation stream, or
    /// a roll on the terrain's table.
    fn situation(
        &self,
        library: &Library,
        region: &Region,
        s: &mut crate::seed::Stream,
    ) -> Result<TableRoll, GenError> {
        let id = &region.table;
        let Some(name) = &self.pin.situation else {
            return self.in_season(library, region, s);
        };
        let index = library
            .table(id)?
            .rows
            .iter()
            .position(|r| &r.entry.name == name)
            .ok_or_else(|| GenError::Request(format!("`{name}` is not a situation of `{id}`")))?;
        Ok(library.resolve(id, index, s)?)
    }
}

/// The kinds of day a situation tagged `tags` needs (its `weather:` tags).
pub(crate) fn weather_needs(tags: &[String]) -> Vec<&str> {
    tags.iter()
        .filter_map(|t| t.strip_prefix(WEATHER_NEED))
        .collect()
}

/// How often a situation whose weather the season cannot bring (snow in
/// summer) is rolled again before the last roll is kept.
const SEASON_TRIES: usize = 32;

impl Request {
    /// A roll on the terrain's table whose `weather:` needs the season's
    /// weather can meet: a situation that cannot happen now (a white-out
    /// in summer) is rolled again on the same stream.
    fn in_season(
        &self,
        library: &Library,
        region: &Region,
        s: &mut crate::seed::Stream,
    ) -> Result<TableRoll, GenError> {
        let mut roll = library.roll_table(&region.table, s)?;
        for _ in 1..SEASON_TRIES {
            if weather::can_be(library, region, self.season, &weather_needs(&roll.tags)) {
                break;
            }
            roll = library.roll_table(&region.table, s)?;
        }
        Ok(roll)
    }
}

impl Generator for Request {
    const KIND: &'static str = "encounter";
    type Item = Encounter;

    /// The encounter at `at` for a request.
    fn make(&self, library: &Library, seed: &Seed, at: &Address) -> Result<Encounter, GenError> {
        let region = library.region(&self.terrain).map_err(GenError::Request)?;
        self.party.check(self.system).map_err(GenError::Request)?;
        let mut situation = self.situation(library, region, &mut at.stream(seed, "situation"))?;
        let cast = foes::Cast {
            library,
            req: self,
            seed,
            at,
        };
        let foes = cast.foes(&mut situation)?;
        let (odds, threat) = threat::Gauge::new(self.system, &self.party).measure(&foes)?;
        let others = cast.others(&situation, &foes)?;
        let party_names: Vec<String> = match self.system {
            RulesSystem::Mettle => self.party.mettle.iter().map(|b| b.name.clone()).collect(),
            RulesSystem::Core => self.party.core.iter().map(|c| c.name.clone()).collect(),
        };
        // A cellar in the ruins stands indoors: its tiles and sporadics are
        // those of a roof; the day's weather is drawn outside.
        let scene = region.scene(&situation.tags);
        let weather = weather::weather(
            library,
            region,
            (self.season, self.system),
            &weather_needs(&situation.tags),
            &mut at.stream(seed, "weather"),
        )?;
        let stage = Stage::of(
            library,
            (region, &situation, weather.as_ref()),
            &foes,
            &others,
        );
        let twist = layers::layer(library, TWIST, stage, &mut at.stream(seed, "twist"))?;
        let ending = layers::layer(library, ENDING, stage, &mut at.stream(seed, "ending"))?;
        let captive = layers::holds_captive(&situation, twist.as_ref());
        let spoils = layers::spoils(
            library,
            self.system,
            (stage, captive),
            &mut at.stream(seed, "spoils"),
        )?;
        let layout = zones::layout(
            self.system,
            (&party_names, &foes),
            self.pin.ambush || zones::ambush(&situation),
            (
                &mut at.stream(seed, "layout"),
                &mut at.stream(seed, "deploy"),
            ),
        );
        let zone_names = layout.zone_names();
        let ground = terrain::Ground {
            region: &scene,
            weather: weather.as_ref(),
            // A hideyhole or an alarm needs foes who hide and listen:
            // people or monsters with hands, not hornets or a bear.
            foes: stage.carriers,
            night: stage.kinds.has(layers::NIGHT),
        };
        let (mut terrain_cards, first_to_lay) =
            terrain::terrain_cards(library, (seed, at), ground, &zone_names, !foes.is_empty());
        let mut sporadics = terrain::sporadics(library, (seed, at), ground, &zone_names);
        let mut placed: Vec<&mut Placed> = terrain_cards
            .iter_mut()
            .flat_map(|d| d.tiles.iter_mut())
            .chain(sporadics.iter_mut())
            .collect();
        terrain::word_for(library, self.system, &mut placed)?;
        let hazard = hazard::note(&situation, self.system, &self.party)?;
        // A trap that alerts its keepers lurks only where people keep it.
        let keepers = foes.iter().any(Npc::is_person);
        Ok(Encounter {
            terrain: region.name.clone(),
            system: self.system,
            situation,
            weather,
            twist,
            ending,
            returning: None,
            spoils,
            foes,
            others,
            layout,
            terrain_cards,
            first_to_lay,
            sporadics,
            hazard,
            trap: lurking_trap(library, self, seed, at, keepers)?,
            odds,
            threat,
        })
    }
}

/// A trap lies in wait one time in six (the `trap` stream), in the
/// encounter's system and terrain, measured against the party's POISE or
/// abilities; one that alerts its keepers only where `keepers` (foes who
/// are people) are at hand.
fn lurking_trap(
    library: &Library,
    req: &Request,
    seed: &Seed,
    at: &Address,
    keepers: bool,
) -> Result<Option<Trap>, GenError> {
    if at.stream(seed, "trap").die(6) != 1 {
        return Ok(None);
    }
    let req = trap::Request {
        terrain: Some(req.terrain.clone()),
        keepers,
        ..trap::Request::for_party(req.system, &req.party)
    };
    req.make(library, seed, &at.only("trap")).map(Some)
}

/// What the rules core refuses in an encounter.
pub fn check(e: &Encounter) -> Vec<String> {
    let mut out = Vec::new();
    for f in e.foes.iter().chain(&e.others) {
        out.extend(
            npc::check(f)
                .into_iter()
                .map(|p| format!("{}: {p}", f.name)),
        );
    }
    if e.foes.len() > MAX_FOES {
        out.push(format!("{} foes (at most {MAX_FOES})", e.foes.len()));
    }
    if e.foes.iter().filter(|f| f.tier == 3).count() > 1 {
        out.push("more than one boss".into());
    }
    let arms = e
        .layout
        .zones
        .iter()
        .filter(|z| z.name.ends_with(": Short"))
        .count();
    if e.layout.kind == "range bands" && !(2..=4).contains(&arms) {
        out.push(format!("{arms} arms (two to four)"));
    }
    for d in &e.terrain_cards {
        if d.cards.len() != 3 {
            out.push(format!("{} drew {} cards", d.side, d.cards.len()));
        }
    }
    let mut all: Vec<&String> = e.terrain_cards.iter().flat_map(|d| &d.cards).collect();
    all.retain(|c| *c != "Joker");
    let n = all.len();
    all.sort();
    all.dedup();
    if all.len() != n {
        out.push("the same card was drawn twice".into());
    }
    for o in &e.odds {
        if !(0.0..=1.0 + 1e-9).contains(&o.hit)
            || !(0.0..=1.0 + 1e-9).contains(&o.fells)
            || o.expected_damage < 0.0
        {
            out.push(format!(
                "odds of {} against {} are not chances",
                o.attacker, o.defender
            ));
        }
    }
    for z in &e.layout.zones {
        for who in &z.starts {
            if e.layout
                .zones
                .iter()
                .filter(|z2| z2.starts.contains(who))
                .count()
                != 1
                && !who.is_empty()
            {
                out.push(format!("{who} starts in more than one zone"));
            }
        }
    }
    if let Some(t) = &e.trap {
        out.extend(trap::check(t));
    }
    out
}

impl Encounter {
    /// How a campaign remembers its situation: the row with its twist and
    /// ending ([`layered_key`]).
    pub fn memory_key(&self) -> String {
        let layers: Vec<&str> = self
            .twist
            .iter()
            .chain(&self.ending)
            .map(|l| l.row.as_str())
            .collect();
        layered_key(&self.situation.table, &self.situation.row, &layers)
    }
}

impl super::Distinct for Encounter {
    /// An encounter's situation, the people it puts on stage and its trap
    /// are said once in a pack (its foes are many of one kind by design).
    /// Its layered situation too, which a campaign remembers
    /// ([`Encounter::memory_key`]).
    fn keys(&self) -> Vec<String> {
        let base = format!("situation: {}/{}", self.situation.table, self.situation.row);
        let layered = format!("situation: {}", self.memory_key());
        let mut keys = vec![base.clone()];
        if layered != base {
            keys.push(layered);
        }
        keys.extend(self.others.iter().flat_map(super::Distinct::keys));
        keys.extend(self.trap.iter().flat_map(super::Distinct::keys));
        keys
    }

    /// Its trap's trigger and effect.
    fn soft_keys(&self) -> Vec<String> {
        self.trap
            .iter()
            .flat_map(super::Distinct::soft_keys)
            .collect()
    }

    /// A campaign remembers the situation, the names of the people on
    /// stage (their concepts come with the situation) and the trap.
    fn remembered(&self) -> Vec<String> {
        let mut keys = vec![format!(
            "situation: {}/{}",
            self.situation.table, self.situation.row
        )];
        keys.extend(self.others.iter().map(|n| format!("name: {}", n.name)));
        keys.extend(self.trap.iter().flat_map(super::Distinct::remembered));
        keys
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::test_library as library;
    use crate::generators::nth;

    #[test]
    fn ten_thousand_encounters_are_legal() {
        let library = library();
        let seed = Seed::new("encounters").unwrap();
        let (mut fair, mut freed) = (0, 0);
        let mut fights = 0;
        for i in 0..10_000 {
            let system = if i % 2 == 0 {
                RulesSystem::Mettle
            } else {
                RulesSystem::Core
            };
            let summary = ["3,3,4,4", "2,3", "5,5,5,6", "4"][i % 4];
            let summary = if system == RulesSystem::Core {
                ["10,11,12,9", "8,9", "13,14,15,12", "11"][i % 4]
            } else {
                summary
            };
            let req = Request {
                terrain: TERRAINS[i % TERRAINS.len()].into(),
                system,
                party: Party::from_summary(summary, system).unwrap(),
                pin: Pin::default(),
                shun: Vec::new(),
                taken: Vec::new(),
                heard: Vec::new(),
                season: Season::ALL[i / 2 % 4],
            };
            let e = nth(&library, &req, &seed, i).unwrap();
            weather_fits(&e, req.season, i);
            let problems = check(&e);
            assert!(problems.is_empty(), "#{i}: {problems:?}");
            freed += usize::from(spoils_fit(&library, &e, i));
            if !e.foes.is_empty() {
                fights += 1;
                if e.threat.verdict == "fair" || e.threat.verdict == "hard" {
                    fair += 1;
                }
            }
        }
        // Most fights land in the fair-to-hard band.
        assert!(fair * 10 >= fights * 6, "{fair} of {fights}");
        // A captive freed now and then, where there is one.
        assert!(freed > 0, "no spoils freed a captive");
    }

    /// Weather of the season tagged with the terrain, or underground's,
    /// and tagged with all the situation needs of it (`weather:`): a
    /// situation that needs a kind of day the season lacks is not drawn
    /// (no white-out in summer, left without a weather line).
    fn weather_fits(e: &Encounter, season: Season, i: usize) {
        let needs = weather_needs(&e.situation.tags);
        let Some(w) = e.weather.as_ref() else {
            panic!(
                "#{i}: {} ({needs:?}) drawn in {} with no weather that fits",
                e.situation.row,
                season.name()
            );
        };
        for n in &needs {
            assert!(
                w.tags.iter().any(|t| t == n),
                "#{i}: {} needs {n}: {}",
                e.situation.row,
                w.row
            );
        }
        if e.terrain == "underground" {
            assert_eq!(w.table, weather::UNDERGROUND, "#{i}");
        } else {
            assert_eq!(w.table, season.table(), "#{i}");
            assert!(
                w.tags.contains(&e.terrain),
                "#{i}: {} in {}",
                w.row,
                e.terrain
            );
        }
    }

    /// Spoils with foes and only then: the system's treasure when a foe
    /// carries things (a person or a monster with hands: no archetype
    /// tagged `body:shapeless` or `body:beast`), else a trinket.
    /// Whether the spoils free a captive.
    fn spoils_fit(library: &Library, e: &Encounter, i: usize) -> bool {
        let archetypes = &library.get("gen.npc.core").unwrap().rows;
        let handless = |a: &str| {
            archetypes.iter().any(|r| {
                *r.entry.name == *a
                    && r.entry
                        .tags
                        .iter()
                        .any(|t| t == "body:shapeless" || t == "body:beast")
            })
        };
        let carrier = e.foes.iter().any(|f| {
            ["human", "townsfolk", "monster"].contains(&f.kind.as_str()) && !handless(&f.archetype)
        });
        let want = match (e.foes.is_empty(), carrier, e.system) {
            (true, ..) => None,
            (false, false, _) => Some("gen.treasure.trinket"),
            (false, true, RulesSystem::Core) => Some("gen.treasure.core"),
            (false, true, RulesSystem::Mettle) => Some("gen.treasure.mettle"),
        };
        let got = e.spoils.as_ref().map(|s| s.table.as_str());
        assert_eq!(
            got,
            want,
            "#{i}: spoils of {:?}",
            e.foes.iter().map(|f| &f.kind).collect::<Vec<_>>()
        );
        // A captive freed (the Sworn sword) only where one is held.
        let Some(sp) = e
            .spoils
            .as_ref()
            .filter(|s| s.tags.iter().any(|t| t == "needs:captive"))
        else {
            return false;
        };
        let layers = std::iter::once(&e.situation).chain(e.twist.as_ref());
        let held = layers.flat_map(|l| &l.tags).any(|t| t == "captive");
        assert!(
            held,
            "#{i}: {} with no captive: {}",
            sp.row, e.situation.text
        );
        true
    }
}

/// The situation's numbers against the sheet, measured by a reader of the
/// text that shares no code with the generator: every number (digits or a
/// number word) right before a foe kind's name, and every `a`/`an`/`one`
/// before it, against the count of foes of that kind.
#[cfg(test)]
mod said_numbers {
    use super::*;
    use crate::content::test_library as library;
    use crate::generators::Address;

    const WORDS: [&str; 13] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];

    /// The words of a text, lowercase, with their hyphens (`drowned-ones`).
    fn words(text: &str) -> Vec<String> {
        text.to_lowercase()
            .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '\''))
            .filter(|w| !w.is_empty())
            .map(str::to_owned)
            .collect()
    }

    fn number(word: &str) -> Option<usize> {
        word.parse()
            .ok()
            .or_else(|| WORDS.iter().position(|w| *w == word))
    }

    /// Does `w` (one word, or two joined by a space) name `kind`?
    fn names(w: &str, kind: &str) -> bool {
        let w = w.replace(' ', "-");
        let forms = [
            kind.to_owned(),
            format!("{kind}s"),
            format!("{kind}es"),
            kind.strip_suffix('f')
                .map_or(String::new(), |s| format!("{s}ves")),
            kind.strip_suffix('y')
                .map_or(String::new(), |s| format!("{s}ies")),
        ];
        forms.iter().any(|f| !f.is_empty() && *f == w)
    }

    /// What the text says of each kind: (kind, said, on the sheet), for
    /// every kind with a number or an `a`/`an`/`one` before it.
    pub(super) fn contradictions(e: &Encounter) -> Vec<(String, usize, usize)> {
        let ws = words(&e.situation.text);
        let mut kinds: Vec<&str> = e.foes.iter().map(|f| f.archetype.as_str()).collect();
        kinds.extend(
            e.situation
                .tags
                .iter()
                .filter_map(|t| t.strip_prefix("foe:")),
        );
        kinds.sort();
        kinds.dedup();
        let mut out = Vec::new();
        for &kind in &kinds {
            let mut said: Option<usize> = None;
            for (i, w) in ws.iter().enumerate() {
                let two = ws.get(i + 1).map(|n| format!("{w} {n}"));
                // `goblin chief` names a goblin-chief, not a goblin.
                let longer = two
                    .as_deref()
                    .is_some_and(|t| kinds.iter().any(|k| *k != kind && names(t, k)));
                let hit =
                    (names(w, kind) && !longer) || two.as_deref().is_some_and(|t| names(t, kind));
                if !hit || i == 0 {
                    continue;
                }
                let before = ws[i - 1].as_str();
                let n = match before {
                    "a" | "an" => Some(1),
                    b => number(b),
                };
                if let Some(n) = n {
                    *said.get_or_insert(0) += n;
                }
            }
            let on_sheet = e.foes.iter().filter(|f| f.archetype == kind).count();
            if let Some(n) = said
                && n != on_sheet
            {
                out.push((kind.to_owned(), n, on_sheet));
            }
        }
        out
    }

    #[test]
    fn the_sheet_has_the_foes_the_situation_says() {
        let library = library();
        let seed = Seed::new("said-numbers").unwrap();
        let (mut measured, mut wrong) = (0, Vec::new());
        let parties = [
            ["3,3,4,4", "2,3", "5,5,5,6", "4", "3,4,4,5,5,3"],
            ["10,11,12,9", "8,9", "13,14,15,12", "11", "10,12,9,11,13,12"],
        ];
        for i in 0..1400 {
            let system = [RulesSystem::Mettle, RulesSystem::Core][i % 2];
            let summary = parties[i % 2][(i / 2) % 5];
            let mut pin = Pin::default();
            // Every tenth pins foes of its own (the situation's text names others).
            if i % 10 == 9 {
                pin.foes = [
                    vec!["wolf"],
                    vec!["bandit", "bandit-captain"],
                    vec!["ghoul"],
                ][(i / 10) % 3]
                    .iter()
                    .map(|s| s.to_string())
                    .collect();
            }
            let req = Request {
                terrain: TERRAINS[(i / 10) % TERRAINS.len()].into(),
                system,
                party: Party::from_summary(summary, system).unwrap(),
                pin,
                shun: Vec::new(),
                taken: Vec::new(),
                heard: Vec::new(),
                season: Season::default(),
            };
            // Plain, again (the no-repeat redraw) and rerolled addresses.
            let at = match i % 3 {
                0 => Address::new("encounter", i),
                1 => Address::new("encounter", i).again(1 + i % 4),
                _ => Address::new("encounter", i).rerolled(1 + (i % 5) as u32),
            };
            let e = req.make(&library, &seed, &at).unwrap();
            let c = contradictions(&e);
            if e.foes.is_empty() {
                continue;
            }
            measured += 1;
            if !c.is_empty() {
                wrong.push(format!("#{i} {:?} — {c:?}", e.situation.text));
            }
        }
        assert!(measured >= 200, "{measured}");
        assert!(
            wrong.is_empty(),
            "{} of {measured} fights contradict their text:\n{}",
            wrong.len(),
            wrong.join("\n")
        );
    }
}
