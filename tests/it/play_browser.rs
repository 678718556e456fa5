//! `tablewright play` in a real browser: Debian's Chromium, headless,
//! driven through chromedriver's WebDriver HTTP protocol (a small client
//! here over std::net). The GM's screen rolls a table, marks an encounter
//! met, 3 damage on a PC and an arrival; the players' screen, open at the
//! same time, shows the newly visited stop within a second and no GM-only
//! text; the server stops on Ctrl-C, `record N` holds those marks and
//! `prep` makes the next session. Without Chromium and chromedriver the
//! test says it skips — a failure when `TABLEWRIGHT_REQUIRE_BROWSER=1`
//! (as in CI) — and `play`'s bad input is tested without a browser.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{run_in, stderr, stdout, temp_dir};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

pub(crate) fn ok_in(dir: &Path, args: &[&str]) -> String {
    let o = run_in(dir, args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// A child process killed when the test ends, however it ends.
pub(crate) struct Guard(pub(crate) Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// One HTTP/1.1 exchange on loopback: (status, body).
pub(crate) fn http(
    port: u16,
    method: &str,
    path: &str,
    headers: &str,
    body: &str,
) -> (u16, String) {
    let mut c = TcpStream::connect(("127.0.0.1", port)).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    write!(
        c,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n{headers}\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    // chromedriver may keep the connection open: read the head, then
    // exactly Content-Length bytes (or to the end when there is none).
    let mut r = BufReader::new(c);
    let mut head = String::new();
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        head.push_str(&line);
    }
    let len = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length:")
                .map(|v| v.trim().to_string())
        })
        .and_then(|v| v.parse::<usize>().ok());
    let mut body = Vec::new();
    match len {
        Some(n) => {
            body.resize(n, 0);
            r.read_exact(&mut body).unwrap();
        }
        None => {
            let _ = r.read_to_end(&mut body);
        }
    }
    let status = head.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, String::from_utf8_lossy(&body).to_string())
}

/// One WebDriver session.
pub(crate) struct Browser {
    port: u16,
    id: String,
}

impl Browser {
    pub(crate) fn open(port: u16, profile: &Path, size: &str) -> Browser {
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ];
        let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        args.push(format!("--user-data-dir={}", profile.display()));
        args.push(format!("--window-size={size}"));
        let caps = json!({"capabilities": {"alwaysMatch": {"browserName": "chrome",
            "goog:chromeOptions": {"binary": CHROMIUM, "args": args}}}});
        let v = wd(port, "POST", "/session", &caps);
        let id = v["sessionId"]
            .as_str()
            .expect("a WebDriver session")
            .to_string();
        Browser { port, id }
    }

    fn call(&self, method: &str, path: &str, body: &Value) -> Value {
        wd(
            self.port,
            method,
            &format!("/session/{}{path}", self.id),
            body,
        )
    }

    pub(crate) fn go(&self, url: &str) {
        self.call("POST", "/url", &json!({ "url": url }));
    }

    pub(crate) fn js(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            &json!({"script": script, "args": []}),
        )
    }

    pub(crate) fn click(&self, css: &str) {
        let e = self.call(
            "POST",
            "/element",
            &json!({"using": "css selector", "value": css}),
        );
        let id = e
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {css}: {e}"))
            .to_string();
        self.call("POST", &format!("/element/{id}/click"), &json!({}));
    }

    /// Waits for a script to answer something truthy; answers it.
    pub(crate) fn until(&self, script: &str, within: Duration) -> Value {
        let began = Instant::now();
        loop {
            let v = self.js(script);
            if !(v.is_null() || v == json!(false) || v == json!(0) || v == json!("")) {
                return v;
            }
            assert!(began.elapsed() < within, "waited {within:?} for {script}");
            std::thread::sleep(Duration::from_millis(25));
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = wd(
            self.port,
            "DELETE",
            &format!("/session/{}", self.id),
            &json!({}),
        );
    }
}

fn wd(port: u16, method: &str, path: &str, body: &Value) -> Value {
    let (status, text) = http(port, method, path, "", &body.to_string());
    let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    assert_eq!(status, 200, "{method} {path}: {text}");
    v["value"].clone()
}

/// chromedriver started on a free port, or `None` (and why) without it.
pub(crate) fn driver() -> Option<(Guard, u16)> {
    let missing: Vec<&str> = [CHROMIUM, CHROMEDRIVER]
        .into_iter()
        .filter(|p| !Path::new(p).exists())
        .collect();
    if !missing.is_empty() {
        let why = format!(
            "browser test skipped: {} not installed",
            missing.join(" and ")
        );
        assert!(
            std::env::var("TABLEWRIGHT_REQUIRE_BROWSER").as_deref() != Ok("1"),
            "{why}"
        );
        eprintln!("{why} (apt-get install chromium chromium-driver)");
        return None;
    }
    let port = free_port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let guard = Guard(child);
    let began = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            began.elapsed() < Duration::from_secs(20),
            "chromedriver never listened"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    Some((guard, port))
}

/// `tablewright play` in `dir`: the running server and its two addresses.
pub(crate) fn play(dir: &Path, args: &[&str]) -> (Guard, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tablewright"))
        .arg("play")
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut next = || lines.next().expect("play printed its addresses").unwrap();
    let gm = next().rsplit_once(' ').unwrap().1.to_string();
    let players = next().rsplit_once(' ').unwrap().1.to_string();
    (Guard(child), gm, players)
}

pub(crate) fn port_of(url: &str) -> u16 {
    let rest = url.strip_prefix("http://127.0.0.1:").unwrap();
    rest.split('/').next().unwrap().parse().unwrap()
}

/// Ctrl-C, as a terminal sends it.
pub(crate) fn interrupt(g: &mut Guard) -> std::process::ExitStatus {
    let pid = g.0.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .unwrap()
            .success()
    );
    g.0.wait().unwrap()
}

#[test]
fn a_session_played_in_the_browser_is_recorded_and_the_next_prepped() {
    let Some((_driver, wd_port)) = driver() else {
        return;
    };
    let base = temp_dir("play-browser");
    ok_in(&base, &["init", "camp"]);
    let camp = base.join("camp");
    ok_in(&camp, &["prep"]);
    let (mut server, gm_url, players_url) = play(&camp, &[]);
    assert!(
        gm_url.contains("/gm#t=") && !players_url.contains("t="),
        "{gm_url} {players_url}"
    );
    let port = port_of(&gm_url);
    let token = gm_url.rsplit_once("#t=").unwrap().1.to_string();
    let gm_view = || {
        let (s, body) = http(
            port,
            "GET",
            "/api/gm",
            &format!("X-Tablewright-Token: {token}\r\n"),
            "",
        );
        assert_eq!(s, 200, "{body}");
        serde_json::from_str::<Value>(&body).unwrap()
    };

    let gm = Browser::open(wd_port, &base.join("profile-gm"), "1280,900");
    gm.go(&gm_url);
    gm.until(
        "return document.querySelectorAll('#table option').length",
        Duration::from_secs(10),
    );
    let players = Browser::open(wd_port, &base.join("profile-players"), "390,844");
    players.go(&players_url);
    players.until(
        "return document.querySelector('#map img') !== null",
        Duration::from_secs(10),
    );

    // A table rolled: its line in the log.
    gm.click("#tables button");
    gm.until(
        "return [...document.querySelectorAll('#log li')].some(l => / roll /.test(l.textContent))",
        Duration::from_secs(10),
    );
    // Reloaded, the page shows that roll again: "Last result" comes from
    // the log, not from this page's clicks.
    gm.js("document.getElementById('result').replaceChildren(); location.reload(); return 1");
    gm.until(
        "const r = document.querySelector('#result .trail'); \
         return r !== null && / roll /.test(r.textContent)",
        Duration::from_secs(10),
    );
    // An encounter met.
    let address = gm
        .until("const li = [...document.querySelectorAll('#items li')].find(l => \
                /(^|\\/)encounter\\/\\d+$/.test(l.dataset.address)); return li && li.dataset.address",
               Duration::from_secs(5))
        .as_str().unwrap().to_string();
    gm.click(&format!(
        "#items li[data-address=\"{address}\"] .buttons button"
    ));
    gm.until(
        &format!(
            "return document.querySelector('#items li[data-address=\"{address}\"]')\
                       .classList.contains('met')"
        ),
        Duration::from_secs(10),
    );
    // 3 damage on the first PC.
    let pc = gm_view()["pcs"][0].clone();
    let before = pc["track"]["now"].as_i64().unwrap();
    gm.js("document.querySelector('#pcs .pc input[type=number]').value = '3'; return 1");
    gm.click("#pcs .pc .row button");
    let began = Instant::now();
    while gm_view()["pcs"][0]["track"]["now"].as_i64() != Some(before - 3) {
        assert!(
            began.elapsed() < Duration::from_secs(10),
            "the damage never showed"
        );
        std::thread::sleep(Duration::from_millis(25));
    }
    // An arrival at a stop not yet visited, seen by the players within a second.
    let view = gm_view();
    let stops = view["map"]["stops"].as_array().unwrap().clone();
    let map_text = "(() => { const i = document.querySelector('#map img'); \
                    return i ? decodeURIComponent(i.src) : ''; })()";
    // Not visited, and not yet heard of either (the players' map shows
    // the stops the party has heard of, such as where the road leads).
    let shown = players
        .js(&format!("return {map_text}"))
        .as_str()
        .unwrap()
        .to_string();
    let stop = stops
        .iter()
        .filter(|s| s["known"] == false)
        .filter_map(|s| s["name"].as_str())
        .find(|name| !shown.contains(&xml_text(name)))
        .expect("a stop the players have not seen")
        .to_string();
    gm.js(&format!(
        "document.getElementById('arrive-stop').value = {}; \
         document.getElementById('arrive-day').value = String({}); return 1",
        json!(stop),
        // Days enough to walk anywhere on the region's roads.
        view["day"].as_u64().unwrap_or(1) + 60
    ));
    let began = Instant::now();
    gm.click("#arrive-form button");
    let needle = serde_json::to_string(&stop).unwrap();
    players.until(
        &format!("return ({map_text}).includes({needle})"),
        Duration::from_secs(1),
    );
    eprintln!("the players saw {stop} after {:?}", began.elapsed());

    // Nothing GM-only on the players' screen.
    let shown = players
        .js(&format!("return document.body.innerText + ({map_text})"))
        .as_str()
        .unwrap()
        .to_string();
    let view = gm_view();
    for item in view["items"].as_array().unwrap() {
        for line in item["text"]
            .as_str()
            .unwrap_or("")
            .lines()
            .filter(|l| l.len() > 12)
        {
            assert!(
                !shown.contains(line),
                "GM-only text on the players' screen: {line}"
            );
        }
    }
    for s in view["map"]["stops"].as_array().unwrap() {
        let name = s["name"].as_str().unwrap();
        if s["known"] == false
            && !stops
                .iter()
                .any(|o| o["name"] == name && o["known"] == true)
        {
            assert!(
                !shown.contains(name) || name.len() < 4,
                "an unvisited stop: {name}"
            );
        }
    }
    assert!(!shown.contains("Difficulty") && !shown.contains(&token));
    drop(players);
    drop(gm);

    // Stopped by Ctrl-C; the record holds those marks; the next session preps.
    let status = interrupt(&mut server);
    assert!(status.success(), "{status:?}");
    ok_in(&camp, &["record", "1"]);
    let record = std::fs::read_to_string(camp.join("sessions/1/record.toml")).unwrap();
    assert!(record.contains(&stop), "the arrival: {record}");
    assert!(record.contains(pc["name"].as_str().unwrap()), "{record}");
    assert!(
        record.contains(&format!("{}", before - 3)),
        "3 damage: {record}"
    );
    ok_in(&camp, &["prep"]);
    assert!(camp.join("sessions/2").exists() || camp.join("out").exists());
}

#[test]
fn play_refuses_bad_input_clearly() {
    let base = temp_dir("play-bad");
    // Outside a campaign with no pack folder.
    let o = run_in(&base, &["play"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("inside a campaign"), "{}", stderr(&o));
    // A pack folder that is not there.
    let o = run_in(&base, &["play", "no-such-pack"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("`no-such-pack` is not a folder"),
        "{}",
        stderr(&o)
    );
    // A folder that is not a pack.
    std::fs::create_dir_all(base.join("plain")).unwrap();
    let o = run_in(&base, &["play", "plain"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("plain"), "{}", stderr(&o));
    // A session number off the scale.
    ok_in(&base, &["init", "camp"]);
    let camp: PathBuf = base.join("camp");
    let o = run_in(&camp, &["play", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // A port in use.
    ok_in(&camp, &["prep"]);
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let o = run_in(&camp, &["play", "--port", &port]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains(&format!("port {port} is in use")),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("--port"), "{}", stderr(&o));
}

#[test]
fn play_stops_cleanly_on_ctrl_c_and_keeps_the_token_off_the_players_address() {
    let base = temp_dir("play-stop");
    ok_in(&base, &["init", "camp"]);
    let camp = base.join("camp");
    ok_in(&camp, &["prep"]);
    let (mut server, gm, players) = play(&camp, &[]);
    let port = port_of(&gm);
    assert_eq!(http(port, "GET", "/", "", "").0, 200);
    assert_eq!(http(port, "GET", "/api/gm", "", "").0, 403);
    assert!(!players.contains('#'));
    let status = interrupt(&mut server);
    assert!(status.success(), "{status:?}");
    let mut err = String::new();
    server
        .0
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(err.contains("stopped"), "{err}");
    assert!(
        !err.contains(gm.rsplit_once("#t=").unwrap().1),
        "the token only in the GM's address"
    );
    assert!(
        TcpStream::connect(("127.0.0.1", port)).is_err(),
        "still listening"
    );
}

#[test]
fn a_second_play_on_the_same_session_is_refused_naming_the_first() {
    let base = temp_dir("play-two");
    ok_in(&base, &["init", "camp"]);
    let camp = base.join("camp");
    ok_in(&camp, &["prep"]);
    let (first, _gm, players) = play(&camp, &[]);
    let mut second = Guard(
        Command::new(env!("CARGO_BIN_EXE_tablewright"))
            .args(["play", "1"])
            .current_dir(&camp)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let began = Instant::now();
    let status = loop {
        if let Some(status) = second.0.try_wait().unwrap() {
            break status;
        }
        assert!(
            began.elapsed() < Duration::from_secs(20),
            "the second `play` on session 1 started serving"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    let _ = second.0.stderr.take().unwrap().read_to_string(&mut err);
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(err.contains("serving this session already"), "{err}");
    assert!(err.contains(&players), "names the first's address: {err}");
    drop(first);
    // The first gone (killed), the session can be played again.
    let (_again, _, _) = play(&camp, &[]);
}

#[test]
fn a_pack_folder_played_still_verifies() {
    let base = temp_dir("play-verify");
    ok_in(&base, &["init", "camp"]);
    let camp = base.join("camp");
    ok_in(&camp, &["prep"]);
    // What `play PACKDIR` leaves: its log and its lock.
    let pack = camp.join("out/session-1");
    std::fs::write(pack.join("play.log"), "1 dice expr=\"1d6\" → 4\n").unwrap();
    std::fs::write(pack.join("play.lock"), "").unwrap();
    let o = run_in(&camp, &["verify", "out/session-1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let said = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        said.contains("play.log and play.lock are the GM's, from `play`, not the pack's"),
        "{said}"
    );
    // A sheet the GM wrote on, whose pack version the manifest proves
    // unchanged, is theirs: named on the ok line, not damage — before
    // and after `prep --force`, which leaves it as they have it.
    let mut sheet = std::fs::read_to_string(pack.join("npc-1.md")).unwrap();
    sheet.push_str("\nGM: she lied about the ferry.\n");
    std::fs::write(pack.join("npc-1.md"), &sheet).unwrap();
    for pass in ["written on", "after prep --force"] {
        let o = run_in(&camp, &["verify", "out/session-1"]);
        assert!(o.status.success(), "{pass}: {}", stderr(&o));
        let said = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(
            said.contains("npc-1.md was written on since the pack wrote it (yours: the pack's own version of it is unchanged"),
            "{pass}: {said}"
        );
        assert!(said.starts_with("ok: "), "{pass}: {said}");
        ok_in(&camp, &["prep", "1", "--force"]);
    }
    // Damage is still damage: a sheet whose manifest line does not hold
    // the pack's bytes (here, the manifest edited to another hash).
    let manifest = std::fs::read_to_string(pack.join(".tablewright-manifest")).unwrap();
    let line = manifest
        .lines()
        .find(|l| l.ends_with(" npc-1.md"))
        .expect("npc-1.md in the manifest");
    let other = format!("{} npc-1.md", "0".repeat(64));
    std::fs::write(
        pack.join(".tablewright-manifest"),
        manifest.replacen(line, &other, 1),
    )
    .unwrap();
    let o = run_in(&camp, &["verify", "out/session-1"]);
    assert!(!o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("npc-1.md differs"), "{}", stderr(&o));
    std::fs::write(pack.join(".tablewright-manifest"), &manifest).unwrap();
    assert_eq!(
        std::fs::read_to_string(pack.join("npc-1.md")).unwrap(),
        sheet
    );
    // Anything else is still named: a file that is not the pack's, one
    // missing.
    std::fs::write(pack.join("notes.txt"), "mine").unwrap();
    std::fs::remove_file(pack.join("voucher-1.md")).unwrap();
    let o = run_in(&camp, &["verify", "out/session-1"]);
    assert!(!o.status.success());
    for said in [
        "notes.txt is not part of the pack",
        "voucher-1.md is missing",
    ] {
        assert!(stderr(&o).contains(said), "{said}: {}", stderr(&o));
    }
}

/// A stop's name as the SVG writes it (XML text).
fn xml_text(name: &str) -> String {
    name.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
