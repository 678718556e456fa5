//! Issue 51, finding 5: what the rules carry is kept — days without food
//! and water from one record to the next journey, Starving's lower
//! maximum Mettle, a Heal Twist's lasting price on the PC for good.

use super::*;
use crate::campaign::recap;

#[test]
fn days_without_food_and_water_carry_until_a_record_ends_them() {
    let one = "session = 1\nday = 3\n[[pc]]\nname = \"Ada\"\nhungry = 2\nthirsty = 1\n";
    let two = "session = 2\nday = 4\n";
    let three = "session = 3\nday = 5\n[[pc]]\nname = \"Ada\"\nhungry = 0\n";
    let ledger = fold(
        &mettle_start(SEED),
        &[played(1, one), played(2, two), played(3, three)],
    )
    .unwrap();
    let ada = |n: u32| mettle_pc(ledger.state_before(n).unwrap(), "Ada").clone();
    // Recorded at the end of session 1, carried through session 2.
    for n in [2, 3] {
        let m = ada(n);
        assert_eq!((m.hungry, m.thirsty), (2, 1), "before session {n}");
        assert_eq!(m.block.statuses, ["Hungry", "Thirsty"]);
    }
    assert_eq!(
        recap::now_line(ledger.state_before(2).unwrap().pc("Ada").unwrap(), false),
        "Mettle 7 of 7; Hungry (2 days without food), Thirsty (1 day without water)"
    );
    // Session 3's record: she ate; still thirsty.
    let m = &mettle_pc(&ledger.now, "Ada");
    assert_eq!((m.hungry, m.thirsty), (0, 1));
    assert_eq!(m.block.statuses, ["Thirsty"]);
    assert!(said(&ledger, 3).contains(&"Ada: Hungry ends: they ate".into()));
    // The status alone is a day; cured ends it.
    let ledger = fold(
        &mettle_start(SEED),
        &[
            played(
                1,
                "session = 1\nday = 2\n[[pc]]\nname = \"Ada\"\nstatuses = [\"Thirsty\"]\n",
            ),
            played(
                2,
                "session = 2\nday = 2\n[[pc]]\nname = \"Ada\"\ncured = [\"Thirsty\"]\n",
            ),
        ],
    )
    .unwrap();
    assert_eq!(mettle_pc(ledger.state_before(2).unwrap(), "Ada").thirsty, 1);
    assert_eq!(mettle_pc(&ledger.now, "Ada").thirsty, 0);
}

#[test]
fn starving_lowers_maximum_mettle_a_day_without_food_until_they_eat() {
    // Brannoc: Mettle 3 + 4 = 7. Starving, 3 days without food: 4.
    let one =
        "session = 1\nday = 4\n[[pc]]\nname = \"Brannoc\"\nstatuses = [\"Starving\"]\nhungry = 3\n";
    let two = "session = 2\nday = 5\n[[pc]]\nname = \"Brannoc\"\nhungry = 0\n";
    let ledger = fold(&mettle_start(SEED), &[played(1, one), played(2, two)]).unwrap();
    let m = mettle_pc(ledger.state_before(2).unwrap(), "Brannoc");
    assert_eq!((m.mettle, m.max_mettle), (4, 4));
    assert!(
        said(&ledger, 1).contains(&"Brannoc: maximum Mettle 7 → 4".into()),
        "{:#?}",
        said(&ledger, 1)
    );
    assert!(rules_of(&ledger, 1, "Brannoc").contains(&rule::STARVING.to_owned()));
    // Fed: Starving ends and the maximum comes back.
    let m = mettle_pc(&ledger.now, "Brannoc");
    assert_eq!((m.mettle, m.max_mettle), (7, 7));
    assert!(m.block.statuses.is_empty(), "{:?}", m.block.statuses);
    assert!(said(&ledger, 2).contains(&"Brannoc: Starving ends: restored by food".into()));
    // Starving to a maximum of 0 kills. Ada: best attribute 4, so 7 days
    // would be past it: Thirsty is not needed, hungry 7 > 4 is refused…
    let seven =
        "session = 1\nday = 8\n[[pc]]\nname = \"Ada\"\nstatuses = [\"Starving\"]\nhungry = 7\n";
    assert_eq!(
        refused(&mettle_start(SEED), &[played(1, seven)]),
        [
            "sessions/1/record.toml:6:10: Ada would have died of it: 7 days without food and 0 without water are +7 Difficulty, past their best CALLING (4D)"
        ]
    );
    // …but a CALLING of 8 lets her live to starve at a maximum of 0.
    let mut start = mettle_start(SEED);
    start.party.mettle[0].callings = vec![crate::rules::mettle::Calling {
        name: "Hermit".into(),
        dice: 8,
    }];
    let ledger = fold(&start, &[played(1, seven)]).unwrap();
    assert!(!ledger.now.pc("Ada").unwrap().is_present());
    assert!(
        said(&ledger, 1).contains(&"Ada: starved to death: maximum Mettle at 0 or below".into()),
        "{:#?}",
        said(&ledger, 1)
    );
}

#[test]
fn a_heal_twists_lasting_price_stays_on_the_pc_for_good() {
    // `heal-0`: Brannoc's Heal takes the Twist `Lost a part` and lives.
    let one =
        "session = 1\nday = 2\nstop = \"Gallows Ford\"\n[[pc]]\nname = \"Brannoc\"\ndamage = 9\n";
    let ledger = fold(
        &mettle_start("heal-0"),
        &[played(1, one), played(2, "session = 2\nday = 9\n")],
    )
    .unwrap();
    assert!(
        said(&ledger, 1).contains(&"Brannoc: Lost a part for good (the Heal Twist's price)".into()),
        "{:#?}",
        said(&ledger, 1)
    );
    for state in [ledger.state_before(2).unwrap(), &ledger.now] {
        let m = mettle_pc(state, "Brannoc");
        assert_eq!(m.lasting.len(), 1);
        assert_eq!(
            (m.lasting[0].name.as_str(), m.lasting[0].session),
            ("Lost a part", 1)
        );
        // Every later pack's "party now" line shows it.
        assert!(
            recap::now_line(state.pc("Brannoc").unwrap(), false)
                .ends_with("; Lost a part (session 1)")
        );
    }
}
