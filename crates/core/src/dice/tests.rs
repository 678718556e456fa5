//! Property and statistical tests for the whole dice engine: the parser
//! round-trips its own printing, never panics, exact distributions sum to
//! one, and rolls on seeded streams land where the exact odds say (chi-square
//! with fixed seeds and a critical value derived from the degrees of
//! freedom).

use std::collections::BTreeMap;

use proptest::prelude::*;

use super::ast::*;
use super::dist::Dist;
use super::odds::{OddsDetail, odds, roll_dist};
use super::{parse, roll};
use crate::seed::Seed;

fn compare_strategy(lo: i64, hi: i64) -> impl Strategy<Value = Compare> {
    (0u8..5, lo..=hi).prop_map(|(op, n)| match op {
        0 => Compare::Eq(n),
        1 => Compare::Gt(n),
        2 => Compare::Ge(n),
        3 => Compare::Lt(n),
        _ => Compare::Le(n),
    })
}

/// Dice with any modifiers the parser accepts: rerolls leave a face, an
/// explosion never triggers on every throw, keeps and drops fit the count.
fn dice_strategy() -> impl Strategy<Value = Dice> {
    (
        (1u32..6, 0u32..22, 0u8..6, 0u8..4, 0u8..4),
        (0u8..5, 0u8..4, any::<bool>(), 0u8..3, 1u32..4, 0u8..3),
        (
            compare_strategy(-1, 12),
            prop::option::of(compare_strategy(-1, 3)),
            "[a-z]{1,6}",
        ),
    )
        .prop_map(
            |(
                (count, sides, reroll, clamp, explode),
                (keep, tally, fail, sort, times, label),
                (cmp, failure, text),
            )| {
                let faces = if sides == 0 {
                    Faces::Fudge
                } else if sides == 21 {
                    Faces::Sides(100)
                } else {
                    Faces::Sides(sides + 2)
                };
                let (lo, hi) = (faces.lowest(), faces.highest());
                let mut mods = Mods::none();
                mods.reroll = match reroll {
                    1 => Some(Reroll {
                        once: true,
                        when: Compare::Eq(lo),
                    }),
                    2 => Some(Reroll {
                        once: false,
                        when: Compare::Le(lo),
                    }),
                    3 => Some(Reroll {
                        once: true,
                        when: Compare::Ge(hi),
                    }),
                    _ => None,
                };
                match clamp {
                    1 => mods.min = Some(lo + 1),
                    2 => mods.max = Some(hi - 1),
                    _ => {}
                }
                // With `max` the top face is hi − 1, and a Fudge die's lowest
                // face may be clamped up to 0: explode only on the top.
                mods.explode = match explode {
                    1 => Some(Explode {
                        style: ExplodeStyle::Core,
                        on: None,
                    }),
                    2 => Some(Explode {
                        style: ExplodeStyle::Full,
                        on: None,
                    }),
                    3 if faces != Faces::Fudge
                        && mods.max.is_none()
                        && mods.min.is_none()
                        && mods.reroll.is_none() =>
                    {
                        Some(Explode {
                            style: ExplodeStyle::Full,
                            on: Some(Compare::Ge(hi - 1)),
                        })
                    }
                    _ => None,
                };
                // Clamps can leave one value to throw, which would always explode.
                if mods.min.is_some() || mods.max.is_some() {
                    mods.explode = None;
                }
                mods.keep = match keep {
                    1 => Some(Keep::Highest(1 + count / 2)),
                    2 => Some(Keep::Lowest(1)),
                    3 if count > 1 => Some(Keep::DropLowest(1)),
                    4 if count > 1 => Some(Keep::DropHighest(count - 1)),
                    _ => None,
                };
                mods.tally = (tally == 1 || (tally == 2 && fail)).then_some(Tally {
                    success: cmp,
                    failure: if tally == 2 { failure } else { None },
                });
                mods.sort = match sort {
                    1 => Some(Sort::Ascending),
                    2 => Some(Sort::Descending),
                    _ => None,
                };
                mods.times = if times == 3 { 2 } else { 1 };
                mods.label = (label == 1).then_some(text);
                Dice { count, faces, mods }
            },
        )
}

fn plain_term_strategy() -> impl Strategy<Value = TermKind> {
    prop_oneof![
        (0u64..50).prop_map(TermKind::Const),
        Just(TermKind::D66),
        dice_strategy().prop_map(TermKind::Dice),
    ]
}

/// Groups of one to three items (alike or not), kept, dropped and counted
/// in every combination.
fn group_strategy() -> impl Strategy<Value = TermKind> {
    (
        prop::collection::vec(
            prop::collection::vec((any::<bool>(), plain_term_strategy()), 1..3),
            1..4,
        ),
        any::<bool>(),
        0u8..4,
        prop::option::of(compare_strategy(0, 20)),
    )
        .prop_map(|(items, alike, keep, tally)| {
            let mut items: Vec<Vec<Term>> = items
                .into_iter()
                .map(|terms| {
                    terms
                        .into_iter()
                        .map(|(negative, kind)| Term { negative, kind })
                        .collect()
                })
                .collect();
            if alike {
                let first = items[0].clone();
                for i in items.iter_mut() {
                    *i = first.clone();
                }
            }
            let n = items.len() as u32;
            let mut mods = Mods::none();
            mods.keep = match keep {
                1 => Some(Keep::Highest(1)),
                2 => Some(Keep::Lowest(1)),
                3 if n > 1 => Some(Keep::DropLowest(1)),
                _ => None,
            };
            mods.tally = tally.map(|success| Tally {
                success,
                failure: None,
            });
            TermKind::Group(Group { items, mods })
        })
}

fn term_strategy() -> impl Strategy<Value = TermKind> {
    prop_oneof![4 => plain_term_strategy(), 1 => group_strategy()]
}

fn roll_strategy() -> impl Strategy<Value = Roll> {
    (
        prop::collection::vec((any::<bool>(), term_strategy()), 1..4),
        0u32..3,
        1u32..5,
        0u32..3,
        0u32..3,
    )
        .prop_map(|(terms, scale, n, enhanced, impaired)| Roll {
            terms: terms
                .into_iter()
                .map(|(negative, kind)| Term { negative, kind })
                .collect(),
            scale: match scale {
                0 => Scale::None,
                1 => Scale::Divide(n),
                _ => Scale::Multiply(n),
            },
            enhanced,
            impaired,
        })
}

fn pool_strategy() -> impl Strategy<Value = Pool> {
    (
        0u32..20,
        -5i32..6,
        0u32..10,
        prop::option::of(0u32..40),
        0u32..4,
        any::<bool>(),
        prop::collection::vec(0u32..20, 0..3),
    )
        .prop_map(|(dice, extra, bonus, difficulty, raises, twist, team)| {
            let mut pool = Pool {
                dice,
                extra,
                bonus,
                difficulty,
                raises: 0,
                twist: twist && difficulty.is_some(),
                team,
            };
            pool.raises = raises.min(pool.effective_dice());
            pool
        })
}

fn expr_strategy() -> impl Strategy<Value = Expr> {
    prop_oneof![
        roll_strategy().prop_map(Expr::Roll),
        pool_strategy().prop_map(Expr::Pool),
        (0u32..30).prop_map(|target| Expr::Save(Save { target })),
        (1u32..100, 0u32..100).prop_map(|(out_of, c)| Expr::Chance(Chance {
            chances: c.min(out_of),
            out_of
        })),
        prop::collection::vec((prop::option::of("[A-Z][a-z]{0,6}"), 1u32..20), 2..5).prop_map(
            |entrants| Expr::Contest(Contest {
                entrants: entrants
                    .into_iter()
                    .map(|(name, ability)| Entrant { name, ability })
                    .collect()
            })
        ),
        prop::collection::vec(prop::collection::vec(1u32..40, 1..3), 1..3)
            .prop_map(|sources| Expr::Cp(Cp { sources })),
    ]
}

/// The exact-odds answer for a generated roll, or `None` when the up-front
/// price refuses it: a few generated groups go past the work limit, and a
/// priced refusal is the designed answer there. A refusal for any other
/// reason fails the test.
fn dist_or_priced_refusal(roll: &Roll) -> Result<Option<Dist>, TestCaseError> {
    match roll_dist(roll) {
        Ok(d) => Ok(Some(d)),
        Err(e) if !e.unsupported => Ok(None),
        Err(e) => Err(TestCaseError::fail(format!("{roll}: {e:?}"))),
    }
}

proptest! {
    // A fixed seed: the same cases on every run and every machine, so a
    // pass or a failure is repeatable (PROPTEST_RNG_SEED does not apply).
    #![proptest_config(ProptestConfig {
        cases: 2000,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x7461_626c_6577),
        ..ProptestConfig::default()
    })]

    #[test]
    fn parse_of_print_is_identity(expr in expr_strategy()) {
        let text = expr.to_string();
        let back = parse(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(back, expr, "{}", text);
    }

    #[test]
    fn parser_never_panics(text in "[0-9dDFkhlrosfxcpmina!+\\-*/():<=>% ,&{}\\[\\]]{0,24}") {
        let _ = parse(&text);
    }

    #[test]
    fn parser_never_panics_on_any_unicode(text in "\\PC{0,40}") {
        let _ = parse(&text);
    }

    #[test]
    fn exact_distributions_sum_to_one(roll in roll_strategy()) {
        let Some(d) = dist_or_priced_refusal(&roll)? else { return Ok(()) };
        prop_assert!((d.mass() + d.tail - 1.0).abs() < 1e-9, "{}: {} + {}", roll, d.mass(), d.tail);
        prop_assert!(d.p.iter().all(|&q| (0.0..=1.0 + 1e-12).contains(&q)));
    }

    #[test]
    fn check_odds_sum_to_one(pool in pool_strategy()) {
        let expr = Expr::Pool(pool);
        match odds(&expr).unwrap().detail {
            OddsDetail::Check(c) => {
                let listed: f64 = c.by_edge.iter().map(|r| r.chance).sum();
                prop_assert!((listed - c.success).abs() < 1e-9);
                prop_assert!((0.0..=1.0 + 1e-9).contains(&c.success), "{}", expr);
            }
            OddsDetail::Hazard(h) => {
                let listed: f64 = h.damage.table.iter().map(|r| r.chance).sum();
                prop_assert!((listed - 1.0).abs() < 1e-9, "{}", expr);
            }
            other => prop_assert!(false, "{other:?}"),
        }
    }

    #[test]
    fn rolls_stay_inside_the_exact_support(roll in roll_strategy(), i in 0u32..1000) {
        let Some(d) = dist_or_priced_refusal(&roll)? else { return Ok(()) };
        let (lo, hi) = d.range();
        let seed = Seed::new("support").unwrap();
        let v = roll.total(&mut seed.stream(&i.to_string()));
        // Exploding dice may pass the listed maximum, but only in the tail.
        prop_assert!(v >= lo, "{}: {} < {}", roll, v, lo);
        prop_assert!(v <= hi || d.tail > 0.0, "{}: {} > {}", roll, v, hi);
        if d.tail == 0.0 {
            prop_assert!(d.chance(v) > 0.0, "{}: rolled {} with chance 0", roll, v);
        }
    }
}

/// Chi-square critical value for `df` degrees of freedom at p ≈ 1e-6
/// (Wilson–Hilferty, z = 4.753). With fixed seeds the tests are
/// deterministic; the threshold only says how surprising a pass must not be.
fn chi2_critical(df: usize) -> f64 {
    let df = df as f64;
    let z = 4.753;
    df * (1.0 - 2.0 / (9.0 * df) + z * (2.0 / (9.0 * df)).sqrt()).powi(3)
}

/// Compare observed counts with exact chances; bins expected below 5 are
/// merged into their neighbour.
fn chi_square(observed: &BTreeMap<i64, u64>, exact: &BTreeMap<i64, f64>, n: u64) -> (f64, usize) {
    let keys: Vec<i64> = exact
        .keys()
        .chain(observed.keys())
        .copied()
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let mut bins: Vec<(f64, f64)> = Vec::new();
    let (mut e_acc, mut o_acc) = (0.0, 0.0);
    for k in keys {
        e_acc += exact.get(&k).copied().unwrap_or(0.0) * n as f64;
        o_acc += observed.get(&k).copied().unwrap_or(0) as f64;
        if e_acc >= 5.0 {
            bins.push((e_acc, o_acc));
            e_acc = 0.0;
            o_acc = 0.0;
        }
    }
    if let Some(last) = bins.last_mut() {
        last.0 += e_acc;
        last.1 += o_acc;
    }
    let chi: f64 = bins.iter().map(|(e, o)| (o - e).powi(2) / e).sum();
    (chi, bins.len().saturating_sub(1))
}

fn sample_vs_exact(
    text: &str,
    n: u64,
    exact: BTreeMap<i64, f64>,
    value: impl Fn(&super::Rolled) -> i64,
) {
    let expr = parse(text).unwrap();
    let seed = Seed::new("statistics").unwrap();
    let mut stream = seed.stream(text);
    let mut observed: BTreeMap<i64, u64> = BTreeMap::new();
    for _ in 0..n {
        *observed
            .entry(value(&roll(&expr, &mut stream)))
            .or_default() += 1;
    }
    let (chi, df) = chi_square(&observed, &exact, n);
    assert!(df >= 1, "{text}: too few bins");
    let critical = chi2_critical(df);
    assert!(
        chi < critical,
        "{text}: chi-square {chi:.1} ≥ {critical:.1} with {df} df"
    );
}

fn exact_of(text: &str) -> BTreeMap<i64, f64> {
    let table = match odds(&parse(text).unwrap()).unwrap().detail {
        OddsDetail::Roll(s) => s.table,
        OddsDetail::Hazard(h) => h.damage.table,
        OddsDetail::Cp(c) => c.value.table,
        other => panic!("{other:?}"),
    };
    table.into_iter().map(|r| (r.value, r.chance)).collect()
}

#[test]
fn sampled_rolls_match_exact_distributions() {
    for text in [
        "3d6",
        "2d6-4",
        "4d6kh3",
        "d6!",
        "3d4!",
        "d6! enhanced",
        "d8 impaired",
        "d66",
        "(3d6)/2",
        "2d20kl1",
        "3D+3",
        "6D",
        "cp 4 & 5",
        "d100",
    ] {
        sample_vs_exact(text, 60_000, exact_of(text), |r| r.value());
    }
}

#[test]
fn sampled_checks_match_exact_odds() {
    for text in [
        "5D vs 3",
        "5D vs 3 twist",
        "6D vs 6 raise 1 twist",
        "3D+1D vs 2 team 5",
    ] {
        let OddsDetail::Check(c) = odds(&parse(text).unwrap()).unwrap().detail else {
            panic!()
        };
        // Outcome −1 is a failure, otherwise the Edge of the success.
        let mut exact: BTreeMap<i64, f64> = c
            .by_edge
            .iter()
            .map(|r| (i64::from(r.edge), r.chance))
            .collect();
        exact.insert(-1, 1.0 - c.success);
        sample_vs_exact(text, 60_000, exact, |r| {
            let super::roll::Outcome::Pool(p) = &r.outcome else {
                panic!()
            };
            if p.success == Some(true) {
                i64::from(p.edge)
            } else {
                -1
            }
        });
    }
}

#[test]
fn sampled_contests_match_exact_odds() {
    let text = "contest 10 10 6 14";
    let OddsDetail::Contest(c) = odds(&parse(text).unwrap()).unwrap().detail else {
        panic!()
    };
    let exact: BTreeMap<i64, f64> = c
        .entrants
        .iter()
        .enumerate()
        .map(|(i, e)| (i as i64 + 1, e.wins))
        .collect();
    sample_vs_exact(text, 60_000, exact, super::Rolled::value);
}

#[test]
fn sampled_saves_and_chances() {
    for text in ["save 12", "1:4", "3:8"] {
        let (chance, _) = match odds(&parse(text).unwrap()).unwrap().detail {
            OddsDetail::Save(b) | OddsDetail::Chance(b) => (b.chance, b.of),
            other => panic!("{other:?}"),
        };
        let exact = BTreeMap::from([(0, 1.0 - chance), (1, chance)]);
        sample_vs_exact(text, 60_000, exact, super::Rolled::value);
    }
}

#[test]
fn the_chi_square_test_can_fail() {
    // A loaded die against the fair distribution must be rejected.
    let n = 60_000u64;
    let exact: BTreeMap<i64, f64> = (1..=6).map(|v| (v, 1.0 / 6.0)).collect();
    let mut loaded: BTreeMap<i64, u64> = (1..=6).map(|v| (v, n / 6)).collect();
    *loaded.get_mut(&6).unwrap() += 600;
    *loaded.get_mut(&1).unwrap() -= 600;
    let (chi, df) = chi_square(&loaded, &exact, n);
    assert!(chi > chi2_critical(df), "{chi} with {df} df");
}
