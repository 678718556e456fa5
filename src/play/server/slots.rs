//! Who may hold a connection, so that no guest can lock the GM out.
//!
//! - [`Slots`]: the request slots (reading a request and answering it).
//!   When every slot is taken, the oldest connection that is not the
//!   GM's is closed to make room for the new one; a connection becomes the
//!   GM's once its request has shown the GM's token, and is never closed
//!   for room. So a guest (or 64) dripping bytes cannot keep the GM's
//!   requests out: each new connection pushes the oldest guest out.
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

struct Slot {
    id: usize,
    since: Instant,
    gm: bool,
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

    /// A slot for `conn` (its id): a free one, or the oldest guest's, whose
    /// connection is closed. `None` only when every slot is the GM's.
    pub(super) fn take(&self, conn: &TcpStream) -> Option<usize> {
        let handle = conn.try_clone().ok()?;
        let mut held = self.held();
        if held.len() >= self.cap {
            let oldest = held
                .iter()
                .enumerate()
                .filter(|(_, s)| !s.gm)
                .min_by_key(|(_, s)| s.since)
                .map(|(i, _)| i)?;
            let out = held.swap_remove(oldest);
            let _ = out.conn.shutdown(Shutdown::Both);
        }
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        held.push(Slot {
            id,
            since: Instant::now(),
            gm: false,
            conn: handle,
        });
        Some(id)
    }

    /// The connection in slot `id` showed the GM's token: never closed for
    /// room.
    pub(super) fn gm(&self, id: usize) {
        if let Some(s) = self.held().iter_mut().find(|s| s.id == id) {
            s.gm = true;
        }
    }

    /// Slot `id` is free again (nothing if it was taken for room).
    pub(super) fn give_back(&self, id: usize) {
        self.held().retain(|s| s.id != id);
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
