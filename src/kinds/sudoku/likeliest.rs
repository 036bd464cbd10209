//! The likeliest printed Sudoku behind a doubtful reading: each doubtful cell may have been
//! printed as one of a few values (blank or a digit), each at a cost (how much less likely the
//! reader found it than what it read), and the printed puzzle has exactly one solution.
//!
//! A branch-and-bound search over the doubtful cells, pruned by the digits already in each
//! row, column and box and by the cost so far, finds the cheapest such puzzle and tells
//! whether another one nearly as cheap exists (then the photo could show either). Unlike
//! trying a few changes at a time, it takes any number of them, so a reading with four
//! misreads among thirty givens can still be mended. It reads no image and sets no costs:
//! the read stage hands it the options.

use crate::limits::{Deadline, TimedOut};
use crate::outcome::Outcome;

use super::solver::{self, Board};

/// The values one cell may have been printed as: `(value, cost)`, 0 for blank, the cost at
/// least 0 (the reading itself costs 0).
#[derive(Debug, Clone, PartialEq)]
pub struct CellOptions {
    pub index: usize,
    pub options: Vec<(u8, f32)>,
}

/// The cheapest printed puzzle with one solution, and what it cost.
#[derive(Debug, Clone, PartialEq)]
pub struct Likeliest {
    pub givens: [u8; 81],
    pub cost: f32,
}

/// What the search found.
#[derive(Debug, Clone, PartialEq)]
pub enum Search {
    /// One puzzle, with no other within the margin.
    Found(Likeliest),
    /// The cheapest puzzle and another costing at most the margin more: either may be printed.
    Rivals(Likeliest, Likeliest),
    /// No choice of options within the cost limit makes a puzzle with one solution.
    NotFound,
}

/// The most leaves (complete choices of options) the search solves, and the most choices it
/// makes on the way: past them the reading is too doubtful to settle (a grid of unsure cells
/// each with a near-even second reading has more cheap choices than can be tried), and the
/// search gives up as if out of time.
const MOST_LEAVES: usize = 20_000;
const MOST_NODES: usize = 2_000_000;

/// The cheapest printed puzzle: the `fixed` cells as they are (0 blank; the doubtful cells'
/// entries are ignored), each of `doubtful` as one of its options, costing at most `most_cost`
/// in all and with exactly one solution. A second such puzzle costing at most `rival_margin`
/// more makes the result [`Search::Rivals`]. The search is given up (`TimedOut`) at
/// `deadline`, after [`MOST_LEAVES`] complete choices or after [`MOST_NODES`] choices.
pub fn likeliest(
    fixed: &[u8; 81],
    doubtful: &[CellOptions],
    most_cost: f32,
    rival_margin: f32,
    deadline: &Deadline,
) -> Result<Search, TimedOut> {
    let mut start = *fixed;
    for cell in doubtful {
        start[cell.index] = 0;
    }
    let Some(board) = Board::new(&start) else {
        return Ok(Search::NotFound);
    };
    // Cells with few options first, and among them the surest (dearest second option), so the
    // digits least likely to change constrain the rest early.
    let mut order: Vec<&CellOptions> = doubtful.iter().collect();
    order.sort_by(|a, b| {
        a.options
            .len()
            .cmp(&b.options.len())
            .then(second_cost(b).total_cmp(&second_cost(a)))
    });
    let mut search = Branches {
        order,
        limit: most_cost,
        rival_margin,
        found: Vec::new(),
        leaves: 0,
        nodes: 0,
        deadline,
    };
    search.branch(&board, 0, 0.0)?;
    let mut found = search.found;
    found.sort_by(|a, b| a.cost.total_cmp(&b.cost));
    let mut found = found.into_iter();
    Ok(match (found.next(), found.next()) {
        (None, _) => Search::NotFound,
        (Some(best), Some(rival)) if rival.cost <= best.cost + rival_margin => {
            Search::Rivals(best, rival)
        }
        (Some(best), _) => Search::Found(best),
    })
}

/// The cost of a cell's second-cheapest option (infinite with one option).
fn second_cost(cell: &CellOptions) -> f32 {
    let mut costs: Vec<f32> = cell.options.iter().map(|&(_, cost)| cost).collect();
    costs.sort_by(f32::total_cmp);
    costs.get(1).copied().unwrap_or(f32::INFINITY)
}

/// The state of the branch-and-bound search.
struct Branches<'a> {
    order: Vec<&'a CellOptions>,
    /// Leaves costing more than this are not wanted: the cost limit, lowered to the cheapest
    /// puzzle found plus the rival margin.
    limit: f32,
    rival_margin: f32,
    /// Puzzles with one solution found within the limit at the time.
    found: Vec<Likeliest>,
    leaves: usize,
    nodes: usize,
    deadline: &'a Deadline,
}

impl Branches<'_> {
    fn branch(&mut self, board: &Board, depth: usize, cost: f32) -> Result<(), TimedOut> {
        if cost > self.limit {
            return Ok(());
        }
        self.nodes += 1;
        if self.nodes > MOST_NODES || (self.nodes % 4096 == 0 && self.deadline.expired()) {
            return Err(TimedOut);
        }
        let Some(cell) = self.order.get(depth).copied() else {
            return self.leaf(board, cost);
        };
        for &(value, option_cost) in &cell.options {
            if value == 0 {
                self.branch(board, depth + 1, cost + option_cost)?;
            } else if value <= 9 && board.candidates(cell.index) & (1 << value) != 0 {
                let mut placed = *board;
                placed.place(cell.index, value);
                self.branch(&placed, depth + 1, cost + option_cost)?;
            }
        }
        Ok(())
    }

    fn leaf(&mut self, board: &Board, cost: f32) -> Result<(), TimedOut> {
        self.leaves += 1;
        if self.leaves > MOST_LEAVES {
            return Err(TimedOut);
        }
        if let Outcome::Unique(_) = solver::solve(&board.cells, self.deadline)? {
            self.found.push(Likeliest {
                givens: board.cells,
                cost,
            });
            self.limit = self.limit.min(cost + self.rival_margin);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A puzzle with one solution (the classic sample's givens).
    const PUZZLE: &str =
        "530070000600195000098000060800060003400803001700020006060000280000419005000080079";

    fn givens() -> [u8; 81] {
        super::super::format::parse(PUZZLE)
            .expect("the sample parses")
            .cells
    }

    fn search(fixed: &[u8; 81], doubtful: &[CellOptions]) -> Search {
        likeliest(fixed, doubtful, 4.6, 1.5, &Deadline::none()).unwrap()
    }

    #[test]
    fn a_reading_that_solves_uniquely_is_its_own_likeliest_puzzle() {
        let printed = givens();
        let doubtful = [CellOptions {
            index: 0,
            options: vec![(5, 0.0), (6, 0.5)],
        }];
        match search(&printed, &doubtful) {
            Search::Found(found) => {
                assert_eq!(found.givens, printed);
                assert_eq!(found.cost, 0.0);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn four_misreads_are_mended_at_once_when_each_has_the_print_among_its_options() {
        let printed = givens();
        let mut read = printed;
        // r1c1's 5 read 6, r1c2's 3 read 8, r3c3's 8 read 4, r9c8's 7 read 9, each with its
        // printed digit a dearer option.
        let misreads = [(0usize, 6u8), (1, 8), (20, 4), (79, 9)];
        let doubtful: Vec<CellOptions> = misreads
            .iter()
            .map(|&(index, wrong)| {
                let right = printed[index];
                read[index] = wrong;
                CellOptions {
                    index,
                    options: vec![(wrong, 0.0), (right, 0.9), (0, 3.0)],
                }
            })
            .collect();
        match search(&read, &doubtful) {
            Search::Found(found) => {
                assert_eq!(found.givens, printed);
                assert!((found.cost - 3.6).abs() < 1e-5, "{}", found.cost);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_rival_puzzle_nearly_as_likely_is_reported() {
        let printed = givens();
        // Dropping the 9 at r9c9 (index 80) leaves the puzzle with one solution as well; at
        // the same cost either puzzle could be the print.
        let doubtful = [CellOptions {
            index: 80,
            options: vec![(9, 0.0), (0, 0.0)],
        }];
        let without_nine = likeliest(&printed, &doubtful, 4.6, 1.5, &Deadline::none()).unwrap();
        match without_nine {
            Search::Rivals(best, rival) => {
                assert_ne!(best.givens, rival.givens);
                assert!(rival.cost - best.cost <= 1.5);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_misread_that_makes_another_puzzle_with_one_solution_is_a_rival() {
        // r9c8's 7 read 1: the puzzle with the 1 has one solution too, and the 7 is only a
        // little less likely, so the photo could show either.
        let printed = givens();
        let mut read = printed;
        read[79] = 1;
        let doubtful = [CellOptions {
            index: 79,
            options: vec![(1, 0.0), (7, 0.5)],
        }];
        match search(&read, &doubtful) {
            Search::Rivals(best, rival) => {
                assert_eq!(best.givens, read);
                assert_eq!(rival.givens, printed);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn nothing_within_the_cost_limit_is_not_found() {
        let printed = givens();
        let mut read = printed;
        read[0] = 6;
        let doubtful = [CellOptions {
            index: 0,
            options: vec![(6, 0.0), (5, 9.0)],
        }];
        assert_eq!(search(&read, &doubtful), Search::NotFound);
    }

    #[test]
    fn a_grid_of_near_even_readings_is_given_up_in_time() {
        // Every cell read 1-9 with a second reading nearly as likely: more cheap choices than
        // can be tried. The search stops at its deadline or its caps, not hours later.
        let doubtful: Vec<CellOptions> = (0..81)
            .map(|index| CellOptions {
                index,
                options: vec![
                    ((index % 9 + 1) as u8, 0.0),
                    ((index * 7 % 9 + 1) as u8, 0.05),
                    (0, 0.1),
                ],
            })
            .collect();
        let started = std::time::Instant::now();
        let deadline = Deadline::after(std::time::Duration::from_millis(300));
        let found = likeliest(&[0; 81], &doubtful, 4.6, 1.5, &deadline);
        assert!(found.is_err(), "{found:?}");
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }

    #[test]
    fn a_repeated_digit_among_the_fixed_cells_is_not_found() {
        let mut read = givens();
        read[2] = 5;
        assert_eq!(search(&read, &[]), Search::NotFound);
    }
}
