//! Fuzz saved maps (`gen journey --map`): any bytes read as a map saved by
//! `gen map --json`. A map is refused with a reason or accepted whole, and
//! an accepted map can be measured and drawn — never a panic — and every
//! refusal names a line and column. (The unit test in `input::map` also
//! walks journeys across accepted maps.)
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        tablewright::app::fuzzing::saved_map(text);
    }
});
