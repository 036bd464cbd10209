//! Sudoku: a 9x9 grid of givens to complete so every row, column and 3x3 box holds 1-9.
//!
//! The puzzle type, its text format (`format`), its solver (`solver`) and the search for the
//! likeliest puzzle behind a doubtful photo reading (`likeliest`).

pub mod format;
pub mod likeliest;
pub mod solver;

use serde_json::{json, Value};

use crate::error::Error;
use crate::kinds::{hint_from, Kind, Puzzle, Solution};
use crate::limits::{Deadline, TimedOut};
use crate::outcome::Outcome;
use crate::text::ParseError;
use crate::trace::{Step, Trace};

/// The Sudoku kind in the registry.
pub struct SudokuKind;

impl Kind for SudokuKind {
    fn name(&self) -> &'static str {
        "sudoku"
    }

    fn recognises(&self, text: &str) -> bool {
        format::looks_like_sudoku(text)
    }

    fn parse(&self, text: &str) -> Result<Vec<Box<dyn Puzzle>>, ParseError> {
        Ok(vec![Box::new(format::parse(text)?)])
    }
}

/// 81 cells, row-major; 0 is blank.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sudoku {
    pub cells: [u8; 81],
}

impl Sudoku {
    /// Solves the puzzle, giving the filled cells rather than a boxed [`Solution`].
    pub fn solve_cells(&self, deadline: &Deadline) -> Result<Outcome<[u8; 81]>, TimedOut> {
        solver::solve(&self.cells, deadline)
    }

    /// The cells as 81 digits, `0` for blank.
    pub fn digits(&self) -> String {
        self.cells.iter().map(|&d| char::from(b'0' + d)).collect()
    }
}

impl Puzzle for Sudoku {
    fn kind(&self) -> &'static str {
        "sudoku"
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn width(&self) -> usize {
        9
    }

    fn height(&self) -> usize {
        9
    }

    fn to_text(&self) -> String {
        format::to_text(&self.cells)
    }

    fn to_json(&self) -> Value {
        json!({ "givens": self.digits() })
    }

    fn solve(&self, deadline: &Deadline) -> Result<Outcome<Box<dyn Solution>>, TimedOut> {
        Ok(self
            .solve_cells(deadline)?
            .map(|cells| Box::new(SudokuSolution(cells)) as Box<dyn Solution>))
    }

    fn solve_traced(
        &self,
        deadline: &Deadline,
    ) -> Result<(Outcome<Box<dyn Solution>>, Trace), TimedOut> {
        let (outcome, trace) = solver::solve_traced(&self.cells, deadline)?;
        Ok((
            outcome.map(|cells| Box::new(SudokuSolution(cells)) as Box<dyn Solution>),
            trace,
        ))
    }

    fn hint(&self, state: Option<&str>, deadline: &Deadline) -> Result<Step, Error> {
        let cells = match state {
            Some(text) => {
                let state = format::parse(text).map_err(Error::State)?.cells;
                let kept = self
                    .cells
                    .iter()
                    .zip(&state)
                    .all(|(&given, &now)| given == 0 || given == now);
                if !kept {
                    return Err(Error::StateContradicts);
                }
                state
            }
            None => self.cells,
        };
        hint_from(
            solver::solve_traced(&cells, deadline),
            state.is_some(),
            deadline,
        )
    }
}

/// A completed Sudoku grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SudokuSolution(pub [u8; 81]);

impl Solution for SudokuSolution {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn to_text(&self) -> String {
        format::to_text(&self.0)
    }

    fn to_json(&self) -> Value {
        Value::from(format::rows(&self.0).collect::<Vec<_>>())
    }
}
