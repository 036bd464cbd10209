//! Shared helpers for the end-to-end tests: where `../shared` is, and reading puzzles from it.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use gridsight::kinds::Puzzle;

/// `../shared` beside the checkout, or `None` (with a note on stderr) when it is absent, as in a
/// user's clone: tests over it then skip.
pub fn shared(test: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipping {test}: ../shared is not beside this checkout");
        None
    }
}

/// The files in `dir` whose names end in `suffix`, sorted, leaving out `*.solution.txt`.
pub fn files(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.to_string_lossy();
            name.ends_with(suffix) && !name.ends_with(".solution.txt")
        })
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no {suffix} files in {}", dir.display());
    paths
}

/// The one puzzle in a text file, its kind detected from the content.
pub fn puzzle(path: &Path) -> Box<dyn Puzzle> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut puzzles = gridsight::input::parse_puzzles(&text, None)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(puzzles.len(), 1);
    puzzles.remove(0)
}

/// The gridsight binary built for these tests.
pub fn gridsight() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_gridsight"))
}
