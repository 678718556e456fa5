//! Fuzz saved maps (`gen journey --map`): any bytes read as a map saved by
//! `gen map --json`. A map is refused with a reason or accepted whole, and
//! an accepted map can be measured and drawn — never a panic — and every
//! refusal names a line and column. (The unit test in `input::map` also
//! walks journeys across accepted maps.)
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use tablewright::generators::map::{check, road_distances};
use tablewright::handouts::drawings::chart::draw;
use tablewright::input;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let map = match input::map_from_text(Path::new("fuzz.json"), text) {
        Ok(map) => map,
        Err(e) => {
            // Every refusal points at a line: `fuzz.json:LINE:COLUMN`.
            let shown = e.to_string();
            assert!(shown.contains("fuzz.json:") && !shown.contains("fuzz.json: "), "{shown}");
            return;
        }
    };
    assert!(check(&map).is_empty());
    let _ = road_distances(&map, map.start);
    for players in [false, true] {
        let _ = draw(&map, players);
    }
});
