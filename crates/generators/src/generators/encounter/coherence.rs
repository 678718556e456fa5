//! Coherence over many encounters (issue 50), read by checks that share
//! no code with the generator: counts agree with their nouns, the tiles
//! fit the terrain, every encounter has a twist and an ending that fit it
//! (and spoils that fit it: by their tags, read here apart from the
//! generator's stage, and by their words: no boat out of the swamp, no
//! "other side" among friendly travellers, no beast carrying goods off),
//! deployment follows the situation, and the texts hold no placeholder,
//! doubled word or gendered pronoun where a person is on stage.

use super::*;
use crate::content::region::SCENE_KINDS;
use crate::content::test_library as library;
use crate::generators::nth;

/// Tiles and sporadics that need the open sky (a window looks out on it).
const SKY: [&str; 7] = [
    "Window",
    "RAIN, light",
    "RAIN, moderate",
    "RAIN, heavy",
    "WIND, light",
    "WIND, moderate",
    "WIND, heavy",
];
/// Tiles and sporadics that need buildings.
const BUILT: [&str; 5] = [
    "Furniture",
    "Doorway",
    "Window",
    "WALL, solid",
    "WALL, strong",
];
/// Tiles and sporadics that do not fit a terrain: no burning ground and
/// no walls in the mire, no fog below ground (the dark stands in for it).
const UNFIT: [(&str, &str); 7] = [
    ("CLATTER", "swamp"),
    ("FIRE", "swamp"),
    ("Fire", "swamp"),
    ("Walls", "swamp"),
    ("FOG, light", "underground"),
    ("FOG, moderate", "underground"),
    ("FOG, heavy", "underground"),
];
/// Tiles that say someone is there: a nook with someone in it, a line or
/// bells that give the party away to whoever listens.
const SOMEONE: [&str; 3] = ["HIDEYHOLE", "TRIP WIRE", "ALARM"];
/// Words that put a situation under a roof in a terrain under the open
/// sky: the cellars, crypts, back rooms and taprooms the texts describe
/// (read by hand from every situation; a crypt dug at from outside is not
/// one).
const ROOFED: [&str; 10] = [
    "wine cellar",
    "in the cellar",
    "hayloft",
    "taproom",
    "the back room",
    "burial vault",
    "keep's crypt",
    "lord's tomb",
    "counting-house",
    "rooms on either side",
];

/// Whether an encounter stands under a roof or rock: below ground, or a
/// situation whose words say so (read from its text, so that an untagged
/// cellar is caught) or whose content says so (its `indoor` tag).
fn roofed(e: &Encounter) -> bool {
    let text = e.situation.text.to_lowercase();
    e.terrain == "underground"
        || ROOFED.iter().any(|w| text.contains(w))
        || e.situation.tags.iter().any(|t| t == "indoor")
}

/// Terrains with no buildings.
const WILD: [&str; 4] = ["road", "forest", "swamp", "hills"];
const PRONOUNS: [&str; 8] = [
    "he", "she", "him", "her", "his", "hers", "himself", "herself",
];

fn request(i: usize, system: RulesSystem) -> Request {
    let summary = match system {
        RulesSystem::Mettle => ["3,3,4,4", "2,3", "5,5,5,6", "4"][i % 4],
        RulesSystem::Core => ["10,11,12,9", "8,9", "13,14,15,12", "11"][i % 4],
    };
    Request {
        terrain: TERRAINS[i % TERRAINS.len()].into(),
        system,
        party: Party::from_summary(summary, system).unwrap(),
        pin: Pin::default(),
        shun: Vec::new(),
        taken: Vec::new(),
        heard: Vec::new(),
        season: Season::ALL[i % 4],
    }
}

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '\''))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// A word written twice with only a space between (`the the`), case
/// aside; `did it. It` is two sentences.
fn doubled(text: &str) -> Option<String> {
    let ws: Vec<&str> = text.split_whitespace().collect();
    ws.windows(2).find_map(|w| {
        let first = w[0].to_lowercase();
        let second = w[1].to_lowercase();
        let second = second.trim_end_matches(|c: char| !c.is_alphanumeric());
        (first.chars().all(char::is_alphanumeric) && first == second).then_some(first)
    })
}

/// Every archetype's plural, as English writes it.
fn plurals(library: &Library) -> Vec<String> {
    let rows = &library.get("gen.npc.mettle").unwrap().rows;
    rows.iter()
        .flat_map(|r| {
            let k = r.entry.name.to_string();
            let y = k.strip_suffix('y').map(|s| format!("{s}ies"));
            let f = k.strip_suffix('f').map(|s| format!("{s}ves"));
            [Some(format!("{k}s")), Some(format!("{k}es")), y, f]
        })
        .flatten()
        .collect()
}

/// What is wrong with one encounter's coherence.
fn problems(e: &Encounter, plurals: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let texts = [Some(&e.situation), e.twist.as_ref(), e.ending.as_ref()];
    for t in texts.iter().flatten() {
        let ws = words(&t.text);
        for pair in ws.windows(2) {
            if (pair[0] == "1" || pair[0] == "one") && plurals.contains(&pair[1]) {
                out.push(format!("`{} {}` in {:?}", pair[0], pair[1], t.text));
            }
        }
    }
    let tiles = e.terrain_cards.iter().flat_map(|d| &d.tiles);
    for name in tiles.chain(&e.sporadics).map(|p| p.name.as_str()) {
        if roofed(e) && SKY.contains(&name) {
            out.push(format!("{name} under a roof: {}", e.situation.row));
        }
        if UNFIT.contains(&(name, e.terrain.as_str())) {
            out.push(format!("{name} in the {}", e.terrain));
        }
        if SOMEONE.contains(&name) && !Scene::of(e).carries {
            out.push(format!(
                "{name} with no one to keep it: {}",
                e.situation.row
            ));
        }
        if name.eq_ignore_ascii_case("fire") && raining(e) {
            out.push(format!(
                "{name} in the rain: {:?}",
                e.weather.as_ref().map(|w| &w.text)
            ));
        }
        if WILD.contains(&e.terrain.as_str()) && BUILT.contains(&name) {
            out.push(format!("{name} in the {}", e.terrain));
        }
        out.extend(sky_problem(e, name));
    }
    let mut fields: Vec<&str> = (e.terrain_cards.iter().flat_map(|d| &d.tiles))
        .filter(|t| t.at == WHOLE_FIELD)
        .map(|t| t.name.split(',').next().unwrap_or_default())
        .collect();
    fields.sort_unstable();
    if fields.windows(2).any(|w| w[0] == w[1]) {
        out.push(format!("two whole-field tiles of a kind: {fields:?}"));
    }
    out.extend(day_problem(e));
    out.extend(layer_problems(e));
    out.extend(e.foes.iter().filter_map(pronoun_problem));
    out.extend(shared_lines(e));
    out
}

/// A trait line two people of one scene share (the bandit and the guide
/// both want the same cure).
fn shared_lines(e: &Encounter) -> Vec<String> {
    let mut seen = std::collections::BTreeSet::new();
    let people = e.foes.iter().chain(&e.others);
    let lines = people.flat_map(|n| {
        let t = &n.traits;
        [&t.want, &t.secret, &t.manner, &t.look]
            .into_iter()
            .flatten()
    });
    lines
        .filter(|l| !seen.insert(l.as_str()))
        .map(|l| format!("two people share {l:?}"))
        .collect()
}

/// A creature's own pronouns in its concept (`its barrow`, `her word`)
/// against the singular "they" its trait lines are written with.
const OWN: [&str; 8] = [
    "its", "itself", "his", "himself", "her", "herself", "he", "she",
];
/// The singular "they" of the trait lines.
const THEY: [&str; 4] = ["they", "them", "their", "themselves"];

/// A leader who is no person (a troll, a ghost) called "it" or "she" in
/// its concept and "they" in its traits.
fn pronoun_problem(f: &Npc) -> Option<String> {
    let t = &f.traits;
    let traits = [&t.want, &t.secret, &t.manner, &t.look];
    let traits: Vec<&String> = traits.into_iter().flatten().collect();
    if f.is_person() || traits.is_empty() {
        return None;
    }
    let own = words(&f.concept)
        .into_iter()
        .find(|w| OWN.contains(&w.as_str()))?;
    let they = traits
        .iter()
        .flat_map(|t| words(t))
        .find(|w| THEY.contains(&w.as_str()))?;
    Some(format!(
        "{} is `{own}` in {:?} and `{they}` in its traits",
        f.archetype, f.concept
    ))
}

/// The words a weather text uses for what a RAIN, FOG or WIND tile needs
/// of the sky (read from the text, not the row's tags).
const SKY_WORDS: [(&str, &[&str]); 3] = [
    (
        "RAIN",
        &[
            "rain",
            "drizzle",
            "downpour",
            "shower",
            "showers",
            "sleet",
            "hail",
            "hailstorm",
            "snow",
            "blizzard",
            "thunderstorm",
            "storm",
        ],
    ),
    (
        "FOG",
        &[
            "fog", "mist", "cloud", "smoke", "haze", "dust", "dusty", "white",
        ],
    ),
    (
        "WIND",
        &[
            "wind",
            "windy",
            "gale",
            "gales",
            "gusts",
            "blowing",
            "blows",
            "breeze",
            "storm",
            "blizzard",
            "thunderstorm",
        ],
    ),
];

/// Whether the weather under an open sky is a wet one (its row tagged
/// `rain`: the words alone cannot tell "after the rain" from a downpour).
fn raining(e: &Encounter) -> bool {
    let weather = e.weather.as_ref().filter(|_| !roofed(e));
    weather.is_some_and(|w| w.tags.iter().any(|t| t == "rain"))
}

/// A RAIN, FOG or WIND tile under an open sky whose weather says nothing
/// of rain, fog or wind (under a roof, FOG is smoke or steam).
fn sky_problem(e: &Encounter, tile: &str) -> Option<String> {
    let w = e.weather.as_ref().filter(|_| !roofed(e))?;
    let (_, needs) = SKY_WORDS.iter().find(|(k, _)| tile.starts_with(k))?;
    let ws = words(&w.text);
    (!ws.iter().any(|x| needs.contains(&x.as_str())))
        .then(|| format!("{tile} in weather {:?}: {}", w.row, w.text))
}

/// What a situation's words say of the day, and the words its weather
/// must then use (read from both texts, not from the `weather:` tags).
const DAY_WORDS: [(&[&str], &[&str]); 4] = [
    (
        &["a storm", "hail as"],
        &[
            "storm",
            "stormy",
            "thunderstorm",
            "hailstorm",
            "thunder",
            "lightning",
            "gale",
            "gales",
            "hail",
            "blizzard",
            "sleet",
        ],
    ),
    (
        &["snow closes", "in the snow"],
        &["snow", "snowbound", "blizzard", "drifts"],
    ),
    (
        &["frostbitten"],
        &[
            "frost",
            "ice",
            "icy",
            "snow",
            "sleet",
            "bitter",
            "cold",
            "freezing",
            "frozen",
            "icicles",
            "snowbound",
            "drifts",
            "blizzard",
        ],
    ),
    (
        &["in this wind", "wind is rising"],
        &[
            "wind", "windy", "gale", "gales", "gusts", "blowing", "breeze", "blizzard",
        ],
    ),
];

/// A situation whose words need a kind of day (a storm, snow, a wind) met
/// in weather whose words say nothing of it.
fn day_problem(e: &Encounter) -> Option<String> {
    let w = e.weather.as_ref()?;
    let said = e.situation.text.to_lowercase();
    let ws = words(&w.text);
    let (_, needs) = DAY_WORDS
        .iter()
        .find(|(says, _)| says.iter().any(|s| said.contains(s)))?;
    (!ws.iter().any(|x| needs.contains(&x.as_str())))
        .then(|| format!("{:?} in weather {:?}: {}", e.situation.row, w.row, w.text))
}

/// Who and what an encounter holds, read from its terrain's name and its
/// cast, not from the generator's stage.
struct Scene {
    terrain: String,
    roofed: bool,
    /// What kind of scene the situation says it is: its tags among
    /// [`SCENE_KINDS`], and `night` from night weather.
    kinds: Vec<String>,
    foes: bool,
    band: bool,
    /// Foes of more than one archetype: a leader among them.
    led: bool,
    /// No undead, spirit or construct among the foes.
    living: bool,
    /// The weather says rain or snow.
    wet: bool,
    others: bool,
    talks: bool,
    carries: bool,
}

impl Scene {
    fn of(e: &Encounter) -> Scene {
        let kinds = |ks: &[&str]| e.foes.iter().any(|f| ks.contains(&f.kind.as_str()));
        Scene {
            terrain: e.terrain.clone(),
            roofed: roofed(e),
            kinds: (e.situation.tags.iter())
                .chain(e.weather.iter().flat_map(|w| &w.tags))
                .filter(|t| SCENE_KINDS.contains(&t.as_str()))
                .cloned()
                .collect(),
            foes: !e.foes.is_empty(),
            band: e.foes.len() > 1,
            led: (e.foes.iter()).any(|f| f.archetype != e.foes[0].archetype),
            living: !kinds(&["undead", "spirit", "construct"]),
            wet: (e.weather.iter().flat_map(|w| &w.tags)).any(|t| t == "rain" || t == "snow"),
            others: !e.others.is_empty(),
            talks: kinds(&["human", "townsfolk"]),
            carries: kinds(&["human", "townsfolk", "monster"]),
        }
    }

    fn fits(&self, tag: &str) -> bool {
        let t = self.terrain.as_str();
        if let Some(name) = tag.strip_prefix("terrain:") {
            return name == t;
        }
        if let Some(not) = tag.strip_prefix("not:") {
            return !self.fits(not);
        }
        match tag {
            "outdoor" => !self.roofed,
            "indoor" => t == "underground",
            "wild" => WILD.contains(&t) && !self.roofed,
            "settled" => (t == "town" || t == "ruins") && !self.roofed,
            "water" => t == "swamp",
            "wet" => self.wet,
            "foes" => self.foes,
            "band" => self.band,
            "people" => self.others || self.talks,
            "someone" => self.foes || self.others,
            "parley" => self.talks,
            "friendly" => self.others && !self.foes,
            "carriers" => self.carries,
            "trouble" => self.foes || !self.others,
            "led" => self.led,
            "living" => self.living,
            k if SCENE_KINDS.contains(&k) => self.kinds.iter().any(|x| x == k),
            // Not needs: a captive put on stage, a captive freed.
            "captive" | "needs:captive" => true,
            _ => false,
        }
    }
}

/// Words that say where a layer or the spoils stand, or who is there, and
/// the terrains (or cast) they need: read from the text, without tags.
const PLACE_WORDS: [(&str, &[&str]); 10] = [
    ("reeds", &["swamp"]),
    ("boat", &["swamp"]),
    ("ferry", &["swamp"]),
    ("street", &["town"]),
    ("curfew", &["town"]),
    ("hearthstone", &["town", "ruins"]),
    ("wagon", &["road", "town", "hills"]),
    ("scree", &["hills"]),
    ("woodcutters", &["forest"]),
    (
        "cart",
        &["road", "forest", "swamp", "hills", "town", "ruins"],
    ),
];

/// A missing twist or ending, a layer or spoils whose tags the encounter
/// does not meet, or words in them that the scene belies.
fn layer_problems(e: &Encounter) -> Vec<String> {
    let scene = Scene::of(e);
    let mut out = Vec::new();
    for (what, layer) in [("twist", &e.twist), ("ending", &e.ending)] {
        if layer.is_none() {
            out.push(format!("no {what}"));
        }
    }
    let layers = [
        ("twist", &e.twist),
        ("ending", &e.ending),
        ("spoils", &e.spoils),
    ];
    for (what, l) in layers.iter().filter_map(|(w, l)| Some((w, l.as_ref()?))) {
        let terrains: Vec<&str> = l
            .tags
            .iter()
            .filter_map(|t| t.strip_prefix("terrain:"))
            .collect();
        if !terrains.is_empty() && !terrains.contains(&e.terrain.as_str()) {
            out.push(format!("{what} `{}` for {terrains:?}", l.row));
        }
        let needs = l.tags.iter().filter(|t| !t.starts_with("terrain:"));
        for tag in needs.filter(|t| !scene.fits(t)) {
            out.push(format!("{what} `{}` tagged {tag}", l.row));
        }
        out.extend(word_problems(what, &l.text, &scene));
    }
    out
}

/// What a layer's words say that the scene belies.
fn word_problems(what: &str, text: &str, scene: &Scene) -> Vec<String> {
    let mut out = Vec::new();
    let ws = words(text);
    for (word, terrains) in PLACE_WORDS {
        if ws.iter().any(|w| w == word) && !terrains.contains(&scene.terrain.as_str()) {
            out.push(format!(
                "{what} says `{word}` in the {}: {text:?}",
                scene.terrain
            ));
        }
    }
    let lower = text.to_lowercase();
    // A traveller or a hermit is no "other side" to settle with.
    if lower.contains("the other side") && !scene.foes {
        out.push(format!(
            "{what} speaks of the other side with no foe: {text:?}"
        ));
    }
    if lower.contains("will settle for") && !scene.talks {
        out.push(format!(
            "{what} has a side settle terms that cannot talk: {text:?}"
        ));
    }
    let friendly = scene.others && !scene.foes;
    let group = [
        "among its own",
        "those left behind",
        "scatters",
        "one of the other side",
    ];
    if !scene.band && group.iter().any(|g| lower.contains(g)) {
        out.push(format!("{what} splits a side of one: {text:?}"));
    }
    let threat = ["the danger", "next season, bigger", "fare worse"];
    if friendly && threat.iter().any(|t| lower.contains(t)) {
        out.push(format!("{what} makes a danger of friendly folk: {text:?}"));
    }
    if (lower.contains("can carry") || lower.contains("captors")) && !scene.carries {
        out.push(format!("{what} has beasts carry or hold: {text:?}"));
    }
    out
}

/// Foes of one archetype sharing a concept line while the archetype has
/// more lines than there are of them ("four cultists, each an ordinary
/// villager sworn to a drowned god").
fn twins(library: &Library, e: &Encounter) -> Vec<String> {
    let table = crate::generators::npc::table_for(e.system);
    let rows = &library.get(table).unwrap().rows;
    let mut out = Vec::new();
    for (i, f) in e.foes.iter().enumerate() {
        let row = rows.iter().find(|r| *r.entry.name == *f.archetype).unwrap();
        let lines = crate::generators::concept::of(library, table, row).len();
        let kin: Vec<&Npc> = e
            .foes
            .iter()
            .filter(|g| g.archetype == f.archetype)
            .collect();
        let before = e.foes[..i].iter().filter(|g| g.archetype == f.archetype);
        if kin.len() <= lines && before.clone().any(|g| g.concept == f.concept) {
            out.push(format!("{} shares {:?} with its kin", f.name, f.concept));
        }
    }
    out
}

/// People on stage whose concept the situation does not allow (its
/// `concept:` tags name a concept row, or the archetype for its own
/// line): the cattle raid's drover bound for market with sixty pigs.
/// A leader with a body like a person's who is no person (a troll, a
/// ghost, a goblin chief), called "its" or "she" in the situation and
/// "they" in its trait lines. An ooze, a beast, bones or a headless rider
/// stay "it": their trait rows never call them "they".
fn voice(library: &Library, e: &Encounter) -> Option<String> {
    let leader = e.leader().filter(|l| !l.is_person())?;
    let table = crate::generators::npc::table_for(e.system);
    let row = (library.get(table)?.rows.iter()).find(|r| *r.entry.name == *leader.archetype)?;
    if crate::content::validate::traits::bodies(&row.entry.tags)[0] != "person" {
        return None;
    }
    let npc = Npc {
        concept: e.situation.text.clone(),
        ..leader.clone()
    };
    pronoun_problem(&npc).map(|p| format!("situation `{}`: {p}", e.situation.row))
}

fn miscast(e: &Encounter) -> Vec<String> {
    let allowed: Vec<&str> = e
        .situation
        .tags
        .iter()
        .filter_map(|t| t.strip_prefix("concept:"))
        .collect();
    if allowed.is_empty() {
        return Vec::new();
    }
    e.others
        .iter()
        .filter(|n| {
            let name = n.concept_key.rsplit('/').next().unwrap_or_default();
            !allowed.contains(&name)
        })
        .map(|n| {
            format!(
                "{} is {:?}, which {:?} does not allow",
                n.name, n.concept, e.situation.row
            )
        })
        .collect()
}

#[test]
fn a_thousand_encounters_a_system_are_coherent() {
    let library = library();
    let seed = Seed::new("coherence").unwrap();
    let plurals = plurals(&library);
    let mut wrong = Vec::new();
    let (mut fights, mut left, mut ambushes, mut cast) = (0, 0, 0, 0);
    let (mut twists, mut endings) = (Vec::new(), Vec::new());
    for system in [RulesSystem::Mettle, RulesSystem::Core] {
        for i in 0..1000 {
            let e = nth(&library, &request(i, system), &seed, i).unwrap();
            for p in problems(&e, &plurals)
                .into_iter()
                .chain(twins(&library, &e))
                .chain(miscast(&e))
                .chain(voice(&library, &e))
            {
                wrong.push(format!("{system:?} #{i} {}: {p}", e.terrain));
            }
            cast += usize::from(e.situation.tags.iter().any(|t| t.starts_with("concept:")));
            twists.extend(e.twist.iter().map(|t| t.row.clone()));
            endings.extend(e.ending.iter().map(|t| t.row.clone()));
            if system != RulesSystem::Mettle || e.foes.is_empty() {
                continue;
            }
            fights += 1;
            let party = &e
                .layout
                .zones
                .iter()
                .find(|z| z.starts.contains(&"PC 1".to_owned()));
            let at = party.map(|z| z.name.as_str()).unwrap_or_default();
            left += usize::from(at == "Left flank");
            if zones::ambush(&e.situation) {
                ambushes += 1;
                if at != "The middle" {
                    wrong.push(format!("#{i} an ambush with the party on the {at}"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}:\n{}", wrong.len(), wrong.join("\n"));
    // Situations that pin their people's concepts were met.
    assert!(cast > 100, "{cast} situations pin a concept");
    // Deployment follows the situation: not always the left flank.
    assert!(
        fights > 300 && ambushes > 5,
        "{fights} fights, {ambushes} ambushes"
    );
    assert!(
        left * 10 < fights * 7,
        "{left} of {fights} on the left flank"
    );
    // The layers vary.
    twists.sort();
    twists.dedup();
    endings.sort();
    endings.dedup();
    assert!(
        twists.len() >= 30 && endings.len() >= 30,
        "{twists:?} {endings:?}"
    );
}

#[test]
fn ten_thousand_texts_hold_no_placeholder_doubled_word_or_gendered_pronoun_for_a_person() {
    let library = library();
    let seed = Seed::new("texts").unwrap();
    let (mut texts, mut wrong) = (0, Vec::new());
    let mut i = 0;
    while texts < 10_000 {
        let system = [RulesSystem::Mettle, RulesSystem::Core][i % 2];
        let e = nth(&library, &request(i / 2, system), &seed, i).unwrap();
        let person = !e.others.is_empty()
            || e.foes
                .iter()
                .any(|f| f.kind == "human" || f.kind == "townsfolk");
        let layers = [e.twist.as_ref(), e.ending.as_ref()];
        for (n, t) in std::iter::once(&e.situation)
            .chain(layers.into_iter().flatten())
            .enumerate()
        {
            texts += 1;
            let ws = words(&t.text);
            if t.text.contains(['{', '}']) {
                wrong.push(format!("placeholder: {:?}", t.text));
            }
            if let Some(w) = doubled(&t.text) {
                wrong.push(format!("`{w} {w}`: {:?}", t.text));
            }
            // Layers never; a situation not where a person is on stage.
            let gendered = ws.iter().find(|w| PRONOUNS.contains(&w.as_str()));
            if let Some(p) = gendered
                && (n > 0 || person)
            {
                wrong.push(format!("`{p}` ({}): {:?}", t.row, t.text));
            }
        }
        i += 1;
    }
    assert!(wrong.is_empty(), "{}:\n{}", wrong.len(), wrong.join("\n"));
    assert_eq!(doubled("find who did it. It turns"), None);
    assert_eq!(doubled("Then the The end."), Some("the".into()));
}

/// Two diamonds below ground call for a whole-field sight tile: no rain
/// under rock, and no fog (`not:underground`): the player takes another
/// sight tile of the strength, laid on a spot (the dark, mostly).
#[test]
fn underground_two_diamonds_lay_a_sight_tile_that_is_neither_rain_nor_fog() {
    let library = library();
    let under = library.region("underground").unwrap();
    let zones = ["Left flank".to_owned()];
    let cards = [
        crate::rules::acs::Card { suit: 2, rank: 5 },
        crate::rules::acs::Card { suit: 2, rank: 8 },
    ];
    for k in 0..30 {
        let mut s = Seed::new("under").unwrap().stream(&k.to_string());
        let ground = terrain::Ground {
            region: under,
            weather: None,
            foes: true,
            night: false,
        };
        let d = terrain::play_cards(&library, ("party", ground), &cards, &zones, &mut s);
        assert_eq!(d.tiles.len(), 1);
        let t = &d.tiles[0];
        assert!(!SKY.contains(&t.name.as_str()), "{}", t.name);
        assert!(!t.name.starts_with("FOG"), "{}", t.name);
        assert_eq!(t.at, "Left flank");
    }
}
