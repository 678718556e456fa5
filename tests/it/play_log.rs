//! Issue 40: a session played with `play` leaves a play log, and `record
//! N` makes the record from it — here a log written by hand into a
//! prepped campaign, recorded through the real binary (twice: the same
//! bytes), never over a record edited by hand, a damaged log named by
//! its line, and `prep` making the next session from the record.

use crate::campaign_play::{ok_in, pack};
use crate::common::{run_in, stderr, temp_dir};

#[test]
fn record_n_fills_the_record_from_the_play_log_and_prep_goes_on_from_it() {
    let base = temp_dir("play-log");
    ok_in(&base, &["init", "camp"]);
    let camp = base.join("camp");
    ok_in(&camp, &["prep"]);
    let p1 = pack(&camp, 1);
    let legs = p1["campaign"]["after"]["legs"].as_array().unwrap();
    let stop = legs[1].as_str().unwrap();
    let log = camp.join("sessions/1/play.log");
    let text = format!(
        "1 met address=\"encounter/1\"\n\
         2 damage pc=\"Ada\" amount=3 → Mettle 7 → 4\n\
         3 met address=\"npc/2\"\n\
         4 status pc=\"Ada\" status=\"Shaken\" on=true\n\
         5 supplies money=12 rations=0 water=0\n\
         6 damage pc=\"Cress\" amount=1 → Mettle 8 → 7\n\
         7 undo k=6 → strikes 6\n\
         8 arrive stop=\"{stop}\" day=4\n"
    );
    std::fs::write(&log, &text).unwrap();

    let said = ok_in(&camp, &["record", "1"]);
    assert!(said.contains("from the play log"), "{said}");
    let path = camp.join("sessions/1/record.toml");
    let record = std::fs::read_to_string(&path).unwrap();
    for line in [
        "day = 4 ".to_owned(),
        format!("stop = \"{stop}\""),
        "met = [\"encounter/1\"]".into(),
        "npcs_met = [\"npc/2\"]".into(),
        "money = 12 ".into(),
        "statuses = [\"Shaken\"]".into(),
    ] {
        assert!(record.contains(&line), "{line}\n{record}");
    }
    let ada = &record[record.find("name = \"Ada\"").unwrap()..];
    assert!(ada.contains("damage = 3 "), "{ada}");
    let cress = &record[record.find("name = \"Cress\"").unwrap()..];
    assert!(
        cress.contains("damage = 0 "),
        "the struck damage counts: {cress}"
    );

    // Again: the same bytes, nothing written.
    let said = ok_in(&camp, &["record", "1"]);
    assert!(
        said.contains("already holds what the play log says"),
        "{said}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), record);

    // A hand edit is never overwritten: the conflict is named.
    let edited = record.replace("money = 12 ", "money = 10 ");
    std::fs::write(&path, &edited).unwrap();
    let o = run_in(&camp, &["record", "1"]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(e.contains("record.toml:"), "{e}");
    assert!(e.contains("was edited by hand, and the play log"), "{e}");
    assert!(e.contains("money = 10"), "{e}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
    std::fs::write(&path, &record).unwrap();

    // A damaged log is named by its line; nothing is written.
    std::fs::write(&log, text.replace("amount=3", "amount=4")).unwrap();
    let o = run_in(&camp, &["record", "1"]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(e.contains("play.log:2:1"), "{e}");
    assert!(e.contains("does not replay to what it says"), "{e}");
    std::fs::write(&log, &text).unwrap();

    // The next session starts where the log left the party.
    ok_in(&camp, &["prep"]);
    let c2 = &pack(&camp, 2)["campaign"];
    assert_eq!(c2["day"], 4);
    assert_eq!(c2["stop"], stop);
}

/// One action posted to `play` at `port`: its answer's `k` and line, or
/// `None` when the server was gone before it answered.
fn post(port: u16, token: &str, action: &str) -> Option<(u64, String)> {
    use std::io::{Read, Write};
    let mut c = std::net::TcpStream::connect(("127.0.0.1", port)).ok()?;
    let head = format!(
        "POST /api/act HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Tablewright-Token: {token}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{action}",
        action.len()
    );
    c.write_all(head.as_bytes()).ok()?;
    let mut out = String::new();
    c.read_to_string(&mut out).ok()?;
    let (head, body) = out.split_once("\r\n\r\n")?;
    assert!(head.starts_with("HTTP/1.1 200"), "{out}");
    let v: serde_json::Value = serde_json::from_str(body).ok()?;
    Some((v["k"].as_u64()?, v["line"].as_str()?.to_owned()))
}

#[test]
fn a_kill_in_the_middle_of_a_burst_keeps_every_confirmed_action_and_the_log_replays() {
    use crate::play_browser::{interrupt, play, port_of};
    let base = temp_dir("play-burst");
    ok_in(&base, &["init", "camp"]);
    let camp = base.join("camp");
    ok_in(&camp, &["prep"]);
    let (server, gm_url, _) = play(&camp, &[]);
    let port = port_of(&gm_url);
    let token = gm_url.rsplit_once("#t=").unwrap().1.to_string();
    // Four clients at once, each a burst of rolls and marks.
    let bursts: Vec<_> = (0..4)
        .map(|i| {
            let token = token.clone();
            std::thread::spawn(move || {
                let mut confirmed = Vec::new();
                for j in 0..400 {
                    let action = match (i + j) % 3 {
                        0 => r#"{"do":"dice","expr":"3d6"}"#,
                        1 => r#"{"do":"supplies","money":1}"#,
                        _ => r#"{"do":"check","pc":"Ada","pool":"4D","difficulty":3}"#,
                    };
                    match post(port, &token, action) {
                        Some(done) => confirmed.push(done),
                        None => break,
                    }
                }
                confirmed
            })
        })
        .collect();
    let log = camp.join("sessions/1/play.log");
    let began = std::time::Instant::now();
    while std::fs::read_to_string(&log).map_or(0, |t| t.lines().count()) < 100 {
        assert!(
            began.elapsed().as_secs() < 60,
            "the burst never reached 100 lines"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let pid = server.0.id().to_string();
    let killed = std::process::Command::new("kill")
        .args(["-KILL", &pid])
        .status();
    assert!(killed.unwrap().success());
    let confirmed: Vec<(u64, String)> =
        bursts.into_iter().flat_map(|b| b.join().unwrap()).collect();
    assert!(confirmed.len() >= 90, "{}", confirmed.len());
    drop(server);

    // Every action answered 200 is in the log, as its answer said.
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    for (k, line) in &confirmed {
        assert_eq!(
            lines.get(*k as usize - 1),
            Some(&line.as_str()),
            "action {k}"
        );
    }
    // The log replays: `play` starts again from it and goes on numbering.
    let whole = text.rfind('\n').map_or(0, |i| i + 1);
    let kept = text[..whole].lines().count() as u64;
    let (mut again, gm_url, _) = play(&camp, &[]);
    let token = gm_url.rsplit_once("#t=").unwrap().1.to_string();
    let (k, _) = post(port_of(&gm_url), &token, r#"{"do":"dice","expr":"1d6"}"#).unwrap();
    assert_eq!(k, kept + 1);
    assert!(interrupt(&mut again).success());
    ok_in(&camp, &["record", "1"]);
}
