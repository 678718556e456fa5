//! Tests of what a session in play keeps as it goes: its marks, added
//! line by line, equal to the log folded afresh after every step (and
//! folded again only on an undo); the party's marker on the players' map
//! moving to the stop of the last arrival; the last rolls in the GM's
//! view after a restart; vouchers spent from the run sheet; rations and
//! water marked from the first session.

use serde_json::{Value, json};

use super::api::Table;
use super::fold::FOLDS;
use super::marks::Marks;
use super::tests::{campaign, open};

fn folds() -> usize {
    FOLDS.with(std::cell::Cell::get)
}

/// Action `i` of a long scripted session: marks, struck marks, rolls,
/// the tracker and refusals, in a cycle.
fn step(play: &super::Play, i: usize, (mark, check): (usize, usize)) -> Value {
    let pcs: Vec<String> = play.fixed.pcs.iter().map(|p| p.name.clone()).collect();
    let pc = &pcs[i % pcs.len()];
    let items: Vec<&str> = play
        .fixed
        .items
        .iter()
        .filter(|i| i.kind != "voucher")
        .map(|i| i.address.as_str())
        .collect();
    let legs = &play.fixed.after.as_ref().unwrap().legs;
    match i % 16 {
        0 => json!({"do": "damage", "pc": pc, "amount": 2}),
        1 => json!({"do": "status", "pc": pc, "status": "Shaken", "on": i % 32 < 16}),
        2 => json!({"do": "undo", "k": mark}),
        3 => json!({"do": "met", "address": items[(i / 16) % items.len()]}),
        4 => json!({"do": "damage", "pc": pc, "amount": -1}),
        5 => json!({"do": "tracker", "op": "start", "name": "encounter/1"}),
        6 => json!({"do": "damage", "pc": pc, "amount": 1}),
        7 => json!({"do": "tracker", "op": "next", "name": pc}),
        8 => json!({"do": "tracker", "op": "set", "name": pc, "now": i % 5}),
        9 => json!({"do": "undo", "k": mark.saturating_sub(i % 7).max(1)}),
        10 => json!({"do": "supplies", "money": "+3s", "rations": -1, "water": 1}),
        11 => json!({"do": "arrive", "stop": legs[(i / 16) % legs.len()], "day": 40 + i}),
        12 => json!({"do": "check", "pc": pc, "pool": "3D", "difficulty": 4}),
        13 => json!({"do": "push", "k": check}),
        14 => json!({"do": "tracker", "op": "end"}),
        _ => json!({"do": "heal", "pc": pc, "twist": i % 3 == 0}),
    }
}

#[test]
fn the_marks_kept_line_by_line_equal_the_log_folded_afresh_after_every_step() {
    let (root, ws) = campaign("kept");
    let log = root.join("sessions/1/play.log");
    let mut play = open(&ws, &log);
    let (mut done, mut undos, mut last) = (0, 0, (1, 1));
    for i in 0..400 {
        let action = step(&play, i, last);
        let before = folds();
        let answer = play.act(&action);
        let folded = folds() - before;
        if let Ok(a) = &answer {
            done += 1;
            let k = a["k"].as_u64().unwrap() as usize;
            match action["do"].as_str() {
                Some("check") => last.1 = k,
                Some("damage" | "status" | "met" | "supplies" | "arrive" | "push") => last.0 = k,
                _ => {}
            }
        }
        // Only a struck mark folds the log again (its check, then the
        // marks): every other action is added once.
        match (&answer, action["do"].as_str()) {
            (Ok(_), Some("undo")) => {
                undos += 1;
                assert!(folded <= 2, "{action}: {folded} folds");
            }
            (_, Some("undo")) => assert!(folded <= 1, "{action}: {folded} folds"),
            _ => assert_eq!(folded, 0, "{action} folded the log again"),
        }
        assert_eq!(
            play.marks,
            Marks::of(&play),
            "after action {i} ({action} → {answer:?}) the marks kept drifted from the log's"
        );
    }
    assert!(done > 250 && undos > 10, "{done} done, {undos} undone");
    let m = &play.marks;
    assert!(
        !m.met.is_empty() && !m.arrivals.is_empty() && !m.struck.is_empty(),
        "the script marked little: {m:?}"
    );
    assert!(m.pcs.iter().any(|p| p.damage > 0), "{m:?}");
    // Restarted from its log: folded from the start once, and again at
    // each undo (its check, then the marks), and the same marks.
    let before = folds();
    let again = open(&ws, &log);
    assert!(folds() - before <= 2 * undos, "{} folds", folds() - before);
    assert_eq!(again.marks, play.marks);
    assert_eq!(again.gm(), play.gm());
}
