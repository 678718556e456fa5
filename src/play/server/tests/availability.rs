//! The players' stream, and guests that would keep the GM out: a slow
//! drip, a flood of streams, idle and churning guests, a guest alone
//! dripping bytes; the GM's address under `--lan`.

use std::io::{BufRead, BufReader};
use std::time::Instant;

use super::*;

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
    let Some(lan) = super::super::lan_address() else {
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
    if super::super::lan_address().is_none() {
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
