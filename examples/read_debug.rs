//! Shows where the read stage goes wrong on photos of grids of numbers (Sudoku, Nurikabe, jump)
//! with truths beside them (`.dat` or `.truth.json`): `cargo run --release --example read_debug
//! -- [--png DIR] FILE_OR_DIR...`. Prints whether the corrected reading is exact and each wrong
//! cell (truth -> read, confidence, how many cells are less sure, where the truth stands among
//! its alternatives) and a confusion count over all photos; with `--png` writes each wrong
//! cell's crop beside its normalised glyphs, enlarged, to look at. Nonogram photos are skipped.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use gridsight::detect::{find_lattice, load_upright};
use gridsight::eval::{normalised, truth_for};
use gridsight::read::glyphs::{read_cell_with_paper, CellContent, SIDE};
use gridsight::read::{constrain, read_puzzle, source_cell, CellValue, Reading};
use image::{GrayImage, Luma};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let png = match args.iter().position(|a| a == "--png") {
        Some(i) if i + 1 < args.len() => {
            let dir = PathBuf::from(args.remove(i + 1));
            args.remove(i);
            std::fs::create_dir_all(&dir).expect("writable folder");
            Some(dir)
        }
        _ => None,
    };
    let photos = common::photos(&args, common::is_jpeg);
    let mut confusion: BTreeMap<(String, String), usize> = BTreeMap::new();
    for photo in &photos {
        let Some(truth) = truth_for(photo) else {
            continue;
        };
        let Ok(rgb) = load_upright(photo) else {
            continue;
        };
        let gray = gridsight::detect::grayscale(&rgb);
        let Ok(lattice) = find_lattice(&gray) else {
            println!("{}: no grid", show(photo));
            continue;
        };
        let mut reading = read_puzzle(&gray, &lattice, Some(&truth.kind));
        // As the CLI corrects it: the numbers are re-read at more ink splits when the grid
        // does not solve uniquely as read, and the cells listed below are those.
        let corrected = match reading.correct(None) {
            Ok((puzzle, _)) => {
                if normalised(&puzzle.to_json()) == normalised(&truth.puzzle) {
                    "exact"
                } else {
                    "WRONG"
                }
            }
            Err(_) => "UNREADABLE",
        };
        let Reading::Cells {
            grid: read, kind, ..
        } = reading
        else {
            continue;
        };
        if (read.rows, read.columns) != (truth.rows, truth.columns) {
            println!(
                "{}: lattice {}x{} for {}x{}",
                show(photo),
                read.rows,
                read.columns,
                truth.rows,
                truth.columns
            );
            continue;
        }
        let read = constrain(&read, &kind);
        let columns = read.columns;
        let mut wrong = Vec::new();
        for (i, (cell, want)) in read.cells.iter().zip(&truth.cells).enumerate() {
            if cell.value == *want {
                continue;
            }
            let (t, r) = (name(*want), name(cell.value));
            *confusion.entry((t.clone(), r.clone())).or_default() += 1;
            let doubt_rank = read
                .cells
                .iter()
                .filter(|c| !c.alternatives.is_empty() && c.confidence < cell.confidence)
                .count();
            let truth_at = cell
                .alternatives
                .iter()
                .position(|(v, _)| v == want)
                .map_or("-".to_string(), |k| (k + 1).to_string());
            wrong.push(format!(
                "r{}c{} {t}->{r} {:.2} doubt#{doubt_rank} truth@{truth_at}",
                i / columns + 1,
                i % columns + 1,
                cell.confidence
            ));
            if let Some(dir) = &png {
                let (row, column) = source_cell(
                    i / columns,
                    i % columns,
                    read.quarter_turns,
                    read.rows,
                    columns,
                );
                let crop = lattice.cell_image(&gray, row, column, 64, 0.08);
                let stem = photo.file_stem().unwrap_or_default().to_string_lossy();
                sheet(&crop)
                    .save(dir.join(format!(
                        "{stem}_r{}c{}_{t}_{r}.png",
                        i / columns + 1,
                        i % columns + 1
                    )))
                    .expect("png written");
            }
        }
        println!(
            "{}: {corrected} turns {} {}",
            show(photo),
            read.quarter_turns,
            wrong.join(", ")
        );
    }
    let mut pairs: Vec<_> = confusion.into_iter().collect();
    pairs.sort_by_key(|pair| std::cmp::Reverse(pair.1));
    for ((t, r), n) in pairs {
        println!("{t} -> {r}: {n}");
    }
}

fn name(value: CellValue) -> String {
    match value {
        CellValue::Blank => "_".into(),
        CellValue::Black => "#".into(),
        CellValue::Number(n) => n.to_string(),
    }
}

fn show(path: &Path) -> String {
    path.file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into()
}

/// The crop (x3) with its normalised glyphs (x3) to its right. The paper level is the crop's
/// own, so the glyphs can differ slightly from the grid-wide reading.
fn sheet(crop: &GrayImage) -> GrayImage {
    let glyphs = match read_cell_with_paper(crop, 200.0) {
        CellContent::Glyphs(g) => g,
        _ => Vec::new(),
    };
    let scale = 3;
    let width = crop.width() * scale + (glyphs.len() as u32) * (SIDE as u32 * scale + 4);
    let mut out = GrayImage::from_pixel(width.max(1), crop.height() * scale, Luma([128]));
    for (x, y, p) in crop.enumerate_pixels() {
        for d in 0..scale * scale {
            out.put_pixel(x * scale + d % scale, y * scale + d / scale, *p);
        }
    }
    for (k, glyph) in glyphs.iter().enumerate() {
        let x0 = crop.width() * scale + 4 + k as u32 * (SIDE as u32 * scale + 4);
        for (i, v) in glyph.pixels.iter().enumerate() {
            let level = Luma([(255.0 * (1.0 - v)) as u8]);
            let (x, y) = ((i % SIDE) as u32, (i / SIDE) as u32);
            for d in 0..scale * scale {
                out.put_pixel(x0 + x * scale + d % scale, y * scale + d / scale, level);
            }
        }
    }
    out
}
