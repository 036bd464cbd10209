//! The number-jump maze: from the centre, jump exactly the number under you in one of eight
//! directions until you land on the first cell just outside the shape.
//!
//! The puzzle type, its text format (`format`), its shortest-path solver (`solver`) and a checker
//! that validates any path step by step.

pub mod format;
pub mod solver;

use serde_json::{json, Value};

use crate::kinds::{Kind, Puzzle, Solution};
use crate::limits::{Deadline, TimedOut};
use crate::outcome::Outcome;
use crate::text::ParseError;

/// The jump-maze kind in the registry.
pub struct JumpKind;

impl Kind for JumpKind {
    fn name(&self) -> &'static str {
        "jump"
    }

    fn recognises(&self, text: &str) -> bool {
        format::looks_like_jump(text)
    }

    fn parse(&self, text: &str) -> Result<Vec<Box<dyn Puzzle>>, ParseError> {
        Ok(vec![Box::new(format::parse(text)?)])
    }
}

/// The eight jump directions as (row step, column step).
pub const DIRECTIONS: [(i64, i64); 8] = [
    (-1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
];

/// A jump maze: jump lengths by cell (0 outside the shape) and the start cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JumpMaze {
    pub grid: Vec<Vec<u32>>,
    pub start: (usize, usize),
}

/// A path out of the maze: the cells visited inside the shape, from the start, then the landing
/// cell outside it (whose index may be negative or beyond the grid).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JumpPath {
    pub cells: Vec<(usize, usize)>,
    pub exit: (i64, i64),
}

impl JumpMaze {
    /// The jump length at (row, column), or `None` outside the shape (including off the grid).
    pub fn value(&self, row: i64, column: i64) -> Option<u32> {
        let cell = *self
            .grid
            .get(usize::try_from(row).ok()?)?
            .get(usize::try_from(column).ok()?)?;
        (cell > 0).then_some(cell)
    }

    /// Where a jump from `from` in `direction` lands, and whether that is inside the shape, a
    /// legal exit, or neither.
    pub fn jump(&self, from: (usize, usize), direction: (i64, i64)) -> Landing {
        let Some(length) = self.value(from.0 as i64, from.1 as i64) else {
            return Landing::Illegal;
        };
        let to = (
            from.0 as i64 + direction.0 * length as i64,
            from.1 as i64 + direction.1 * length as i64,
        );
        if self.value(to.0, to.1).is_some() {
            Landing::Inside((to.0 as usize, to.1 as usize))
        } else if self.value(to.0 - direction.0, to.1 - direction.1).is_some() {
            Landing::Exit(to)
        } else {
            Landing::Illegal
        }
    }

    /// Checks `path` step by step: it starts at the start, each step is one legal jump inside the
    /// shape, and the last jump lands on a legal exit. Returns the number of jumps.
    pub fn check_path(&self, path: &JumpPath) -> Result<usize, String> {
        if path.cells.first() != Some(&self.start) {
            return Err(format!(
                "the path does not begin at the start {:?}",
                self.start
            ));
        }
        let lands = |from: (usize, usize), wanted: Landing| {
            DIRECTIONS.iter().any(|&d| self.jump(from, d) == wanted)
        };
        for (step, pair) in path.cells.windows(2).enumerate() {
            if !lands(pair[0], Landing::Inside(pair[1])) {
                return Err(format!(
                    "jump {} from {:?} to {:?} is not a legal jump",
                    step + 1,
                    pair[0],
                    pair[1]
                ));
            }
        }
        let last = *path.cells.last().expect("checked non-empty above");
        if !lands(last, Landing::Exit(path.exit)) {
            return Err(format!(
                "the last jump from {last:?} to {:?} is not a legal exit",
                path.exit
            ));
        }
        Ok(path.cells.len())
    }
}

/// Where a jump ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Landing {
    Inside((usize, usize)),
    Exit((i64, i64)),
    Illegal,
}

impl Puzzle for JumpMaze {
    fn kind(&self) -> &'static str {
        "jump"
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn width(&self) -> usize {
        self.grid.first().map_or(0, Vec::len)
    }

    fn height(&self) -> usize {
        self.grid.len()
    }

    fn to_text(&self) -> String {
        format::to_text(self)
    }

    fn to_json(&self) -> Value {
        json!({ "grid": self.grid, "start": [self.start.0, self.start.1] })
    }

    fn ambiguity_matters(&self) -> bool {
        false
    }

    fn solve(&self, deadline: &Deadline) -> Result<Outcome<Box<dyn Solution>>, TimedOut> {
        Ok(solver::solve(self, deadline)?.map(|path| Box::new(path) as Box<dyn Solution>))
    }
}

impl Solution for JumpPath {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn to_text(&self) -> String {
        let mut text: String = self
            .cells
            .iter()
            .map(|(r, c)| format!("{r} {c}\n"))
            .collect();
        text += &format!("exit {} {}\n", self.exit.0, self.exit.1);
        text
    }

    fn to_json(&self) -> Value {
        let path: Vec<[usize; 2]> = self.cells.iter().map(|&(r, c)| [r, c]).collect();
        json!({ "path": path, "exit": [self.exit.0, self.exit.1] })
    }
}
