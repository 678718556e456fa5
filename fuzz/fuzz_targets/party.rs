//! Fuzz the party file: any bytes read as a party file of each system. Never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tablewright::app::fuzzing;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    fuzzing::party(text);
});
