//! `export` (tables in another tool's format, on stdout or one file per
//! table in a folder) and `import` (other tools' tables into validated
//! table files). The formats are `crate::interop`'s; this reads the files
//! (through `input`), validates what was read against the tables in
//! effect, and writes through `output::publish`, all files or none.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::content::{Library, SourceFile};
use crate::diagnostic::{Diagnostic, Report};
use crate::error::Error;
use crate::interop::{self, Draft, Export, Format, assemble, draft, foundry, pasted};
use crate::output::{self, Replace};
use crate::workspace::Workspace;

/// `export ID... --format F [--to DIR]`.
pub(crate) fn export(
    ws: &Workspace,
    ids: &[String],
    format: Format,
    to: Option<&Path>,
    out: &mut dyn Write,
) -> Result<(), Error> {
    let library = ws.library()?;
    let mut tables = Vec::new();
    for id in ids {
        let table = library.table(id)?;
        if !tables
            .iter()
            .any(|t: &&crate::content::Table| t.id == table.id)
        {
            tables.push(table);
        }
    }
    let ex = Export { library, tables };
    let Some(dir) = to else {
        let text = interop::stream(&ex, format).map_err(Error::input)?;
        write!(out, "{text}")?;
        return Ok(());
    };
    let files = interop::files(&ex, format).map_err(Error::input)?;
    let written = publish_to(ws, dir, &files)?;
    writeln!(
        out,
        "wrote {} to {}:",
        crate::generators::count(written.len(), "file", "files"),
        dir.display()
    )?;
    for p in &written {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default();
        writeln!(out, "  {name}")?;
    }
    Ok(())
}

/// `files` written into the folder `dir` in place (`export --to`,
/// `manpage --to`, `templates --to`): DIR checked to be a folder, the set staged inside it
/// ([`output::publish_into`]), so a GM's shared folder that is writable in
/// a parent that is not takes it; a file that differs is replaced only
/// with `--force`. The paths written.
pub(super) fn publish_to(
    ws: &Workspace,
    dir: &Path,
    files: &[(String, Vec<u8>)],
) -> Result<Vec<PathBuf>, Error> {
    folder_check(dir)?;
    Ok(output::publish_into(dir, files, replace(ws.force))?.files)
}

/// What `--to` may replace: with `--force`, files that differ; without,
/// nothing (identical bytes are never a conflict).
fn replace(force: bool) -> Replace {
    if force {
        Replace::All
    } else {
        Replace::Nothing
    }
}

/// `--to DIR` must be a folder (or not exist yet): a file there is
/// refused before anything is written.
pub(super) fn folder_check(dir: &Path) -> Result<(), Error> {
    match dir.symlink_metadata() {
        Ok(m) if !m.is_dir() && !m.file_type().is_symlink() => Err(Error::input(
            Diagnostic::message(format!(
                "--to {}: this is a file, not a folder",
                dir.display()
            ))
            .with_hint("give --to a folder (it is made when it does not exist)"),
        )),
        _ => Ok(()),
    }
}

/// How `import` reads generator files: `--from`, `--skip-unsupported`.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Generators {
    pub from: Option<interop::Reader>,
    pub skip: bool,
}

/// What one input became.
struct Imported {
    /// What `--skip-unsupported` left out, `file:line:column: what`.
    skipped: Vec<String>,
    input: String,
    /// The input's text (problems in what it became point at its lines).
    text: String,
    name: String,
    toml: String,
    drafts: Vec<Draft>,
    counts: BTreeMap<&'static str, usize>,
}

/// Read one input file into drafts: by its extension (`.json`, `.csv`,
/// `.tsv`, else Markdown), or by a look at its first character.
pub(crate) fn read_one(
    path: &Path,
    text: &str,
    taken: &mut BTreeSet<String>,
    from: Option<interop::Reader>,
) -> Result<foundry::Read, Vec<Diagnostic>> {
    let file = path.display().to_string();
    // A byte-order mark (Windows editors write one) is not text: left in,
    // it hides a Markdown table's heading and JSON's first brace.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if let Some(reader) = interop::reader_for(path, from) {
        let sheet =
            interop::read_sheet(reader, &file, &stem_of(path), text).map_err(|d| vec![d])?;
        let mut all = assemble::assemble(vec![sheet], false, taken)?;
        return Ok(all.remove(0).read);
    }
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    let stem = stem_of(path);
    let first = text.trim_start().chars().next();
    let json = ext == "json" || (ext.is_empty() && matches!(first, Some('{' | '[')));
    if ext == "yml" || ext == "yaml" {
        return Err(vec![yaml(&file)]);
    }
    let mut counts = BTreeMap::new();
    if !json {
        let csv = ext == "csv" || ext == "tsv";
        let draft = pasted::read(text, csv, &file, &stem, &mut counts)?;
        taken.insert(draft.id.clone());
        return Ok(foundry::Read {
            drafts: vec![draft],
            counts,
        });
    }
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        vec![Diagnostic::at(&file, e.line().max(1), e.column().max(1), format!("this is not valid JSON: {e}"))
            .with_hint("import the file as Foundry exported it (Export Data), or as `tablewright export --format json` wrote it")]
    })?;
    if interop::json::is_ours(&value) {
        let lines = foundry::key_lines(text, "range");
        let line_of = |n: usize| lines.get(n - 1).copied().unwrap_or(1);
        let drafts = interop::json::read(value, &line_of).map_err(|m| {
            vec![
                Diagnostic::at(&file, 1, 1, m)
                    .with_hint("export the tables again with `tablewright export --format json`"),
            ]
        })?;
        let problems: Vec<Diagnostic> = drafts.iter().flat_map(|d| d.check_rows(&file)).collect();
        if !problems.is_empty() {
            return Err(problems);
        }
        taken.extend(drafts.iter().map(|d| d.id.clone()));
        return Ok(foundry::Read { drafts, counts });
    }
    foundry::read(&value, &file, text, taken)
}

/// A file's name without its extension (`table` when it has none).
fn stem_of(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "table".into());
    // `name.perchance.txt`, as generators are often saved, is `name`.
    match stem.strip_suffix(".perchance") {
        Some(s) if !s.is_empty() => s.to_owned(),
        _ => stem,
    }
}

/// The generator files among `texts` (path and text), read and resolved
/// together (a file's `Use:` or `[Table.Group]` calls find each other):
/// what each became, by its place among `texts`.
fn read_generators(
    texts: &[(PathBuf, String)],
    how: Generators,
    taken: &mut BTreeSet<String>,
) -> Result<BTreeMap<usize, assemble::Assembled>, Vec<Diagnostic>> {
    let mut places = Vec::new();
    let mut sheets = Vec::new();
    let mut problems = Vec::new();
    for (n, (path, text)) in texts.iter().enumerate() {
        let Some(reader) = interop::reader_for(path, how.from) else {
            continue;
        };
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let file = path.display().to_string();
        match interop::read_sheet(reader, &file, &stem_of(path), text) {
            Ok(sheet) => {
                places.push(n);
                sheets.push(sheet);
            }
            Err(d) => problems.push(d),
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let all = assemble::assemble(sheets, how.skip, taken)?;
    Ok(places.into_iter().zip(all).collect())
}

/// A file name in DIR for input `stem`, not taken yet.
fn file_name(stem: &str, names: &mut BTreeSet<String>) -> String {
    let base = interop::slug(stem);
    let mut name = format!("{base}.toml");
    let mut n = 2;
    while !names.insert(name.clone()) {
        name = format!("{base}-{n}.toml");
        n += 1;
    }
    name
}

/// `import FILE... [--to DIR]`: read every file, stop at the first
/// problems (each pointed at), validate what was read with the tables in
/// effect, then write one table file per input, all or none.
pub(crate) fn import(
    ws: &Workspace,
    files: &[PathBuf],
    to: &Path,
    how: Generators,
    out: &mut dyn Write,
) -> Result<(), Error> {
    folder_check(to)?;
    let mut texts = Vec::new();
    for path in files {
        texts.push((
            path.clone(),
            crate::input::read_text(path, "table to import")?,
        ));
    }
    let mut taken = BTreeSet::new();
    let mut names = BTreeSet::new();
    let mut imported = Vec::new();
    let (mut generated, mut problems) = match read_generators(&texts, how, &mut taken) {
        Ok(g) => (g, Vec::new()),
        Err(p) => (BTreeMap::new(), p),
    };
    for (n, (path, text)) in texts.iter().enumerate() {
        let (read, skipped) = match generated.remove(&n) {
            Some(a) => (Ok(a.read), a.skipped),
            None if interop::reader_for(path, how.from).is_some() => continue,
            None => (read_one(path, text, &mut taken, None), Vec::new()),
        };
        match read {
            Ok(foundry::Read { drafts, counts }) => {
                let input = path.display().to_string();
                imported.push(Imported {
                    toml: draft::to_toml(&drafts, &input),
                    text: text.clone(),
                    name: file_name(&stem_of(path), &mut names),
                    input,
                    drafts,
                    counts,
                    skipped,
                });
            }
            Err(mut p) => problems.append(&mut p),
        }
    }
    if !problems.is_empty() {
        return Err(Error::Input(Report {
            headline: Some(format!(
                "{} problem(s) in the files to import:",
                problems.len()
            )),
            diagnostics: problems,
            closing: Some(
                "nothing was written; fix the files and import again (or, for constructs tablewright cannot carry, import the rest with --skip-unsupported)"
                    .into(),
            ),
        }));
    }
    validate(ws, to, &imported)?;
    let set: Vec<(String, Vec<u8>)> = imported
        .iter()
        .filter(|i| !i.drafts.is_empty())
        .map(|i| (i.name.clone(), i.toml.clone().into_bytes()))
        .collect();
    if set.is_empty() {
        report(to, &imported, out)?;
        return Err(nothing_imported());
    }
    // Staged inside --to and moved in, so a folder that is writable in a
    // parent that is not (a shared content folder) takes the import.
    output::publish_into(to, &set, replace(ws.force)).map_err(|e| match e {
        // The folder is written whole: a sub-folder cannot be carried.
        output::OutputError::Foreign(p) => Error::input(
            Diagnostic::message(format!(
                "--to {}: it holds the folder {}, and imported files go into a folder of files only",
                to.display(),
                p.display()
            ))
            .with_hint("import into a folder of its own, e.g. --to content/imported, and add it with --content"),
        ),
        e => e.into(),
    })?;
    report(to, &imported, out)
}

/// A `.yml` file: a Foundry source (as a system's repository keeps its
/// compendium), which is not read.
fn yaml(file: &str) -> Diagnostic {
    Diagnostic::at(file, 1, 1, "a YAML file (a Foundry compendium source, as a system's repository keeps it), which tablewright does not read")
        .with_hint("in Foundry, right-click the RollTable and choose Export Data, then import the .json it saves")
}

/// Every table of every file was skipped (`--skip-unsupported`): nothing
/// is written, and the run fails.
fn nothing_imported() -> Error {
    Error::input(
        Diagnostic::message(
            "nothing was imported: --skip-unsupported left out every table of every file (listed above), and nothing was written",
        )
        .with_hint("rewrite the constructs listed above with what tablewright carries (see the guide, Other tools), or import other files"),
    )
}

/// The imported files must load and validate with the tables in effect
/// (built in and --content, less the files they replace).
fn validate(ws: &Workspace, to: &Path, imported: &[Imported]) -> Result<(), Error> {
    let (mut user, problems) = Library::user_sources(&ws.content);
    if !problems.is_empty() {
        return Err(Error::Content(problems));
    }
    let targets: BTreeSet<PathBuf> = imported.iter().map(|i| to.join(&i.name)).collect();
    user.retain(|f| !targets.contains(Path::new(&f.name)));
    let layer = ws.content.len() + 1;
    let mut names = BTreeMap::new();
    for i in imported.iter().filter(|i| !i.drafts.is_empty()) {
        let name = format!("{} (imported from {})", to.join(&i.name).display(), i.input);
        names.insert(name.clone(), i);
        user.push(SourceFile::new(name, i.toml.clone(), layer));
    }
    let (_, problems) = Library::from_user_files(user);
    if problems.is_empty() {
        return Ok(());
    }
    // The table file was never written: a problem in it is pointed at
    // the input's line its row came from.
    let problems = problems
        .into_iter()
        .map(|d| match d.file.as_ref().and_then(|f| names.get(f)) {
            Some(i) => at_input(d, i),
            None => d,
        })
        .collect();
    Err(Error::Content(problems))
}

/// A problem at a line of the table file an input became, pointed at the
/// input's line its row (or its first row, for a table's own keys) came
/// from, that line shown.
fn at_input(mut d: Diagnostic, i: &Imported) -> Diagnostic {
    let rows: Vec<usize> = i
        .drafts
        .iter()
        .flat_map(|t| t.rows.iter().map(|r| r.line))
        .collect();
    let before = i
        .toml
        .lines()
        .take(d.line)
        .filter(|l| l.trim() == "[[table.row]]")
        .count();
    let line = rows
        .get(before.saturating_sub(1))
        .copied()
        .filter(|l| *l > 0)
        .unwrap_or(1);
    // What the problem points at in the table file (`{Bob}`), found again
    // in the input between the rows before and after (a Foundry result's
    // text may sit above the line of its `range`).
    let from = match before {
        0 | 1 => 0,
        n => rows.get(n - 2).copied().unwrap_or(0),
    };
    let to = rows.get(before).copied().unwrap_or(line + 40).max(line);
    let token: String = i
        .toml
        .lines()
        .nth(d.line.saturating_sub(1))
        .map(|l| {
            l.chars()
                .skip(d.column.saturating_sub(1))
                .collect::<String>()
        })
        .map(|rest| match rest.find('}') {
            Some(end) if rest.starts_with('{') => rest[..=end].to_owned(),
            _ => rest
                .chars()
                .take_while(|c| !c.is_whitespace() && *c != '"')
                .collect(),
        })
        .unwrap_or_default();
    // Its own line first, then upwards to the row before, then down.
    let lines: Vec<&str> = i.text.lines().collect();
    let found = (!token.is_empty())
        .then(|| {
            (from..line)
                .rev()
                .chain(line..to)
                .filter_map(|n| Some((n, *lines.get(n)?)))
                .find_map(|(n, l)| {
                    l.find(&token)
                        .map(|at| (n + 1, l[..at].chars().count() + 1))
                })
        })
        .flatten();
    let (line, column, width) = match found {
        Some((line, column)) => (line, column, token.chars().count()),
        None => {
            let width = i
                .text
                .lines()
                .nth(line - 1)
                .map_or(1, |l| l.chars().count());
            (line, 1, width.max(1))
        }
    };
    d.file = Some(i.input.clone());
    d.line = line;
    d.column = column;
    d.snippet = None;
    d.with_source(&i.text, width)
}

/// What was written from what, and what was converted on the way.
fn report(to: &Path, imported: &[Imported], out: &mut dyn Write) -> Result<(), Error> {
    for i in imported {
        let rows: usize = i.drafts.iter().map(|d| d.rows.len()).sum();
        let ids: Vec<&str> = i.drafts.iter().map(|d| d.id.as_str()).collect();
        if i.drafts.is_empty() {
            writeln!(
                out,
                "{}: nothing imported (every table was skipped)",
                i.input
            )?;
        } else {
            writeln!(
                out,
                "{} → {}: {} table(s), {rows} rows ({})",
                i.input,
                to.join(&i.name).display(),
                i.drafts.len(),
                ids.join(", ")
            )?;
        }
        for (what, n) in &i.counts {
            writeln!(out, "  {n} × {what}")?;
        }
        if !i.skipped.is_empty() {
            writeln!(out, "  skipped (--skip-unsupported):")?;
            for s in &i.skipped {
                writeln!(out, "    {s}")?;
            }
        }
    }
    Ok(())
}
