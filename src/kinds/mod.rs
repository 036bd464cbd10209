//! The puzzle kinds gridsight knows, behind one small set of traits.
//!
//! A kind is a folder here implementing [`Kind`] (recognise and parse text), [`Puzzle`] (describe
//! and solve itself) and [`Solution`] (print itself); [`KINDS`] is the registry. Adding a kind
//! touches its folder and one line of [`KINDS`]. Nothing here reads files or images.

pub mod jump;
pub mod nonogram;
pub mod nurikabe;
pub mod sudoku;

use serde_json::Value;

use crate::error::Error;
use crate::limits::{Deadline, TimedOut};
use crate::outcome::Outcome;
use crate::text::ParseError;
use crate::trace::{Step, Trace};

/// A puzzle kind: its name, how to recognise its text and how to parse it.
pub trait Kind: Sync {
    /// The name used by `--kind` and in the JSON report.
    fn name(&self) -> &'static str;
    /// Whether `text` looks like this kind's format. Kinds are asked in [`KINDS`] order.
    fn recognises(&self, text: &str) -> bool;
    /// Parses every puzzle in `text` (a nonogram pack holds several).
    fn parse(&self, text: &str) -> Result<Vec<Box<dyn Puzzle>>, ParseError>;
}

/// One puzzle, as read from text (or later from an image).
pub trait Puzzle: Send + Sync + std::fmt::Debug {
    fn kind(&self) -> &'static str;
    /// The concrete puzzle, for stages that draw or read a kind's own type.
    fn as_any(&self) -> &dyn std::any::Any;
    fn width(&self) -> usize;
    fn height(&self) -> usize;
    /// The puzzle in its own text format; parsing it gives the same puzzle back.
    fn to_text(&self) -> String;
    /// The `puzzle` field of the JSON report.
    fn to_json(&self) -> Value;
    /// Whether a second solution makes the puzzle flawed (exit code 1). A jump maze normally has
    /// several shortest paths, so for it `unique` is information only.
    fn ambiguity_matters(&self) -> bool {
        true
    }
    /// Searches for up to two solutions.
    fn solve(&self, deadline: &Deadline) -> Result<Outcome<Box<dyn Solution>>, TimedOut>;
    /// Whether `solution`, found for another reading of this puzzle, answers this one too: its
    /// one solution (or, for the jump maze, a way out as short as its shortest). `None` when
    /// this puzzle has no solution.
    fn answered_by(
        &self,
        solution: &dyn Solution,
        deadline: &Deadline,
    ) -> Result<Option<bool>, TimedOut> {
        Ok(match self.solve(deadline)? {
            Outcome::NoSolution => None,
            Outcome::Unique(own) => Some(own.to_text() == solution.to_text()),
            Outcome::Several(_) => Some(false),
        })
    }
    /// Solves like [`Puzzle::solve`], also giving the solver's own record of the steps that led
    /// to the first solution.
    fn solve_traced(
        &self,
        deadline: &Deadline,
    ) -> Result<(Outcome<Box<dyn Solution>>, Trace), TimedOut>;
    /// The next step a person could take from `state` (a partly solved grid in the solution
    /// text format, `?` or `0` for open cells; for the jump maze the path so far), or from the
    /// puzzle as given.
    fn hint(&self, state: Option<&str>, deadline: &Deadline) -> Result<Step, Error>;
}

/// The hint from a traced solve: its first step, or why there is none.
pub(crate) fn hint_from<S>(
    solved: Result<(Outcome<S>, Trace), TimedOut>,
    from_state: bool,
    deadline: &Deadline,
) -> Result<Step, Error> {
    let (outcome, trace) = solved.map_err(|_| Error::TimedOut(deadline.limit()))?;
    match outcome {
        Outcome::NoSolution if from_state => Err(Error::StateContradicts),
        Outcome::NoSolution => Err(Error::NoSolution),
        _ => Ok(trace.first_step()),
    }
}

/// A `--state` grid of `#` (filled or land), `.` (empty or water) and `?` (open), one line per
/// row and `width` cells to a line, as (row, column, filled) for the cells it sets.
pub(crate) fn parse_binary_state(
    text: &str,
    width: usize,
    height: usize,
) -> Result<Vec<(usize, usize, bool)>, ParseError> {
    let mut known = Vec::new();
    let mut rows = 0;
    for (line, content) in grid_lines(text) {
        if rows == height {
            return Err(ParseError::new(line, 1, format!("more than {height} rows")));
        }
        let mut columns = 0;
        for (i, ch) in content.chars().enumerate() {
            let value = match ch {
                '#' => Some(true),
                '.' => Some(false),
                '?' => None,
                c if c.is_whitespace() => continue,
                c => {
                    return Err(ParseError::new(
                        line,
                        i + 1,
                        format!("`{c}` is not a cell (`#`, `.` or `?` for open)"),
                    ))
                }
            };
            if columns == width {
                return Err(ParseError::new(
                    line,
                    i + 1,
                    format!("more than {width} cells"),
                ));
            }
            if let Some(filled) = value {
                known.push((rows, columns, filled));
            }
            columns += 1;
        }
        if columns != width {
            return Err(ParseError::new(
                line,
                1,
                format!("row has {columns} cells, the puzzle is {width} wide"),
            ));
        }
        rows += 1;
    }
    if rows != height {
        return Err(ParseError::whole(format!(
            "{rows} rows, the puzzle has {height}"
        )));
    }
    Ok(known)
}

/// A solved puzzle's answer.
pub trait Solution: Send + Sync + std::fmt::Debug {
    /// The concrete solution, for stages that draw a kind's own type.
    fn as_any(&self) -> &dyn std::any::Any;
    /// The solution text of `FORMATS.md`, lines ending in `\n`.
    fn to_text(&self) -> String;
    /// The `solution` field of the JSON report.
    fn to_json(&self) -> Value;
    /// The text of a QR code the solution forms, if it forms one.
    fn qr_text(&self) -> Option<String> {
        None
    }
}

/// Every kind, in the order content detection asks them: the most distinctive formats first.
pub const KINDS: &[&dyn Kind] = &[
    &nonogram::NonogramKind,
    &sudoku::SudokuKind,
    &jump::JumpKind,
    &nurikabe::NurikabeKind,
];

/// The kind named `name`, if there is one.
pub fn by_name(name: &str) -> Option<&'static dyn Kind> {
    KINDS.iter().copied().find(|kind| kind.name() == name)
}

/// The first kind whose format `text` looks like.
pub fn detect(text: &str) -> Option<&'static dyn Kind> {
    KINDS.iter().copied().find(|kind| kind.recognises(text))
}

/// The largest width or height any grid kind accepts; larger grids are refused before solving.
pub const MAX_SIDE: usize = 500;

/// The non-blank lines of `text` with their 1-based line numbers, trailing whitespace trimmed.
pub(crate) fn grid_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim_end()))
        .filter(|(_, line)| !line.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct_and_found() {
        for kind in KINDS {
            assert_eq!(by_name(kind.name()).map(|k| k.name()), Some(kind.name()));
        }
        assert!(by_name("kakuro").is_none());
    }

    #[test]
    fn detection_tells_the_formats_apart() {
        let cases = [
            ("width 2\nheight 1\nrows\n2\ncolumns\n1\n1\n", "nonogram"),
            ("5,5 3,0,1 1,4,1 2,0,4 2,2,4 2,4,4", "nurikabe"),
            ("2 . .\n. . .\n. . 1\n", "nurikabe"),
            (&"0".repeat(81), "sudoku"),
            (". 2 .\n3 1 2\n. 2 .\n", "jump"),
            ("0 2 0\n3 1 2\n0 2 0\nstart 1 1\n", "jump"),
        ];
        for (text, kind) in cases {
            assert_eq!(detect(text).map(|k| k.name()), Some(kind), "{text}");
        }
        assert!(detect("hello world").is_none());
        assert!(detect("").is_none());
    }

    #[test]
    fn a_puzzle_with_one_solution_is_answered_by_that_solution_only() {
        let parse = |text: &str| detect(text).unwrap().parse(text).unwrap().remove(0);
        // One row of three: `##.` and `#..`; a lone island in the middle parts the water.
        let two = parse("3,1 2,0,0");
        let one = parse("3,1 1,0,0");
        let deadline = Deadline::none();
        let Ok(Outcome::Unique(solution)) = two.solve(&deadline) else {
            panic!("unique")
        };
        assert_eq!(two.answered_by(&*solution, &deadline), Ok(Some(true)));
        assert_eq!(one.answered_by(&*solution, &deadline), Ok(Some(false)));
        let none = parse("3,1 1,1,0");
        assert_eq!(none.answered_by(&*solution, &deadline), Ok(None));
    }
}
