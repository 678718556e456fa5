//! Fuzz the GM's own files: any bytes read as a session file, a party file
//! (in both systems) and a character sheet. Whatever they hold, the checks
//! either accept them or explain why — never a panic.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use tablewright::rules::RulesSystem;
use tablewright::input;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("fuzz.toml");
    let _ = input::session_from_text(path, text);
    for system in [RulesSystem::Mettle, RulesSystem::Core] {
        let _ = input::party_from_text(path, text, system);
    }
    let _ = input::character_from_text(path, text);
});
