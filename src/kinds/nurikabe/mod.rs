//! Nurikabe: numbered cells that grow into islands in a connected sea without 2x2 pools.
//!
//! The puzzle type, its two text formats (`format`) and its solver (`solver`). The solution is a
//! [`BinaryGrid`] with land as `#`.

pub mod format;
pub mod solver;

use serde_json::{json, Value};

use crate::error::Error;
use crate::grid::BinaryGrid;
use crate::kinds::{hint_from, parse_binary_state, Kind, Puzzle, Solution};
use crate::limits::{Deadline, TimedOut};
use crate::outcome::Outcome;
use crate::text::ParseError;
use crate::trace::{Step, Trace};

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

impl Nurikabe {
    /// Whether `grid` (land `true`) obeys every rule: each island holds exactly one clue and has
    /// its size, the water is connected, there is no 2x2 pool. Written apart from the solver so
    /// that tests can check it.
    pub fn is_solved_by(&self, grid: &BinaryGrid) -> bool {
        let (width, height) = (self.width, self.height);
        if grid.width() != width || grid.height() != height {
            return false;
        }
        let pool = (1..height).any(|r| {
            (1..width).any(|c| {
                !grid.get(r, c)
                    && !grid.get(r - 1, c)
                    && !grid.get(r, c - 1)
                    && !grid.get(r - 1, c - 1)
            })
        });
        if pool {
            return false;
        }
        let mut region = vec![usize::MAX; width * height];
        let mut sizes = Vec::new();
        for start in 0..width * height {
            if region[start] != usize::MAX {
                continue;
            }
            let land = grid.get(start / width, start % width);
            let id = sizes.len();
            let mut stack = vec![start];
            region[start] = id;
            let mut size = 0;
            while let Some(cell) = stack.pop() {
                size += 1;
                let (r, c) = (cell / width, cell % width);
                let neighbours = [
                    (r.wrapping_sub(1), c),
                    (r + 1, c),
                    (r, c.wrapping_sub(1)),
                    (r, c + 1),
                ];
                for (nr, nc) in neighbours {
                    if nr < height
                        && nc < width
                        && region[nr * width + nc] == usize::MAX
                        && grid.get(nr, nc) == land
                    {
                        region[nr * width + nc] = id;
                        stack.push(nr * width + nc);
                    }
                }
            }
            sizes.push((land, size, 0u32, 0u32));
        }
        for &(r, c, size) in &self.clues {
            let entry = &mut sizes[region[r * width + c]];
            entry.2 += 1;
            entry.3 = size;
        }
        let water_regions = sizes.iter().filter(|s| !s.0).count();
        water_regions <= 1
            && sizes.iter().all(|&(land, size, clues, wanted)| {
                if land {
                    clues == 1 && size == wanted as usize
                } else {
                    clues == 0
                }
            })
    }
}

impl Puzzle for Nurikabe {
    fn kind(&self) -> &'static str {
        "nurikabe"
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
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
        let clues: Vec<[u64; 3]> = self
            .clues
            .iter()
            .map(|&(r, c, s)| [r as u64, c as u64, s as u64])
            .collect();
        json!({ "clues": clues })
    }

    fn solve(&self, deadline: &Deadline) -> Result<Outcome<Box<dyn Solution>>, TimedOut> {
        Ok(self
            .solve_grid(deadline)?
            .map(|grid| Box::new(NurikabeSolution(grid)) as Box<dyn Solution>))
    }

    fn solve_traced(
        &self,
        deadline: &Deadline,
    ) -> Result<(Outcome<Box<dyn Solution>>, Trace), TimedOut> {
        let (outcome, trace) =
            solver::solve_traced(self.width, self.height, &self.clues, &[], deadline)?;
        let outcome = outcome
            .map(|rows| Box::new(NurikabeSolution(BinaryGrid::new(rows))) as Box<dyn Solution>);
        Ok((outcome, trace))
    }

    fn hint(&self, state: Option<&str>, deadline: &Deadline) -> Result<Step, Error> {
        let known = match state {
            Some(text) => {
                parse_binary_state(text, self.width, self.height).map_err(Error::State)?
            }
            None => Vec::new(),
        };
        let solved = solver::solve_traced(self.width, self.height, &self.clues, &known, deadline);
        hint_from(solved, state.is_some(), deadline)
    }
}

/// A solved Nurikabe map: land `#`, water `.`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NurikabeSolution(pub BinaryGrid);

impl Solution for NurikabeSolution {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn to_text(&self) -> String {
        self.0.to_text()
    }

    fn to_json(&self) -> Value {
        self.0.to_json()
    }
}
