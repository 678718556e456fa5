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
