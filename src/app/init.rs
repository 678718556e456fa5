//! `init [DIR]`: a campaign folder that validates and preps as it stands —
//! a session file that names its own `content` and `templates` folders, a
//! party, one example region (`content/saltflats.toml`, with places for a
//! map), one archetype added to the built-in ones in both systems
//! (`content/archetypes.toml`, by `extends`), and a README of the template
//! fields. The files are embedded from `assets/init/`.

use std::io::Write;
use std::path::Path;

use crate::error::Error;
use crate::output::{self, OutputError};
use crate::workspace::Workspace;

/// Each folder (relative to DIR) and its files.
const SCAFFOLD: [(&str, &[(&str, &str)]); 3] = [
    (
        "",
        &[
            (
                "session.toml",
                include_str!("../../assets/init/session.toml"),
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
];

pub(crate) fn run(ws: &Workspace, dir: &Path, out: &mut dyn Write) -> Result<(), Error> {
    // Refuse before writing anything: no file of the scaffold may exist.
    if !ws.force {
        let taken: Vec<_> = SCAFFOLD
            .iter()
            .flat_map(|(sub, files)| files.iter().map(move |(name, _)| dir.join(sub).join(name)))
            .filter(|p| p.exists() || p.is_symlink())
            .collect();
        if !taken.is_empty() {
            return Err(OutputError::Exists(taken).into());
        }
    }
    // Each file is written whole (a fresh temporary file renamed into
    // place; a link at its name is refused), into the folder made for it.
    let mut written = Vec::new();
    for (sub, files) in SCAFFOLD {
        let folder = dir.join(sub);
        std::fs::create_dir_all(&folder)
            .map_err(|e| OutputError::CannotCreate(folder.clone(), e))?;
        for (name, text) in files {
            let path = folder.join(name);
            output::write_file(&path, text.as_bytes())?;
            written.push(path);
        }
    }
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
        "next: {at}tablewright validate && tablewright prep (the session file names its content and templates)"
    )?;
    Ok(())
}
