//! `prep`: read the session file (or a bundle) and its party, generate the
//! pack, render every handout, and write them all (or nothing) into
//! OUT/<seed slug>/ — with the pack's own `bundle.toml`. `--only ADDRESS`
//! writes just those items' files; `--reroll ADDRESS` rerolls items,
//! records it in the session file's `[rerolls]` and rewrites the files
//! that change. `--md FLAVOUR` adds a folder of that Markdown flavour
//! (a render option: not in the bundle, so it never changes the bundle's
//! hash; `--reroll` and `verify` keep every flavour folder the pack
//! already has).

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use super::Config;
use super::config::Again;
use crate::content::{Library, SourceFile};
use crate::diagnostic::{Diagnostic, Report};
use crate::error::Error;
use crate::generators::Address;
use crate::generators::pack::{self, Pack};
use crate::handouts::markdown::Templates;
use crate::handouts::{self, FORMAT, Flavour, ShareLine};
use crate::input::bundle::{
    BUNDLE_FORMAT, Bundle, Carried, CarriedTables, Stamp, bundle_from_text, is_bundle,
    with_rerolls, without_rerolls,
};
use crate::input::{self, Origin, Session};
use crate::output::{self, Scope};
use crate::page::pdf::{Fonts, Paper};
use crate::rules::Party;
use crate::seed::Seed;

/// What `prep` was asked beyond the session: `--only`, `--reroll` and
/// `--md`.
#[derive(Default)]
pub struct Asked<'a> {
    pub only: &'a [String],
    pub reroll: &'a [String],
    pub md: Vec<Flavour>,
}

/// Everything one pack is made from, read and checked.
pub struct Sources {
    /// The same, as one file.
    pub bundle: Bundle,
    pub session: Session,
    /// The session file on disk (`None` when read from a bundle).
    pub session_path: Option<PathBuf>,
    pub library: Library,
    pub templates: Templates,
    pub party: Party,
    pub seed: Seed,
    pub paper: Paper,
    pub ink_saver: bool,
    /// Markdown flavours with a folder of their own to write.
    pub flavours: Vec<Flavour>,
}

pub fn run(
    cfg: &Config,
    path: &Path,
    asked: &Asked,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    let mut src = sources(cfg, path, asked, err)?;
    src.flavours = asked.md.clone();
    if !asked.reroll.is_empty() {
        src.flavours.extend(flavours_in(&pack_dir(cfg, &src)));
        return reroll(cfg, src, asked.reroll, out);
    }
    let (pack, mut files) = build(&src)?;
    if !asked.only.is_empty() {
        let only: BTreeSet<String> = asked.only.iter().cloned().collect();
        files.retain(|(name, _)| {
            handouts::item_of(name).is_some_and(|a| only.contains(&a.to_string()))
        });
        for a in &only {
            let at = Address::parse(a).expect("checked");
            files.extend(item_pdf(&src, &pack, &at, src.paper));
        }
    }
    let dir = pack_dir(cfg, &src);
    // `--only` writes part of a pack; without it the set is the whole pack.
    let scope = if asked.only.is_empty() {
        Scope::Whole
    } else {
        Scope::Part
    };
    let mut force = cfg.force;
    if !force && scope == Scope::Whole && behind_rerolls(&dir, &src.bundle) {
        writeln!(
            err,
            "note: the pack in {} was made before the session's latest [rerolls] (a reroll \
             edited by hand, or one cut short): bringing it in step",
            dir.display()
        )?;
        force = true;
    }
    let written = output::publish(&dir, &files, scope, force)?.files;
    report(cfg, &dir, &written, out)
}

/// The folder a pack goes to: OUT/<seed slug>.
fn pack_dir(cfg: &Config, src: &Sources) -> PathBuf {
    cfg.out.join(output::slug(src.seed.as_str()))
}

/// What was written: file names, or their paths as JSON.
fn report(cfg: &Config, dir: &Path, written: &[PathBuf], out: &mut dyn Write) -> Result<(), Error> {
    if cfg.json {
        let names: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
        return super::json(out, &names);
    }
    writeln!(out, "wrote {} files to {}:", written.len(), dir.display())?;
    for p in written {
        // Named from the pack folder (`homebrewery/pack.md`).
        let name = p.strip_prefix(dir).unwrap_or(p).to_string_lossy();
        writeln!(out, "  {name}")?;
    }
    Ok(())
}

/// Read a session file or a bundle, and everything it names, checking
/// the addresses `asked` (`--only`/`--reroll`) against it — all before a seed
/// is chosen, so bad input rolls nothing.
pub fn sources(
    cfg: &Config,
    path: &Path,
    asked: &Asked,
    err: &mut dyn Write,
) -> Result<Sources, Error> {
    let text = input::read_text(path, "session file")?;
    if is_bundle(&text) {
        from_bundle(cfg, path, &text, asked, err)
    } else {
        from_session(cfg, path, text, asked, err)
    }
}

/// Refuse addresses the session has no item at (a usage mistake).
fn check_addresses(session: &Session, asked: &Asked) -> Result<(), Error> {
    let flaws: Vec<String> = asked
        .only
        .iter()
        .chain(asked.reroll)
        .filter_map(|a| session.address_flaw(a))
        .collect();
    match flaws.is_empty() {
        true => Ok(()),
        false => Err(Error::Usage(format!("prep: {}", flaws.join("; ")))),
    }
}

fn from_session(
    cfg: &Config,
    path: &Path,
    text: String,
    asked: &Asked,
    err: &mut dyn Write,
) -> Result<Sources, Error> {
    let session = input::session_from_text(path, &text)?;
    // The session's own folders (`content`, `templates`, relative to it)
    // come before --content; --templates wins over its templates.
    let (content, template_dir) = input::session_folders(path, &text, &session)?;
    let cfg = &cfg.with_session_folders(&content, template_dir);
    let library = cfg.library()?;
    input::session_terrains(path, &text, &session, &library)?;
    input::session::table_flaws(&session, path, &text, &library)?;
    let (user, _) = Library::user_sources(&cfg.content);
    let overrides = cfg.template_overrides()?;
    let templates = Templates::with_overrides(&overrides, None)?;
    let origin = Origin { path, text: &text };
    let party_file = input::session_party_file(&origin, &session.party)?;
    let party = match &party_file {
        Some((p, t)) => input::party_in_file(&origin, &session.party, session.system, p, t)?,
        None => input::session_party(&origin, &session.party, session.system)?,
    };
    check_addresses(&session, asked)?;
    let seed = cfg.seed(session.seed.as_deref(), Again::Pack, err)?;
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let bundle = Bundle {
        seed: seed.as_str().to_owned(),
        paper: None,
        ink_saver: cfg.ink_saver,
        tablewright: stamp(&library),
        session: Carried { name, text },
        party: party_file.map(|(_, text)| Carried {
            name: session.party.clone(),
            text,
        }),
        content: user.into_iter().map(|f| carried_tables(cfg, f)).collect(),
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
        paper: cfg.paper,
        ink_saver: cfg.ink_saver,
        flavours: Vec::new(),
    })
}

/// A `--content` table file as a bundle carries it: named relative to its
/// folder, so the bundle is the same wherever the folder is.
fn carried_tables(cfg: &Config, f: SourceFile) -> CarriedTables {
    let dir = cfg.content.get(f.layer.wrapping_sub(1));
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
    cfg: &Config,
    path: &Path,
    text: &str,
    asked: &Asked,
    err: &mut dyn Write,
) -> Result<Sources, Error> {
    if cfg.seed.is_some() || !cfg.content.is_empty() || cfg.templates.is_some() {
        return Err(Error::Usage(
            "a bundle carries its own seed, tables and templates: leave out --seed, --content \
             and --templates"
                .into(),
        ));
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
    let now = stamp(&library);
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
    // A bundle of format 1 names its paper: checked, then ignored (the
    // paper is `--paper`'s, a print option).
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
        paper: cfg.paper,
        flavours: Vec::new(),
    })
}

fn short(hash: &str) -> &str {
    hash.get(..8).unwrap_or(hash)
}

/// A pack's files: (name, bytes), in a fixed order.
pub type PackFiles = Vec<(String, Vec<u8>)>;

/// The pack and every file of it: the handouts, `pack.pdf` and the pack's
/// own `bundle.toml`.
pub fn build(src: &Sources) -> Result<(Pack, PackFiles), Error> {
    let pack = pack::generate(&src.library, &src.session.request(), &src.party, &src.seed)?;
    let share = share_line(src);
    let mut files = handouts::pack_files_in(&pack, &src.templates, &share, &src.flavours)?;
    files.insert(1, pack_pdf(src, &pack, src.paper));
    files.push(("bundle.toml".into(), src.bundle.to_text().into_bytes()));
    Ok((pack, files))
}

/// The pack PDF on `paper` (`pack.pdf`, `pack-letter.pdf`): the only file
/// of a pack that the paper changes.
pub fn pack_pdf(src: &Sources, pack: &Pack, paper: Paper) -> (String, Vec<u8>) {
    let share = share_line(src);
    let pdf = handouts::pack_pdf(pack, &share, paper, src.ink_saver, &Fonts::load());
    (paper.pack_pdf(), pdf)
}

/// The flavours whose folder a pack folder has (`homebrewery/`).
pub fn flavours_in(dir: &Path) -> Vec<Flavour> {
    Flavour::FOLDERS
        .into_iter()
        .filter(|f| dir.join(f.name()).is_dir())
        .collect()
}

/// The one-item PDF `prep --only` writes beside an item's files on
/// `paper` (`encounter-2.pdf`, `encounter-2-letter.pdf`).
pub fn item_pdf(
    src: &Sources,
    pack: &Pack,
    at: &Address,
    paper: Paper,
) -> Option<(String, Vec<u8>)> {
    let share = share_line(src);
    let bytes = handouts::item_pdf(pack, at, &share, paper, src.ink_saver, &Fonts::load())?;
    Some((paper.pdf_name(&at.file_stem()), bytes))
}

/// The line printed on every page: what a friend needs to make the same
/// pack.
fn share_line(src: &Sources) -> ShareLine {
    let s = &src.session;
    ShareLine {
        seed: src.seed.as_str().to_owned(),
        options: format!("{} · {} · {}", s.title, s.system.label(), s.terrain),
        version: env!("CARGO_PKG_VERSION").to_owned(),
        format: FORMAT,
        content: short(&src.library.content_hash).to_owned(),
        bundle: src.bundle.short_hash(),
    }
}

/// `--reroll`: one more reroll for each address, written into the session
/// file; the pack's files that change are rewritten, the rest left alone,
/// and items the reroll changed besides the rerolled ones are named.
fn reroll(
    cfg: &Config,
    src: Sources,
    addresses: &[String],
    out: &mut dyn Write,
) -> Result<(), Error> {
    let Some(path) = src.session_path.clone() else {
        return Err(Error::Usage(
            "prep --reroll edits a session file's [rerolls]; a bundle is a record of one pack, so \
             reroll in the session file it was shared from (or copy its session out)"
                .into(),
        ));
    };
    let (old_pack, old_files) = build(&src)?;
    let old = src.bundle.clone();
    let text = with_rerolls(&src.bundle.session.text, addresses).map_err(|e| {
        Error::input(
            Diagnostic::message(format!("{}: cannot record the reroll: {e}", path.display()))
                .with_hint("fix the session file so that it reads, then reroll again"),
        )
    })?;
    let session = input::session_from_text(&path, &text)?;
    let mut bundle = src.bundle.clone();
    bundle.session.text = text.clone();
    let new = Sources {
        bundle,
        session,
        ..src
    };
    let (new_pack, new_files) = build(&new)?;
    let dir = pack_dir(cfg, &new);
    let changed: Vec<(String, Vec<u8>)> = new_files
        .into_iter()
        .filter(|(name, bytes)| {
            let before = old_files.iter().find(|(n, _)| n == name).map(|(_, b)| b);
            before != Some(bytes) || !dir.join(name).exists()
        })
        .collect();
    // The session file first (replaced in one step), then the pack: a
    // kill between leaves the session ahead of its pack, which the next
    // plain `prep` brings in step (see [`behind_rerolls`]). A pack that
    // cannot be written puts the session file back as it was.
    write_session(&path, &text)?;
    let written = match output::publish(&dir, &changed, Scope::Part, true) {
        Ok(p) => p.files,
        Err(e) => {
            write_session(&path, &old.session.text)?;
            return Err(e.into());
        }
    };
    let also: Vec<String> = knock_on(&old_pack, &new_pack, addresses)
        .iter()
        .map(Address::to_string)
        .collect();
    let counts: BTreeMap<&str, u32> = addresses
        .iter()
        .map(|a| (a.as_str(), new_pack.rerolls.0.get(a).copied().unwrap_or(0)))
        .collect();
    if cfg.json {
        #[derive(serde::Serialize)]
        struct Rerolled<'a> {
            rerolled: &'a BTreeMap<&'a str, u32>,
            changed_too: &'a [String],
            written: Vec<String>,
        }
        let written = written.iter().map(|p| p.display().to_string()).collect();
        let report = Rerolled {
            rerolled: &counts,
            changed_too: &also,
            written,
        };
        return super::json(out, &report);
    }
    for (a, n) in &counts {
        let file = path.display();
        writeln!(out, "rerolled {a} (reroll {n}, recorded in {file})")?;
    }
    for at in &also {
        writeln!(
            out,
            "{at} changed too: it repeated, or no longer repeats, what a rerolled item says"
        )?;
    }
    report(cfg, &dir, &written, out)
}

/// Items that changed with a reroll without being rerolled themselves.
fn knock_on(old: &Pack, new: &Pack, rerolled: &[String]) -> Vec<Address> {
    new.addresses()
        .into_iter()
        .filter(|at| !rerolled.contains(&at.to_string()))
        .filter(|at| old.item_json(at) != new.item_json(at))
        .collect()
}

/// Whether the pack folder `dir` holds this very pack but for the
/// session's `[rerolls]`: its `bundle.toml` is `now` with other reroll
/// counts. Such a pack is one a `--reroll` was cut short on (the session
/// file is written first) or whose `[rerolls]` the GM edited, and a plain
/// `prep` may rewrite it without `--force`: the session says what it is.
fn behind_rerolls(dir: &Path, now: &Bundle) -> bool {
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
        match without_rerolls(&b.session.text) {
            Some(t) => b.session.text = t,
            None => return false,
        }
    }
    was == now
}

/// The session file, edited, written in place (replaced in one step; a
/// session file that is a link is refused, never written through).
fn write_session(path: &Path, text: &str) -> Result<(), Error> {
    output::write_file(path, text.as_bytes())?;
    Ok(())
}

/// Every file of a pack folder that does not match what its bundle makes:
/// (name, what is wrong), and the number of files compared.
pub fn differences(dir: &Path, files: &[(String, Vec<u8>)]) -> Vec<(String, &'static str)> {
    let mut out = Vec::new();
    for (name, bytes) in files {
        match std::fs::read(dir.join(name)) {
            Ok(b) if &b == bytes => {}
            Ok(_) => out.push((name.clone(), "differs")),
            Err(_) => out.push((name.clone(), "is missing")),
        }
    }
    let made: BTreeSet<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    // The pack's own folders (a Markdown flavour's) are read too.
    let folders: BTreeSet<&str> = made
        .iter()
        .filter_map(|n| n.split_once('/').map(|(f, _)| f))
        .collect();
    let mut extra: Vec<String> = std::iter::once("")
        .chain(folders)
        .flat_map(|f| files_in(dir, f))
        .filter(|n| !made.contains(n.as_str()))
        .collect();
    extra.sort();
    out.extend(extra.into_iter().map(|n| (n, "is not part of the pack")));
    out
}

/// The visible files in `dir`'s folder `folder` (`""`: `dir` itself),
/// named from `dir` (`homebrewery/pack.md`).
fn files_in(dir: &Path, folder: &str) -> Vec<String> {
    let prefix = match folder {
        "" => String::new(),
        f => format!("{f}/"),
    };
    std::fs::read_dir(dir.join(folder))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .map(|n| format!("{prefix}{n}"))
        .collect()
}

/// The files that differ, as the error `verify` exits 1 with.
pub fn mismatch(dir: &Path, diffs: Vec<(String, &'static str)>) -> Error {
    Error::Input(Report {
        headline: Some(format!(
            "{} file(s) in {} do not match what its bundle.toml makes:",
            diffs.len(),
            dir.display()
        )),
        diagnostics: diffs
            .into_iter()
            .map(|(n, what)| Diagnostic::message(format!("{n} {what}")))
            .collect(),
        closing: Some(
            "hint: make the pack again with `tablewright prep DIR/bundle.toml --force` (the same \
             tool version gives the same bytes)"
                .into(),
        ),
    })
}
