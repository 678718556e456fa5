//! [`Workspace`]: the one place where what a command works with is brought
//! together — the global options (seed, JSON, where handouts go, `--force`,
//! the paper, ink saving), the table folders (`--content`, after a
//! session's own), the template folder (`--templates`, else a session's
//! `templates`), the
//! session file found where the command runs, the tables and templates
//! loaded from them, and the choice of a seed (the one place a seed is
//! chosen).
//!
//! A command run anywhere inside a campaign folder finds its
//! `campaign.toml` by walking up from the working folder (as cargo finds
//! Cargo.toml: [`Workspace::find_campaign`]); the campaign's `content`
//! folders come first among the table folders, `--content` adding to them,
//! and its `templates` folder's templates are in effect, `--templates`
//! adding to them (a template in both: `--templates`' wins). Outside a
//! campaign, a session file in the working folder is looked for
//! ([`Workspace::local_session`]).

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::content::{Library, SourceFile};
use crate::diagnostic::Diagnostic;
use crate::error::Error;
use crate::handouts::markdown::Templates;
use crate::input::Session;
use crate::page::pdf::Paper;
use crate::seed::Seed;

/// The global options and the folders in effect.
#[derive(Debug, Clone)]
pub struct Workspace {
    /// `--seed`, if given.
    pub seed: Option<String>,
    /// `--json`: print JSON instead of text.
    pub json: bool,
    /// `--out`: where pack folders go.
    pub out: PathBuf,
    /// `--force`: replace files that differ.
    pub force: bool,
    /// `--paper`.
    pub paper: Paper,
    /// `--ink-saver`.
    pub ink_saver: bool,
    /// The table folders in order (later ones win): a session's own,
    /// then `--content`.
    pub content: Vec<PathBuf>,
    /// `--templates DIR` (else a session's `templates`).
    pub templates: Option<PathBuf>,
    /// The campaign folder found walking up from the working folder
    /// (written relative to it: `""`, `".."`), if any.
    pub campaign: Option<PathBuf>,
    /// The campaign's template folder; `--templates` adds to it.
    pub campaign_templates: Option<PathBuf>,
    /// How many of `content`'s first folders are the campaign's.
    pub campaign_content: usize,
}

/// What a fresh seed lets the user do again, for the note on stderr.
#[derive(Debug, Clone, Copy)]
pub enum Again {
    Roll,
    Pack,
}

/// The session file a command finds where it runs (`session.toml`), read
/// and checked, with its text.
pub struct LocalSession {
    pub path: PathBuf,
    pub session: Session,
    pub text: String,
}

impl Workspace {
    /// The built-in tables and the folders in effect; any problem stops the
    /// command (run `validate` to see them all).
    ///
    /// The library is kept until the process ends (a command loads it once
    /// or twice): freeing its tables piece by piece cost a short command
    /// such as `gen encounter` a twentieth of its work (issue 32).
    pub fn library(&self) -> Result<&'static Library, Error> {
        let (library, problems) = self.load_library();
        if problems.is_empty() {
            Ok(Box::leak(Box::new(library)))
        } else {
            Err(Error::Content(problems))
        }
    }

    /// The built-in tables and the folders in effect, with every problem
    /// found (for `validate`, which lists them).
    pub fn load_library(&self) -> (Library, Vec<Diagnostic>) {
        let (mut library, problems) = Library::load(&self.content);
        library.era = self.era().map(|(era, _)| era);
        (library, problems)
    }

    /// The campaign's `era` (rows tagged for other eras are not drawn),
    /// with a note pointed at where `campaign.toml` declares it (`None`
    /// outside a campaign, or with no era; `find_campaign` has checked
    /// the file).
    pub fn era(&self) -> Option<(String, Diagnostic)> {
        let path = self.campaign.as_ref()?.join(crate::campaign::folder::FILE);
        let text = std::fs::read_to_string(&path).ok()?;
        let file = crate::campaign::folder::CampaignFile::from_text(&path, &text).ok()?;
        let at = crate::input::pointed(
            &path,
            &text,
            &[crate::input::Step::Key("era")],
            String::new(),
        );
        file.era.map(|era| (era, at))
    }

    /// What `validate` warns of about eras: a declared era no row names
    /// (a typo draws only untagged rows), and tables with no row to draw
    /// under the era in effect.
    pub fn era_warnings(&self, library: &Library) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        if let Some((era, at)) = &self.era() {
            let known = library.known_eras();
            if !known.contains(era) {
                let list: Vec<&str> = known.iter().map(String::as_str).collect();
                let named = if list.is_empty() {
                    "no row names any era".to_owned()
                } else {
                    format!("the tables name {}", list.join(", "))
                };
                let mut d = at.clone();
                d.message = format!(
                    "era = \"{era}\": no table row is tagged `era:{era}` ({named}), so only \
                     untagged rows are drawn"
                );
                d.hint = Some(
                    "that is right for an era no table singles out; otherwise check the spelling"
                        .into(),
                );
                out.push(d);
            }
        }
        out.extend(library.era_gaps(library.era.as_deref()));
        out
    }

    /// The table files of the folders in effect, as read (for a bundle).
    pub fn table_files(&self) -> (Vec<SourceFile>, Vec<Diagnostic>) {
        Library::user_sources(&self.content)
    }

    /// The templates that replace built-in ones: (name, text, path) — the
    /// campaign's, then the template folder's (`--templates`, a session's,
    /// `templates/` here), which wins for a name in both.
    pub fn template_overrides(&self) -> Result<Vec<(String, String, String)>, Error> {
        let dir = self.templates_dir();
        let mut all = match &self.campaign_templates {
            Some(c) if dir != Some(c.as_path()) => Templates::overrides(Some(c))?,
            _ => Vec::new(),
        };
        for t in Templates::overrides(dir)? {
            match all.iter_mut().find(|(name, _, _)| *name == t.0) {
                Some(same) => *same = t,
                None => all.push(t),
            }
        }
        Ok(all)
    }

    /// The templates: the built-in ones, with the campaign's and the
    /// template folder's replacing any of the same name.
    pub fn templates(&self) -> Result<Templates, Error> {
        Ok(Templates::with_overrides(
            &self.template_overrides()?,
            None,
        )?)
    }

    /// The campaign this command runs in, found walking up from the
    /// working folder: its `campaign.toml` read and checked, its table
    /// folders put before `--content`'s and its template folder noted.
    /// Outside a campaign, the same workspace.
    pub fn find_campaign(self) -> Result<Self, Error> {
        let Some(root) = crate::campaign::folder::find(Path::new(".")) else {
            return Ok(self);
        };
        self.with_campaign(root)
    }

    /// The campaign at `root` (its `campaign.toml` read and checked), as
    /// [`Workspace::find_campaign`] takes the one it finds.
    pub(crate) fn with_campaign(mut self, root: PathBuf) -> Result<Self, Error> {
        let path = root.join(crate::campaign::folder::FILE);
        let text = crate::input::read_text(&path, "campaign file")?;
        let file = crate::campaign::folder::CampaignFile::from_text(&path, &text)?;
        let (content, templates) = file.folders(&root, &text)?;
        self.campaign_content = content.len();
        self.content = content.into_iter().chain(self.content).collect();
        self.campaign_templates = templates;
        self.campaign = Some(root);
        Ok(self)
    }

    /// The table folders read, for a message about a table or archetype
    /// that is not there: `the built-in tables, content, more`.
    pub fn folders_read(&self) -> String {
        let mut out = vec!["the built-in tables".to_owned()];
        out.extend(self.content.iter().map(|d| format!("{}/", d.display())));
        out.join(", ")
    }

    /// The same workspace with a session file's own folders: its `content`
    /// before the `--content` folders, its `templates` unless
    /// `--templates` is given.
    pub fn with_session_folders(&self, content: &[PathBuf], templates: Option<PathBuf>) -> Self {
        let mut ws = self.clone();
        ws.content = content.iter().chain(&self.content).cloned().collect();
        ws.templates = self.templates.clone().or(templates);
        ws
    }

    /// The template folder in effect: `--templates DIR` (or a session's),
    /// else the campaign's. A bare `templates/` folder where the command
    /// runs is not read: template folders are named, as table folders are.
    pub fn templates_dir(&self) -> Option<&Path> {
        self.templates
            .as_deref()
            .or(self.campaign_templates.as_deref())
    }

    /// A `session.toml` where the command runs (as `prep` would read it),
    /// read and checked; `None` when there is none.
    pub fn local_session(&self) -> Result<Option<LocalSession>, Error> {
        let path = PathBuf::from("session.toml");
        if !path.is_file() {
            return Ok(None);
        }
        let (session, text) = crate::input::session(&path)?;
        Ok(Some(LocalSession {
            path,
            session,
            text,
        }))
    }

    /// The folder a pack made from `seed` goes to: OUT/<seed slug>.
    pub fn pack_dir(&self, seed: &Seed) -> PathBuf {
        self.out.join(crate::output::slug(seed.as_str()))
    }

    /// The seed to use: `--seed`, else the file's own seed, else a fresh
    /// one announced on `err` with how to get the same again.
    pub fn seed(
        &self,
        from_file: Option<&str>,
        again: Again,
        err: &mut dyn Write,
    ) -> Result<Seed, Error> {
        if let Some(text) = self.seed.as_deref().or(from_file) {
            return Ok(Seed::new(text)?);
        }
        let seed = Seed::fresh();
        let what = match again {
            Again::Roll => "roll the same again",
            Again::Pack => "make the same pack again",
        };
        writeln!(err, "seed: {seed} (add --seed {seed} to {what})")?;
        Ok(seed)
    }

    /// The seed for a command with no file of its own.
    pub fn roll_seed(&self, err: &mut dyn Write) -> Result<Seed, Error> {
        self.seed(None, Again::Roll, err)
    }
}
