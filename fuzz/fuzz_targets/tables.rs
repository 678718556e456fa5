//! Fuzz the table loader, validator and roller on one file of content:
//! whatever the bytes, loading reports problems instead of panicking, and a
//! valid table rolls.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tablewright::content::{SourceFile, validate};
use tablewright::seed::Seed;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let file = SourceFile::new("fuzz.toml", text, 1);
    let (library, problems) = validate::build(&[file]);
    if problems.is_empty() {
        let seed = Seed::new("fuzz").unwrap();
        for id in library.tables.keys() {
            let _ = library.roll_times(id, 2, None, &seed);
            let _ = library.table_odds(id);
        }
    }
});
