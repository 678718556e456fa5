//! Issue 51, findings 7 and 9: one voucher rule for a healer at the table
//! and in downtime, and the smaller rules (an inn for a full rest, a
//! mutation gained twice).

use super::*;

#[test]
fn a_healer_at_the_table_takes_no_voucher_as_one_the_ledger_rolls() {
    // Brannoc falls and is healed at the table. Left out, the healer is
    // the ledger's own choice (Cress, the best CULTURE).
    let table = "session = 1\nday = 2\n[[pc]]\nname = \"Brannoc\"\ndamage = 9\nheal_edge = 2\n";
    let ledger = fold(&mettle_start(SEED), &[played(1, table)]).unwrap();
    let holders: Vec<&str> = ledger
        .now
        .vouchers
        .iter()
        .filter(|v| v.downtime)
        .map(|v| v.holder.as_str())
        .collect();
    assert_eq!(holders, ["Ada"]);
    // Named: Ada healed him, so Cress takes the voucher.
    let named = format!("{table}healer = \"Ada\"\n");
    let ledger = fold(&mettle_start(SEED), &[played(1, &named)]).unwrap();
    let holders: Vec<&str> = ledger
        .now
        .vouchers
        .iter()
        .filter(|v| v.downtime)
        .map(|v| v.holder.as_str())
        .collect();
    assert_eq!(holders, ["Cress"]);
    // The same record with the Heal left to the ledger: the same holders.
    let rolled = "session = 1\nday = 2\n[[pc]]\nname = \"Brannoc\"\ndamage = 9\nhealer = \"Ada\"\n";
    let ledger = fold(&mettle_start(SEED), &[played(1, rolled)]).unwrap();
    if ledger.now.pc("Brannoc").unwrap().is_present() {
        let holders: Vec<&str> = ledger
            .now
            .vouchers
            .iter()
            .filter(|v| v.downtime)
            .map(|v| v.holder.as_str())
            .collect();
        assert_eq!(holders, ["Cress"]);
    }
}

#[test]
fn an_inn_is_a_settlement_for_a_full_rest_as_for_a_journey() {
    let mut start = core_start(200);
    start.map.as_mut().unwrap().stops[1].kind = "inn".into();
    let one =
        "session = 1\nday = 2\nstop = \"Gallows Ford\"\n[[pc]]\nname = \"Sybilla\"\ndamage = 3\n";
    let ledger = fold(&start, &[played(1, one)]).unwrap();
    let said = said(&ledger, 1);
    assert!(
        said.iter()
            .any(|s| s.starts_with("party: a week of full rest at Gallows Ford")),
        "{said:#?}"
    );
    assert_eq!(core_pc(&ledger.now, "Sybilla").health(), 8);
}

#[test]
fn a_mutation_gained_twice_is_refused() {
    let start = core_start(0);
    let twice = "session = 1\nday = 2\nstop = \"Gallows Ford\"\n[[pc]]\nname = \"Sybilla\"\nmutations = [\"mutation/1\", \"mutation/1\"]\n";
    assert_eq!(
        refused(&start, &[played(1, twice)]),
        ["sessions/1/record.toml:6:28: mutation slip `mutation/1` is listed twice"]
    );
    // Session 2's pack has the same slip (the test pack): she has it.
    let once = "session = 1\nday = 2\nstop = \"Gallows Ford\"\n[[pc]]\nname = \"Sybilla\"\nmutations = [\"mutation/1\"]\n";
    let again = "session = 2\nday = 3\nstop = \"Gallows Ford\"\n[[pc]]\nname = \"Sybilla\"\nmutations = [\"mutation/1\"]\n";
    let problems = refused(&start, &[played(1, once), played(2, again)]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with("sessions/2/record.toml:6:14: Sybilla already has "),
        "{problems:?}"
    );
    assert!(problems[0].ends_with("(session 1): mutation slip `mutation/1` would give it twice"));
}

#[test]
fn a_pc_who_joined_after_a_death_loses_no_omen_for_its_unpaid_funeral() {
    // Finding 8: Sybilla dies in session 1 in the wild; Oda joins in
    // session 2 and the party rests at Kettleby without the funeral's
    // 512ʂ. Balthasar, who was there, loses a maximum omen; Oda does not.
    let one = "session = 1\nday = 2\nstop = \"Gallows Ford\"\n[[pc]]\nname = \"Sybilla\"\nfate = \"dead\"\n";
    let two = "session = 2\nday = 3\nstop = \"Kettleby\"\nmoney = 100\n\n[[joined]]\nname = \"Oda\"\nSTR = 11\nAGI = 9\nWIT = 12\nomens = 2\nmax_omens = 2\n";
    let ledger = fold(&core_start(0), &[played(1, one), played(2, two)]).unwrap();
    let said = said(&ledger, 2);
    assert!(
        said.iter()
            .any(|s| s.starts_with("Balthasar: Sybilla's funeral (512ʂ) unpaid")),
        "{said:#?}"
    );
    assert!(
        !said.iter().any(|s| s.starts_with("Oda: Sybilla's funeral")),
        "{said:#?}"
    );
    assert_eq!(core_pc(&ledger.now, "Oda").sheet.max_omens, 2);
}

#[test]
fn a_pc_who_joined_in_the_session_of_a_death_loses_no_omen_for_its_funeral() {
    // Sybilla dies in session 1 and Oda joins in the same record; the
    // party rests at Kettleby in session 2 without the 512ʂ. Only
    // Balthasar, who was with Sybilla, loses a maximum omen.
    let one = "session = 1\nday = 2\nstop = \"Gallows Ford\"\n\n[[joined]]\nname = \"Oda\"\nSTR = 11\nAGI = 9\nWIT = 12\nomens = 2\nmax_omens = 2\n\n[[pc]]\nname = \"Sybilla\"\nfate = \"dead\"\n";
    let two = "session = 2\nday = 3\nstop = \"Kettleby\"\nmoney = 100\n";
    let ledger = fold(&core_start(0), &[played(1, one), played(2, two)]).unwrap();
    let said = said(&ledger, 2);
    assert!(
        said.iter()
            .any(|s| s.starts_with("Balthasar: Sybilla's funeral (512ʂ) unpaid")),
        "{said:#?}"
    );
    assert!(
        !said.iter().any(|s| s.starts_with("Oda: Sybilla's funeral")),
        "{said:#?}"
    );
    assert_eq!(core_pc(&ledger.now, "Oda").sheet.max_omens, 2);
}

/// `start` with the campaign's `[map]` supplies: 3 rations and 3 units
/// of water a PC.
fn stocked(start: Start<'static>) -> Start<'static> {
    Start {
        stock: Some(Stock {
            rations: 3,
            water: 3,
        }),
        ..start
    }
}

#[test]
fn a_party_that_stops_in_a_town_stocks_up_before_it_sets_out() {
    // Finding 9: 3 PCs stop at Kettleby (a town) with 1 ration and 2
    // units of water; the next journey set out with just that.
    let one = "session = 1\nday = 2\nstop = \"Kettleby\"\nrations = 1\nwater = 2\n";
    let ledger = fold(&stocked(mettle_start(SEED)), &[played(1, one)]).unwrap();
    let said = said(&ledger, 1);
    assert!(
        said.contains(
            &"party: water 2 → 9: the skins filled at Kettleby, where water is to hand".into()
        ),
        "{said:#?}"
    );
    assert!(
        said.contains(&"party: rations 1 → 9: 8 rations stocked at Kettleby (the Engine prices nothing: a settlement's food is to hand)".into()),
        "{said:#?}"
    );
    assert_eq!((ledger.now.rations, ledger.now.water), (Some(9), Some(9)));
    // At a ford (not a settlement) nothing is stocked; without a map's
    // figures, nothing either.
    let wild = one.replace("Kettleby", "Gallows Ford");
    let ledger = fold(&stocked(mettle_start(SEED)), &[played(1, &wild)]).unwrap();
    assert_eq!((ledger.now.rations, ledger.now.water), (Some(1), Some(2)));
    let ledger = fold(&mettle_start(SEED), &[played(1, one)]).unwrap();
    assert_eq!((ledger.now.rations, ledger.now.water), (Some(1), Some(2)));
    // More than the figure is kept: nothing is taken away.
    let more = "session = 1\nday = 2\nstop = \"Kettleby\"\nrations = 12\nwater = 11\n";
    let ledger = fold(&stocked(mettle_start(SEED)), &[played(1, more)]).unwrap();
    assert_eq!((ledger.now.rations, ledger.now.water), (Some(12), Some(11)));
}

#[test]
fn a_core_party_buys_rations_at_a_meals_price_with_what_the_purse_holds() {
    // Balthasar and Sybilla rest a week at Kettleby (2 × 32ʂ) and buy
    // the 6 rations they lack at 2ʂ each with what is left.
    let one = "session = 1\nday = 2\nstop = \"Kettleby\"\nrations = 0\nwater = 6\n";
    let bought = |money: i64| {
        let ledger = fold(&stocked(core_start(money)), &[played(1, one)]).unwrap();
        let line = said(&ledger, 1)
            .into_iter()
            .find(|s| s.contains("bought"))
            .unwrap_or_else(|| panic!("{:#?}", said(&ledger, 1)));
        (line, ledger.now.rations, ledger.now.money)
    };
    assert_eq!(
        bought(100),
        (
            "party: rations 0 → 6: 6 rations bought at Kettleby at 2ʂ each, 12ʂ (money 36ʂ → 24ʂ)"
                .into(),
            Some(6),
            24
        )
    );
    assert_eq!(
        bought(70),
        (
            "party: rations 0 → 3: 3 rations bought at Kettleby at 2ʂ each, 6ʂ (money 6ʂ → 0ʂ); 3 more wanted, but the purse holds no more".into(),
            Some(3),
            0
        )
    );
    assert_eq!(
        bought(64),
        (
            "party: no rations bought at Kettleby: 6 rations wanted at 2ʂ each, and the party has 0ʂ".into(),
            Some(0),
            0
        )
    );
    // The rule each line names.
    let ledger = fold(&stocked(core_start(100)), &[played(1, one)]).unwrap();
    assert!(rules_of(&ledger, 1, "party").contains(&rule::STOCK_CORE.to_owned()));
}
