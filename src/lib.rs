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
pub mod debug_images;
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

/// Loads the photo at `path` upright, finds its grid and reads the puzzle (as `kind` when
/// given), without correcting or solving.
pub fn read_image(path: &std::path::Path, kind: Option<&str>) -> Result<read::Reading, Error> {
    Ok(read_image_on_lattice(path, kind)?.2)
}

/// [`read_image`], with the photo upright in grey and the lattice the puzzle was read on: for
/// tools that look at what was read where (the digit trainer harvests glyphs so).
pub fn read_image_on_lattice(
    path: &std::path::Path,
    kind: Option<&str>,
) -> Result<(image::GrayImage, detect::Lattice, read::Reading), Error> {
    let (gray, found) = found_in_photo(path)?;
    let (lattice, reading) = read_found(&gray, found, kind);
    Ok((gray, lattice, reading))
}

/// The photo at `path` upright in grey, and its puzzle's lattice.
fn found_in_photo(path: &std::path::Path) -> Result<(image::GrayImage, Found), Error> {
    read::classifier::forget_readings();
    let gray = detect::grayscale(&detect::load_upright(path)?);
    let found = find_any_lattice(&gray, None)?;
    Ok((gray, found))
}

/// Loads the photo at `path` upright, finds its grid, reads the puzzle (as `kind` when given;
/// see [`solve_found`] for a kind guessed), corrects the reading and solves it.
pub fn solve_image(
    path: &std::path::Path,
    kind: Option<&str>,
    limit: Option<Duration>,
) -> Result<PhotoSolve, Error> {
    let (gray, found) = found_in_photo(path)?;
    Ok(solve_found(&gray, found, kind, limit, false))
}

/// [`read_image`] with the grid's outline given (`corners` in the upright photo's pixels, a
/// generated photo's truth grid corners) instead of looked for: measures reading apart from
/// finding the outline.
pub fn read_image_in_outline(
    path: &std::path::Path,
    kind: Option<&str>,
    corners: [(f64, f64); 4],
) -> Result<read::Reading, Error> {
    read::classifier::forget_readings();
    let gray = detect::grayscale(&detect::load_upright(path)?);
    let lattice = detect::find_lattice_in_outline(&gray, corners)?;
    Ok(read_found(&gray, (lattice, Frame::Outline), kind).1)
}

/// A lattice found in a photo, and what bounds it.
type Found = (detect::Lattice, Frame);

/// What bounds a lattice found in a photo. Reading grows any but a trimmed one over the ruled
/// cells beyond it (see [`read_found`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Frame {
    /// A four-sided grid's outline.
    Outline,
    /// A lattice with one outer row or column taken off on purpose (see
    /// [`on_nearby_lattice`]): read as it stands, where growing would put the row back.
    Trimmed,
    /// No frame: a lattice of digits.
    Digits,
    /// No frame: a grid's cells found one by one (see [`detect::find_cell_lattice`]). Its
    /// lines are where its cells are, so they are not counted and followed again inside its
    /// corners: that is the outline's way, which the bowed grids found so do not suit, and on a
    /// hard photo whose clues did not add up it gave a reading that solved uniquely, wrong.
    Cells,
}

/// The puzzle's lattice in `gray`: a four-sided grid, or failing that a lattice of digits
/// without a frame (the jump maze), or the grid around it when its "digits" are a blurred
/// grid's line crossings, or last the grid found only with its lines followed from one end;
/// the grid's error when none is found.
fn find_any_lattice(
    gray: &image::GrayImage,
    inspection: Option<&mut detect::Inspection>,
) -> Result<Found, detect::DetectError> {
    match detect::find_lattice_or_last_resort(gray, inspection) {
        Ok(lattice) => Ok((lattice, Frame::Outline)),
        Err(none) => detect::find_glyph_lattice(gray)
            .map(
                |digits| match detect::grid_around_crossings(gray, &digits) {
                    Some(grid) => (grid, Frame::Outline),
                    None => (digits, Frame::Digits),
                },
            )
            .or_else(|_| {
                none.last_resort
                    .map(|grid| (grid, Frame::Outline))
                    .ok_or(none.error)
            })
            .or_else(|error| {
                detect::find_cell_lattice(gray)
                    .map(|cells| (cells, Frame::Cells))
                    .map_err(|_| error)
            }),
    }
}

/// Reads the lattice found (as `kind` when given). A four-sided grid that reads as full of
/// numbers as a jump maze may be part of a boxed maze's outline or of the print around a maze,
/// so the lattice of digits is read too and kept when it reads as a jump maze and the grid does
/// not (or holds fewer numbers).
fn read_found(
    gray: &image::GrayImage,
    (lattice, frame): Found,
    kind: Option<&str>,
) -> (detect::Lattice, read::Reading) {
    let reading = read::read_puzzle(gray, &lattice, kind);
    if frame != Frame::Trimmed && kind.is_none_or(|kind| kind == "nonogram") {
        // A boxed nonogram's outline is an L: the lattice found in it may miss clue boxes.
        let grown = detect::grow::grow(gray, &lattice);
        if grown != lattice {
            let grown_reading = read::read_puzzle(gray, &grown, kind);
            if grown_reading.is_boxed_nonogram() {
                return (grown, grown_reading);
            }
        }
    }
    let read::Reading::Cells { grid, .. } = &reading else {
        return (lattice, reading);
    };
    let maze_allowed = kind.is_none_or(|kind| kind == "jump");
    // Told it is a maze, a framed grid that does not read as one (a boxed maze's box outline,
    // a box printed beside it) is no reason not to look for the lattice of digits.
    let maze_told = kind == Some("jump") && !read::looks_like_jump(grid);
    if !maze_allowed
        || frame == Frame::Digits
        || (!maze_told && grid.numbers() * 20 < grid.cells.len() * 9)
    {
        return (lattice, reading);
    }
    let Ok(digits) = detect::find_glyph_lattice(gray) else {
        return (lattice, reading);
    };
    let digits_reading = read::read_puzzle(gray, &digits, kind);
    if let read::Reading::Cells {
        grid: digits_grid, ..
    } = &digits_reading
    {
        let maze = read::looks_like_jump(digits_grid);
        if maze && (!read::looks_like_jump(grid) || digits_grid.numbers() > grid.numbers()) {
            return (digits, digits_reading);
        }
    }
    (lattice, reading)
}

/// The whole pipeline on a photo: detect the grid, read it (as `kind` when given), correct the
/// reading with the solver's help, solve, and draw the solution into the photo at `annotated`.
/// With `debug`, the pictures of what detect and read saw are added to it, even when they fail.
pub fn solve_image_file(
    path: &str,
    kind: Option<&dyn Kind>,
    limit: Option<Duration>,
    explain: bool,
    annotated: Option<&std::path::Path>,
    mut debug: Option<&mut debug_images::DebugImages>,
) -> Report {
    let started = Instant::now();
    // Each photo is read from scratch (see `read::classifier::forget_readings`).
    read::classifier::forget_readings();
    let mut inspection = debug.is_some().then(detect::Inspection::default);
    let detected = detect::load_upright(std::path::Path::new(path))
        .map_err(Error::from)
        .map(|image| {
            let gray = detect::grayscale(&image);
            let found = find_any_lattice(&gray, inspection.as_mut());
            if let (Some(debug), Some(seen)) = (debug.as_deref_mut(), &inspection) {
                debug.add_detect(&image, seen, found.as_ref().ok().map(|f| &f.0));
            }
            (image, gray, found)
        });
    let detect_time = started.elapsed();
    let mut report = Report {
        detect_time,
        ..Report::new(path.to_string(), Err(Error::NoSolution))
    };
    let (image, gray, found) = match detected {
        Ok((image, gray, Ok(found))) => (image, gray, found),
        Ok((_, _, Err(error))) => {
            report.result = Err(error.into());
            return report;
        }
        Err(error) => {
            report.result = Err(error);
            return report;
        }
    };
    let started = Instant::now();
    let photo = solve_found(&gray, found, kind.map(|k| k.name()), limit, explain);
    if let Some(debug) = debug {
        debug.add_read(&gray, &photo.lattice, &photo.reading);
    }
    report.stages.push(format!(
        "detect: {}x{} image, {}x{} lattice",
        image.width(),
        image.height(),
        photo.lattice.rows,
        photo.lattice.columns
    ));
    report.stages.extend(photo.stages);
    let lattice = photo.reading.puzzle_lattice(&photo.lattice);
    let quarter_turns = photo.reading.quarter_turns();
    report.result = photo.puzzle.and_then(|corrected| {
        report.corrections = corrected
            .corrections
            .iter()
            .map(ToString::to_string)
            .collect();
        corrected.solved.map(|solved| (corrected.puzzle, solved))
    });
    let solve_time = report
        .result
        .as_ref()
        .map_or(Duration::ZERO, |(_, s)| s.time);
    report.read_time = started.elapsed().saturating_sub(solve_time);
    if let (Some(target), Ok((puzzle, solved))) = (annotated, &report.result) {
        let started = Instant::now();
        let geometry = annotate::PhotoGeometry {
            image,
            lattice,
            quarter_turns,
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

/// A photo's puzzle as read, corrected and solved.
pub struct PhotoSolve {
    /// The lattice the puzzle was read from (it may be another than the one detect found:
    /// see [`read_found`]).
    pub lattice: detect::Lattice,
    pub reading: read::Reading,
    /// What reading found, one line each, for `--verbose`.
    pub stages: Vec<String>,
    /// The puzzle with the solver's corrections and what solving it gave, or why the reading
    /// makes no puzzle.
    pub puzzle: Result<CorrectedPuzzle, Error>,
}

/// A puzzle read from a photo, corrected with the solver's help.
pub struct CorrectedPuzzle {
    pub puzzle: Box<dyn kinds::Puzzle>,
    pub corrections: Vec<read::Correction>,
    pub solved: Result<solve::Solved, Error>,
}

impl PhotoSolve {
    /// Whether the photo gave a puzzle with exactly one solution.
    fn solved_uniquely(&self) -> bool {
        self.ambiguity() == Some(false)
    }

    /// Whether the puzzle the photo gave has more than one solution; `None` when it gave no
    /// puzzle, or its puzzle was not solved.
    fn ambiguity(&self) -> Option<bool> {
        let corrected = self.puzzle.as_ref().ok()?;
        let solved = corrected.solved.as_ref().ok()?;
        Some(solved.ambiguous_for(corrected.puzzle.as_ref()))
    }

    /// Whether this is a nonogram's reading with several solutions where `failed`, a reading of
    /// the same photo, made no puzzle: the reading to report of the two. Magazine-7 (a puzzle
    /// printed with two solutions) read every clue as printed once smoothed, on a lattice near
    /// the one found, and had been refused with the first reading's "rows and columns do not
    /// agree".
    fn reads_a_puzzle_where_none(&self, failed: &PhotoSolve) -> bool {
        self.reading.kind() == "nonogram"
            && failed.reading.kind() == "nonogram"
            && failed.puzzle.is_err()
            && self.has_several_solutions()
    }

    /// Whether the photo gave a puzzle with more than one solution.
    fn has_several_solutions(&self) -> bool {
        self.ambiguity() == Some(true)
    }

    /// Why this reading failed in a way that reading the photo as another kind may mend: it
    /// makes no puzzle, one without a solution, or an ambiguous one; `None` when it solved, or
    /// stopped for a reason no kind changes (a time limit).
    fn failure(&self) -> Option<String> {
        match &self.puzzle {
            Err(error @ Error::Unreadable(_)) => Some(error.to_string()),
            Ok(corrected) => match &corrected.solved {
                Err(Error::NoSolution) => Some(Error::NoSolution.to_string()),
                Ok(solved) if solved.ambiguous_for(corrected.puzzle.as_ref()) => {
                    Some("it has several solutions".to_string())
                }
                _ => None,
            },
            Err(_) => None,
        }
    }
}

/// The kinds a photo is read as when its reading as the kind it looked like fails, in turn:
/// the kinds the solver checks hardest first, the jump maze (any way out makes sense) last.
const OTHER_KINDS: [&str; 4] = ["sudoku", "nurikabe", "nonogram", "jump"];

/// Whether a photo whose `first` reading failed may be read as `other`: not after a
/// nonogram's reading (clues all round show no other kind), as a nonogram only where the grid
/// held few numbers (reading clues on every side costs the most), as a Sudoku only on a 9x9
/// lattice.
fn may_be_read_as(first: &PhotoSolve, other: &str) -> bool {
    let first_kind = first.reading.kind();
    first_kind != "nonogram"
        && other != first_kind
        && (other != "nonogram" || first.reading.may_be_nonogram())
        && (other != "sudoku" || (first.lattice.rows, first.lattice.columns) == (9, 9))
}

/// Reads the puzzle on `found` (as `kind` when given), corrects it with the solver's help and
/// solves it (see [`read_and_solve_any_kind`]); when that fails, reads it all again on the
/// photo smoothed around the lattice (see [`read::smoothing`]), and takes that reading if it
/// solves uniquely, or reads a nonogram into a puzzle where the first reading made none (see
/// [`PhotoSolve::reads_a_puzzle_where_none`]). A photo that reads as taken is not read smoothed: on clean photos with small
/// digits smoothing lost a few (3 of 160 nonogram `photo` dev photos). A failure says what it
/// likely is: a doubtful
/// reading with no solution or several a misread (see [`unreadable_if_doubtful`]), a
/// nonogram's clues too small in the photo (see [`with_closer_hint`]).
fn solve_found(
    gray: &image::GrayImage,
    found: Found,
    kind: Option<&str>,
    limit: Option<Duration>,
    explain: bool,
) -> PhotoSolve {
    let taken = solve_on_found_or_nearby(gray, found.clone(), kind, limit, explain);
    // A jump maze's reading is not checked by its solver (any way out is an answer), so a
    // second reading of it, or one that turns out a maze, could only add wrong answers:
    // smoothed, a blurred boxed maze's digits read wrong yet surely enough to be taken.
    let photo = match taken.failure() {
        Some(failure) if taken.reading.kind() != "jump" => {
            let smoothed = read::smoothing::smoothed_around(gray, &found.0);
            let mut again = solve_on_found_or_nearby(&smoothed, found, kind, limit, explain);
            let better = again.solved_uniquely() || again.reads_a_puzzle_where_none(&taken);
            if better && again.reading.kind() != "jump" {
                again.stages.insert(
                    0,
                    format!("read: {failure}; read again with the photo's noise smoothed"),
                );
                again
            } else {
                taken
            }
        }
        _ => taken,
    };
    with_closer_hint(unreadable_if_doubtful(photo))
}

/// Reads the puzzle on `found` in `gray` and solves it, and failing that on the lattices near
/// it (see [`on_nearby_lattice`]) or on a lattice of cells (see [`on_cell_lattice`]); when none
/// solves uniquely, a nonogram read there into a puzzle with several solutions is reported where
/// the first reading made no puzzle (see [`PhotoSolve::reads_a_puzzle_where_none`]).
fn solve_on_found_or_nearby(
    gray: &image::GrayImage,
    found: Found,
    kind: Option<&str>,
    limit: Option<Duration>,
    explain: bool,
) -> PhotoSolve {
    let first = read_and_solve_any_kind(gray, found.clone(), kind, limit, explain);
    // A lattice of cells found already (no outline gave a grid) is not looked for again.
    let cells_found = found.1 == Frame::Cells;
    let mut several = None;
    let retried = match on_nearby_lattice(gray, &first, found, kind, limit, explain, &mut several) {
        Some(retried) => Some(retried),
        None if !cells_found => on_cell_lattice(gray, &first, kind, limit, explain, &mut several),
        None => None,
    };
    let several = several.filter(|several| several.reads_a_puzzle_where_none(&first));
    retried.or(several).unwrap_or(first)
}

/// How many times a failing grid's lattice is counted and followed again inside the corners of
/// the last (see [`on_nearby_lattice`]): a third time mended no dev photo that two did not.
const FOLLOWINGS: usize = 2;

/// A grid whose reading failed, read again on lattices near the one found, each in turn, the
/// first reading that solves uniquely taken; a lattice of digits (a jump maze's) is not:
/// - for a nonogram, grown while ruled cells continue beyond it (see [`detect::grow`]): the
///   bold lines every five cells can outline part of a grid whose outer lines blur away (a
///   22x29 grid was found as its 19x28 block inside the last bold lines, and its clues did not
///   add up);
/// - the lattice counted and followed again inside the grown one's corners, or its own when
///   it did not grow (or is no nonogram), then inside that one's: a hard 21x14 photo's lattice
///   missed an outer column, and grown back, its clues read on the predicted lines did not add
///   up; a boxed 10x30 photo's lattice, counted in an outline a little inside the grid, had 8
///   columns of 10; a hard 15x15 Nurikabe's, its count right, read two clues wrong that its
///   lines followed again read as printed;
/// - for a nonogram, less its outer row of cells at the bottom, then its outer column at the
///   right (as the clues were read, upright): a boxed grid's lattice can run a line past its
///   frame onto the paper and a drop shadow's edge beyond it (a boxed 17x15 photo was refused,
///   "column 18 at the grid's edge has no clue number"). Each is read as found, grown again
///   over any clue boxes (a boxed 17x15 hard photo's lattice, a row low, came back a row
///   higher), then, when an edge line read no clue, as the lattice read less that edge and not
///   grown back, where growing may put the row back (a boxed 21x16 photo whose lattice ran
///   past a curled page's bowed bottom edge: "row 17"). The clues' sides are left alone: each
///   reading costs as much as the first, and the lines found there were bounded by the clues
///   (reading them less their top row or left column too mended no dev photo).
fn on_nearby_lattice(
    gray: &image::GrayImage,
    first: &PhotoSolve,
    (lattice, frame): Found,
    kind: Option<&str>,
    limit: Option<Duration>,
    explain: bool,
    several: &mut Option<PhotoSolve>,
) -> Option<PhotoSolve> {
    let failure = first.failure()?;
    // A maze's digits standing beyond the lattice read (a boxed diamond's lone side tips, left
    // out of its lattice of digits) are taken in: the lattice carried on a cell at each such
    // edge, framed as the lattice found was.
    let edges = first.reading.edges_beyond();
    let carried = (!edges.is_empty())
        .then(|| {
            edges
                .iter()
                .try_fold(first.lattice.clone(), |wider, &edge| {
                    wider.with_edge_carried_on(edge)
                })
        })
        .flatten()
        .map(|wider| {
            let names: Vec<&str> = edges.iter().map(|edge| edge.name()).collect();
            let how = format!(
                "read on it carried on a cell at its {} edge, where digits stand beyond",
                names.join(" and ")
            );
            (wider, frame, how)
        });
    let why = |how: String| {
        format!(
            "read: on the {}x{} lattice found, {failure}; {how}",
            lattice.rows, lattice.columns
        )
    };
    if frame == Frame::Digits {
        let (wider, frame, how) = carried?;
        // What stood beyond may not have been the maze (a word of the page's text, a speck read
        // as a digit): a wider grid that cannot be a whole maze (no digit along an edge, or an
        // even count of rows or columns, with no middle cell to start from) moves the start
        // off the maze's middle, and two hard photos' mazes so read a column or a row wider
        // than their print solved uniquely, wrong.
        return solved_again(
            gray,
            (wider, frame),
            kind,
            limit,
            explain,
            why(how),
            several,
        )
        .filter(|retry| retry.reading.could_be_whole_maze());
    }
    let nonogram = first.reading.kind() == "nonogram";
    let grown = nonogram
        .then(|| detect::grow::grow(gray, &lattice))
        .filter(|grown| *grown != lattice && *grown != first.lattice);
    // Counted and followed again inside the corners its lines were followed to (the grown
    // lattice's, when it grew), a lattice's lines sit where each runs: grown cells sit where
    // their lines were predicted from the lattice's (a hard plain 21x14 photo's lost outer
    // column, grown back, read clues that did not add up), and the outline the lattice was
    // first counted in may lie off the lines it then followed (a boxed 10x30 photo's outline,
    // 6 px inside the grid's right edge, counted 8 columns of 10). Each time, the lines settle
    // nearer the print: a 29x22 photo's clues add up only on the lattice followed again inside
    // the corners of the one followed again. Each is found only when the readings before
    // failed too (the iterators are lazy).
    let outer = grown.clone().unwrap_or_else(|| lattice.clone());
    let inside = if outer == lattice {
        String::from("its lines counted and followed again inside its corners")
    } else {
        format!(
            "its lines followed again inside it grown to {}x{}, where ruled cells continue",
            outer.rows, outer.columns
        )
    };
    let mut last = Some(outer);
    let followed = std::iter::from_fn(move || {
        let before = last.take()?;
        let again = detect::find_lattice_in_outline(gray, before.outer_corners())
            .ok()
            .filter(|again| *again != before && *again != first.lattice)?;
        last = Some(again.clone());
        Some(again)
    })
    .take(if frame == Frame::Cells { 0 } else { FOLLOWINGS })
    .enumerate()
    .map(move |(k, again)| {
        let how = match k {
            0 => inside.clone(),
            _ => format!("{inside}, {} times", k + 1),
        };
        (again, Frame::Outline, how)
    });
    let grown = grown.map(|grown| {
        let how = format!(
            "read on it grown to {}x{}, where ruled cells continue",
            grown.rows, grown.columns
        );
        (grown, Frame::Outline, how)
    });
    let turns = first.reading.quarter_turns();
    let trimmed = [detect::Edge::Bottom, detect::Edge::Right]
        .into_iter()
        .filter(|_| nonogram)
        .flat_map(|edge| {
            let without = |whole: &detect::Lattice| {
                Some(whole.turned(turns).without_edge(edge)?.turned_back(turns))
            };
            let found_less = without(&lattice);
            // Not grown back, the lattice read less that edge is read again only where an
            // edge line read no clue, and not when the found lattice less it, read and grown,
            // is the same.
            let read_less = without(&first.lattice)
                .filter(|_| first.reading.has_empty_edge())
                .filter(|read_less| {
                    found_less.as_ref() != Some(read_less)
                        || detect::grow::grow(gray, read_less) != *read_less
                });
            let how = format!("read without the cells at its {} edge", edge.name());
            [
                found_less.map(|less| (less, Frame::Outline, how.clone())),
                read_less.map(|less| (less, Frame::Trimmed, format!("{how}, not grown back"))),
            ]
            .into_iter()
            .flatten()
        });
    carried
        .into_iter()
        .chain(grown)
        .chain(followed)
        .chain(trimmed)
        .find_map(|(nearby, frame, how)| {
            solved_again(
                gray,
                (nearby, frame),
                kind,
                limit,
                explain,
                why(how),
                several,
            )
        })
}

/// The reading of `found` (see [`read_and_solve_any_kind`]) when it solves uniquely, `why`
/// it was read again said first among its stages. The first such reading that gave a puzzle
/// with several solutions instead is put in `several`, when it holds none yet.
fn solved_again(
    gray: &image::GrayImage,
    found: Found,
    kind: Option<&str>,
    limit: Option<Duration>,
    explain: bool,
    why: String,
    several: &mut Option<PhotoSolve>,
) -> Option<PhotoSolve> {
    let mut retry = read_and_solve_any_kind(gray, found, kind, limit, explain);
    retry.stages.insert(0, why);
    if retry.solved_uniquely() {
        return Some(retry);
    }
    if several.is_none() && retry.has_several_solutions() {
        *several = Some(retry);
    }
    None
}

/// A grid whose reading failed on every lattice near the one found, read again on the lattice
/// of its cells found one by one (see [`detect::find_cell_lattice`]), taken when it solves
/// uniquely: a page curled so strongly that its grid's border bows by cells is held by no
/// outline, and a boxed nonogram's bowed L of clue boxes and grid is cut wrong by any
/// quadrilateral (of the eight hard boxed photos of one curl, seven were refused, six on a
/// lattice off the grid and one with none; each reads exactly on its cells'). Not when the
/// cells' lattice lies within a fifth of a cell of the one first read (the reading would be the
/// same), and not again on the lattices near it: read on those too, no dev photo more was
/// mended, and each costs a reading (a hard 29x22 photo refused in 16.7 s took 32.3 s so, and
/// takes 18.9 s without).
fn on_cell_lattice(
    gray: &image::GrayImage,
    first: &PhotoSolve,
    kind: Option<&str>,
    limit: Option<Duration>,
    explain: bool,
    several: &mut Option<PhotoSolve>,
) -> Option<PhotoSolve> {
    let failure = first.failure()?;
    let cells = detect::find_cell_lattice(gray)
        .ok()
        .filter(|cells| !cells.lies_near(&first.lattice, SAME_LATTICE))?;
    let (rows, columns) = (first.lattice.rows, first.lattice.columns);
    let why = format!(
        "read: on the {rows}x{columns} lattice found, {failure}; read on the lattice of its \
         cells found one by one"
    );
    solved_again(
        gray,
        (cells, Frame::Cells),
        kind,
        limit,
        explain,
        why,
        several,
    )
}

/// How near (share of a cell) every corner of two lattices must lie for them to read alike.
const SAME_LATTICE: f32 = 0.2;

/// Reads, corrects and solves the puzzle on `found` as `kind`. Told no kind, a reading that
/// fails as the kind it looked like (a jump maze whose framed part reads like a Nurikabe, a
/// Sudoku with a 5 read as 25) is read as each other kind in turn, and the first that solves
/// uniquely is kept; when none does, the first reading's failure stands.
fn read_and_solve_any_kind(
    gray: &image::GrayImage,
    found: Found,
    kind: Option<&str>,
    limit: Option<Duration>,
    explain: bool,
) -> PhotoSolve {
    if kind.is_some() {
        return read_and_solve(gray, found, kind, limit, explain);
    }
    let first = read_and_solve(gray, found.clone(), None, limit, explain);
    let Some(failure) = first.failure() else {
        return first;
    };
    let first_kind = first.reading.kind().to_string();
    for other in OTHER_KINDS
        .into_iter()
        .filter(|k| may_be_read_as(&first, k))
    {
        let mut retry = read_and_solve(gray, found.clone(), Some(other), limit, explain);
        if retry.solved_uniquely() {
            retry.stages.insert(
                0,
                format!("read: as a {first_kind}, {failure}; read as a {other} instead"),
            );
            return retry;
        }
    }
    first
}

/// The mean cell side, in the photo's pixels, under which a nonogram's clues are small for
/// reading: of 160 nonogram photo dev photos (seeds 70001-70020), 20 of the 38 with smaller
/// cells were not read exactly, 6 of the 122 with larger ones.
const SMALL_NONOGRAM_CELL: f32 = 30.0;

/// `photo`, a nonogram's reading that failed told that a photo taken closer may read, when its
/// cells (and so its clue digits, printed smaller) are under [`SMALL_NONOGRAM_CELL`] pixels.
fn with_closer_hint(mut photo: PhotoSolve) -> PhotoSolve {
    let side = photo.lattice.mean_cell_side();
    if photo.reading.kind() != "nonogram" || side >= SMALL_NONOGRAM_CELL {
        return photo;
    }
    if let Err(Error::Unreadable(why)) = &mut photo.puzzle {
        why.push_str(&format!(
            " (the grid's cells are about {side:.0} pixels in the photo: its clues are small \
             for reading; a photo taken closer may read)"
        ));
    }
    photo
}

/// The fewest misread numbers expected (see [`read::Doubt`]) for which a reading with no
/// solution or several is taken for a misreading rather than a puzzle printed so: half a
/// number.
const MISREADS_NOT_AS_PRINTED: f32 = 0.5;

/// `photo`, its reading refused as unreadable (exit 3) when it has no solution, or more than
/// one, and its numbers were read doubtfully enough ([`MISREADS_NOT_AS_PRINTED`]) that a
/// misread explains that better than a puzzle printed so: 12 hard Nurikabe and maze photos of
/// the seed-900, 4242 and 7777 sets were answered "the puzzle has no solution" (exit 4), each
/// with 6 or more misreads expected, though every printed puzzle has one; and a hard Nurikabe
/// photo of a puzzle with one solution was answered with the first of several (exit 1).
fn unreadable_if_doubtful(mut photo: PhotoSolve) -> PhotoSolve {
    let Ok(corrected) = &mut photo.puzzle else {
        return photo;
    };
    let found = match &corrected.solved {
        Err(Error::NoSolution) => "no solution",
        Ok(solved) if solved.ambiguous_for(corrected.puzzle.as_ref()) => "more than one solution",
        _ => return photo,
    };
    let doubt = photo.reading.doubt();
    if doubt.misreads >= MISREADS_NOT_AS_PRINTED {
        corrected.solved = Err(Error::Unreadable(format!(
            "the puzzle read has {found}, but {} of its {} numbers were read with low \
             confidence (about {:.1} expected misread): a misread is likelier than a puzzle \
             printed so",
            doubt.unsure, doubt.numbers, doubt.misreads
        )));
    }
    photo
}

/// [`solve_found`] for one kind: read, correct, solve.
fn read_and_solve(
    gray: &image::GrayImage,
    found: Found,
    kind: Option<&str>,
    limit: Option<Duration>,
    explain: bool,
) -> PhotoSolve {
    let (lattice, mut reading) = read_found(gray, found, kind);
    let mut stages = vec![format!("read: {}", reading.summary())];
    stages.extend(
        reading
            .doubtful(LOW_CONFIDENCE)
            .into_iter()
            .map(|doubt| format!("read: {doubt}")),
    );
    let turns_read = reading.quarter_turns();
    let corrected = reading.correct(limit);
    if reading.quarter_turns() != turns_read {
        stages.push(format!(
            "read: turned {} quarter turns instead, which solves with fewer corrections",
            reading.quarter_turns()
        ));
    }
    let puzzle = corrected.map(|(puzzle, corrections)| {
        let solved = solve::solve_with(puzzle.as_ref(), limit, explain);
        CorrectedPuzzle {
            puzzle,
            corrections,
            solved,
        }
    });
    PhotoSolve {
        lattice,
        reading,
        stages,
        puzzle,
    }
}

/// Reads less sure than this are listed as doubts: by `solve --verbose`, and by `read` beside the
/// puzzle it prints.
pub const LOW_CONFIDENCE: f32 = 0.9;

/// Where the annotated photo of `input` goes by default: `NAME.solved.png` beside it.
pub fn default_annotated_path(input: &std::path::Path) -> std::path::PathBuf {
    let stem = input
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    input.with_file_name(format!("{stem}.solved.png"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::nurikabe::Nurikabe;
    use crate::read::Reading;

    /// A photo's reading of the 1x5 Nurikabe `. . 3 . .`, which has two solutions (the island
    /// to either side), its 3 read with `confidence`, solved.
    fn photo_of_a_three_in_a_row(confidence: f32) -> PhotoSolve {
        let mut grid = read::grid_read(&["..3.."]);
        grid.cells[2].confidence = confidence;
        let puzzle: Box<dyn kinds::Puzzle> = Box::new(Nurikabe {
            width: 5,
            height: 1,
            clues: vec![(0, 2, 3)],
        });
        let solved = solve::solve(&*puzzle, None);
        PhotoSolve {
            lattice: detect::Lattice {
                rows: 1,
                columns: 5,
                points: Vec::new(),
            },
            reading: Reading::Cells {
                grid,
                kind: "nurikabe".to_string(),
                runner_up: None,
                rereading: None,
            },
            stages: Vec::new(),
            puzzle: Ok(CorrectedPuzzle {
                puzzle,
                corrections: Vec::new(),
                solved,
            }),
        }
    }

    #[test]
    fn a_doubtful_reading_with_several_solutions_is_unreadable_and_a_sure_one_is_answered() {
        let doubtful = unreadable_if_doubtful(photo_of_a_three_in_a_row(0.4));
        match doubtful.puzzle.map(|corrected| corrected.solved) {
            Ok(Err(Error::Unreadable(why))) => {
                assert!(
                    why.contains("has more than one solution, but 1 of its 1"),
                    "{why}"
                )
            }
            Ok(Ok(solved)) => panic!("answered, unique {}", solved.unique),
            Ok(Err(error)) | Err(error) => panic!("{error}"),
        }
        let sure = unreadable_if_doubtful(photo_of_a_three_in_a_row(0.99));
        match sure.puzzle.map(|corrected| corrected.solved) {
            Ok(Ok(solved)) => assert!(!solved.unique),
            Ok(Err(error)) | Err(error) => panic!("{error}"),
        }
    }
}
