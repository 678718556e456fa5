//! The Heal Check's rules in the ledger: the Twist a failure with Edge
//! calls, a stable PC left alone until hurt again, a result made at the
//! table taken as recorded, and the death rate against the exact odds.

use super::*;
use crate::campaign::ledger::heal;

/// A seed whose Heal Check for Brannoc (Cress's 4D vs 3) fails with Edge
/// and the Twist saves him.
const TWIST_SAVES: &str = "heal-0";

const BRANNOC_FALLS: &str =
    "session = 1\nday = 2\nstop = \"Gallows Ford\"\n[[pc]]\nname = \"Brannoc\"\ndamage = 9\n";

#[test]
fn a_failed_heal_with_edge_calls_the_twist_and_it_can_save_the_pc() {
    let ledger = fold(&mettle_start(TWIST_SAVES), &[played(1, BRANNOC_FALLS)]).unwrap();
    let said = said(&ledger, 1);
    assert!(
        said.contains(
            &"Brannoc: Heal Check by Cress: 4D vs 3, 55.32% to live (86.33% with a Twist) — \
              dice [6, 5, 6, 2], Score 2, Edge 3: failure with Edge, so a Twist (Lost a part: \
              Saving them costs something: a finger, an eye, a limb. Decide together what is \
              gone.) rerolls the Edge dice [6, 1, 1] → Score 4, Edge 1: success"
                .to_owned()
        ),
        "{said:#?}"
    );
    assert!(rules_of(&ledger, 1, "Brannoc").contains(&rule::HEAL_TWIST.to_owned()));
    // Alive, and Edge 1 after the Twist: −2 needs 3 days at 1 a day.
    assert!(ledger.now.pc("Brannoc").unwrap().is_present());
    assert!(
        said.contains(&"Brannoc: Mettle -2 → 1 after 3 days' rest (Edge 1: 1 a day)".into()),
        "{said:#?}"
    );
}

#[test]
fn the_odds_are_the_exact_odds_of_the_check_with_and_without_the_twist() {
    // 1D vs 3: a 4-6 is Edge and fails, a 1-3 scores at most 3: never.
    let one = heal::odds(1);
    assert_eq!((one.plain, one.with_twist), (0.0, 0.0));
    // 2D vs 3: pass on a Score of 4 or more from faces 1-3: (1,3), (3,1),
    // (2,2), (2,3), (3,2), (3,3) = 6 of 36.
    assert!((heal::odds(2).plain - 6.0 / 36.0).abs() < 1e-12);
    let four = heal::odds(4);
    assert!(four.with_twist > four.plain, "{four:?}");
    assert_eq!(heal::odds(0).with_twist, 0.0);
}

/// Session 1: Brannoc passes his Heal at the table with no Edge.
const STABLE: &str = "session = 1\nday = 2\nstop = \"Gallows Ford\"\n[[pc]]\nname = \"Brannoc\"\ndamage = 9\nheal_edge = 0\n";

#[test]
fn a_stable_pc_is_not_rolled_for_again_until_hurt_again() {
    let ledger = fold(
        &mettle_start(SEED),
        &[
            played(1, STABLE),
            played(2, "session = 2\nday = 3\n"),
            played(
                3,
                "session = 3\nday = 4\n[[pc]]\nname = \"Brannoc\"\ndamage = 1\n",
            ),
        ],
    )
    .unwrap();
    assert!(
        mettle_pc(
            &ledger.session(2).unwrap().before.clone().unwrap(),
            "Brannoc"
        )
        .stable
    );
    let two = said(&ledger, 2);
    assert!(
        two.contains(&"Brannoc: stable at -2 and not hurt again: no new Heal Check".into()),
        "{two:#?}"
    );
    assert!(!two.iter().any(|s| s.contains("Heal Check by")), "{two:#?}");
    // No healing, so no downtime and no vouchers.
    assert!(!two.iter().any(|s| s.contains("downtime")), "{two:#?}");
    // Hurt again in session 3: the Heal Check is due again.
    let three = said(&ledger, 3);
    assert!(
        three
            .iter()
            .any(|s| s.starts_with("Brannoc: Heal Check by Cress: 4D vs 3")),
        "{three:#?}"
    );
}

#[test]
fn a_heal_made_at_the_table_with_a_twist_is_taken_as_recorded() {
    let ledger = fold(
        &mettle_start(SEED),
        &[played(
            1,
            "session = 1\nday = 2\n[[pc]]\nname = \"Brannoc\"\ndamage = 9\nheal_edge = 1\nheal_twist = true\n",
        )],
    )
    .unwrap();
    let said = said(&ledger, 1);
    assert!(
        said.contains(
            &"Brannoc: Heal Check made at the table: success after a Twist, Edge 1".into()
        ),
        "{said:#?}"
    );
    assert!(
        !said.iter().any(|s| s.contains("Heal Check by")),
        "{said:#?}"
    );
}

#[test]
fn heal_twist_without_heal_edge_or_in_a_core_campaign_is_refused() {
    let problems = refused(
        &mettle_start(SEED),
        &[played(
            1,
            "session = 1\nday = 2\n[[pc]]\nname = \"Brannoc\"\ndamage = 9\nheal_twist = true\n",
        )],
    );
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0].contains("sessions/1/record.toml:6:14:")
            && problems[0].contains("heal_twist = true, but Brannoc has no `heal_edge`"),
        "{problems:#?}"
    );
    let problems = refused(
        &core_start(0),
        &[played(
            1,
            "session = 1\nday = 2\n[[pc]]\nname = \"Sybilla\"\nheal_twist = true\n",
        )],
    );
    assert!(
        problems
            .iter()
            .any(|p| p.contains("`heal_twist` is not a key of the Core Rules records")),
        "{problems:#?}"
    );
}

/// One PC alone (CULTURE 6, Mettle 2 + 6 = 8) who heals themselves: at
/// Mettle M ≤ 0 the pool is 6 + M dice (the negative Mettle a penalty).
fn alone(seed: &str) -> Start<'static> {
    Start {
        party: Party {
            mettle: vec![block("Solo", [2, 6, 2, 2, 2])],
            core: vec![],
            water_capacity: None,
        },
        ..mettle_start(seed)
    }
}

/// The chance that `pool` dice beat Difficulty 3, without and with the
/// Twist, worked out here from the METTLE Engine's words alone — the
/// Score adds the faces 1-3, the Edge counts the dice showing 4-6, the
/// Check succeeds when the Score beats the Difficulty, and a failure with
/// Edge rerolls the Edge dice and adds their Score — by exact sums over
/// the faces, not through the dice module the ledger rolls with.
fn heal_by_hand(pool: u32) -> (f64, f64) {
    // p[s][e]: the chance of Score s (4: more than 3) and Edge e.
    let table = |dice: u32| {
        let mut p = vec![vec![0.0; dice as usize + 1]; 5];
        p[0][0] = 1.0;
        for _ in 0..dice {
            let mut next = vec![vec![0.0; dice as usize + 1]; 5];
            for (s, row) in p.iter().enumerate() {
                for (e, &q) in row.iter().enumerate() {
                    if q == 0.0 {
                        // (Not reached yet: at most one Edge a die.)
                        continue;
                    }
                    for face in 1..=6 {
                        let (s2, e2) = if face <= 3 {
                            ((s + face).min(4), e)
                        } else {
                            (s, e + 1)
                        };
                        next[s2][e2] += q / 6.0;
                    }
                }
            }
            p = next;
        }
        p
    };
    let first = table(pool);
    let plain: f64 = first[4].iter().sum();
    let mut twist = plain;
    for (s, row) in first.iter().enumerate().take(4) {
        for (e, &q) in row.iter().enumerate().skip(1) {
            // The rerolled Edge dice must add at least 4 - s to the Score.
            let again = table(e as u32);
            let beats: f64 = again[4 - s..].iter().flatten().sum();
            twist += q * beats;
        }
    }
    (plain, twist)
}

#[test]
fn the_heal_odds_are_those_worked_out_by_hand() {
    for pool in 1..=8 {
        let (plain, twist) = heal_by_hand(pool);
        let o = heal::odds(pool);
        assert!((o.plain - plain).abs() < 1e-12, "{pool}D: {o:?} vs {plain}");
        assert!(
            (o.with_twist - twist).abs() < 1e-12,
            "{pool}D: {o:?} vs {twist}"
        );
    }
    // The figures the ledger prints for 4D.
    let (plain, twist) = heal_by_hand(4);
    assert_eq!(
        (format!("{plain:.4}"), format!("{twist:.4}")),
        ("0.5532".into(), "0.8633".into())
    );
}

#[test]
fn the_death_rate_at_each_mettle_below_zero_is_the_heal_checks_with_the_twist() {
    const LEDGERS: u32 = 10_000;
    let facts = PackFacts::default();
    // From 0 down to -6, where the pool of CULTURE 6 less the negative
    // Mettle runs out.
    for mettle in [0_i64, -1, -2, -3, -4, -5, -6] {
        let damage = 8 - mettle;
        let text = format!("session = 1\nday = 2\n[[pc]]\nname = \"Solo\"\ndamage = {damage}\n");
        let session = SessionInput {
            number: 1,
            pack: Some(facts.clone()),
            record: Some(record(1, &text)),
        };
        let mut deaths = 0u32;
        for i in 0..LEDGERS {
            let ledger = fold(
                &alone(&format!("death-rate-{i}")),
                std::slice::from_ref(&session),
            )
            .unwrap();
            if !ledger.now.pcs[0].is_present() {
                deaths += 1;
            }
        }
        let pool = u32::try_from(6 + mettle).unwrap();
        // The exact odds, worked out by hand (no dice: no chance).
        let p = if pool == 0 {
            1.0
        } else {
            1.0 - heal_by_hand(pool).1
        };
        let rate = f64::from(deaths) / f64::from(LEDGERS);
        // Five standard errors of a rate over 10,000 ledgers (at least
        // one death's worth, for odds near 0 or 1).
        let se = (p * (1.0 - p) / f64::from(LEDGERS)).sqrt();
        let tolerance = (5.0 * se).max(1.0 / f64::from(LEDGERS));
        assert!(
            (rate - p).abs() <= tolerance,
            "Mettle {mettle} ({pool}D): died {rate:.4}, the odds say {p:.4} ± {tolerance:.4}"
        );
        // The Twist matters: without it more would die.
        assert!(p < 1.0 - heal::odds(pool).plain || pool < 2, "{mettle}");
    }
}
