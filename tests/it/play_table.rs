//! Issue 52's forgiving table in a real browser (the helpers of
//! `play_browser`): a Heal Check rolled plain fails with Edge and its
//! Twist is taken from the GM's screen, the party card then saying what
//! the record says; a mark struck with a reason; the GM's page asking the
//! server only for the log's lines after the last it has (a cursor).

use std::time::Duration;

use serde_json::{Value, json};

use crate::common::temp_dir;
use crate::play_browser::{Browser, driver, http, interrupt, ok_in, play, port_of};

/// The GM's API at `port` with `token`.
struct Api {
    port: u16,
    token: String,
}

impl Api {
    fn get(&self, path: &str) -> Value {
        let (s, body) = http(
            self.port,
            "GET",
            path,
            &format!("X-Tablewright-Token: {}\r\n", self.token),
            "",
        );
        assert_eq!(s, 200, "{path}: {body}");
        serde_json::from_str(&body).unwrap()
    }

    fn act(&self, action: &Value) -> Value {
        let (s, body) = http(
            self.port,
            "POST",
            "/api/act",
            &format!("X-Tablewright-Token: {}\r\n", self.token),
            &action.to_string(),
        );
        assert_eq!(s, 200, "{action}: {body}");
        serde_json::from_str(&body).unwrap()
    }
}

/// The first PC fallen, then Heal Checks rolled plain (each one that did
/// not fail with Edge struck again) until one fails with Edge: its number.
fn a_failed_heal(api: &Api, pc: &str) -> u64 {
    let now = api.get("/api/gm")["pcs"][0]["track"]["now"]
        .as_i64()
        .unwrap();
    api.act(&json!({"do": "damage", "pc": pc, "amount": now}));
    for _ in 0..60 {
        let a = api.act(&json!({"do": "heal", "pc": pc, "twist": false}));
        let k = a["k"].as_u64().unwrap();
        if a["result"]["twist_offered"] == json!(true) {
            return k;
        }
        api.act(&json!({"do": "undo", "k": k, "reason": "rolled again for the test"}));
    }
    panic!("no Heal Check failed with Edge in 60 tries");
}

#[test]
fn a_failed_heal_checks_twist_and_a_struck_mark_taken_in_the_browser() {
    let Some((_driver, wd_port)) = driver() else {
        return;
    };
    let base = temp_dir("play-table");
    ok_in(&base, &["init", "camp"]);
    let camp = base.join("camp");
    ok_in(&camp, &["prep"]);
    let (mut server, gm_url, _) = play(&camp, &[]);
    let api = Api {
        port: port_of(&gm_url),
        token: gm_url.rsplit_once("#t=").unwrap().1.to_string(),
    };
    let pc = api.get("/api/gm")["pcs"][0]["name"]
        .as_str()
        .unwrap()
        .to_string();
    let heal = a_failed_heal(&api, &pc);

    let gm = Browser::open(wd_port, &base.join("profile-gm"), "1280,900");
    gm.go(&gm_url);
    // Before the Twist the card says what the record would: dead.
    gm.until(
        "const f = document.querySelector('#pcs .pc .fate'); return f && /Dead/.test(f.textContent)",
        Duration::from_secs(10),
    );
    // The Twist, from "Last result".
    gm.until(
        "return document.querySelector('#twist button.warn') !== null",
        Duration::from_secs(10),
    );
    gm.click("#twist button.warn");
    gm.until(
        &format!(
            "return [...document.querySelectorAll('#log li')].some(l => / twist k={heal} /.test(l.textContent))"
        ),
        Duration::from_secs(10),
    );
    let view = api.get("/api/gm");
    let passed = view["pcs"][0]["healed"]["passed"] == json!(true);
    assert_eq!(
        view["pcs"][0]["healed"]["twist"], true,
        "{}",
        view["pcs"][0]
    );
    let card = gm
        .until(
            "const f = document.querySelector('#pcs .pc .fate'); return f && f.textContent",
            Duration::from_secs(10),
        )
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(card.starts_with("Stable"), passed, "{card}");
    assert!(
        gm.js("return document.querySelector('#twist button.warn')")
            .is_null()
    );

    // A mark struck, with a reason typed above the log.
    let address = view["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["serial"].is_null())
        .unwrap()["address"]
        .as_str()
        .unwrap()
        .to_string();
    gm.click(&format!(
        "#items li[data-address=\"{address}\"] .buttons button"
    ));
    gm.until(
        &format!(
            "return document.querySelector('#items li[data-address=\"{address}\"]').classList.contains('met')"
        ),
        Duration::from_secs(10),
    );
    let met = api.get("/api/gm")["log_total"].as_u64().unwrap();
    gm.until(
        &format!("return document.querySelector('#log li[value=\"{met}\"] button') !== null"),
        Duration::from_secs(10),
    );
    gm.js("document.getElementById('undo-reason').value = 'met by mistake'; return 1");
    gm.click(&format!("#log li[value=\"{met}\"] button"));
    gm.until(
        &format!(
            "return document.querySelector('#log li[value=\"{met}\"]').classList.contains('struck')"
        ),
        Duration::from_secs(10),
    );
    let last = api.get(&format!("/api/gm?since={met}"));
    let line = last["log"][0]["line"].as_str().unwrap();
    assert!(
        line.ends_with(&format!(
            "undo k={met} reason=\"met by mistake\" → strikes {met}: met by mistake"
        )),
        "{line}"
    );
    assert_eq!(last["log"].as_array().unwrap().len(), 1, "only what is new");
    assert!(last["struck"].as_array().unwrap().contains(&json!(met)));

    // The page asked for what was new only: after its first load, every
    // `/api/gm` it fetched carried the last line it had.
    let asked = gm.js(
        "return performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes('/api/gm'))",
    );
    let asked: Vec<&str> = asked
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(asked[0].ends_with("/api/gm?since=0"), "{asked:?}");
    assert!(
        asked[1..].iter().all(|a| !a.ends_with("since=0")),
        "{asked:?}"
    );
    let shown = gm.js("return document.querySelectorAll('#log li').length");
    assert_eq!(shown, json!(met + 1), "every line once");
    drop(gm);

    let status = interrupt(&mut server);
    assert!(status.success(), "{status:?}");
    ok_in(&camp, &["record", "1"]);
    let record = std::fs::read_to_string(camp.join("sessions/1/record.toml")).unwrap();
    let dead = record
        .lines()
        .any(|l| l.trim_start().starts_with("fate = \"dead\""));
    assert_eq!(dead, !passed, "{record}");
    let marked = record
        .lines()
        .filter(|l| l.starts_with("met = ") || l.starts_with("npcs_met = "));
    for l in marked {
        assert!(
            !l.contains(&format!("\"{address}\"")),
            "the struck mark: {l}"
        );
    }
}
