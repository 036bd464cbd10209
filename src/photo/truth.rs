//! Ground truth for a sample image: the `kind`, `puzzle`, `solution` (and `qr`) fields exactly as
//! in the JSON report of FORMATS.md, plus how the image was made; and a checker that reads a
//! truth back and verifies its solution against its puzzle with the library's own checks.

use serde_json::{Map, Value};

use crate::grid::BinaryGrid;
use crate::kinds::jump::{JumpMaze, JumpPath};
use crate::kinds::nonogram::Nonogram;
use crate::kinds::nurikabe::Nurikabe;
use crate::kinds::Puzzle;
use crate::render::{Answer, Drawable};

/// The report fields of the truth: kind, width, height, puzzle, solution, and qr when the
/// solution forms a QR code.
pub fn report_fields(puzzle: &Drawable, answer: &Answer) -> Map<String, Value> {
    let generic = puzzle.as_puzzle();
    let solution = answer.to_solution(puzzle);
    let mut fields = Map::new();
    fields.insert("kind".into(), generic.kind().into());
    fields.insert("width".into(), generic.width().into());
    fields.insert("height".into(), generic.height().into());
    fields.insert("puzzle".into(), generic.to_json());
    fields.insert("solution".into(), solution.to_json());
    if let Some(qr) = solution.qr_text() {
        fields.insert("qr".into(), qr.into());
    }
    fields
}

/// Reads a truth's puzzle and solution back and checks the solution solves the puzzle.
pub fn verify(truth: &Value) -> Result<(), String> {
    let puzzle = &truth["puzzle"];
    let solution = &truth["solution"];
    match truth["kind"].as_str() {
        Some("nonogram") => {
            let nonogram = Nonogram {
                rows: serde_json::from_value(puzzle["rows"].clone()).map_err(|e| e.to_string())?,
                columns: serde_json::from_value(puzzle["columns"].clone())
                    .map_err(|e| e.to_string())?,
                givens: pairs(&puzzle["givens"])?,
                goal: None,
            };
            nonogram
                .is_solved_by(&binary_grid(solution)?)
                .then_some(())
                .ok_or("nonogram solution breaks a clue".into())
        }
        Some("nurikabe") => {
            let clues: Vec<(usize, usize, u32)> =
                serde_json::from_value(puzzle["clues"].clone()).map_err(|e| e.to_string())?;
            let grid = binary_grid(solution)?;
            let map = Nurikabe {
                width: grid.width(),
                height: grid.height(),
                clues,
            };
            let sized = truth["width"].as_u64() == Some(map.width() as u64)
                && truth["height"].as_u64() == Some(map.height() as u64);
            (sized && map.is_solved_by(&grid))
                .then_some(())
                .ok_or("Nurikabe solution breaks a rule".into())
        }
        Some("jump") => {
            let maze = JumpMaze::from_json(puzzle).map_err(|e| e.to_string())?;
            let path = JumpPath {
                cells: pairs(&solution["path"])?,
                exit: serde_json::from_value(solution["exit"].clone())
                    .map_err(|e| e.to_string())?,
            };
            maze.check_path(&path).map(|_| ())
        }
        Some("sudoku") => {
            let givens = puzzle["givens"].as_str().ok_or("sudoku givens missing")?;
            let rows: Vec<String> =
                serde_json::from_value(solution.clone()).map_err(|e| e.to_string())?;
            sudoku_solves(givens, &rows.concat())
                .then_some(())
                .ok_or("sudoku solution is wrong".into())
        }
        other => Err(format!("unknown kind {other:?}")),
    }
}

fn pairs(value: &Value) -> Result<Vec<(usize, usize)>, String> {
    serde_json::from_value(value.clone()).map_err(|e| e.to_string())
}

fn binary_grid(value: &Value) -> Result<BinaryGrid, String> {
    let rows: Vec<String> = serde_json::from_value(value.clone()).map_err(|e| e.to_string())?;
    BinaryGrid::parse(&rows.join("\n")).ok_or_else(|| "solution rows are not a grid".to_string())
}

/// Whether the 81 digits of `filled` keep `givens` and hold 1-9 once in every row, column, box.
fn sudoku_solves(givens: &str, filled: &str) -> bool {
    let g: Vec<u8> = givens.bytes().map(|b| b.wrapping_sub(b'0')).collect();
    let f: Vec<u8> = filled.bytes().map(|b| b.wrapping_sub(b'0')).collect();
    if g.len() != 81 || f.len() != 81 || g.iter().zip(&f).any(|(&g, &f)| g != 0 && g != f) {
        return false;
    }
    let complete = |cells: &mut dyn Iterator<Item = usize>| {
        let cells: Vec<usize> = cells.collect();
        let mut seen = [false; 10];
        cells.into_iter().all(|i| {
            (1..=9).contains(&f[i]) && !std::mem::replace(&mut seen[usize::from(f[i])], true)
        })
    };
    (0..9).all(|k| {
        complete(&mut (0..9).map(|i| k * 9 + i))
            && complete(&mut (0..9).map(|i| i * 9 + k))
            && complete(&mut (0..9).map(|i| (k / 3 * 3 + i / 3) * 9 + k % 3 * 3 + i % 3))
    })
}
