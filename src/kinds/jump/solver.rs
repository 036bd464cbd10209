//! Shortest exit from a jump maze by breadth-first search, counting the shortest jump sequences
//! to tell whether the shortest path is unique, and its explanation: the search's verdict, then
//! one step (and snapshot) per jump of the path found. It does not enumerate longer paths.

use std::collections::VecDeque;

use super::{JumpMaze, JumpPath, Landing, DIRECTIONS};
use crate::limits::{Deadline, TimedOut};
use crate::outcome::Outcome;
use crate::trace::{cell_name, Cell, Snapshot, Step, Trace};

/// A shortest path out of `maze`; `Unique` when exactly one jump sequence is that short.
pub fn solve(maze: &JumpMaze, deadline: &Deadline) -> Result<Outcome<JumpPath>, TimedOut> {
    Ok(match shortest_paths(maze, deadline)? {
        None => Outcome::NoSolution,
        Some((path, 1)) => Outcome::Unique(path),
        Some((path, _)) => Outcome::Several(path),
    })
}

/// Like [`solve`], also explaining the path found jump by jump.
pub fn solve_traced(
    maze: &JumpMaze,
    deadline: &Deadline,
) -> Result<(Outcome<JumpPath>, Trace), TimedOut> {
    Ok(match shortest_paths(maze, deadline)? {
        None => (Outcome::NoSolution, Trace::default()),
        Some((path, count)) => {
            let trace = explain(maze, &path, count);
            let outcome = if count == 1 {
                Outcome::Unique(path)
            } else {
                Outcome::Several(path)
            };
            (outcome, trace)
        }
    })
}

const DIRECTION_NAMES: [&str; 8] = [
    "up",
    "up-right",
    "right",
    "down-right",
    "down",
    "down-left",
    "left",
    "up-left",
];

/// The jump from `from` that lands on `to` (inside, or the exit), in words.
pub fn describe_jump(maze: &JumpMaze, number: usize, from: (usize, usize), to: Landing) -> String {
    let direction = DIRECTIONS
        .iter()
        .position(|&d| maze.jump(from, d) == to)
        .map_or("?", |i| DIRECTION_NAMES[i]);
    let length = maze.value(from.0 as i64, from.1 as i64).unwrap_or(0);
    let start = format!(
        "jump {number}: from {} the {length} goes {direction}",
        cell_name(from.0, from.1)
    );
    match to {
        Landing::Inside((r, c)) => format!("{start} to {}", cell_name(r, c)),
        Landing::Exit((r, c)) => {
            format!("{start} out of the maze (row {}, column {})", r + 1, c + 1)
        }
        Landing::Illegal => start,
    }
}

/// The start, then one step per jump of `path`, each with the path so far as its snapshot;
/// `count` is how many shortest jump sequences the search found.
fn explain(maze: &JumpMaze, path: &JumpPath, count: u64) -> Trace {
    let (height, width) = (maze.grid.len(), maze.grid.first().map_or(0, Vec::len));
    let mut picture = vec![Cell::Unknown; width * height];
    let snapshot = |picture: &mut Vec<Cell>, (r, c): (usize, usize), jump: usize| {
        picture[r * width + c] = Cell::Jump(jump as u32);
        Some(Snapshot {
            width,
            height,
            cells: picture.clone(),
        })
    };
    let jumps = path.cells.len();
    let ways = if count == 1 {
        "the only shortest way".to_string()
    } else {
        format!("one of {count} shortest ways")
    };
    let start = path.cells[0];
    let mut steps = vec![Step {
        text: format!(
            "start at {}; breadth-first search finds the nearest exit {jumps} jumps away ({ways})",
            cell_name(start.0, start.1)
        ),
        cells_set: vec![(start.0, start.1, Cell::Jump(0))],
        depth: 0,
        guess: false,
        snapshot: snapshot(&mut picture, start, 0),
    }];
    for (i, pair) in path.cells.windows(2).enumerate() {
        let (from, to) = (pair[0], pair[1]);
        steps.push(Step {
            text: describe_jump(maze, i + 1, from, Landing::Inside(to)),
            cells_set: vec![(to.0, to.1, Cell::Jump(i as u32 + 1))],
            depth: 0,
            guess: false,
            snapshot: snapshot(&mut picture, to, i + 1),
        });
    }
    let last = path.cells[jumps - 1];
    steps.push(Step {
        text: describe_jump(maze, jumps, last, Landing::Exit(path.exit)),
        cells_set: Vec::new(),
        depth: 0,
        guess: false,
        snapshot: None,
    });
    Trace { steps }
}

/// The first shortest path out of `maze` and how many jump sequences are that short (saturating
/// at `u64::MAX`), or `None` when there is no way out.
pub fn shortest_paths(
    maze: &JumpMaze,
    deadline: &Deadline,
) -> Result<Option<(JumpPath, u64)>, TimedOut> {
    let (height, width) = (maze.grid.len(), maze.grid.first().map_or(0, Vec::len));
    let index = |(r, c): (usize, usize)| r * width + c;
    let mut depth = vec![u32::MAX; width * height];
    let mut paths = vec![0u64; width * height];
    let mut parent = vec![usize::MAX; width * height];
    let mut queue = VecDeque::from([maze.start]);
    depth[index(maze.start)] = 0;
    paths[index(maze.start)] = 1;
    let mut exits: Vec<((usize, usize), (i64, i64))> = Vec::new();
    let mut exit_depth = u32::MAX;
    while let Some(cell) = queue.pop_front() {
        deadline.check()?;
        let d = depth[index(cell)];
        if d > exit_depth {
            break;
        }
        for direction in DIRECTIONS {
            match maze.jump(cell, direction) {
                Landing::Inside(next) => {
                    let n = index(next);
                    if depth[n] == u32::MAX {
                        depth[n] = d + 1;
                        parent[n] = index(cell);
                        queue.push_back(next);
                    }
                    if depth[n] == d + 1 {
                        paths[n] = paths[n].saturating_add(paths[index(cell)]);
                    }
                }
                Landing::Exit(to) => {
                    exit_depth = d;
                    exits.push((cell, to));
                }
                Landing::Illegal => {}
            }
        }
    }
    let Some(&(last, exit)) = exits.first() else {
        return Ok(None);
    };
    let sequences = exits.iter().fold(0u64, |sum, (cell, _)| {
        sum.saturating_add(paths[index(*cell)])
    });
    let mut cells = vec![last];
    let mut at = index(last);
    while parent[at] != usize::MAX {
        at = parent[at];
        cells.push((at / width, at % width));
    }
    cells.reverse();
    Ok(Some((JumpPath { cells, exit }, sequences)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::jump::format::parse;

    fn solve_text(text: &str) -> Outcome<JumpPath> {
        solve(&parse(text).unwrap(), &Deadline::none()).unwrap()
    }

    #[test]
    fn one_jump_out_of_a_single_cell() {
        let Outcome::Several(path) = solve_text("1") else {
            panic!("eight ways out")
        };
        assert_eq!(path.cells, vec![(0, 0)]);
        assert_eq!(parse("1").unwrap().check_path(&path), Ok(1));
    }

    #[test]
    fn landing_two_beyond_the_edge_is_not_an_exit() {
        assert_eq!(solve_text("2"), Outcome::NoSolution);
    }

    #[test]
    fn a_row_with_one_way_out_is_unique() {
        // Vertical and diagonal jumps of 2 or more leave a one-row shape by more than one cell,
        // and the left edge cell is outside, so only the jump right exits.
        let maze = parse("0 2 3 2 2").unwrap();
        let Outcome::Unique(path) = solve(&maze, &Deadline::none()).unwrap() else {
            panic!("unique")
        };
        assert_eq!(
            path,
            JumpPath {
                cells: vec![(0, 2)],
                exit: (0, 5)
            }
        );
        assert_eq!(maze.check_path(&path), Ok(1));
    }

    #[test]
    fn all_exits_at_the_shortest_depth_are_counted() {
        // The centre 1 reaches a ring of 1s; each corner of the ring leaves the shape five ways
        // and each edge cell three ways: 4 * 5 + 4 * 3 shortest sequences of two jumps.
        let maze = parse("0 0 0 0 0\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\n0 0 0 0 0\n").unwrap();
        let (path, count) = shortest_paths(&maze, &Deadline::none()).unwrap().unwrap();
        assert_eq!(maze.check_path(&path), Ok(2));
        assert_eq!(count, 32);
    }

    #[test]
    fn a_shape_with_no_legal_exit_has_no_solution() {
        // Every jump of 2 lands two cells out, where the cell one step back is outside too.
        let maze = parse("0 2 0").unwrap();
        assert_eq!(
            solve(&maze, &Deadline::none()).unwrap(),
            Outcome::NoSolution
        );
    }

    #[test]
    fn checker_rejects_bad_paths() {
        let maze = parse("0 0 0\n0 1 0\n0 0 0\n").unwrap();
        let bad_exit = JumpPath {
            cells: vec![(1, 1)],
            exit: (3, 3),
        };
        assert!(maze.check_path(&bad_exit).is_err());
        let bad_start = JumpPath {
            cells: vec![(0, 0)],
            exit: (0, 1),
        };
        assert!(maze.check_path(&bad_start).is_err());
    }
}
