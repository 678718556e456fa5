//! Who may hold a connection, so that no guest can lock the GM out.
//!
//! - [`Slots`]: the request slots (reading a request and answering it).
//!   When every slot is taken, a guest's connection is closed to make room
//!   for the new one, in this order: one from another machine before one
//!   from this machine; then one that has said nothing while its thread
//!   listened, one still saying its request, one whose thread has not
//!   listened yet (the GM's request may be waiting in it, unread); the
//!   oldest first among equals. A connection that showed the GM's token is
//!   never closed for room. Connections from other machines hold at most
//!   three in four of the slots ([`RESERVE`]), so however fast guests
//!   on the network connect, say nothing and connect again, a request from
//!   this machine (where the GM's screen is opened) always finds room, and
//!   64 guests dripping bytes cannot keep the GM's requests out either.
//! - [`Streams`]: the players' event streams, a pool of their own with a
//!   cap, apart from the request slots.

use std::net::{Shutdown, TcpStream};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// The request slots.
pub(super) struct Slots {
    held: Mutex<Vec<Slot>>,
    cap: usize,
    next: AtomicUsize,
}

/// The share of the request slots (one in `RESERVE`) that only
/// connections from this machine may take: 16 of 64.
pub(super) const RESERVE: usize = 4;

/// How far a connection has gone, which says whether it may be closed
/// for room (in this order: silent first, the GM's never).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    /// Its thread listens and nothing has come.
    Silent,
    /// Its request is coming in.
    Saying,
    /// Its thread has not listened yet.
    Fresh,
    /// It showed the GM's token.
    Gm,
}

struct Slot {
    id: usize,
    since: Instant,
    stage: Stage,
    /// From this machine (a loopback address).
    local: bool,
    /// A handle on the connection, to close it for room.
    conn: TcpStream,
}

impl Slots {
    pub(super) fn new(cap: usize) -> Slots {
        Slots {
            held: Mutex::new(Vec::with_capacity(cap)),
            cap,
            next: AtomicUsize::new(0),
        }
    }

    fn held(&self) -> std::sync::MutexGuard<'_, Vec<Slot>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A slot for `conn` (its id; `local`: from this machine): a free
    /// one, or a guest's, whose connection is closed (see the module's
    /// order). `None` when no slot may be freed for it: every one is the
    /// GM's, or it comes from another machine and those hold all they may.
    pub(super) fn take(&self, conn: &TcpStream, local: bool) -> Option<usize> {
        let handle = conn.try_clone().ok()?;
        let mut held = self.held();
        let remote = held.iter().filter(|s| !s.local).count();
        let full = held.len() >= self.cap;
        if full || (!local && remote >= self.cap - self.cap / RESERVE) {
            let out = held
                .iter()
                .enumerate()
                .filter(|(_, s)| s.stage != Stage::Gm && (local || !s.local))
                .min_by_key(|(_, s)| (s.local, s.stage, s.since))
                .map(|(i, _)| i)?;
            let out = held.swap_remove(out);
            let _ = out.conn.shutdown(Shutdown::Both);
        }
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        held.push(Slot {
            id,
            since: Instant::now(),
            stage: Stage::Fresh,
            local,
            conn: handle,
        });
        Some(id)
    }

    /// Slot `id`'s thread listens: while nothing comes, it is the first
    /// closed for room.
    pub(super) fn listening(&self, id: usize) {
        self.stage(id, Stage::Silent);
    }

    /// Slot `id`'s request is coming in.
    pub(super) fn saying(&self, id: usize) {
        self.stage(id, Stage::Saying);
    }

    /// The connection in slot `id` showed the GM's token: never closed for
    /// room.
    pub(super) fn gm(&self, id: usize) {
        self.stage(id, Stage::Gm);
    }

    /// Slot `id` moves on to `stage` (never back: a slot that has said
    /// something is not silent again, the GM's stays the GM's).
    fn stage(&self, id: usize, stage: Stage) {
        let rank = |s: Stage| match s {
            Stage::Fresh => 0,
            Stage::Silent => 1,
            Stage::Saying => 2,
            Stage::Gm => 3,
        };
        if let Some(s) = self
            .held()
            .iter_mut()
            .find(|s| s.id == id && rank(stage) > rank(s.stage))
        {
            s.stage = stage;
        }
    }

    /// Slot `id` is free again (nothing if it was taken for room).
    pub(super) fn give_back(&self, id: usize) {
        self.held().retain(|s| s.id != id);
    }

    /// Slots whose thread listens and has heard nothing.
    #[cfg(test)]
    pub(super) fn silent(&self) -> usize {
        self.held()
            .iter()
            .filter(|s| s.stage == Stage::Silent)
            .count()
    }

    /// Slots taken.
    #[cfg(test)]
    pub(super) fn taken(&self) -> usize {
        self.held().len()
    }
}

/// The players' streams open, at most `cap`.
pub(super) struct Streams {
    open: AtomicUsize,
    cap: usize,
}

impl Streams {
    pub(super) fn new(cap: usize) -> Streams {
        Streams {
            open: AtomicUsize::new(0),
            cap,
        }
    }

    /// One more stream, if there is room; given back when it is dropped.
    pub(super) fn open(&self) -> Option<StreamSlot<'_>> {
        let was = self.open.fetch_add(1, Ordering::SeqCst);
        if was >= self.cap {
            self.open.fetch_sub(1, Ordering::SeqCst);
            return None;
        }
        Some(StreamSlot(self))
    }

    /// Streams open now.
    #[cfg(test)]
    pub(super) fn count(&self) -> usize {
        self.open.load(Ordering::SeqCst)
    }
}

/// A stream's place in [`Streams`], given back on drop.
pub(super) struct StreamSlot<'a>(&'a Streams);

impl Drop for StreamSlot<'_> {
    fn drop(&mut self) {
        self.0.open.fetch_sub(1, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    /// Loopback connections (the client's end: all `take` needs).
    fn conns(n: usize) -> (TcpListener, Vec<TcpStream>) {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let c = (0..n)
            .map(|_| TcpStream::connect(l.local_addr().unwrap()).unwrap())
            .collect();
        (l, c)
    }

    fn held(s: &Slots, id: usize) -> bool {
        s.held().iter().any(|h| h.id == id)
    }

    /// Guests on the network that connect, say nothing and come back the
    /// moment they are closed never hold the slots kept for this machine,
    /// and never push out a request from it, read or not.
    #[test]
    fn guests_from_the_network_never_push_out_this_machines_requests() {
        // (A slot keeps a handle on its connection; one connection stands
        // for many here, which `take` does not mind.)
        let (_l, c) = conns(1);
        let s = Slots::new(20);
        let mut mine = Vec::new();
        for (i, conn) in std::iter::repeat_n(&c[0], 150).enumerate() {
            if i % 10 == 5 {
                mine.push(s.take(conn, true).unwrap());
                continue;
            }
            if let Some(id) = s.take(conn, false) {
                s.listening(id);
            }
            let remote = s.held().iter().filter(|h| !h.local).count();
            assert!(remote <= 15, "{remote} slots from the network");
        }
        // Fifteen requests from this machine, none read: five slots were
        // kept for them, the network's took the others' place, and none
        // was pushed out.
        assert_eq!(mine.len(), 15);
        assert!(
            mine.iter().all(|id| held(&s, *id)),
            "a local request was closed"
        );
        // With every slot taken, the network's newcomers push out their own.
        mine.push(s.take(&c[0], true).unwrap());
        assert_eq!(s.taken(), 20);
        let newest = s.take(&c[0], false).unwrap();
        assert!(held(&s, newest) && mine.iter().all(|id| held(&s, *id)));
    }

    /// Among this machine's guests: silent before saying before unread,
    /// oldest first; the GM's never; `None` when only the GM's are left.
    #[test]
    fn silent_guests_go_first_then_talkers_then_the_unread_and_the_gm_never() {
        let (_l, c) = conns(8);
        let s = Slots::new(3);
        let (a, b, d) = (
            s.take(&c[0], true).unwrap(),
            s.take(&c[1], true).unwrap(),
            s.take(&c[2], true).unwrap(),
        );
        s.saying(a);
        s.listening(d);
        let e = s.take(&c[3], true).unwrap();
        assert!(
            held(&s, a) && held(&s, b) && !held(&s, d),
            "the silent one goes first"
        );
        let f = s.take(&c[4], true).unwrap();
        assert!(
            !held(&s, a) && held(&s, b) && held(&s, e),
            "then the oldest talker"
        );
        s.gm(b);
        s.listening(b);
        let g = s.take(&c[5], true).unwrap();
        assert!(
            held(&s, b) && !held(&s, e) && held(&s, f),
            "then the oldest unread; the GM stays"
        );
        s.gm(f);
        s.gm(g);
        assert_eq!(s.take(&c[6], true), None);
    }
}
