//! [`Sources::read`]: a session file or a bundle, and everything it names,
//! read into [`Sources`] — the addresses asked for (`--only`, `--reroll`)
//! checked against the session — all before a seed is chosen, so bad input
//! rolls nothing.

use std::io::Write;
use std::path::Path;

use super::{Asked, Sources, short};
use crate::content::{Library, SourceFile};
use crate::diagnostic::Diagnostic;
use crate::error::{Error, UsageError};
use crate::handouts::FORMAT;
use crate::handouts::markdown::Templates;
use crate::input::bundle::{
    BUNDLE_FORMAT, Bundle, Carried, CarriedTables, Stamp, bundle_from_text, is_bundle,
};
use crate::input::{self, Origin, Session};
use crate::seed::Seed;
use crate::workspace::{Again, Workspace};

impl Sources {
    /// Read the session file or bundle at `path`: notes (a bundle made by
    /// another version, a fresh seed) go to `err`.
    pub(crate) fn read(
        ws: &Workspace,
        path: &Path,
        asked: &Asked,
        err: &mut dyn Write,
    ) -> Result<Sources, Error> {
        let text = input::read_text(path, "session file")?;
        let mut src = if is_bundle(&text) {
            from_bundle(ws, path, &text, asked, err)?
        } else {
            from_session(ws, path, text, asked, err)?
        };
        src.flavours = asked.md.clone();
        Ok(src)
    }
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
    input::session_terrains(path, &text, &session, &library)?;
    input::session::table_flaws(&session, path, &text, &library)?;
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
        tablewright: stamp(&library),
        session: Carried { name, text },
        party: party_file.map(|(_, text)| Carried {
            name: session.party.clone(),
            text,
        }),
        content: user.into_iter().map(|f| carried_tables(ws, f)).collect(),
        templates: overrides
            .into_iter()
            .map(|(name, text, _)| Carried { name, text })
            .collect(),
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
    })
}

/// A `--content` table file as a bundle carries it: named relative to its
/// folder, so the bundle is the same wherever the folder is.
fn carried_tables(ws: &Workspace, f: SourceFile) -> CarriedTables {
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
fn stamp(library: &Library) -> Stamp {
    Stamp {
        bundle: BUNDLE_FORMAT,
        version: env!("CARGO_PKG_VERSION").to_owned(),
        format: FORMAT,
        tables: library.content_hash.clone(),
    }
}

fn from_bundle(
    ws: &Workspace,
    path: &Path,
    text: &str,
    asked: &Asked,
    err: &mut dyn Write,
) -> Result<Sources, Error> {
    if ws.seed.is_some() || !ws.content.is_empty() || ws.templates.is_some() {
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
    let overrides: Vec<(String, String, String)> = bundle
        .templates
        .iter()
        .map(|t| (t.name.clone(), t.text.clone(), String::new()))
        .collect();
    let templates = Templates::with_overrides(&overrides, Some("from the bundle"))?;
    let session_path = Path::new(&bundle.session.name);
    let session = input::session_from_text(session_path, &bundle.session.text)?;
    input::session::table_flaws(&session, session_path, &bundle.session.text, &library)?;
    let origin = Origin {
        path: session_path,
        text: &bundle.session.text,
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
    restamp(&mut bundle, &library, path, err)?;
    check_paper(&mut bundle, path)?;
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
    })
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
