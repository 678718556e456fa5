//! What `play` refuses, each message pinned: a bad action of every kind
//! (nothing is written for it), and every fault of a damaged play log
//! (named by file and line). And the players' view leaking nothing of
//! any kind of item.

use serde_json::{Value, json};

use super::Play;
use super::api::Table;
use super::tests::{campaign, open};

#[test]
fn every_bad_action_is_refused_with_its_message_and_writes_nothing() {
    let (root, ws) = campaign("refusals");
    let log = root.join("sessions/1/play.log");
    let mut play = open(&ws, &log);
    let check = play
        .act(&json!({"do": "check", "pc": "Ada", "pool": "9D", "difficulty": 0}))
        .unwrap();
    let roll = play.act(&json!({"do": "dice", "expr": "d6"})).unwrap();
    let before = std::fs::read(&log).unwrap();
    let (ck, rk) = (&check["k"], &roll["k"]);
    let cases = [
        bad_shapes(),
        bad_checks(ck, rk),
        bad_marks(),
        bad_table_moves(rk),
    ];
    for (action, said) in cases.into_iter().flatten() {
        let e = play.act(&action).unwrap_err();
        assert!(e.contains(said), "{action}: {e}");
    }
    assert_eq!(
        std::fs::read(&log).unwrap(),
        before,
        "a refused action wrote to the log"
    );
    assert_eq!(play.entries.len(), 2);
}

#[test]
fn an_action_refused_for_what_the_session_holds_says_why() {
    let (root, ws) = campaign("refusals-held");
    let mut play = open(&ws, &root.join("sessions/1/play.log"));
    // Twice the same mark, and a stop past the day.
    play.act(&json!({"do": "met", "address": "trap/1"}))
        .unwrap();
    let e = play
        .act(&json!({"do": "met", "address": "trap/1"}))
        .unwrap_err();
    assert!(e.contains("trap/1 is marked met already"), "{e}");
    let stop = play.fixed.after.as_ref().unwrap().legs[1].clone();
    let e = play
        .act(&json!({"do": "arrive", "stop": stop.to_uppercase(), "day": 5}))
        .unwrap_err();
    assert!(e.contains("write its name as the map does"), "{e}");
    // The journey's end on the day the session started: too far by road,
    // refused at the table as the record's check would refuse it.
    let end = play
        .fixed
        .after
        .as_ref()
        .unwrap()
        .legs
        .last()
        .unwrap()
        .clone();
    let first = play.fixed.day;
    let e = play
        .act(&json!({"do": "arrive", "stop": end, "day": first}))
        .unwrap_err();
    assert!(
        e.contains(&format!(
            "the party could not have reached {end} by day {first}"
        )) && e.contains("by road from")
            && e.contains("at the soonest"),
        "{e}"
    );
    play.act(&json!({"do": "tracker", "op": "start"})).unwrap();
    let e = play
        .act(&json!({"do": "tracker", "op": "set", "name": "Ada"}))
        .unwrap_err();
    assert!(e.contains("`tracker` `set` needs `now`"), "{e}");
    let e = play
        .act(&json!({"do": "tracker", "op": "set", "name": "Zed", "now": 1}))
        .unwrap_err();
    assert!(e.contains("`Zed` is not in the encounter"), "{e}");
    let e = play
        .act(&json!({"do": "tracker", "op": "start"}))
        .unwrap_err();
    assert!(e.contains("an encounter is running: end it first"), "{e}");
}

/// Actions of a wrong shape, an unknown kind, or a table or dice that is not.
fn bad_shapes() -> Vec<(Value, &'static str)> {
    vec![
        (json!("roll"), "an action is a JSON object with `do`"),
        (
            json!({"do": "fly"}),
            "`do` must be one of: roll, dice, check",
        ),
        (
            json!({"do": "met", "address": "encounter/1", "x": 1}),
            "`met` takes address, pc, not `x`",
        ),
        (json!({"do": "roll"}), "`roll` needs `table`"),
        (
            json!({"do": "roll", "table": "no.such"}),
            "there is no table `no.such`",
        ),
        (
            json!({"do": "dice", "expr": "2d"}),
            "`2d` is not a dice expression",
        ),
        (
            json!({"do": "dice", "expr": 7}),
            "`expr` of `dice` is text, in quotes",
        ),
    ]
}

/// Checks and Twists that cannot be made (`ck`: a check made, `rk`: a roll).
fn bad_checks(ck: &Value, rk: &Value) -> Vec<(Value, &'static str)> {
    vec![
        (
            json!({"do": "check", "pc": "Zed", "pool": "3D", "difficulty": 2}),
            "there is no PC `Zed`",
        ),
        (
            json!({"do": "check", "pc": "Ada", "pool": "3D"}),
            "a METTLE Check needs its `difficulty`",
        ),
        (
            json!({"do": "check", "pc": "Ada", "pool": "x", "difficulty": 2}),
            "`x` is not a pool of dice",
        ),
        (
            json!({"do": "check", "pc": "Ada", "pool": "3D twist", "difficulty": 2}),
            "the Twist is its own action",
        ),
        (
            json!({"do": "check", "pc": "Ada", "pool": "3D", "difficulty": 100}),
            "from 0 to 99",
        ),
        (json!({"do": "twist", "k": rk}), "is not a check"),
        (
            json!({"do": "twist", "k": ck}),
            "cannot take a Twist: only a failed METTLE Check with Edge",
        ),
        (json!({"do": "twist", "k": 99}), "there is no action 99 yet"),
        (
            json!({"do": "twist", "k": 0}),
            "`k` of `twist` is an action's number, from 1",
        ),
    ]
}

/// Marks on a PC, the purse or the road that the session cannot take.
fn bad_marks() -> Vec<(Value, &'static str)> {
    vec![
        (
            json!({"do": "damage", "pc": "Ada", "amount": 0}),
            "`amount` of `damage` is not 0",
        ),
        (
            json!({"do": "damage", "pc": "Ada", "amount": -1}),
            "Ada has lost 0 in play",
        ),
        (
            json!({"do": "damage", "pc": "Ada", "amount": "3"}),
            "`amount` of `damage` is a whole number",
        ),
        (
            json!({"do": "status", "pc": "Ada", "status": "Grumpy"}),
            "`Grumpy` is not a METTLE status",
        ),
        (
            json!({"do": "status", "pc": "Ada", "status": "Shaken", "on": false}),
            "Ada is not Shaken",
        ),
        (
            json!({"do": "status", "pc": "Ada", "status": "Shaken", "on": "yes"}),
            "`on` of `status` is true or false",
        ),
        (
            json!({"do": "spend", "serial": "XX-0000"}),
            "there is no voucher `XX-0000` in hand",
        ),
        (json!({"do": "supplies"}), "give one that is not 0"),
        (
            json!({"do": "supplies", "money": "lots"}),
            "`money` of `supplies` is shillings",
        ),
        (
            json!({"do": "supplies", "rations": -1000}),
            "rations: it cannot lose 1000",
        ),
        (
            json!({"do": "arrive", "stop": "Atlantis", "day": 9}),
            "there is no stop `Atlantis` on the map",
        ),
        (
            json!({"do": "arrive", "stop": "x", "day": 0}),
            "`day` of `arrive` is a day of the campaign",
        ),
        (
            json!({"do": "heal", "pc": "Ada"}),
            "a Heal Check is for a PC at 0 or below",
        ),
        (json!({"do": "omens", "pc": "Ada"}), "`omens` needs `spent`"),
        (
            json!({"do": "omens", "pc": "Ada", "spent": "1"}),
            "`spent` of `omens` is a whole number",
        ),
        (
            json!({"do": "omens", "pc": "Ada", "spent": 1}),
            "are the Core Rules'",
        ),
        (
            json!({"do": "corruption", "pc": "Ada", "amount": 1}),
            "are the Core Rules'",
        ),
        (
            json!({"do": "met", "address": "encounter/1", "pc": "Ada"}),
            "encounter/1 is neither",
        ),
        (
            json!({"do": "met", "address": "encounter/1", "pc": 7}),
            "`pc` of `met` is text",
        ),
    ]
}

/// Items, pushes, the tracker and undo, asked wrongly (`rk`: a roll).
fn bad_table_moves(rk: &Value) -> Vec<(Value, &'static str)> {
    vec![
        (
            json!({"do": "met", "address": "encounter/99"}),
            "there is no item `encounter/99`",
        ),
        (
            json!({"do": "met", "address": "voucher/1"}),
            "is a voucher: mark it with `spend`",
        ),
        (
            json!({"do": "push"}),
            "`push` takes either `address` (an item) or `k` (a check)",
        ),
        (
            json!({"do": "push", "k": rk}),
            "only a check's result can be shown by number",
        ),
        (
            json!({"do": "push", "address": "trap/99"}),
            "there is no item `trap/99`",
        ),
        (
            json!({"do": "tracker", "op": "next"}),
            "no encounter is running: start one",
        ),
        (
            json!({"do": "tracker", "op": "dance"}),
            "`op` of `tracker` is start, next, set or end",
        ),
        (
            json!({"do": "tracker", "op": "start", "name": "npc/1"}),
            "`npc/1` is not an encounter of this pack",
        ),
        (
            json!({"do": "undo", "k": rk}),
            "is not a mark: rolls, undos and the tracker are never undone",
        ),
        (json!({"do": "undo", "k": 99}), "there is no action 99 yet"),
        (
            json!({"do": "met", "address": "a\nb"}),
            "is one line of 1 to 200 characters",
        ),
    ]
}

/// A log with `lines` put into session 1's folder, opened.
fn opened_with(name: &str, text: &[u8]) -> String {
    let (root, ws) = campaign(name);
    let log = root.join("sessions/1/play.log");
    std::fs::write(&log, text).unwrap();
    match Play::resume(super::campaign_fixed(&ws, 1).unwrap(), &log) {
        Ok(_) => String::new(),
        Err(e) => e.to_string(),
    }
}

#[test]
fn every_fault_of_a_damaged_log_is_named_by_its_line() {
    let (root, ws) = campaign("log-faults");
    let log = root.join("sessions/1/play.log");
    let mut play = open(&ws, &log);
    play.act(&json!({"do": "dice", "expr": "3d6"})).unwrap();
    play.act(&json!({"do": "met", "address": "encounter/1"}))
        .unwrap();
    let good = std::fs::read_to_string(&log).unwrap();
    let first = good.lines().next().unwrap().to_owned();
    let edited = format!("{first}!");
    let faults: Vec<(String, &str)> = vec![
        (
            format!("{first}\nx met address=\"encounter/1\"\n"),
            "play.log:2:1: `x` is not an action's number",
        ),
        (
            format!("{first}\n3 met address=\"encounter/1\"\n"),
            "play.log:2:1: this is line 2 but says it is action 3",
        ),
        (
            format!("{first}\n2 fly address=1\n"),
            "play.log:2:1: `do` must be one of",
        ),
        (
            format!("{first}\n2 met address=encounter\n"),
            "play.log:2:1: the value of `address` is not JSON",
        ),
        (
            format!("{edited}\n"),
            "play.log:1:1: the line does not replay to what it says",
        ),
        (
            format!("{first}\n2 met address=\"encounter/99\"\n"),
            "play.log:2:1: there is no item `encounter/99`",
        ),
        (
            format!("1 dice expr=\"{}\"\n", "1".repeat(5000)),
            "bytes long, past the most a play log line may be (4096)",
        ),
    ];
    for (i, (text, said)) in faults.iter().enumerate() {
        let e = opened_with(&format!("fault-{i}"), text.as_bytes());
        assert!(e.contains(said), "{said}\n{e}");
        assert!(e.contains("put the line back as it was"), "{e}");
    }
    let e = opened_with("fault-utf8", b"1 met address=\"\xff\"\n");
    assert!(e.contains("the play log is not UTF-8 text"), "{e}");
    let many = "1 x\n".repeat(super::log::MAX_LINES + 1);
    let e = opened_with("fault-many", many.as_bytes());
    assert!(e.contains("more than 20000 lines"), "{e}");
    // A torn last line (a kill mid-write) is cut off, the rest resumed.
    std::fs::write(&log, format!("{good}3 met addr")).unwrap();
    let resumed = open(&ws, &log);
    assert_eq!(resumed.entries.len(), 2);
    assert_eq!(std::fs::read_to_string(&log).unwrap(), good);
}

#[test]
fn the_players_view_shows_no_gm_only_text_of_any_kind_of_item() {
    let (root, ws) = campaign("leak");
    let mut play = open(&ws, &root.join("sessions/1/play.log"));
    let check = play
        .act(&json!({"do": "check", "pc": "Ada", "pool": "4D", "difficulty": 3}))
        .unwrap();
    play.act(&json!({"do": "push", "k": check["k"]})).unwrap();
    let addresses: Vec<String> = play.fixed.items.iter().map(|i| i.address.clone()).collect();
    for a in &addresses {
        play.act(&json!({"do": "push", "address": a})).unwrap();
    }
    let kinds: std::collections::BTreeSet<&str> = play.fixed.items.iter().map(|i| i.kind).collect();
    for kind in ["encounter", "journey encounter", "trap", "npc", "voucher"] {
        assert!(kinds.contains(kind), "the fixture has no {kind}: {kinds:?}");
    }
    let legs = play.fixed.after.as_ref().unwrap().legs.clone();
    play.act(&json!({"do": "arrive", "stop": legs[1], "day": 3}))
        .unwrap();
    let seen = play.players().to_string();
    let pack = &play.fixed.pack;
    let mut secret: Vec<String> = vec!["Difficulty".into(), "difficulty".into(), "vs 3".into()];
    let encounters = pack
        .encounters
        .iter()
        .chain(pack.journey_encounters().into_iter().map(|(_, e)| e));
    for e in encounters {
        secret.push(e.situation.text.clone());
        secret.push(e.threat.verdict.clone());
        secret.extend(e.hazard.as_ref().map(crate::wording::perils::hazard));
        secret.extend(
            e.trap
                .iter()
                .flat_map(|t| [t.trigger.clone(), t.effect.clone()]),
        );
    }
    for t in &pack.traps {
        // The name too: it says the mechanism ("Flooding chamber on a tripwire").
        secret.extend([
            t.name.clone(),
            t.trigger.clone(),
            t.clue.clone(),
            t.effect.clone(),
        ]);
        secret.extend(t.disarm.clone());
    }
    secret.extend(pack.npcs.iter().map(|n| n.concept.clone()));
    // A person's secret, and every trait but the look, is the GM's.
    let people = pack.npcs.iter().chain(
        pack.encounters
            .iter()
            .flat_map(|e| e.foes.iter().chain(&e.others)),
    );
    let mut secrets = 0;
    for n in people {
        secrets += usize::from(n.traits.secret.is_some());
        secret.extend(n.traits.secret.clone());
        secret.extend(n.traits.want.clone());
        secret.extend(n.traits.manner.clone());
    }
    assert!(secrets > 0, "the fixture's people keep no secret");
    // Stops the party neither visited nor heard of.
    let map = pack.map.as_ref().unwrap();
    let reveal = super::views::reveal_now(&play);
    let unknown: Vec<&str> = map
        .stops
        .iter()
        .filter(|s| !reveal.knows_stop(s.id))
        .map(|s| s.name.as_str())
        .collect();
    assert!(
        !unknown.is_empty(),
        "every stop is known: the test shows nothing"
    );
    secret.extend(unknown.iter().map(|s| s.to_string()));
    for s in secret.iter().filter(|s| s.len() > 3) {
        let escaped = serde_json::to_string(s).unwrap();
        let escaped = escaped.trim_matches('"');
        assert!(
            !seen.contains(escaped),
            "the players' view shows GM-only `{s}`"
        );
    }
    // What they may see is there: the stop arrived at, the pushed names.
    assert!(reveal.visited(map.stop_named(&legs[1]).unwrap().id));
    let word = legs[1].split(' ').max_by_key(|w| w.len()).unwrap();
    assert!(
        seen.contains(word),
        "the stop arrived at is not shown: {word}"
    );
    assert!(seen.contains(&pack.npcs[0].name), "no NPC pushed");
    assert!(seen.contains("Ada's check"), "no check pushed");
    assert_eq!(
        play.players()["handouts"].as_array().unwrap().len(),
        addresses.len() + 1
    );
}

#[test]
fn a_foe_less_encounter_pushed_says_nothing_of_whom_it_faces() {
    let (root, ws) = campaign("foeless");
    let play = open(&ws, &root.join("sessions/1/play.log"));
    let pack = &play.fixed.pack;
    let mut e = (pack.encounters.iter())
        .chain(pack.journey_encounters().into_iter().map(|(_, e)| e))
        .find(|e| !e.foes.is_empty())
        .expect("an encounter with foes")
        .clone();
    let item = super::load::encounter("encounter/1".into(), "encounter", &e);
    assert!(item.players.1.starts_with("Facing: "), "{:?}", item.players);
    e.foes.clear();
    let item = super::load::encounter("encounter/1".into(), "encounter", &e);
    assert_eq!(item.players, ("Encounter".to_string(), String::new()));
}
