//! Nonograms: row and column clues, optionally with cells printed black.
//!
//! The puzzle type, its text format (`format`) and its solver (`solver`). The solution is a
//! [`BinaryGrid`] that may form a QR code. Reading clues from images lives elsewhere.

pub mod format;
pub mod solver;

use serde_json::{json, Value};

use crate::error::Error;
use crate::grid::{BinaryGrid, Rows};
use crate::kinds::{hint_from, parse_binary_state, Kind, Puzzle, Solution};
use crate::limits::{Deadline, TimedOut};
use crate::outcome::Outcome;
use crate::text::ParseError;
use crate::trace::{Step, Trace};

/// The nonogram kind in the registry.
pub struct NonogramKind;

impl Kind for NonogramKind {
    fn name(&self) -> &'static str {
        "nonogram"
    }

    fn recognises(&self, text: &str) -> bool {
        format::looks_like_non(text)
    }

    fn parse(&self, text: &str) -> Result<Vec<Box<dyn Puzzle>>, ParseError> {
        Ok(format::parse_pack(text)?
            .into_iter()
            .map(|p| Box::new(p) as Box<dyn Puzzle>)
            .collect())
    }
}

/// A nonogram: clues per row (top first) and column (left first), and given black cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Nonogram {
    pub rows: Vec<Vec<u32>>,
    pub columns: Vec<Vec<u32>>,
    /// Cells printed black, as (row, column).
    pub givens: Vec<(usize, usize)>,
    /// The known answer, when the file carries one (`goal`).
    pub goal: Option<BinaryGrid>,
}

impl Nonogram {
    /// Solves the puzzle, giving the grid itself rather than a boxed [`Solution`].
    pub fn solve_grid(&self, deadline: &Deadline) -> Result<Outcome<BinaryGrid>, TimedOut> {
        Ok(solver::solve(&self.rows, &self.columns, &self.givens, deadline)?.map(BinaryGrid::new))
    }

    /// Whether `grid` satisfies every clue and given cell.
    pub fn is_solved_by(&self, grid: &BinaryGrid) -> bool {
        grid.width() == self.width()
            && grid.height() == self.height()
            && (0..self.height())
                .all(|r| clue_of((0..self.width()).map(|c| grid.get(r, c))) == self.rows[r])
            && (0..self.width())
                .all(|c| clue_of((0..self.height()).map(|r| grid.get(r, c))) == self.columns[c])
            && self.givens.iter().all(|&(r, c)| grid.get(r, c))
    }
}

impl Puzzle for Nonogram {
    fn kind(&self) -> &'static str {
        "nonogram"
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn width(&self) -> usize {
        self.columns.len()
    }

    fn height(&self) -> usize {
        self.rows.len()
    }

    fn to_text(&self) -> String {
        format::to_text(self)
    }

    fn to_json(&self) -> Value {
        let givens: Vec<[usize; 2]> = self.givens.iter().map(|&(r, c)| [r, c]).collect();
        json!({ "rows": self.rows, "columns": self.columns, "givens": givens })
    }

    fn solve(&self, deadline: &Deadline) -> Result<Outcome<Box<dyn Solution>>, TimedOut> {
        Ok(self
            .solve_grid(deadline)?
            .map(|grid| Box::new(NonogramSolution(grid)) as Box<dyn Solution>))
    }

    fn solve_traced(
        &self,
        deadline: &Deadline,
    ) -> Result<(Outcome<Box<dyn Solution>>, Trace), TimedOut> {
        let (outcome, trace) = self.traced_from(&[], deadline)?;
        let outcome = outcome
            .map(|rows| Box::new(NonogramSolution(BinaryGrid::new(rows))) as Box<dyn Solution>);
        Ok((outcome, trace))
    }

    fn hint(&self, state: Option<&str>, deadline: &Deadline) -> Result<Step, Error> {
        let known = match state {
            Some(text) => {
                parse_binary_state(text, self.width(), self.height()).map_err(Error::State)?
            }
            None => Vec::new(),
        };
        hint_from(
            self.traced_from(&known, deadline),
            state.is_some(),
            deadline,
        )
    }
}

impl Nonogram {
    /// A traced solve from the givens plus the cells in `known` (row, column, filled).
    fn traced_from(
        &self,
        known: &[(usize, usize, bool)],
        deadline: &Deadline,
    ) -> Result<(Outcome<Rows>, Trace), TimedOut> {
        let mut all: Vec<_> = self.givens.iter().map(|&(r, c)| (r, c, true)).collect();
        if known
            .iter()
            .any(|&(r, c, filled)| !filled && self.givens.contains(&(r, c)))
        {
            return Ok((Outcome::NoSolution, Trace::default()));
        }
        all.extend_from_slice(known);
        solver::solve_traced(&self.rows, &self.columns, &all, deadline)
    }
}

/// The clue a line of cells gives: the lengths of its runs of filled cells, in order.
pub fn clue_of(cells: impl Iterator<Item = bool>) -> Vec<u32> {
    let mut found = Vec::new();
    let mut length = 0;
    for cell in cells.chain(std::iter::once(false)) {
        if cell {
            length += 1;
        } else if length > 0 {
            found.push(length);
            length = 0;
        }
    }
    found
}

/// A solved nonogram grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NonogramSolution(pub BinaryGrid);

impl Solution for NonogramSolution {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn to_text(&self) -> String {
        self.0.to_text()
    }

    fn to_json(&self) -> Value {
        self.0.to_json()
    }

    fn qr_text(&self) -> Option<String> {
        crate::qr::decode(&self.0)
    }
}
