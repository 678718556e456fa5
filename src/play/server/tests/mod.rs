//! The server against a small table double. This file holds the double,
//! the helpers every test here uses, and the token and origin cases (no
//! token, a wrong token, a cursor, a refused action, a foreign Host);
//! `strictness` the HTTP a request must keep to (sizes, paths, headers,
//! RFC 9112) and the answers' headers; `availability` the players' stream
//! and that no guest, slow, silent or churning, keeps the GM out.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::{Value, json};

use super::{Limits, Options, Server};
use crate::play::api::Table;

/// A table that keeps the actions it was given; `arrive` reveals a stop.
struct Double {
    acts: Vec<Value>,
    stops: Vec<String>,
}

impl Table for Double {
    fn gm_since(&self, since: usize) -> Value {
        json!({"api": 1, "title": "GM only: the Difficulty is 4", "acts": self.acts.len(),
               "since": since})
    }
    fn players(&self) -> Value {
        json!({"api": 1, "title": "<script>alert(1)</script>", "version": self.version(),
               "stops": self.stops})
    }
    fn act(&mut self, action: &Value) -> Result<Value, crate::play::api::NotDone> {
        if action["do"] == "refuse" {
            return Err("no such thing".into());
        }
        if action["do"] == "full" {
            return Err(crate::play::api::NotDone {
                message: "No space left on device: the action was not done".into(),
                unsaved: Some(crate::play::api::Unsaved::Full),
            });
        }
        if action["do"] == "arrive" {
            self.stops
                .push(action["stop"].as_str().unwrap_or("").into());
        }
        self.acts.push(action.clone());
        Ok(json!({"k": self.acts.len(), "line": "a line", "result": {}}))
    }
    fn version(&self) -> u64 {
        self.stops.len() as u64
    }
}

fn start() -> Server {
    start_with(Limits::default())
}

fn start_with(limits: Limits) -> Server {
    let table = Box::new(Double {
        acts: Vec::new(),
        stops: Vec::new(),
    });
    let mut options = Options::new(0, false);
    options.limits = limits;
    Server::start(table, options).unwrap()
}

/// Small bounds, so that the availability tests run in a second or two.
fn small() -> Limits {
    Limits {
        deadline: Duration::from_millis(600),
        requests: 8,
        streams: 4,
        poll: Duration::from_millis(50),
        keepalive: Duration::from_secs(15),
    }
}

fn token(s: &Server) -> String {
    s.gm_address().split_once("#t=").unwrap().1.to_string()
}

/// Sends raw bytes, answers (status, head, body).
fn raw(s: &Server, bytes: &[u8]) -> (u16, String, String) {
    let mut c = TcpStream::connect(("127.0.0.1", s.port())).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let _ = c.write_all(bytes);
    let mut out = Vec::new();
    let _ = c.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, head.to_string(), body.to_string())
}

fn request(s: &Server, method: &str, path: &str, extra: &str, body: &str) -> (u16, String, String) {
    let host = format!("127.0.0.1:{}", s.port());
    let text = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\n{extra}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    raw(s, text.as_bytes())
}

fn act(s: &Server, token: &str, body: &str) -> (u16, String, String) {
    let extra = format!("X-Tablewright-Token: {token}\r\nContent-Type: application/json\r\n");
    request(s, "POST", "/api/act", &extra, body)
}

mod availability;
mod strictness;

#[test]
fn the_gm_view_and_every_change_need_the_right_token() {
    let s = start();
    let t = token(&s);
    assert_eq!(request(&s, "GET", "/api/gm", "", "").0, 403);
    let wrong = "0".repeat(64);
    let (status, _, body) = request(
        &s,
        "GET",
        "/api/gm",
        &format!("X-Tablewright-Token: {wrong}\r\n"),
        "",
    );
    assert_eq!(status, 403);
    assert!(!body.contains("GM only"));
    let (status, _, body) = request(
        &s,
        "GET",
        "/api/gm",
        &format!("X-Tablewright-Token: {t}\r\n"),
        "",
    );
    assert_eq!(status, 200);
    assert!(body.contains("GM only"), "{body}");
    let arrive = r#"{"do":"arrive","stop":"Ford"}"#;
    assert_eq!(act(&s, "", arrive).0, 403);
    assert_eq!(act(&s, &wrong, arrive).0, 403);
    assert_eq!(act(&s, &t[..10], arrive).0, 403);
    let (status, _, body) = request(&s, "GET", "/api/players", "", "");
    assert_eq!(status, 200);
    assert!(
        !body.contains("Ford"),
        "a refused change changed nothing: {body}"
    );
    let (status, _, body) = act(&s, &t, arrive);
    assert_eq!((status, body.contains("\"k\":1")), (200, true), "{body}");
    assert!(
        request(&s, "GET", "/api/players", "", "")
            .2
            .contains("Ford")
    );
}

#[test]
fn the_gm_view_is_asked_from_a_cursor_and_a_bad_one_is_refused() {
    let s = start();
    let t = token(&s);
    let gm = |path: &str| {
        request(
            &s,
            "GET",
            path,
            &format!("X-Tablewright-Token: {t}\r\n"),
            "",
        )
    };
    assert!(gm("/api/gm").2.contains("\"since\":0"));
    assert!(gm("/api/gm?since=12").2.contains("\"since\":12"));
    for bad in [
        "since=",
        "since=-1",
        "since=x",
        "since=1&since=2",
        "after=3",
        "since=1234567890",
    ] {
        let (status, _, body) = gm(&format!("/api/gm?{bad}"));
        assert_eq!(status, 400, "{bad}: {body}");
        assert!(body.contains("since=K"), "{bad}: {body}");
    }
    // Without the token the cursor is not even read.
    assert_eq!(request(&s, "GET", "/api/gm?since=x", "", "").0, 403);
}

#[test]
fn a_refused_action_gives_its_message_and_bad_actions_are_refused() {
    let s = start();
    let t = token(&s);
    let (status, _, body) = act(&s, &t, r#"{"do":"refuse"}"#);
    assert_eq!(status, 422);
    assert!(body.contains("no such thing"), "{body}");
    assert_eq!(act(&s, &t, "{not json").0, 400);
    let extra = format!("X-Tablewright-Token: {t}\r\nContent-Type: text/plain\r\n");
    assert_eq!(request(&s, "POST", "/api/act", &extra, "{}").0, 415);
    assert_eq!(request(&s, "GET", "/api/act", "", "").0, 405);
}

#[test]
fn a_foreign_host_is_refused_dns_rebinding() {
    let s = start();
    let t = token(&s);
    for host in [
        "evil.example:80",
        &format!("evil.example:{}", s.port()),
        "127.0.0.1:1",
    ] {
        let text =
            format!("GET /api/gm HTTP/1.1\r\nHost: {host}\r\nX-Tablewright-Token: {t}\r\n\r\n");
        let (status, _, body) = raw(&s, text.as_bytes());
        assert_eq!(status, 421, "{host}");
        assert!(!body.contains("GM only"));
    }
    assert_eq!(raw(&s, b"GET / HTTP/1.1\r\n\r\n").0, 400, "no Host at all");
    let local = format!("localhost:{}", s.port());
    let text = format!("GET / HTTP/1.1\r\nHost: {local}\r\n\r\n");
    assert_eq!(raw(&s, text.as_bytes()).0, 200);
    // A change from another site's page, even with the token.
    let extra = format!(
        "Origin: http://evil.example\r\nX-Tablewright-Token: {t}\r\nContent-Type: application/json\r\n"
    );
    assert_eq!(request(&s, "POST", "/api/act", &extra, "{}").0, 403);
}
