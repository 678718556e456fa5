//! Fuzz the bundle: any bytes read as `prep` and `verify` read a bundle.toml; one accepted must be written out and read back the same. Never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tablewright::app::fuzzing;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    fuzzing::bundle(text);
});
