//! Maps saved by `gen map --json` (the whole report or one map), read for
//! `gen journey --map`: JSON errors pointed at, the map checked whole.

use std::path::Path;

use super::read_text;
use crate::diagnostic::Diagnostic;
use crate::error::Error;
use crate::generators::map::Map;

/// A saved map, read and checked.
pub fn read_map(path: &Path) -> Result<Map, Error> {
    let text = read_text(path, "map")?;
    map_from_text(path, &text)
}

/// A saved map's text (read from `path`), parsed and checked whole.
pub fn map_from_text(path: &Path, text: &str) -> Result<Map, Error> {
    let shown = path.display().to_string();
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        let d = Diagnostic::at(
            &shown,
            e.line(),
            e.column(),
            format!("the map is not JSON: {e}"),
        );
        Error::input(d.with_source(text, 1))
    })?;
    let map_value = match value.get("items").and_then(|i| i.get(0)) {
        Some(first) => first.clone(),
        None => value,
    };
    let map: Map = serde_json::from_value(map_value).map_err(|e| {
        let message = format!("this is not a map saved by `gen map --json`: {e}");
        Error::input(Diagnostic::at(&shown, 0, 0, message))
    })?;
    let problems = crate::generators::map::check(&map);
    if !problems.is_empty() {
        let message = format!("the map is broken: {}", problems.join("; "));
        return Err(Error::input(Diagnostic::at(&shown, 0, 0, message)));
    }
    Ok(map)
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
            };
            let _ = crate::generators::nth(library, &req, seed, 0);
        }
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
                    assert!(e.to_string().contains("map.json"), "{e}");
                }
            }
        }
        assert!(
            refused > 1000 && accepted > 100,
            "{refused} refused, {accepted} accepted"
        );
    }
}
