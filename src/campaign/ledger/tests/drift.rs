//! Issue 51, finding 6: what players hold never changes meaning when
//! earlier history is corrected — Downtime Voucher serials derived from
//! the session and holder, and a PC who joined (added to a past record)
//! never changes who healed or who lived.

use super::*;

/// The Downtime Vouchers issued after session `n`: serial and holder.
fn issued_after(ledger: &Ledger, n: u32) -> Vec<(String, String)> {
    ledger
        .now
        .vouchers
        .iter()
        .chain(ledger.state_before(n + 1).unwrap().vouchers.iter())
        .filter(|v| v.downtime && v.issued_in == n)
        .map(|v| (v.serial.clone(), v.holder.clone()))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect()
}

#[test]
fn correcting_an_earlier_record_does_not_renumber_a_later_sessions_vouchers() {
    // Session 2: Brannoc falls and is healed at the table by Cress; Ada
    // takes a Downtime Voucher. Correcting session 1 (Brannoc fell then too)
    // issues vouchers after session 1 as well: a running count moved
    // session 2's serials (AC-0001 → AC-0003), so a card handed out named
    // another holder.
    let two = "session = 2\nday = 20\nstop = \"Gallows Ford\"\n[[pc]]\nname = \"Brannoc\"\ndamage = 9\nheal_edge = 3\n";
    let plain = "session = 1\nday = 2\nstop = \"Gallows Ford\"\n";
    let corrected = "session = 1\nday = 2\nstop = \"Gallows Ford\"\n[[pc]]\nname = \"Brannoc\"\ndamage = 9\nheal_edge = 3\n";
    let before = fold(&mettle_start(SEED), &[played(1, plain), played(2, two)]).unwrap();
    let after = fold(&mettle_start(SEED), &[played(1, corrected), played(2, two)]).unwrap();
    let was = issued_after(&before, 2);
    assert_eq!(was, [("LE-S2-ADA".to_owned(), "Ada".to_owned())]);
    assert_eq!(issued_after(&after, 2), was);
    assert_eq!(issued_after(&after, 1).len(), 1);
}

#[test]
fn a_pc_added_as_joined_to_a_past_record_does_not_change_who_healed() {
    // Brannoc falls in session 1 and the ledger rolls his Heal Check:
    // Cress (CULTURE 4) heals. Adding Oda (CULTURE 6), who joined in
    // that session, to the record made Oda the healer, and the roll
    // another: a PC who had died came back.
    let one =
        "session = 1\nday = 2\nstop = \"Gallows Ford\"\n[[pc]]\nname = \"Brannoc\"\ndamage = 9\n";
    let joined = format!(
        "{one}\n[[joined]]\nname = \"Oda\"\nNATURE = 2\nCULTURE = 6\nPOISE = 2\nMOTIVE = 3\nFRAME = 2\n"
    );
    for seed in [super::HEAL_PASSES, super::HEAL_FAILS] {
        let plain = fold(&mettle_start(seed), &[played(1, one)]).unwrap();
        let with_oda = fold(&mettle_start(seed), &[played(1, &joined)]).unwrap();
        let check = |l: &Ledger| {
            said(l, 1)
                .into_iter()
                .find(|s| s.starts_with("Brannoc: Heal Check by "))
                .unwrap()
        };
        assert_eq!(check(&with_oda), check(&plain), "seed {seed}");
        assert!(check(&plain).starts_with("Brannoc: Heal Check by Cress"));
        assert_eq!(
            with_oda.now.pc("Brannoc").unwrap().presence,
            plain.now.pc("Brannoc").unwrap().presence,
            "seed {seed}"
        );
        assert!(with_oda.now.pc("Oda").unwrap().is_present());
    }
}
