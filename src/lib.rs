//! gridsight: from a printed logic puzzle to its solution.
//!
//! The pipeline, one module per stage, data flowing one way:
//! photo -> [`detect`] (the grid's [`detect::Lattice`]) -> [`read`] (cells to a
//! [`kinds::Puzzle`], corrected with the solvers' help) -> [`solve`] (puzzle to
//! [`solve::Solved`]) -> [`report`] / [`output`] (solution text, JSON report, images).
//! Text skips the first two stages through [`input`]. Each puzzle kind lives in [`kinds`];
//! [`qr`] decodes a solved grid that is a QR code; [`render`] and [`photo`] draw pages and
//! simulate photos of them; [`eval`] measures reading accuracy; [`batch`] runs many inputs.

pub mod animate;
pub mod annotate;
pub mod batch;
pub mod detect;
pub mod error;
pub mod eval;
pub mod grid;
pub mod input;
pub mod kinds;
pub mod limits;
pub mod outcome;
pub mod output;
pub mod photo;
pub mod qr;
pub mod read;
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
            read_time,
            ..Report::new(path.to_string(), Err(error))
        }],
        Ok(puzzles) => {
            let several = puzzles.len() > 1;
            puzzles
                .into_iter()
                .enumerate()
                .map(|(i, puzzle)| {
                    let input = if several {
                        format!("{path}[{}]", i + 1)
                    } else {
                        path.to_string()
                    };
                    let result = solve::solve_with(puzzle.as_ref(), limit, explain)
                        .map(|solved| (puzzle, solved));
                    Report {
                        read_time,
                        ..Report::new(input, result)
                    }
                })
                .collect()
        }
    }
}

/// Whether the file at `path` starts like a JPEG or PNG image.
pub fn is_image_file(path: &std::path::Path) -> bool {
    let mut start = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut file| std::io::Read::read_exact(&mut file, &mut start))
        .is_ok_and(|()| start[..3] == [0xff, 0xd8, 0xff] || start == [0x89, b'P', b'N', b'G'])
}

/// Loads the photo at `path` upright, finds its grid and reads every cell, without solving.
pub fn read_image(path: &std::path::Path) -> Result<read::GridRead, Error> {
    let image = detect::load_upright(path)?;
    let gray = detect::grayscale(&image);
    let lattice = detect::find_lattice(&gray)?;
    Ok(read::read_grid(&gray, &lattice, read::bundled_classifier()))
}

/// The whole pipeline on a photo: detect the grid, read it (as `kind` when given), correct the
/// reading with the solver's help, solve, and draw the solution into the photo at `annotated`.
pub fn solve_image_file(
    path: &str,
    kind: Option<&dyn Kind>,
    limit: Option<Duration>,
    explain: bool,
    annotated: Option<&std::path::Path>,
) -> Report {
    let started = Instant::now();
    let detected = detect::load_upright(std::path::Path::new(path))
        .map_err(Error::from)
        .and_then(|image| {
            let gray = detect::grayscale(&image);
            let lattice = detect::find_lattice(&gray)?;
            Ok((image, gray, lattice))
        });
    let detect_time = started.elapsed();
    let mut report = Report {
        detect_time,
        ..Report::new(path.to_string(), Err(Error::NoSolution))
    };
    let (image, gray, lattice) = match detected {
        Ok(found) => found,
        Err(error) => {
            report.result = Err(error);
            return report;
        }
    };
    let started = Instant::now();
    let grid = read::read_grid(&gray, &lattice, read::bundled_classifier());
    let kind_name = kind.map_or_else(|| read::guess_kind(&grid), |k| k.name());
    report.stages.push(format!(
        "detect: {}x{} image, {}x{} lattice",
        image.width(),
        image.height(),
        lattice.rows,
        lattice.columns
    ));
    report.stages.push(format!(
        "read: as a {kind_name}, turned {} quarter turns, {} numbers",
        grid.quarter_turns,
        grid.cells
            .iter()
            .filter(|c| matches!(c.value, read::CellValue::Number(_)))
            .count()
    ));
    for cell in grid.cells.iter().filter(|c| c.confidence < LOW_CONFIDENCE) {
        report.stages.push(format!(
            "read: r{}c{} is {} with confidence {:.2}",
            cell.row + 1,
            cell.column + 1,
            cell.value,
            cell.confidence
        ));
    }
    let corrected = read::correct(&grid, kind_name, limit);
    report.read_time = started.elapsed();
    report.result = corrected.and_then(|(puzzle, corrections)| {
        report.corrections = corrections.iter().map(ToString::to_string).collect();
        solve::solve_with(puzzle.as_ref(), limit, explain).map(|solved| (puzzle, solved))
    });
    if let (Some(target), Ok((puzzle, solved))) = (annotated, &report.result) {
        let started = Instant::now();
        let geometry = annotate::PhotoGeometry {
            image,
            lattice,
            quarter_turns: grid.quarter_turns,
        };
        let picture = annotate::annotate(&geometry, puzzle.as_ref(), solved);
        match output::write_png(&picture, target) {
            Ok(()) => report.annotated = Some(target.to_string_lossy().into_owned()),
            Err(error) => {
                report.result = Err(Error::Output(format!(
                    "cannot write {}: {error}",
                    target.display()
                )))
            }
        }
        report.render_time = started.elapsed();
    }
    report
}

/// Reads less sure than this are listed by `--verbose`.
const LOW_CONFIDENCE: f32 = 0.9;

/// Where the annotated photo of `input` goes by default: `NAME.solved.png` beside it.
pub fn default_annotated_path(input: &std::path::Path) -> std::path::PathBuf {
    let stem = input
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    input.with_file_name(format!("{stem}.solved.png"))
}
