//! Fuzz `import` of Perchance generators: what is read becomes TOML; every refusal names a line. Never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tablewright::app::fuzzing;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    fuzzing::import("table.perchance", text);
});
