//! Tests of what the Core Rules mark in play (issue 51, finding 8): an
//! injury or a mutation met goes to the PC the GM names, omens spent and
//! corruption gained reach the record, and a PC's track in the encounter
//! tracker is the party's (damage entered once, wherever it is entered).

use serde_json::{Value, json};

use super::api::Table;
use super::tests::{campaign, campaign_of, open};
use super::{Play, record};

/// The `[[pc]]` entry named `name` of a record's text.
fn entry(record: &str, name: &str) -> toml::Table {
    let t: toml::Table = toml::from_str(record).unwrap_or_else(|e| panic!("{e}\n{record}"));
    t["pc"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"].as_str() == Some(name))
        .unwrap_or_else(|| panic!("no [[pc]] {name}\n{record}"))
        .as_table()
        .unwrap()
        .clone()
}

fn refused(play: &mut Play, action: Value) -> String {
    match play.act(&action) {
        Ok(a) => panic!("{action} was done: {a}"),
        Err(e) => e.message,
    }
}

#[test]
fn a_core_injury_met_in_play_goes_to_the_pc_named_with_omens_and_corruption() {
    let (root, ws) = campaign_of("core-marks", "core");
    let log = root.join("sessions/1/play.log");
    let mut play = open(&ws, &log);
    let injury = play
        .fixed
        .items
        .iter()
        .find(|i| i.kind == "injury")
        .expect("a Core pack has an injury slip")
        .address
        .clone();
    let (ada, bo) = (
        play.fixed.pcs[0].name.clone(),
        play.fixed.pcs[1].name.clone(),
    );
    let had = play.fixed.pcs[1].omens.expect("a Core PC's omens");
    assert!(had >= 1, "the party's PCs start with omens");

    // Who took it must be said; only a slip is taken by a PC.
    let said = refused(&mut play, json!({"do": "met", "address": injury}));
    assert!(said.contains("give `pc`"), "{said}");
    let said = refused(
        &mut play,
        json!({"do": "met", "address": "encounter/1", "pc": ada}),
    );
    assert!(said.contains("is neither"), "{said}");
    play.act(&json!({"do": "met", "address": injury, "pc": bo}))
        .unwrap();
    // Omens: no more than the PC has; corruption: a gain.
    play.act(&json!({"do": "omens", "pc": bo, "spent": 1}))
        .unwrap();
    let said = refused(&mut play, json!({"do": "omens", "pc": bo, "spent": had}));
    assert!(said.contains("cannot spend"), "{said}");
    assert!(
        refused(
            &mut play,
            json!({"do": "corruption", "pc": bo, "amount": 0})
        )
        .contains("from 1")
    );
    play.act(&json!({"do": "corruption", "pc": bo, "amount": 2}))
        .unwrap();
    let wrong = play
        .act(&json!({"do": "corruption", "pc": ada, "amount": 1}))
        .unwrap();
    play.act(&json!({"do": "undo", "k": wrong["k"], "reason": "Bo's, not Ada's"}))
        .unwrap();

    let gm = play.gm();
    let card = &gm["pcs"][1];
    assert_eq!(card["omens"], json!(had - 1), "{card}");
    assert_eq!(card["corruption"], json!(2), "{card}");
    assert_eq!(card["injuries"], json!([injury]), "{card}");
    assert_eq!(gm["pcs"][0]["corruption"], json!(0), "struck");

    let text = record::text(&play).unwrap();
    let theirs = entry(&text, &bo);
    assert_eq!(
        theirs["injuries"],
        toml::Value::from(vec![injury.clone()]),
        "{text}"
    );
    assert_eq!(theirs["omens"], toml::Value::from(1), "{text}");
    assert_eq!(theirs["corruption"], toml::Value::from(2), "{text}");
    let other = entry(&text, &ada);
    assert_eq!(other["corruption"], toml::Value::from(0), "{text}");
    assert_eq!(other["injuries"], toml::Value::Array(vec![]), "{text}");
    // The record made from the log is one the ledger accepts.
    crate::pack::Sources::check_record(&ws, 1, &text).unwrap();
    // And the same from the log read back.
    let again = open(&ws, &log);
    assert_eq!(record::text(&again).unwrap(), text);
}

#[test]
fn a_log_line_of_an_injury_met_without_a_pc_still_replays() {
    // A log written before the PC was asked for: it replays as it is (the
    // injury met, given to no one), and only a new action must name one.
    let (root, ws) = campaign_of("core-old-line", "core");
    let log = root.join("sessions/1/play.log");
    let fixed = super::campaign_fixed(&ws, 1).unwrap();
    let injury = fixed
        .items
        .iter()
        .find(|i| i.kind == "injury")
        .unwrap()
        .address
        .clone();
    let line = format!("1 met address=\"{injury}\"\n");
    std::fs::write(&log, &line).unwrap();
    let play = open(&ws, &log);
    assert_eq!(play.lines.iter().next().unwrap(), line.trim_end());
    assert!(play.marks.met.contains(&injury));
    assert!(play.marks.pcs.iter().all(|p| p.injuries.is_empty()));
}

#[test]
fn omens_and_corruption_are_the_core_rules_only() {
    let (root, ws) = campaign("mettle-no-omens");
    let mut play = open(&ws, &root.join("sessions/1/play.log"));
    let pc = play.fixed.pcs[0].name.clone();
    for action in [
        json!({"do": "omens", "pc": pc, "spent": 1}),
        json!({"do": "corruption", "pc": pc, "amount": 1}),
    ] {
        assert!(refused(&mut play, action).contains("the Core Rules'"));
    }
}

#[test]
fn a_pcs_track_in_the_tracker_is_the_partys_entered_once() {
    let (root, ws) = campaign("tracker-party");
    let mut play = open(&ws, &root.join("sessions/1/play.log"));
    let pc = play.fixed.pcs[0].name.clone();
    let start = play.fixed.pcs[0].now;
    play.act(&json!({"do": "tracker", "op": "start", "name": "encounter/1"}))
        .unwrap();
    let track = |play: &Play| -> (i64, i64) {
        let gm = play.gm();
        let c = gm["tracker"]["combatants"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == json!(pc))
            .unwrap()
            .clone();
        (
            c["track"]["now"].as_i64().unwrap(),
            gm["pcs"][0]["track"]["now"].as_i64().unwrap(),
        )
    };
    // Set in the tracker: the party card says it too.
    play.act(&json!({"do": "tracker", "op": "set", "name": pc, "now": start - 2}))
        .unwrap();
    assert_eq!(track(&play), (start - 2, start - 2));
    // Damage on the party card: the tracker says it too.
    play.act(&json!({"do": "damage", "pc": pc, "amount": 1}))
        .unwrap();
    assert_eq!(track(&play), (start - 3, start - 3));
    // No more healed in the tracker than was lost in play.
    let said = refused(
        &mut play,
        json!({"do": "tracker", "op": "set", "name": pc, "now": start + 1}),
    );
    assert!(said.contains("no more than that can be healed"), "{said}");
    play.act(&json!({"do": "tracker", "op": "end"})).unwrap();
    // The record counts the damage once: 3, not 2 + 1 + what the tracker said.
    let text = record::text(&play).unwrap();
    assert_eq!(entry(&text, &pc)["damage"], toml::Value::from(3), "{text}");
    crate::pack::Sources::check_record(&ws, 1, &text).unwrap();
}

#[test]
fn a_log_that_healed_a_pc_past_their_start_in_the_tracker_still_replays() {
    // Before the tracker and the party were one, a PC could be set above
    // where they started: such a log replays, counting no damage below 0.
    let (root, ws) = campaign("tracker-old-log");
    let log = root.join("sessions/1/play.log");
    let mut play = open(&ws, &log);
    let pc = play.fixed.pcs[0].name.clone();
    let start = play.fixed.pcs[0].now;
    play.act(&json!({"do": "tracker", "op": "start", "name": "encounter/1"}))
        .unwrap();
    drop(play);
    let mut text = std::fs::read_to_string(&log).unwrap();
    text.push_str(&format!(
        "2 tracker op=\"set\" name={} now={}\n",
        json!(pc),
        start + 2
    ));
    std::fs::write(&log, &text).unwrap();
    let play = open(&ws, &log);
    assert_eq!(play.marks.pcs[0].damage, 0);
    assert_eq!(play.gm()["pcs"][0]["track"]["now"], json!(start));
}
