//! The campaign folder: [`find`] walks up from the working folder to the
//! first folder holding `campaign.toml` (as cargo finds Cargo.toml);
//! [`CampaignFile`] is that file read and checked; [`Files`] is every
//! text a campaign's packs are made from besides its tables and templates
//! — `campaign.toml`, the party, each session's plan and record — read
//! from the folder ([`Files::read`]) or carried in a bundle, so a pack is
//! made the same way from either.
//!
//! `campaign.toml`'s keys (the guide's Campaigns chapter says the same):
//!
//! - `title`: the campaign's title, on every pack (default "Campaign").
//! - `seed`: the campaign seed (required); session N draws under
//!   `"<seed>/session/<N>"`, the region's map under `"<seed>/map"`.
//! - `system`: `"mettle"` (default) or `"core"`.
//! - `party`: the party file as the campaign started (default
//!   `"party.toml"`), or a pool summary such as `"3,4,4,5"`.
//! - `content`: a table folder or a list of them (default `"content"`,
//!   used when it is there); `templates`: a template folder (default
//!   `"templates"`, used when it is there). Both read relative to the
//!   file; `--content` and `--templates` add to them.
//! - `start`: the stop the party starts at (a stop's name or number;
//!   default the map's start, its first village, town or inn).
//! - `money`: the party's purse at the start, in shillings (default 0).
//! - `era`: the campaign's era or setting (`"medieval"`, `"modern"`):
//!   table rows tagged for other eras are not drawn; untagged rows fit
//!   every era (default: none declared, every row drawn).
//! - `[map]`: the region, made once: `stops` (default 10), `terrains`
//!   (default road, forest, hills, swamp, ruins), and what each PC sets
//!   out with in session 1: `rations`, `water` (default 3 each), `kits`
//!   (fishing, trapping, camping).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::diagnostic::{Diagnostic, Report};
use crate::error::Error;
use crate::input::{self, Step, session};
use crate::rules::RulesSystem;

/// The file that makes a folder a campaign.
pub(crate) const FILE: &str = "campaign.toml";

/// The folder holding `campaign.toml`, walking up from `start` (the
/// working folder): `start` itself, then its parent, and so on. The path
/// is written relative to `start` (`""` for `start`, `".."`, `"../.."`), so
/// messages name files as the user sees them from where they are.
pub(crate) fn find(start: &Path) -> Option<PathBuf> {
    let absolute = std::fs::canonicalize(start).ok()?;
    let mut up = PathBuf::new();
    for dir in absolute.ancestors() {
        if dir.join(FILE).is_file() {
            return Some(up);
        }
        up.push("..");
    }
    None
}

/// `campaign.toml`, as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CampaignFile {
    #[serde(default = "default_title")]
    pub title: String,
    pub seed: String,
    #[serde(default = "session::default_system")]
    pub system: RulesSystem,
    #[serde(default = "default_party")]
    pub party: String,
    #[serde(default, deserialize_with = "one_or_many")]
    pub content: Option<Vec<String>>,
    pub templates: Option<String>,
    pub start: Option<String>,
    #[serde(default)]
    pub money: i64,
    /// The campaign's era or setting (`"medieval"`): table rows tagged
    /// for other eras are not drawn; untagged rows always. None declared:
    /// every row.
    pub era: Option<String>,
    /// The season of the campaign's day 1 (`"autumn"`): the seasons turn
    /// every 91 days from there. None: spring.
    pub season: Option<crate::generators::weather::Season>,
    pub map: Option<RegionMap>,
}

/// `[map]` of `campaign.toml`: the region, and the supplies of session 1.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RegionMap {
    #[serde(default = "session::default_stops")]
    pub stops: usize,
    #[serde(default)]
    pub terrains: Vec<String>,
    #[serde(default = "session::default_supply")]
    pub rations: u32,
    #[serde(default = "session::default_supply")]
    pub water: u32,
    #[serde(default)]
    pub kits: Vec<String>,
}

fn default_title() -> String {
    "Campaign".into()
}
fn default_party() -> String {
    "party.toml".into()
}
/// A folder or a list of them, as a session file's `content` reads it.
fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Vec<String>>, D::Error> {
    session::one_or_many(d).map(Some)
}

impl CampaignFile {
    /// `campaign.toml`'s text, read and checked (its seed; the map's
    /// numbers as a session's `[map]` takes them).
    pub(crate) fn from_text(path: &Path, text: &str) -> Result<CampaignFile, Error> {
        let file: CampaignFile = input::from_toml(path, text, "campaign file")?;
        let mut problems = Vec::new();
        if let Err(e) = crate::seed::Seed::new(&file.seed) {
            problems.push(
                input::pointed(path, text, &[Step::Key("seed")], e.to_string())
                    .with_hint("the seed is any text without control characters, up to its limit"),
            );
        }
        if file.money < 0 {
            problems.push(
                input::pointed(
                    path,
                    text,
                    &[Step::Key("money")],
                    format!(
                        "money = {}: the party's purse never goes below zero",
                        file.money
                    ),
                )
                .with_hint("write what the party sets out with, 0 or more shillings"),
            );
        }
        if let Some(era) = file
            .era
            .as_deref()
            .filter(|e| !crate::content::era::is_name(e))
        {
            problems.push(
                input::pointed(
                    path,
                    text,
                    &[Step::Key("era")],
                    format!("era = \"{era}\" is not an era's name"),
                )
                .with_hint(
                    "an era is lowercase letters, digits and hyphens starting with a letter, as \
                     table rows tag it (`era:medieval`): write `era = \"medieval\"`",
                ),
            );
        }
        if let Some(m) = &file.map {
            let (lo, hi) = crate::generators::map::STOPS;
            if !(lo..=hi).contains(&m.stops) {
                problems.push(
                    input::pointed(
                        path,
                        text,
                        &[Step::Key("map"), Step::Key("stops")],
                        format!("stops = {}: a map has {lo} to {hi} stops", m.stops),
                    )
                    .with_hint(format!("write a number from {lo} to {hi} under [map]")),
                );
            }
        }
        if problems.is_empty() {
            Ok(file)
        } else {
            Err(Error::Input(Report {
                headline: Some("the campaign file is not right:".into()),
                diagnostics: problems,
                closing: None,
            }))
        }
    }

    /// The campaign's table folders and template folder, relative to the
    /// campaign folder `root`: those it names (each must be there, or it is
    /// a problem at its line), else `content` and `templates` when they are
    /// there.
    pub(crate) fn folders(
        &self,
        root: &Path,
        text: &str,
    ) -> Result<(Vec<PathBuf>, Option<PathBuf>), Error> {
        let path = root.join(FILE);
        let mut missing = Vec::new();
        let content = match &self.content {
            Some(list) => {
                for (i, c) in list.iter().enumerate() {
                    if !root.join(c).is_dir() {
                        missing.push(input::pointed(
                            &path,
                            text,
                            &[Step::Key("content"), Step::Index(i)],
                            format!(
                                "the content folder `{}` does not exist (it is read relative to campaign.toml)",
                                root.join(c).display()
                            ),
                        ));
                    }
                }
                list.iter().map(|c| root.join(c)).collect()
            }
            None => [root.join("content")]
                .into_iter()
                .filter(|d| d.is_dir())
                .collect(),
        };
        let templates = match &self.templates {
            Some(t) => {
                if !root.join(t).is_dir() {
                    missing.push(input::pointed(
                        &path,
                        text,
                        &[Step::Key("templates")],
                        format!(
                            "the templates folder `{}` does not exist (it is read relative to campaign.toml)",
                            root.join(t).display()
                        ),
                    ));
                }
                Some(root.join(t))
            }
            None => Some(root.join("templates")).filter(|d| d.is_dir()),
        };
        if !missing.is_empty() {
            let missing = missing
                .into_iter()
                .map(|d: Diagnostic| d.with_hint("make the folder, or fix the path"))
                .collect();
            return Err(Error::Input(Report {
                headline: Some("the campaign file names folders that are not there:".into()),
                diagnostics: missing,
                closing: None,
            }));
        }
        Ok((content, templates))
    }
}

/// A text of the campaign and its name relative to the campaign folder
/// (`campaign.toml`, `sessions/2/plan.toml`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Text {
    pub name: String,
    pub text: String,
}

/// Everything a campaign's packs are made from but its tables and
/// templates: `campaign.toml`, the party file (none when the party is a
/// pool summary), and each session's plan and record by number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Files {
    /// The campaign folder on disk (`None`: carried in a bundle).
    pub root: Option<PathBuf>,
    pub campaign: Text,
    pub party: Option<Text>,
    pub plans: Vec<(usize, Text)>,
    pub records: Vec<(usize, Text)>,
}

pub(crate) use crate::input::limits::MAX_SESSIONS;

impl Files {
    /// The campaign at `root` read from disk: `campaign.toml`, its party
    /// file and `sessions/<N>/plan.toml` and `record.toml` for every
    /// numbered folder of `sessions/`.
    pub(crate) fn read(root: &Path) -> Result<(Files, CampaignFile), Error> {
        let path = root.join(FILE);
        let text = input::read_text(&path, "campaign file")?;
        let file = CampaignFile::from_text(&path, &text)?;
        let origin = input::Origin {
            path: &path,
            text: &text,
        };
        let party = input::session_party_file(&origin, &file.party)?.map(|(_, text)| Text {
            name: file.party.clone(),
            text,
        });
        let mut plans = Vec::new();
        let mut records = Vec::new();
        for n in session_numbers(&root.join("sessions")) {
            let dir = root.join("sessions").join(n.to_string());
            for (name, list) in [("plan.toml", &mut plans), ("record.toml", &mut records)] {
                let p = dir.join(name);
                if p.is_file() {
                    let what = if name == "plan.toml" {
                        "session plan"
                    } else {
                        "session record"
                    };
                    list.push((
                        n,
                        Text {
                            name: format!("sessions/{n}/{name}"),
                            text: input::read_text(&p, what)?,
                        },
                    ));
                }
            }
        }
        Ok((
            Files {
                root: Some(root.to_owned()),
                campaign: Text {
                    name: FILE.into(),
                    text,
                },
                party,
                plans,
                records,
            },
            file,
        ))
    }

    /// Where a text of the campaign is (on disk, or named as the bundle
    /// names it), for messages.
    pub(crate) fn path_of(&self, name: &str) -> PathBuf {
        match &self.root {
            Some(r) => r.join(name),
            None => PathBuf::from(name),
        }
    }

    /// Session `n`'s plan, if it has one of its own.
    pub(crate) fn plan(&self, n: usize) -> Option<&Text> {
        self.plans.iter().find(|(k, _)| *k == n).map(|(_, t)| t)
    }

    /// Session `n`'s record, if it has one.
    pub(crate) fn record(&self, n: usize) -> Option<&Text> {
        self.records.iter().find(|(k, _)| *k == n).map(|(_, t)| t)
    }

    /// The plan session `n` is prepped from: its own, else the last plan
    /// before it (with that session's number); `None` when no plan is at
    /// or before `n`.
    pub(crate) fn plan_for(&self, n: usize) -> Option<(usize, &Text)> {
        self.plans
            .iter()
            .filter(|(k, _)| *k <= n)
            .max_by_key(|(k, _)| *k)
            .map(|(k, t)| (*k, t))
    }

    /// The next session: the first without a record.
    pub(crate) fn next_session(&self) -> usize {
        (1..).find(|n| self.record(*n).is_none()).unwrap_or(1)
    }

    /// The same campaign as it stood when session `n` was prepped: plans
    /// up to `n`, records before it.
    pub(crate) fn up_to(&self, n: usize) -> Files {
        Files {
            root: self.root.clone(),
            campaign: self.campaign.clone(),
            party: self.party.clone(),
            plans: self
                .plans
                .iter()
                .filter(|(k, _)| *k <= n)
                .cloned()
                .collect(),
            records: self
                .records
                .iter()
                .filter(|(k, _)| *k < n)
                .cloned()
                .collect(),
        }
    }
}

/// The numbered folders of `sessions/` (`1`, `2`, …), in order.
fn session_numbers(dir: &Path) -> Vec<usize> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<usize> = entries
        .flatten()
        .filter(|e| e.path().is_dir())
        .filter_map(|e| e.file_name().to_str()?.parse().ok())
        .filter(|n| (1..=MAX_SESSIONS).contains(n))
        .collect();
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_campaign_is_found_walking_up() {
        let base = std::env::temp_dir().join(format!("tw-find-{}", std::process::id()));
        let deep = base.join("camp/sessions/2");
        std::fs::create_dir_all(&deep).unwrap();
        assert_eq!(find(&deep), None);
        std::fs::write(base.join("camp/campaign.toml"), "seed = \"s\"\n").unwrap();
        assert_eq!(find(&deep), Some(PathBuf::from("../..")));
        assert_eq!(find(&base.join("camp")), Some(PathBuf::new()));
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn the_plan_of_a_session_without_one_is_the_last_before_it() {
        let t = |s: &str| Text {
            name: s.into(),
            text: String::new(),
        };
        let files = Files {
            root: None,
            campaign: t("campaign.toml"),
            party: None,
            plans: vec![(1, t("1")), (3, t("3"))],
            records: vec![(1, t("r1")), (2, t("r2"))],
        };
        assert_eq!(files.plan_for(2).map(|(k, _)| k), Some(1));
        assert_eq!(files.plan_for(4).map(|(k, _)| k), Some(3));
        assert_eq!(files.next_session(), 3);
        assert_eq!(files.up_to(2).records.len(), 1);
    }
}
