//! The result of one input, as the JSON report and the solution text of `FORMATS.md`, with its
//! exit code. It formats; it does not solve or write to streams.

use std::time::Duration;

use serde_json::{json, Value};

use crate::error::{Error, EXIT_AMBIGUOUS, EXIT_UNIQUE};
use crate::kinds::Puzzle;
use crate::solve::Solved;

/// What happened to one input.
#[derive(Debug)]
pub struct Report {
    /// The input as the user named it (a pack's puzzles get `[N]` appended).
    pub input: String,
    pub result: Result<(Box<dyn Puzzle>, Solved), Error>,
    /// Time spent reading the input (parsing text, or later reading an image).
    pub read_time: Duration,
}

impl Report {
    /// The exit code this input alone would give.
    pub fn exit_code(&self) -> u8 {
        match &self.result {
            Ok((puzzle, solved)) if !solved.unique && puzzle.ambiguity_matters() => EXIT_AMBIGUOUS,
            Ok(_) => EXIT_UNIQUE,
            Err(error) => error.exit_code(),
        }
    }

    /// The JSON report object.
    pub fn to_json(&self) -> Value {
        let milliseconds = |d: Duration| d.as_secs_f64() * 1000.0;
        match &self.result {
            Ok((puzzle, solved)) => json!({
                "input": self.input,
                "kind": puzzle.kind(),
                "width": puzzle.width(),
                "height": puzzle.height(),
                "puzzle": puzzle.to_json(),
                "solution": solved.solution.to_json(),
                "unique": solved.unique,
                "qr": solved.qr,
                "annotated": null,
                "timings_ms": {
                    "detect": 0.0,
                    "read": milliseconds(self.read_time),
                    "solve": milliseconds(solved.time),
                    "render": 0.0,
                },
            }),
            Err(error) => json!({
                "input": self.input,
                "error": { "stage": error.stage().name(), "message": error.to_string() },
            }),
        }
    }
}
