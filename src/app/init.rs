//! `init [DIR]`: a campaign folder that validates and preps as it stands —
//! `campaign.toml` (title, seed, system, party, its `content` and
//! `templates` folders, the region's map), a party, one example region
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
use crate::workspace::Workspace;

/// Each folder (relative to DIR) and its files.
const SCAFFOLD: [(&str, &[(&str, &str)]); 4] = [
    (
        "",
        &[
            (
                "campaign.toml",
                include_str!("../../assets/init/campaign.toml"),
            ),
            ("party.toml", include_str!("../../assets/init/party.toml")),
        ],
    ),
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
    (
        "sessions/1",
        &[(
            "plan.toml",
            include_str!("../../assets/init/sessions/1/plan.toml"),
        )],
    ),
];

/// Each folder (relative to DIR) and its files: the scaffold, with the
/// built-in templates in `templates/`.
fn scaffold() -> Vec<(&'static str, Vec<(&'static str, &'static str)>)> {
    SCAFFOLD
        .iter()
        .map(|(sub, files)| {
            let mut files = files.to_vec();
            if *sub == "templates" {
                files.extend(crate::handouts::markdown::Templates::builtin());
            }
            (*sub, files)
        })
        .collect()
}

pub(crate) fn run(ws: &Workspace, dir: &Path, out: &mut dyn Write) -> Result<(), Error> {
    // Everything is checked before anything is written: no folder of the
    // scaffold may be a link or a file, no file of it a link or a folder
    // (not even with --force: nothing is written through a link), and
    // without --force no file of it may exist.
    check(dir, ws.force)?;
    // Each file is written whole (a fresh temporary file renamed into
    // place; a link at its name is refused), into the folder made for it;
    // when one cannot be written, what this run made is removed again.
    let mut written = Vec::new();
    let mut made = Vec::new();
    if let Err(e) = write_all(dir, &mut written, &mut made) {
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
    writeln!(out, "made a campaign folder in {}:", dir.display())?;
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
fn check(dir: &Path, force: bool) -> Result<(), OutputError> {
    let mut taken = Vec::new();
    for (sub, files) in scaffold() {
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
    written: &mut Vec<(std::path::PathBuf, bool)>,
    made: &mut Vec<std::path::PathBuf>,
) -> Result<(), OutputError> {
    for (sub, files) in scaffold() {
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
