//! The solve stage: run a puzzle's solver under a time limit and collect what the outputs need
//! (solution, uniqueness, QR text, time taken, and on request the solver's explanation), or ask
//! for one hint. It does not print anything.

use std::time::{Duration, Instant};

use crate::error::Error;
use crate::kinds::{Puzzle, Solution};
use crate::limits::Deadline;
use crate::outcome::Outcome;
use crate::trace::{Step, Trace};

/// A puzzle's answer and what is known about it.
#[derive(Debug)]
pub struct Solved {
    pub solution: Box<dyn Solution>,
    /// False when a second solution exists (the first is in `solution`).
    pub unique: bool,
    /// Text of the QR code the solution forms, if any.
    pub qr: Option<String>,
    pub time: Duration,
    /// The solver's steps to the solution, when an explanation was asked for.
    pub trace: Option<Trace>,
}

impl Solved {
    /// Whether `puzzle`, solved so, has more than one solution where that counts against the
    /// answer (exit 1): any way out of a jump maze is an answer.
    pub fn ambiguous_for(&self, puzzle: &dyn Puzzle) -> bool {
        !self.unique && puzzle.ambiguity_matters()
    }
}

/// Solves `puzzle`, giving up after `limit` (no limit when `None`).
pub fn solve(puzzle: &dyn Puzzle, limit: Option<Duration>) -> Result<Solved, Error> {
    solve_with(puzzle, limit, false)
}

/// Solves `puzzle`, recording the solver's steps when `explain` is set.
pub fn solve_with(
    puzzle: &dyn Puzzle,
    limit: Option<Duration>,
    explain: bool,
) -> Result<Solved, Error> {
    let started = Instant::now();
    let deadline = limit.map_or_else(Deadline::none, Deadline::after);
    let timed_out = |_| Error::TimedOut(limit.unwrap_or_default());
    let (outcome, trace) = if explain {
        let (outcome, trace) = puzzle.solve_traced(&deadline).map_err(timed_out)?;
        (outcome, Some(trace))
    } else {
        (puzzle.solve(&deadline).map_err(timed_out)?, None)
    };
    let (solution, unique) = match outcome {
        Outcome::NoSolution => return Err(Error::NoSolution),
        Outcome::Unique(solution) => (solution, true),
        Outcome::Several(solution) => (solution, false),
    };
    let qr = solution.qr_text();
    Ok(Solved {
        solution,
        unique,
        qr,
        time: started.elapsed(),
        trace,
    })
}

/// The next step from `state` (see [`Puzzle::hint`]), giving up after `limit`.
pub fn hint(
    puzzle: &dyn Puzzle,
    state: Option<&str>,
    limit: Option<Duration>,
) -> Result<Step, Error> {
    let deadline = limit.map_or_else(Deadline::none, Deadline::after);
    puzzle.hint(state, &deadline)
}

impl Solved {
    /// The solution text, followed by the QR text on a line of its own when there is one.
    pub fn to_text(&self) -> String {
        let mut text = self.solution.to_text();
        if let Some(qr) = &self.qr {
            text += qr;
            text.push('\n');
        }
        text
    }
}
