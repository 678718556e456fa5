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
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse(e) => e.fmt(f),
            Error::Seed(e) => write!(f, "--seed: {e}"),
            Error::TooLarge(e) => e.fmt(f),
            Error::Usage(m) => f.write_str(m),
            Error::Io(e) => write!(f, "could not write the output: {e}"),
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
