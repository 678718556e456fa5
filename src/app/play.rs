//! `play [N|PACKDIR] [--port P] [--lan]`: opens the session (resuming
//! from its play log), starts the server over it and prints the GM's
//! address (with its token: printed nowhere else) and the players'; runs
//! until Ctrl-C (or SIGTERM), then stops the server. Every mark is in the
//! play log already (fsynced line by line), so a kill loses nothing either.

use std::io::Write;

use crate::diagnostic::Diagnostic;
use crate::error::{Error, UsageError};
use crate::play::server::{Options, Server};
use crate::play::{Source, open};
use crate::workspace::Workspace;

/// What `play` serves: a campaign's session (`None`: the one being
/// played) or a pack folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayWhat {
    Session(Option<usize>),
    Pack(std::path::PathBuf),
}

/// `play`'s arguments, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asked {
    pub what: PlayWhat,
    pub port: u16,
    pub lan: bool,
}

/// `play [N|PACKDIR] [--port P] [--lan]` read: a number is a session's.
pub(crate) fn asked(
    what: &Option<String>,
    port: Option<u16>,
    lan: bool,
) -> Result<Asked, UsageError> {
    let what = match what.as_deref() {
        None => PlayWhat::Session(None),
        Some(w) if !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()) => {
            let n = w.parse().unwrap_or(0);
            if !(1..=crate::campaign::folder::MAX_SESSIONS).contains(&n) {
                return Err(UsageError::SessionNumber { n });
            }
            PlayWhat::Session(Some(n))
        }
        Some(w) => PlayWhat::Pack(w.into()),
    };
    Ok(Asked {
        what,
        port: port.unwrap_or(0),
        lan,
    })
}

pub(crate) fn run(
    ws: &Workspace,
    Asked { what, port, lan }: Asked,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Error> {
    let source = match what {
        PlayWhat::Session(n) if ws.campaign.is_some() => Source::Campaign { n },
        PlayWhat::Session(_) => {
            return Err(UsageError::NotInCampaign {
                what: "`play` without a pack folder",
            }
            .into());
        }
        PlayWhat::Pack(dir) if dir.is_dir() => Source::Pack(dir),
        PlayWhat::Pack(dir) => {
            return Err(Error::input(
                Diagnostic::message(format!("`{}` is not a folder", dir.display())).with_hint(
                    "give a session's number inside a campaign, or a pack folder made by \
                     `tablewright prep`",
                ),
            ));
        }
    };
    // Ctrl-C is caught before any address is printed: a script (or a
    // GM) that stops the screen as soon as it is up stops it cleanly.
    let caught = interrupt::catch();
    let (table, mut held) = open(ws, source)?;
    let server = Server::start(table, Options::new(port, lan)).map_err(|e| bind_error(port, e))?;
    held.say(&server.players_address())?;
    writeln!(
        out,
        "GM's screen (keep this address to yourself): {}",
        server.gm_address()
    )?;
    writeln!(out, "Players' screen: {}", server.players_address())?;
    if let Some(far) = server.gm_address_on_the_network() {
        writeln!(
            out,
            "GM's screen from another device (a tablet; no room is kept for it when the network is busy): {far}"
        )?;
    }
    out.flush()?;
    let _ = writeln!(
        err,
        "serving{}; Ctrl-C stops (the play log keeps every roll and mark)",
        if lan {
            " on the local network"
        } else {
            " on this machine only"
        }
    );
    let _ = err.flush();
    interrupt::wait(caught);
    server.stop();
    drop(held);
    let _ = writeln!(err, "stopped");
    Ok(())
}

/// A port that cannot be listened on, said with what to do.
fn bind_error(port: u16, e: std::io::Error) -> Error {
    let what = match e.kind() {
        std::io::ErrorKind::AddrInUse => format!("port {port} is in use by another program"),
        std::io::ErrorKind::PermissionDenied => {
            format!("port {port} needs privileges this user does not have")
        }
        _ => format!("cannot listen on port {port}: {e}"),
    };
    Error::input(
        Diagnostic::message(what).with_hint(
            "choose another with --port P (above 1024), or leave --port out for a free one",
        ),
    )
}

#[cfg(unix)]
mod interrupt {
    //! Ctrl-C and SIGTERM, caught through `signal-hook` (no `unsafe` here,
    //! no flag polled): from [`catch`] on they no longer end the process,
    //! and [`wait`] blocks until one comes.
    use signal_hook::consts::{SIGINT, SIGTERM};
    use signal_hook::iterator::Signals;

    /// The signals caught since [`catch`].
    pub(super) struct Caught(Option<Signals>);

    /// From now on Ctrl-C and SIGTERM are caught instead of ending the
    /// process (if the handlers cannot be set, they end it as before).
    pub(super) fn catch() -> Caught {
        Caught(Signals::new([SIGINT, SIGTERM]).ok())
    }

    /// Blocks until Ctrl-C or SIGTERM.
    pub(super) fn wait(caught: Caught) {
        match caught.0 {
            Some(mut signals) => {
                let _ = signals.forever().next();
            }
            None => loop {
                std::thread::park();
            },
        }
    }
}

#[cfg(not(unix))]
mod interrupt {
    //! Elsewhere Ctrl-C ends the process; the play log has every line.
    pub(super) struct Caught;

    pub(super) fn catch() -> Caught {
        Caught
    }

    pub(super) fn wait(_: Caught) {
        loop {
            std::thread::park();
        }
    }
}
