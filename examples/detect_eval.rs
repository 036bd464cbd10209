//! Measures the detect stage over photos: `cargo run --release --example detect_eval -- [--png
//! DIR] FILE_OR_DIR...`. A photo with `NAME.truth.json` beside it is checked against the
//! truth's grid size and corners (within 2% of the grid size, any quarter turn); one with
//! `NAME.dat` beside it (the newspaper Sudoku set) must give a 9x9 lattice. Prints one line per
//! photo, the found rate, and with `--png` writes each photo shrunk with its lattice drawn on.
//! With `--truth-outline` the lines are counted inside the truth's grid corners instead of an
//! outline found in the photo: whether a failure is the outline's or the line count's.

mod common;

use std::path::{Path, PathBuf};
use std::time::Instant;

use gridsight::detect::{
    find_lattice_in_outline, find_lattice_inspected, load_upright, Inspection, Lattice,
};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let png = match args.iter().position(|a| a == "--png") {
        Some(i) if i + 1 < args.len() => {
            let dir = PathBuf::from(args.remove(i + 1));
            args.remove(i);
            Some(dir)
        }
        _ => None,
    };
    let truth_outline = args.iter().any(|a| a == "--truth-outline");
    let list_outlines = args.iter().any(|a| a == "--outlines");
    args.retain(|a| a != "--truth-outline" && a != "--outlines");
    let photos = common::photos(&args, |file| {
        common::is_jpeg(file) || file.extension().is_some_and(|extension| extension == "png")
    });
    let (mut good, mut total) = (0, 0);
    for photo in &photos {
        total += 1;
        let started = Instant::now();
        let verdict = match load_upright(photo) {
            Err(e) => format!("load error: {e}"),
            Ok(rgb) => {
                // The pipeline's own gray (truncated, not rounded as `to_luma8` does): a grid
                // whose line count is on the edge may come out another size from a gray one
                // level off.
                let gray = gridsight::detect::grayscale(&rgb);
                let loaded = started.elapsed();
                let found = if truth_outline {
                    match truth_corners(photo) {
                        Some(corners) => find_lattice_in_outline(&gray, corners),
                        None => find_lattice_inspected(&gray, None),
                    }
                } else {
                    let mut seen = Inspection::default();
                    let found = find_lattice_inspected(&gray, Some(&mut seen));
                    if list_outlines {
                        for outline in &seen.outlines {
                            println!(
                                "  outline off the truth by {}: {}",
                                truth_corners(photo).map_or("?".into(), |truth| format!(
                                    "{:.1}%",
                                    100.0 * outline_error(&outline.corners, &truth)
                                )),
                                outline.failure.as_deref().unwrap_or("lattice")
                            );
                        }
                    }
                    found
                };
                let detect = started.elapsed() - loaded;
                let verdict = match &found {
                    Err(e) => format!("FAIL {e}"),
                    Ok(lattice) => match judge(photo, lattice) {
                        Ok(note) => {
                            good += 1;
                            format!("ok {note}")
                        }
                        Err(note) => format!("FAIL {note}"),
                    },
                };
                if let Some(dir) = &png {
                    draw(
                        &gray,
                        found.ok().as_ref(),
                        &dir.join(photo.file_name().unwrap()),
                    );
                }
                format!(
                    "{verdict} (load {:.0} ms, detect {:.0} ms)",
                    loaded.as_secs_f64() * 1e3,
                    detect.as_secs_f64() * 1e3
                )
            }
        };
        println!("{}: {verdict}", photo.display());
    }
    println!(
        "found {good}/{total} ({:.1}%)",
        100.0 * good as f64 / total.max(1) as f64
    );
}

/// The truth's grid corners in the upright photo, when a truth file is beside it.
fn truth_corners(photo: &Path) -> Option<[(f64, f64); 4]> {
    let text = std::fs::read_to_string(photo.with_extension("truth.json")).ok()?;
    let truth: serde_json::Value = serde_json::from_str(&text).ok()?;
    let corners = truth["grid_corners_upright"].as_array()?;
    let point = |k: usize| {
        let p = corners.get(k)?;
        Some((p[0].as_f64()?, p[1].as_f64()?))
    };
    Some([point(0)?, point(1)?, point(2)?, point(3)?])
}

/// Checks a lattice against the truth or `.dat` beside the photo.
fn judge(photo: &Path, lattice: &Lattice) -> Result<String, String> {
    let size = format!("{}x{}", lattice.rows, lattice.columns);
    if photo.with_extension("dat").exists() {
        return if (lattice.rows, lattice.columns) == (9, 9) {
            Ok(size)
        } else {
            Err(size)
        };
    }
    let truth_path = photo.with_extension("truth.json");
    let Ok(text) = std::fs::read_to_string(&truth_path) else {
        return Ok(format!("{size} (no truth)"));
    };
    let truth: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let corners: Vec<(f32, f32)> = truth["grid_corners_upright"]
        .as_array()
        .ok_or("truth without corners")?
        .iter()
        .map(|p| {
            (
                p[0].as_f64().unwrap_or(0.0) as f32,
                p[1].as_f64().unwrap_or(0.0) as f32,
            )
        })
        .collect();
    let (width, height) = (
        truth["width"].as_u64().unwrap_or(0) as usize,
        truth["height"].as_u64().unwrap_or(0) as usize,
    );
    let (r, c) = (lattice.rows, lattice.columns);
    let mine = lattice.outer_corners().map(|(x, y)| (x as f32, y as f32));
    let side = (0..4)
        .map(|i| distance(corners[i], corners[(i + 1) % 4]))
        .fold(0.0, f32::max);
    let (turn, error) = (0..4)
        .map(|t| {
            let e = (0..4)
                .map(|i| distance(mine[(i + t) % 4], corners[i]))
                .fold(0.0, f32::max);
            (t, e)
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap_or((0, f32::MAX));
    let expected = if turn % 2 == 0 {
        (height, width)
    } else {
        (width, height)
    };
    let note = format!(
        "{size} truth {height}x{width} corner error {:.2}% turn {turn}",
        100.0 * error / side
    );
    if (r, c) == expected && error <= 0.02 * side {
        Ok(note)
    } else {
        Err(note)
    }
}

/// The largest distance from a corner of `outline` to the nearest of `truth`'s, as a share of
/// the truth's longest side.
fn outline_error(outline: &[(f64, f64); 4], truth: &[(f64, f64); 4]) -> f64 {
    let length = |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).hypot(a.1 - b.1);
    let side = (0..4)
        .map(|i| length(truth[i], truth[(i + 1) % 4]))
        .fold(0.0, f64::max);
    outline
        .iter()
        .map(|&p| truth.iter().map(|&q| length(p, q)).fold(f64::MAX, f64::min))
        .fold(0.0, f64::max)
        / side
}

fn distance(a: (f32, f32), b: (f32, f32)) -> f32 {
    (a.0 - b.0).hypot(a.1 - b.1)
}

/// Writes the photo shrunk to about 900 pixels with the lattice's points marked.
fn draw(gray: &image::GrayImage, lattice: Option<&Lattice>, path: &Path) {
    let scale = (900.0 / gray.width().max(gray.height()) as f32).min(1.0);
    let (w, h) = (
        (gray.width() as f32 * scale) as u32,
        (gray.height() as f32 * scale) as u32,
    );
    let small = image::imageops::resize(gray, w, h, image::imageops::FilterType::Triangle);
    let mut out = image::DynamicImage::ImageLuma8(small).to_rgb8();
    for row in lattice.map(|l| &l.points[..]).unwrap_or(&[]) {
        for &(x, y) in row {
            let (x, y) = ((x * scale) as i64, (y * scale) as i64);
            for d in -2..=2 {
                for (px, py) in [(x + d, y), (x, y + d)] {
                    if px >= 0 && py >= 0 && (px as u32) < w && (py as u32) < h {
                        out.put_pixel(px as u32, py as u32, image::Rgb([255, 0, 0]));
                    }
                }
            }
        }
    }
    let _ = out.save(path.with_extension("png"));
}
