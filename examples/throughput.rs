//! Rolls per second of parse+roll for the peer comparison (`bench/peers.sh`),
//! and the time of the exact METTLE success table. Run it in release mode:
//! `cargo run --release --example throughput`. (The budgets themselves are
//! measured by `cargo bench`; this prints the same figures in the format the
//! peer script compares.)
//!
//! `throughput --count N EXPR` parses and rolls EXPR exactly N times and
//! prints nothing: run it under `valgrind --tool=callgrind` to count
//! instructions per roll, a figure that does not depend on what else the
//! machine is doing (compare two builds with it).

use std::hint::black_box;
use std::time::{Duration, Instant};

use tablewright::dice::{self, Expr, odds::success_table};
use tablewright::seed::Seed;

fn rate(text: &str) -> f64 {
    let mut stream = Seed::new("throughput").unwrap().stream(text);
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed() < Duration::from_millis(800) {
        for _ in 0..1000 {
            black_box(once(text, &mut stream));
        }
        n += 1000;
    }
    n as f64 / start.elapsed().as_secs_f64()
}

/// Parse and roll `text` once, returning the value.
fn once(text: &str, stream: &mut tablewright::seed::Stream) -> i64 {
    let expr = dice::parse(black_box(text)).unwrap();
    match &expr {
        Expr::Roll(r) => r.total(stream),
        other => dice::roll(other, stream).value(),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let [_, flag, n, text] = args.as_slice()
        && flag == "--count"
    {
        let mut stream = Seed::new("throughput").unwrap().stream(text);
        for _ in 0..n.parse::<u64>().expect("a count") {
            black_box(once(text, &mut stream));
        }
        return;
    }
    for text in [
        "3d6", "2d6+4", "4d6kh3", "d6!", "4d6dl1", "2d6ro<3", "5d10>=8", "3d6!!", "6D vs 6", "3D+3",
    ] {
        println!("tablewright\t{text}\t{:.0}", rate(text));
    }
    let start = Instant::now();
    let runs = 200;
    for _ in 0..runs {
        black_box(success_table(20, 30));
    }
    let each = start.elapsed().as_secs_f64() / f64::from(runs);
    println!("tablewright\tmettle-table\t{:.1}", each * 1e6);
}
