//! Sorts a folder of generated jump-maze photos by why they are not read exactly:
//! `cargo run --release --example jump_debug -- FILE_OR_DIR...`. For each photo: the grid's
//! shape against the truth's, every wrong cell (read/truth@confidence), every unsure cell
//! (below 0.9), the refusal figures `correct` uses (expected misreads, least confidence) and
//! whether `correct` refuses the reading, as the CLI does.

mod common;

use gridsight::eval::truth_for;
use gridsight::read::{constrain, correct, CellValue, Doubt, Reading};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let dump = args.iter().any(|arg| arg == "--dump");
    args.retain(|arg| arg != "--dump");
    for photo in common::photos(&args, common::is_jpeg) {
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
        let doubt = Doubt::of(&grid.cells);
        let (misreads, least) = (doubt.misreads, doubt.least);
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
        // Judged as the CLI judges it: refused (unsure digits, a hole, the way up in doubt)
        // or accepted with the corrections the solver asked for.
        let judged = correct(&grid, "jump", None);
        let corrections = judged.as_ref().map_or(&[][..], |(_, c)| c.as_slice());
        let mut wrong = Vec::new();
        let mut unsure = Vec::new();
        for (cell, t) in grid.cells.iter().zip(&truth.cells) {
            let place = format!("r{}c{}", cell.row + 1, cell.column + 1);
            let value = corrections
                .iter()
                .find(|c| c.place == place)
                .map_or(cell.value, |c| c.corrected);
            if value != *t {
                wrong.push(format!(
                    "{place}:{}/{}@{:.2}",
                    show(value),
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
        let refused = judged.is_err();
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
