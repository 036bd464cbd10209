//! `gridsight eval`: reading accuracy and speed over a folder of photos with known puzzles.
//!
//! Ground truth is a `NAME.truth.json` beside each image (as `gridsight photo` writes) or, for the
//! real newspaper photos of the Sudoku dataset, an `imageN.dat` beside `imageN.jpg`. It measures
//! detection and reading (and whether the read puzzle solves to the truth); it does not train or
//! tune anything.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::kinds::jump::JumpMaze;
use crate::kinds::{Puzzle, Solution};
use crate::limits::Deadline;
use crate::read::{CellValue, Reading};

/// What is known about one photo.
#[derive(Debug, Clone)]
pub struct Truth {
    pub kind: String,
    /// `scan`, `photo`, `hard` for generated photos, `real` for the dataset's.
    pub preset: String,
    pub rows: usize,
    pub columns: usize,
    /// Every cell's value, row-major; for a nonogram its clue numbers, rows then columns.
    pub cells: Vec<CellValue>,
    /// The puzzle as the JSON report writes it.
    pub puzzle: Value,
    /// The solution as in the JSON report, when known.
    pub solution: Option<Value>,
}

/// The outcome of reading one photo.
#[derive(Debug, Clone)]
pub struct Sample {
    pub image: PathBuf,
    pub truth: Truth,
    /// `None` when detection failed (with its message in `error`).
    pub read_exactly: bool,
    /// Whether the CLI would exit 0 with the printed puzzle's answer (see [`answers_truth`]);
    /// without a known solution, whether it would exit 0 on the puzzle read exactly.
    pub solved_correctly: bool,
    /// Whether the CLI would exit 0 (solved, uniquely where that matters) with an answer that
    /// is not the printed puzzle's: the wrong answer a user cannot tell from a right one.
    /// Without a known solution (the dataset's photos), any puzzle not the one printed.
    pub accepted_wrong: bool,
    pub cells_right: usize,
    pub time: Duration,
    /// Why no puzzle was read from the photo.
    pub error: Option<String>,
    /// Why the puzzle read was not solved (no solution, a misread refused), when it was read.
    pub solve_error: Option<String>,
}

/// What a user running `solve` on a photo would have got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    ReadExactly,
    /// A misread the answer did not depend on, or corrected otherwise than printed: exit 0
    /// with the printed puzzle's answer.
    AnsweredRight,
    /// Exit 0 with another puzzle's answer: the wrong answer a user cannot tell from a right one.
    AnsweredWrong,
    /// Refused, unsolved or ambiguous.
    NotAnswered,
}

impl Outcome {
    /// The outcome in a few words, as `eval --per-photo` prints it.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::ReadExactly => "read exactly",
            Outcome::AnsweredRight => "answered right",
            Outcome::AnsweredWrong => "answered wrong",
            Outcome::NotAnswered => "not answered",
        }
    }
}

impl Sample {
    /// What became of the photo (a photo read exactly counts so whatever its solutions).
    pub fn outcome(&self) -> Outcome {
        if self.read_exactly {
            Outcome::ReadExactly
        } else if self.solved_correctly {
            Outcome::AnsweredRight
        } else if self.accepted_wrong {
            Outcome::AnsweredWrong
        } else {
            Outcome::NotAnswered
        }
    }

    /// Why the photo was not read exactly: the reader's message, or how many of the truth's
    /// items were read right and why the puzzle read did not solve. `None` when read exactly.
    pub fn why_not_exact(&self) -> Option<String> {
        if self.read_exactly {
            return None;
        }
        Some(self.error.clone().unwrap_or_else(|| {
            let solve_error = self
                .solve_error
                .as_ref()
                .map(|error| format!("; {error}"))
                .unwrap_or_default();
            format!(
                "{} of {} cells right{solve_error}",
                self.cells_right,
                self.truth.cells.len()
            )
        }))
    }

    /// One photo's record for `eval --json --per-photo`: its path, kind and preset, outcome,
    /// items right, time, and why it was not read exactly.
    pub fn to_json(&self) -> Value {
        json!({
            "photo": self.image.display().to_string(),
            "kind": self.truth.kind,
            "preset": self.truth.preset,
            "outcome": self.outcome().name(),
            "read_exactly": self.read_exactly,
            "solved_correctly": self.solved_correctly,
            "accepted_wrong": self.accepted_wrong,
            "cells_right": self.cells_right,
            "cells": self.truth.cells.len(),
            "ms": self.time.as_secs_f64() * 1000.0,
            "why": self.why_not_exact(),
        })
    }
}

/// Loads the truth beside `image`, if there is one of a kind `eval` can read.
pub fn truth_for(image: &Path) -> Option<Truth> {
    let stem = image.file_stem()?.to_string_lossy().into_owned();
    let json_path = image.with_file_name(format!("{stem}.truth.json"));
    if let Ok(text) = std::fs::read_to_string(&json_path) {
        let value: Value = serde_json::from_str(&text).ok()?;
        return truth_from_json(&value);
    }
    let dat = std::fs::read_to_string(image.with_extension("dat")).ok()?;
    truth_from_dat(&dat)
}

/// A nonogram puzzle's clue lines under `key` (`rows` or `columns`) as the JSON report writes
/// them; `None` when they are not lines of numbers.
pub fn clue_lines(puzzle: &Value, key: &str) -> Option<Vec<Vec<u32>>> {
    puzzle[key]
        .as_array()?
        .iter()
        .map(|line| {
            line.as_array()?
                .iter()
                .map(|n| n.as_u64().map(|n| n as u32))
                .collect()
        })
        .collect()
}

fn truth_from_json(value: &Value) -> Option<Truth> {
    let kind = value["kind"].as_str()?.to_string();
    let preset = value["preset"].as_str().unwrap_or("unknown").to_string();
    let puzzle = value["puzzle"].clone();
    if kind == "nonogram" {
        // Its items are the clue numbers, rows then columns, in reading order.
        let (rows, columns) = (
            clue_lines(&puzzle, "rows")?,
            clue_lines(&puzzle, "columns")?,
        );
        return Some(Truth {
            kind,
            preset,
            rows: rows.len(),
            columns: columns.len(),
            cells: rows
                .iter()
                .chain(&columns)
                .flatten()
                .map(|&n| CellValue::Number(n))
                .collect(),
            puzzle,
            solution: Some(value["solution"].clone()),
        });
    }
    let (rows, columns) = (
        value["height"].as_u64()? as usize,
        value["width"].as_u64()? as usize,
    );
    let mut cells = vec![CellValue::Blank; rows * columns];
    match kind.as_str() {
        "sudoku" => {
            for (cell, digit) in cells.iter_mut().zip(puzzle["givens"].as_str()?.bytes()) {
                if digit != b'0' {
                    *cell = CellValue::Number(u32::from(digit - b'0'));
                }
            }
        }
        "nurikabe" => {
            for clue in puzzle["clues"].as_array()? {
                let (r, c, size) = (
                    clue[0].as_u64()? as usize,
                    clue[1].as_u64()? as usize,
                    clue[2].as_u64()? as u32,
                );
                *cells.get_mut(r * columns + c)? = CellValue::Number(size);
            }
        }
        "jump" => {
            let grid = value["puzzle"]["grid"].as_array()?;
            for (r, row) in grid.iter().enumerate() {
                for (c, jump) in row.as_array()?.iter().enumerate() {
                    match jump.as_u64()? {
                        0 => {}
                        n => *cells.get_mut(r * columns + c)? = CellValue::Number(n as u32),
                    }
                }
            }
        }
        _ => return None,
    }
    Some(Truth {
        kind,
        preset,
        rows,
        columns,
        cells,
        puzzle,
        solution: Some(value["solution"].clone()),
    })
}

fn truth_from_dat(text: &str) -> Option<Truth> {
    let digits: Vec<u32> = text
        .lines()
        .skip(2)
        .flat_map(|l| l.split_whitespace())
        .map(|t| t.parse().ok())
        .collect::<Option<_>>()?;
    if digits.len() != 81 {
        return None;
    }
    let cells: Vec<CellValue> = digits
        .iter()
        .map(|&d| {
            if d == 0 {
                CellValue::Blank
            } else {
                CellValue::Number(d)
            }
        })
        .collect();
    let givens: String = cells
        .iter()
        .map(|c| match c {
            CellValue::Number(n) => char::from_digit(*n, 10).unwrap_or('?'),
            _ => '0',
        })
        .collect();
    Some(Truth {
        kind: "sudoku".into(),
        preset: "real".into(),
        rows: 9,
        columns: 9,
        cells,
        puzzle: json!({ "givens": givens }),
        solution: None,
    })
}

/// Every image in `dir` with a truth beside it, sorted by name.
pub fn images_with_truth(dir: &Path) -> std::io::Result<Vec<(PathBuf, Truth)>> {
    let mut found: Vec<(PathBuf, Truth)> = std::fs::read_dir(dir)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| {
            matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("jpg" | "jpeg" | "png")
            )
        })
        .filter_map(|path| truth_for(&path).map(|truth| (path, truth)))
        .collect();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(found)
}

/// Reads, corrects and solves one photo and compares it with its truth. The photo is read as
/// its truth's kind, or with `detect_kind` as `solve` reads it without `--kind`: a kind taken
/// wrongly then counts as a misread.
pub fn evaluate(image: &Path, truth: Truth, limit: Option<Duration>, detect_kind: bool) -> Sample {
    let started = Instant::now();
    let kind = (!detect_kind).then_some(truth.kind.as_str());
    let photo = crate::solve_image(image, kind, limit);
    let time = started.elapsed();
    let mut sample = Sample {
        image: image.to_path_buf(),
        truth,
        read_exactly: false,
        solved_correctly: false,
        accepted_wrong: false,
        cells_right: 0,
        time,
        error: None,
        solve_error: None,
    };
    let photo = match photo {
        Ok(photo) => photo,
        Err(error) => {
            sample.error = Some(error.to_string());
            return sample;
        }
    };
    if photo.reading.kind() == sample.truth.kind {
        sample.cells_right = cells_right(&photo.reading, &sample.truth);
    }
    match photo.puzzle {
        Ok(corrected) => {
            let puzzle = corrected.puzzle;
            let exact = puzzle.kind() == sample.truth.kind
                && normalised(&puzzle.to_json()) == normalised(&sample.truth.puzzle);
            sample.read_exactly = exact;
            match corrected.solved {
                Ok(solved) => {
                    let accepted = !solved.ambiguous_for(puzzle.as_ref());
                    sample.solved_correctly = accepted
                        && match &sample.truth.solution {
                            Some(_) => answers_truth(&*solved.solution, &sample.truth),
                            None => exact,
                        };
                    sample.accepted_wrong = accepted && !sample.solved_correctly;
                }
                Err(error) => sample.solve_error = Some(error.to_string()),
            }
        }
        Err(error) => sample.error = Some(error.to_string()),
    }
    sample
}

/// Whether `answer` answers the printed puzzle: the truth's solution, or for a jump maze, where
/// several shortest ways out are usual, a legal way out of the truth's maze as short as its
/// shortest. A jump maze's answer can be right though a digit off its way was misread.
fn answers_truth(answer: &dyn Solution, truth: &Truth) -> bool {
    if truth.kind == "jump" {
        JumpMaze::from_json(&truth.puzzle).is_ok_and(|maze| {
            maze.answered_by(answer, &Deadline::after(Duration::from_secs(5))) == Ok(Some(true))
        })
    } else {
        truth.solution.as_ref() == Some(&answer.to_json())
    }
}

/// How many of the truth's items (cells, or a nonogram's clue numbers) were read right.
fn cells_right(read: &Reading, truth: &Truth) -> usize {
    match read {
        Reading::Cells { grid, .. } => {
            if grid.rows != truth.rows || grid.columns != truth.columns {
                return 0;
            }
            grid.cells
                .iter()
                .zip(&truth.cells)
                .filter(|(r, t)| r.value == **t)
                .count()
        }
        Reading::Nonogram(nonogram) => {
            let read_lines = nonogram.clues.rows.iter().chain(&nonogram.clues.columns);
            let truth_lines = ["rows", "columns"]
                .iter()
                .flat_map(|key| truth.puzzle[key].as_array().cloned().unwrap_or_default());
            read_lines
                .zip(truth_lines)
                .map(|(read, truth)| {
                    let truth = truth.as_array().cloned().unwrap_or_default();
                    read.iter()
                        .zip(&truth)
                        .filter(|(r, t)| t.as_u64() == Some(u64::from(r.value)))
                        .count()
                })
                .sum()
        }
    }
}

/// A puzzle's JSON with Nurikabe clues and nonogram givens in row-major order, so that order
/// does not count.
pub fn normalised(puzzle: &Value) -> Value {
    let mut puzzle = puzzle.clone();
    for key in ["clues", "givens"] {
        if let Some(items) = puzzle.get_mut(key).and_then(Value::as_array_mut) {
            items.sort_by_key(|item| (item[0].as_u64(), item[1].as_u64()));
        }
    }
    puzzle
}

/// The figures for one kind and preset.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    pub images: usize,
    pub read_exactly: usize,
    pub solved_correctly: usize,
    pub accepted_wrong: usize,
    pub cells: usize,
    pub cells_right: usize,
    pub times: Vec<Duration>,
}

/// Summaries keyed by (kind, preset).
pub fn summarise(samples: &[Sample]) -> BTreeMap<(String, String), Summary> {
    let mut groups: BTreeMap<(String, String), Summary> = BTreeMap::new();
    for sample in samples {
        let group = groups
            .entry((sample.truth.kind.clone(), sample.truth.preset.clone()))
            .or_default();
        group.images += 1;
        group.read_exactly += usize::from(sample.read_exactly);
        group.solved_correctly += usize::from(sample.solved_correctly);
        group.accepted_wrong += usize::from(sample.accepted_wrong);
        group.cells += sample.truth.cells.len();
        group.cells_right += sample.cells_right;
        group.times.push(sample.time);
    }
    for group in groups.values_mut() {
        group.times.sort();
    }
    groups
}

impl Summary {
    pub fn median_time(&self) -> Duration {
        self.times
            .get(self.times.len() / 2)
            .copied()
            .unwrap_or_default()
    }

    pub fn max_time(&self) -> Duration {
        self.times.last().copied().unwrap_or_default()
    }

    pub fn to_json(&self, kind: &str, preset: &str) -> Value {
        json!({
            "kind": kind,
            "preset": preset,
            "images": self.images,
            "read_exactly": self.read_exactly,
            "solved_correctly": self.solved_correctly,
            "accepted_wrong": self.accepted_wrong,
            "cell_accuracy": self.cells_right as f64 / self.cells.max(1) as f64,
            "median_ms": self.median_time().as_secs_f64() * 1000.0,
            "max_ms": self.max_time().as_secs_f64() * 1000.0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::jump::JumpPath;

    #[test]
    fn dat_truth_is_nine_rows_after_two_header_lines() {
        let dat = "phone\n640x480:24 JPG\n".to_string() + &"0 0 0 7 0 0 0 8 0\n".repeat(9);
        let truth = truth_from_dat(&dat).unwrap();
        assert_eq!(truth.cells[3], CellValue::Number(7));
        assert_eq!(truth.cells[0], CellValue::Blank);
        assert!(truth_from_dat("phone\nformat\n1 2 3\n").is_none());
    }

    #[test]
    fn a_way_out_answers_a_maze_when_it_is_legal_and_shortest_whichever_the_truth_took() {
        // A ring of 1s around a centre 1: 32 shortest ways out of two jumps each.
        let truth = truth_from_json(&json!({
            "kind": "jump",
            "preset": "hard",
            "width": 5,
            "height": 5,
            "puzzle": {
                "grid": [[0, 0, 0, 0, 0], [0, 1, 1, 1, 0], [0, 1, 1, 1, 0], [0, 1, 1, 1, 0],
                         [0, 0, 0, 0, 0]],
                "start": [2, 2]
            },
            "solution": {"path": [[2, 2], [1, 1]], "exit": [0, 0]}
        }))
        .unwrap();
        let way = |cells: Vec<(usize, usize)>, exit| JumpPath { cells, exit };
        assert!(answers_truth(&way(vec![(2, 2), (3, 3)], (4, 4)), &truth));
        assert!(!answers_truth(
            &way(vec![(2, 2), (2, 3), (3, 3)], (4, 4)),
            &truth
        ));
        assert!(!answers_truth(&way(vec![(2, 2)], (0, 2)), &truth));
    }

    #[test]
    fn a_photo_s_outcome_and_record_say_what_solve_made_of_it() {
        let dat = "phone\n640x480:24 JPG\n".to_string() + &"0 0 0 7 0 0 0 8 0\n".repeat(9);
        let sample = Sample {
            image: PathBuf::from("photos/image7.jpg"),
            truth: truth_from_dat(&dat).unwrap(),
            read_exactly: false,
            solved_correctly: false,
            accepted_wrong: false,
            cells_right: 79,
            time: Duration::from_millis(1500),
            error: None,
            solve_error: Some("no solution".to_string()),
        };
        assert_eq!(sample.outcome(), Outcome::NotAnswered);
        let record = sample.to_json();
        assert_eq!(record["photo"], "photos/image7.jpg");
        assert_eq!(record["outcome"], "not answered");
        assert_eq!(
            (record["kind"].as_str(), record["preset"].as_str()),
            (Some("sudoku"), Some("real"))
        );
        assert_eq!(record["ms"], 1500.0);
        assert_eq!(record["why"], "79 of 81 cells right; no solution");
        let wrong = Sample {
            accepted_wrong: true,
            solve_error: None,
            ..sample.clone()
        };
        assert_eq!(wrong.outcome(), Outcome::AnsweredWrong);
        let right = Sample {
            solved_correctly: true,
            solve_error: None,
            ..sample.clone()
        };
        assert_eq!(right.outcome(), Outcome::AnsweredRight);
        let exact = Sample {
            read_exactly: true,
            solved_correctly: true,
            ..sample
        };
        assert_eq!(exact.outcome(), Outcome::ReadExactly);
        assert_eq!(exact.to_json()["why"], Value::Null);
    }

    #[test]
    fn committed_sample_truths_load() {
        let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
        let found = images_with_truth(&samples).unwrap();
        let kinds: Vec<&str> = found.iter().map(|(_, t)| t.kind.as_str()).collect();
        assert_eq!(kinds.iter().filter(|k| **k == "sudoku").count(), 3);
        assert_eq!(kinds.iter().filter(|k| **k == "nurikabe").count(), 3);
        assert_eq!(kinds.iter().filter(|k| **k == "jump").count(), 3);
        let (_, maze) = found.iter().find(|(_, t)| t.kind == "jump").unwrap();
        assert_eq!((maze.rows, maze.columns), (21, 21));
        assert_eq!(maze.cells[9], CellValue::Number(4));
        assert_eq!(maze.cells[0], CellValue::Blank);
        let (_, sudoku) = found.iter().find(|(_, t)| t.kind == "sudoku").unwrap();
        assert_eq!(sudoku.cells[0], CellValue::Number(5));
    }
}
