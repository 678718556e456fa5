//! Fuzz the notation: parse, print and parse again (same tree), roll, and
//! — for expressions small enough to take microseconds — compute exact odds
//! and check they add up to one; a Roll's result must lie inside its exact
//! bounds. No input may panic, overflow or hang.
//!
//! Large expressions are left to the exact-odds work limit
//! (`dice::limits::MAX_WORK`), which unit tests pin; computing their odds
//! here would spend the fuzzer's time on a handful of slow inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tablewright::dice::odds::OddsDetail;
use tablewright::dice::odds::terms;
use tablewright::dice::{self, Expr};
use tablewright::seed::Seed;

/// Steps one exact computation takes, roughly (the engine's own estimate,
/// which refuses past `MAX_WORK`).
fn size(expr: &Expr) -> u64 {
    match expr {
        Expr::Roll(r) => terms::cost(&r.terms).1,
        Expr::Pool(p) => u64::from(p.effective_dice()) * 6 * (p.team.len() as u64 + 1),
        Expr::Contest(c) => 20u64.pow(c.entrants.len().min(6) as u32),
        _ => 1,
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(expr) = dice::parse(text) else { return };
    let printed = expr.to_string();
    // The printed form spells defaults out (`d` → `dl1`), so it may pass
    // the byte limit that the input kept under: then only that refusal.
    match dice::parse(&printed) {
        Ok(again) => assert_eq!(again, expr, "parse of print differs for {printed}"),
        Err(e) => assert!(
            printed.len() > tablewright::dice::limits::MAX_EXPR_BYTES,
            "printed notation {printed} does not parse: {e:?}"
        ),
    }
    let mut stream = Seed::new("fuzz").unwrap().stream("");
    let rolled = dice::roll(&expr, &mut stream);
    if let Expr::Roll(r) = &expr {
        // The roll lands inside the exact bounds.
        let (lo, hi) = tablewright::dice::bounds::roll_bounds(r);
        let v = rolled.value();
        assert!(lo <= v && v <= hi, "{printed}: rolled {v} outside {lo}..={hi}");
    }
    if size(&expr) <= 200_000
        && let Ok(odds) = dice::odds(&expr)
    {
        let total = match &odds.detail {
            OddsDetail::Roll(s) => Some(s.table.iter().map(|r| r.chance).sum::<f64>() + s.tail),
            OddsDetail::Contest(c) => Some(c.entrants.iter().map(|e| e.wins).sum()),
            _ => None,
        };
        if let Some(total) = total {
            assert!((total - 1.0).abs() < 1e-9, "{printed}: odds add up to {total}");
        }
    }
});
