//! Property tests over random puzzles (fixed seeds, so failures reproduce): solvers agree with
//! independent checkers and brute force, and every text format round-trips.

use gridsight::grid::BinaryGrid;
use gridsight::input::parse_puzzles;
use gridsight::kinds::jump::{self, JumpMaze, Landing, DIRECTIONS};
use gridsight::kinds::nonogram::{self, clue_of, Nonogram};
use gridsight::kinds::nurikabe::{self, Nurikabe};
use gridsight::kinds::sudoku;
use gridsight::limits::Deadline;
use gridsight::outcome::Outcome;

/// xorshift64*: enough randomness for test cases, no dependency.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

#[test]
fn nonograms_from_random_pictures_solve_to_a_fitting_grid() {
    let mut random = Random(0x9e37_79b9_7f4a_7c15);
    for case in 0..300 {
        let (width, height) = (1 + random.below(12), 1 + random.below(12));
        let density = 30 + random.below(50);
        let picture: Vec<Vec<bool>> = (0..height)
            .map(|_| (0..width).map(|_| random.chance(density)).collect())
            .collect();
        let picture = BinaryGrid::new(picture);
        let puzzle = Nonogram {
            rows: (0..height)
                .map(|r| clue_of((0..width).map(|c| picture.get(r, c))))
                .collect(),
            columns: (0..width)
                .map(|c| clue_of((0..height).map(|r| picture.get(r, c))))
                .collect(),
            givens: Vec::new(),
            goal: Some(picture.clone()),
        };
        let parsed = nonogram::format::parse_pack(&nonogram::format::to_text(&puzzle))
            .unwrap()
            .remove(0);
        assert_eq!(parsed, puzzle, "case {case}: text round trip");
        match puzzle.solve_grid(&Deadline::none()).unwrap() {
            Outcome::Unique(grid) => assert_eq!(grid, picture, "case {case}"),
            Outcome::Several(grid) => {
                assert!(puzzle.is_solved_by(&grid), "case {case}");
                // Fixing every filled cell of the picture leaves exactly the picture.
                let givens = (0..height)
                    .flat_map(|r| (0..width).map(move |c| (r, c)))
                    .filter(|&(r, c)| picture.get(r, c))
                    .collect();
                let pinned = Nonogram {
                    givens,
                    ..puzzle.clone()
                };
                assert_eq!(
                    pinned.solve_grid(&Deadline::none()).unwrap(),
                    Outcome::Unique(picture),
                    "case {case}"
                );
            }
            Outcome::NoSolution => panic!("case {case}: a picture's own clues have no solution"),
        }
    }
}

/// A solved Sudoku grid, for the tests to relabel and thin out.
fn sudoku_answer() -> [u8; 81] {
    sudoku::format::parse(
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
    )
    .unwrap()
    .cells
}

/// The digits 1-9 in a random order: `digits[d - 1]` relabels `d`, keeping a grid valid.
fn shuffled_digits(random: &mut Random) -> Vec<u8> {
    let mut digits: Vec<u8> = (1..=9).collect();
    for i in (1..9).rev() {
        digits.swap(i, random.below(i + 1));
    }
    digits
}

#[test]
fn sudoku_transforms_of_a_solution_solve_back() {
    let answer = sudoku_answer();
    let mut random = Random(42);
    for case in 0..200 {
        let digits = shuffled_digits(&mut random);
        let band = random.below(3);
        let (a, b) = (band * 3 + random.below(3), band * 3 + random.below(3));
        let mut grid = [0u8; 81];
        for (cell, value) in grid.iter_mut().enumerate() {
            let (mut r, c) = (cell / 9, cell % 9);
            if r == a {
                r = b;
            } else if r == b {
                r = a;
            }
            *value = digits[answer[r * 9 + c] as usize - 1];
        }
        let mut givens = grid;
        for value in givens.iter_mut() {
            if random.chance(55) {
                *value = 0;
            }
        }
        let text = sudoku::format::to_text(&givens);
        let puzzle = sudoku::format::parse(&text).unwrap();
        assert_eq!(puzzle.cells, givens, "case {case}: round trip");
        let solved = puzzle.solve_cells(&Deadline::none()).unwrap();
        let found = solved
            .solution()
            .unwrap_or_else(|| panic!("case {case}: no solution"));
        assert!(
            (0..81).all(|i| givens[i] == 0 || givens[i] == found[i]),
            "case {case}: givens kept"
        );
        assert_eq!(
            sudoku::solver::solve(found, &Deadline::none()).unwrap(),
            Outcome::Unique(*found),
            "case {case}: valid grid"
        );
        if let Outcome::Unique(unique) = solved {
            assert_eq!(unique, grid, "case {case}");
        }
    }
}

#[test]
fn the_likeliest_sudoku_search_never_misses_a_cheaper_print() {
    // Random unique puzzles with up to five givens misread, each misread's print a dearer
    // option: the search finds a puzzle no dearer than the print, and passes over the print
    // only for one cheaper by more than the rival margin.
    use sudoku::likeliest::{likeliest, CellOptions, Search};
    const MOST_COST: f32 = 4.6;
    const MARGIN: f32 = 1.5;
    let answer = sudoku_answer();
    let mut random = Random(7);
    let mut checked = 0;
    for case in 0..200 {
        let digits = shuffled_digits(&mut random);
        let mut printed = [0u8; 81];
        for (cell, value) in printed.iter_mut().enumerate() {
            if random.chance(50) {
                *value = digits[answer[cell] as usize - 1];
            }
        }
        let Outcome::Unique(_) = sudoku::solver::solve(&printed, &Deadline::none()).unwrap() else {
            continue;
        };
        let givens: Vec<usize> = (0..81).filter(|&i| printed[i] != 0).collect();
        let mut read = printed;
        let mut doubtful = Vec::new();
        let mut print_cost = 0.0;
        for _ in 0..1 + random.below(5) {
            let index = givens[random.below(givens.len())];
            if read[index] != printed[index] {
                continue;
            }
            let wrong = 1 + (printed[index] as usize + random.below(8)) % 9;
            let cost = 0.1 + random.below(80) as f32 / 100.0;
            read[index] = wrong as u8;
            print_cost += cost;
            doubtful.push(CellOptions {
                index,
                options: vec![(wrong as u8, 0.0), (printed[index], cost), (0, 2.0)],
            });
        }
        match likeliest(&read, &doubtful, MOST_COST, MARGIN, &Deadline::none()).unwrap() {
            Search::NotFound => panic!("case {case}: the print, costing {print_cost}, not found"),
            Search::Rivals(best, _) => assert!(best.cost <= print_cost + 1e-4, "case {case}"),
            Search::Found(best) => {
                assert!(best.cost <= print_cost + 1e-4, "case {case}");
                assert!(
                    best.givens == printed || print_cost > best.cost + MARGIN,
                    "case {case}: the print, costing {print_cost}, is a rival of {}",
                    best.cost
                );
            }
        }
        checked += 1;
    }
    assert!(checked >= 80, "{checked} unique puzzles");
}

/// Shortest exit length and the number of shortest jump sequences, by plain enumeration.
fn brute_force_jumps(maze: &JumpMaze, max_depth: usize) -> Option<(usize, u64)> {
    let mut frontier = vec![(maze.start, 1u64)];
    for depth in 1..=max_depth {
        let mut exits = 0u64;
        let mut next = Vec::new();
        for &(cell, ways) in &frontier {
            for direction in DIRECTIONS {
                match maze.jump(cell, direction) {
                    Landing::Inside(to) => next.push((to, ways)),
                    Landing::Exit(_) => exits += ways,
                    Landing::Illegal => {}
                }
            }
        }
        if exits > 0 {
            return Some((depth, exits));
        }
        frontier = next;
    }
    None
}

#[test]
fn jump_solver_agrees_with_enumeration() {
    let mut random = Random(7);
    for case in 0..300 {
        let (width, height) = (1 + random.below(6), 1 + random.below(6));
        let mut grid: Vec<Vec<u32>> = (0..height)
            .map(|_| {
                (0..width)
                    .map(|_| {
                        if random.chance(20) {
                            0
                        } else {
                            1 + random.below(4) as u32
                        }
                    })
                    .collect()
            })
            .collect();
        grid[height / 2][width / 2] = 1 + random.below(3) as u32;
        let maze = JumpMaze {
            grid,
            start: (height / 2, width / 2),
        };
        assert_eq!(
            jump::format::parse(&jump::format::to_text(&maze)).unwrap(),
            maze,
            "case {case}: round trip"
        );
        let found = jump::solver::shortest_paths(&maze, &Deadline::none()).unwrap();
        let expected = brute_force_jumps(&maze, width * height + 1);
        match (found, expected) {
            (Some((path, count)), Some((length, ways))) => {
                assert_eq!(maze.check_path(&path), Ok(length), "case {case}");
                assert_eq!(count, ways, "case {case}");
            }
            (None, None) => {}
            (found, expected) => panic!("case {case}: solver {found:?}, enumeration {expected:?}"),
        }
    }
}

#[test]
fn nurikabe_verdicts_agree_with_brute_force_on_small_grids() {
    let mut random = Random(2024);
    for case in 0..150 {
        let (width, height) = (2 + random.below(3), 2 + random.below(3));
        let mut clues = Vec::new();
        for r in 0..height {
            for c in 0..width {
                if random.chance(20) {
                    clues.push((r, c, 1 + random.below(4) as u32));
                }
            }
        }
        let puzzle = Nurikabe {
            width,
            height,
            clues,
        };
        let text = nurikabe::format::to_grid_text(&puzzle);
        let reparsed = parse_puzzles(&text, gridsight::kinds::by_name("nurikabe"))
            .unwrap()
            .remove(0);
        assert_eq!(reparsed.to_text(), text, "case {case}: round trip");
        let cells = width * height;
        let solutions: Vec<BinaryGrid> = (0u32..1 << cells)
            .map(|bits| {
                BinaryGrid::new(
                    (0..height)
                        .map(|r| {
                            (0..width)
                                .map(|c| bits >> (r * width + c) & 1 == 1)
                                .collect()
                        })
                        .collect(),
                )
            })
            .filter(|grid| puzzle.is_solved_by(grid))
            .collect();
        let outcome = puzzle.solve_grid(&Deadline::none()).unwrap();
        match (solutions.len(), &outcome) {
            (0, Outcome::NoSolution) => {}
            (1, Outcome::Unique(grid)) => assert_eq!(grid, &solutions[0], "case {case}"),
            (2.., Outcome::Several(grid)) => assert!(solutions.contains(grid), "case {case}"),
            (n, outcome) => {
                panic!("case {case}: {n} solutions by brute force, solver said {outcome:?}\n{text}")
            }
        }
    }
}
