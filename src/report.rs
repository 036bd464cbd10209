//! The result of one input, as the JSON report and the solution text of `FORMATS.md`, with its
//! exit code. It formats; it does not solve or write to streams.

use std::time::Duration;

use serde_json::{json, Value};

use crate::error::{Error, EXIT_AMBIGUOUS, EXIT_UNIQUE};
use crate::kinds::Puzzle;
use crate::solve::Solved;
use crate::trace::{Step, Trace};

/// What happened to one input.
#[derive(Debug)]
pub struct Report {
    /// The input as the user named it (a pack's puzzles get `[N]` appended).
    pub input: String,
    pub result: Result<(Box<dyn Puzzle>, Solved), Error>,
    /// Time spent reading the input (parsing text, or reading a photo's cells).
    pub read_time: Duration,
    /// Time spent loading a photo and finding its grid (zero for text).
    pub detect_time: Duration,
    /// Readings of a photo that the solver made the reader change, in words.
    pub corrections: Vec<String>,
    /// Where the annotated photo was written, if one was.
    pub annotated: Option<String>,
    /// Time spent drawing and writing the annotated photo.
    pub render_time: Duration,
    /// What the photo stages found, one line each, for `--verbose` (empty for text).
    pub stages: Vec<String>,
}

impl Report {
    /// A report for `input` with `result`, no time spent yet and none of the photo stages'
    /// findings (text inputs have none).
    pub fn new(input: String, result: Result<(Box<dyn Puzzle>, Solved), Error>) -> Self {
        Report {
            input,
            result,
            read_time: Duration::ZERO,
            detect_time: Duration::ZERO,
            corrections: Vec::new(),
            annotated: None,
            render_time: Duration::ZERO,
            stages: Vec::new(),
        }
    }

    /// The exit code this input alone would give.
    pub fn exit_code(&self) -> u8 {
        match &self.result {
            Ok((puzzle, solved)) if solved.ambiguous_for(puzzle.as_ref()) => EXIT_AMBIGUOUS,
            Ok(_) => EXIT_UNIQUE,
            Err(error) => error.exit_code(),
        }
    }

    /// The JSON report object.
    pub fn to_json(&self) -> Value {
        let milliseconds = |d: Duration| d.as_secs_f64() * 1000.0;
        match &self.result {
            Ok((puzzle, solved)) => {
                let mut report = json!({
                "input": self.input,
                "kind": puzzle.kind(),
                "width": puzzle.width(),
                "height": puzzle.height(),
                "puzzle": puzzle.to_json(),
                "solution": solved.solution.to_json(),
                "unique": solved.unique,
                "qr": solved.qr,
                "annotated": self.annotated,
                "timings_ms": {
                    "detect": milliseconds(self.detect_time),
                    "read": milliseconds(self.read_time),
                    "solve": milliseconds(solved.time),
                    "render": milliseconds(self.render_time),
                },
                });
                if let (false, Some(object)) = (self.corrections.is_empty(), report.as_object_mut())
                {
                    object.insert("corrections".into(), Value::from(self.corrections.clone()));
                }
                if let (Some(trace), Some(object)) = (&solved.trace, report.as_object_mut()) {
                    object.insert("explanation".into(), trace_json(trace));
                }
                report
            }
            Err(error) => json!({
                "input": self.input,
                "error": { "stage": error.stage().name(), "message": error.to_string() },
            }),
        }
    }
}

/// The `explanation` array: one object per step.
pub fn trace_json(trace: &Trace) -> Value {
    Value::from(trace.steps.iter().map(step_json).collect::<Vec<_>>())
}

/// One step as `{"text", "cells": [[row, column, value], ...], "depth", "guess"}`, values as the
/// solution text prints them (`#`, `.`, a digit, or a jump number).
pub fn step_json(step: &Step) -> Value {
    let cells: Vec<Value> = step
        .cells_set
        .iter()
        .map(|&(r, c, value)| json!([r, c, value.symbol()]))
        .collect();
    json!({
        "text": step.text,
        "cells": cells,
        "depth": step.depth,
        "guess": step.guess,
    })
}

/// The explanation as text lines, numbered from 1, guesses marked.
pub fn trace_text(trace: &Trace) -> String {
    let width = trace.steps.len().to_string().len();
    trace
        .steps
        .iter()
        .enumerate()
        .map(|(i, step)| format!("{:>width$}. {}\n", i + 1, step.text))
        .collect()
}
