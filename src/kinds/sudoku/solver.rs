//! Sudoku solver: human deductions first, search only when they stall.
//!
//! Candidates are bitmasks per row, column and box. Each round places every naked single (a cell
//! with one candidate left) and hidden single (a digit with one place left in a row, column or
//! box); when a round places nothing, a depth-first search branches on the cell with the fewest
//! candidates, each branch running the same deductions. It stops at the second solution. The
//! deductions and guesses are reported to a [`Recorder`]; it knows no harder human techniques
//! (pairs, wings), so a hard puzzle's explanation contains guesses.

use crate::limits::{Deadline, TimedOut};
use crate::outcome::Outcome;
use crate::trace::{cell_name, Cell, NoTrace, Recorder, Trace, Tracer};

const ALL: u16 = 0b11_1111_1110;

/// Digits placed so far and the digits used by each row, column and box.
#[derive(Clone, Copy)]
pub(super) struct Board {
    pub(super) cells: [u8; 81],
    rows: [u16; 9],
    columns: [u16; 9],
    boxes: [u16; 9],
}

fn box_of(cell: usize) -> usize {
    (cell / 27) * 3 + (cell % 9) / 3
}

/// The `i`-th cell of unit `unit`: rows 0-8, columns 9-17, boxes 18-26.
fn unit_cell(unit: usize, i: usize) -> usize {
    match unit {
        0..=8 => unit * 9 + i,
        9..=17 => i * 9 + unit - 9,
        _ => {
            let b = unit - 18;
            (b / 3 * 3 + i / 3) * 9 + b % 3 * 3 + i % 3
        }
    }
}

fn unit_name(unit: usize) -> String {
    match unit {
        0..=8 => format!("row {}", unit + 1),
        9..=17 => format!("column {}", unit - 8),
        _ => format!("box {}", unit - 17),
    }
}

fn digits(mask: u16) -> String {
    (1..=9)
        .filter(|d| mask >> d & 1 == 1)
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The board cannot be completed.
struct Contradiction;

impl Board {
    /// The board of `givens`, or `None` when two givens clash.
    pub(super) fn new(givens: &[u8; 81]) -> Option<Board> {
        let mut board = Board {
            cells: [0; 81],
            rows: [0; 9],
            columns: [0; 9],
            boxes: [0; 9],
        };
        for (cell, &digit) in givens.iter().enumerate() {
            if digit == 0 {
                continue;
            }
            if digit > 9 || board.candidates(cell) & (1 << digit) == 0 {
                return None;
            }
            board.place(cell, digit);
        }
        Some(board)
    }

    /// The digits (as bits 1-9) no row, column or box of `cell` holds yet.
    pub(super) fn candidates(&self, cell: usize) -> u16 {
        ALL & !(self.rows[cell / 9] | self.columns[cell % 9] | self.boxes[box_of(cell)])
    }

    pub(super) fn place(&mut self, cell: usize, digit: u8) {
        let bit = 1u16 << digit;
        self.cells[cell] = digit;
        self.rows[cell / 9] |= bit;
        self.columns[cell % 9] |= bit;
        self.boxes[box_of(cell)] |= bit;
    }
}

/// Finds up to two completions of `givens` (0 = blank).
pub fn solve(givens: &[u8; 81], deadline: &Deadline) -> Result<Outcome<[u8; 81]>, TimedOut> {
    Ok(run(givens, deadline, NoTrace)?.0)
}

/// Like [`solve`], also giving the deductions and guesses that led to the first solution.
pub fn solve_traced(
    givens: &[u8; 81],
    deadline: &Deadline,
) -> Result<(Outcome<[u8; 81]>, Trace), TimedOut> {
    let (outcome, tracer) = run(givens, deadline, Tracer::new(9, 9))?;
    Ok((outcome, tracer.into_trace()))
}

fn run<R: Recorder>(
    givens: &[u8; 81],
    deadline: &Deadline,
    rec: R,
) -> Result<(Outcome<[u8; 81]>, R), TimedOut> {
    let mut search = Search {
        first: None,
        found: 0,
        nodes: 0,
        deadline,
        rec,
    };
    if let Some(board) = Board::new(givens) {
        search.run(board)?;
    }
    let outcome = match (search.found, search.first) {
        (1, Some(s)) => Outcome::Unique(s),
        (2.., Some(s)) => Outcome::Several(s),
        _ => Outcome::NoSolution,
    };
    Ok((outcome, search.rec))
}

struct Search<'a, R> {
    first: Option<[u8; 81]>,
    found: usize,
    nodes: u64,
    deadline: &'a Deadline,
    rec: R,
}

impl<R: Recorder> Search<'_, R> {
    fn run(&mut self, mut board: Board) -> Result<(), TimedOut> {
        self.nodes += 1;
        if self.nodes % 1024 == 0 {
            self.deadline.check()?;
        }
        if self.deduce(&mut board).is_err() {
            return Ok(());
        }
        let mut best: Option<(usize, u16)> = None;
        for cell in 0..81 {
            if board.cells[cell] != 0 {
                continue;
            }
            let candidates = board.candidates(cell);
            if best.is_none_or(|(_, b)| candidates.count_ones() < b.count_ones()) {
                best = Some((cell, candidates));
            }
        }
        let Some((cell, all)) = best else {
            self.found += 1;
            self.first.get_or_insert(board.cells);
            if let Some(t) = self.rec.tracer() {
                t.freeze();
            }
            return Ok(());
        };
        let mark = self.rec.tracer().map(|t| t.mark());
        let mut candidates = all;
        while candidates != 0 && self.found < 2 {
            let bit = candidates & candidates.wrapping_neg();
            candidates &= !bit;
            let digit = bit.trailing_zeros() as u8;
            if let (Some(t), Some(mark)) = (self.rec.tracer(), mark) {
                t.rewind(mark.steps, mark.depth);
                let failed = all & !candidates & !bit;
                let after = if failed == 0 {
                    String::new()
                } else {
                    format!(", after {} led to no solution", digits(failed))
                };
                t.guess(
                    format!(
                        "{}: guess {digit} of candidates {} (search depth {}){after}",
                        cell_name(cell / 9, cell % 9),
                        digits(all),
                        mark.depth + 1
                    ),
                    vec![(cell / 9, cell % 9, Cell::Digit(digit))],
                );
            }
            let mut next = board;
            next.place(cell, digit);
            self.run(next)?;
        }
        Ok(())
    }

    /// Places naked and hidden singles, round after round, until a round places nothing.
    fn deduce(&mut self, board: &mut Board) -> Result<(), Contradiction> {
        loop {
            let mut placed = false;
            for cell in 0..81 {
                if board.cells[cell] != 0 {
                    continue;
                }
                let candidates = board.candidates(cell);
                if candidates == 0 {
                    return Err(Contradiction);
                }
                if candidates.is_power_of_two() {
                    let digit = candidates.trailing_zeros() as u8;
                    board.place(cell, digit);
                    placed = true;
                    if let Some(t) = self.rec.tracer() {
                        t.step(
                            format!(
                                "{}: only candidate {digit} (row, column and box hold the rest)",
                                cell_name(cell / 9, cell % 9)
                            ),
                            vec![(cell / 9, cell % 9, Cell::Digit(digit))],
                        );
                    }
                }
            }
            for unit in 0..27 {
                // Digits seen once and more than once among the unit's open cells.
                let (mut once, mut twice, mut used) = (0u16, 0u16, 0u16);
                for i in 0..9 {
                    let cell = unit_cell(unit, i);
                    if board.cells[cell] != 0 {
                        used |= 1 << board.cells[cell];
                        continue;
                    }
                    let candidates = board.candidates(cell);
                    twice |= once & candidates;
                    once |= candidates;
                }
                if (once | used) != ALL {
                    return Err(Contradiction);
                }
                let mut singles = once & !twice;
                while singles != 0 {
                    let bit = singles & singles.wrapping_neg();
                    singles &= !bit;
                    let digit = bit.trailing_zeros() as u8;
                    let cell = (0..9)
                        .map(|i| unit_cell(unit, i))
                        .find(|&cell| board.cells[cell] == 0 && board.candidates(cell) & bit != 0)
                        // An earlier single of this unit took the digit's only cell.
                        .ok_or(Contradiction)?;
                    board.place(cell, digit);
                    placed = true;
                    if let Some(t) = self.rec.tracer() {
                        t.step(
                            format!(
                                "{}: only place for {digit} in {}",
                                cell_name(cell / 9, cell % 9),
                                unit_name(unit)
                            ),
                            vec![(cell / 9, cell % 9, Cell::Digit(digit))],
                        );
                    }
                }
            }
            if let Some(t) = self.rec.tracer() {
                t.snapshot(board.cells.iter().map(|&d| Cell::from_digit(d)));
            }
            if !placed {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::sudoku::format::parse;

    const PUZZLE: &str =
        "530070000600195000098000060800060003400803001700020006060000280000419005000080079";
    const ANSWER: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn cells(text: &str) -> [u8; 81] {
        parse(text).unwrap().cells
    }

    #[test]
    fn solves_a_classic_uniquely() {
        assert_eq!(
            solve(&cells(PUZZLE), &Deadline::none()),
            Ok(Outcome::Unique(cells(ANSWER)))
        );
    }

    #[test]
    fn an_empty_grid_has_several_solutions_and_the_first_is_valid() {
        let Ok(Outcome::Several(s)) = solve(&[0; 81], &Deadline::none()) else {
            panic!("expected several")
        };
        assert_eq!(solve(&s, &Deadline::none()), Ok(Outcome::Unique(s)));
    }

    #[test]
    fn clashing_givens_have_no_solution() {
        let mut bad = cells(PUZZLE);
        bad[2] = 5;
        assert_eq!(solve(&bad, &Deadline::none()), Ok(Outcome::NoSolution));
    }

    #[test]
    fn the_classic_falls_to_singles_and_its_trace_replays_to_the_answer() {
        let (outcome, trace) = solve_traced(&cells(PUZZLE), &Deadline::none()).unwrap();
        assert_eq!(outcome, Outcome::Unique(cells(ANSWER)));
        assert!(trace.steps.iter().all(|s| !s.guess && s.depth == 0));
        let start: Vec<Cell> = cells(PUZZLE).iter().map(|&d| Cell::from_digit(d)).collect();
        let end = trace.replay(start, 9).unwrap();
        let answer: Vec<Cell> = cells(ANSWER).iter().map(|&d| Cell::Digit(d)).collect();
        assert_eq!(end, answer);
        assert!(trace.steps.last().unwrap().snapshot.is_some());
    }

    #[test]
    fn an_empty_grid_is_explained_by_guesses_that_replay_cleanly() {
        let (outcome, trace) = solve_traced(&[0; 81], &Deadline::none()).unwrap();
        let Outcome::Several(s) = outcome else {
            panic!("several expected")
        };
        assert!(trace.steps[0].guess && trace.steps[0].text.contains("search depth 1"));
        let end = trace.replay(vec![Cell::Unknown; 81], 9).unwrap();
        assert_eq!(end, s.iter().map(|&d| Cell::Digit(d)).collect::<Vec<_>>());
    }

    #[test]
    fn solution_satisfies_every_unit() {
        let Ok(Outcome::Unique(s)) = solve(&cells(PUZZLE), &Deadline::none()) else {
            panic!()
        };
        for unit in 0..9 {
            let row: u16 = (0..9).map(|i| 1 << s[unit * 9 + i]).sum();
            let column: u16 = (0..9).map(|i| 1 << s[i * 9 + unit]).sum();
            let square: u16 = (0..9)
                .map(|i| 1 << s[(unit / 3 * 3 + i / 3) * 9 + unit % 3 * 3 + i % 3])
                .sum();
            assert_eq!((row, column, square), (ALL, ALL, ALL));
        }
    }
}
