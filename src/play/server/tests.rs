//! The server against a small table double: the security cases (no
//! token, a wrong token, a foreign Host, an oversized body or head, a path
//! outside the pages), the headers of every answer, actions and the
//! players' stream.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

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

#[test]
fn oversized_bodies_and_heads_are_refused() {
    let s = start();
    let t = token(&s);
    let big = format!(
        "{{\"do\":\"dice\",\"expr\":\"{}\"}}",
        "1".repeat(super::http::MAX_BODY)
    );
    assert_eq!(act(&s, &t, &big).0, 413);
    let host = format!("127.0.0.1:{}", s.port());
    let long = format!(
        "GET / HTTP/1.1\r\nHost: {host}\r\nX-Long: {}\r\n\r\n",
        "a".repeat(20_000)
    );
    assert_eq!(raw(&s, long.as_bytes()).0, 431);
    let many: String = (0..100).map(|i| format!("X-{i}: 1\r\n")).collect();
    let text = format!("GET / HTTP/1.1\r\nHost: {host}\r\n{many}\r\n");
    assert_eq!(raw(&s, text.as_bytes()).0, 431);
    let chunked =
        format!("POST /api/act HTTP/1.1\r\nHost: {host}\r\nTransfer-Encoding: chunked\r\n\r\n");
    assert_eq!(raw(&s, chunked.as_bytes()).0, 411);
}

#[test]
fn paths_outside_the_pages_are_refused() {
    let s = start();
    for path in [
        "/../Cargo.toml",
        "/assets/../../etc/passwd",
        "/assets/%2e%2e/x",
        "/%2e%2e/x",
        "/assets\\..\\x",
        "/assets/play.css/..",
        "/src/main.rs",
        "/assets/",
    ] {
        let (status, _, body) = request(&s, "GET", path, "", "");
        assert!(status == 400 || status == 404, "{path}: {status}");
        assert!(
            !body.contains("[package]") && !body.contains("root:"),
            "{path}"
        );
    }
    assert_eq!(raw(&s, b"GET ../x HTTP/1.1\r\nHost: x\r\n\r\n").0, 400);
}

#[test]
fn every_answer_carries_the_safety_headers() {
    let s = start();
    for (path, ty) in [
        ("/", "text/html"),
        ("/gm", "text/html"),
        ("/assets/play.css", "text/css"),
        ("/assets/gm.js", "text/javascript"),
        ("/assets/players.js", "text/javascript"),
        ("/api/players", "application/json"),
        ("/nothing", "application/json"),
    ] {
        let (_, head, _) = request(&s, "GET", path, "", "");
        let head = head.to_ascii_lowercase();
        assert!(
            head.contains(&format!("content-type: {ty}")),
            "{path}: {head}"
        );
        assert!(
            head.contains("content-security-policy: default-src 'none'; script-src 'self'"),
            "{path}"
        );
        assert!(
            !head.contains("unsafe-inline") && !head.contains("http:") && !head.contains("https:")
        );
        for h in [
            "x-content-type-options: nosniff",
            "referrer-policy: no-referrer",
            "x-frame-options: deny",
            "cache-control: no-store",
            "content-length: ",
        ] {
            assert!(head.contains(h), "{path}: {h}");
        }
    }
}

#[test]
fn the_pages_use_no_inline_script_and_nothing_from_outside() {
    for path in ["/", "/gm"] {
        let page = std::str::from_utf8(super::assets::find(path).unwrap().body).unwrap();
        assert!(page.contains("<script src=\"/assets/"), "{path}");
        assert!(
            !page.contains("<script>") && !page.contains("onclick") && !page.contains("onload"),
            "{path}: no inline code"
        );
        assert!(
            !page.contains("http://") && !page.contains("https://"),
            "{path}"
        );
    }
    for path in ["/assets/gm.js", "/assets/players.js"] {
        let js = std::str::from_utf8(super::assets::find(path).unwrap().body).unwrap();
        assert!(
            !js.contains("innerHTML")
                && !js.contains("outerHTML")
                && !js.contains("insertAdjacentHTML"),
            "{path}: user text goes in through textContent"
        );
        assert!(!js.contains("http://") && !js.contains("https://") && !js.contains("eval("));
    }
}

#[test]
fn the_players_stream_sends_the_view_again_when_the_version_moves() {
    let s = start();
    let t = token(&s);
    let mut c = TcpStream::connect(("127.0.0.1", s.port())).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    write!(
        c,
        "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
        s.port()
    )
    .unwrap();
    let mut r = BufReader::new(c);
    let mut data = || loop {
        let mut line = String::new();
        assert!(r.read_line(&mut line).unwrap() > 0, "the stream ended");
        if let Some(d) = line.strip_prefix("data: ") {
            return serde_json::from_str::<Value>(d).unwrap();
        }
    };
    assert_eq!(data()["stops"], json!([]));
    let began = Instant::now();
    assert_eq!(
        act(&s, &t, r#"{"do":"arrive","stop":"Ford of Reeds"}"#).0,
        200
    );
    assert_eq!(data()["stops"], json!(["Ford of Reeds"]));
    assert!(
        began.elapsed() < Duration::from_secs(1),
        "{:?}",
        began.elapsed()
    );
    // A mark the players cannot see sends nothing new.
    assert_eq!(act(&s, &t, r#"{"do":"met","address":"trap/1"}"#).0, 200);
    assert_eq!(act(&s, &t, r#"{"do":"arrive","stop":"Hollow"}"#).0, 200);
    assert_eq!(data()["stops"], json!(["Ford of Reeds", "Hollow"]));
    s.stop();
}

/// A guest that sends one byte of its request every `every`, in a thread
/// of its own: (when the server cut it off, what it answered).
fn drip(port: u16, every: Duration) -> std::thread::JoinHandle<(Instant, String)> {
    std::thread::spawn(move || {
        let mut c = TcpStream::connect(("127.0.0.1", port)).unwrap();
        c.set_read_timeout(Some(Duration::from_millis(10))).unwrap();
        let text = format!(
            "GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Pad: {}\r\n\r\n",
            "a".repeat(200)
        );
        let mut out = Vec::new();
        for b in text.bytes() {
            if c.write_all(&[b]).is_err() {
                break;
            }
            let began = Instant::now();
            let mut buf = [0u8; 512];
            let mut closed = false;
            while began.elapsed() < every {
                match c.read(&mut buf) {
                    Ok(0) => closed = true,
                    Ok(n) => out.extend_from_slice(&buf[..n]),
                    Err(_) => {}
                }
                if closed {
                    break;
                }
            }
            if closed {
                break;
            }
        }
        (Instant::now(), String::from_utf8_lossy(&out).to_string())
    })
}

fn gm_get(s: &Server, t: &str) -> (u16, String, String) {
    request(
        s,
        "GET",
        "/api/gm",
        &format!("X-Tablewright-Token: {t}\r\n"),
        "",
    )
}

#[test]
fn a_slow_drip_is_cut_off_at_the_deadline_and_the_gm_is_served_meanwhile() {
    let limits = small();
    let s = start_with(limits);
    let t = token(&s);
    let began = Instant::now();
    // Twice as many guests as slots, each a byte every 100 ms: within the
    // 10 s a read may take, never within the 600 ms a request has.
    let guests: Vec<_> = (0..2 * limits.requests)
        .map(|_| drip(s.port(), Duration::from_millis(100)))
        .collect();
    std::thread::sleep(Duration::from_millis(100));
    for _ in 0..10 {
        let (status, _, body) = gm_get(&s, &t);
        assert_eq!(status, 200, "the GM kept out: {body}");
        std::thread::sleep(Duration::from_millis(30));
    }
    for g in guests {
        let (cut, said) = g.join().unwrap();
        assert!(
            cut - began < Duration::from_secs(3),
            "a guest dripping bytes held its connection {:?}",
            cut - began
        );
        assert!(
            said.is_empty() || said.starts_with("HTTP/1.1 408"),
            "{said}"
        );
    }
}

/// Opens a players' stream: the connection (with its first `data:` line
/// read), or the refusal's (status, head, body).
fn stream(s: &Server) -> Result<BufReader<TcpStream>, (u16, String)> {
    let mut c = TcpStream::connect(("127.0.0.1", s.port())).unwrap();
    c.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    write!(
        c,
        "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
        s.port()
    )
    .unwrap();
    let mut r = BufReader::new(c);
    let mut head = String::new();
    r.read_line(&mut head).unwrap();
    if !head.starts_with("HTTP/1.1 200") {
        let mut rest = String::new();
        let _ = r.read_to_string(&mut rest);
        return Err((
            head.get(9..12).and_then(|x| x.parse().ok()).unwrap_or(0),
            head + &rest,
        ));
    }
    loop {
        let mut line = String::new();
        assert!(r.read_line(&mut line).unwrap() > 0, "the stream ended");
        if line.starts_with("data: ") {
            return Ok(r);
        }
    }
}

#[test]
fn a_stream_flood_never_keeps_the_gm_out_and_closed_streams_are_noticed_at_once() {
    let limits = small();
    let s = start_with(limits);
    let t = token(&s);
    let open: Vec<_> = (0..limits.streams).map(|_| stream(&s).unwrap()).collect();
    // The streams' pool is full: one more is refused, in JSON.
    let (status, text) = stream(&s).expect_err("a stream past the cap");
    assert_eq!(status, 503, "{text}");
    assert!(
        text.to_ascii_lowercase()
            .contains("content-type: application/json"),
        "{text}"
    );
    assert!(
        text.contains("{\"error\":\"too many players' screens"),
        "{text}"
    );
    // The GM and the players' plain requests are served all the while.
    for _ in 0..10 {
        assert_eq!(gm_get(&s, &t).0, 200);
        assert_eq!(request(&s, "GET", "/api/players", "", "").0, 200);
    }
    assert_eq!(s.shared.streams.count(), limits.streams);
    // Screens closed: their places are free within moments, not at the
    // next keep-alive.
    drop(open);
    let began = Instant::now();
    while s.shared.streams.count() > 0 {
        assert!(
            began.elapsed() < Duration::from_secs(2),
            "closed streams still held"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(stream(&s).is_ok());
}

#[test]
fn idle_guests_are_closed_for_room_oldest_first_and_the_gm_never() {
    let limits = Limits {
        deadline: Duration::from_secs(5),
        ..small()
    };
    let s = start_with(limits);
    let t = token(&s);
    let mut idle: Vec<TcpStream> = (0..limits.requests)
        .map(|_| TcpStream::connect(("127.0.0.1", s.port())).unwrap())
        .collect();
    let began = Instant::now();
    while s.shared.slots.silent() < limits.requests {
        assert!(
            began.elapsed() < Duration::from_secs(2),
            "not all listened to"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    // Every slot held by a guest saying nothing: the GM and a player are
    // served all the same, each in the place of the oldest guest.
    assert_eq!(gm_get(&s, &t).0, 200);
    assert_eq!(request(&s, "GET", "/", "", "").0, 200);
    let first = &mut idle[0];
    first
        .set_read_timeout(Some(Duration::from_secs(2)))
        .unwrap();
    let mut buf = Vec::new();
    let read = first.read_to_end(&mut buf);
    let open = matches!(&read, Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut));
    assert!(!open, "the oldest guest was closed: {read:?}");
}

/// Guests on the network that connect, say nothing and connect again the
/// moment they are closed, twice as many as the slots, as fast as they
/// can: every one of the GM's requests from this machine is answered all
/// the same. (Run from this machine to its own network address, which is
/// not a loopback one; skipped where the machine has none.)
#[test]
fn churning_guests_on_the_network_never_keep_out_the_gm() {
    let Some(lan) = super::lan_address() else {
        eprintln!("skipped: this machine has no address on a network");
        return;
    };
    let table = Box::new(Double {
        acts: Vec::new(),
        stops: Vec::new(),
    });
    let mut options = Options::new(0, true);
    options.limits = Limits {
        deadline: Duration::from_secs(1),
        ..small()
    };
    let s = Server::start(table, options).unwrap();
    let t = token(&s);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let port = s.port();
    let guests: Vec<_> = (0..2 * options_requests())
        .map(|_| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut n = 0;
                while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                    if let Ok(mut c) = TcpStream::connect((lan, port)) {
                        let _ = c.set_read_timeout(Some(Duration::from_secs(2)));
                        let _ = c.read_to_end(&mut Vec::new());
                        n += 1;
                    }
                }
                n
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(100));
    let mut refused = Vec::new();
    for i in 0..40 {
        let (status, _, body) = if i % 2 == 0 {
            gm_get(&s, &t)
        } else {
            act(&s, &t, r#"{"do":"note"}"#)
        };
        if status != 200 {
            refused.push(format!("#{i}: {status} {body}"));
        }
    }
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let churned: usize = guests.into_iter().map(|g| g.join().unwrap()).sum();
    assert!(churned > 100, "the guests churned only {churned} times");
    assert!(refused.is_empty(), "the GM kept out: {refused:?}");
}

/// With `--lan` the GM's address stays this machine's own (where slots are
/// kept for it); the address for a tablet is given apart. Without it there
/// is no network address to give.
#[test]
fn the_gm_address_is_this_machines_own_and_the_tablets_apart() {
    let alone = start();
    assert!(alone.gm_address().starts_with("http://127.0.0.1:"));
    assert_eq!(alone.gm_address_on_the_network(), None);
    if super::lan_address().is_none() {
        eprintln!("skipped --lan: this machine has no address on a network");
        return;
    }
    let table = Box::new(Double {
        acts: Vec::new(),
        stops: Vec::new(),
    });
    let s = Server::start(table, Options::new(0, true)).unwrap();
    let gm = s.gm_address();
    assert!(gm.starts_with("http://127.0.0.1:"), "{gm}");
    let far = s.gm_address_on_the_network().expect("a tablet's address");
    assert!(
        !far.contains("127.0.0.1") && far.ends_with(&gm[gm.find("/gm#t=").unwrap()..]),
        "{far}"
    );
    assert!(!s.players_address().contains("127.0.0.1"));
    // The GM's screen on this machine is served by the --lan server.
    assert_eq!(gm_get(&s, &token(&s)).0, 200);
}

fn options_requests() -> usize {
    small().requests
}

#[test]
fn a_guest_alone_dripping_bytes_is_cut_off_at_the_deadline() {
    let s = start_with(small());
    let began = Instant::now();
    let (cut, said) = drip(s.port(), Duration::from_millis(100)).join().unwrap();
    assert!(
        cut - began < Duration::from_secs(2),
        "each byte in time, the request never: held {:?}",
        cut - began
    );
    assert!(said.starts_with("HTTP/1.1 408"), "{said}");
    assert!(said.contains("{\"error\":"), "{said}");
}

#[test]
fn requests_rfc_9112_says_to_refuse_are_refused() {
    let s = start();
    let host = format!("Host: 127.0.0.1:{}\r\n", s.port());
    let cases: [(String, u16); 10] = [
        (format!("GET / HTTP/1.1\r\n{host}{host}\r\n"), 400),
        (
            format!("GET / HTTP/1.1\r\n{host}Host: evil.example\r\n\r\n"),
            400,
        ),
        (
            format!(
                "POST /api/act HTTP/1.1\r\n{host}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{{}} "
            ),
            400,
        ),
        (
            format!("POST /api/act HTTP/1.1\r\n{host}Content-Length: +2\r\n\r\n{{}}"),
            400,
        ),
        (
            format!("POST /api/act HTTP/1.1\r\n{host}Content-Length: 2, 2\r\n\r\n{{}}"),
            400,
        ),
        (format!("GET / HTTP/1.9\r\n{host}\r\n"), 505),
        (format!("GET / HTTP/2.0\r\n{host}\r\n"), 505),
        (format!("GET / HTTP/1.1x\r\n{host}\r\n"), 400),
        (
            format!("GET / HTTP/1.1\r\nHost : 127.0.0.1:{}\r\n\r\n", s.port()),
            400,
        ),
        (format!("GET / HTTP/1.1\r\n{host} X-Folded: 1\r\n\r\n"), 400),
    ];
    for (text, want) in cases {
        let (status, head, body) = raw(&s, text.as_bytes());
        assert_eq!(status, want, "{text:?}: {head}");
        assert!(body.starts_with("{\"error\":"), "{text:?}: {body}");
    }
    assert_eq!(
        raw(&s, format!("GET / HTTP/1.0\r\n{host}\r\n").as_bytes()).0,
        200
    );
}

#[test]
fn every_status_has_its_own_reason() {
    use super::http::head;
    assert!(head(505, "x", None).starts_with("HTTP/1.1 505 HTTP Version Not Supported\r\n"));
    assert!(head(507, "x", None).starts_with("HTTP/1.1 507 Insufficient Storage\r\n"));
    assert!(head(500, "x", None).starts_with("HTTP/1.1 500 Internal Server Error\r\n"));
    assert!(head(418, "x", None).starts_with("HTTP/1.1 418 Client Error\r\n"));
}

#[test]
fn an_action_the_disk_refused_is_answered_507_in_json() {
    let s = start();
    let t = token(&s);
    let (status, head, body) = act(&s, &t, r#"{"do":"full"}"#);
    assert_eq!(status, 507, "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: application/json")
    );
    assert!(body.contains("No space left"), "{body}");
}
