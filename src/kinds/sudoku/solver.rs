//! Sudoku search: candidate bitmasks per row, column and box, depth-first on the cell with the
//! fewest candidates, stopping at the second solution. No human-style deduction here.

use crate::limits::{Deadline, TimedOut};
use crate::outcome::Outcome;

struct Search<'a> {
    cells: [u8; 81],
    rows: [u16; 9],
    columns: [u16; 9],
    boxes: [u16; 9],
    first: Option<[u8; 81]>,
    found: usize,
    nodes: u64,
    deadline: &'a Deadline,
}

fn box_of(cell: usize) -> usize {
    (cell / 27) * 3 + (cell % 9) / 3
}

/// Finds up to two completions of `givens` (0 = blank).
pub fn solve(givens: &[u8; 81], deadline: &Deadline) -> Result<Outcome<[u8; 81]>, TimedOut> {
    let mut search = Search {
        cells: *givens,
        rows: [0; 9],
        columns: [0; 9],
        boxes: [0; 9],
        first: None,
        found: 0,
        nodes: 0,
        deadline,
    };
    for (cell, &digit) in givens.iter().enumerate() {
        if digit == 0 {
            continue;
        }
        let bit = 1u16 << digit;
        let (r, c, b) = (cell / 9, cell % 9, box_of(cell));
        if digit > 9 || (search.rows[r] | search.columns[c] | search.boxes[b]) & bit != 0 {
            return Ok(Outcome::NoSolution);
        }
        search.rows[r] |= bit;
        search.columns[c] |= bit;
        search.boxes[b] |= bit;
    }
    search.run()?;
    Ok(match (search.found, search.first) {
        (1, Some(s)) => Outcome::Unique(s),
        (2.., Some(s)) => Outcome::Several(s),
        _ => Outcome::NoSolution,
    })
}

const ALL: u16 = 0b11_1111_1110;

impl Search<'_> {
    fn candidates(&self, cell: usize) -> u16 {
        ALL & !(self.rows[cell / 9] | self.columns[cell % 9] | self.boxes[box_of(cell)])
    }

    fn run(&mut self) -> Result<(), TimedOut> {
        self.nodes += 1;
        if self.nodes % 1024 == 0 {
            self.deadline.check()?;
        }
        let mut best: Option<(usize, u16)> = None;
        for cell in 0..81 {
            if self.cells[cell] != 0 {
                continue;
            }
            let candidates = self.candidates(cell);
            if best.is_none_or(|(_, b)| candidates.count_ones() < b.count_ones()) {
                best = Some((cell, candidates));
                if candidates.count_ones() <= 1 {
                    break;
                }
            }
        }
        let Some((cell, mut candidates)) = best else {
            self.found += 1;
            self.first.get_or_insert(self.cells);
            return Ok(());
        };
        let (r, c, b) = (cell / 9, cell % 9, box_of(cell));
        while candidates != 0 && self.found < 2 {
            let bit = candidates & candidates.wrapping_neg();
            candidates &= !bit;
            self.cells[cell] = bit.trailing_zeros() as u8;
            self.rows[r] |= bit;
            self.columns[c] |= bit;
            self.boxes[b] |= bit;
            let result = self.run();
            self.rows[r] &= !bit;
            self.columns[c] &= !bit;
            self.boxes[b] &= !bit;
            self.cells[cell] = 0;
            result?;
        }
        Ok(())
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
