//! What a campaign's packs are made from, read from its folder: where
//! each session's pack is (`out/session-K/`), the campaign's files and
//! starting party, its records checked against the packs made, and the
//! bundle a pack carries (its campaign files, tables and templates).
//! [`read`](super::read) and [`stale`](super::stale) both build on it.

use std::path::Path;

use crate::campaign::folder::{CampaignFile, Files, Text};
use crate::content::{Library, SourceFile};
use crate::error::{Error, UsageError};
use crate::handouts::FORMAT;
use crate::handouts::markdown::Templates;
use crate::input::bundle::{BUNDLE_FORMAT, Bundle, Carried, CarriedCampaign, CarriedTables, Stamp};
use crate::input::{self, Origin};
use crate::rules::Party;
use crate::workspace::Workspace;

/// Where session `k`'s pack folder is: `out/session-K/` in the campaign
/// folder, or OUT/session-K/ with `--out` (as `prep` writes it).
pub(crate) fn campaign_pack_dir(ws: &Workspace, k: usize) -> Option<std::path::PathBuf> {
    let root = ws.campaign.as_ref()?;
    let name = format!("session-{k}");
    Some(if ws.out == Path::new("out") {
        root.join("out").join(name)
    } else {
        ws.out.join(name)
    })
}

/// Where session `k`'s pack may be: the folder this run writes to
/// ([`campaign_pack_dir`]), then the campaign's own `out/session-K/` (a
/// run with `--out` elsewhere still finds the packs made without it).
pub(crate) fn campaign_pack_dirs(ws: &Workspace, k: usize) -> Vec<std::path::PathBuf> {
    let mut dirs: Vec<std::path::PathBuf> = campaign_pack_dir(ws, k).into_iter().collect();
    if let Some(root) = &ws.campaign {
        let own = root.join("out").join(format!("session-{k}"));
        if !dirs.contains(&own) {
            dirs.push(own);
        }
    }
    dirs
}

/// Whether session `k` was prepped: its pack folder is there.
pub(crate) fn campaign_prepped(ws: &Workspace, k: usize) -> bool {
    campaign_pack_dirs(ws, k).iter().any(|d| d.is_dir())
}

/// Refuse records the campaign folder cannot have, each pointed at its
/// `session` line: a record after a session that has none (the ledger
/// would never reach it), and the last record when its session was never
/// prepped (no pack folder: there was no pack to play from) — unless that
/// session is the one being prepped (`making`). Earlier sessions' packs
/// may be gone (a campaign copied without `out/`): later sessions were
/// played from them, and `prep K` makes any of them again.
pub(super) fn records_in_place(
    ws: &Workspace,
    files: &Files,
    making: Option<usize>,
) -> Result<(), Error> {
    if ws.campaign.is_none() {
        return Ok(());
    }
    let next = files.next_session();
    let mut problems = Vec::new();
    for (k, text) in &files.records {
        let record =
            crate::campaign::RecordFile::from_text(&files.path_of(&text.name), text.text.clone())?;
        if *k > next {
            problems.push(
                record
                    .at_key(
                        "session",
                        format!("session {k} has a record, but session {next} has none"),
                    )
                    .with_hint(format!(
                        "record the sessions in order: `tablewright record {next}` first (or \
                         move this record to the session it is of)"
                    )),
            );
        } else if *k + 1 == next
            && making != Some(*k)
            && !campaign_prepped(ws, *k)
            && let Some(dir) = campaign_pack_dir(ws, *k)
        {
            problems.push(
                record
                    .at_key(
                        "session",
                        format!(
                            "a record of session {k}, which was never prepped: there is no pack \
                             in {}",
                            dir.display()
                        ),
                    )
                    .with_hint(format!(
                        "prep it first (`tablewright prep {k}`; a pack deleted since is made \
                         again byte for byte), then record what happened at the table"
                    )),
            );
        }
    }
    if problems.is_empty() {
        return Ok(());
    }
    Err(Error::Input(crate::diagnostic::Report {
        headline: Some("the session records do not fit the campaign:".into()),
        diagnostics: problems,
        closing: Some(
            "hint: fix the records (the guide's Campaigns chapter lists every key) and run again"
                .into(),
        ),
    }))
}

/// The party as the campaign started (`campaign.toml`'s `party`).
pub(super) fn campaign_party(files: &Files, file: &CampaignFile) -> Result<Party, Error> {
    let campaign_path = files.path_of(&files.campaign.name);
    let origin = Origin {
        path: &campaign_path,
        text: &files.campaign.text,
    };
    match &files.party {
        Some(p) => input::party_in_file(
            &origin,
            &file.party,
            file.system,
            &files.path_of(&p.name),
            &p.text,
        ),
        None => input::summary(&file.party, file.system, Some(&origin)),
    }
}

/// The campaign's files read from its folder, and the workspace with its
/// tables (already in `ws`'s folders).
pub(super) fn campaign_files(ws: &Workspace) -> Result<(Files, CampaignFile, Workspace), Error> {
    let Some(root) = &ws.campaign else {
        return Err(UsageError::NotInCampaign {
            what: "a session number",
        }
        .into());
    };
    let (files, file) = Files::read(root)?;
    Ok((files, file, ws.clone()))
}

/// What a campaign's pack is made from, read: the bundle (its campaign
/// files up to session `n`, or all of them), the tables and templates.
pub(super) struct CampaignBase {
    pub(super) bundle: Bundle,
    pub(super) library: &'static Library,
    pub(super) templates: Templates,
}

/// The bundle of a campaign from its folder: of session `n` (its plans up
/// to `n`, its records before `n`), or of the whole campaign (`None`).
pub(super) fn campaign_bundle(
    ws: &Workspace,
    files: &Files,
    file: &CampaignFile,
    n: Option<usize>,
) -> Result<CampaignBase, Error> {
    let library = ws.library()?;
    let (user, _) = ws.table_files();
    let overrides = ws.template_overrides()?;
    let templates = Templates::with_overrides(&overrides, None)?;
    let kept = match n {
        Some(n) => files.up_to(n),
        None => files.clone(),
    };
    let mut carried = vec![carry(&kept.campaign)];
    for (k, plan) in &kept.plans {
        carried.push(carry(plan));
        if let Some(r) = kept.record(*k) {
            carried.push(carry(r));
        }
    }
    for (k, record) in &kept.records {
        if kept.plan(*k).is_none() {
            carried.push(carry(record));
        }
    }
    let bundle = Bundle {
        seed: file.seed.clone(),
        paper: None,
        ink_saver: ws.ink_saver,
        tablewright: stamp(library),
        session: None,
        party: files.party.as_ref().map(carry),
        content: user.into_iter().map(|f| carried_tables(ws, f)).collect(),
        templates: overrides
            .into_iter()
            .map(|(name, text, _)| Carried { name, text })
            .collect(),
        campaign: Some(CarriedCampaign {
            session: n,
            files: carried,
        }),
    };
    Ok(CampaignBase {
        bundle,
        library,
        templates,
    })
}

pub(super) fn carry(t: &Text) -> Carried {
    Carried {
        name: t.name.clone(),
        text: t.text.clone(),
    }
}

/// A `--content` table file as a bundle carries it: named relative to its
/// folder, so the bundle is the same wherever the folder is.
pub(super) fn carried_tables(ws: &Workspace, f: SourceFile) -> CarriedTables {
    let dir = ws.content.get(f.layer.wrapping_sub(1));
    let name = dir
        .and_then(|d| Path::new(&f.name).strip_prefix(d).ok())
        .map_or(f.name.clone(), |p| p.to_string_lossy().replace('\\', "/"));
    CarriedTables {
        name,
        layer: f.layer,
        text: f.text,
    }
}

/// What made a bundle: this tool, its format and the tables.
pub(super) fn stamp(library: &Library) -> Stamp {
    Stamp {
        bundle: BUNDLE_FORMAT,
        version: env!("CARGO_PKG_VERSION").to_owned(),
        format: FORMAT,
        tables: library.content_hash.clone(),
    }
}
