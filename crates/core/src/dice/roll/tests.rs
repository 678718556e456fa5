//! Rolls checked face by face: scripted streams replay the Core Rules and
//! Engine examples, full enumeration of every face sequence matches the
//! exact odds, and the fast total draws exactly as the recorded roll.

use std::collections::BTreeMap;

use super::*;
use crate::dice::odds::{OddsDetail, odds};
use crate::dice::parse;

/// Replays the given faces, in order.
struct Script<'a>(std::iter::Copied<std::slice::Iter<'a, u32>>);

impl DieSource for Script<'_> {
    fn die(&mut self, sides: u32) -> u32 {
        let face = self.0.next().expect("the script ran out of faces");
        assert!((1..=sides).contains(&face), "{face} on a d{sides}");
        face
    }
}

fn scripted(text: &str, faces: &[u32]) -> Rolled {
    let mut script = Script(faces.iter().copied());
    let rolled = roll(&parse(text).unwrap(), &mut script);
    assert!(script.0.next().is_none(), "faces left over for {text}");
    rolled
}

#[test]
fn core_rules_exploding_example() {
    // Balthasar: 6, 6, 3 on a d6 → 13.
    let r = scripted("d6!", &[6, 6, 3]);
    assert_eq!(r.value(), 13);
    let Outcome::Roll(o) = &r.outcome else {
        panic!()
    };
    assert_eq!(o.attempts[0].terms[0].dice[0].rolls, vec![6, 6, 3]);
}

#[test]
fn core_rules_enhanced_and_impaired_examples() {
    // Sybilla: d6 enhanced (exploding), 4 and 6→3 → 8.
    assert_eq!(scripted("d6! enhanced", &[4, 6, 3]).value(), 8);
    // Balthasar: d8 impaired, 3 and 7 → 3.
    assert_eq!(scripted("d8 impaired", &[3, 7]).value(), 3);
    // Enhanced and impaired cancel; impaired twice is ineffective.
    assert_eq!(scripted("d8 enhanced impaired", &[5]).value(), 5);
    assert_eq!(scripted("d8 impaired impaired", &[]).value(), 0);
}

#[test]
fn engine_twist_example() {
    // [1, 4, 4, 5, 6] vs 3 fails; the four Edge dice reroll to
    // [1, 3, 5, 5]: Score 5, Edge 2, success.
    let r = scripted("5D vs 3 twist", &[1, 4, 4, 5, 6, 1, 3, 5, 5]);
    let Outcome::Pool(p) = &r.outcome else {
        panic!()
    };
    assert_eq!(p.first, Tally { score: 1, edge: 4 });
    let twist = p.twist.as_ref().unwrap();
    assert_eq!(twist.rerolled, vec![1, 3, 5, 5]);
    assert_eq!((p.score, p.edge), (5, 2));
    assert_eq!(p.success, Some(true));
    assert_eq!(p.quality, Some("Great"));
    // Without the twist it is a failure.
    let r = scripted("5D vs 3", &[1, 4, 4, 5, 6]);
    let Outcome::Pool(p) = &r.outcome else {
        panic!()
    };
    assert_eq!(p.success, Some(false));
}

#[test]
fn raises_go_straight_to_edge_and_can_be_twisted() {
    // 4D, raise 2: two thrown dice [1, 2] (Score 3), Edge 2 from raises.
    let r = scripted("4D vs 3 raise 2 twist", &[1, 2, 2, 5]);
    let Outcome::Pool(p) = &r.outcome else {
        panic!()
    };
    assert_eq!(p.raised, 2);
    assert_eq!(p.first, Tally { score: 3, edge: 2 });
    assert_eq!(p.twist.as_ref().unwrap().rerolled, vec![2, 5]);
    assert_eq!((p.score, p.edge, p.success), (5, 1, Some(true)));
}

#[test]
fn hazards_count_edge_and_add_the_bonus() {
    let r = scripted("3D+3", &[1, 5, 6]);
    let Outcome::Pool(p) = &r.outcome else {
        panic!()
    };
    assert_eq!((p.damage, p.hazard_ends), (Some(5), Some(false)));
    let r = scripted("3D+3", &[1, 2, 3]);
    let Outcome::Pool(p) = &r.outcome else {
        panic!()
    };
    assert_eq!((p.damage, p.hazard_ends), (Some(3), Some(true)));
    // A trap checks vs POISE: damage only on a success.
    let r = scripted("5D+7 vs 3", &[1, 1, 1, 4, 5]);
    let Outcome::Pool(p) = &r.outcome else {
        panic!()
    };
    assert_eq!((p.success, p.damage), (Some(false), None));
    let r = scripted("5D+7 vs 3", &[2, 2, 1, 4, 5]);
    let Outcome::Pool(p) = &r.outcome else {
        panic!()
    };
    assert_eq!((p.success, p.damage), (Some(true), Some(9)));
}

#[test]
fn core_rules_contest_example() {
    // Balthasar 10 rolls 8, Sybilla 10 rolls 19, Theobald 6 rolls 2.
    let r = scripted("contest Balthasar=10 Sybilla=10 Theobald=6", &[8, 19, 2]);
    let Outcome::Contest(c) = &r.outcome else {
        panic!()
    };
    assert_eq!(c.ranking, vec!["Theobald", "Balthasar", "Sybilla"]);
    // A tie is contested again among the tied only.
    let r = scripted("contest A=10 B=10 C=1", &[5, 5, 20, 9, 3]);
    let Outcome::Contest(c) = &r.outcome else {
        panic!()
    };
    assert_eq!(c.ranking, vec!["B", "A", "C"]);
    assert_eq!(c.entrants[0].rolls, vec![5, 9]);
    assert_eq!(c.entrants[2].rolls, vec![20]);
}

#[test]
fn penalties_floor_at_zero_and_halving_rounds_up() {
    assert_eq!(scripted("2d6-4", &[1, 2]).value(), 0);
    assert_eq!(scripted("2d6-4", &[6, 6]).value(), 8);
    assert_eq!(scripted("(2d6+1)/2", &[1, 1]).value(), 2);
    assert_eq!(scripted("d6*2", &[4]).value(), 8);
    assert_eq!(scripted("1:4", &[1]).value(), 1);
    assert_eq!(scripted("1:4", &[2]).value(), 0);
    assert_eq!(scripted("save 12", &[12]).value(), 1);
    assert_eq!(scripted("d20<=12", &[13]).value(), 0);
    assert_eq!(scripted("cp 18", &[3]).value(), 7);
    assert_eq!(scripted("d66", &[3, 5]).value(), 35);
    assert_eq!(scripted("4d6kh3", &[2, 6, 2, 5]).value(), 13);
    assert_eq!(scripted("4d6kl3", &[2, 6, 2, 5]).value(), 9);
}

/// Every face sequence a (non-exploding) expression can draw, with its
/// chance: a depth-first walk over the choices.
fn enumerate(expr: &Expr, mut visit: impl FnMut(&Rolled, f64)) {
    struct Walk {
        choices: Vec<(u32, u32)>,
        at: usize,
    }
    impl DieSource for Walk {
        fn die(&mut self, sides: u32) -> u32 {
            if self.at == self.choices.len() {
                self.choices.push((1, sides));
            }
            let face = self.choices[self.at].0;
            self.at += 1;
            face
        }
    }
    let mut walk = Walk {
        choices: Vec::new(),
        at: 0,
    };
    loop {
        walk.at = 0;
        let rolled = roll(expr, &mut walk);
        walk.choices.truncate(walk.at);
        let chance = walk
            .choices
            .iter()
            .map(|&(_, sides)| 1.0 / f64::from(sides))
            .product();
        visit(&rolled, chance);
        // Advance the odometer from the last choice.
        loop {
            match walk.choices.last_mut() {
                None => return,
                Some((face, sides)) if *face < *sides => {
                    *face += 1;
                    break;
                }
                Some(_) => {
                    walk.choices.pop();
                }
            }
        }
    }
}

#[test]
fn exact_odds_match_full_enumeration() {
    for text in [
        "2d6-4",
        "3d6",
        "4d6kh3",
        "3d4kl2",
        "(2d6+1)/2",
        "d6*3",
        "d8 impaired",
        "2d4 enhanced",
        "d6 enhanced impaired",
        "d4 impaired impaired",
        "d66",
        "d6+2d4-3",
        "-d6+4",
        "d10-d4",
        "cp 4 & 5",
        "cp 4+5",
        "2D+1",
        "4D",
    ] {
        let expr = parse(text).unwrap();
        let mut counted: BTreeMap<i64, f64> = BTreeMap::new();
        enumerate(&expr, |r, q| *counted.entry(r.value()).or_default() += q);
        let table = match odds(&expr).unwrap().detail {
            OddsDetail::Roll(s) => s.table,
            OddsDetail::Hazard(h) => h.damage.table,
            OddsDetail::Cp(c) => c.value.table,
            other => panic!("{other:?}"),
        };
        let exact: BTreeMap<i64, f64> = table
            .iter()
            .filter(|r| r.chance > 0.0)
            .map(|r| (r.value, r.chance))
            .collect();
        assert_eq!(
            counted.keys().collect::<Vec<_>>(),
            exact.keys().collect::<Vec<_>>(),
            "{text}"
        );
        for (v, q) in &counted {
            assert!(
                (q - exact[v]).abs() < 1e-12,
                "{text}: P({v}) {q} ≠ {}",
                exact[v]
            );
        }
    }
}

#[test]
fn check_odds_match_full_enumeration() {
    for text in [
        "3D vs 2",
        "4D vs 3 twist",
        "4D-1D vs 1 raise 1 twist",
        "2D+1D vs 4 team 5",
        "3D+2 vs 3 raise 1",
    ] {
        let expr = parse(text).unwrap();
        let mut by_edge: BTreeMap<u32, f64> = BTreeMap::new();
        enumerate(&expr, |r, q| {
            let Outcome::Pool(p) = &r.outcome else {
                panic!()
            };
            if p.success == Some(true) {
                *by_edge.entry(p.edge).or_default() += q;
            }
        });
        let OddsDetail::Check(c) = odds(&expr).unwrap().detail else {
            panic!()
        };
        for row in &c.by_edge {
            let counted = by_edge.get(&row.edge).copied().unwrap_or(0.0);
            assert!(
                (row.chance - counted).abs() < 1e-12,
                "{text} Edge {}",
                row.edge
            );
        }
        let total: f64 = by_edge.values().sum();
        assert!((c.success - total).abs() < 1e-12, "{text}");
    }
}

#[test]
fn fast_total_matches_the_recorded_roll() {
    use crate::seed::Seed;
    let seed = Seed::new("fast-path").unwrap();
    for text in [
        "3d6",
        "4d6kh3",
        "d6! enhanced",
        "2d10!kl1-3",
        "(d66+d%)/3",
        "d8 impaired",
        // Every modifier of the common notation, through the allocation-free path.
        "5d10>=8",
        "5d10cs>=8f<3",
        "3d6!!",
        "d10!>=9",
        "2d6!p",
        "2d6ro<3",
        "4d6r<3",
        "4d6dl1",
        "4d6dh1",
        "5d8kl2",
        "4d6min2max5",
        "3d6!kh2",
        "4dF+1",
        "2*1d8+3",
        "4d6sa",
        "2d6[fire]+1d4[cold]",
        "d100<=45",
        "{3d6,2d8}kh1",
        "6d6!!kh3>=9f2",
        "d4r1!",
        "3d6-2d4+1",
    ] {
        let Expr::Roll(r) = parse(text).unwrap() else {
            panic!()
        };
        for i in 0..200 {
            let path = format!("{text}/{i}");
            let fast = r.total(&mut seed.stream(&path));
            let full = roll(&Expr::Roll(r.clone()), &mut seed.stream(&path));
            assert_eq!(fast as i64, full.value(), "{text} #{i}");
        }
    }
}
