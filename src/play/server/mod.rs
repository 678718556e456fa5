//! The server of `tablewright play`: the GM's screen, the players' screen
//! and the JSON API over one session in play (a [`Table`]), on loopback
//! unless `--lan`.
//!
//! - [`http`]: the bounded HTTP/1.1 reader and the safety headers.
//! - [`routes`]: what each address answers, the token and Host checks.
//! - [`assets`]: the pages, embedded in the binary.
//! - [`token`]: the GM's secret.
//!
//! - [`slots`]: the request slots and the players' streams' pool.
//!
//! One thread accepts; each connection gets a thread of its own and one of
//! [`Limits::requests`] request slots (when all are taken the oldest
//! guest's connection is closed for room: never the GM's), and its whole
//! request (head and body) must arrive within [`Limits::deadline`] of
//! being accepted, however the bytes trickle. The players' screens hold a
//! server-sent-events stream each, in a pool of their own
//! ([`Limits::streams`]), woken when the table's version moves and
//! dropped as soon as the screen goes away.

mod assets;
mod http;
mod routes;
mod slots;
mod token;

#[cfg(test)]
mod tests;

use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::api::Table;
use routes::Shared;
use token::Token;

/// Where to listen, and the bounds.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Options {
    /// 0: a free port.
    pub(crate) port: u16,
    /// Listen on every interface (the local network), not loopback only.
    pub(crate) lan: bool,
    pub(crate) limits: Limits,
}

impl Options {
    pub(crate) fn new(port: u16, lan: bool) -> Options {
        Options {
            port,
            lan,
            limits: Limits::default(),
        }
    }
}

/// How much any one client may hold, and for how long.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    /// A whole request (head and body) must arrive within this of its
    /// connection being accepted; an answer must leave within it too.
    pub(crate) deadline: Duration,
    /// Request slots (connections reading a request or being answered).
    pub(crate) requests: usize,
    /// Players' streams open at once.
    pub(crate) streams: usize,
    /// How soon a stream whose screen went away is noticed.
    pub(crate) poll: Duration,
    /// How often a quiet stream says it is alive.
    pub(crate) keepalive: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            deadline: Duration::from_secs(10),
            requests: 64,
            streams: 32,
            poll: Duration::from_millis(250),
            keepalive: Duration::from_secs(15),
        }
    }
}

/// A running server; [`Server::stop`] ends it.
pub(crate) struct Server {
    shared: Arc<Shared>,
    local: SocketAddr,
    shown: IpAddr,
    accept: Option<JoinHandle<()>>,
}

impl Server {
    /// Binds and starts serving `table`.
    pub(crate) fn start(table: Box<dyn Table>, options: Options) -> std::io::Result<Server> {
        let bind = match options.lan {
            true => IpAddr::V4(Ipv4Addr::UNSPECIFIED),
            false => IpAddr::V4(Ipv4Addr::LOCALHOST),
        };
        let listener = TcpListener::bind((bind, options.port))?;
        let local = listener.local_addr()?;
        let version = table.version();
        let shared = Arc::new(Shared {
            table: Mutex::new(table),
            version: Mutex::new(version),
            moved: Condvar::new(),
            stop: AtomicBool::new(false),
            slots: slots::Slots::new(options.limits.requests),
            streams: slots::Streams::new(options.limits.streams),
            limits: options.limits,
            token: Token::fresh()?,
            port: local.port(),
        });
        let shown = match options.lan {
            true => lan_address().unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST)),
            false => IpAddr::V4(Ipv4Addr::LOCALHOST),
        };
        let s = shared.clone();
        let accept = std::thread::Builder::new()
            .name("play-accept".into())
            .spawn(move || accept_loop(listener, s))?;
        Ok(Server {
            shared,
            local,
            shown,
            accept: Some(accept),
        })
    }

    /// The port listened on.
    pub(crate) fn port(&self) -> u16 {
        self.local.port()
    }

    /// The GM's address, the token in its fragment (never sent to the
    /// server, so never in a log or a Referer): on this machine's loopback
    /// address, even with `--lan`, so that the GM's screen takes the
    /// request slots kept for this machine ([`slots`]).
    pub(crate) fn gm_address(&self) -> String {
        let here = SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), self.port());
        format!("http://{here}/gm#t={}", self.shared.token.as_str())
    }

    /// With `--lan`, the GM's address for another device on the network
    /// (a tablet), which has no slots kept for it; `None` without.
    pub(crate) fn gm_address_on_the_network(&self) -> Option<String> {
        (!self.shown.is_loopback())
            .then(|| format!("{}/gm#t={}", self.base(), self.shared.token.as_str()))
    }

    /// The players' address.
    pub(crate) fn players_address(&self) -> String {
        format!("{}/", self.base())
    }

    fn base(&self) -> String {
        format!("http://{}", SocketAddr::new(self.shown, self.port()))
    }

    /// Stops accepting, ends the players' streams and waits for the
    /// accepting thread.
    pub(crate) fn stop(mut self) {
        self.halt();
    }

    fn halt(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        self.shared.moved.notify_all();
        // Wake the blocked accept with a connection of our own.
        let _ = TcpStream::connect_timeout(
            &SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), self.port()),
            Duration::from_secs(1),
        );
        if let Some(h) = self.accept.take() {
            let _ = h.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if self.accept.is_some() {
            self.halt();
        }
    }
}

/// The address this machine is reached at on the local network: the
/// source address a datagram to a documentation address would leave from
/// (nothing is sent).
fn lan_address() -> Option<IpAddr> {
    let s = std::net::UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0)).ok()?;
    s.connect((Ipv4Addr::new(192, 0, 2, 1), 9)).ok()?;
    let ip = s.local_addr().ok()?.ip();
    (!ip.is_unspecified()).then_some(ip)
}

fn accept_loop(listener: TcpListener, shared: Arc<Shared>) {
    for conn in listener.incoming() {
        if shared.stopping() {
            break;
        }
        let Ok(stream) = conn else { continue };
        let accepted = Instant::now();
        let _ = stream.set_write_timeout(Some(shared.limits.deadline));
        let local = stream.peer_addr().is_ok_and(|a| a.ip().is_loopback());
        let Some(slot) = shared.slots.take(&stream, local) else {
            routes::refuse(&stream, 503, "the server is busy: try again in a moment");
            continue;
        };
        let s = shared.clone();
        let spawned = std::thread::Builder::new()
            .name("play-conn".into())
            .spawn(move || {
                let conn = routes::Conn {
                    stream: &stream,
                    slot,
                    until: accepted + s.limits.deadline,
                };
                let _back = GiveBack(&s.slots, slot);
                routes::serve(&conn, &s);
            });
        if spawned.is_err() {
            shared.slots.give_back(slot);
        }
    }
}

/// A request slot given back when its thread ends, however it ends.
struct GiveBack<'a>(&'a slots::Slots, usize);

impl Drop for GiveBack<'_> {
    fn drop(&mut self) {
        self.0.give_back(self.1);
    }
}
