//! The crate's error type: every failure a user can hit, each with a message
//! that says what is wrong and what to do.

use std::fmt;

use crate::dice::ParseError;
use crate::dice::dist::TooLarge;
use crate::seed::SeedError;

#[derive(Debug)]
pub enum Error {
    /// A dice expression that cannot be read.
    Parse(ParseError),
    /// A seed that cannot be used.
    Seed(SeedError),
    /// Exact odds that would take too long or too much memory.
    TooLarge(TooLarge),
    /// Arguments that do not fit together.
    Usage(String),
    /// Writing to the terminal failed.
    Io(std::io::Error),
    /// Problems in the tables (every one of them).
    Content(Vec<crate::content::Problem>),
    /// A table roll that cannot be made (unknown id, no row with a tag…).
    Table(crate::tables::RollError),
    /// A generator request that cannot be met.
    Gen(crate::generators::GenError),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse(e) => e.fmt(f),
            Error::Seed(e) => write!(f, "--seed: {e}"),
            Error::TooLarge(e) => e.fmt(f),
            Error::Usage(m) => f.write_str(m),
            Error::Io(e) => write!(f, "could not write the output: {e}"),
            Error::Content(problems) => {
                writeln!(f, "{} problem(s) in the tables:", problems.len())?;
                for p in problems {
                    writeln!(f, "{p}")?;
                }
                write!(f, "fix them and run `tablewright validate` again")
            }
            Error::Table(e) => e.fmt(f),
            Error::Gen(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {}

impl From<ParseError> for Error {
    fn from(e: ParseError) -> Self {
        Error::Parse(e)
    }
}

impl From<SeedError> for Error {
    fn from(e: SeedError) -> Self {
        Error::Seed(e)
    }
}

impl From<TooLarge> for Error {
    fn from(e: TooLarge) -> Self {
        Error::TooLarge(e)
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Io(e)
    }
}

impl From<crate::tables::RollError> for Error {
    fn from(e: crate::tables::RollError) -> Self {
        Error::Table(e)
    }
}

impl From<crate::generators::GenError> for Error {
    fn from(e: crate::generators::GenError) -> Self {
        Error::Gen(e)
    }
}
