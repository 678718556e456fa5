//! Fuzz the notation: parse, print and parse again (same tree), roll, and
//! — for small expressions — compute exact odds. No input may panic or
//! hang.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tablewright::dice::{self, Expr};
use tablewright::seed::Seed;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(expr) = dice::parse(text) else { return };
    let printed = expr.to_string();
    let again = dice::parse(&printed).expect("printed notation parses");
    assert_eq!(again, expr, "parse of print differs for {printed}");
    let mut stream = Seed::new("fuzz").unwrap().stream("");
    let _ = dice::roll(&expr, &mut stream);
    let small = match &expr {
        Expr::Roll(r) => r.dice_count() <= 40 && printed.len() <= 24,
        Expr::Pool(p) => p.effective_dice() <= 40,
        _ => true,
    };
    if small {
        let _ = dice::odds(&expr);
    }
});
