//! Pack building, as a library: a session file or a bundle is read into
//! [`Sources`] (everything one pack is made from, checked before a seed is
//! chosen), and [`Sources::build`] makes the pack and every file of it —
//! the handouts, the Markdown flavours asked for, `pack.pdf` and the
//! pack's own `bundle.toml`. The commands over it (`prep`, `share`,
//! `verify`, `gen --session`) read a typed request, call this and print.
//!
//! - [`read`]: [`Sources::read`], a session file (with its own folders,
//!   party and the workspace's tables and templates) or a bundle (its own
//!   seed, tables and templates) into the same [`Sources`].
//! - [`base`]: what a campaign's packs are made from, read from its
//!   folder: where each pack is, its files, party and bundle.
//! - [`history`]: where a campaign stands at the start of a session — the
//!   earlier sessions' packs made again and folded with their records.
//! - [`reroll`]: `prep --reroll` computed — the session text with one more
//!   reroll per address, the files that change, the items knocked on —
//!   and [`behind_rerolls`], a pack folder a reroll left behind.
//! - [`stale`]: a campaign's packs made from an older campaign state
//!   (an earlier record edited since), each with what changed.
//! - [`verify`]: a pack folder compared with what its bundle makes
//!   ([`Sources::compare`], [`differences`], [`mismatch`]) and the
//!   flavour folders a pack folder has ([`flavours_in`]).

mod base;
pub(crate) mod history;
#[cfg(test)]
mod long_tests;
pub(crate) mod read;
pub(crate) mod reroll;
pub(crate) mod stale;
pub(crate) mod verify;

use std::collections::BTreeSet;
use std::path::PathBuf;

use crate::content::Library;
use crate::diagnostic::Diagnostic;
use crate::error::Error;
use crate::generators::session::{self, Pack};
use crate::generators::{Address, GenError};
use crate::handouts::markdown::Templates;
use crate::handouts::{self, FORMAT, Flavour, ShareLine};
use crate::input::bundle::Bundle;
use crate::input::{self, Session};
use crate::page::pdf::{Fonts, Paper};
use crate::rules::Party;
use crate::seed::Seed;

pub(crate) use base::{campaign_pack_dir, campaign_prepped};
pub(crate) use reroll::{Reroll, behind_rerolls, in_step, inputs_changed, same_source};
pub(crate) use verify::{PLAYED, flavours_in, mismatch};

/// What a pack is asked for beyond its session: `--only` and `--reroll`
/// addresses (checked against the session when it is read) and `--md`
/// flavours.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Asked {
    pub only: Vec<String>,
    pub reroll: Vec<String>,
    pub md: Vec<Flavour>,
}

/// Everything one pack is made from, read and checked.
pub(crate) struct Sources {
    /// The same, as one file.
    pub bundle: Bundle,
    pub session: Session,
    /// The session file on disk (`None` when read from a bundle).
    pub session_path: Option<PathBuf>,
    pub library: &'static Library,
    pub templates: Templates,
    pub party: Party,
    pub seed: Seed,
    pub paper: Paper,
    pub ink_saver: bool,
    /// Markdown flavours with a folder of their own to write.
    pub flavours: Vec<Flavour>,
    /// A campaign's session: which one, and its map.
    pub campaign: Option<CampaignPart>,
}

/// What a campaign's session adds to its pack's sources.
#[derive(Debug, Clone)]
pub(crate) struct CampaignPart {
    /// The session's number.
    pub number: usize,
    /// The session whose plan it takes (`number` when it has its own).
    pub plan_of: usize,
    /// Voucher holders of the plan out of the party: no voucher for them.
    pub gone_holders: Vec<String>,
    /// Voucher holders of the plan at 0 Mettle or below: no voucher.
    pub down_holders: Vec<String>,
    /// PCs at 0 Mettle or below: no journey role, encounter fitting or
    /// zones ([`history::generate_for`]).
    pub sitting_out: Vec<String>,
    /// The region's map, with the party's stop and where it is going.
    pub map: Option<session::Fixed>,
    /// The day the session starts on, and the party's stop.
    pub day: u32,
    pub stop: Option<String>,
    /// "Previously": the last session in a screenful.
    pub recap: crate::generators::recap::Recap,
    /// Why the plan's journey was dropped (the party is already there).
    pub journey_note: Option<String>,
    /// Each PC as they start (default: as the party stands).
    pub party_now: Option<Vec<(String, String)>>,
    /// Vouchers in hand from earlier sessions: serial, holder, issued in.
    pub vouchers_in_hand: Vec<(String, String, usize)>,
    /// The Downtime Vouchers the ledger issued after the last session, to
    /// print as cards.
    pub downtime_vouchers: Vec<crate::generators::voucher::Voucher>,
    /// NPCs of earlier packs brought back.
    pub returning: Vec<session::Returning>,
    /// The fingerprint of the state the session starts from.
    pub start_digest: String,
    /// The state the session starts from (`play`: each PC, the Heal
    /// Checks due, the purse and supplies).
    pub state: crate::campaign::State,
    /// What the party knows of the region, and its trail (with a map).
    pub reveal: Option<crate::generators::map::Reveal>,
    /// What the earlier packs used, and the PCs' name words: what this
    /// pack avoids.
    pub memory: crate::generators::memory::Memory,
}

impl CampaignPart {
    /// What the pack says of the campaign, the record to mark among it.
    fn page(&self, pack: &Pack, library: &Library) -> session::CampaignPage {
        let carried: Vec<(String, String)> = self
            .vouchers_in_hand
            .iter()
            .map(|(serial, holder, _)| (serial.clone(), holder.clone()))
            .collect();
        let mut after = crate::campaign::prefill::after(
            self.number,
            pack,
            self.day,
            self.stop.clone(),
            &carried,
            self.party_now.clone(),
        );
        after.npcs.extend(self.returning.iter().map(|r| {
            (
                format!("{} of session {}", r.address, r.session),
                r.npc.name.clone(),
            )
        }));
        session::CampaignPage {
            session: self.number,
            day: self.day,
            stop: self.stop.clone(),
            recap: self.recap.clone(),
            previously: self.recap.lines(),
            journey_note: self.journey_note.clone(),
            party_now: after.pcs.clone(),
            vouchers_in_hand: self.vouchers_in_hand.clone(),
            downtime_vouchers: self.downtime_vouchers.clone(),
            returning: self.returning.clone(),
            after,
            start_digest: self.start_digest.clone(),
            reveal: self.reveal.clone(),
            used_up: self.used_up_by(pack, library),
            repeats: pack.repeats(&self.memory),
        }
    }

    /// The tables whose last unused rows this pack uses (situations, NPC
    /// cards' archetypes): from it on, their rows may repeat (said once,
    /// by the pack that uses them up).
    fn used_up_by(&self, pack: &Pack, library: &Library) -> Vec<String> {
        let before = self.memory.used_up(library);
        let mut after = self.memory.clone();
        after.remember(pack.used());
        after
            .used_up(library)
            .into_iter()
            .filter(|t| !before.contains(t))
            .collect()
    }
}

/// A pack's files: (name, bytes), in a fixed order.
pub(crate) type PackFiles = Vec<(String, Vec<u8>)>;

impl Sources {
    /// The pack's items (no files).
    pub(crate) fn generate(&self) -> Result<Pack, Error> {
        let sitting_out = self
            .campaign
            .as_ref()
            .map_or(&[][..], |c| c.sitting_out.as_slice());
        let mut pack = history::generate_for(
            self.library,
            &self.request(),
            &self.party,
            sitting_out,
            &self.seed,
            &self
                .campaign
                .as_ref()
                .map_or_else(|| self.party_memory(), |c| c.memory.clone()),
        )
        .map_err(|e| match e {
            GenError::RunDry(at) => self.run_dry(&at),
            e => e.into(),
        })?;
        if let Some(c) = &self.campaign {
            pack.campaign = Some(c.page(&pack, self.library));
        }
        Ok(pack)
    }

    /// Tables that ran dry for the item at `at`, pointed at the session
    /// file's line that asks for that many items of its kind.
    fn run_dry(&self, at: &Address) -> Error {
        // A campaign's plan has no session file of its own to point at.
        let Some(carried) = &self.bundle.session else {
            return GenError::RunDry(at.clone()).into();
        };
        let path = self
            .session_path
            .clone()
            .unwrap_or_else(|| PathBuf::from(&carried.name));
        let text = &carried.text;
        let key = match at.kind() {
            "encounter" => "encounters",
            "trap" => "traps",
            "npc" => "npcs",
            "injury" => "injuries",
            "mutation" => "mutations",
            other => other,
        };
        let message = GenError::RunDry(at.clone()).to_string();
        let file = path.display().to_string();
        let place = input::locate(text, &[input::Step::Key(key)])
            .or_else(|| input::locate(text, &[input::Step::Key(at.kind())]));
        let diagnostic = match place {
            Some((line, col, width)) => {
                Diagnostic::at(file, line, col, message).with_source(text, width)
            }
            None => Diagnostic::at(file, 0, 0, message),
        };
        Error::input(diagnostic.with_hint(format!(
            "lower `{key}` here, or add rows to the tables {kind}s are drawn from (--content)",
            kind = at.kind()
        )))
    }

    /// A session file's memory: nothing used, the party's names shunned.
    fn party_memory(&self) -> crate::generators::memory::Memory {
        let names = self.party.mettle.iter().map(|b| b.name.as_str());
        let names = names.chain(self.party.core.iter().map(|c| c.name.as_str()));
        crate::generators::memory::Memory::for_pcs(names)
    }

    /// The pack request: the session's, with a campaign's map.
    pub(crate) fn request(&self) -> session::Request {
        let mut req = self.session.request();
        if let (Some(c), Some(m)) = (&self.campaign, req.map.as_mut()) {
            m.fixed = c.map.clone();
        }
        req
    }

    /// The pack and every file of it: the handouts, `pack.pdf` and the
    /// pack's own `bundle.toml`.
    pub(crate) fn build(&self) -> Result<(Pack, PackFiles), Error> {
        let pack = self.generate()?;
        let share = self.share_line();
        let mut files = handouts::pack_files_in(&pack, &self.templates, &share, &self.flavours)?;
        files.insert(1, self.pack_pdf(&pack, self.paper));
        files.push(("bundle.toml".into(), self.bundle.to_text().into_bytes()));
        Ok((pack, files))
    }

    /// `--only`: of a pack's `files`, those of the items at `only`, with
    /// each item's one-item PDF.
    pub(crate) fn only(&self, pack: &Pack, mut files: PackFiles, only: &[String]) -> PackFiles {
        let only: BTreeSet<String> = only.iter().cloned().collect();
        files.retain(|(name, _)| {
            handouts::item_of(name).is_some_and(|a| only.contains(&a.to_string()))
        });
        for a in &only {
            let at = Address::parse(a).expect("checked");
            files.extend(self.item_pdf(pack, &at, self.paper));
        }
        files
    }

    /// The pack PDF on `paper` (`pack.pdf`, `pack-letter.pdf`): the only
    /// file of a pack that the paper changes.
    pub(crate) fn pack_pdf(&self, pack: &Pack, paper: Paper) -> (String, Vec<u8>) {
        let share = self.share_line();
        let fonts = Fonts::load();
        // Never silent: a character no font has prints as U+FFFD.
        for missing in handouts::missing_glyphs(pack, &fonts) {
            eprintln!("warning: {missing}");
        }
        let pdf = handouts::pack_pdf(
            pack,
            &share,
            paper,
            self.ink_saver,
            &fonts,
            &self.templates.wording,
        );
        (paper.pack_pdf(), pdf)
    }

    /// The one-item PDF `prep --only` writes beside an item's files on
    /// `paper` (`encounter-2.pdf`, `encounter-2-letter.pdf`): the item's
    /// sheet or card in a flow footed by the item's share line.
    pub(crate) fn item_pdf(
        &self,
        pack: &Pack,
        at: &Address,
        paper: Paper,
    ) -> Option<(String, Vec<u8>)> {
        let share = self.share_line();
        let bytes = handouts::item_pdf(
            pack,
            at,
            &share,
            paper,
            self.ink_saver,
            &Fonts::load(),
            &self.templates.wording,
        )?;
        Some((paper.pdf_name(&at.file_stem()), bytes))
    }

    /// The line printed on every page: what a friend needs to make the
    /// same pack.
    pub(crate) fn share_line(&self) -> ShareLine {
        let s = &self.session;
        ShareLine {
            seed: self.seed.as_str().to_owned(),
            options: format!("{} · {} · {}", s.title, s.system.label(), s.terrain),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            format: FORMAT,
            content: short(&self.library.content_hash).to_owned(),
            bundle: self.bundle.short_hash(),
        }
    }
}

/// A hash's first eight characters, as pages and notes show it.
fn short(hash: &str) -> &str {
    hash.get(..8).unwrap_or(hash)
}

/// The tables with the era a bundle's campaign declares (its carried
/// `campaign.toml`'s `era`; none for a session's bundle).
pub(crate) fn with_era(
    mut library: crate::content::Library,
    bundle: &crate::input::bundle::Bundle,
) -> crate::content::Library {
    let file = bundle.campaign.as_ref().and_then(|c| {
        let f = c
            .files
            .iter()
            .find(|f| f.name == crate::campaign::folder::FILE)?;
        crate::campaign::folder::CampaignFile::from_text(std::path::Path::new(&f.name), &f.text)
            .ok()
    });
    library.era = file.and_then(|f| f.era);
    library
}
