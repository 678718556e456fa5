//! Every notation in the README's table, and the peers' own examples of
//! the modifiers, against an independent enumeration: the roller is run
//! over every sequence of die faces (a depth-first walk over the draws,
//! each path weighted by its chance; explosion chains are cut below a
//! chance of 1e-7 and the cut mass is allowed for), and the exact odds
//! must give the same chance for every value.

use std::collections::BTreeMap;

use super::ast::Expr;
use super::odds::{OddsDetail, odds};
use super::{parse, roll};
use crate::seed::DieSource;

/// Paths less likely than this are not walked (their mass is counted).
const CUT: f64 = 1e-7;
/// The most paths one expression may take; bigger ones are left out.
const MAX_PATHS: usize = 400_000;

/// Replays `prefix`, then draws the lowest face, recording every draw.
struct Replay<'a> {
    prefix: &'a [u32],
    draws: Vec<(u32, u32)>,
}

impl DieSource for Replay<'_> {
    fn die(&mut self, sides: u32) -> u32 {
        let i = self.draws.len();
        let v = self.prefix.get(i).copied().unwrap_or(1).min(sides);
        self.draws.push((v, sides));
        v
    }
}

/// The distribution of the roller's value over every path of draws, and
/// the mass of the paths left unwalked; `None` past [`MAX_PATHS`].
fn enumerate(expr: &Expr) -> Option<(BTreeMap<i64, f64>, f64)> {
    let mut pmf = BTreeMap::new();
    let mut cut = 0.0;
    let mut prefix: Vec<u32> = Vec::new();
    for _ in 0..MAX_PATHS {
        let mut source = Replay {
            prefix: &prefix,
            draws: Vec::new(),
        };
        let value = roll(expr, &mut source).value();
        let draws = source.draws;
        let chance: f64 = draws.iter().map(|&(_, n)| 1.0 / f64::from(n)).product();
        *pmf.entry(value).or_insert(0.0) += chance;
        // Next path: the last draw that can go up, if its prefix is likely
        // enough; the faces skipped are cut.
        let mut next = None;
        for j in (0..draws.len()).rev() {
            let (v, n) = draws[j];
            if v == n {
                continue;
            }
            let upto: f64 = draws[..j]
                .iter()
                .map(|&(_, n)| 1.0 / f64::from(n))
                .product();
            if upto / f64::from(n) < CUT {
                cut += upto * f64::from(n - v) / f64::from(n);
                continue;
            }
            next = Some(j);
            break;
        }
        let Some(j) = next else {
            return Some((pmf, cut));
        };
        prefix = draws[..=j].iter().map(|&(v, _)| v).collect();
        prefix[j] += 1;
    }
    None
}

/// The exact odds of a Roll as value → chance, and the cut tail.
fn exact(expr: &Expr) -> (BTreeMap<i64, f64>, f64) {
    match odds(expr).unwrap_or_else(|e| panic!("{expr}: {e}")).detail {
        OddsDetail::Roll(s) => (
            s.table.iter().map(|r| (r.value, r.chance)).collect(),
            s.tail,
        ),
        other => panic!("{expr}: {other:?}"),
    }
}

/// Compare the two; returns how many values were compared.
fn agree(text: &str) -> usize {
    let expr = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    if !matches!(expr, Expr::Roll(_)) {
        return 0;
    }
    let Some((walked, cut)) = enumerate(&expr) else {
        panic!("{text}: too many paths to enumerate; pick a smaller example");
    };
    let (table, tail) = exact(&expr);
    let total: f64 = walked.values().sum::<f64>() + cut;
    assert!(
        (total - 1.0).abs() < 1e-9,
        "{text}: enumeration adds up to {total}"
    );
    let slack = cut + tail + 1e-9;
    for (v, &p) in &walked {
        let q = table.get(v).copied().unwrap_or(0.0);
        assert!(
            (p - q).abs() <= slack,
            "{text}: P({v}) enumerated {p}, exact {q}"
        );
    }
    for (v, &q) in &table {
        let p = walked.get(v).copied().unwrap_or(0.0);
        assert!(
            (p - q).abs() <= slack,
            "{text}: P({v}) exact {q}, enumerated {p}"
        );
    }
    walked.len()
}

/// The backquoted examples in the first column of the guide's notation
/// table (docs/src/dice.md, before its "Exact odds" section).
fn readme_examples() -> Vec<String> {
    let guide = include_str!("../../../../docs/src/dice.md");
    let start = guide.find("# Dice notation").expect("the notation chapter");
    let section = &guide[start..];
    let end = section.find("\n## Exact odds").unwrap_or(section.len());
    let mut out = Vec::new();
    for line in section[..end].lines().filter(|l| l.starts_with("| `")) {
        let first = line.split(" | ").next().unwrap_or("");
        out.extend(first.split('`').skip(1).step_by(2).map(str::to_owned));
    }
    out
}

#[test]
fn every_readme_notation_matches_an_enumeration() {
    let examples = readme_examples();
    assert!(examples.len() > 60, "{examples:?}");
    let mut compared = 0;
    for text in &examples {
        compared += agree(text);
    }
    assert!(compared > 500, "{compared}");
}

/// The peers' documented examples of the modifiers (made small enough to
/// enumerate: fewer dice, never a different modifier).
#[test]
fn the_peers_examples_match_an_enumeration() {
    for text in [
        // Roll20's dice reference.
        "3d6>3",
        "3d6>3f1",
        "2d10r1",
        "2d10ro<2",
        "3d6!",
        "d6!>4",
        "3d6!!",
        "3d6!p",
        "d6!p>5",
        "6d6k4",
        "6d6d3",
        "3d6sd",
        "{3d6!!}>8",
        "{2d6+2d8}>12",
        "{2d20}kh1",
        "3dF",
        // Foundry VTT's dice modifiers.
        "4d20kh2",
        "2d20kh",
        "2d20kl",
        "4d20dl",
        "4d20dh",
        "2d6r",
        "2d6r1",
        "d6rr<3",
        "2d6x",
        "d6x>=5",
        "5d10cs>=8",
        "5d10cs>=8df1",
        "5d10cs>=8df<=1",
        "3d6min2",
        "3d6max5",
        // rpg-dice-roller's notation.
        "2d6!",
        "2d6!!",
        "2d6!p",
        "d10!>=8",
        "4d10>=8",
        "4d10>=8f<3",
        "4dF",
        "4d6dl1",
        "4d6min3",
        "4d6max3",
        "2d6ro<3",
        "4d6sa",
        "2d6[fire]+1d4[cold]",
        "2*1d8+3",
    ] {
        agree(text);
    }
}

/// Groups whose items differ, several of them kept or dropped (and then
/// counted), against the enumeration.
#[test]
fn unlike_groups_keeping_several_match_an_enumeration() {
    for text in [
        "{d8,2d4,d6}kh2",
        "{d8,2d4,d6}kl2",
        "{d6,d8,d4}dl1>=4",
        "{d6,d8,d4}dh1",
        "{2d4,d6!!,d3,d2}kh3",
        "{d10,d4,d6}kh2>=4f1",
        "{d6,d8-2,d4+1}dl1",
    ] {
        agree(text);
    }
}

/// The enumeration can tell a wrong distribution from a right one.
#[test]
fn the_enumeration_sees_a_difference() {
    let a = enumerate(&parse("2d6!").unwrap()).unwrap().0;
    let b = enumerate(&parse("2d6!!").unwrap()).unwrap().0;
    // A 6 then a 1 counts 6 under the Core Rules, 7 in the common reading.
    assert!(a.get(&7).copied().unwrap_or(0.0) > b.get(&7).copied().unwrap_or(0.0));
    let (walked, _) = enumerate(&parse("4d6kh3").unwrap()).unwrap();
    assert!((walked[&18] - 21.0 / 1296.0).abs() < 1e-12);
}
