//! Fuzz the notation: parse, print and parse again (same tree), roll, and
//! — for expressions small enough to take microseconds — compute exact odds
//! and check they add up to one. No input may panic, overflow or hang.
//!
//! Large expressions are left to the exact-odds work limit
//! (`dice::limits::MAX_WORK`), which unit tests pin; computing their odds
//! here would spend the fuzzer's time on a handful of slow inputs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tablewright::dice::odds::OddsDetail;
use tablewright::dice::ast::{Keep, TermKind};
use tablewright::dice::{self, Expr};
use tablewright::seed::Seed;

/// Faces one exact computation has to walk, roughly.
fn size(expr: &Expr) -> u64 {
    match expr {
        Expr::Roll(r) => r
            .terms
            .iter()
            .map(|t| match t.kind {
                TermKind::Dice {
                    count,
                    sides,
                    explode,
                    keep,
                } => {
                    let kept = match keep {
                        Some(Keep::Highest(k) | Keep::Lowest(k)) => {
                            u64::from(k).saturating_mul(u64::from(sides))
                        }
                        None => 1,
                    };
                    let exploded = if explode { 64 } else { 1 };
                    u64::from(count)
                        .saturating_mul(u64::from(sides))
                        .saturating_mul(kept)
                        .saturating_mul(exploded)
                }
                TermKind::D66 => 36,
                TermKind::Const(_) => 0,
            })
            .fold(0, u64::saturating_add),
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
    let again = dice::parse(&printed).expect("printed notation parses");
    assert_eq!(again, expr, "parse of print differs for {printed}");
    let mut stream = Seed::new("fuzz").unwrap().stream("");
    let _ = dice::roll(&expr, &mut stream);
    if size(&expr) <= 20_000
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
