//! `completions` and `manpage`: the shell's view of the command line, both
//! made from the same clap command as the parser ([`crate::cli::command`]),
//! so they list exactly the subcommands and flags that parse, and written
//! to stdout for the GM to install (README, "Shell completions and the
//! manual"); `manpage --to DIR` writes every command's page into DIR.

use std::io::Write;
use std::path::Path;

use crate::error::Error;
use crate::workspace::Workspace;

/// The binary's name as the shell sees it.
const BIN: &str = "tablewright";

/// A completion script for `shell`.
pub(crate) fn completions(shell: clap_complete::Shell, out: &mut dyn Write) -> Result<(), Error> {
    let mut cmd = crate::cli::command();
    // clap_complete writes straight into the writer; a failed write (a
    // closed pipe) panics there, so the script is made in memory first.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, BIN, &mut script);
    out.write_all(&script)?;
    Ok(())
}

/// The manual page in roff (`man 1 tablewright`), subcommands listed, on
/// `out`; with `to`, every page ([`pages`]) written into that folder as
/// `export --to` writes ([`super::interop::publish_to`]: staged inside it,
/// so a writable folder in a read-only parent takes them; all or nothing;
/// a page that differs is replaced only with `--force`).
pub(crate) fn manpage(ws: &Workspace, to: Option<&Path>, out: &mut dyn Write) -> Result<(), Error> {
    let files = pages(crate::cli::command())?;
    let Some(dir) = to else {
        // The top page, the same bytes as `tablewright.1` in DIR.
        out.write_all(&files[0].1)?;
        return Ok(());
    };
    let written = super::interop::publish_to(ws, dir, &files)?;
    writeln!(out, "wrote {} pages to {}:", written.len(), dir.display())?;
    for (name, _) in &files {
        writeln!(out, "  {name}")?;
    }
    Ok(())
}

/// `templates`: the built-in templates' names, one a line, on `out`; with
/// `to`, every built-in template written into that folder as `export --to`
/// writes ([`super::interop::publish_to`]: staged inside it, so a writable
/// folder in a read-only parent takes them; all or nothing; a file there
/// with other bytes is a GM's edit and is replaced only with `--force`).
pub(crate) fn templates(
    ws: &Workspace,
    to: Option<&Path>,
    out: &mut dyn Write,
) -> Result<(), Error> {
    let files: Vec<(String, Vec<u8>)> = crate::handouts::markdown::Templates::builtin()
        .map(|(name, text)| (name.to_owned(), text.as_bytes().to_vec()))
        .collect();
    let Some(dir) = to else {
        for (name, _) in &files {
            writeln!(out, "{name}")?;
        }
        return Ok(());
    };
    let written = super::interop::publish_to(ws, dir, &files)?;
    writeln!(
        out,
        "wrote {} templates to {}:",
        written.len(),
        dir.display()
    )?;
    for (name, _) in &files {
        writeln!(out, "  {name}")?;
    }
    writeln!(
        out,
        "edit any of them; a file left as it is changes nothing (use the folder as `templates` in campaign.toml or with --templates)"
    )?;
    Ok(())
}

/// Every manual page, as clap_mangen's `generate_to` names them but made in
/// memory: the top page `tablewright.1`, then one per subcommand, nested
/// ones too (`tablewright-prep.1`, `tablewright-gen-npc.1`), which the
/// top page's SUBCOMMANDS section refers to.
fn pages(cmd: clap::Command) -> Result<Vec<(String, Vec<u8>)>, Error> {
    fn walk(cmd: clap::Command, out: &mut Vec<(String, Vec<u8>)>) -> Result<(), Error> {
        let man = clap_mangen::Man::new(cmd.clone());
        let mut page = Vec::new();
        man.render(&mut page)?;
        out.push((man.get_filename(), page));
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            walk(sub.clone(), out)?;
        }
        Ok(())
    }
    let mut cmd = cmd.disable_help_subcommand(true);
    cmd.build();
    let mut out = Vec::new();
    walk(cmd, &mut out)?;
    Ok(out)
}
