//! Explanations and hints on the seed puzzles: replaying an explanation's steps from the puzzle
//! reproduces the known solution, and a hint names a right value for a still-open cell.

mod common;

use std::path::Path;

use gridsight::grid::BinaryGrid;
use gridsight::kinds::jump::{self, JumpMaze};
use gridsight::kinds::nonogram::{self, Nonogram};
use gridsight::kinds::nurikabe::{self, Nurikabe};
use gridsight::kinds::sudoku::{self, Sudoku};
use gridsight::kinds::Puzzle;
use gridsight::limits::Deadline;
use gridsight::trace::{Cell, Step, Trace};

fn binary(grid: &BinaryGrid) -> Vec<Cell> {
    grid.rows()
        .iter()
        .flatten()
        .map(|&f| if f { Cell::Filled } else { Cell::Empty })
        .collect()
}

/// `--state` text of `solution` with the cells `open` says `?`.
fn state_text(grid: &BinaryGrid, open: impl Fn(usize, usize) -> bool) -> String {
    (0..grid.height())
        .map(|r| {
            (0..grid.width())
                .map(|c| match (open(r, c), grid.get(r, c)) {
                    (true, _) => '?',
                    (false, true) => '#',
                    (false, false) => '.',
                })
                .collect::<String>()
                + "\n"
        })
        .collect()
}

/// Replays `trace` from `start` and checks it ends at `solution` with every cell set, no step
/// ever contradicting it.
fn assert_replays(name: &str, trace: &Trace, start: Vec<Cell>, width: usize, solution: &[Cell]) {
    assert!(!trace.steps.is_empty(), "{name}: no steps");
    for step in &trace.steps {
        for &(r, c, value) in &step.cells_set {
            assert_eq!(value, solution[r * width + c], "{name}: {}", step.text);
        }
    }
    let end = trace
        .replay(start, width)
        .unwrap_or_else(|| panic!("{name}: replay clashes"));
    assert_eq!(end, solution, "{name}: replay does not reach the solution");
    assert!(
        trace.steps.iter().any(|s| s.snapshot.is_some()),
        "{name}: no snapshots"
    );
}

/// A hint from `state` sets only open cells, to their solution values.
fn assert_good_hint(name: &str, step: &Step, width: usize, open: &[bool], solution: &[Cell]) {
    assert!(
        !step.cells_set.is_empty(),
        "{name}: hint sets nothing: {}",
        step.text
    );
    for &(r, c, value) in &step.cells_set {
        assert!(
            open[r * width + c],
            "{name}: hint about a set cell: {}",
            step.text
        );
        assert_eq!(
            value,
            solution[r * width + c],
            "{name}: wrong hint {}",
            step.text
        );
    }
}

fn gchq(shared: &Path) -> (Nonogram, BinaryGrid) {
    let text = std::fs::read_to_string(shared.join("seeds/gchq.non")).unwrap();
    let solution = std::fs::read_to_string(shared.join("seeds/gchq.solution.txt")).unwrap();
    (
        nonogram::format::parse_pack(&text).unwrap().remove(0),
        BinaryGrid::parse(&solution).unwrap(),
    )
}

#[test]
fn gchq_explanation_replays_to_the_solution_and_hints_are_right() {
    let Some(shared) = common::shared("gchq explanation") else {
        return;
    };
    let (puzzle, expected) = gchq(&shared);
    let solution = binary(&expected);
    let w = puzzle.width();
    let (_, trace) = puzzle.solve_traced(&Deadline::none()).unwrap();
    let mut start = vec![Cell::Unknown; solution.len()];
    for &(r, c) in &puzzle.givens {
        start[r * w + c] = Cell::Filled;
    }
    assert_replays("gchq", &trace, start.clone(), w, &solution);
    assert!(trace.steps.iter().all(|s| s.depth == 0 && !s.guess));
    assert!(trace.steps[0].text.starts_with("row ") || trace.steps[0].text.starts_with("column "));

    let open: Vec<bool> = start.iter().map(|&c| c == Cell::Unknown).collect();
    let hint = puzzle.hint(None, &Deadline::none()).unwrap();
    assert_good_hint("gchq", &hint, w, &open, &solution);

    // The top half solved: the hint is about the bottom half.
    let state = state_text(&expected, |r, _| r >= 12);
    let open: Vec<bool> = (0..solution.len()).map(|i| i / w >= 12).collect();
    let hint = puzzle.hint(Some(&state), &Deadline::none()).unwrap();
    assert_good_hint("gchq state", &hint, w, &open, &solution);
}

#[test]
fn gchq_from_clues_alone_explains_its_guesses() {
    let Some(shared) = common::shared("gchq guesses") else {
        return;
    };
    let (mut puzzle, _) = gchq(&shared);
    puzzle.givens.clear();
    let (outcome, trace) = puzzle.solve_traced(&Deadline::none()).unwrap();
    let first = outcome.solution().expect("solvable").to_text();
    let first = binary(&BinaryGrid::parse(&first).unwrap());
    assert!(trace
        .steps
        .iter()
        .any(|s| s.guess && s.text.contains("search depth 1")));
    let w = puzzle.width();
    assert_replays("gchq clues", &trace, vec![Cell::Unknown; w * w], w, &first);
}

#[test]
fn every_nurikabe_seed_explanation_replays_and_hints_are_right() {
    let Some(shared) = common::shared("nurikabe explanations") else {
        return;
    };
    for path in common::files(&shared.join("seeds/nurikabe"), ".txt") {
        let name = path.display().to_string();
        let puzzle: Nurikabe =
            nurikabe::format::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let expected = BinaryGrid::parse(
            &std::fs::read_to_string(path.with_extension("solution.txt")).unwrap(),
        )
        .unwrap();
        let solution = binary(&expected);
        let w = puzzle.width;
        let mut start = vec![Cell::Unknown; solution.len()];
        for &(r, c, _) in &puzzle.clues {
            start[r * w + c] = Cell::Filled;
        }
        let (_, trace) = puzzle.solve_traced(&Deadline::none()).unwrap();
        assert_replays(&name, &trace, start.clone(), w, &solution);

        let open: Vec<bool> = start.iter().map(|&c| c == Cell::Unknown).collect();
        let hint = puzzle.hint(None, &Deadline::none()).unwrap();
        assert_good_hint(&name, &hint, w, &open, &solution);

        // Every other row solved.
        let state = state_text(&expected, |r, _| r % 2 == 1);
        let open: Vec<bool> = (0..solution.len()).map(|i| (i / w) % 2 == 1).collect();
        let hint = puzzle.hint(Some(&state), &Deadline::none()).unwrap();
        assert_good_hint(&name, &hint, w, &open, &solution);
    }
}

const ANSWER: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

#[test]
fn sudoku_explanation_replays_and_hints_are_right() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/classic.sudoku");
    let puzzle: Sudoku = sudoku::format::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    let answer = sudoku::format::parse(ANSWER).unwrap().cells;
    let solution: Vec<Cell> = answer.iter().map(|&d| Cell::Digit(d)).collect();
    let start: Vec<Cell> = puzzle.cells.iter().map(|&d| Cell::from_digit(d)).collect();
    let (_, trace) = puzzle.solve_traced(&Deadline::none()).unwrap();
    assert_replays("sudoku", &trace, start.clone(), 9, &solution);
    assert!(trace
        .steps
        .iter()
        .any(|s| s.text.contains("only place for")));

    let open: Vec<bool> = start.iter().map(|&c| c == Cell::Unknown).collect();
    let hint = puzzle.hint(None, &Deadline::none()).unwrap();
    assert_good_hint("sudoku", &hint, 9, &open, &solution);

    // The first four rows filled in.
    let state: String = (0..81)
        .map(|i| {
            if i < 36 || puzzle.cells[i] != 0 {
                answer[i]
            } else {
                0
            }
        })
        .map(|d| char::from(b'0' + d))
        .collect();
    let open: Vec<bool> = state.bytes().map(|b| b == b'0').collect();
    let hint = puzzle.hint(Some(&state), &Deadline::none()).unwrap();
    assert_good_hint("sudoku state", &hint, 9, &open, &solution);
}

#[test]
fn jump_explanation_walks_the_path_and_hints_continue_it() {
    let Some(shared) = common::shared("jump explanation") else {
        return;
    };
    let text = std::fs::read_to_string(shared.join("seeds/hlavolam.jump")).unwrap();
    let maze: JumpMaze = jump::format::parse(&text).unwrap();
    let (path, _) = jump::solver::shortest_paths(&maze, &Deadline::none())
        .unwrap()
        .unwrap();
    let w = maze.width();
    let mut solution = vec![Cell::Unknown; w * maze.height()];
    for (i, &(r, c)) in path.cells.iter().enumerate() {
        solution[r * w + c] = Cell::Jump(i as u32);
    }
    let (_, trace) = maze.solve_traced(&Deadline::none()).unwrap();
    let end = trace
        .replay(vec![Cell::Unknown; solution.len()], w)
        .unwrap();
    assert_eq!(end, solution);
    assert_eq!(trace.steps.len(), path.cells.len() + 1);
    assert!(trace.steps.last().unwrap().text.contains("out of the maze"));
    assert_eq!(
        trace.steps.iter().filter(|s| s.snapshot.is_some()).count(),
        path.cells.len()
    );

    let hint = maze.hint(None, &Deadline::none()).unwrap();
    assert_eq!(
        hint.cells_set,
        vec![(path.cells[1].0, path.cells[1].1, Cell::Jump(1))]
    );

    // Three cells into the path, the hint's jump keeps the way out nine jumps long.
    let state: String = path.cells[..3]
        .iter()
        .map(|(r, c)| format!("{r} {c}\n"))
        .collect();
    let hint = maze.hint(Some(&state), &Deadline::none()).unwrap();
    let &[(r, c, Cell::Jump(3))] = hint.cells_set.as_slice() else {
        panic!("one jump expected: {hint:?}")
    };
    let from_there = JumpMaze {
        grid: maze.grid.clone(),
        start: (r, c),
    };
    let (rest, _) = jump::solver::shortest_paths(&from_there, &Deadline::none())
        .unwrap()
        .unwrap();
    assert_eq!(3 + rest.cells.len(), path.cells.len());
}

#[test]
fn states_that_contradict_or_are_malformed_are_errors() {
    let puzzle: Sudoku = sudoku::format::parse(&"0".repeat(81)).unwrap();
    let clash = format!("11{}", "0".repeat(79));
    let err = puzzle.hint(Some(&clash), &Deadline::none()).unwrap_err();
    assert_eq!(err.exit_code(), 4, "{err}");
    let err = puzzle.hint(Some("12x"), &Deadline::none()).unwrap_err();
    assert_eq!(err.exit_code(), 2, "{err}");
    assert!(
        err.to_string().starts_with("--state: line 1, column 3"),
        "{err}"
    );

    let nurikabe: Nurikabe = nurikabe::format::parse("5,5 3,0,1 1,4,1 2,0,4 2,2,4 2,4,4").unwrap();
    for (state, message) in [
        ("#.\n", "row has 2 cells"),
        ("?????\n?????\n", "2 rows"),
        ("??x??\n", "`x` is not a cell"),
    ] {
        let err = nurikabe.hint(Some(state), &Deadline::none()).unwrap_err();
        assert_eq!(err.exit_code(), 2);
        assert!(err.to_string().contains(message), "{err}");
    }
    let maze: JumpMaze = jump::format::parse("0 0 0\n0 1 0\n0 0 0\n").unwrap();
    let err = maze.hint(Some("0 0\n"), &Deadline::none()).unwrap_err();
    assert!(err.to_string().contains("must begin at the start"), "{err}");
}
