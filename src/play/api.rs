//! The seam between a session in play (`play`) and the server that shows it
//! (`play::server`): the server knows only JSON in and out.

use serde_json::Value;

/// One session in play. Every method is quick (no I/O but the log's append).
pub(crate) trait Table: Send {
    /// Everything the GM's screen shows (the shape "GM view" below).
    fn gm(&self) -> Value;
    /// Only what the players may see (the shape "Players' view" below).
    /// Never a Difficulty, a trap's text, an unvisited stop or any GM-only field.
    fn players(&self) -> Value;
    /// Carries out one action from the GM's screen (the shapes "Actions" below):
    /// appends its line to the play log (fsynced) before answering, and answers
    /// with the "Answer" shape. A refused action writes nothing and gives the
    /// message a GM reads (Err).
    fn act(&mut self, action: &Value) -> Result<Value, String>;
    /// Bumped by every change the players' view could show; the server's SSE
    /// stream sends the players' view again when it moves.
    fn version(&self) -> u64;
}
