//! The seam between a session in play (`play`) and the server that shows it
//! (`play::server`): the server knows only JSON in and out. On the session's
//! side everything is a type — an action is decoded into `action::Action`
//! as it comes in, and the views and answers are `views`' structs — turned
//! into JSON here, at the seam ([`json`]), and nowhere else.
//!
//! Why [`Table`] gives the server a [`Value`] and not the typed views, to
//! be serialised at the HTTP edge (weighed in issue 54, and left so):
//!
//! - The views borrow the session (`views::Gm<'_>`, `views::Players<'_>`,
//!   the answer's outcome), which sits behind the server's lock. Handed
//!   out typed, they would be serialised while the lock is held — the
//!   same work as now, in another file — or written to a slow client's
//!   socket under it, stalling every screen; owned copies would clone the
//!   log's window on every request.
//! - The server is tried against a stand-in table (`server::tests`) that
//!   answers its own small JSON; typed returns would need associated
//!   types or a generic server (`Shared`, `routes`, `slots`, the SSE
//!   stream), and the stand-in would have to build a session's views.
//! - The bytes on the wire go through a [`Value`] anyway: its objects are
//!   sorted by key (see [`json`]), as the pages have always had them, so
//!   the edge would turn a view into a [`Value`] just as this seam does.
//! - The action coming in stays a [`Value`] on purpose: the session
//!   decodes it (`decode`), with the refusals a GM reads, as it decodes a
//!   log line.

use serde::Serialize;
use serde_json::Value;

/// A view or an answer as the server sends it. Through [`Value`] (its
/// objects sorted by key: serde_json without `preserve_order`), so every
/// object's keys, the structs' and the nested outcomes' alike, come out
/// sorted, as the pages have always had them.
pub(crate) fn json<T: Serialize>(view: &T) -> Value {
    serde_json::to_value(view).expect("a view serialises to JSON")
}

/// Most lines of the log one GM's view carries: the newest. The page
/// keeps as many.
pub(crate) const LOG_WINDOW: usize = 100;

/// One session in play. Every method is quick (no I/O but the log's append).
pub(crate) trait Table: Send {
    /// Everything the GM's screen shows (the shape "GM view" below), the
    /// log's lines after line `since` only (and of those the last
    /// [`LOG_WINDOW`] at most), so the answer does not grow with the log.
    fn gm_since(&self, since: usize) -> Value;
    /// The GM's view with the log's last [`LOG_WINDOW`] lines (tests).
    #[cfg(test)]
    fn gm(&self) -> Value {
        self.gm_since(0)
    }
    /// Only what the players may see (the shape "Players' view" below).
    /// Never a Difficulty, a trap's text, an unvisited stop or any GM-only field.
    fn players(&self) -> Value;
    /// Carries out one action from the GM's screen (the shapes "Actions" below):
    /// appends its line to the play log (fsynced) before answering, and answers
    /// with the "Answer" shape. A refused action writes nothing and gives the
    /// message a GM reads; an action whose line could not be written (a full
    /// disk) is not done and leaves the log as it was ([`NotDone::unsaved`]).
    fn act(&mut self, action: &Value) -> Result<Value, NotDone>;
    /// Bumped by every change the players' view could show; the server's SSE
    /// stream sends the players' view again when it moves.
    fn version(&self) -> u64;
}

/// Why an action was not done: the message a GM reads, and whether it was
/// the log that failed (the disk, not the action: answered 5xx) — with
/// whether that was for want of space (507).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct NotDone {
    pub(crate) message: String,
    pub(crate) unsaved: Option<Unsaved>,
}

/// Why a line was not written.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Unsaved {
    /// The disk is full (or over quota).
    Full,
    /// Any other write error.
    Failed,
}

impl NotDone {
    /// The status the server answers with.
    pub(crate) fn status(&self) -> u16 {
        match self.unsaved {
            None => 422,
            Some(Unsaved::Full) => 507,
            Some(Unsaved::Failed) => 500,
        }
    }
}

impl From<String> for NotDone {
    fn from(message: String) -> NotDone {
        NotDone {
            message,
            unsaved: None,
        }
    }
}

impl From<&str> for NotDone {
    fn from(message: &str) -> NotDone {
        message.to_string().into()
    }
}

impl std::ops::Deref for NotDone {
    type Target = str;
    fn deref(&self) -> &str {
        &self.message
    }
}

impl std::fmt::Display for NotDone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}
