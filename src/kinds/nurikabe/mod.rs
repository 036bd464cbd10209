//! Nurikabe: numbered cells that grow into islands in a connected sea without 2x2 pools.
//!
//! The puzzle type, its two text formats (`format`) and its solver (`solver`). The solution is a
//! [`BinaryGrid`] with land as `#`.

pub mod format;
pub mod solver;

use serde_json::{json, Value};

use crate::grid::BinaryGrid;
use crate::kinds::{Kind, Puzzle, Solution};
use crate::limits::{Deadline, TimedOut};
use crate::outcome::Outcome;
use crate::text::ParseError;

/// The Nurikabe kind in the registry.
pub struct NurikabeKind;

impl Kind for NurikabeKind {
    fn name(&self) -> &'static str {
        "nurikabe"
    }

    fn recognises(&self, text: &str) -> bool {
        format::looks_like_nurikabe(text)
    }

    fn parse(&self, text: &str) -> Result<Vec<Box<dyn Puzzle>>, ParseError> {
        Ok(vec![Box::new(format::parse(text)?)])
    }
}

/// A Nurikabe puzzle: its size and its numbered cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Nurikabe {
    pub width: usize,
    pub height: usize,
    /// (row from the top, column from the left, island size).
    pub clues: Vec<(usize, usize, u32)>,
}

impl Nurikabe {
    /// Solves the puzzle, giving the grid itself (land `true`) rather than a boxed [`Solution`].
    pub fn solve_grid(&self, deadline: &Deadline) -> Result<Outcome<BinaryGrid>, TimedOut> {
        Ok(solver::solve(self.width, self.height, &self.clues, deadline)?.map(BinaryGrid::new))
    }
}

impl Puzzle for Nurikabe {
    fn kind(&self) -> &'static str {
        "nurikabe"
    }

    fn width(&self) -> usize {
        self.width
    }

    fn height(&self) -> usize {
        self.height
    }

    fn to_text(&self) -> String {
        format::to_grid_text(self)
    }

    fn to_json(&self) -> Value {
        let clues: Vec<[u64; 3]> = self.clues.iter().map(|&(r, c, s)| [r as u64, c as u64, s as u64]).collect();
        json!({ "clues": clues })
    }

    fn solve(&self, deadline: &Deadline) -> Result<Outcome<Box<dyn Solution>>, TimedOut> {
        Ok(self.solve_grid(deadline)?.map(|grid| Box::new(NurikabeSolution(grid)) as Box<dyn Solution>))
    }
}

/// A solved Nurikabe map: land `#`, water `.`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NurikabeSolution(pub BinaryGrid);

impl Solution for NurikabeSolution {
    fn to_text(&self) -> String {
        self.0.to_text()
    }

    fn to_json(&self) -> Value {
        self.0.to_json()
    }
}
