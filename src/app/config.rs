//! The global options, read once from the command line and given meaning:
//! the seed (the one place a seed is chosen), the tables (built in plus
//! `--content`), the templates, the paper and where handouts go.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::cli::Global;
use crate::content::Library;
use crate::error::Error;
use crate::handouts::markdown::Templates;
use crate::page::pdf::Paper;
use crate::seed::Seed;

/// Everything the commands need from the global options.
#[derive(Debug, Clone)]
pub struct Config {
    /// `--seed`, if given.
    pub seed: Option<String>,
    pub json: bool,
    pub content: Vec<PathBuf>,
    /// `--templates DIR`; without it, a `templates/` folder where the
    /// command runs is used (looked for only by commands that render).
    pub templates: Option<PathBuf>,
    pub out: PathBuf,
    pub force: bool,
    pub paper: Paper,
    pub ink_saver: bool,
}

/// What a fresh seed lets the user do again, for the note on stderr.
#[derive(Debug, Clone, Copy)]
pub enum Again {
    Roll,
    Pack,
}

impl Config {
    pub fn from_cli(global: &Global) -> Self {
        Config {
            seed: global.seed.clone(),
            json: global.json,
            content: global.content.clone(),
            templates: global.templates.clone(),
            out: global.out.clone(),
            force: global.force,
            paper: global.paper.into(),
            ink_saver: global.ink_saver,
        }
    }

    /// The built-in tables and the user's folders; any problem stops the
    /// command (run `validate` to see them all).
    pub fn library(&self) -> Result<Library, Error> {
        self.library_with(&[])
    }

    /// The built-in tables, `first` (a session's own folders), then the
    /// `--content` folders (later ones win).
    pub fn library_with(&self, first: &[PathBuf]) -> Result<Library, Error> {
        let dirs: Vec<PathBuf> = first.iter().chain(&self.content).cloned().collect();
        let (library, problems) = Library::load(&dirs);
        if problems.is_empty() {
            Ok(library)
        } else {
            Err(Error::Content(problems))
        }
    }

    /// The templates: the built-in ones, with `--templates DIR` (or a
    /// `templates/` folder where the command runs) replacing any of the
    /// same name.
    pub fn templates(&self) -> Result<Templates, Error> {
        Ok(Templates::load(self.templates_dir())?)
    }

    /// The templates that replace built-in ones: (name, text, path).
    pub fn template_overrides(&self) -> Result<Vec<(String, String, String)>, Error> {
        Ok(Templates::overrides(self.templates_dir())?)
    }

    /// The same options with a session file's own folders: its `content`
    /// before the `--content` folders, its `templates` unless
    /// `--templates` is given.
    pub fn with_session_folders(&self, content: &[PathBuf], templates: Option<PathBuf>) -> Config {
        let mut cfg = self.clone();
        cfg.content = content.iter().chain(&self.content).cloned().collect();
        cfg.templates = self.templates.clone().or(templates);
        cfg
    }

    /// `--templates DIR`, else a `templates/` folder where the command runs.
    pub fn templates_dir(&self) -> Option<&Path> {
        let local = Path::new("templates");
        self.templates
            .as_deref()
            .or_else(|| local.is_dir().then_some(local))
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
