//! The seed puzzles of `../shared/seeds`: every known solution and uniqueness fact.

mod common;

use gridsight::grid::BinaryGrid;
use gridsight::kinds::jump::{self, JumpMaze};
use gridsight::kinds::nonogram::{self, Nonogram};
use gridsight::kinds::nurikabe::{self, Nurikabe};
use gridsight::limits::Deadline;
use gridsight::outcome::Outcome;

fn gchq(shared: &std::path::Path) -> Nonogram {
    let text = std::fs::read_to_string(shared.join("seeds/gchq.non")).unwrap();
    nonogram::format::parse_pack(&text).unwrap().remove(0)
}

#[test]
fn gchq_with_givens_is_unique_and_matches_the_known_solution() {
    let Some(shared) = common::shared("gchq") else {
        return;
    };
    let puzzle = gchq(&shared);
    assert_eq!(puzzle.givens.len(), 22);
    let expected = BinaryGrid::parse(
        &std::fs::read_to_string(shared.join("seeds/gchq.solution.txt")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        puzzle.solve_grid(&Deadline::none()).unwrap(),
        Outcome::Unique(expected.clone())
    );
    assert_eq!(
        gridsight::qr::decode(&expected).as_deref(),
        Some("www.gchq.gov.uk/puzz")
    );
}

#[test]
fn gchq_from_its_clues_alone_has_exactly_four_solutions() {
    let Some(shared) = common::shared("gchq") else {
        return;
    };
    let mut puzzle = gchq(&shared);
    puzzle.givens.clear();
    let count =
        nonogram::solver::count(&puzzle.rows, &puzzle.columns, &[], 10, &Deadline::none()).unwrap();
    assert_eq!(count, 4);
    let Outcome::Several(first) = puzzle.solve_grid(&Deadline::none()).unwrap() else {
        panic!("several expected")
    };
    assert!(puzzle.is_solved_by(&first));
}

#[test]
fn every_nurikabe_seed_is_unique_and_matches_its_solution() {
    let Some(shared) = common::shared("nurikabe seeds") else {
        return;
    };
    let paths = common::files(&shared.join("seeds/nurikabe"), ".txt");
    assert_eq!(paths.len(), 10);
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        let puzzle: Nurikabe = nurikabe::format::parse(&text).unwrap();
        let solution_path = path.with_extension("solution.txt");
        let expected =
            BinaryGrid::parse(&std::fs::read_to_string(&solution_path).unwrap()).unwrap();
        assert!(
            puzzle.is_solved_by(&expected),
            "{}: the known solution fails the checker",
            path.display()
        );
        assert_eq!(
            puzzle.solve_grid(&Deadline::none()).unwrap(),
            Outcome::Unique(expected),
            "{}",
            path.display()
        );
    }
}

fn hlavolam(shared: &std::path::Path) -> JumpMaze {
    jump::format::parse(&std::fs::read_to_string(shared.join("seeds/hlavolam.jump")).unwrap())
        .unwrap()
}

#[test]
fn jump_seed_exits_in_nine_jumps_two_ways() {
    let Some(shared) = common::shared("hlavolam") else {
        return;
    };
    let maze = hlavolam(&shared);
    assert_eq!(maze.start, (10, 10));
    let (path, count) = jump::solver::shortest_paths(&maze, &Deadline::none())
        .unwrap()
        .expect("a way out");
    assert_eq!(maze.check_path(&path), Ok(9));
    assert_eq!(count, 2);
}

#[test]
fn jump_checker_rejects_a_tampered_path() {
    let Some(shared) = common::shared("hlavolam") else {
        return;
    };
    let maze = hlavolam(&shared);
    let (path, _) = jump::solver::shortest_paths(&maze, &Deadline::none())
        .unwrap()
        .unwrap();
    for step in 1..path.cells.len() {
        let mut bad = path.clone();
        bad.cells[step].1 += 1;
        assert!(maze.check_path(&bad).is_err(), "moved step {step}");
    }
    let mut bad = path.clone();
    bad.exit.0 += 1;
    assert!(maze.check_path(&bad).is_err());
    let mut short = path;
    short.cells.pop();
    assert!(maze.check_path(&short).is_err());
}
