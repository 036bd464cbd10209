//! Sorts a folder of generated jump-maze photos by why they are not read exactly:
//! `cargo run --release --example jump_debug -- FILE_OR_DIR...`. For each photo: the grid's
//! shape against the truth's, every wrong cell (read/truth@confidence), every unsure cell
//! (below 0.9) and the refusal figures `correct` uses (expected misreads, least confidence).

use std::path::PathBuf;

use gridsight::eval::truth_for;
use gridsight::read::{constrain, CellValue, Reading};

fn main() {
    let mut photos: Vec<PathBuf> = Vec::new();
    let mut dump = false;
    for arg in std::env::args().skip(1) {
        if arg == "--dump" {
            dump = true;
            continue;
        }
        let path = PathBuf::from(arg);
        if path.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(&path)
                .expect("readable folder")
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "jpg"))
                .collect();
            found.sort();
            photos.extend(found);
        } else {
            photos.push(path);
        }
    }
    for photo in photos {
        let name = photo
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let Some(truth) = truth_for(&photo) else {
            continue;
        };
        let grid = match gridsight::read_image(&photo, Some("jump")) {
            Ok(Reading::Cells { grid, .. }) => grid,
            Ok(_) => {
                println!("{name} NOT-CELLS");
                continue;
            }
            Err(e) => {
                println!("{name} NO-GRID {e}");
                continue;
            }
        };
        if grid.rows != truth.rows || grid.columns != truth.columns {
            println!(
                "{name} SHAPE read {}x{} truth {}x{}",
                grid.rows, grid.columns, truth.rows, truth.columns
            );
            for row in grid.cells.chunks(grid.columns.max(1)) {
                let values: Vec<String> = row
                    .iter()
                    .map(|c| match c.value {
                        CellValue::Number(n) => format!("{n}@{:.1}", c.confidence),
                        CellValue::Blank => ".".into(),
                        CellValue::Black => "#".into(),
                    })
                    .collect();
                println!("  {}", values.join(" "));
            }
            continue;
        }
        let grid = constrain(&grid, "jump");
        let numbers: Vec<_> = grid
            .cells
            .iter()
            .filter(|c| matches!(c.value, CellValue::Number(_)))
            .collect();
        let misreads: f32 = numbers.iter().map(|c| 1.0 - c.confidence).sum();
        let least = numbers.iter().map(|c| c.confidence).fold(1.0, f32::min);
        let show = |v: CellValue| match v {
            CellValue::Number(n) => n.to_string(),
            CellValue::Blank => ".".into(),
            CellValue::Black => "#".into(),
        };
        if dump {
            for (cell, t) in grid.cells.iter().zip(&truth.cells) {
                let alternatives: Vec<String> = cell
                    .alternatives
                    .iter()
                    .map(|&(v, p)| format!("{}:{p:.4}", show(v)))
                    .collect();
                println!(
                    "CELL {name} {} {} {} {} {} {:.4} {}",
                    grid.rows,
                    cell.row,
                    cell.column,
                    show(*t),
                    show(cell.value),
                    cell.confidence,
                    alternatives.join(" ")
                );
            }
        }
        let mut wrong = Vec::new();
        let mut unsure = Vec::new();
        for (cell, t) in grid.cells.iter().zip(&truth.cells) {
            let place = format!("r{}c{}", cell.row + 1, cell.column + 1);
            if cell.value != *t {
                wrong.push(format!(
                    "{place}:{}/{}@{:.2}",
                    show(cell.value),
                    show(*t),
                    cell.confidence
                ));
            } else if cell.confidence < 0.9 && matches!(cell.value, CellValue::Number(_)) {
                unsure.push(format!(
                    "{place}:{}@{:.2}",
                    show(cell.value),
                    cell.confidence
                ));
            }
        }
        let refused = misreads > 1.0 || least < 0.6;
        let class = match (wrong.is_empty(), refused) {
            (true, false) => "OK",
            (true, true) => "RIGHT-REFUSED",
            (false, true) => "WRONG-REFUSED",
            (false, false) => "WRONG-ACCEPTED",
        };
        println!(
            "{name} {class} misreads {misreads:.2} least {least:.2} wrong {} [{}] unsure {} [{}]",
            wrong.len(),
            wrong.iter().take(12).cloned().collect::<Vec<_>>().join(" "),
            unsure.len(),
            unsure
                .iter()
                .take(12)
                .cloned()
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
}
