//! The library's error type and the exit code each error maps to.
//!
//! Exit codes are part of the contract in `FORMATS.md`; `main` only forwards them. An ambiguous
//! puzzle is not an error (it has a solution), so it has no variant here.

use std::time::Duration;

use crate::detect::DetectError;
use crate::text::ParseError;

/// Everything that can go wrong between reading an input and printing its solution.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The input could not be opened or read.
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    /// The input is larger than gridsight accepts.
    #[error("input is larger than the limit of {limit} bytes")]
    InputTooLarge { limit: u64 },
    /// The puzzle text is malformed.
    #[error("{0}")]
    Parse(#[from] ParseError),
    /// The text is none of the puzzle formats gridsight knows.
    #[error("cannot tell the puzzle kind from the content; use --kind (nonogram, nurikabe, jump, sudoku)")]
    UnknownKind,
    /// The puzzle is larger than a solver accepts.
    #[error("puzzle of {width}x{height} is larger than the limit of {limit}x{limit}")]
    PuzzleTooLarge {
        width: usize,
        height: usize,
        limit: usize,
    },
    /// The photo could not be loaded, or no puzzle grid was found in it.
    #[error("{0}")]
    Detect(#[from] crate::detect::DetectError),
    /// A result file could not be written.
    #[error("{0}")]
    Output(String),
    /// A grid was found but its cells could not be read as a puzzle.
    #[error("cannot read the puzzle: {0}")]
    Unreadable(String),
    /// The search finished without finding any solution (for a photo, one read surely).
    #[error("the puzzle has no solution")]
    NoSolution,
    /// The `--state` grid given for a hint is malformed.
    #[error("--state: {0}")]
    State(ParseError),
    /// No solution agrees with the `--state` grid given for a hint.
    #[error("the --state grid has a mistake: no solution agrees with it")]
    StateContradicts,
    /// The solver's time limit passed before it finished.
    #[error("time limit of {} s reached while solving", .0.as_secs_f64())]
    TimedOut(Duration),
}

/// The stage an error belongs to, as named in the JSON report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    Input,
    Detect,
    Read,
    Solve,
    Output,
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::Input => "input",
            Stage::Detect => "detect",
            Stage::Read => "read",
            Stage::Solve => "solve",
            Stage::Output => "output",
        }
    }
}

impl Error {
    /// The process exit code for this error, per the table in `FORMATS.md`.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Io { .. }
            | Error::Parse(_)
            | Error::UnknownKind
            | Error::State(_)
            | Error::Output(_) => 2,
            Error::Detect(DetectError::Io { .. } | DetectError::Corrupt(_)) => 2,
            Error::Detect(DetectError::TooLarge { .. }) => 5,
            Error::Detect(_) | Error::Unreadable(_) => 3,
            Error::StateContradicts => 4,
            Error::NoSolution => 4,
            Error::InputTooLarge { .. } | Error::PuzzleTooLarge { .. } | Error::TimedOut(_) => 5,
        }
    }

    /// The pipeline stage that failed.
    pub fn stage(&self) -> Stage {
        match self {
            Error::Io { .. }
            | Error::InputTooLarge { .. }
            | Error::Parse(_)
            | Error::UnknownKind
            | Error::PuzzleTooLarge { .. }
            | Error::State(_)
            | Error::Detect(
                DetectError::Io { .. } | DetectError::Corrupt(_) | DetectError::TooLarge { .. },
            ) => Stage::Input,
            Error::Detect(_) => Stage::Detect,
            Error::Output(_) => Stage::Output,
            Error::Unreadable(_) => Stage::Read,
            Error::NoSolution | Error::StateContradicts | Error::TimedOut(_) => Stage::Solve,
        }
    }
}

/// Exit code for a puzzle solved uniquely.
pub const EXIT_UNIQUE: u8 = 0;
/// Exit code for a puzzle with more than one solution.
pub const EXIT_AMBIGUOUS: u8 = 1;
/// Exit code for bad command-line usage.
pub const EXIT_USAGE: u8 = 2;
