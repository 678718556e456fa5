//! Returning faces: in a campaign, an encounter may bring back a person
//! the party met in an earlier session — the named leader of a foe group
//! ([`Was::Foe`]) or an NPC card ([`Was::Card`]) the campaign remembers
//! ([`super::super::memory::Memory::people`]) and does not know to be
//! dead — laid over the situation like a twist, from
//! `gen.situation.returning`.
//!
//! One encounter in [`CHANCE`] brings someone back when anyone can come
//! back (the `returning` stream of the encounter's address): a person
//! chosen evenly among those who have not come back before (all of them
//! once every one has), then a row whose tags the person and the scene
//! meet (`was:foe` or `was:card`, and the layer tags `foes`, `people`,
//! `outdoor`, `indoor`). Its markers are filled in: `@name`, `@kind` (the
//! archetype, `bandit captain`), and `@they`, `@them`, `@their`
//! (capitalised `@They` …) with the pronouns of the person's given name
//! (`masc` he, `fem` she, any other they), so the pronouns always agree
//! with the name printed.

use serde::Serialize;

use super::{Encounter, Stage};
use crate::content::{Library, Row};
use crate::generators::{GenError, display_name};
use crate::seed::{DieSource, Stream};

/// The table of returning faces.
pub const TABLE: &str = "gen.situation.returning";

/// One encounter in this many brings someone back, when anyone can.
pub const CHANCE: u32 = 5;

/// How the party met a person.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Was {
    /// The named leader of a foe group.
    Foe,
    /// An NPC card.
    Card,
}

impl Was {
    /// The tag of the rows that fit a person met so.
    pub fn tag(self) -> &'static str {
        match self {
            Was::Foe => "was:foe",
            Was::Card => "was:card",
        }
    }
}

/// A person the campaign remembers meeting, who could come back.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Face {
    /// Their name.
    pub name: String,
    /// Their archetype.
    pub archetype: String,
    /// How the party met them.
    pub was: Was,
}

/// A person who comes back into an encounter, and how.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Return {
    /// Their name.
    pub name: String,
    /// Their archetype.
    pub archetype: String,
    /// How the party met them.
    pub was: Was,
    /// The row of [`TABLE`] drawn.
    pub row: String,
    /// The row's text with the person filled in.
    pub text: String,
}

/// Whether someone of `faces` comes back into `e` (on `s`), and how; none
/// when nobody can, the table is missing or no row fits.
pub fn draw(
    library: &Library,
    e: &Encounter,
    faces: &[&Face],
    s: &mut Stream,
) -> Result<Option<Return>, GenError> {
    if faces.is_empty() || s.die(CHANCE) != 1 {
        return Ok(None);
    }
    let face = faces[s.die(faces.len() as u32) as usize - 1];
    let Some(table) = library.get(TABLE) else {
        return Ok(None);
    };
    let Ok(region) = library.region(&e.terrain) else {
        return Ok(None);
    };
    let stage = Stage::of(
        library,
        (region, &e.situation, e.weather.as_ref()),
        &e.foes,
        &e.others,
    );
    let fitting: Vec<(usize, &Row)> = table
        .rows
        .iter()
        .enumerate()
        .filter(|(_, r)| fits(r, face.was, stage) && library.drawable(r))
        .collect();
    let weights: Vec<u64> = fitting
        .iter()
        .map(|(_, r)| r.entry.weight.unwrap_or(1).max(1))
        .collect();
    let Some(pick) = s.pick_weighted(&weights) else {
        return Ok(None);
    };
    let roll = library.resolve(TABLE, fitting[pick].0, s)?;
    Ok(Some(Return {
        name: face.name.clone(),
        archetype: face.archetype.clone(),
        was: face.was,
        row: roll.row,
        text: fill(&roll.text, face, pronouns(library, &face.name)),
    }))
}

/// Whether a row fits a person met as `was` in a scene of `stage`: it
/// carries `was`'s tag, and the scene meets its layer tags.
pub fn fits(row: &Row, was: Was, stage: Stage) -> bool {
    let tags = &row.entry.tags;
    tags.iter().any(|t| **t == *was.tag())
        && stage.fits(
            &tags
                .iter()
                .filter(|t| !t.starts_with("was:"))
                .collect::<Vec<_>>(),
        )
}

/// The pronouns of a name (subject, object, possessive), from its given
/// name's tag in `gen.names.given`: `masc` he, `fem` she, else they.
pub(crate) fn pronouns(library: &Library, name: &str) -> [&'static str; 3] {
    let tag = library.get("gen.names.given").and_then(|t| {
        t.rows
            .iter()
            .filter(|r| {
                name.strip_prefix(r.entry.text.as_ref())
                    .is_some_and(|rest| rest.starts_with(' '))
            })
            .max_by_key(|r| r.entry.text.len())
            .and_then(|r| {
                r.entry
                    .tags
                    .iter()
                    .find(|t| **t == *"masc" || **t == *"fem")
            })
    });
    match tag.map(|t| t.as_ref()) {
        Some("masc") => ["he", "him", "his"],
        Some("fem") => ["she", "her", "her"],
        _ => ["they", "them", "their"],
    }
}

/// A row's text with the person's markers filled in.
pub fn fill(text: &str, face: &Face, [they, them, their]: [&str; 3]) -> String {
    let kind = display_name(&face.archetype).to_lowercase();
    let mut out = text.to_owned();
    for (marker, word) in [
        ("@name", face.name.as_str()),
        ("@kind", kind.as_str()),
        ("@their", their),
        ("@them", them),
        ("@they", they),
    ] {
        let upper = format!("@{}{}", marker[1..2].to_uppercase(), &marker[2..]);
        out = out.replace(&upper, &capital(word)).replace(marker, word);
    }
    out
}

/// A word with its first letter capitalised.
fn capital(word: &str) -> String {
    let mut c = word.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::test_library;

    fn face(name: &str) -> Face {
        Face {
            name: name.into(),
            archetype: "bandit-captain".into(),
            was: Was::Foe,
        }
    }

    /// Verbs that agree with he, she and they alike: after `@they`, a
    /// row may write only one of these or a past tense in `-ed`.
    const AGREE: [&str; 14] = [
        "will", "would", "can", "could", "might", "must", "should", "swore", "meant", "did", "got",
        "sent", "made", "took",
    ];

    /// Every row of the built-in table: a `was:` tag, markers only of the
    /// known ones, a verb after `@they` that agrees with every pronoun,
    /// and filled in with he, she and they, no marker left.
    #[test]
    fn every_row_reads_with_any_pronoun() {
        let library = test_library();
        let rows = &library.table(TABLE).unwrap().rows;
        assert!(rows.len() >= 30, "{} rows", rows.len());
        for r in rows {
            let text = r.entry.text.as_ref();
            let name = &r.entry.name;
            assert!(r.entry.tags.iter().any(|t| t.starts_with("was:")), "{name}");
            let words: Vec<&str> = text
                .split(|c: char| !c.is_alphanumeric() && c != '@')
                .collect();
            for pair in words.windows(2) {
                if pair[0].eq_ignore_ascii_case("@they") {
                    let v = pair[1];
                    assert!(AGREE.contains(&v) || v.ends_with("ed"), "{name}: @they {v}");
                }
            }
            for p in [
                ["he", "him", "his"],
                ["she", "her", "her"],
                ["they", "them", "their"],
            ] {
                let filled = fill(text, &face("Ada Vell"), p);
                assert!(!filled.contains('@'), "{name}: {filled}");
                assert!(filled.contains("Ada Vell"), "{name}: {filled}");
            }
        }
    }

    #[test]
    fn pronouns_follow_the_given_name() {
        let library = test_library();
        let given = library.table("gen.names.given").unwrap();
        for (tag, want) in [("masc", "he"), ("fem", "she")] {
            let row = given
                .rows
                .iter()
                .find(|r| r.entry.tags.iter().any(|t| **t == *tag))
                .unwrap();
            let name = format!("{} Salter", row.entry.text);
            assert_eq!(pronouns(&library, &name)[0], want, "{name}");
        }
        assert_eq!(pronouns(&library, "Nobody-known Salter")[0], "they");
        let f = fill(
            "@They said @name, the @kind, lost @their hat.",
            &face("Osric Vell"),
            ["he", "him", "his"],
        );
        assert_eq!(f, "He said Osric Vell, the bandit captain, lost his hat.");
    }

    /// Words that give a person a sex.
    fn sexed(text: &str) -> Vec<String> {
        text.split(|c: char| !c.is_alphabetic())
            .map(str::to_lowercase)
            .filter(|w| ["he", "him", "his", "she", "her", "hers"].contains(&w.as_str()))
            .collect()
    }

    /// Thirty sessions of a campaign in each system (three encounters and
    /// four NPC cards a session, across four terrains), the leader of
    /// every other encounter marked dead after its session: people the
    /// party met come back, in a modest share of the encounters, never
    /// one who died, each by the name and archetype the campaign met and
    /// with no pronoun against their name.
    #[test]
    fn people_the_party_met_come_back_now_and_then_and_never_the_dead() {
        use crate::generators::memory::Memory;
        use crate::generators::session::{self, Entries};
        use crate::rules::{Party, RulesSystem};
        let library = test_library();
        for (system, summary) in [
            (RulesSystem::Mettle, "3,4,4,5"),
            (RulesSystem::Core, "10,12,9,11"),
        ] {
            let party = Party::from_summary(summary, system).unwrap();
            let mut memory = Memory::default();
            let (mut encounters, mut back, mut buried) = (0, 0, 0);
            for n in 1..=30 {
                let req = session::Request {
                    first_season: Default::default(),
                    title: "Faces".into(),
                    system,
                    terrain: ["road", "forest", "town", "hills"][n % 4].into(),
                    encounters: 3,
                    traps: 0,
                    npcs: 4,
                    injuries: 0,
                    mutations: 0,
                    vouchers: Vec::new(),
                    map: None,
                    rerolls: Default::default(),
                    entries: Entries::default(),
                };
                let seed = crate::seed::Seed::new(&format!("faces/{n}")).unwrap();
                let pack =
                    session::generate_remembering(&library, &req, &party, &seed, &memory).unwrap();
                for e in &pack.encounters {
                    encounters += 1;
                    let Some(r) = &e.returning else { continue };
                    back += 1;
                    assert!(
                        !memory.fallen.contains(&r.name),
                        "session {n}: {} is dead",
                        r.name
                    );
                    let face = memory.people.get(&r.name).expect("someone met before");
                    assert_eq!((&face.archetype, face.was), (&r.archetype, r.was));
                    assert!(r.text.contains(&r.name), "{}", r.text);
                    let allowed: &[&str] = match pronouns(&library, &r.name)[0] {
                        "he" => &["he", "him", "his"],
                        "she" => &["she", "her", "hers"],
                        _ => &[],
                    };
                    for w in sexed(&r.text) {
                        assert!(allowed.contains(&w.as_str()), "{}: {}", r.name, r.text);
                    }
                }
                for e in pack.encounters.iter().step_by(2) {
                    if let Some(l) = e.leader() {
                        memory.bury(&l.name);
                        buried += 1;
                    }
                }
                memory.remember(pack.used());
            }
            let share = back as f64 / encounters as f64;
            eprintln!("{system:?}: {back} of {encounters} encounters bring someone back");
            assert!(buried > 10, "{system:?}: only {buried} leaders died");
            assert!(
                (0.05..=0.3).contains(&share),
                "{system:?}: {back} of {encounters} encounters bring someone back"
            );
        }
    }
}
