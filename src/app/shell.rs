//! `completions` and `manpage`: the shell's view of the command line, both
//! made from the same clap command as the parser ([`crate::cli::command`]),
//! so they list exactly the subcommands and flags that parse, and written
//! to stdout for the GM to install (README, "Shell completions and the
//! manual").

use std::io::Write;

use crate::error::Error;

/// The binary's name as the shell sees it.
const BIN: &str = "tablewright";

/// A completion script for `shell`.
pub fn completions(shell: clap_complete::Shell, out: &mut dyn Write) -> Result<(), Error> {
    let mut cmd = crate::cli::command();
    // clap_complete writes straight into the writer; a failed write (a
    // closed pipe) panics there, so the script is made in memory first.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, BIN, &mut script);
    out.write_all(&script)?;
    Ok(())
}

/// The manual page in roff (`man 1 tablewright`), subcommands included.
pub fn manpage(out: &mut dyn Write) -> Result<(), Error> {
    let cmd = crate::cli::command();
    let mut page = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut page)?;
    out.write_all(&page)?;
    Ok(())
}
