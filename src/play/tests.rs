//! Tests of a session in play, on a campaign made as a GM makes one
//! (`init`, then `prep`): the replay of a scripted session, the players'
//! view leaking nothing, every refused action and every damaged log line.

use std::path::{Path, PathBuf};

use clap::Parser;
use serde_json::{Value, json};

use super::api::Table;
use super::{Play, campaign_fixed, record};
use crate::cli::Cli;
use crate::workspace::Workspace;

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tw-play-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Run the command `args` in the campaign at `root` (or none).
fn run(args: &[&str], root: Option<&Path>) -> Workspace {
    let argv = std::iter::once("tablewright").chain(args.iter().copied());
    let cli = Cli::try_parse_from(argv).unwrap();
    let (mut ws, request) = crate::app::request::read(&cli).unwrap();
    if let Some(root) = root {
        ws = ws.with_campaign(root.to_owned()).unwrap();
    }
    let (mut out, mut err) = (Vec::new(), Vec::new());
    crate::app::run_request(&ws, request, &mut out, &mut err)
        .unwrap_or_else(|e| panic!("{args:?}: {e}"));
    ws
}

/// A METTLE campaign (`init`), session 1 prepped; its workspace.
pub(super) fn campaign(name: &str) -> (PathBuf, Workspace) {
    campaign_of(name, "mettle")
}

/// A campaign of the rules `system` (`init --system`), session 1
/// prepped; its workspace.
pub(super) fn campaign_of(name: &str, system: &str) -> (PathBuf, Workspace) {
    let root = scratch(name).join("camp");
    run(&["init", "--system", system, root.to_str().unwrap()], None);
    let ws = run(&["prep"], Some(&root));
    (root, ws)
}

pub(super) fn open(ws: &Workspace, log: &Path) -> Play {
    Play::resume(campaign_fixed(ws, 1).unwrap(), log).unwrap()
}

/// The scripted session: every action of the GM's screen once, a
/// Twist taken, a Heal Check made, a mark struck.
fn script(play: &mut Play) -> Vec<Value> {
    let table = play.fixed.pack.encounters[0].situation.table.clone();
    let serial = play.fixed.vouchers[0].0.clone();
    let stop = play.fixed.after.as_ref().unwrap().legs[1].clone();
    let day = play.fixed.day + 2;
    let max = play.fixed.pcs[0].now;
    let mut answers = Vec::new();
    let mut act = |play: &mut Play, a: Value| {
        let answer = play.act(&a).unwrap_or_else(|e| panic!("{a}: {e}"));
        answers.push(answer.clone());
        answer
    };
    act(play, json!({"do": "roll", "table": table}));
    act(play, json!({"do": "dice", "expr": "2d6+1"}));
    // Checks until one fails with Edge, then its Twist.
    for _ in 0..40 {
        let a = act(
            play,
            json!({"do": "check", "pc": "Ada", "pool": "3D", "difficulty": 4}),
        );
        if a["result"]["twist_offered"] == json!(true) {
            act(play, json!({"do": "twist", "k": a["k"]}));
            act(play, json!({"do": "push", "k": a["k"]}));
            break;
        }
    }
    act(play, json!({"do": "met", "address": "encounter/1"}));
    act(play, json!({"do": "met", "address": "npc/1"}));
    let wrong = act(play, json!({"do": "damage", "pc": "Cress", "amount": 2}));
    act(play, json!({"do": "undo", "k": wrong["k"]}));
    act(play, json!({"do": "damage", "pc": "Ada", "amount": 3}));
    act(
        play,
        json!({"do": "status", "pc": "Ada", "status": "Shaken", "on": true}),
    );
    act(play, json!({"do": "spend", "serial": serial}));
    act(play, json!({"do": "supplies", "money": "+12s"}));
    act(play, json!({"do": "supplies", "money": -5}));
    act(play, json!({"do": "arrive", "stop": stop, "day": day}));
    act(play, json!({"do": "push", "address": "npc/1"}));
    act(
        play,
        json!({"do": "tracker", "op": "start", "name": "encounter/1"}),
    );
    act(play, json!({"do": "tracker", "op": "next", "name": "Ada"}));
    act(
        play,
        json!({"do": "tracker", "op": "set", "name": "Ada", "now": 1}),
    );
    act(play, json!({"do": "tracker", "op": "end"}));
    act(
        play,
        json!({"do": "damage", "pc": "Ada", "amount": max - 3}),
    );
    act(play, json!({"do": "heal", "pc": "Ada", "twist": true}));
    answers
}

#[test]
fn a_scripted_session_replays_to_the_same_rolls_views_and_record() {
    let (root, ws) = campaign("replay");
    let log = root.join("sessions/1/play.log");
    let mut play = open(&ws, &log);
    let answers = script(&mut play);
    let written = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = answers
        .iter()
        .map(|a| a["line"].as_str().unwrap())
        .collect();
    assert_eq!(written, format!("{}\n", lines.join("\n")));
    let record = record::text(&play).unwrap();
    let (gm, players) = (play.gm(), play.players());

    // Reopened from its log: the same lines, views and record.
    let again = open(&ws, &log);
    let relines: Vec<&str> = again.lines.iter().map(String::as_str).collect();
    assert_eq!(relines, lines);
    assert_eq!(again.gm(), gm);
    assert_eq!(again.players(), players);
    assert_eq!(again.version(), play.version());
    assert!(play.version() > 0, "arrivals and pushes move the version");
    assert_eq!(record::text(&again).unwrap(), record);

    // The record holds the marks (the struck damage left out).
    let serial = &play.fixed.vouchers[0].0;
    for said in [
        "met = [\"encounter/1\"]".to_owned(),
        "npcs_met = [\"npc/1\"]".to_owned(),
        format!("vouchers_spent = [\"{serial}\"]"),
        "money = 7".to_owned(),
        "statuses = [\"Shaken\"]".to_owned(),
        format!("stop = \"{}\"", play.fixed.after.as_ref().unwrap().legs[1]),
        format!("day = {}", play.fixed.day + 2),
    ] {
        assert!(record.contains(&said), "{said}\n{record}");
    }
    let healed = Marks::of(&play).pcs[0].healed.clone().unwrap();
    let heal = match healed.passed {
        true => format!("heal_edge = {}", healed.edge),
        false => "fate = \"dead\"".into(),
    };
    assert!(record.contains(&heal), "{heal}\n{record}");
    assert!(!record.contains("damage = 2 "), "{record}");
    // The record passes the ledger's checks, as a hand-written one must.
    crate::pack::Sources::check_record(&ws, 1, &record).unwrap();
}

use super::marks::Marks;

#[test]
fn rolls_draw_from_the_sessions_own_stream_for_their_number() {
    let (root, ws) = campaign("streams");
    let mut play = open(&ws, &root.join("sessions/1/play.log"));
    let seed = play.fixed.seed.clone();
    assert_eq!(seed.as_str(), format!("{}/session/1", campaign_seed(&root)));
    let table = play.fixed.pack.encounters[0].situation.table.clone();
    let a = play.act(&json!({"do": "roll", "table": table})).unwrap();
    let own = play
        .fixed
        .library
        .roll_table(&table, &mut seed.stream("play/1"))
        .unwrap();
    assert_eq!(a["result"]["roll"], serde_json::to_value(&own).unwrap());
    // The same dice at another number are another stream's.
    let d: Vec<i64> = (0..6)
        .map(|_| {
            play.act(&json!({"do": "dice", "expr": "1d1000"})).unwrap()["result"]["value"]
                .as_i64()
                .unwrap()
        })
        .collect();
    let mut distinct = d.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert!(distinct.len() > 3, "{d:?}");
    let e = crate::dice::parse("1d1000").unwrap();
    let first = crate::dice::roll(&e, &mut seed.stream("play/2")).value();
    assert_eq!(d[0], first);
}

fn campaign_seed(root: &Path) -> String {
    let text = std::fs::read_to_string(root.join("campaign.toml")).unwrap();
    let line = text.lines().find(|l| l.starts_with("seed")).unwrap();
    line.split('"').nth(1).unwrap().to_owned()
}

#[test]
fn open_plays_the_last_prepped_session_without_a_record_or_says_why_not() {
    use super::{Source, open as open_source};
    let (root, ws) = campaign("open");
    let (table, mut held) = open_source(&ws, Source::Campaign { n: None }).unwrap();
    assert_eq!(table.gm()["session"], 1);
    assert_eq!(table.gm()["campaign"], true);
    // One writer per session: a second `play` is refused, naming the first.
    held.say("http://127.0.0.1:41873/").unwrap();
    let e = open_source(&ws, Source::Campaign { n: Some(1) })
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("serving this session already, at http://127.0.0.1:41873/"),
        "{e}"
    );
    let (plain, _plain_held) = open_source(&ws, Source::Pack(root.join("out/session-1"))).unwrap();
    assert!(
        plain.gm()["title"].as_str().unwrap().contains(
            table.gm()["title"]
                .as_str()
                .unwrap()
                .split(" — ")
                .next()
                .unwrap()
        )
    );
    let e = open_source(&ws, Source::Campaign { n: Some(2) })
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("there is no session to play: session 2 was never prepped"),
        "{e}"
    );
    std::fs::write(
        root.join("sessions/1/record.toml"),
        "session = 1\nday = 1\n",
    )
    .unwrap();
    let e = open_source(&ws, Source::Campaign { n: Some(1) })
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("session 1 has a record already"), "{e}");
}

#[test]
fn a_failed_append_leaves_the_log_as_it_was_and_the_next_appends_cleanly() {
    let (root, ws) = campaign("full");
    let log = root.join("sessions/1/play.log");
    let mut play = open(&ws, &log);
    play.act(&json!({"do": "dice", "expr": "2d6"})).unwrap();
    let before = std::fs::read(&log).unwrap();
    // The disk fills part-way through the line.
    play.log.as_mut().unwrap().fault = Some(9);
    let e = play.act(&json!({"do": "dice", "expr": "1d6"})).unwrap_err();
    assert_eq!(
        std::fs::read(&log).unwrap(),
        before,
        "nothing of the line left"
    );
    assert_eq!(e.status(), 507, "{e}");
    assert!(e.contains("No space left") && e.contains("not done"), "{e}");
    assert_eq!(play.entries.len(), 1, "the action was not done");
    // Space freed: the next action appends cleanly, as action 2.
    let a = play.act(&json!({"do": "dice", "expr": "1d6"})).unwrap();
    assert_eq!(a["k"], 2);
    let text = std::fs::read_to_string(&log).unwrap();
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(text.starts_with(std::str::from_utf8(&before).unwrap()));
    drop(play);
    let again = open(&ws, &log);
    assert_eq!(again.entries.len(), 2, "the log replays");
}

/// How many dice to roll before Ada falls (one damage) so that her plain
/// Heal Check, the action after, fails with Edge.
fn dice_before_a_failed_heal(play: &Play) -> usize {
    let pool = play.fixed.heal[0].pool;
    let e = crate::dice::parse(&format!("{pool}D vs 3")).unwrap();
    (0..200)
        .find(|j| {
            let rolled =
                crate::dice::roll(&e, &mut play.fixed.seed.stream(&format!("play/{}", j + 2)));
            let crate::dice::roll::Outcome::Pool(p) = rolled.outcome else {
                unreachable!()
            };
            p.success == Some(false) && p.edge > 0
        })
        .expect("a failed Heal Check with Edge in 200 streams")
}

/// Ada fallen and her plain Heal Check failed with Edge: its answer.
fn failed_heal(play: &mut Play) -> Value {
    for _ in 0..dice_before_a_failed_heal(play) {
        play.act(&json!({"do": "dice", "expr": "1d6"})).unwrap();
    }
    let max = play.fixed.pcs[0].now;
    play.act(&json!({"do": "damage", "pc": "Ada", "amount": max + 1}))
        .unwrap();
    let heal = play
        .act(&json!({"do": "heal", "pc": "Ada", "twist": false}))
        .unwrap();
    assert_eq!(heal["result"]["passed"], false, "{heal}");
    assert_eq!(heal["result"]["twist_offered"], true, "{heal}");
    heal
}

/// The party card's fate and the record's agree.
fn card_and_record(play: &Play) -> (Value, bool) {
    let record = record::text(play).unwrap();
    (
        play.gm()["pcs"][0]["fate"].clone(),
        record
            .lines()
            .any(|l| l.trim_start().starts_with("fate = \"dead\"")),
    )
}

#[test]
fn a_heal_check_failed_with_edge_takes_its_twist_after_the_plain_roll() {
    let (root, ws) = campaign("heal-twist");
    let log = root.join("sessions/1/play.log");
    let mut play = open(&ws, &log);
    let heal = failed_heal(&mut play);
    let k = heal["k"].as_u64().unwrap();
    let gm = play.gm();
    assert_eq!(gm["results"][0]["twist_open"], true, "{}", gm["results"][0]);
    // Before the Twist, the card says what the record says: dead.
    assert_eq!(card_and_record(&play), (json!("dead"), true));

    let twist = play.act(&json!({"do": "twist", "k": k})).unwrap();
    assert_eq!(twist["result"]["twist"], true, "{twist}");
    assert_eq!(twist["result"]["odds"], heal["result"]["odds"]);
    let dice = |a: &Value| a["result"]["rolled"]["outcome"]["dice"].clone();
    assert_eq!(dice(&twist), dice(&heal), "the first dice as they fell");
    let passed = twist["result"]["passed"] == json!(true);
    let healed = play.marks.pcs[0].healed.clone().unwrap();
    assert!(healed.twist);
    assert_eq!(healed.passed, passed);
    assert_eq!(play.gm()["results"][0]["twist_open"], false);
    assert_eq!(play.gm()["results"][0]["check"], Value::Null);
    let (fate, dead) = card_and_record(&play);
    assert_eq!((fate == json!("dead"), dead), (!passed, !passed));
    let record = record::text(&play).unwrap();
    if passed {
        assert!(record.contains("heal_twist = true"), "{record}");
    }
    crate::pack::Sources::check_record(&ws, 1, &record).unwrap();
    let e = play.act(&json!({"do": "twist", "k": k})).unwrap_err();
    assert!(e.contains("was taken already"), "{e}");
    // Replayed, the same.
    let again = open(&ws, &log);
    assert_eq!(record::text(&again).unwrap(), record);
    assert_eq!(again.gm(), play.gm());
}

#[test]
fn a_heal_check_struck_with_a_reason_may_be_made_again() {
    let (root, ws) = campaign("heal-undo");
    let log = root.join("sessions/1/play.log");
    let mut play = open(&ws, &log);
    let heal = failed_heal(&mut play);
    let k = heal["k"].as_u64().unwrap();
    let undo = play
        .act(&json!({"do": "undo", "k": k, "reason": "the wrong healer"}))
        .unwrap();
    assert!(
        undo["line"].as_str().unwrap().ends_with(&format!(
            "undo k={k} reason=\"the wrong healer\" → strikes {k}: the wrong healer"
        )),
        "{undo}"
    );
    assert_eq!(play.marks.pcs[0].healed, None);
    assert_eq!(card_and_record(&play), (Value::Null, false));
    assert_eq!(play.gm()["results"][0]["twist_open"], false);
    let e = play.act(&json!({"do": "twist", "k": k})).unwrap_err();
    assert!(e.contains("is struck"), "{e}");
    let again = play
        .act(&json!({"do": "heal", "pc": "Ada", "twist": true}))
        .unwrap();
    let passed = again["result"]["passed"] == json!(true);
    assert_eq!(card_and_record(&play).1, !passed);
    let replayed = open(&ws, &log);
    assert_eq!(replayed.gm(), play.gm());
}
