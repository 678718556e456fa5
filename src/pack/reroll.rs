//! `prep --reroll`, computed: one more reroll for each address in the
//! session's `[rerolls]`, the pack's files that change (the rest are left
//! alone) and the items the reroll changed besides the rerolled ones. The
//! command writes the session file, then the files, and prints.
//! [`behind_rerolls`]: a pack folder that a reroll cut short (or a
//! `[rerolls]` edited by hand) left behind its session.
//!
//! Which files change is decided against the pack folder as it is, never
//! against what today's inputs made before the reroll: a file is written
//! when its new bytes are not the bytes the pack wrote there (the hash its
//! manifest keeps, [`in_step`]). So a reroll after the party file (or the
//! tables, or the templates) changed rewrites every file those touch too,
//! and the pack stays what its new `bundle.toml` makes; [`inputs_changed`]
//! names what changed, for the command to say why.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{PackFiles, Sources};
use crate::diagnostic::Diagnostic;
use crate::error::{Error, UsageError};
use crate::generators::Address;
use crate::generators::session::Pack;
use crate::input::bundle::{with_rerolls, without_rerolls};
use crate::input::session::MAX_REROLLS;
use crate::input::{self, bundle::Bundle, bundle::bundle_from_text};
use crate::output;

/// A reroll, ready to write.
pub(crate) struct Reroll {
    /// The session file the reroll is recorded in.
    pub path: PathBuf,
    /// Its text before, to put back if the pack cannot be written.
    pub before: String,
    /// Its text with the rerolls recorded.
    pub after: String,
    /// The pack's files whose bytes are not those the pack folder's
    /// manifest says were written (or that are missing there).
    pub changed: PackFiles,
    /// Every file of the rerolled pack: published whole, so that a file
    /// the rerolled item no longer has (a zones drawing of foes the reroll
    /// took away) goes, as a plain `prep` of the edited session leaves it.
    pub all: PackFiles,
    /// What the pack was made from that changed since, besides the
    /// session's `[rerolls]` (`party.toml`, "the tables"…).
    pub inputs: Vec<String>,
    /// Items that changed without being rerolled.
    pub knock_on: Vec<Address>,
    /// Each rerolled address and its reroll count now.
    pub counts: BTreeMap<String, u32>,
}

impl Sources {
    /// One more reroll for each of `addresses`, the pack going to `dir`.
    pub(crate) fn reroll(self, addresses: &[String], dir: &Path) -> Result<Reroll, Error> {
        let Some(path) = self.session_path.clone() else {
            return Err(UsageError::RerollBundle.into());
        };
        let Some(before) = rerolls_text(&mut self.bundle.clone()).cloned() else {
            let (n, plan_of) = self
                .campaign
                .as_ref()
                .map_or((0, 0), |c| (c.number, c.plan_of));
            return Err(UsageError::RerollNoPlan { n, plan_of }.into());
        };
        within_limit(&self.session.rerolls, addresses)?;
        let old_pack = self.generate()?;
        let after = with_rerolls(&before, addresses).map_err(|e| {
            Error::input(
                Diagnostic::message(format!("{}: cannot record the reroll: {e}", path.display()))
                    .with_hint("fix the session file so that it reads, then reroll again"),
            )
        })?;
        let session = if self.campaign.is_some() {
            // A plan's [rerolls] are the session's: one more for each.
            let mut session = self.session.clone();
            for a in addresses {
                *session.rerolls.entry(a.clone()).or_insert(0) += 1;
            }
            session
        } else {
            input::session_from_text(&path, &after)?
        };
        let mut bundle = self.bundle.clone();
        if let Some(t) = rerolls_text(&mut bundle) {
            *t = after.clone();
        }
        let sources = Sources {
            bundle,
            session,
            ..self
        };
        let (new_pack, new_files) = sources.build()?;
        let changed = in_step(dir, new_files.clone());
        let inputs = inputs_changed(dir, &sources.bundle);
        let counts = addresses
            .iter()
            .map(|a| (a.clone(), new_pack.rerolls.0.get(a).copied().unwrap_or(0)))
            .collect();
        Ok(Reroll {
            path,
            before,
            after,
            knock_on: knock_on(&old_pack, &new_pack, addresses),
            changed,
            all: new_files,
            inputs,
            counts,
        })
    }
}

/// Each address's count in `[rerolls]` (`recorded`) plus the times the
/// command line asks for it must stay within [`MAX_REROLLS`]. Refused by
/// the flag: a count past the limit is in no line of the file on disk (the
/// edit that would hold it is never written). A count already at the limit
/// is left to [`with_rerolls`], which points at its line in the file.
fn within_limit(recorded: &BTreeMap<String, u32>, addresses: &[String]) -> Result<(), UsageError> {
    let mut asked: BTreeMap<&str, u32> = BTreeMap::new();
    for a in addresses {
        let n = asked.entry(a).or_default();
        *n = n.saturating_add(1);
    }
    for (address, asked) in asked {
        let recorded = recorded.get(address).copied().unwrap_or(0);
        if recorded < MAX_REROLLS && recorded.saturating_add(asked) > MAX_REROLLS {
            return Err(UsageError::RerollsPast {
                address: address.to_owned(),
                asked,
                recorded,
            });
        }
    }
    Ok(())
}

/// Items that changed with a reroll without being rerolled themselves.
fn knock_on(old: &Pack, new: &Pack, rerolled: &[String]) -> Vec<Address> {
    new.addresses()
        .into_iter()
        .filter(|at| !rerolled.contains(&at.to_string()))
        .filter(|at| old.item_json(at) != new.item_json(at))
        .collect()
}

/// Of a pack's `files`, those the pack folder `dir` does not hold as the
/// pack last wrote them: missing there, or whose bytes are not the ones
/// its manifest lists (a file the manifest lists without a hash, or not
/// at all, is compared with what is there). A file the GM edited whose
/// pack bytes did not change is not among them, so it is left alone.
pub(crate) fn in_step(dir: &Path, files: PackFiles) -> PackFiles {
    let listed = output::listed_in(dir);
    files
        .into_iter()
        .filter(|(name, bytes)| {
            let path = dir.join(name);
            if path.symlink_metadata().is_err() {
                return true;
            }
            match listed.get(name) {
                Some(Some(hash)) => *hash != output::digest(bytes),
                _ => {
                    output::read_regular(&path, bytes.len() as u64)
                        .ok()
                        .as_ref()
                        != Some(bytes)
                }
            }
        })
        .collect()
}

/// What the pack in `dir` was made from that `now` makes it from
/// differently, but for the session's `[rerolls]`: the session file (in a
/// campaign: `campaign.toml`, a plan, a record), the party file, the
/// tables, the templates, the tool (by name). Empty when
/// the folder has no bundle that reads.
pub(crate) fn inputs_changed(dir: &Path, now: &Bundle) -> Vec<String> {
    let Some(was) = bundle_in(dir) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let bare = |b: &Bundle| b.session.as_ref().map(|s| without_rerolls(&s.text));
    if bare(&was) != bare(now) {
        let name = now.session.as_ref().map_or("", |s| s.name.as_str());
        out.push(format!("the session file ({name})"));
    }
    if was.party != now.party {
        let name = now
            .party
            .as_ref()
            .or(was.party.as_ref())
            .map(|c| c.name.clone());
        out.push(format!("the party file ({})", name.unwrap_or_default()));
    }
    out.extend(campaign_changed(&was, now));
    if was.content != now.content {
        out.push("the tables".into());
    }
    if was.templates != now.templates {
        out.push("the templates".into());
    }
    if was.tablewright != now.tablewright {
        out.push("the tablewright version".into());
    }
    if was.seed != now.seed || was.ink_saver != now.ink_saver {
        out.push("the seed or --ink-saver".into());
    }
    out
}

/// Whether the pack folder `dir` holds a pack made from the same source
/// as `now` — the same session file (by name), or the same session of a
/// campaign — or no pack that says otherwise: only then does `prep`
/// replace its own files without `--force` when its inputs changed. A
/// folder another session file's pack took (two session files with one
/// seed) is not written over silently.
pub(crate) fn same_source(dir: &Path, now: &Bundle) -> bool {
    let Some(was) = bundle_in(dir) else {
        return true;
    };
    match (&was.session, &now.session, &was.campaign, &now.campaign) {
        (Some(a), Some(b), _, _) => a.name == b.name,
        (None, None, Some(a), Some(b)) => a.session == b.session,
        _ => false,
    }
}

/// The bundle of the pack folder `dir`, if it has one that reads.
pub(super) fn bundle_in(dir: &Path) -> Option<Bundle> {
    let text = input::read_text(&dir.join("bundle.toml"), "bundle").ok()?;
    bundle_from_text(&dir.join("bundle.toml"), &text).ok()
}

/// A campaign's files that differ between two of its packs' bundles, in
/// words: `campaign.toml`, a session's plan (but for its `[rerolls]`), a
/// record — each added, removed or edited.
fn campaign_changed(was: &Bundle, now: &Bundle) -> Vec<String> {
    campaign_files_changed(was, now)
        .into_iter()
        .map(|n| {
            let what = if n.ends_with("/plan.toml") {
                "the session plan"
            } else if n.ends_with("/record.toml") {
                "the session record"
            } else {
                "the campaign file"
            };
            format!("{what} ({n})")
        })
        .collect()
}

/// The names of the campaign files that differ between two bundles
/// (`sessions/1/record.toml`), in order.
pub(super) fn campaign_files_changed(was: &Bundle, now: &Bundle) -> Vec<String> {
    let files = |b: &Bundle| -> BTreeMap<String, Option<String>> {
        b.campaign
            .iter()
            .flat_map(|c| &c.files)
            .map(|f| {
                let text = if f.name.ends_with("/plan.toml") {
                    without_rerolls(&f.text)
                } else {
                    Some(f.text.clone())
                };
                (f.name.clone(), text)
            })
            .collect()
    };
    let (was, now) = (files(was), files(now));
    let mut names: Vec<&String> = was.keys().chain(now.keys()).collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .filter(|n| was.get(*n) != now.get(*n))
        .cloned()
        .collect()
}

/// Whether the pack folder `dir` holds this very pack but for the
/// session's `[rerolls]`: its `bundle.toml` is `now` with other reroll
/// counts. Such a pack is one a `--reroll` was cut short on (the session
/// file is written first) or whose `[rerolls]` the GM edited, and a plain
/// `prep` may rewrite it without `--force`: the session says what it is.
pub(crate) fn behind_rerolls(dir: &Path, now: &Bundle) -> bool {
    let Ok(text) = input::read_text(&dir.join("bundle.toml"), "bundle") else {
        return false;
    };
    let Ok(mut was) = bundle_from_text(&dir.join("bundle.toml"), &text) else {
        return false;
    };
    let mut now = now.clone();
    if was == now {
        return false;
    }
    for b in [&mut was, &mut now] {
        let Some(text) = rerolls_text(b) else {
            return false;
        };
        match without_rerolls(text) {
            Some(t) => *text = t,
            None => return false,
        }
    }
    was == now
}

/// The text in a bundle that holds the pack's `[rerolls]`: the session
/// file's, or in a campaign's pack the session's own plan (`None` for a
/// session that takes an earlier session's plan).
fn rerolls_text(b: &mut Bundle) -> Option<&mut String> {
    if let Some(s) = b.session.as_mut() {
        return Some(&mut s.text);
    }
    let c = b.campaign.as_mut()?;
    let name = format!("sessions/{}/plan.toml", c.session?);
    c.files
        .iter_mut()
        .find(|f| f.name == name)
        .map(|f| &mut f.text)
}
