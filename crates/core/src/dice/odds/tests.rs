//! Exact odds against brute force: every face combination of small pools
//! (with Twists and raises), the Engine's published chances, contests and
//! the CP table.

use super::*;
use crate::dice::parse;

fn check(text: &str) -> CheckOdds {
    match odds(&parse(text).unwrap()).unwrap().detail {
        OddsDetail::Check(c) => c,
        other => panic!("{other:?}"),
    }
}

/// Brute force: every face combination of `n` dice.
fn enumerate(n: u32, mut f: impl FnMut(&[u32])) {
    let mut faces = vec![1u32; n as usize];
    loop {
        f(&faces);
        let mut i = 0;
        loop {
            if i == faces.len() {
                return;
            }
            faces[i] += 1;
            if faces[i] <= 6 {
                break;
            }
            faces[i] = 1;
            i += 1;
        }
    }
}

#[test]
fn five_dice_vs_three_is_0_6968() {
    let c = check("5D vs 3");
    assert!((c.success - 0.6968).abs() < 5e-5, "{}", c.success);
}

#[test]
fn success_table_matches_enumeration() {
    let table = success_table(6, 20);
    for n in 1..=6u32 {
        let mut wins = [0u32; 21];
        enumerate(n, |faces| {
            let t = mettle::tally(faces);
            for (d, w) in wins.iter_mut().enumerate() {
                if t.score > d as u32 {
                    *w += 1;
                }
            }
        });
        let all = 6f64.powi(n as i32);
        for d in 0..=20 {
            let exact = f64::from(wins[d]) / all;
            assert!(
                (table[n as usize - 1][d] - exact).abs() < 1e-12,
                "{n}D vs {d}: {} ≠ {exact}",
                table[n as usize - 1][d]
            );
            let c = check(&format!("{n}D vs {d}"));
            assert!((c.success - exact).abs() < 1e-12);
        }
    }
}

#[test]
fn twist_and_raise_match_enumeration() {
    // Enumerate the first throw and the reroll together.
    for (n, raise, d) in [
        (4u32, 0u32, 3u32),
        (5, 0, 3),
        (4, 1, 2),
        (3, 2, 1),
        (5, 1, 6),
    ] {
        let thrown = n - raise;
        let mut success_by_edge = vec![0.0f64; n as usize + 1];
        enumerate(thrown, |faces| {
            let q = 1.0 / 6f64.powi(thrown as i32);
            let t = mettle::tally(faces);
            let (score, edge) = (t.score, t.edge + raise);
            if score > d {
                success_by_edge[edge as usize] += q;
            } else if edge > 0 {
                enumerate(edge, |re| {
                    let q2 = q / 6f64.powi(edge as i32);
                    let t2 = mettle::tally(re);
                    if score + t2.score > d {
                        success_by_edge[t2.edge as usize] += q2;
                    }
                });
            }
        });
        let c = check(&format!("{n}D vs {d} raise {raise} twist"));
        for (e, row) in c.by_edge.iter().enumerate() {
            // The enumeration adds up to 6^10 tiny terms: allow for its
            // rounding.
            assert!(
                (row.chance - success_by_edge[e]).abs() < 1e-10,
                "{n}D vs {d} raise {raise} twist, Edge {e}: {} vs {}",
                row.chance,
                success_by_edge[e]
            );
        }
    }
}

#[test]
fn hazards() {
    let o = odds(&parse("3D+3").unwrap()).unwrap();
    let OddsDetail::Hazard(h) = o.detail else {
        panic!()
    };
    assert_eq!((h.damage.min, h.damage.max), (3, 6));
    assert!((h.damage.table[0].chance - 0.125).abs() < 1e-12);
    assert!((h.ends - 0.125).abs() < 1e-12);
    assert!((h.expected_rounds - 8.0).abs() < 1e-9);
    let o = odds(&parse("5D").unwrap()).unwrap();
    let OddsDetail::Hazard(h) = o.detail else {
        panic!()
    };
    assert_eq!((h.damage.min, h.damage.max), (0, 5));
    let score = h.score.unwrap();
    assert_eq!((score.min, score.max), (0, 15));
    assert!((score.mean - 5.0).abs() < 1e-9);
}

#[test]
fn contest_wins_match_enumeration() {
    // Two contestants: a tie starts the same contest again, so
    // P(A first) = P(A beats B) / (1 − P(tie)).
    for (a, b) in [(15u32, 3u32), (10, 10), (9, 12), (1, 19)] {
        let (mut beats, mut tie) = (0.0, 0.0);
        for ra in 1..=20 {
            for rb in 1..=20 {
                let (ta, tb) = (i64::from(a) - ra, i64::from(b) - rb);
                if ta > tb {
                    beats += 1.0 / 400.0;
                } else if ta == tb {
                    tie += 1.0 / 400.0;
                }
            }
        }
        let OddsDetail::Contest(c) = odds(&parse(&format!("contest {a} {b}")).unwrap())
            .unwrap()
            .detail
        else {
            panic!()
        };
        assert!((c.entrants[0].wins - beats / (1.0 - tie)).abs() < 1e-12);
        assert!((c.entrants[0].wins + c.entrants[1].wins - 1.0).abs() < 1e-12);
    }
    let OddsDetail::Contest(c) = odds(&parse("contest 10 10 6").unwrap()).unwrap().detail else {
        panic!()
    };
    assert!((c.entrants[0].wins - c.entrants[1].wins).abs() < 1e-12);
    let total: f64 = c.entrants.iter().map(|e| e.wins).sum();
    assert!((total - 1.0).abs() < 1e-12);
}

#[test]
fn cp_odds_and_binary() {
    let OddsDetail::Cp(c) = odds(&parse("cp 18").unwrap()).unwrap().detail else {
        panic!()
    };
    assert_eq!(c.dice_value, DiceValue { dice: 1, bonus: 4 });
    assert_eq!((c.value.min, c.value.max), (5, 10));
    let OddsDetail::Save(s) = odds(&parse("save 12").unwrap()).unwrap().detail else {
        panic!()
    };
    assert!((s.chance - 0.6).abs() < 1e-12);
    let OddsDetail::Chance(s) = odds(&parse("1:4").unwrap()).unwrap().detail else {
        panic!()
    };
    assert!((s.chance - 0.25).abs() < 1e-12);
}

fn roll_summary(text: &str) -> Summary {
    match odds(&parse(text).unwrap()).unwrap().detail {
        OddsDetail::Roll(s) => s,
        other => panic!("{other:?}"),
    }
}

/// Issue 18: the range of a big pool came from its truncated tail (`40d6`
/// said max 229, `1000d6` min 1596). The bounds are now exact for every
/// pool size up to 1,000 dice, whatever the floats can hold.
#[test]
fn big_pools_report_their_true_range() {
    for n in [1u32, 2, 7, 20, 39, 40, 50, 63, 100, 250, 500, 999, 1000] {
        for sides in [2u32, 6, 10, 20] {
            if u64::from(n) * u64::from(sides) > 10_000 {
                continue;
            }
            let s = roll_summary(&format!("{n}d{sides}"));
            assert_eq!(
                (s.min, s.max),
                (i64::from(n), i64::from(n * sides)),
                "{n}d{sides}"
            );
        }
    }
    let s = roll_summary("1000d6");
    assert_eq!((s.min, s.max), (1000, 6000));
    let s = roll_summary("1000d6+1000d6-5");
    assert_eq!((s.min, s.max), (1995, 11995));
    // The floor at 0 and halving apply to the bounds too.
    assert_eq!(roll_summary("d4-10").max, 0);
    assert_eq!(roll_summary("(40d6-1)/2").max, 120);
    // An exploding die stops after 100 explosions: 100 × 5 + 6.
    assert_eq!(roll_summary("d6!").max, 506);
}

/// The far tails keep their relative precision: the top of `40d6` is
/// 6^-40 (it used to cancel to 0), and `40d6` is symmetric.
#[test]
fn far_tails_of_big_pools_are_precise() {
    let d = roll_dist(&match parse("40d6").unwrap() {
        Expr::Roll(r) => r,
        _ => unreachable!(),
    })
    .unwrap();
    let top = 6f64.powi(-40);
    for (v, want) in [(240, top), (40, top), (239, 40.0 * top), (41, 40.0 * top)] {
        let got = d.chance(v);
        assert!(
            ((got - want) / want).abs() < 1e-9,
            "P({v}) = {got:e}, want {want:e}"
        );
    }
    assert_eq!(d.range(), (40, 240));
}

fn roll_of(text: &str) -> Roll {
    match parse(text).unwrap() {
        Expr::Roll(r) => r,
        other => panic!("{other:?}"),
    }
}

/// Issue 18: exact odds are priced before any work. Within the limits a
/// sum of 99 single d2000s is cheap (each die slides a window over the sum
/// so far); past them the estimate refuses, and `odds` says so.
#[test]
fn the_cost_estimate_refuses_before_the_work() {
    let many = |die: &str| vec![die; 99].join("+");
    for text in [
        many("d1000"),
        many("d2000"),
        "99d2000".into(),
        "4d6!kh3".into(),
    ] {
        let r = roll_of(&text);
        assert!(terms::estimate(&r.terms).is_ok(), "{text}");
        assert!(odds(&Expr::Roll(r)).is_ok(), "{text}");
    }
    for text in [
        "d1000!>=2",
        "100d100kh50",
        "10000d1000000",
        "{d1000!>=2}kh1",
    ] {
        let r = roll_of(text);
        let refused = terms::estimate(&r.terms).unwrap_err();
        assert!(refused.to_string().contains("steps") || refused.to_string().contains("values"));
        assert!(odds(&Expr::Roll(r)).is_err(), "{text}");
    }
}

/// Found by fuzzing: a group's items are kept by value, so the kept item
/// may count less than the other (`{16,1}dl1<2` keeps 16, which counts 0).
#[test]
fn kept_group_items_count_by_value_not_by_count() {
    let r = roll_of("3*{16,1}dl1<2+81d5kh1<4");
    let (lo, hi) = crate::dice::bounds::roll_bounds(&r);
    assert_eq!((lo, hi), (0, 4));
    let r = roll_of("{16,1}dl1<2");
    assert_eq!(crate::dice::bounds::roll_bounds(&r), (0, 1));
    let rolled = crate::dice::roll(
        &Expr::Roll(r),
        &mut crate::seed::Seed::new("s").unwrap().stream(""),
    );
    assert_eq!(rolled.value(), 0);
}

/// Found by fuzzing (8.7M runs): a die of 872,200 faces clamped at 6 added
/// its 872,195 equal chances one by one, and 90 of them drifted to a total
/// of 1 − 1.2e-9. The chances of a throw are now counted, then multiplied.
#[test]
fn a_huge_clamped_die_keeps_its_mass() {
    for text in [
        "90d872200max6",
        "90d872200smax6",
        "40d1000000min999990r<3",
        "30d99999ro>5max7",
    ] {
        let expr = crate::dice::parse(text).unwrap();
        let OddsDetail::Roll(s) = odds(&expr).unwrap().detail else {
            panic!("{text}")
        };
        let total: f64 = s.table.iter().map(|r| r.chance).sum::<f64>() + s.tail;
        assert!((total - 1.0).abs() < 1e-12, "{text}: {total}");
    }
}
