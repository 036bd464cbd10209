//! The benchmark puzzle sets of `../shared`: Wolter's survey and nonogram-db nonograms against
//! their goals, Lavavej's Nurikabe grids against the rules.

mod common;

use std::time::Duration;

use gridsight::kinds::{nonogram, nurikabe};
use gridsight::limits::Deadline;
use gridsight::outcome::Outcome;

fn check_nonograms(dir: &str) {
    let Some(shared) = common::shared(dir) else {
        return;
    };
    for path in common::files(&shared.join(dir), ".non") {
        let text = std::fs::read_to_string(&path).unwrap();
        let puzzle = nonogram::format::parse_pack(&text).unwrap().remove(0);
        let goal = puzzle
            .goal
            .clone()
            .unwrap_or_else(|| panic!("{}: no goal", path.display()));
        assert!(
            puzzle.is_solved_by(&goal),
            "{}: goal does not fit the clues",
            path.display()
        );
        let deadline = Deadline::after(Duration::from_secs(60));
        match puzzle
            .solve_grid(&deadline)
            .unwrap_or_else(|_| panic!("{}: timed out", path.display()))
        {
            Outcome::Unique(grid) => assert_eq!(grid, goal, "{}", path.display()),
            Outcome::Several(grid) => assert!(puzzle.is_solved_by(&grid), "{}", path.display()),
            Outcome::NoSolution => panic!("{}: no solution found", path.display()),
        }
    }
}

#[test]
fn every_wolter_puzzle_reaches_its_goal() {
    check_nonograms("nonogram/wolter");
}

#[test]
fn every_nonogram_db_puzzle_reaches_its_goal() {
    check_nonograms("nonogram/nonogram-db");
}

/// Lavavej's grids, each from `tests/data/lavavej-corrected` when it was transcribed again there.
fn lavavej_grids(shared: &std::path::Path) -> Vec<std::path::PathBuf> {
    let corrected =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lavavej-corrected");
    common::files(&shared.join("nurikabe/lavavej"), ".txt")
        .into_iter()
        .map(|path| {
            let fixed = corrected.join(path.file_name().unwrap());
            if fixed.exists() {
                fixed
            } else {
                path
            }
        })
        .collect()
}

#[test]
fn every_lavavej_grid_has_one_solution_that_obeys_the_rules() {
    let Some(shared) = common::shared("lavavej") else {
        return;
    };
    let grids = lavavej_grids(&shared);
    assert_eq!(grids.len(), 12);
    for path in grids {
        let puzzle = nurikabe::format::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let deadline = Deadline::after(Duration::from_secs(60));
        match puzzle.solve_grid(&deadline).unwrap() {
            Outcome::Unique(grid) => assert!(puzzle.is_solved_by(&grid), "{}", path.display()),
            other => panic!("{}: expected one solution, got {other:?}", path.display()),
        }
    }
}

#[test]
fn shared_nikoli_3_as_transcribed_has_no_solution() {
    // Why tests/data/lavavej-corrected exists: the shared copy puts clues 1 and 3 side by side.
    let Some(shared) = common::shared("lavavej") else {
        return;
    };
    let text = std::fs::read_to_string(shared.join("nurikabe/lavavej/nikoli_3.txt")).unwrap();
    let puzzle = nurikabe::format::parse(&text).unwrap();
    assert_eq!(
        puzzle
            .solve_grid(&Deadline::after(Duration::from_secs(10)))
            .unwrap(),
        Outcome::NoSolution
    );
}

#[test]
fn unsolved_puzzles_respect_the_deadline() {
    let Some(shared) = common::shared("unsolved nonograms") else {
        return;
    };
    for path in common::files(&shared.join("nonogram/unsolved"), ".non") {
        let puzzle = nonogram::format::parse_pack(&std::fs::read_to_string(&path).unwrap())
            .unwrap()
            .remove(0);
        let started = std::time::Instant::now();
        let result = puzzle.solve_grid(&Deadline::after(Duration::from_millis(500)));
        // Finishing is welcome; running far past the deadline is the failure.
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{}: {:?}",
            path.display(),
            started.elapsed()
        );
        if let Ok(outcome) = result {
            let grid = outcome
                .solution()
                .expect("these puzzles have solutions")
                .clone();
            assert!(puzzle.is_solved_by(&grid), "{}", path.display());
        }
    }
}

#[test]
fn logic_alone_fixes_part_of_the_unsolved_puzzles() {
    // The README's figures: how far line solving plus probing gets where search cannot finish.
    let Some(shared) = common::shared("unsolved nonograms") else {
        return;
    };
    for (name, at_least) in [("knotty", 79), ("faase", 2237)] {
        let text =
            std::fs::read_to_string(shared.join(format!("nonogram/unsolved/{name}.non"))).unwrap();
        let puzzle = nonogram::format::parse_pack(&text).unwrap().remove(0);
        let known = nonogram::solver::deduce(&puzzle.rows, &puzzle.columns, &[], &Deadline::none())
            .unwrap()
            .expect("consistent clues");
        let fixed = known.iter().flatten().filter(|cell| cell.is_some()).count();
        eprintln!("{name}: logic fixes {fixed} cells");
        assert!(
            fixed >= at_least,
            "{name}: {fixed} cells fixed, expected at least {at_least}"
        );
    }
}
