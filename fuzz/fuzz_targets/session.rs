//! Fuzz the session file: any bytes read as `prep` reads a session file; one accepted must take a reroll in place and still read. Never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tablewright::app::fuzzing;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    fuzzing::session(text);
});
