//! `init [DIR] [--system core]`: a campaign folder, METTLE or Core Rules,
//! that validates and preps as it stands —
//! `campaign.toml` (title, seed, system, party, its `content` and
//! `templates` folders, the region's map), a party of the system's PCs
//! (METTLE stat blocks or Core sheets, with a purse), one example region
//! (`content/saltflats.toml`, with places for a map), one archetype added
//! to the built-in ones in both systems (`content/archetypes.toml`, by
//! `extends`), the built-in templates to edit (as `templates --to` writes
//! them: a copy left as it is changes nothing) with a README of their
//! fields, and session 1's plan (`sessions/1/plan.toml`). The files are
//! embedded from `assets/init/` and the built-in templates.

use std::io::Write;
use std::path::Path;

use crate::error::Error;
use crate::output::{self, OutputError};
use crate::rules::RulesSystem;
use crate::workspace::Workspace;

/// Each folder (relative to DIR) and its files, the same in both systems.
const SCAFFOLD: [(&str, &[(&str, &str)]); 2] = [
    (
        "content",
        &[
            (
                "saltflats.toml",
                include_str!("../../assets/init/content/saltflats.toml"),
            ),
            (
                "archetypes.toml",
                include_str!("../../assets/init/content/archetypes.toml"),
            ),
        ],
    ),
    (
        "templates",
        &[(
            "README.md",
            include_str!("../../assets/init/templates/README.md"),
        )],
    ),
];

/// `campaign.toml`, `party.toml` and session 1's plan of a METTLE
/// campaign (a party of stat blocks, Downtime Vouchers)…
const METTLE: [&str; 3] = [
    include_str!("../../assets/init/campaign.toml"),
    include_str!("../../assets/init/party.toml"),
    include_str!("../../assets/init/sessions/1/plan.toml"),
];

/// …and of a Core Rules one (a party of sheets and a purse, an injury
/// slip, no vouchers).
const CORE: [&str; 3] = [
    include_str!("../../assets/init/core/campaign.toml"),
    include_str!("../../assets/init/core/party.toml"),
    include_str!("../../assets/init/core/plan.toml"),
];

/// Each folder (relative to DIR) and its files: the system's campaign,
/// party and plan, the scaffold, with the built-in templates in
/// `templates/`.
fn scaffold(system: RulesSystem) -> Vec<(&'static str, Vec<(&'static str, &'static str)>)> {
    let [campaign, party, plan] = match system {
        RulesSystem::Mettle => METTLE,
        RulesSystem::Core => CORE,
    };
    let mut out = vec![("", vec![("campaign.toml", campaign), ("party.toml", party)])];
    out.extend(SCAFFOLD.iter().map(|(sub, files)| {
        let mut files = files.to_vec();
        if *sub == "templates" {
            files.extend(crate::handouts::markdown::Templates::builtin());
        }
        (*sub, files)
    }));
    out.push(("sessions/1", vec![("plan.toml", plan)]));
    out
}

pub(crate) fn run(
    ws: &Workspace,
    dir: &Path,
    system: RulesSystem,
    out: &mut dyn Write,
) -> Result<(), Error> {
    // Everything is checked before anything is written: no folder of the
    // scaffold may be a link or a file, no file of it a link or a folder
    // (not even with --force: nothing is written through a link), and
    // without --force no file of it may exist.
    check(dir, system, ws.force)?;
    // Each file is written whole (a fresh temporary file renamed into
    // place; a link at its name is refused), into the folder made for it;
    // when one cannot be written, what this run made is removed again.
    let mut written = Vec::new();
    let mut made = Vec::new();
    if let Err(e) = write_all(dir, system, &mut written, &mut made) {
        for path in written.iter().filter(|(_, new)| *new).map(|(p, _)| p) {
            let _ = std::fs::remove_file(path);
        }
        for folder in made.iter().rev() {
            let _ = std::fs::remove_dir(folder);
        }
        return Err(e.into());
    }
    let written: Vec<_> = written.into_iter().map(|(p, _)| p).collect();
    if ws.json {
        let names: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
        return super::json(out, &names);
    }
    writeln!(
        out,
        "made a {} campaign folder in {}:",
        system.label(),
        dir.display()
    )?;
    for p in &written {
        writeln!(out, "  {}", p.display())?;
    }
    let at = if dir == Path::new(".") {
        String::new()
    } else {
        format!("cd {} && ", dir.display())
    };
    writeln!(
        out,
        "next: {at}tablewright validate && tablewright prep (session 1, from sessions/1/plan.toml, into out/session-1/)"
    )?;
    Ok(())
}

/// Refuse, before anything is written, a scaffold folder that is a link
/// or a file, a scaffold file that is a link or a folder, and (without
/// `force`) a scaffold file that exists.
fn check(dir: &Path, system: RulesSystem, force: bool) -> Result<(), OutputError> {
    let mut taken = Vec::new();
    for (sub, files) in scaffold(system) {
        let folder = dir.join(sub);
        if !sub.is_empty() {
            match folder.symlink_metadata() {
                Ok(m) if m.file_type().is_symlink() => return Err(OutputError::Link(folder)),
                Ok(m) if !m.is_dir() => return Err(OutputError::NotAFolder(folder)),
                _ => {}
            }
        }
        for (name, _) in &files {
            let path = folder.join(name);
            match path.symlink_metadata() {
                Ok(m) if m.file_type().is_symlink() => return Err(OutputError::Link(path)),
                Ok(m) if m.is_dir() => return Err(OutputError::NotAFile(path)),
                Ok(_) => taken.push(path),
                Err(_) => {}
            }
        }
    }
    if !taken.is_empty() && !force {
        return Err(OutputError::Exists(taken));
    }
    Ok(())
}

/// Make the folders and write the files, noting each file written (and
/// whether it is new) and each folder made.
fn write_all(
    dir: &Path,
    system: RulesSystem,
    written: &mut Vec<(std::path::PathBuf, bool)>,
    made: &mut Vec<std::path::PathBuf>,
) -> Result<(), OutputError> {
    for (sub, files) in scaffold(system) {
        let folder = dir.join(sub);
        let missing: Vec<std::path::PathBuf> = folder
            .ancestors()
            .take_while(|a| !a.as_os_str().is_empty() && a.symlink_metadata().is_err())
            .map(Path::to_path_buf)
            .collect();
        std::fs::create_dir_all(&folder)
            .map_err(|e| OutputError::CannotCreate(folder.clone(), e))?;
        made.extend(missing.into_iter().rev());
        for (name, text) in files {
            let path = folder.join(name);
            let new = path.symlink_metadata().is_err();
            output::write_file(&path, text.as_bytes())?;
            written.push((path, new));
        }
    }
    Ok(())
}
