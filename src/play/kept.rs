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
        _ => json!({"do": "heal", "pc": pc, "twist": i.is_multiple_of(3)}),
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

/// The centres of the party's marker (a black square 10 wide) on an SVG
/// map, top to bottom: the map's, then the legend's.
fn squares(svg: &str) -> Vec<(f64, f64)> {
    let attr = |tag: &str, name: &str| -> f64 {
        let at = tag.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        tag[at..].split('"').next().unwrap().parse().unwrap()
    };
    let mut out: Vec<(f64, f64)> = svg
        .split("<rect ")
        .skip(1)
        .filter(|t| t.contains("width=\"10.00\" height=\"10.00\" fill=\"black\""))
        .map(|t| {
            let t = format!(" {t}");
            (attr(&t, "x") + 5.0, attr(&t, "y") + 5.0)
        })
        .collect();
    out.sort_by(|a, b| a.1.total_cmp(&b.1));
    out
}

#[test]
fn the_party_marker_on_the_players_map_moves_to_the_stop_of_the_last_arrival() {
    let (root, ws) = campaign("marker");
    let mut play = open(&ws, &root.join("sessions/1/play.log"));
    let map = play.fixed.map.clone().unwrap();
    let start = map.stop_named(play.fixed.stop.as_deref().unwrap()).unwrap();
    let before = squares(play.players()["map"]["svg"].as_str().unwrap());
    assert_eq!(before.len(), 2, "the party's marker and the legend's");
    // The first stop along the journey whose place differs from the
    // start's in both directions.
    let legs = play.fixed.after.as_ref().unwrap().legs.clone();
    let to = legs
        .iter()
        .filter_map(|l| map.stop_named(l))
        .find(|s| (s.x - start.x).abs() > 0.5 && (s.y - start.y).abs() > 0.5)
        .expect("a stop away from the start")
        .clone();
    play.act(&json!({"do": "arrive", "stop": to.name, "day": play.fixed.day + 60}))
        .unwrap();
    let after = squares(play.players()["map"]["svg"].as_str().unwrap());
    assert_eq!(after.len(), 2, "one marker for the party: {after:?}");
    assert_eq!(after[1], before[1], "the legend's square stays");
    let (b, a) = (before[0], after[0]);
    assert_ne!(a, b, "the party's marker stayed at the start");
    // The drawing places stops by one scale and one margin on both axes:
    // the marker moved as far as the stop lies from the start.
    let scale_x = (a.0 - b.0) / (to.x - start.x);
    let scale_y = (a.1 - b.1) / (to.y - start.y);
    assert!(scale_x > 0.0, "{scale_x}");
    assert!((scale_x - scale_y).abs() < 0.01, "{scale_x} {scale_y}");
    let margin_x = b.0 - start.x * scale_x;
    let margin_y = b.1 - start.y * scale_y;
    assert!((margin_x - margin_y).abs() < 0.05, "{margin_x} {margin_y}");
    // The GM's map moves it too.
    let gm = squares(play.gm()["map"]["svg"].as_str().unwrap());
    assert!(
        gm.iter()
            .any(|g| (g.0 - a.0).abs() < 0.01 && (g.1 - a.1).abs() < 0.01)
    );
}

#[test]
fn the_gm_view_carries_the_last_rolls_newest_first_after_a_restart() {
    let (root, ws) = campaign("results");
    let log = root.join("sessions/1/play.log");
    let mut play = open(&ws, &log);
    let table = play.fixed.pack.encounters[0].situation.table.clone();
    let mut answers = Vec::new();
    answers.push(play.act(&json!({"do": "roll", "table": table})).unwrap());
    for n in 1..=5 {
        answers.push(
            play.act(&json!({"do": "dice", "expr": format!("{n}d6")}))
                .unwrap(),
        );
    }
    play.act(&json!({"do": "met", "address": "encounter/1"}))
        .unwrap();
    let check = play
        .act(&json!({"do": "check", "pc": "Ada", "pool": "2D", "difficulty": 1}))
        .unwrap();
    answers.push(check.clone());
    let again = open(&ws, &log);
    let results = again.gm()["results"].as_array().unwrap().clone();
    assert_eq!(results.len(), super::views::RESULTS);
    // Newest first, the mark left out, each as its answer had it.
    for (r, a) in results.iter().zip(answers.iter().rev()) {
        assert_eq!(r["k"], a["k"]);
        assert_eq!(r["line"], a["line"]);
        assert_eq!(r["result"], a["result"], "the trail of dice");
    }
    assert_eq!(results[0]["do"], "check");
    assert_eq!(results[0]["check"], check["k"]);
    assert_eq!(
        results[0]["twist_open"], check["result"]["twist_offered"],
        "{check}"
    );
    assert_eq!(results[1]["check"], Value::Null);
    assert!(
        results[1]["result"]["rolled"].is_object() || results[1]["result"]["rolled"].is_array(),
        "{}",
        results[1]
    );
}

#[test]
fn a_voucher_on_the_run_sheet_is_spent_by_its_serial_not_met() {
    let (root, ws) = campaign("voucher");
    let mut play = open(&ws, &root.join("sessions/1/play.log"));
    let item = |play: &super::Play| -> Value {
        play.gm()["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["kind"] == "voucher")
            .expect("the pack has a voucher")
            .clone()
    };
    let v = item(&play);
    let serial = v["serial"].as_str().expect("a voucher's serial").to_owned();
    assert_eq!(v["spent"], false);
    let holder = play
        .fixed
        .vouchers
        .iter()
        .find(|(s, _)| *s == serial)
        .expect("the run sheet's voucher is in hand")
        .1
        .clone();
    let e = play
        .act(&json!({"do": "met", "address": v["address"]}))
        .unwrap_err();
    assert!(e.contains("mark it with `spend`"), "{e}");
    // Any case, as the record reads it.
    let typed = format!(" {} ", serial.to_lowercase());
    assert_ne!(typed.trim(), serial, "a serial with letters");
    let a = play.act(&json!({"do": "spend", "serial": typed})).unwrap();
    assert!(a["line"].as_str().unwrap().contains(&holder), "{a}");
    let v = item(&play);
    assert_eq!(
        (v["spent"].clone(), v["met"].clone()),
        (json!(true), json!(false))
    );
    let gm = play.gm();
    let pc = gm["pcs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == holder.as_str())
        .unwrap();
    assert!(!pc["vouchers"].to_string().contains(&serial), "{pc}");
    let e = play
        .act(&json!({"do": "spend", "serial": serial}))
        .unwrap_err();
    assert!(e.contains("was spent already"), "{e}");
    for other in gm["items"].as_array().unwrap() {
        if other["kind"] != "voucher" {
            assert_eq!(other["serial"], Value::Null, "{other}");
        }
    }
    let record = super::record::text(&play).unwrap();
    assert!(
        record.contains(&format!("vouchers_spent = [\"{serial}\"]")),
        "{record}"
    );
    crate::pack::Sources::check_record(&ws, 1, &record).unwrap();
}

#[test]
fn rations_and_water_are_marked_from_the_first_session() {
    let (root, ws) = campaign("supplies");
    let mut play = open(&ws, &root.join("sessions/1/play.log"));
    // No record yet: what each PC sets out with (the `[map]` of the
    // campaign.toml `init` writes: 4 rations and 3 water), for the party.
    let n = play.fixed.pcs.len() as i64;
    let (rations, water) = (4 * n, 3 * n);
    let s = &play.gm()["supplies"];
    assert_eq!(
        (s["rations"].clone(), s["water"].clone()),
        (json!(rations), json!(water))
    );
    play.act(&json!({"do": "supplies", "rations": -2, "water": 1}))
        .unwrap();
    let s = &play.gm()["supplies"];
    assert_eq!(s["rations"], json!(rations - 2));
    assert_eq!(s["water"], json!(water + 1));
    let before = std::fs::read(root.join("sessions/1/play.log")).unwrap();
    for (action, said) in [
        (
            json!({"do": "supplies", "rations": -rations}),
            format!(
                "the party has {} rations: it cannot lose {rations}",
                rations - 2
            ),
        ),
        (
            json!({"do": "supplies", "water": -100}),
            format!(
                "the party has {} units of water: it cannot lose 100",
                water + 1
            ),
        ),
        (
            json!({"do": "supplies", "rations": "two"}),
            "`rations` of `supplies` is a whole number".into(),
        ),
        (
            json!({"do": "supplies", "water": 1.5}),
            "`water` of `supplies` is a whole number".into(),
        ),
        (
            json!({"do": "supplies", "rations": 2_000_000}),
            "is a whole number (at most a million)".into(),
        ),
    ] {
        let e = play.act(&action).unwrap_err();
        assert!(e.contains(&said), "{action}: {e}");
    }
    assert_eq!(
        std::fs::read(root.join("sessions/1/play.log")).unwrap(),
        before
    );
    // The record says what is left, and passes the record's checks.
    let record = super::record::text(&play).unwrap();
    assert!(
        record.contains(&format!("\nrations = {} ", rations - 2)),
        "{record}"
    );
    assert!(
        record.contains(&format!("\nwater = {} ", water + 1)),
        "{record}"
    );
    crate::pack::Sources::check_record(&ws, 1, &record).unwrap();
}

#[test]
fn a_store_past_the_cap_blocks_only_a_gain_of_that_store() {
    // A hand-kept record may say more rations than a record made in play
    // can reach: water and money still move, rations can be eaten, and only
    // a gain of rations is refused.
    let (root, ws) = campaign("big-store");
    let mut play = open(&ws, &root.join("sessions/1/play.log"));
    play.fixed.rations = 1_500_000;
    play.act(&json!({"do": "supplies", "water": 1, "money": "+2s"}))
        .unwrap();
    play.act(&json!({"do": "supplies", "rations": -3})).unwrap();
    assert_eq!(play.gm()["supplies"]["rations"], json!(1_499_997));
    let e = play
        .act(&json!({"do": "supplies", "rations": 1}))
        .unwrap_err();
    assert!(
        e.contains("the party would have 1499998 rations, past the most a record keeps"),
        "{e}"
    );
}

#[test]
fn the_gm_view_carries_the_log_after_the_cursor_and_the_session_keeps_little() {
    use super::api::LOG_WINDOW;
    let (root, ws) = super::tests::campaign("cursor");
    let mut play = super::tests::open(&ws, &root.join("sessions/1/play.log"));
    let n = LOG_WINDOW + 30;
    for i in 0..n {
        let a = match i % 2 {
            0 => json!({"do": "dice", "expr": "2d6"}),
            _ => json!({"do": "supplies", "money": 1}),
        };
        play.act(&a).unwrap();
    }
    play.act(&json!({"do": "undo", "k": n})).unwrap();
    let ks = |v: &Value| -> Vec<u64> {
        v["log"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["k"].as_u64().unwrap())
            .collect()
    };
    let total = (n + 1) as u64;
    let fresh = play.gm_since(0);
    assert_eq!(fresh["log_total"], total);
    assert_eq!(
        ks(&fresh),
        ((total - LOG_WINDOW as u64 + 1)..=total).collect::<Vec<_>>()
    );
    assert_eq!(fresh["struck"], json!([n]));
    let new = play.gm_since(n - 1);
    assert_eq!(ks(&new), vec![n as u64, total]);
    assert_eq!(new["log"][0]["struck"], true);
    assert!(ks(&play.gm_since(n + 1)).is_empty());
    assert!(ks(&play.gm_since(10_000)).is_empty());
    // Everything but the log is the same whatever the cursor.
    let (mut a, mut b) = (fresh.clone(), new.clone());
    a["log"] = json!(null);
    b["log"] = json!(null);
    assert_eq!(a, b);
    // The session keeps the newest lines and the last rolls whole only.
    assert_eq!(play.lines.len(), LOG_WINDOW);
    assert_eq!(play.recent.len(), super::views::RESULTS);
    assert_eq!(play.entries.len(), n + 1);
}
