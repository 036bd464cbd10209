//! The number-jump maze: from the centre, jump exactly the number under you in one of eight
//! directions until you land on the first cell just outside the shape.
//!
//! The puzzle type, its text format (`format`), its shortest-path solver (`solver`) and a checker
//! that validates any path step by step.

pub mod format;
pub mod solver;

use serde_json::{json, Value};

use crate::error::Error;
use crate::kinds::{grid_lines, Kind, Puzzle, Solution};
use crate::limits::{Deadline, TimedOut};
use crate::outcome::Outcome;
use crate::text::{number, tokens, ParseError};
use crate::trace::{cell_name, Cell, Step, Trace};

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
    /// The maze of a JSON report's `puzzle` field (see [`Puzzle::to_json`]).
    pub fn from_json(puzzle: &Value) -> Result<JumpMaze, serde_json::Error> {
        Ok(JumpMaze {
            grid: serde_json::from_value(puzzle["grid"].clone())?,
            start: serde_json::from_value(puzzle["start"].clone())?,
        })
    }

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

    fn answered_by(
        &self,
        solution: &dyn Solution,
        deadline: &Deadline,
    ) -> Result<Option<bool>, TimedOut> {
        let Some((shortest, _)) = solver::shortest_paths(self, deadline)? else {
            return Ok(None);
        };
        let jumps = solution
            .as_any()
            .downcast_ref::<JumpPath>()
            .and_then(|path| self.check_path(path).ok());
        Ok(Some(jumps == Some(shortest.cells.len())))
    }

    fn solve_traced(
        &self,
        deadline: &Deadline,
    ) -> Result<(Outcome<Box<dyn Solution>>, Trace), TimedOut> {
        let (outcome, trace) = solver::solve_traced(self, deadline)?;
        Ok((
            outcome.map(|path| Box::new(path) as Box<dyn Solution>),
            trace,
        ))
    }

    /// The next jump of a shortest way out from the end of the path so far.
    fn hint(&self, state: Option<&str>, deadline: &Deadline) -> Result<Step, Error> {
        let path = match state {
            Some(text) => self.parse_path(text).map_err(Error::State)?,
            None => vec![self.start],
        };
        let here = *path.last().unwrap_or(&self.start);
        let from_here = JumpMaze {
            grid: self.grid.clone(),
            start: here,
        };
        let rest = solver::shortest_paths(&from_here, deadline)
            .map_err(|_| Error::TimedOut(deadline.limit()))?;
        let Some((rest, _)) = rest else {
            return Err(if state.is_some() {
                Error::StateContradicts
            } else {
                Error::NoSolution
            });
        };
        let number = path.len();
        let left = rest.cells.len();
        let (landing, cells_set) = match rest.cells.get(1) {
            Some(&next) => (
                Landing::Inside(next),
                vec![(next.0, next.1, Cell::Jump(number as u32))],
            ),
            None => (Landing::Exit(rest.exit), Vec::new()),
        };
        let text = format!(
            "{} ({left} {} left to the nearest exit)",
            solver::describe_jump(self, number, here, landing),
            if left == 1 { "jump" } else { "jumps" }
        );
        Ok(Step {
            text,
            cells_set,
            depth: 0,
            guess: false,
            snapshot: None,
        })
    }
}

impl JumpMaze {
    /// Reads the path so far of a `--state` file: `R C` lines (0-based, as the solution text
    /// prints them) from the start, each a legal jump from the one before.
    fn parse_path(&self, text: &str) -> Result<Vec<(usize, usize)>, ParseError> {
        let mut path: Vec<(usize, usize)> = Vec::new();
        for (line, content) in grid_lines(text) {
            let parts: Vec<_> = tokens(content).collect();
            if parts.first().is_some_and(|&(_, t)| t == "exit") {
                return Err(ParseError::new(
                    line,
                    1,
                    "the path already leaves the maze; nothing to hint",
                ));
            }
            if parts.len() != 2 {
                return Err(ParseError::new(line, 1, "expected `ROW COLUMN`"));
            }
            let max = self.grid.len().max(self.width()) as u64;
            let r = number(parts[0].1, line, parts[0].0, "a row", max)? as usize;
            let c = number(parts[1].1, line, parts[1].0, "a column", max)? as usize;
            let legal = match path.last() {
                None => (r, c) == self.start,
                Some(&from) => DIRECTIONS
                    .iter()
                    .any(|&d| self.jump(from, d) == Landing::Inside((r, c))),
            };
            if !legal {
                let what = if path.is_empty() {
                    format!(
                        "the path must begin at the start, row {} column {}",
                        self.start.0, self.start.1
                    )
                } else {
                    format!("no legal jump reaches {}", cell_name(r, c))
                };
                return Err(ParseError::new(line, 1, what));
            }
            path.push((r, c));
        }
        if path.is_empty() {
            return Err(ParseError::whole("no path: expected `ROW COLUMN` lines"));
        }
        Ok(path)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_answers_a_maze_where_it_is_a_shortest_way_out() {
        let maze =
            format::parse("0 0 0 0 0\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\n0 0 0 0 0\n").unwrap();
        let out = |cells: Vec<(usize, usize)>, exit| JumpPath { cells, exit };
        let answered = |path: &JumpPath| maze.answered_by(path, &Deadline::none()).unwrap();
        assert_eq!(answered(&out(vec![(2, 2), (1, 1)], (0, 0))), Some(true));
        // Legal but one jump longer than the shortest.
        assert_eq!(
            answered(&out(vec![(2, 2), (1, 2), (1, 1)], (0, 0))),
            Some(false)
        );
        // Not a legal way out of this maze.
        assert_eq!(answered(&out(vec![(2, 2)], (0, 2))), Some(false));
        let closed = format::parse("0 2 0").unwrap();
        assert_eq!(
            closed.answered_by(&out(vec![(0, 1)], (0, 3)), &Deadline::none()),
            Ok(None)
        );
    }
}
