//! `play`: one session at the table — the session's pack made again from
//! its sources, every roll and mark the GM makes (each a line of the
//! append-only play log, replayed on a restart), the GM's view and the
//! players' (an allow-list: nothing GM-only ever reaches it), and the
//! record pre-filled from the log (`record N`). The HTTP server over it
//! is `play::server`; the two meet at [`api::Table`] (JSON in and out).
//!
//! - [`api`]: the seam, [`api::Table`].
//! - `load`: what the session starts from (PCs, items and their players'
//!   sides, vouchers, Heal Checks, the map as the party knows it).
//! - `log`: the play log's lines, written and read back.
//! - `action`: an action from the GM's screen (or a log line), checked;
//!   `decode`, its JSON object shown to serde's derive.
//! - `perform`: an action carried out — its rolls on the session's
//!   streams, its line and its answer.
//! - `marks`: where the session stands (the marks of the log); `fold`, the
//!   log folded into them.
//! - `views`: the GM's view and the players' view.
//! - `record`: the record a played session's log fills in.
//! - [`server`]: the GM's and the players' screens over HTTP.

mod action;
pub(crate) mod api;
mod decode;
mod fold;
mod load;
mod log;
mod marks;
mod outcome;
mod perform;
pub(crate) mod record;
mod rolls;
pub(crate) mod server;
mod views;

#[cfg(test)]
mod core_marks;
#[cfg(test)]
mod kept;
#[cfg(test)]
mod refusals;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::error::{Error, UsageError};
use crate::output::{Appender, Held};
use crate::pack::Sources;
use crate::workspace::Workspace;

pub(crate) use load::Fixed;

/// Where a session is played from.
pub(crate) enum Source {
    Campaign { n: Option<usize> },
    Pack(PathBuf),
}

/// Opens the session (resuming from its play log if there is one), its
/// lock held: a second `play` on the same session is refused, naming the
/// first's address (which the caller writes with [`Held::say`]).
pub(crate) fn open(ws: &Workspace, source: Source) -> Result<(Box<dyn api::Table>, Held), Error> {
    let (fixed, log) = match source {
        Source::Campaign { n } => campaign(ws, n)?,
        Source::Pack(dir) => plain(ws, &dir)?,
    };
    let held = Held::take(&log.with_file_name(LOCK))?;
    Ok((Box::new(Play::resume(fixed, &log)?), held))
}

/// The lock file beside a play log, held while `play` serves the session
/// (`verify` leaves it and the log be in a pack folder).
pub(crate) const LOCK: &str = crate::pack::PLAYED[1];

/// The session a campaign plays: `n`, or the last prepped without a
/// record.
pub(crate) fn session_to_play(ws: &Workspace, n: Option<usize>) -> Result<usize, Error> {
    let Some(root) = &ws.campaign else {
        return Err(UsageError::NotInCampaign { what: "`play N`" }.into());
    };
    let (files, _) = crate::campaign::folder::Files::read(root)?;
    let n = n.unwrap_or_else(|| files.next_session());
    if files.record(n).is_some() {
        return Err(Error::input(
            Diagnostic::message(format!(
                "session {n} has a record already (sessions/{n}/record.toml): it was played"
            ))
            .with_hint(format!(
                "play the next session (`tablewright prep` makes it), or remove \
                 sessions/{n}/record.toml to play session {n} again"
            )),
        ));
    }
    if !crate::pack::campaign_prepped(ws, n) {
        return Err(Error::input(
            Diagnostic::message(format!(
                "there is no session to play: session {n} was never prepped (no pack in out/session-{n})"
            ))
            .with_hint(format!("prep it first: `tablewright prep {n}`")),
        ));
    }
    Ok(n)
}

/// Where session `n`'s play log is.
pub(crate) fn campaign_log(ws: &Workspace, n: usize) -> Option<PathBuf> {
    let root = ws.campaign.as_ref()?;
    Some(root.join("sessions").join(n.to_string()).join("play.log"))
}

fn campaign(ws: &Workspace, n: Option<usize>) -> Result<(Fixed, PathBuf), Error> {
    let n = session_to_play(ws, n)?;
    let fixed = campaign_fixed(ws, n)?;
    let log = campaign_log(ws, n).expect("in a campaign");
    Ok((fixed, log))
}

/// Session `n` of the campaign, as its pack starts it.
pub(crate) fn campaign_fixed(ws: &Workspace, n: usize) -> Result<Fixed, Error> {
    let src = Sources::read_campaign(ws, Some(n), &Default::default())?;
    let pack = src.generate()?;
    fixed_of(n, &src, pack)
}

/// Session `n` of the campaign from its sources and pack, made already.
pub(crate) fn fixed_of(
    n: usize,
    src: &Sources,
    pack: crate::generators::session::Pack,
) -> Result<Fixed, Error> {
    let state = &src.campaign.as_ref().expect("a campaign's sources").state;
    let given = Given {
        seed: src.seed.clone(),
        library: src.library,
        share: src.share_line().text(),
        each: load::supplies_each(src),
    };
    Ok(in_campaign(n, state, given, pack))
}

/// What a campaign's session in play takes besides its pack and the
/// state it starts from: its seed, tables and share line, and the
/// campaign's supplies a PC (for a state no record has set them in).
pub(crate) struct Given {
    pub seed: crate::seed::Seed,
    pub library: &'static crate::content::Library,
    pub share: String,
    pub each: (u32, u32),
}

/// Session `n` of a campaign in play, from the `state` it starts from
/// and its `pack`.
pub(crate) fn in_campaign(
    n: usize,
    state: &crate::campaign::state::State,
    given: Given,
    pack: crate::generators::session::Pack,
) -> Fixed {
    let page = pack.campaign.clone().expect("a campaign's pack");
    let pcs = load::pcs(&pack, &levels_of(&page));
    let (rations, water) = load::supplies(given.each, state, pcs.len());
    Fixed {
        title: pack.title.clone(),
        session: n,
        campaign: true,
        system: pack.system,
        share: given.share,
        seed: given.seed,
        library: given.library,
        day: page.day,
        stop: page.stop.clone(),
        pcs,
        vouchers: page.after.vouchers.clone(),
        items: load::items(&pack),
        heal: load::heal_rows(state),
        money: state.money,
        rations,
        water,
        map: pack.map.clone(),
        reveal: page.reveal.clone(),
        after: Some(page.after.clone()),
        pack,
    }
}

/// Each PC's Mettle or health at the start, by name.
fn levels_of(page: &crate::generators::session::CampaignPage) -> Vec<(String, i64)> {
    page.recap
        .pcs
        .iter()
        .map(|p| (p.name.clone(), p.level))
        .collect()
}

/// A log that cannot be replayed, as the error a GM reads.
pub(crate) fn log_error(path: &Path, e: log::LogError) -> Error {
    Error::input(
        Diagnostic::at(path.display().to_string(), e.line, 1, e.message).with_hint(log::HINT),
    )
}

fn plain(ws: &Workspace, dir: &Path) -> Result<(Fixed, PathBuf), Error> {
    let bundle = dir.join("bundle.toml");
    let src = Sources::read(ws, &bundle, None, &Default::default(), &mut std::io::sink())?;
    let pack = src.generate()?;
    let fixed = Fixed {
        title: pack.title.clone(),
        session: 0,
        campaign: false,
        system: pack.system,
        share: src.share_line().text(),
        seed: src.seed.clone(),
        library: src.library,
        day: 0,
        stop: None,
        pcs: load::pcs(&pack, &[]),
        vouchers: Vec::new(),
        items: load::items(&pack),
        heal: Vec::new(),
        money: 0,
        rations: 0,
        water: 0,
        map: pack.map.clone(),
        reveal: None,
        after: None,
        pack,
    };
    Ok((fixed, dir.join(crate::pack::PLAYED[0])))
}

/// One action done, as the session keeps it for as long as it is in
/// play: its number, the action as checked and the part of its outcome
/// read back later (small: a session's memory grows by little a line).
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub k: usize,
    pub action: action::Action,
    pub kept: outcome::Kept,
}

/// One action carried out, before it is kept: its entry, its log line and
/// its whole outcome (for its answer).
#[derive(Debug, Clone)]
pub(crate) struct Done {
    pub entry: Entry,
    pub line: String,
    pub outcome: outcome::Outcome,
}

/// A roll among the last the GM's view shows: its line and outcome whole.
#[derive(Debug, Clone)]
pub(crate) struct Recent {
    pub k: usize,
    pub line: String,
    pub outcome: outcome::Outcome,
}

/// A session in play.
pub(crate) struct Play {
    pub(crate) fixed: Fixed,
    pub(crate) entries: Vec<Entry>,
    /// The log's last [`api::LOG_WINDOW`] lines (the GM's view shows no
    /// more), oldest first.
    pub(crate) lines: std::collections::VecDeque<String>,
    /// The last [`views::RESULTS`] rolls, newest first.
    pub(crate) recent: std::collections::VecDeque<Recent>,
    /// Where the session stands: the entries folded, kept as each is
    /// pushed.
    pub(crate) marks: marks::Marks,
    pub(crate) log: Option<Appender>,
    version: u64,
    drawn: views::Drawn,
}

impl Play {
    /// The session from `fixed`, its log at `path` replayed (a torn last
    /// line cut off), appending from there.
    pub(crate) fn resume(fixed: Fixed, path: &Path) -> Result<Play, Error> {
        let text = match std::fs::read(path) {
            Ok(bytes) => String::from_utf8(bytes).map_err(|_| {
                Error::input(
                    Diagnostic::message(format!(
                        "{}: the play log is not UTF-8 text",
                        path.display()
                    ))
                    .with_hint(log::HINT),
                )
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(crate::output::OutputError::Write(path.to_owned(), e).into()),
        };
        let mut play = Play::replay(fixed, &text).map_err(|e| log_error(path, e))?;
        let keep = log::lines(&text).map(|(_, keep)| keep).unwrap_or(0);
        play.log = Some(Appender::open(path, keep as u64)?);
        Ok(play)
    }

    /// The session from `fixed` with the log `text` replayed (nothing
    /// appended: no log open).
    pub(crate) fn replay(fixed: Fixed, text: &str) -> Result<Play, log::LogError> {
        let mut play = Play {
            marks: marks::Marks::start(&fixed),
            fixed,
            entries: Vec::new(),
            lines: Default::default(),
            recent: Default::default(),
            log: None,
            version: 0,
            drawn: views::Drawn::default(),
        };
        let (lines, _) = log::lines(text)?;
        for (i, line) in lines.iter().enumerate() {
            let fail = |message: String| log::LogError {
                line: i + 1,
                message,
            };
            let read = log::read(line).map_err(fail)?;
            if read.k != i + 1 {
                return Err(fail(format!(
                    "this is line {} but says it is action {}: lines are numbered from 1 in order",
                    i + 1,
                    read.k
                )));
            }
            let done = play.carry_out(&read.action, false).map_err(fail)?;
            if done.line != *line {
                return Err(fail(format!(
                    "the line does not replay to what it says: it says `{line}`, replayed it is \
                     `{}` (edited by hand, or written by another version)",
                    done.line
                )));
            }
            play.push(done);
        }
        Ok(play)
    }

    /// Check and carry out `action` as the next action, without keeping it
    /// (`fresh`: from the screen, not a log line read back).
    fn carry_out(&self, action: &Value, fresh: bool) -> Result<Done, String> {
        let k = self.entries.len() + 1;
        if k > log::MAX_LINES {
            return Err(format!(
                "the play log holds {} actions, the most one session may",
                log::MAX_LINES
            ));
        }
        let checked = action::Action::from_json(action)?;
        perform::perform(self, k, checked, fresh)
    }

    fn push(&mut self, done: Done) {
        let Done {
            entry,
            line,
            outcome,
        } = done;
        if perform::players_see(self, &entry.action) {
            self.version += 1;
        }
        if entry.action.is_roll() {
            self.recent.push_front(Recent {
                k: entry.k,
                line: line.clone(),
                outcome,
            });
            self.recent.truncate(views::RESULTS);
        }
        self.lines.push_back(line);
        if self.lines.len() > api::LOG_WINDOW {
            self.lines.pop_front();
        }
        self.entries.push(entry);
        let mut marks = std::mem::take(&mut self.marks);
        marks.push(self, self.entries.last().expect("just pushed"));
        self.marks = marks;
    }
}

impl api::Table for Play {
    fn gm_since(&self, since: usize) -> Value {
        api::json(&views::gm(self, since))
    }

    fn players(&self) -> Value {
        api::json(&views::players(self, self.version))
    }

    fn act(&mut self, action: &Value) -> Result<Value, api::NotDone> {
        let done = self.carry_out(action, true)?;
        if done.line.len() > log::MAX_LINE {
            return Err(api::NotDone::from(format!(
                "this action's line would be {} bytes long, past the most a play log line may be \
                 ({}); shorten its text",
                done.line.len(),
                log::MAX_LINE
            )));
        }
        if let Some(log) = &mut self.log {
            log.line(&done.line).map_err(unsaved)?;
        }
        let answer = api::json(&Answer {
            k: done.entry.k,
            line: &done.line,
            result: &done.outcome,
        });
        self.push(done);
        Ok(answer)
    }

    fn version(&self) -> u64 {
        self.version
    }
}

/// An action's answer (`/api/act`): its number, its log line and what
/// came of it.
#[derive(serde::Serialize)]
struct Answer<'a> {
    k: usize,
    line: &'a str,
    result: &'a outcome::Outcome,
}

/// A log line that was not written, as the answer the server gives (5xx:
/// the disk failed, not the action).
fn unsaved(e: crate::output::OutputError) -> api::NotDone {
    let full = matches!(&e, crate::output::OutputError::Write(_, io)
        if matches!(io.kind(), std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded));
    api::NotDone {
        message: format!("{e}: the action was not done; free some space and do it again"),
        unsaved: Some(match full {
            true => api::Unsaved::Full,
            false => api::Unsaved::Failed,
        }),
    }
}
