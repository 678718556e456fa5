//! One big table file, shared by the memory test (`tests/it/memory.rs`)
//! and the loading benchmarks (`benches/load.rs`, `benches/speed.rs`),
//! each of which includes this file with `#[path]`: they are separate
//! crates, and must measure the same rows.

use std::fmt::Write as _;

/// One weighted table, `bench.rows`, of `rows` rows: a `weight`, a
/// `name`, a `text` with a `{d6}` and one tag each (about 100 bytes).
pub fn many_rows(rows: usize) -> String {
    let mut s = String::from(
        "[[table]]\nid = \"bench.rows\"\ntitle = \"Rows\"\nsystem = \"any\"\nsource = \"bench\"\n",
    );
    for i in 0..rows {
        let _ = write!(
            s,
            "\n[[table.row]]\nweight = {}\nname = \"Row {i}\"\ntext = \"Row {i} rolls {{d6}} and says so.\"\ntags = [\"t{}\"]\n",
            1 + i % 5,
            i % 7
        );
    }
    s
}
