//! `prep`: read the session file and its party, generate the pack, render
//! every handout, and write them all (or nothing) into OUT/<seed slug>/.

use std::io::Write;
use std::path::Path;

use super::Config;
use super::config::Again;
use crate::content::Library;
use crate::error::Error;
use crate::generators::pack;
use crate::input::{self, Origin, Session};
use crate::render::handouts::{self, ShareLine};
use crate::render::pdf::Fonts;
use crate::seed::Seed;

pub fn run(
    cfg: &Config,
    path: &Path,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    // Read every input before choosing a seed: bad input rolls nothing.
    let (session, text) = input::session(path)?;
    let library = cfg.library()?;
    let templates = cfg.templates()?;
    // A party file is read relative to the session file.
    let origin = Origin { path, text: &text };
    let party = input::session_party(&origin, &session.party, session.system)?;
    let seed = cfg.seed(session.seed.as_deref(), Again::Pack, err)?;
    let pack = pack::generate(&library, &session.request(), &party, &seed)?;
    let share = share_line(&session, &seed, &library);
    let mut files = handouts::pack_files(&pack, &templates, &share)?;
    let pdf = handouts::pack_pdf(&pack, &share, cfg.paper, cfg.ink_saver, &Fonts::load());
    files.insert(1, ("pack.pdf".into(), pdf));
    let dir = cfg.out.join(crate::output::slug(seed.as_str()));
    let written = crate::output::write_set(&dir, &files, cfg.force)?;
    if cfg.json {
        let names: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
        return super::json(out, &names);
    }
    writeln!(out, "wrote {} files to {}:", written.len(), dir.display())?;
    for p in &written {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default();
        writeln!(out, "  {name}")?;
    }
    Ok(())
}

/// The line printed on every page: what a friend needs to make the same
/// pack.
fn share_line(session: &Session, seed: &Seed, library: &Library) -> ShareLine {
    ShareLine {
        seed: seed.as_str().to_owned(),
        options: format!(
            "{} · {} · {}",
            session.title,
            session.system.label(),
            session.terrain
        ),
        version: env!("CARGO_PKG_VERSION").to_owned(),
        content: library.content_hash[..8].to_owned(),
    }
}
