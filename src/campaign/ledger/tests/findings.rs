//! Issue 38's smaller findings, each pinned: omens spent in a Core
//! record, the session's damage not read as critical damage, counts
//! written as English writes them, voucher serials in any case, and a
//! dead PC's voucher refused for what it is.

use super::*;

// ----- Omens (Core Rules: Omens) -----

#[test]
fn omens_spent_in_play_come_off_the_sheet_until_a_full_rest() {
    // Session 1 ends at Gallows Ford (a ford: no full rest), session 2 in
    // Kettleby (a town: the full rest brings the omen back).
    let one =
        "session = 1\nday = 2\nstop = \"Gallows Ford\"\n[[pc]]\nname = \"Sybilla\"\nomens = 1\n";
    let two = "session = 2\nday = 3\nstop = \"Kettleby\"\nmoney = 100\n";
    let ledger = fold(&core_start(0), &[played(1, one), played(2, two)]).unwrap();
    let said1 = said(&ledger, 1);
    assert!(
        said1.contains(&"Sybilla: omens 2 → 1 (1 omen spent in play)".into()),
        "{said1:#?}"
    );
    assert!(rules_of(&ledger, 1, "Sybilla").contains(&rule::OMENS_SPENT.to_owned()));
    let before2 = ledger.state_before(2).unwrap();
    assert_eq!(core_pc(before2, "Sybilla").sheet.omens, 1);
    assert_eq!(core_pc(before2, "Balthasar").sheet.omens, 2);
    let said2 = said(&ledger, 2);
    assert!(
        said2.contains(&"Sybilla: omens 1 → 2".into()),
        "the full rest restores it: {said2:#?}"
    );
    assert_eq!(core_pc(&ledger.now, "Sybilla").sheet.omens, 2);
}

#[test]
fn omens_spent_at_the_table_leave_none_to_cheat_death_from_soulblight() {
    // The soulblight of `critical_damage_from_soulblight_…` (a 12 on the
    // d12: 12 direct damage to health 10) with both omens spent in play:
    // none is left to cheat death, and Balthasar dies.
    let ledger = fold(
        &core_start(0),
        &[played(
            1,
            "session = 1\nday = 2\nstop = \"Gallows Ford\"\n[[pc]]\nname = \"Balthasar\"\nomens = 2\ncorruption = 12\n",
        )],
    )
    .unwrap();
    let said = said(&ledger, 1);
    assert!(
        said.contains(&"Balthasar: omens 2 → 0 (2 omens spent in play)".into()),
        "{said:#?}"
    );
    assert!(
        said.contains(&"Balthasar: died of soulblight (no omen left to cheat death)".into()),
        "{said:#?}"
    );
    assert!(!ledger.now.pc("Balthasar").unwrap().is_present());
}

#[test]
fn omens_spent_negative_or_beyond_those_held_or_in_mettle_are_refused() {
    let core = core_start(0);
    let at = |omens: &str| {
        played(
            1,
            &format!("session = 1\nday = 1\n\n[[pc]]\nname = \"Sybilla\"\nomens = {omens}\n"),
        )
    };
    assert_eq!(
        refused(&core, &[at("-1")]),
        ["sessions/1/record.toml:6:9: omens = -1: omens spent are never negative"]
    );
    assert_eq!(
        refused(&core, &[at("3")]),
        [
            "sessions/1/record.toml:6:9: omens = 3, but Sybilla has 2 omens of 2 at the start of session 1"
        ]
    );
    // Spent in session 1 (no full rest in the wild), one is left.
    let one =
        "session = 1\nday = 2\nstop = \"Gallows Ford\"\n[[pc]]\nname = \"Sybilla\"\nomens = 1\n";
    let two = "session = 2\nday = 2\n[[pc]]\nname = \"Sybilla\"\nomens = 2\n";
    assert_eq!(
        refused(&core, &[played(1, one), played(2, two)]),
        [
            "sessions/2/record.toml:5:9: omens = 2, but Sybilla has 1 omen of 2 at the start of session 2"
        ]
    );
    // METTLE has no omens.
    assert_eq!(
        refused(
            &mettle_start(SEED),
            &[played(
                1,
                "session = 1\nday = 1\n[[pc]]\nname = \"Ada\"\nomens = 1\n"
            )]
        ),
        ["sessions/1/record.toml:5:9: `omens` is not a key of METTLE records"]
    );
    // Not a number: refused as the file is read, at the value.
    let err = RecordFile::from_text(
        Path::new("sessions/1/record.toml"),
        "session = 1\nday = 1\n[[pc]]\nname = \"Ada\"\nomens = \"one\"\n".into(),
    )
    .unwrap_err()
    .to_string();
    assert!(err.starts_with("sessions/1/record.toml:5:9: "), "{err}");
}

#[test]
fn a_joined_pc_spends_the_omens_of_their_own_sheet() {
    let joined = "session = 1\nday = 1\n\n[[joined]]\nname = \"Oda\"\nSTR = 9\nAGI = 9\nWIT = 9\narmour = 0\ndamage = \"d6\"\nomens = 1\nmax_omens = 2\n\n[[pc]]\nname = \"Oda\"\nomens = 2\n";
    assert_eq!(
        refused(&core_start(0), &[played(1, joined)]),
        [
            "sessions/1/record.toml:16:9: omens = 2, but Oda has 1 omen of 2 at the start of session 1"
        ]
    );
}

// ----- Damage over a session is not critical damage -----

#[test]
fn the_sessions_damage_is_health_lost_in_all_not_critical_damage() {
    // 5 of Sybilla's 8 health at once would be critical damage; 8 a
    // mortal wound; 10 of Balthasar's 10, death on the spot. Over a
    // session they are only health lost.
    let ledger = fold(
        &core_start(0),
        &[played(
            1,
            "session = 1\nday = 2\nstop = \"Gallows Ford\"\n[[pc]]\nname = \"Sybilla\"\ndamage = 5\n[[pc]]\nname = \"Balthasar\"\ndamage = 10\n",
        )],
    )
    .unwrap();
    let said = said(&ledger, 1);
    assert!(
        said.contains(&"Sybilla: health 8 → 3 (5 damage over the session)".into()),
        "{said:#?}"
    );
    assert!(
        said.contains(&"Balthasar: health 10 → 0 (10 damage over the session)".into()),
        "{said:#?}"
    );
    for line in &said {
        for word in ["critical", "mortal", "kill on the spot"] {
            assert!(!line.contains(word), "{line}");
        }
    }
}

// ----- Counts -----

#[test]
fn one_day_is_a_day_and_one_days_rest_a_days_rest() {
    let ledger = fold(
        &mettle_start(SEED),
        &[played(
            1,
            "session = 1\nday = 2\nstop = \"Gallows Ford\"\n[[pc]]\nname = \"Brannoc\"\ndamage = 9\nheal_edge = 3\n",
        )],
    )
    .unwrap();
    let said = said(&ledger, 1);
    assert!(
        said.contains(&"party: day 1 → 2 (1 day)".into()),
        "{said:#?}"
    );
    // −2 needs 3 points: one day at 3 a day.
    assert!(
        said.contains(&"Brannoc: Mettle -2 → 1 after 1 day's rest (Edge 3: 3 a day)".into()),
        "{said:#?}"
    );
    for line in &said {
        assert!(!line.contains("1 days"), "{line}");
        assert!(!line.contains("day' "), "{line}");
    }
}

// ----- Voucher serials -----

#[test]
fn a_voucher_serial_is_read_in_any_case_and_kept_as_printed() {
    let ledger = fold(
        &mettle_start(SEED),
        &[played(
            1,
            "session = 1\nday = 1\nvouchers_spent = [\" le-1111-2222\"]\n",
        )],
    )
    .unwrap();
    assert_eq!(ledger.now.spent[0].serial, "LE-1111-2222");
    assert!(ledger.now.vouchers.is_empty());
    assert!(said(&ledger, 1).contains(&"Ada: spent voucher LE-1111-2222".into()));
    // The same voucher twice in two cases is spent twice.
    assert_eq!(
        refused(
            &mettle_start(SEED),
            &[played(
                1,
                "session = 1\nday = 1\nvouchers_spent = [\"LE-1111-2222\", \"le-1111-2222\"]\n"
            )]
        ),
        ["sessions/1/record.toml:3:35: voucher LE-1111-2222 is spent twice"]
    );
    // And spent again later, in another case, was already spent.
    let spent = "session = 1\nday = 1\nvouchers_spent = [\"LE-1111-2222\"]\n";
    let again = "session = 2\nday = 1\nvouchers_spent = [\"Le-1111-2222\"]\n";
    let mut second = played(2, again);
    second.pack.as_mut().unwrap().vouchers.clear();
    assert_eq!(
        refused(&mettle_start(SEED), &[played(1, spent), second]),
        ["sessions/2/record.toml:3:19: voucher LE-1111-2222 was already spent in session 1"]
    );
}

#[test]
fn a_voucher_that_went_with_its_holder_says_so() {
    for (fate, what) in [("dead", "died"), ("left", "left the party")] {
        let one = format!("session = 1\nday = 1\n[[pc]]\nname = \"Ada\"\nfate = \"{fate}\"\n");
        let two = "session = 2\nday = 1\nvouchers_spent = [\"le-1111-2222\"]\n";
        let mut second = played(2, two);
        second.pack.as_mut().unwrap().vouchers.clear();
        let problems = fold(&mettle_start(SEED), &[played(1, &one), second]).unwrap_err();
        let shown = problems[0].to_string();
        assert!(
            shown.starts_with(&format!(
                "sessions/2/record.toml:3:19: voucher LE-1111-2222 went with Ada, who {what} in session 1: it is no longer in hand"
            )),
            "{shown}"
        );
        assert!(shown.contains("goes with them"), "{shown}");
        assert!(!shown.contains("never held"), "{shown}");
    }
}
