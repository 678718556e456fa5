//! [`Sources::read`]: a session file or a bundle, and everything it names,
//! read into [`Sources`] — the addresses asked for (`--only`, `--reroll`)
//! checked against the session — all before a seed is chosen, so bad input
//! rolls nothing.

use std::io::Write;
use std::path::Path;

use super::base::{
    CampaignBase, campaign_bundle, campaign_files, campaign_party, carried_tables,
    records_in_place, stamp,
};
use super::{Asked, CampaignPart, Sources, history, short};
use crate::campaign::folder::{CampaignFile, Files, MAX_SESSIONS, Text};
use crate::campaign::state::{Presence, State};
use crate::campaign::{plan, recap};
use crate::content::{Library, SourceFile};
use crate::diagnostic::Diagnostic;
use crate::error::{Error, UsageError};
use crate::generators::session;
use crate::handouts::markdown::Templates;
use crate::input::bundle::{Bundle, Carried, CarriedCampaign, bundle_from_text, is_bundle};
use crate::input::{self, Origin, Session};
use crate::seed::Seed;
use crate::workspace::{Again, Workspace};

impl Sources {
    /// Read the session file or bundle at `path`: notes (a bundle made by
    /// another version, a fresh seed) go to `err`.
    /// `number`: with a campaign's bundle, the session to make (default:
    /// the bundle's own, else the campaign's next).
    pub(crate) fn read(
        ws: &Workspace,
        path: &Path,
        number: Option<usize>,
        asked: &Asked,
        err: &mut dyn Write,
    ) -> Result<Sources, Error> {
        let text = input::read_text(path, "session file")?;
        let mut src = if is_bundle(&text) {
            from_bundle(ws, path, &text, number, asked, err)?
        } else if number.is_some() {
            return Err(UsageError::NumberWithoutCampaign.into());
        } else {
            from_session(ws, path, text, asked, err)?
        };
        src.flavours = asked.md.clone();
        Ok(src)
    }

    /// Session `number` (default: the next, the first without a record) of
    /// the campaign the workspace is in, read from its folder.
    pub(crate) fn read_campaign(
        ws: &Workspace,
        number: Option<usize>,
        asked: &Asked,
    ) -> Result<Sources, Error> {
        let (files, file, ws) = campaign_files(ws)?;
        let n = number.unwrap_or_else(|| files.next_session());
        records_in_place(&ws, &files, Some(n))?;
        if !ws.force {
            super::stale::refuse(&ws, &files, &file, n)?;
        }
        let base = campaign_bundle(&ws, &files, &file, Some(n))?;
        let mut src = from_campaign(&ws, base, files, &file, n, asked)?;
        src.flavours = asked.md.clone();
        Ok(src)
    }

    /// The whole campaign the workspace is in, as one bundle (`share`):
    /// every plan and record, the party, the tables and templates.
    pub(crate) fn campaign_bundle(ws: &Workspace) -> Result<Bundle, Error> {
        let (files, file, ws) = campaign_files(ws)?;
        let bundle = campaign_bundle(&ws, &files, &file, None)?;
        Ok(bundle.bundle)
    }
}

impl Sources {
    /// The campaign the workspace is in checked as `prep` reads it
    /// (`validate`): its party file and every session's plan; how many
    /// plans there are.
    pub(crate) fn check_campaign(ws: &Workspace) -> Result<usize, Error> {
        let (files, file, ws) = campaign_files(ws)?;
        campaign_party(&files, &file)?;
        plan::check_plans(&files, &file, ws.library()?)
    }

    /// The ledger of the campaign the workspace is in (`campaign`): every
    /// recorded session folded, with the next one (prepped when its pack
    /// folder is there).
    pub(crate) fn campaign_ledger(ws: &Workspace) -> Result<crate::campaign::Ledger, Error> {
        let (files, file, ws) = campaign_files(ws)?;
        records_in_place(&ws, &files, None)?;
        let library = ws.library()?;
        let party = campaign_party(&files, &file)?;
        let map = plan::region_map(&files, &file, library)?;
        let next = files.next_session();
        let prepped = ws
            .campaign
            .as_ref()
            .is_some_and(|root| root.join("out").join(format!("session-{next}")).is_dir());
        history::ledger(
            &files,
            &file,
            library,
            &party,
            map.as_ref(),
            (next, prepped),
        )
    }
    /// Session `n`'s record `text` checked as `prep` checks a record:
    /// folded with the campaign's records before it, every refusal
    /// pointed at its line (nothing is written).
    pub(crate) fn check_record(ws: &Workspace, n: usize, text: &str) -> Result<(), Error> {
        let (files, file, ws) = campaign_files(ws)?;
        let library = ws.library()?;
        let party = campaign_party(&files, &file)?;
        let map = plan::region_map(&files, &file, library)?;
        let mut files = files.up_to(n);
        files.records.push((
            n,
            Text {
                name: format!("sessions/{n}/record.toml"),
                text: text.to_owned(),
            },
        ));
        history::before(&files, &file, library, &party, map.as_ref(), n + 1).map(|_| ())
    }
}

/// Session `n` of a campaign, from its files and what `base` read.
fn from_campaign(
    ws: &Workspace,
    base: CampaignBase,
    files: Files,
    file: &CampaignFile,
    n: usize,
    asked: &Asked,
) -> Result<Sources, Error> {
    if !(1..=MAX_SESSIONS).contains(&n) {
        return Err(UsageError::SessionNumber { n }.into());
    }
    let party = campaign_party(&files, file)?;
    let map = plan::region_map(&files, file, base.library)?;
    let history = history::before(&files, file, base.library, &party, map.as_ref(), n)?;
    let state = &history.state;
    nobody_left(state, n)?;
    let mut prepared = plan::prepare(&files, file, n, base.library, state)?;
    let party = history::made_from(&mut prepared, state, &party, file.system);
    check_addresses(&prepared.session, asked)?;
    let returning = bring_back(&prepared, &history)?;
    let campaign = CampaignPart {
        number: n,
        plan_of: prepared.plan_of,
        gone_holders: prepared.gone_holders.clone(),
        down_holders: prepared.down_holders.clone(),
        sitting_out: prepared.sitting_out.clone(),
        stop: prepared
            .map
            .as_ref()
            .map(|f| f.map.stops[f.from].name.clone())
            .or_else(|| state.stop.clone()),
        map: prepared.map.clone(),
        day: state.day,
        recap: recap::of(&history.ledger, state, n),
        journey_note: plan::dropped_journey(&prepared),
        party_now: Some(party_lines(state)),
        vouchers_in_hand: state
            .vouchers
            .iter()
            .map(|v| (v.serial.clone(), v.holder.clone(), v.issued_in as usize))
            .collect(),
        downtime_vouchers: state
            .vouchers
            .iter()
            .filter(|v| v.downtime && v.issued_in as usize + 1 == n)
            .map(|v| crate::generators::voucher::Voucher {
                holder: v.holder.clone(),
                serial: v.serial.clone(),
                text: crate::generators::voucher::VOUCHER_TEXT.into(),
            })
            .collect(),
        returning,
        start_digest: state.digest(),
        state: state.clone(),
        reveal: prepared.map.as_ref().map(|f| state.reveal(&f.map, f.to)),
        memory: history.memory.clone(),
    };
    drop(history);
    let mut bundle = base.bundle;
    bundle.campaign = bundle.campaign.map(|c| CarriedCampaign {
        session: Some(n),
        ..c
    });
    Ok(Sources {
        bundle,
        session: prepared.session,
        session_path: Some(prepared.plan_path),
        library: base.library,
        templates: base.templates,
        party,
        seed: prepared.seed,
        paper: ws.paper,
        ink_saver: ws.ink_saver,
        flavours: Vec::new(),
        campaign: Some(campaign),
    })
}

/// A campaign whose every PC died or left has no party for session `n`:
/// said as the ledger has it (who went, and when), with what to do, before
/// the party check would ask for stat blocks the party file already has.
fn nobody_left(state: &State, n: usize) -> Result<(), Error> {
    if state.present().next().is_some() || state.pcs.is_empty() {
        return Ok(());
    }
    let gone: Vec<String> = state
        .pcs
        .iter()
        .map(|pc| {
            let how = match pc.presence {
                Presence::Dead => "died",
                _ => "left",
            };
            match pc.gone_in {
                Some(k) => format!("{} {how} in session {k}", pc.name),
                None => format!("{} {how}", pc.name),
            }
        })
        .collect();
    let last = n.saturating_sub(1);
    Err(Error::input(
        Diagnostic::message(format!(
            "session {n} has no party: every PC of the campaign is gone ({})",
            gone.join("; ")
        ))
        .with_hint(format!(
            "add the new PCs under [[joined]] in sessions/{last}/record.toml (they start \
             session {n}), or correct the record that lost the party; `tablewright campaign` \
             shows the ledger"
        )),
    ))
}

/// Each PC present as they start, in one line.
fn party_lines(state: &State) -> Vec<(String, String)> {
    state
        .present()
        .map(|pc| (pc.name.clone(), recap::now_line(pc, false)))
        .collect()
}

/// The NPCs the plan brings back (`bring_back = ["npc/2 of session 1"]`),
/// from the packs they were made in, their stat blocks kept.
fn bring_back(
    prepared: &plan::Prepared,
    history: &history::History,
) -> Result<Vec<session::Returning>, Error> {
    let mut out = Vec::new();
    for (i, text) in prepared.plan.bring_back.iter().enumerate() {
        let found = history::returning_address(text);
        let npc = found.and_then(|(at, k)| {
            let pack = history.packs.get(k.checked_sub(1)?)?;
            Some((pack.npcs.get(at.index())?.clone(), at, k))
        });
        let Some((npc, at, k)) = npc else {
            return Err(Error::input(
                input::pointed(
                    &prepared.plan_path,
                    &prepared.plan_text,
                    &[input::Step::Key("bring_back"), input::Step::Index(i)],
                    format!("bring_back: `{text}` is no NPC of an earlier session's pack"),
                )
                .with_hint(
                    "write an NPC of an earlier pack as \"npc/2 of session 1\" \
                     (`tablewright campaign` lists the NPCs met)",
                ),
            ));
        };
        let address = at.to_string();
        let met_in = history
            .state
            .npcs_met
            .iter()
            .find(|m| m.address == address && m.session as usize == k)
            .map(|m| m.session as usize);
        out.push(session::Returning {
            npc,
            session: k,
            address,
            met_in,
        });
    }
    Ok(out)
}

/// Refuse addresses the session has no item at (a usage mistake).
fn check_addresses(session: &Session, asked: &Asked) -> Result<(), UsageError> {
    let flaws: Vec<String> = asked
        .only
        .iter()
        .chain(&asked.reroll)
        .filter_map(|a| session.address_flaw(a))
        .collect();
    match flaws.is_empty() {
        true => Ok(()),
        false => Err(UsageError::PrepAddresses { flaws }),
    }
}

fn from_session(
    ws: &Workspace,
    path: &Path,
    text: String,
    asked: &Asked,
    err: &mut dyn Write,
) -> Result<Sources, Error> {
    let session = input::session_from_text(path, &text)?;
    // The session's own folders (`content`, `templates`, relative to it)
    // come before --content; --templates wins over its templates.
    let (content, template_dir) = input::session_folders(path, &text, &session)?;
    let ws = &ws.with_session_folders(&content, template_dir);
    let library = ws.library()?;
    input::session_terrains(path, &text, &session, library)?;
    input::session::table_flaws(&session, path, &text, library)?;
    let (user, _) = ws.table_files();
    let overrides = ws.template_overrides()?;
    let templates = Templates::with_overrides(&overrides, None)?;
    let origin = Origin { path, text: &text };
    let party_file = input::session_party_file(&origin, &session.party)?;
    let party = match &party_file {
        Some((p, t)) => input::party_in_file(&origin, &session.party, session.system, p, t)?,
        None => input::session_party(&origin, &session.party, session.system)?,
    };
    check_addresses(&session, asked)?;
    let seed = ws.seed(session.seed.as_deref(), Again::Pack, err)?;
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let bundle = Bundle {
        seed: seed.as_str().to_owned(),
        paper: None,
        ink_saver: ws.ink_saver,
        tablewright: stamp(library),
        session: Some(Carried { name, text }),
        party: party_file.map(|(_, text)| Carried {
            name: session.party.clone(),
            text,
        }),
        content: user.into_iter().map(|f| carried_tables(ws, f)).collect(),
        templates: overrides
            .into_iter()
            .map(|(name, text, _)| Carried { name, text })
            .collect(),
        campaign: None,
    };
    Ok(Sources {
        bundle,
        session,
        session_path: Some(path.to_owned()),
        library,
        templates,
        party,
        seed,
        paper: ws.paper,
        ink_saver: ws.ink_saver,
        flavours: Vec::new(),
        campaign: None,
    })
}

fn from_bundle(
    ws: &Workspace,
    path: &Path,
    text: &str,
    number: Option<usize>,
    asked: &Asked,
    err: &mut dyn Write,
) -> Result<Sources, Error> {
    if ws.seed.is_some() || ws.content.len() > ws.campaign_content || ws.templates.is_some() {
        return Err(UsageError::BundleSources.into());
    }
    let mut bundle = bundle_from_text(path, text)?;
    let user: Vec<SourceFile> = bundle
        .content
        .iter()
        .map(|c| SourceFile::new(c.name.clone(), c.text.clone(), c.layer))
        .collect();
    let (library, problems) = Library::from_user_files(user);
    if !problems.is_empty() {
        return Err(Error::Content(problems));
    }
    // Kept until the process ends, as `Workspace::library` keeps its own.
    let library: &'static Library = Box::leak(Box::new(super::with_era(library, &bundle)));
    let overrides: Vec<(String, String, String)> = bundle
        .templates
        .iter()
        .map(|t| (t.name.clone(), t.text.clone(), String::new()))
        .collect();
    let templates = Templates::with_overrides(&overrides, Some("from the bundle"))?;
    restamp(&mut bundle, library, path, err)?;
    check_paper(&mut bundle, path)?;
    if bundle.campaign.is_some() {
        return from_campaign_bundle(ws, path, bundle, library, templates, number, asked);
    }
    if number.is_some() {
        return Err(UsageError::NumberWithoutCampaign.into());
    }
    let Some(carried) = bundle.session.clone() else {
        return Err(Error::input(
            Diagnostic::message(format!(
                "{}: the bundle has neither a session nor a campaign",
                path.display()
            ))
            .with_hint("make the bundle again with `tablewright share`"),
        ));
    };
    let session_path = Path::new(&carried.name);
    let session = input::session_from_text(session_path, &carried.text)?;
    input::session::table_flaws(&session, session_path, &carried.text, library)?;
    let origin = Origin {
        path: session_path,
        text: &carried.text,
    };
    let party = match &bundle.party {
        Some(c) => input::party_in_file(
            &origin,
            &session.party,
            session.system,
            Path::new(&c.name),
            &c.text,
        )?,
        None => input::summary(&session.party, session.system, Some(&origin))?,
    };
    check_addresses(&session, asked)?;
    let seed = Seed::new(&bundle.seed)?;
    Ok(Sources {
        ink_saver: bundle.ink_saver,
        bundle,
        session,
        session_path: None,
        library,
        templates,
        party,
        seed,
        paper: ws.paper,
        flavours: Vec::new(),
        campaign: None,
    })
}

/// A campaign's bundle: session `number` (else the bundle's own, else the
/// campaign's next) made from the campaign it carries.
fn from_campaign_bundle(
    ws: &Workspace,
    path: &Path,
    bundle: Bundle,
    library: &'static Library,
    templates: Templates,
    number: Option<usize>,
    asked: &Asked,
) -> Result<Sources, Error> {
    let carried = bundle.campaign.clone().expect("a campaign bundle");
    let bad = |what: String| {
        Error::input(
            Diagnostic::message(format!("{}: {what}", path.display()))
                .with_hint("make the bundle again with `tablewright share` in the campaign"),
        )
    };
    let mut campaign = None;
    let mut plans = Vec::new();
    let mut records = Vec::new();
    for f in &carried.files {
        let text = Text {
            name: f.name.clone(),
            text: f.text.clone(),
        };
        let parts: Vec<&str> = f.name.split('/').collect();
        match parts[..] {
            ["campaign.toml"] => campaign = Some(text),
            ["sessions", k, "plan.toml"] => match k.parse() {
                Ok(k) => plans.push((k, text)),
                Err(_) => return Err(bad(format!("`{}` is no session's plan", f.name))),
            },
            ["sessions", k, "record.toml"] => match k.parse() {
                Ok(k) => records.push((k, text)),
                Err(_) => return Err(bad(format!("`{}` is no session's record", f.name))),
            },
            _ => return Err(bad(format!("`{}` is no file of a campaign", f.name))),
        }
    }
    let Some(campaign) = campaign else {
        return Err(bad("the campaign has no campaign.toml".into()));
    };
    plans.sort_by_key(|(k, _)| *k);
    records.sort_by_key(|(k, _)| *k);
    let file = CampaignFile::from_text(Path::new(&campaign.name), &campaign.text)?;
    let files = Files {
        root: None,
        campaign,
        party: bundle.party.as_ref().map(|p| Text {
            name: p.name.clone(),
            text: p.text.clone(),
        }),
        plans,
        records,
    };
    let n = number
        .or(carried.session)
        .unwrap_or_else(|| files.next_session());
    // The pack's own bundle carries the campaign as it stood for it.
    let kept = files.up_to(n);
    let mut own = bundle;
    if let Some(c) = own.campaign.as_mut() {
        c.files.retain(|f| kept_name(&kept, &f.name));
    }
    let base = CampaignBase {
        bundle: own,
        library,
        templates,
    };
    let mut src = from_campaign(ws, base, files, &file, n, asked)?;
    src.session_path = None;
    Ok(src)
}

/// Whether a carried file belongs to the campaign as `kept` has it.
fn kept_name(kept: &Files, name: &str) -> bool {
    name == kept.campaign.name
        || kept.plans.iter().any(|(_, t)| t.name == name)
        || kept.records.iter().any(|(_, t)| t.name == name)
}

/// A bundle made by another version, format or tables: noted on `err`,
/// and stamped as this tool's (the pack is this tool's making).
fn restamp(
    bundle: &mut Bundle,
    library: &Library,
    path: &Path,
    err: &mut dyn Write,
) -> Result<(), Error> {
    let now = stamp(library);
    if bundle.tablewright != now {
        let was = &bundle.tablewright;
        writeln!(
            err,
            "note: {} was made by tablewright {} (format {}, tables {}); this is {} (format {}, \
             tables {}), so the pack may differ: `tablewright verify` names the files that do",
            path.display(),
            was.version,
            was.format,
            short(&was.tables),
            now.version,
            now.format,
            short(&now.tables)
        )?;
        bundle.tablewright = now;
    }
    Ok(())
}

/// A bundle of format 1 names its paper: checked, then ignored (the
/// paper is `--paper`'s, a print option).
fn check_paper(bundle: &mut Bundle, path: &Path) -> Result<(), Error> {
    match bundle.paper.as_deref() {
        None | Some("a4" | "letter") => {}
        Some(other) => {
            return Err(Error::input(
                Diagnostic::message(format!(
                    "{}: paper `{other}` is neither a4 nor letter",
                    path.display()
                ))
                .with_hint("leave the `paper` line out (the paper is --paper's) or write \"a4\" or \"letter\""),
            ));
        }
    }
    bundle.paper = None;
    Ok(())
}
