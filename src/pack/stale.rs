//! Stale packs: a campaign's packs on disk (`out/session-K/`) made from an
//! older campaign state than the campaign's files give now — an earlier
//! record (or a plan, the party file, `campaign.toml`, the tables or
//! templates) edited after they were prepped.
//!
//! Each pack carries what it was made from (its `bundle.toml`: the
//! campaign's files as they stood for it): [`find`] compares it with what
//! the campaign makes that session from now, and names exactly what
//! changed since that pack was made — never a guess from which record
//! comes before it. `prep N` refuses while a pack before N is stale
//! ([`refuse`]: what changed, and every stale pack); `prep --force` makes
//! them again in order; `verify` and `campaign` list them, and `verify
//! DIR` on a stale pack of the campaign says what `prep` says ([`of_folder`]).

use std::path::{Path, PathBuf};

use super::base::{campaign_bundle, campaign_files, campaign_pack_dirs};
use super::reroll;
use crate::campaign::RecordFile;
use crate::campaign::folder::{CampaignFile, Files};
use crate::diagnostic::Diagnostic;
use crate::error::Error;
use crate::generators::join_and;
use crate::input::bundle::Bundle;
use crate::workspace::Workspace;

/// A pack made from an older campaign state.
#[derive(Debug, Clone, serde::Serialize)]
pub(crate) struct Stale {
    /// Its session.
    pub session: usize,
    /// Its folder.
    pub folder: PathBuf,
    /// What it was made from that changed since, in words (`session 1's
    /// record`, `session 2's plan (sessions/2/plan.toml)`, `the party
    /// file (party.toml)`); never empty.
    pub changed: Vec<String>,
    /// The first record among them, by session (where a refusal points).
    #[serde(skip)]
    pub record: Option<usize>,
}

/// The campaign's stale packs, in order of their sessions, and its next
/// session (the first without a record).
pub(crate) struct Staleness {
    pub next: usize,
    pub packs: Vec<Stale>,
}

/// The stale packs of the campaign the workspace is in.
pub(crate) fn find(ws: &Workspace) -> Result<Staleness, Error> {
    let (files, file, ws) = campaign_files(ws)?;
    find_in(&ws, &files, &file)
}

fn find_in(ws: &Workspace, files: &Files, file: &CampaignFile) -> Result<Staleness, Error> {
    let next = files.next_session();
    let mut packs = Vec::new();
    for k in 1..=next {
        let Some(folder) = campaign_pack_dirs(ws, k)
            .into_iter()
            .find(|d| d.join("bundle.toml").is_file())
        else {
            continue;
        };
        // A bundle that does not read is `verify`'s to name (damaged).
        let Some(was) = reroll::bundle_in(&folder) else {
            continue;
        };
        let now = campaign_bundle(ws, files, file, Some(k))?.bundle;
        let (changed, record) = changed_since(&was, &now, k);
        if !changed.is_empty() {
            packs.push(Stale {
                session: k,
                folder,
                changed,
                record,
            });
        }
    }
    Ok(Staleness { next, packs })
}

/// What session `k`'s pack was made from (`was`, its bundle) that the
/// campaign now makes it from differently (`now`), in words, and the
/// first record among them. A plan's `[rerolls]` are the pack's own
/// (`prep --reroll`), and the tool's version is no campaign state: a
/// pack made by another version is `verify`'s to name.
fn changed_since(was: &Bundle, now: &Bundle, k: usize) -> (Vec<String>, Option<usize>) {
    let mut words = Vec::new();
    let mut record = None;
    for name in reroll::campaign_files_changed(was, now) {
        let session = name
            .strip_prefix("sessions/")
            .and_then(|r| r.split_once('/'))
            .and_then(|(n, rest)| Some((n.parse::<usize>().ok()?, rest)));
        words.push(match session {
            Some((n, "record.toml")) => {
                record.get_or_insert(n);
                format!("session {n}'s record")
            }
            Some((n, _)) if n == k => format!("its own plan ({name})"),
            Some((n, _)) => format!("session {n}'s plan ({name})"),
            None => format!("the campaign file ({name})"),
        });
    }
    if was.party != now.party {
        let name = now.party.as_ref().or(was.party.as_ref());
        words.push(format!(
            "the party file ({})",
            name.map_or("", |p| p.name.as_str())
        ));
    }
    if was.content != now.content {
        words.push("the tables".into());
    }
    if was.templates != now.templates {
        words.push("the templates".into());
    }
    (words, record)
}

/// Refuse to make session `n` while a pack before it is stale: what
/// changed (pointed at the record when one did) and every stale pack,
/// with the one command that makes them again. A stale pack `n` itself
/// is simply made again.
pub(super) fn refuse(
    ws: &Workspace,
    files: &Files,
    file: &CampaignFile,
    n: usize,
) -> Result<(), Error> {
    let found = find_in(ws, files, file)?;
    let Some(first) = found.packs.first().filter(|p| p.session < n) else {
        return Ok(());
    };
    let sessions: Vec<String> = found.packs.iter().map(|p| p.session.to_string()).collect();
    Err(Error::input(told(files, first, &sessions)?))
}

/// `verify DIR` on one of the campaign's packs: what `prep` says of it
/// when it is stale ([`told`]: what changed, at the first line of the
/// record that did), or `None` when DIR is no stale pack of the campaign.
pub(crate) fn of_folder(ws: &Workspace, dir: &Path) -> Result<Option<Diagnostic>, Error> {
    let (files, file, ws) = campaign_files(ws)?;
    let found = find_in(&ws, &files, &file)?;
    let Ok(dir) = dir.canonicalize() else {
        return Ok(None);
    };
    let Some(pack) = found
        .packs
        .iter()
        .find(|p| p.folder.canonicalize().is_ok_and(|f| f == dir))
    else {
        return Ok(None);
    };
    told(&files, pack, &[pack.session.to_string()]).map(Some)
}

/// What `first`, the first stale pack, was made from that changed (at the
/// record's first changed line when a record did), the stale packs'
/// `sessions`, and the one command that makes them again.
fn told(files: &Files, first: &Stale, sessions: &[String]) -> Result<Diagnostic, Error> {
    let what = join_and(&first.changed);
    let one = sessions.len() == 1;
    let message = format!(
        "{what} changed after session {} was prepped: the {} of session{} {} {} made from an \
         older campaign state",
        first.session,
        if one { "pack" } else { "packs" },
        if one { "" } else { "s" },
        join_and(sessions),
        if one { "is" } else { "are" },
    );
    let hint = format!(
        "run `tablewright prep --force` to make {} again in order, from the campaign as it is \
         now (a file you edited in a pack is kept, its new version written beside it); or put \
         {what} back as it was",
        if one { "it" } else { "them" }
    );
    let at = first.record.and_then(|r| files.record(r));
    let diagnostic = match at {
        Some(text) => {
            let path = files.path_of(&text.name);
            // Where the record now first differs from the one the stale
            // pack was made from (its bundle); else at its `session`.
            let was = reroll::bundle_in(&first.folder).and_then(|b| {
                let files = b.campaign?.files;
                files
                    .into_iter()
                    .find(|f| f.name == text.name)
                    .map(|f| f.text)
            });
            match was.and_then(|was| first_change(&was, &text.text)) {
                Some((line, column, width)) => {
                    Diagnostic::at(path.display().to_string(), line, column, message)
                        .with_source(&text.text, width)
                }
                None => RecordFile::from_text(&path, text.text.clone())?.at_key("session", message),
            }
        }
        None => Diagnostic::message(message),
    };
    Ok(diagnostic.with_hint(hint))
}

/// The first line of `now` that is not as it was in `was` (1-based), with
/// the column its text starts at and its width; the last line when `now`
/// only lost lines at its end. `None` when they are the same.
fn first_change(was: &str, now: &str) -> Option<(usize, usize, usize)> {
    let (old, new): (Vec<&str>, Vec<&str>) = (was.lines().collect(), now.lines().collect());
    let i = (0..new.len().max(old.len())).find(|&i| old.get(i) != new.get(i))?;
    let i = i.min(new.len().checked_sub(1)?);
    let line = new[i];
    let text = line.trim_start();
    let column = line.chars().count() - text.chars().count() + 1;
    Some((i + 1, column, text.trim_end().chars().count().max(1)))
}

#[cfg(test)]
mod tests {
    use super::first_change;

    #[test]
    fn a_refusal_points_at_the_first_line_that_changed() {
        let was = "session = 1\nday = 3\n\n[[pc]]\nname = \"Ada\"\ndamage = 2\n";
        let now = "session = 1\nday = 3\n\n[[pc]]\nname = \"Ada\"\n  damage = 5 # fixed\n";
        assert_eq!(first_change(was, now), Some((6, 3, 18)));
        assert_eq!(first_change(was, was), None);
        // Lines only taken off the end: the last line left.
        assert_eq!(first_change(was, "session = 1\nday = 3\n"), Some((2, 1, 7)));
        // A line added at the end.
        assert_eq!(
            first_change("day = 3\n", "day = 3\nmoney = 5\n"),
            Some((2, 1, 9))
        );
    }
}
