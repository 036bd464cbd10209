//! gridsight: from a printed logic puzzle to its solution.
//!
//! The pipeline, one module per stage, data flowing one way:
//! [`input`] (text to [`kinds::Puzzle`]) -> [`solve`] (puzzle to [`solve::Solved`]) ->
//! [`report`] (solution text, JSON report, exit code). Each puzzle kind lives in [`kinds`];
//! [`qr`] decodes a solved grid that is a QR code.

pub mod animate;
pub mod error;
pub mod grid;
pub mod input;
pub mod kinds;
pub mod limits;
pub mod outcome;
pub mod output;
pub mod photo;
pub mod qr;
pub mod render;
pub mod report;
pub mod solve;
pub mod text;
pub mod trace;

pub use error::Error;

use std::time::{Duration, Instant};

use kinds::Kind;
use report::Report;

/// Reads, parses and solves the puzzle text at `path` (`-` for stdin): one report per puzzle in
/// it, or one error report. With `explain`, each report carries the solver's steps.
pub fn solve_text_file(
    path: &str,
    kind: Option<&dyn Kind>,
    limit: Option<Duration>,
    explain: bool,
) -> Vec<Report> {
    let started = Instant::now();
    let puzzles = input::read_text(path).and_then(|text| input::parse_puzzles(&text, kind));
    let read_time = started.elapsed();
    match puzzles {
        Err(error) => vec![Report {
            input: path.to_string(),
            result: Err(error),
            read_time,
        }],
        Ok(puzzles) => {
            let several = puzzles.len() > 1;
            puzzles
                .into_iter()
                .enumerate()
                .map(|(i, puzzle)| Report {
                    input: if several {
                        format!("{path}[{}]", i + 1)
                    } else {
                        path.to_string()
                    },
                    result: solve::solve_with(puzzle.as_ref(), limit, explain)
                        .map(|solved| (puzzle, solved)),
                    read_time,
                })
                .collect()
        }
    }
}
