//! What each address answers. Every request is checked first: its Host
//! must be this server's own address (a page on another name that
//! resolves here — DNS rebinding — is refused), its path must not reach
//! outside the pages. The GM's data and every change need the token, sent
//! by the GM's page in the `X-Tablewright-Token` header.
//!
//! | Method | Path             | Token | Answer                                   |
//! |--------|------------------|-------|------------------------------------------|
//! | GET    | `/`              | no    | the players' page                        |
//! | GET    | `/gm`            | no*   | the GM's page (an empty shell: its data comes from `/api/gm`) |
//! | GET    | `/assets/<file>` | no    | the pages' styles and scripts            |
//! | GET    | `/api/players`   | no    | the players' view (JSON)                 |
//! | GET    | `/api/events`    | no    | the players' view as server-sent events  |
//! | GET    | `/api/gm`        | yes   | the GM's view (JSON); `?since=K`: the log's lines after K only |
//! | POST   | `/api/act`       | yes   | one action (JSON) → its answer           |

use std::io::Write;
use std::net::TcpStream;
use std::time::Instant;

use serde_json::{Value, json};

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};

use super::super::api::Table;
use super::slots::{Slots, Streams};
use super::token::Token;
use super::{Limits, assets, http};

/// What the connection threads share.
pub(super) struct Shared {
    pub(super) table: Mutex<Box<dyn Table>>,
    /// The table's version as last seen after a change; players' streams
    /// wait on `moved` for it to change.
    pub(super) version: Mutex<u64>,
    pub(super) moved: Condvar,
    pub(super) stop: AtomicBool,
    pub(super) slots: Slots,
    pub(super) streams: Streams,
    pub(super) limits: Limits,
    pub(super) token: Token,
    pub(super) port: u16,
}

impl Shared {
    pub(super) fn stopping(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }
}

/// The header the GM's page carries the token in.
pub(crate) const TOKEN_HEADER: &str = "x-tablewright-token";

/// One connection: its stream, its request slot and when its request must
/// have arrived by.
pub(super) struct Conn<'a> {
    pub(super) stream: &'a TcpStream,
    pub(super) slot: usize,
    pub(super) until: Instant,
}

/// Answers one connection's request.
pub(super) fn serve(conn: &Conn, shared: &Shared) {
    let stream = conn.stream;
    if !heard(conn, shared) {
        return refuse(stream, 408, "the request was not read in time");
    }
    let req = match http::read(http::Timed::new(stream, conn.until)) {
        Ok(r) => r,
        Err(http::Refusal(status, why)) => return refuse(stream, status, why),
    };
    if let Err((status, why)) = check(stream, shared, &req) {
        return refuse(stream, status, why);
    }
    if gm_only(&req, shared).is_ok() {
        shared.slots.gm(conn.slot);
    }
    let path = req.path.as_str();
    let result = match (req.method.as_str(), path) {
        ("GET", "/api/events") => {
            // A stream holds a place in the streams' pool, not a request slot.
            let Some(_place) = shared.streams.open() else {
                return refuse(stream, 503, "too many players' screens are open: close one");
            };
            shared.slots.give_back(conn.slot);
            return events(stream, shared);
        }
        ("GET", "/api/players") => Ok(json_ok(stream, &table(shared).players())),
        ("GET", "/api/gm") => gm_only(&req, shared)
            .and_then(|()| since(&req.query))
            .map(|since| json_ok(stream, &table(shared).gm_since(since))),
        ("POST", "/api/act") => gm_only(&req, shared).and_then(|()| act(stream, shared, &req)),
        ("GET", _) if assets::find(path).is_some() => assets::find(path)
            .map(|a| Ok(http::write(stream, 200, a.content_type, a.body)))
            .unwrap_or(Err((404, "no such page"))),
        _ if is_route(path) => Err((405, "not with that method")),
        _ => Err((404, "no such page")),
    };
    // A screen that went away mid-answer needs nothing more.
    if let Err((status, why)) = result {
        refuse(stream, status, why);
    }
}

/// Waits for the connection's first byte (its slot silent meanwhile, the
/// first closed for room), then marks its request as coming in; false when
/// none came before the deadline.
fn heard(conn: &Conn, shared: &Shared) -> bool {
    shared.slots.listening(conn.slot);
    let left = conn.until.saturating_duration_since(Instant::now());
    if left.is_zero() || conn.stream.set_read_timeout(Some(left)).is_err() {
        return false;
    }
    match conn.stream.peek(&mut [0u8; 1]) {
        Ok(n) if n > 0 => {
            shared.slots.saying(conn.slot);
            true
        }
        // Closed (by the guest, or for room): nothing to answer; `read`
        // finds it so.
        Ok(_) => true,
        Err(_) => false,
    }
}

type Checked<T> = Result<T, (u16, &'static str)>;

/// The GM's cursor into the log, `since=K` (the last line the page has;
/// none: 0), the only query the server reads.
fn since(query: &str) -> Checked<usize> {
    match query {
        "" => Ok(0),
        q => q
            .strip_prefix("since=")
            .filter(|n| n.len() <= 9 && n.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|n| n.parse().ok())
            .ok_or((
                400,
                "the query is since=K, K the last line's number the page has",
            )),
    }
}

fn is_route(path: &str) -> bool {
    matches!(
        path,
        "/api/events" | "/api/players" | "/api/gm" | "/api/act"
    ) || assets::find(path).is_some()
}

/// The checks every request passes: its path stays among the pages, its
/// Host names this server.
fn check(stream: &TcpStream, shared: &Shared, req: &http::Request) -> Checked<()> {
    let p = &req.path;
    if !p.starts_with('/') || p.contains("..") || p.contains('%') || p.contains('\\') {
        return Err((400, "a path outside the pages"));
    }
    let host = req.header("host").ok_or((400, "no Host header"))?;
    let here = stream.local_addr().map_err(|_| (400, "no local address"))?;
    let port = shared.port;
    let mut own = vec![format!("{}", std::net::SocketAddr::new(here.ip(), port))];
    if here.ip().is_loopback() {
        own.push(format!("localhost:{port}"));
    }
    if !own.iter().any(|o| o.eq_ignore_ascii_case(host)) {
        return Err((
            421,
            "the Host is not this server (open the address `play` printed)",
        ));
    }
    // A change sent from another site's page is refused even before the
    // token is looked at.
    if let Some(origin) = req.header("origin")
        && req.method != "GET"
        && !own
            .iter()
            .any(|o| origin.eq_ignore_ascii_case(&format!("http://{o}")))
    {
        return Err((403, "a request from another site"));
    }
    Ok(())
}

/// The token, compared in constant time.
fn gm_only(req: &http::Request, shared: &Shared) -> Checked<()> {
    match req.header(TOKEN_HEADER) {
        Some(t) if shared.token.matches(t) => Ok(()),
        Some(_) => Err((403, "a wrong token")),
        None => Err((
            403,
            "the GM's token is needed (open the GM's address `play` printed)",
        )),
    }
}

fn table(shared: &Shared) -> std::sync::MutexGuard<'_, Box<dyn Table>> {
    // A panic in an earlier request leaves the table as it was: the log
    // line is written before an action changes anything.
    shared.table.lock().unwrap_or_else(|e| e.into_inner())
}

fn act(stream: &TcpStream, shared: &Shared, req: &http::Request) -> Checked<std::io::Result<()>> {
    let ct = req.header("content-type").unwrap_or("");
    if !ct.starts_with("application/json") {
        return Err((415, "an action is JSON (Content-Type: application/json)"));
    }
    let Ok(action) = serde_json::from_slice::<Value>(&req.body) else {
        return Err((400, "the action is not JSON"));
    };
    let (answer, version) = {
        let mut t = table(shared);
        let answer = t.act(&action);
        (answer, t.version())
    };
    {
        let mut v = shared.version.lock().unwrap_or_else(|e| e.into_inner());
        if *v != version {
            *v = version;
            shared.moved.notify_all();
        }
    }
    Ok(match answer {
        Ok(a) => json_ok(stream, &a),
        Err(e) => write_json(stream, e.status(), &json!({ "error": e.message })),
    })
}

/// The players' stream: the players' view now, then again each time the
/// version moves, a comment line when quiet for [`Limits::keepalive`]; a
/// screen that went away is noticed within [`Limits::poll`].
fn events(mut stream: &TcpStream, shared: &Shared) {
    let head = http::head(200, "text/event-stream; charset=utf-8", None);
    if stream.write_all(head.as_bytes()).is_err() {
        return;
    }
    let mut sent = None;
    let mut said = Instant::now();
    while !shared.stopping() {
        // The view is made only when it may have changed.
        let (version, view) = {
            let t = table(shared);
            let version = t.version();
            (version, (sent != Some(version)).then(|| t.players()))
        };
        let line = match view {
            Some(view) => Some(format!("data: {view}\n\n")),
            None if said.elapsed() < shared.limits.keepalive => None,
            None => Some(": still here\n\n".to_string()),
        };
        if let Some(line) = line {
            if stream.write_all(line.as_bytes()).is_err() || stream.flush().is_err() {
                return;
            }
            said = Instant::now();
        }
        sent = Some(version);
        {
            let v = shared.version.lock().unwrap_or_else(|e| e.into_inner());
            let _ = shared.moved.wait_timeout_while(v, shared.limits.poll, |v| {
                *v == version && !shared.stopping()
            });
        }
        if gone(stream) {
            return;
        }
    }
}

/// The screen at the other end closed its connection (or sent something:
/// a players' stream expects nothing after its request).
fn gone(stream: &TcpStream) -> bool {
    if stream.set_nonblocking(true).is_err() {
        return true;
    }
    let peeked = stream.peek(&mut [0u8; 1]);
    let _ = stream.set_nonblocking(false);
    match peeked {
        Err(e) => !matches!(
            e.kind(),
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::Interrupted
        ),
        Ok(_) => true,
    }
}

fn json_ok(stream: &TcpStream, value: &Value) -> std::io::Result<()> {
    write_json(stream, 200, value)
}

fn write_json(stream: &TcpStream, status: u16, value: &Value) -> std::io::Result<()> {
    let body = serde_json::to_vec(value).unwrap_or_default();
    http::write(stream, status, "application/json; charset=utf-8", &body)
}

/// An error answered as the JSON `{"error": why}`.
pub(super) fn refuse(stream: &TcpStream, status: u16, why: &str) {
    let _ = write_json(stream, status, &json!({ "error": why }));
}
