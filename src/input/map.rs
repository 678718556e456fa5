//! Maps saved by `gen map --json` (the whole report or one map), read for
//! `gen journey --map`: every problem pointed at by line and column — text
//! that is not JSON, a value of the wrong type, numbers that do not hold
//! together (a stop or path out of range, too many paths, a path too long,
//! watches that do not follow from regions) — the map checked whole before
//! a journey walks it.

use std::path::Path;

use serde::Deserialize;
use serde::de::{Deserializer, IgnoredAny, SeqAccess, Visitor};

use super::json_at::{locate, place, shown};
use super::{Step, at_place, read_text};
use crate::content::line_col;
use crate::diagnostic::{Diagnostic, Report};
use crate::error::Error;
use crate::generators::map::{Flaw, Map, Place};

/// Flaws shown one by one; past this many, a count of the rest.
const SHOWN: usize = 10;

const HINT: &str =
    "fix the value in the file, or save the map again with `gen map --json > map.json`";

/// A saved map, read and checked.
pub(crate) fn read_map(path: &Path) -> Result<Map, Error> {
    let text = read_text(path, "map")?;
    map_from_text(path, &text)
}

/// A saved map's text (read from `path`), parsed and checked whole.
pub(crate) fn map_from_text(path: &Path, text: &str) -> Result<Map, Error> {
    let file = path.display().to_string();
    // JSON checked whole without building it (memory stays flat however
    // large the file), then read as a map: from a report when there is
    // `items`.
    serde_json::from_str::<IgnoredAny>(text).map_err(|e| {
        let (line, column) = serde_place(text, &e);
        let message = format!("the map is not JSON: {}", serde_message(&e));
        Error::input(Diagnostic::at(&file, line, column, message).with_source(text, 1))
    })?;
    let report = locate(text, &[Step::Key("items")]).is_some();
    let map = typed(text, report).map_err(|e| {
        let at: Vec<Step> = e.path().iter().filter_map(step).collect();
        let message = format!(
            "this is not a map saved by `gen map --json`: {}",
            named(&at, serde_message(e.inner()))
        );
        Error::input(at_place(path, text, place(text, &at), message).with_hint(HINT))
    })?;
    let flaws = crate::generators::map::check(&map);
    if flaws.is_empty() {
        return Ok(map);
    }
    let prefix: &[Step] = if report {
        &[Step::Key("items"), Step::Index(0)]
    } else {
        &[]
    };
    Err(Error::Input(broken(path, text, prefix, &flaws)))
}

type Typed = serde_path_to_error::Error<serde_json::Error>;

/// The map read with its types: from a report (`items`, the first only) or
/// on its own. A wrong value gives its path and serde's message.
fn typed(text: &str, report: bool) -> Result<Map, Typed> {
    let mut de = serde_json::Deserializer::from_str(text);
    if report {
        serde_path_to_error::deserialize::<_, Saved>(&mut de).map(|s| s.items.0)
    } else {
        serde_path_to_error::deserialize::<_, Map>(&mut de)
    }
}

/// `gen map --json`'s report: the first item is the map.
#[derive(Deserialize)]
struct Saved {
    items: First,
}

/// The first map of a report's items (the others are not read).
struct First(Map);

impl<'de> Deserialize<'de> for First {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Items;
        impl<'de> Visitor<'de> for Items {
            type Value = First;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list holding a map")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<First, A::Error> {
                let map = seq
                    .next_element::<Map>()?
                    .ok_or_else(|| serde::de::Error::custom("`items` holds no map"))?;
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(First(map))
            }
        }
        d.deserialize_seq(Items)
    }
}

fn step(s: &serde_path_to_error::Segment) -> Option<Step<'_>> {
    use serde_path_to_error::Segment;
    match s {
        Segment::Seq { index } => Some(Step::Index(*index)),
        Segment::Map { key } => Some(Step::Key(key)),
        Segment::Enum { .. } | Segment::Unknown => None,
    }
}

/// The report of a map whose numbers do not hold: each flaw at its value,
/// at most [`SHOWN`] of them.
fn broken(path: &Path, text: &str, prefix: &[Step], flaws: &[Flaw]) -> Report {
    let mut diagnostics: Vec<Diagnostic> = flaws
        .iter()
        .take(SHOWN)
        .map(|f| {
            let mut at = prefix.to_vec();
            at.extend(steps(f.at));
            let message = named(&at, f.message.clone());
            at_place(path, text, place(text, &at), message)
        })
        .collect();
    diagnostics.sort_by_key(|d| (d.line, d.column));
    let more = flaws.len().saturating_sub(SHOWN);
    let more = if more > 0 {
        format!("… and {more} more\n")
    } else {
        String::new()
    };
    Report {
        headline: Some(format!("the map `{}` cannot be walked:", path.display())),
        diagnostics,
        closing: Some(format!("{more}hint: {HINT}")),
    }
}

/// The JSON path of a flaw's place.
fn steps(place: Place) -> Vec<Step<'static>> {
    let (list, i, field) = match place {
        Place::Map(field) => return vec![Step::Key(field)],
        Place::Stop(i, field) => ("stops", i, field),
        Place::Path(i, field) => ("paths", i, field),
    };
    let mut out = vec![Step::Key(list), Step::Index(i)];
    if !field.is_empty() {
        out.push(Step::Key(field));
    }
    out
}

/// A message led by the path of the value it is about.
fn named(at: &[Step], message: String) -> String {
    if at.is_empty() {
        message
    } else {
        format!("{}: {message}", shown(at))
    }
}

/// serde's message without its " at line L column C" (the diagnostic
/// shows the place).
fn serde_message(e: &serde_json::Error) -> String {
    let full = e.to_string();
    let tail = format!(" at line {} column {}", e.line(), e.column());
    full.strip_suffix(&tail).unwrap_or(&full).to_owned()
}

/// serde's line and column (which counts bytes) as a line and a column
/// of characters.
fn serde_place(text: &str, e: &serde_json::Error) -> (usize, usize) {
    let start: usize = text
        .split_inclusive('\n')
        .take(e.line().saturating_sub(1))
        .map(str::len)
        .sum();
    line_col(text, start + e.column().saturating_sub(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::map::road_distances;
    use crate::seed::Seed;

    const H42: &str = include_str!("../../tests/fixtures/maps/h42.json");

    /// Replacements that have broken map readers: out-of-range and
    /// negative indices, huge and odd numbers, wrong types.
    const ODD: [&str; 10] = [
        "0",
        "-1",
        "9",
        "999999999",
        "1e308",
        "-0.0",
        "null",
        "\"x\"",
        "[]",
        "{}",
    ];

    /// `text` with one number or token swapped for an odd value, or a
    /// byte cut out, chosen by `s`.
    fn mutate(text: &str, s: &mut crate::seed::Stream) -> String {
        let numbers: Vec<(usize, usize)> = text
            .char_indices()
            .filter(|(i, c)| {
                c.is_ascii_digit()
                    && !text[..*i].ends_with(|p: char| p.is_ascii_digit() || p == '.')
            })
            .map(|(i, _)| {
                let end = text[i..]
                    .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                    .map_or(text.len(), |e| i + e);
                (i, end)
            })
            .collect();
        if s.below(4) == 0 {
            let at = s.below(text.len() as u32) as usize;
            let at = (0..=at)
                .rev()
                .find(|i| text.is_char_boundary(*i))
                .unwrap_or(0);
            let mut out = text.to_owned();
            out.remove(at);
            return out;
        }
        let (a, b) = numbers[s.below(numbers.len() as u32) as usize];
        let odd = ODD[s.below(ODD.len() as u32) as usize];
        format!("{}{odd}{}", &text[..a], &text[b..])
    }

    /// A journey across an accepted map, in both systems: it ends, whether
    /// or not the goal can be reached.
    fn walk(map: &Map, library: &crate::content::Library, seed: &Seed) {
        use crate::generators::journey::{Request, Route};
        use crate::rules::{Party, RulesSystem};
        for (system, party) in [(RulesSystem::Mettle, "3,4"), (RulesSystem::Core, "10,12")] {
            let req = Request {
                first_season: Default::default(),
                map: map.clone(),
                from: map.start,
                to: map.goal,
                party: Party::from_summary(party, system).unwrap(),
                system,
                route: Route::Safest,
                rations: 1,
                water: 1,
                capacity: 3,
                kits: Vec::new(),
                twist: true,
                used: Vec::new(),
                remembered: Vec::new(),
                shun: Vec::new(),
                taken: Vec::new(),
                heard: Vec::new(),
                pool: None,
                first_day: 1,
                fasting: Vec::new(),
                visits: Default::default(),
                helped: Vec::new(),
                hearsay: Default::default(),
            };
            let _ = crate::generators::nth(library, &req, seed, 0);
        }
    }

    /// Whether every problem in a refusal names `map.json:LINE:COLUMN`.
    fn pointed_at_lines(shown: &str) -> bool {
        let places: Vec<&str> = shown.split("map.json").skip(1).collect();
        !places.is_empty()
            && places.iter().all(|rest| {
                rest.starts_with('`')
                    || rest
                        .strip_prefix(':')
                        .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit() && c != '0'))
            })
    }

    /// Issue 30: a region of 300 stops saved as `gen map --json` writes
    /// it loads whole (every stop and path, none skipped), passes its
    /// checks, and routes from the start to every stop.
    #[test]
    fn a_saved_region_of_300_stops_loads_and_passes_its_checks() {
        use crate::generators::{Generator, map};
        let library = crate::content::test_library();
        let seed = Seed::new("saved-region").unwrap();
        let req = map::Request {
            stops: map::STOPS.1,
            terrains: Vec::new(),
        };
        let made = req
            .make(&library, &seed, &crate::generators::Address::new("map", 0))
            .unwrap();
        let text = serde_json::to_string_pretty(&made).unwrap();
        let read = map_from_text(Path::new("region.json"), &text).unwrap();
        assert_eq!(read, made);
        assert_eq!(read.stops.len(), 300);
        let far = road_distances(&read, read.start);
        assert!(far.iter().all(|d| *d != u32::MAX));
    }

    #[test]
    fn a_report_gives_its_first_map_and_an_empty_one_is_pointed_at() {
        let path = Path::new("map.json");
        let first = map_from_text(path, H42).unwrap();
        // `gen map --count 2 --json`: the second item is not read.
        let two = H42.replacen("\n  ]\n}", ", 42\n  ]\n}", 1);
        assert!(two.contains(", 42"), "the fixture's layout changed");
        assert_eq!(map_from_text(path, &two).unwrap(), first);
        let empty = "{\"seed\": \"s\",\n \"items\": []}";
        let e = map_from_text(path, empty).unwrap_err().to_string();
        assert!(e.starts_with("map.json:2:11: "), "{e}");
        assert!(e.contains("`items` holds no map"), "{e}");
    }

    /// A map of 50,000 stops on one line (2.5 MB): refused at `stops` with
    /// a message of a few lines, whose source line is a window.
    #[test]
    fn a_huge_one_line_map_gets_a_short_refusal() {
        let stop =
            r#"{"id":0,"name":"S","kind":"camp","terrain":"road","hook":"","x":1.0,"y":1.0}"#;
        let stops = vec![stop; 50_000].join(",");
        let text = format!(r#"{{"size":6.0,"stops":[{stops}],"paths":[],"start":0,"goal":1}}"#);
        let e = map_from_text(Path::new("map.json"), &text)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("map.json:1:21: stops: the map has more than 300 stops"),
            "{e}"
        );
        assert!(e.len() < 1000, "{} bytes", e.len());
    }

    #[test]
    fn mangled_saved_maps_are_refused_or_sound_never_a_panic() {
        let seed = Seed::new("mangled-maps").unwrap();
        let library = crate::content::test_library();
        let mut s = seed.stream("mutations");
        let path = Path::new("map.json");
        let (mut refused, mut accepted) = (0, 0);
        for _ in 0..3000 {
            let mut text = H42.to_owned();
            for _ in 0..=s.below(3) {
                text = mutate(&text, &mut s);
            }
            match map_from_text(path, &text) {
                Ok(map) => {
                    accepted += 1;
                    assert!(crate::generators::map::check(&map).is_empty());
                    let far = road_distances(&map, map.start);
                    assert_eq!(far.len(), map.stops.len());
                    walk(&map, &library, &seed);
                }
                Err(e) => {
                    refused += 1;
                    assert!(pointed_at_lines(&e.to_string()), "{e}");
                }
            }
        }
        assert!(
            refused > 1000 && accepted > 100,
            "{refused} refused, {accepted} accepted"
        );
    }
}
