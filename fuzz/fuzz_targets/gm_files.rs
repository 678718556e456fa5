//! Fuzz the GM's own files: any bytes read as a session file, a party file
//! (in both systems) and a character sheet. Whatever they hold, the checks
//! either accept them or explain why — never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        tablewright::app::fuzzing::gm_files(text);
    }
});
