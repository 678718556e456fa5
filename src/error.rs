//! The crate's error type: every failure a user can hit, each typed, each
//! with a message that says what is wrong and what to do. Problems in what a
//! user wrote (files, expressions) are [`Diagnostic`]s gathered in a
//! [`Report`]; only [`Error::Usage`] — a [`UsageError`], arguments that do
//! not fit together — exits with 2 (see [`Error::exit_code`]).
//!
//! - [`usage`]: [`UsageError`], one variant per command-line mistake.

pub(crate) mod usage;

pub(crate) use usage::UsageError;

use std::fmt;

use crate::diagnostic::{Diagnostic, Report};
use crate::dice::ParseError;
use crate::dice::dist::TooLarge;
use crate::handouts::markdown::TemplateError;
use crate::output::OutputError;
use crate::seed::SeedError;

#[derive(Debug)]
pub enum Error {
    /// Command-line arguments that do not fit together (exit code 2).
    Usage(UsageError),
    /// Problems in something the user wrote, each pointed at.
    Input(Report),
    /// A dice expression that cannot be read.
    Parse(ParseError),
    /// A seed that cannot be used.
    Seed(SeedError),
    /// Exact odds that would take too long or too much memory.
    TooLarge(TooLarge),
    /// A file the user named that cannot be read.
    Read {
        what: &'static str,
        path: String,
        source: std::io::Error,
    },
    /// Writing to the terminal failed.
    Io(std::io::Error),
    /// Problems in the tables (every one of them).
    Content(Vec<Diagnostic>),
    /// A table roll that cannot be made (unknown id, no row with a tag…).
    Table(crate::tables::RollError),
    /// A generator request that cannot be met.
    Gen(crate::generators::GenError),
    /// Handouts that cannot be written.
    Output(OutputError),
    /// Templates that cannot be loaded or rendered.
    Template(TemplateError),
}

impl Error {
    /// The process exit code: 2 for usage mistakes, 1 for everything else.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Usage(_) => 2,
            _ => 1,
        }
    }

    /// One diagnostic as an error.
    pub fn input(d: Diagnostic) -> Self {
        Error::Input(Report::one(d))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Usage(u) => u.fmt(f),
            Error::Input(r) => r.fmt(f),
            Error::Parse(e) => e.fmt(f),
            Error::Seed(e) => write!(f, "--seed: {e}"),
            Error::TooLarge(e) => e.fmt(f),
            Error::Read { what, path, source } => {
                write!(f, "cannot read the {what} `{path}`: {source}")
            }
            Error::Io(e) => write!(f, "could not write the output: {e}"),
            Error::Content(problems) => Report {
                headline: Some(format!("{} problem(s) in the tables:", problems.len())),
                diagnostics: problems.clone(),
                closing: Some("fix them and run `tablewright validate` again".into()),
            }
            .fmt(f),
            Error::Table(e) => e.fmt(f),
            Error::Gen(e) => e.fmt(f),
            Error::Output(e) => e.fmt(f),
            Error::Template(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {}

macro_rules! from {
    ($($source:ty => $variant:ident),* $(,)?) => {
        $(impl From<$source> for Error {
            fn from(e: $source) -> Self {
                Error::$variant(e)
            }
        })*
    };
}

from! {
    ParseError => Parse,
    SeedError => Seed,
    TooLarge => TooLarge,
    std::io::Error => Io,
    crate::tables::RollError => Table,
    crate::generators::GenError => Gen,
    OutputError => Output,
    TemplateError => Template,
    Report => Input,
    UsageError => Usage,
}
