//! The read stage: from a photo and its detected [`Lattice`] to a puzzle, every cell with a
//! confidence and its ranked alternative readings.
//!
//! `glyphs` finds and normalises the glyphs in a cell crop, `classifier` reads each as a digit,
//! `synth` renders labelled cells and `train` fits the model (for `examples/train_digits.rs`);
//! `page_digits` re-reads a jump maze's digits by their look-alikes on the page,
//! `digit_shares` weighs them by how often the page prints each digit, and
//! `clue_company` weighs a nonogram clue glyph's digits by its look-alikes among the clues;
//! `smoothing` takes the photo's sensor noise out around the lattice, for a second reading.
//! This module reads boxed grids with numbers in cells (Sudoku, Nurikabe) in any of the four
//! upright orientations, choosing the one the digit classifier is most sure of. It does not find
//! the grid (that is `detect`) or solve (that is `solve`); [`correct`] only asks the solvers
//! whether a reading makes sense.

pub mod classifier;
mod clue_company;
mod clue_lines;
mod clue_totals;
pub mod clues;
mod crossing_lines;
mod digit_shares;
mod digit_widths;
pub mod glyphs;
mod ink_patches;
mod jump;
mod lost_numbers;
mod page_digits;
mod rules;
pub(crate) mod smoothing;
mod splits;
mod start_ring;
mod sudoku_print;
pub mod synth;
pub mod train;
pub mod typefaces;

use std::collections::HashMap;
use std::time::Duration;

use image::GrayImage;

use crate::detect::{self, bands, Edge, Lattice};
use crate::error::Error;
use crate::kinds::jump::{JumpMaze, JumpPath};
use crate::kinds::nonogram::Nonogram;
use crate::kinds::nurikabe::Nurikabe;
use crate::kinds::sudoku::Sudoku;
use crate::kinds::Puzzle;
use crate::limits::Deadline;
use crate::outcome::Outcome;
use classifier::DigitClassifier;
use glyphs::CellContent;

/// Side of the square a cell is resampled to before its glyphs are found.
const CELL_PIXELS: u32 = 64;
/// Fraction of a cell cut from each side, to drop the grid lines.
const CELL_INSET: f32 = 0.08;

/// What one cell holds, as read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellValue {
    Blank,
    Black,
    Number(u32),
}

/// One cell's reading: the most likely value, how sure the reader is, and the other readings in
/// order of likelihood (for the solver to try when the first one leads nowhere).
#[derive(Debug, Clone, PartialEq)]
pub struct CellRead {
    pub row: usize,
    pub column: usize,
    pub value: CellValue,
    /// Probability of `value`: the product of its glyphs' probabilities; 1 for blank and black.
    pub confidence: f32,
    pub alternatives: Vec<(CellValue, f32)>,
}

/// A whole grid as read, rows top first in the puzzle's upright orientation.
#[derive(Debug, Clone, PartialEq)]
pub struct GridRead {
    pub rows: usize,
    pub columns: usize,
    pub cells: Vec<CellRead>,
    /// Quarter turns clockwise the lattice was turned to read upright.
    pub quarter_turns: u8,
    /// Whether a turned reading was at least as sure as this upright one, kept only by
    /// [`TURN_MARGIN`]: the digits could not tell which way up the page is. A maze of 1s and
    /// 2s reads as surely upside down as upright, and its upside-down reading is another grid.
    /// A jump maze's doubt is settled by the first digit network alone where it can tell (see
    /// [`settled_by_first_network`]).
    pub orientation_in_doubt: bool,
    /// A jump maze's start ring, found in this cell (row, column, as read) next to the middle
    /// one rather than in it: the lattice missed a row or column of the maze's edge, so the
    /// grid is not the whole maze (see [`jump::reread_start`]).
    pub start_off_centre: Option<(usize, usize)>,
    /// A jump maze's digits standing just beyond its lattice's edges: the lattice missed part
    /// of the maze (see [`jump::digits_beyond`]).
    pub digits_beyond: Option<jump::DigitsBeyond>,
}

impl CellRead {
    /// Makes the cell blank, the value read kept as its likeliest alternative for the corrector
    /// (a mark taken for a number may be one after all).
    fn make_blank(&mut self) {
        self.make_blank_weighing_number(1.0);
    }

    /// [`Self::make_blank`], the value read kept at `share` of its probability: for a cell
    /// that other evidence than the classifier's says is blank.
    pub(crate) fn make_blank_weighing_number(&mut self, share: f32) {
        let number = share * self.confidence;
        self.alternatives
            .retain(|&(value, _)| value != CellValue::Blank);
        self.alternatives.insert(0, (self.value, number));
        self.value = CellValue::Blank;
        self.confidence = 1.0 - number;
    }
}

impl GridRead {
    /// A grid of `cells` (rows first) read turned `quarter_turns`, its orientation not in
    /// doubt and its start where it belongs.
    pub fn new(rows: usize, columns: usize, cells: Vec<CellRead>, quarter_turns: u8) -> GridRead {
        GridRead {
            rows,
            columns,
            cells,
            quarter_turns,
            orientation_in_doubt: false,
            start_off_centre: None,
            digits_beyond: None,
        }
    }

    pub fn get(&self, row: usize, column: usize) -> &CellRead {
        &self.cells[row * self.columns + column]
    }

    /// The rows and columns of the lattice the grid was cut from, before it was turned upright.
    pub fn unturned_shape(&self) -> (usize, usize) {
        if self.quarter_turns % 2 == 0 {
            (self.rows, self.columns)
        } else {
            (self.columns, self.rows)
        }
    }

    /// The middle cell (row, column): a jump maze's start.
    pub fn middle(&self) -> (usize, usize) {
        (self.rows / 2, self.columns / 2)
    }

    /// How many cells read as a number.
    pub fn numbers(&self) -> usize {
        self.cells
            .iter()
            .filter(|c| matches!(c.value, CellValue::Number(_)))
            .count()
    }
}

/// The bundled digit classifier, loaded once.
pub fn bundled_classifier() -> &'static DigitClassifier {
    static CLASSIFIER: std::sync::OnceLock<DigitClassifier> = std::sync::OnceLock::new();
    CLASSIFIER.get_or_init(DigitClassifier::bundled)
}

/// Reads every cell of `lattice` in `image`, in the orientation where the digits read best.
pub fn read_grid(image: &GrayImage, lattice: &Lattice, classifier: &DigitClassifier) -> GridRead {
    read_grid_and_upright(image, lattice, classifier).0
}

/// [`read_grid`], and the grid read upright as the glyph finder saw it, numbers in cells without
/// a patch of ink kept (see [`ink_patches`]), when that is not the reading returned (`None`
/// when it is): boxed nonogram clues are read from it, their correctors tuned to its marks.
fn read_grid_and_upright(
    image: &GrayImage,
    lattice: &Lattice,
    classifier: &DigitClassifier,
) -> (GridRead, Option<GridRead>) {
    let (read, upright, _, _) = read_grid_upright_and_runner_up(image, lattice, classifier);
    (read, upright)
}

/// What [`read_grid_upright_and_runner_up`] returns: the reading chosen, the upright one as
/// seen, the runner-up and what reading again at more ink splits needs.
type GridReadings = (
    GridRead,
    Option<GridRead>,
    Option<GridRead>,
    Option<SplitRereading>,
);

/// [`read_grid_and_upright`], the runner-up orientation's reading when it scored within
/// [`RUNNER_UP_MARGIN`] of the one chosen (blurred digits may read about as surely turned, and
/// then the solver, not the classifier, can tell which way up the page is: see
/// [`Reading::correct`]), and what reading a grid's numbers at more ink splits needs (`None`
/// for a jump maze).
///
/// Cells are cut before the page's way up is known. A grid read turned, and sure of it, is cut
/// again with its cut digits' crops judged the way it reads too (see [`recentre_cut_digits`]),
/// and read again when that moved a crop.
fn read_grid_upright_and_runner_up(
    image: &GrayImage,
    lattice: &Lattice,
    classifier: &DigitClassifier,
) -> GridReadings {
    let cut = cut_cells(image, lattice, classifier, 0);
    let upright_crops = cut.crops.clone();
    let first = read_cut(image, lattice, cut, classifier);
    let turns = first.0.quarter_turns;
    if turns == 0 || first.0.orientation_in_doubt {
        return first;
    }
    let cut = cut_cells(image, lattice, classifier, turns);
    if cut.crops == upright_crops {
        return first;
    }
    let again = read_cut(image, lattice, cut, classifier);
    if again.0.quarter_turns == turns {
        again
    } else {
        first
    }
}

/// [`read_grid_upright_and_runner_up`] on the cells `cut` from `lattice` in `image`.
fn read_cut(
    image: &GrayImage,
    lattice: &Lattice,
    cut: Cut,
    classifier: &DigitClassifier,
) -> GridReadings {
    let Cut {
        crops,
        darkness,
        ruled,
        moved,
        levels,
    } = cut;
    // Grain read as numbers would weigh in the choice of orientation as much as the digits.
    let local_paper = neighbourhood_paper(&crops);
    let cells = CellsCut {
        crops: &crops,
        darkness: &darkness,
        local_paper: &local_paper,
        levels,
    };
    let EachWay {
        as_seen,
        upright,
        mut turned,
    } = read_each_way(&cells, classifier);
    let upright_score = orientation_score(&upright);
    turned.sort_by(|a, b| orientation_score(b).total_cmp(&orientation_score(a)));
    let mut turned = turned.into_iter();
    let best_turned = turned.next();
    let marks_dropped = upright != as_seen;
    let (read, upright, runner_up) = match best_turned {
        Some(best) if orientation_score(&best) > upright_score + TURN_MARGIN => {
            // The runner-up is the next turned reading or the upright one, whichever is surer.
            let next = match turned.next() {
                Some(next) if orientation_score(&next) >= upright_score => next,
                _ => upright,
            };
            (best, Some(as_seen), Some(next))
        }
        Some(best) => (
            GridRead {
                orientation_in_doubt: true,
                ..upright
            },
            marks_dropped.then_some(as_seen),
            Some(best),
        ),
        None => (upright, marks_dropped.then_some(as_seen), None),
    };
    let runner_up =
        runner_up.filter(|r| orientation_score(r) + RUNNER_UP_MARGIN >= orientation_score(&read));
    // Judged as read and as the kind is judged in the end, without the specks read as faint
    // numbers: a page rule crossing a corner cell outside the maze reads as an unsure "1"
    // there, while the start's ring may make its digit as unsure.
    if looks_like_jump(&read) || looks_like_jump(&without_noise(read.clone())) {
        let (read, upright) = match runner_up.filter(|_| read.orientation_in_doubt) {
            Some(turned) => settled_by_first_network(read, turned, upright, &cells, classifier),
            None => (read, upright),
        };
        // Only cells within the maze or beside it are read again sideways: its many cells
        // further out hold page grain, which turned may read as a digit surely enough to take.
        // A blurred 1 at the maze's edge, a short bar on its side, was dropped as a dash and
        // the cell read blank at 1.00. A cell beside the maze whose ink runs off its crop is
        // left to `jump::with_edge_digits_recentred`: a diamond's tip cut in its crop's corner
        // read turned as a sure 1 for a 4.
        let within = jump::within_shape(&read);
        let values: Vec<CellValue> = read.cells.iter().map(|cell| cell.value).collect();
        let (columns, turns) = (read.columns, read.quarter_turns);
        let (lattice_rows, lattice_columns) = read.unturned_shape();
        let uncut_beside = |index: usize| {
            let (row, column) = (index / columns, index % columns);
            let (r, c) = source_cell(row, column, turns, lattice_rows, lattice_columns);
            !jump::apart(&values, columns, index)
                && !glyphs::cut_sides(&crops[r][c], &darkness[r][c], levels.ink).contains(&true)
        };
        let read = with_sideways_digits(read, &crops, levels, classifier, |i| {
            within[i] || uncut_beside(i)
        });
        let read = page_digits::read_by_company(&crops, &read, levels, classifier);
        let read = with_doubtful_digits_averaged(read, &crops, levels, classifier);
        let read = digit_shares::weighed_by_shares(read);
        let read = jump::ones_on_rules(read, &ruled);
        let read = jump::with_crossing_lines_wiped(read, &crops, levels, classifier);
        let read = jump::with_line_pieces_blank(read, image, lattice, (&crops, &darkness), levels);
        let read = jump::with_edge_digits_recentred(
            read,
            image,
            lattice,
            (&crops, &darkness),
            levels,
            classifier,
        );
        let mut read = jump::reread_start(image, lattice, &read, levels, classifier);
        read.digits_beyond = jump::digits_beyond(image, lattice, &read, levels, classifier);
        return (read, upright.map(without_noise), None, None);
    }
    let read = with_sideways_digits(read, &crops, levels, classifier, |_| true);
    let runner_up =
        runner_up.map(|read| with_sideways_digits(read, &crops, levels, classifier, |_| true));
    let rereading = SplitRereading {
        crops,
        darkness,
        moved,
        levels,
        read,
        runner_up,
    };
    (
        rereading.cleaned(rereading.read.clone()),
        upright.map(without_noise),
        rereading
            .runner_up
            .clone()
            .map(|read| rereading.cleaned(read)),
        Some(rereading),
    )
}

/// The cells of a lattice cut from the photo as the grid is read: each cell's crop with the
/// grid's rules wiped and its flattened darkness, which cells held a rule, which crops were
/// moved off their cell (see [`recentre_cut_digits`]), and the levels.
struct Cut {
    crops: Vec<Vec<GrayImage>>,
    darkness: Vec<Vec<Vec<f32>>>,
    ruled: Vec<Vec<bool>>,
    moved: Vec<Vec<bool>>,
    levels: Levels,
}

/// Cuts every cell of `lattice` from `image`, a digit running off its crop cut again centred
/// (see [`recentre_cut_digits`]; its crops judged turned `judged_turns` quarter turns).
fn cut_cells(
    image: &GrayImage,
    lattice: &Lattice,
    classifier: &DigitClassifier,
    judged_turns: u8,
) -> Cut {
    let rules::Unruled { mut crops, ruled } =
        rules::grid_without_rules(&map_cells(lattice.rows, lattice.columns, |r, c| {
            lattice.cell_image(image, r, c, CELL_PIXELS, CELL_INSET)
        }));
    let mut darkness = map_cells(lattice.rows, lattice.columns, |r, c| {
        glyphs::flattened(&crops[r][c])
    });
    let levels = Levels {
        paper: paper_level(&crops),
        ink: ink_level(&darkness),
    };
    let moved = recentre_cut_digits(
        image,
        lattice,
        &mut crops,
        &mut darkness,
        (levels, judged_turns),
        classifier,
    );
    Cut {
        crops,
        darkness,
        ruled,
        moved,
        levels,
    }
}

/// The glyphs the reader first classifies in each cell of `lattice` turned `turns` clockwise
/// quarter turns (rows, then columns, of the turned grid), read as [`read_grid`] reads them
/// before it weighs splits or corrections (upright, or as [`read_turned`] reads a turned
/// grid): the normalised inputs the classifier sees there, empty for a cell read blank or
/// black. For tools that pair them with a photo's known numbers (the digit trainer harvests
/// glyphs so); the reader does not use it.
pub fn cell_glyphs(
    image: &GrayImage,
    lattice: &Lattice,
    turns: u8,
    classifier: &DigitClassifier,
) -> Vec<Vec<Vec<glyphs::NormalisedGlyph>>> {
    let Cut {
        crops,
        darkness,
        levels,
        ..
    } = cut_cells(image, lattice, classifier, turns);
    let local_paper = neighbourhood_paper(&crops);
    if turns % 4 != 0 {
        let (rows, columns) = if turns % 2 == 0 {
            (lattice.rows, lattice.columns)
        } else {
            (lattice.columns, lattice.rows)
        };
        return map_cells(rows, columns, |row, column| {
            match turned_content(&crops, &local_paper, row, column, turns, levels).1 {
                CellContent::Glyphs(found) => found,
                _ => Vec::new(),
            }
        });
    }
    map_cells(lattice.rows, lattice.columns, |row, column| {
        let (crop, darkness) = (&crops[row][column], &darkness[row][column]);
        let paper = levels.paper.min(local_paper[row][column]);
        match glyphs::read_flattened(crop, darkness, paper, levels.ink) {
            CellContent::Glyphs(found) => without_ruled_lines(found, crop),
            _ => Vec::new(),
        }
    })
}

/// A grid's readings with what reading their numbers again at more ink splits needs (see
/// [`averaged_over_splits`]): the cells' crops and darkness, which crops were moved off their
/// cell, the photo's levels, and the chosen and runner-up readings before marks and noise were
/// dropped. Re-reading every number at four splits took a third of the time of reading a
/// 12-megapixel Sudoku photo (about 30 of 90 ms), and a reading that solves uniquely as it is
/// does not need it, so it is done only when the solver asks (see [`Reading::correct`]).
#[derive(Debug, Clone, PartialEq)]
pub struct SplitRereading {
    crops: Vec<Vec<GrayImage>>,
    darkness: Vec<Vec<Vec<f32>>>,
    moved: Vec<Vec<bool>>,
    levels: Levels,
    read: GridRead,
    runner_up: Option<GridRead>,
}

impl SplitRereading {
    /// `read` without numbers in cells whose centre shows no patch of ink, or read below the
    /// noise level.
    fn cleaned(&self, read: GridRead) -> GridRead {
        without_noise(ink_patches::without_paper_marks(
            read,
            &self.darkness,
            CELL_PIXELS as usize,
        ))
    }

    /// The chosen and runner-up readings with their numbers averaged over the ink splits,
    /// cleaned as the readings were.
    fn averaged(&self, classifier: &DigitClassifier) -> (GridRead, Option<GridRead>) {
        let average = |read: &GridRead| {
            self.cleaned(averaged_over_splits(
                read.clone(),
                &self.crops,
                self.levels,
                classifier,
                &|_| true,
            ))
        };
        (average(&self.read), self.runner_up.as_ref().map(average))
    }
}

/// `f(row, column)` of every cell of a `rows` x `columns` grid, in rows, the cells spread over
/// the cores: each cell's crop is cut and read on its own.
fn map_cells<R: Send>(
    rows: usize,
    columns: usize,
    f: impl Fn(usize, usize) -> R + Sync,
) -> Vec<Vec<R>> {
    let cells: Vec<(usize, usize)> = (0..rows)
        .flat_map(|r| (0..columns).map(move |c| (r, c)))
        .collect();
    let mut results = bands::map(&cells, |&(r, c)| f(r, c)).into_iter();
    (0..rows)
        .map(|_| results.by_ref().take(columns).collect())
        .collect()
}

/// A number read with less probability than this per digit is more likely a speck, a shadow's
/// edge or a patch of halftone than print: on newspaper photos the classifier gives printed
/// digits 0.3 or more and such marks less.
const NOISE_READING: f32 = 0.3;

/// `read` with every number read less surely than [`NOISE_READING`] per digit made blank, the
/// number kept as its likeliest alternative for the corrector. Done once the orientation is
/// chosen (the orientation is judged on all the numbers) and not in jump mazes (a maze's cells
/// are all numbers, however poorly read).
fn without_noise(mut read: GridRead) -> GridRead {
    for cell in &mut read.cells {
        let CellValue::Number(n) = cell.value else {
            continue;
        };
        let digits = n.checked_ilog10().unwrap_or(0) as i32 + 1;
        if cell.confidence < NOISE_READING.powi(digits) {
            cell.make_blank();
        }
    }
    read
}

/// How far (share of the cell) a crop is moved toward the side a digit runs off: a quarter
/// cell, then half when that still cuts it.
const RECENTRE_SHIFTS: [f32; 2] = [0.25, 0.5];

/// Cuts again, in `crops` and their `darkness`, each crop whose digit runs off a side (the
/// lattice off the printed grid by a stroke or more, on a curled page), moved toward that side,
/// where that crop no longer cuts the digit there and reads it more surely; returns which
/// crops were so moved. On a page read turned `turns` clockwise quarter turns, a crop moved so
/// that it cuts no ink at all is also taken where it reads more surely turned that way: its
/// digits lie on their side, and judged upright only, a 2 cut at its foot kept its crop (the
/// whole 2 read no surer on its side) and, read turned, was a 4 at 1.00. Judged turned only,
/// the crops of blurred digits at a slanted lattice's corner, moved as judged upright and read
/// right so, were moved further or not at all and misread.
fn recentre_cut_digits(
    image: &GrayImage,
    lattice: &Lattice,
    crops: &mut [Vec<GrayImage>],
    darkness: &mut [Vec<Vec<f32>>],
    (levels, turns): (Levels, u8),
    classifier: &DigitClassifier,
) -> Vec<Vec<bool>> {
    let mut moved_off: Vec<Vec<bool>> = crops.iter().map(|row| vec![false; row.len()]).collect();
    let sureness = |crop: &GrayImage, darkness: &[f32]| {
        let content = glyphs::read_flattened(crop, darkness, levels.paper, levels.ink);
        match read_cell(content, crop, 0, 0, classifier) {
            CellRead {
                value: CellValue::Number(_),
                confidence,
                ..
            } => confidence,
            _ => 0.0,
        }
    };
    let sureness_turned = |crop: &GrayImage| {
        let crop = turned(crop, turns);
        sureness(&crop, &glyphs::flattened(&crop))
    };
    for row in 0..crops.len() {
        for column in 0..crops[row].len() {
            let (crop, dark) = (&crops[row][column], &darkness[row][column]);
            let cut = glyphs::cut_sides(crop, dark, levels.ink);
            if !glyphs::cut_off_centre(cut) {
                continue;
            }
            // Only a cell read as a number: a black given's texture may run off any side.
            let sure = sureness(crop, dark);
            let sure_turned = if turns % 4 == 0 {
                sure
            } else {
                sureness_turned(crop)
            };
            if sure == 0.0 && sure_turned == 0.0 {
                continue;
            }
            if let Some((moved_crop, moved_dark)) = moved_crop(
                image,
                lattice,
                (row, column),
                cut,
                levels.ink,
                |crop, dark, still_cut| {
                    let upright_surer = sure > 0.0 && sureness(crop, dark) > sure;
                    upright_surer
                        || (turns % 4 != 0
                            && still_cut == [false; 4]
                            && sureness_turned(crop) > sure_turned)
                },
            ) {
                crops[row][column] = moved_crop;
                darkness[row][column] = moved_dark;
                moved_off[row][column] = true;
            }
        }
    }
    moved_off
}

/// The crop of `lattice`'s cell (`row`, `column`) in `image` moved toward its `cut` sides (left,
/// top, right, bottom; see [`glyphs::cut_sides`]) by each of [`RECENTRE_SHIFTS`] in turn, with
/// its darkness: the first that no longer cuts its ink on any of those sides and that `takes`
/// (given the moved crop, its darkness and the sides it cuts).
fn moved_crop(
    image: &GrayImage,
    lattice: &Lattice,
    cell: (usize, usize),
    cut: [bool; 4],
    ink: f32,
    mut takes: impl FnMut(&GrayImage, &[f32], [bool; 4]) -> bool,
) -> Option<(GrayImage, Vec<f32>)> {
    RECENTRE_SHIFTS.into_iter().find_map(|shift_by| {
        let sign = |yes: bool| if yes { shift_by } else { 0.0 };
        let shift = (sign(cut[2]) - sign(cut[0]), sign(cut[3]) - sign(cut[1]));
        let moved_crop = shifted_crop(image, lattice, cell, shift)?;
        let moved_dark = glyphs::flattened(&moved_crop);
        let still_cut = glyphs::cut_sides(&moved_crop, &moved_dark, ink);
        let same_sides = still_cut
            .iter()
            .zip(cut)
            .any(|(&now, before)| now && before);
        (!same_sides && takes(&moved_crop, &moved_dark, still_cut))
            .then_some((moved_crop, moved_dark))
    })
}

/// The crop of `lattice`'s cell (`row`, `column`) in `image` moved `across` and `down` (shares
/// of the cell's sides); `None` where the lattice has no such cell.
fn shifted_crop(
    image: &GrayImage,
    lattice: &Lattice,
    (row, column): (usize, usize),
    (across, down): (f32, f32),
) -> Option<GrayImage> {
    let corner = |r: usize, c: usize| lattice.points.get(r).and_then(|p| p.get(c)).copied();
    let (a, b, c, d) = (
        corner(row, column)?,
        corner(row, column + 1)?,
        corner(row + 1, column + 1)?,
        corner(row + 1, column)?,
    );
    let side = ((b.0 - a.0 + c.0 - d.0) / 2.0, (b.1 - a.1 + c.1 - d.1) / 2.0);
    let height = ((d.0 - a.0 + c.0 - b.0) / 2.0, (d.1 - a.1 + c.1 - b.1) / 2.0);
    let shift = |p: (f32, f32)| {
        (
            p.0 + across * side.0 + down * height.0,
            p.1 + across * side.1 + down * height.1,
        )
    };
    let moved = Lattice {
        rows: 1,
        columns: 1,
        points: vec![vec![shift(a), shift(b)], vec![shift(d), shift(c)]],
    };
    Some(moved.cell_image(image, 0, 0, CELL_PIXELS, CELL_INSET))
}

/// A grid's cells as cut for reading, with the paper level around each: what reading them
/// again needs.
#[derive(Clone, Copy)]
struct CellsCut<'a> {
    crops: &'a [Vec<GrayImage>],
    darkness: &'a [Vec<Vec<f32>>],
    local_paper: &'a [Vec<f32>],
    levels: Levels,
}

/// A grid's cells read by one classifier each way up: upright as the glyph finder saw them
/// (`as_seen`), the same without marks of paper (`upright`, see [`ink_patches`]), and each
/// quarter turn's reading that might come up to the upright one's score.
struct EachWay {
    as_seen: GridRead,
    upright: GridRead,
    turned: Vec<GridRead>,
}

/// The `cells` read each way up by `classifier` (see [`EachWay`]). Turned readings are
/// followed as far as they might match the upright one, so that one surer but within the
/// margin is seen too.
fn read_each_way(cells: &CellsCut<'_>, classifier: &DigitClassifier) -> EachWay {
    let CellsCut {
        crops,
        darkness,
        local_paper,
        levels,
    } = *cells;
    let as_seen = read_upright(crops, darkness, local_paper, levels, classifier);
    let upright = ink_patches::without_paper_marks(as_seen.clone(), darkness, CELL_PIXELS as usize);
    let upright_score = orientation_score(&upright);
    let turned = (1..4u8)
        .filter_map(|turns| {
            let to_beat = (&upright, upright_score);
            read_turned(crops, local_paper, turns, levels, classifier, to_beat)
        })
        .collect();
    EachWay {
        as_seen,
        upright,
        turned,
    }
}

/// A jump maze read upright (`read`, and `upright` as [`read_grid_upright_and_runner_up`]
/// returns it) with its orientation in doubt (see [`TURN_MARGIN`]) against its surest reading
/// `turned`, settled as the first digit network alone would settle it: turned when it reads
/// that turn surer by the margin, upright when it reads no turn as surely; else left in doubt.
/// The maze's solver cannot tell which way up the page is, so the classifier must, and the
/// product of the two networks tells it worse: it reads turned digits about as surely as the
/// right way up. Two hard photos of bold 1s and 2s (seed 50008's round-11 mazes, turned 187
/// degrees) read 0.980 as their lattice lay and 0.993 and 0.990 turned by the product, and
/// were refused; the first network alone reads them 0.941 and 0.953 as they lay, against the
/// same turned scores, as it did before the second network was trained, and both are read
/// exactly.
fn settled_by_first_network(
    read: GridRead,
    turned: GridRead,
    upright: Option<GridRead>,
    cells: &CellsCut<'_>,
    classifier: &DigitClassifier,
) -> (GridRead, Option<GridRead>) {
    let Some(first) = classifier.members().first() else {
        return (read, upright);
    };
    let alone = read_each_way(cells, &DigitClassifier::from(first.clone()));
    let upright_score = orientation_score(&alone.upright);
    let surest_turned = alone
        .turned
        .iter()
        .map(|turned| (turned.quarter_turns, orientation_score(turned)))
        .max_by(|a, b| a.1.total_cmp(&b.1));
    match surest_turned {
        Some((turns, score))
            if score > upright_score + TURN_MARGIN && turns == turned.quarter_turns =>
        {
            let settled = GridRead {
                orientation_in_doubt: false,
                ..turned
            };
            (settled, Some(read))
        }
        Some((_, score)) if score >= upright_score => (read, upright),
        _ => (
            GridRead {
                orientation_in_doubt: false,
                ..read
            },
            upright,
        ),
    }
}

/// How much surer of its digits a turned reading must be before it beats the upright one: most
/// photos are upright once EXIF is applied, and turned digits still read confidently (6 and 9).
/// A turned reading at least as sure as the upright one but within this margin leaves the
/// orientation in doubt (see [`GridRead::orientation_in_doubt`]).
const TURN_MARGIN: f32 = 0.02;

/// How close to the chosen orientation's [`orientation_score`] the runner-up's must come to be
/// kept for the solver to judge.
const RUNNER_UP_MARGIN: f32 = 0.1;

/// The gray level of blank paper across the whole grid: most cells are mostly paper, so a high
/// percentile of all their pixels. One cell alone cannot tell a black given from blank paper in
/// a dim photo; the grid as a whole can.
fn paper_level(crops: &[Vec<GrayImage>]) -> f32 {
    let mut histogram = [0usize; 256];
    for crop in crops.iter().flatten() {
        for &pixel in crop.as_raw() {
            histogram[usize::from(pixel)] += 1;
        }
    }
    glyphs::histogram_percentile(&histogram, 0.9)
}

/// The gray level of the paper around each cell: the brightest of the paper levels (a high
/// percentile) of the cell and its eight neighbours. A corner of the photo in deep shadow or
/// vignetting is darker all over than the grid's paper, and a digit there would read as a black
/// given against the grid-wide level; a black given still has paper beside it.
fn neighbourhood_paper(crops: &[Vec<GrayImage>]) -> Vec<Vec<f32>> {
    let own: Vec<Vec<f32>> = crops
        .iter()
        .map(|row| {
            row.iter()
                .map(|crop| glyphs::percentile(crop.as_raw(), 0.9))
                .collect()
        })
        .collect();
    let (rows, columns) = (own.len(), own.first().map_or(0, Vec::len));
    (0..rows)
        .map(|row| {
            (0..columns)
                .map(|column| {
                    let near = |i: usize, n: usize| i.saturating_sub(1)..(i + 2).min(n);
                    near(row, rows)
                        .flat_map(|r| near(column, columns).map(move |c| (r, c)))
                        .map(|(r, c)| own[r][c])
                        .fold(0.0, f32::max)
                })
                .collect()
        })
        .collect()
}

/// A photo's paper gray level and how dark its digits are against the paper.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Levels {
    paper: f32,
    ink: f32,
}

/// How dark the digits are in this photo: a high percentile of the cells' darkest ink, which
/// the cells holding digits reach whatever their share of the grid (a fifth or more in
/// Sudoku, fewer in Nurikabe, where the blanks' paper texture sets a floor anyway).
fn ink_level(darkness: &[Vec<Vec<f32>>]) -> f32 {
    let mut peaks: Vec<f32> = darkness
        .iter()
        .flatten()
        .map(|d| glyphs::peak_darkness(d))
        .collect();
    if peaks.is_empty() {
        return 1.0;
    }
    let index = peaks.len() * 9 / 10;
    *peaks.select_nth_unstable_by(index, f32::total_cmp).1
}

/// The mean confidence of the numbers read, a lone 0 counting as a failure: neither Sudoku nor
/// Nurikabe has one, while a turned 6, 9 or 8 often reads as 0.
fn orientation_score(read: &GridRead) -> f32 {
    let numbers: Vec<f32> = read
        .cells
        .iter()
        .filter_map(|c| match c.value {
            CellValue::Number(0) => Some(0.0),
            CellValue::Number(_) => Some(c.confidence),
            _ => None,
        })
        .collect();
    if numbers.is_empty() {
        0.0
    } else {
        numbers.iter().sum::<f32>() / numbers.len() as f32
    }
}

/// Reads the crops upright, each with its flattened darkness, against the paper of its
/// neighbourhood (`local_paper`, see [`neighbourhood_paper`]).
fn read_upright(
    crops: &[Vec<GrayImage>],
    darkness: &[Vec<Vec<f32>>],
    local_paper: &[Vec<f32>],
    levels: Levels,
    classifier: &DigitClassifier,
) -> GridRead {
    let (rows, columns) = (crops.len(), crops.first().map_or(0, Vec::len));
    let cells = map_cells(rows, columns, |row, column| {
        let (crop, darkness) = (&crops[row][column], &darkness[row][column]);
        let paper = levels.paper.min(local_paper[row][column]);
        match glyphs::read_flattened(crop, darkness, paper, levels.ink) {
            CellContent::Black => read_dark_cell(crop, darkness, levels, row, column, classifier),
            CellContent::Blank => read_blank_cell(crop, darkness, row, column, classifier),
            content => read_cell(content, crop, row, column, classifier),
        }
    });
    GridRead::new(rows, columns, cells.into_iter().flatten().collect(), 0)
}

/// Reads the crops as if the page were turned `turns` quarter turns clockwise, when that
/// reading scores at least `to_beat` (an [`orientation_score`]) against the `upright` one.
///
/// It reads only the cells that held numbers upright (blank paper and black cells are so
/// whichever way up, and only numbers count in the score), and gives up, `None`, as soon as even
/// full confidence in every such cell left could not lift its score to `to_beat`: most photos
/// are upright, and a few turned digits read poorly enough to settle it.
fn read_turned(
    crops: &[Vec<GrayImage>],
    local_paper: &[Vec<f32>],
    turns: u8,
    levels: Levels,
    classifier: &DigitClassifier,
    (upright, to_beat): (&GridRead, f32),
) -> Option<GridRead> {
    let (source_rows, source_columns) = (crops.len(), crops.first().map_or(0, Vec::len));
    let (rows, columns) = if turns % 2 == 0 {
        (source_rows, source_columns)
    } else {
        (source_columns, source_rows)
    };
    let is_number = |cell: &CellRead| matches!(cell.value, CellValue::Number(_));
    let mut numbers_left = upright.cells.iter().filter(|c| is_number(c)).count();
    let (mut confidence_sum, mut numbers) = (0f32, 0usize);
    let mut cells = Vec::with_capacity(rows * columns);
    for row in 0..rows {
        for column in 0..columns {
            let (r, c) = source_cell(row, column, turns, source_rows, source_columns);
            let seen = &upright.cells[r * source_columns + c];
            if !is_number(seen) {
                cells.push(CellRead {
                    row,
                    column,
                    ..seen.clone()
                });
                continue;
            }
            let (crop, content) = turned_content(crops, local_paper, row, column, turns, levels);
            let cell = match content {
                CellContent::Black => {
                    let darkness = glyphs::flattened(&crop);
                    read_dark_cell(&crop, &darkness, levels, row, column, classifier)
                }
                content => read_cell(content, &crop, row, column, classifier),
            };
            numbers_left -= 1;
            match cell.value {
                CellValue::Number(0) => numbers += 1,
                CellValue::Number(_) => {
                    confidence_sum += cell.confidence;
                    numbers += 1;
                }
                _ => {}
            }
            // Scores are means over the numbers: at best every cell left is a number read with
            // full confidence. The small allowance covers rounding in the mean.
            let best =
                (confidence_sum + numbers_left as f32) / (numbers + numbers_left).max(1) as f32;
            if best < to_beat - 1e-4 {
                return None;
            }
            cells.push(cell);
        }
    }
    Some(GridRead::new(rows, columns, cells, turns))
}

/// How sure the classifier must be of a digit that shows only when its cell is read turned:
/// motion blur smears paper texture into streaks one way, which the glyph finder drops as
/// dashes upright and may keep turned, and those read poorly.
const SIDEWAYS_DIGIT: f32 = 0.9;

/// `read`, turned a quarter or three quarters, with each cell that read blank or black upright
/// read again turned. The glyph finder is not the same sideways: a digit on its side is a short
/// wide blob, taken for a dash of noise (a 1 above all, a mere bar then) or cut in two as too
/// wide for one digit (which makes a shadowed cell's digit a black given); turned upright it
/// stands as any digit does. Only a cell that `eligible` takes (by its index) and that shows a
/// single digit read surely ([`SIDEWAYS_DIGIT`]) turned is changed.
fn with_sideways_digits(
    mut read: GridRead,
    crops: &[Vec<GrayImage>],
    levels: Levels,
    classifier: &DigitClassifier,
    eligible: impl Fn(usize) -> bool,
) -> GridRead {
    let turns = read.quarter_turns;
    if turns % 2 == 0 {
        return read;
    }
    for (index, cell) in read.cells.iter_mut().enumerate() {
        if !matches!(cell.value, CellValue::Blank | CellValue::Black) || !eligible(index) {
            continue;
        }
        let crop = turned_crop(crops, cell.row, cell.column, turns);
        let turned = if cell.value == CellValue::Black {
            let darkness = glyphs::flattened(&crop);
            read_dark_cell(&crop, &darkness, levels, cell.row, cell.column, classifier)
        } else {
            match glyphs::read_cell_with_levels(&crop, levels.paper, levels.ink) {
                content @ CellContent::Glyphs(_) => {
                    read_cell(content, &crop, cell.row, cell.column, classifier)
                }
                _ => continue,
            }
        };
        let digit = matches!(turned.value, CellValue::Number(n) if n < 10);
        if digit && turned.confidence >= SIDEWAYS_DIGIT {
            *cell = turned;
        }
    }
    read
}

/// `read` with every number read again at several ink splits, each value ranked by its mean
/// probability over them (see [`splits::ranked_over_splits`]). Blur spreads a digit's ink: at
/// the one split a grid is read with, a Nurikabe hard photo's 1s come out as ovals read surely
/// as 8, 3 or 4, and its 5s as 6s, while a higher split thins them back. The mean makes the
/// printed digit the first alternative, where the corrector tries it first; the reading keeps
/// its confidence unless the mean ranks another value first. (Taking the mean's lower
/// confidence too made many changes cheap, and the corrector stopped at a wrong puzzle that
/// two of them made unique: hard photo 15x15-5383030 seed 40033.) Only the numbers `chosen`
/// are read again. Each cell is cut in the reading's orientation; the cells are spread over
/// the cores.
fn averaged_over_splits(
    mut read: GridRead,
    crops: &[Vec<GrayImage>],
    levels: Levels,
    classifier: &DigitClassifier,
    chosen: &dyn Fn(&CellRead) -> bool,
) -> GridRead {
    let turns = read.quarter_turns;
    let numbers: Vec<(usize, usize, usize)> = read
        .cells
        .iter()
        .enumerate()
        .filter(|(_, cell)| matches!(cell.value, CellValue::Number(_)) && chosen(cell))
        .map(|(index, cell)| (index, cell.row, cell.column))
        .collect();
    let rankings = bands::map(&numbers, |&(_, row, column)| {
        let crop = turned_crop(crops, row, column, turns);
        let darkness = glyphs::flattened(&crop);
        splits::ranked_over_splits(&crop, &darkness, levels.ink, classifier)
    });
    for (&(index, _, _), ranked) in numbers.iter().zip(rankings) {
        let Some(ranked) = ranked else {
            continue;
        };
        let cell = &mut read.cells[index];
        if let [(value @ CellValue::Number(_), mean), rest @ ..] = ranked.as_slice() {
            // A reading the splits agree on keeps its own confidence: only the order of what
            // else it might be is the splits'.
            cell.confidence = if *value == cell.value {
                cell.confidence.max(*mean)
            } else {
                *mean
            };
            cell.value = *value;
            cell.alternatives = rest.to_vec();
        }
    }
    read
}

/// How sure a maze's digit must read not to be read again at several ink splits. Of the single
/// digits read at 0.5-0.7 that the splits' mean changed, 12 came out right and 8 wrong, and
/// above 0.7 mostly wrong; at 0.7 rather than 0.5 the 96 hard maze dev photos read 86.5%
/// exactly against 85.4% and seed 900's eight hard mazes 87.5% against 75%, none solved less.
const DOUBTFUL_DIGIT: f32 = 0.7;

/// A jump maze's `read` with each number it cannot hold (a maze prints one digit a cell) or
/// read less surely than [`DOUBTFUL_DIGIT`] taken as [`averaged_over_splits`] reads it, where
/// that is one digit. On the 96 hard maze dev photos, reading every number so changed 217
/// cells: of those now read right, 113 of 131 were numbers a maze cannot hold or read below
/// 0.5; of those read right before, only 2 of 50 were, the rest single digits read surely,
/// which the splits' mean, taken everywhere, turned wrong (a 3 read at 1.00 as a 1 at 0.51).
fn with_doubtful_digits_averaged(
    mut read: GridRead,
    crops: &[Vec<GrayImage>],
    levels: Levels,
    classifier: &DigitClassifier,
) -> GridRead {
    let doubtful = |cell: &CellRead| {
        matches!(cell.value, CellValue::Number(n) if n > 9) || cell.confidence < DOUBTFUL_DIGIT
    };
    let averaged = averaged_over_splits(read.clone(), crops, levels, classifier, &doubtful);
    // The cells not doubtful come back as they were read.
    for (cell, again) in read.cells.iter_mut().zip(averaged.cells) {
        if matches!(again.value, CellValue::Number(n) if n <= 9) {
            *cell = again;
        }
    }
    read
}

/// The crop of the cell that shows at (`row`, `column`) after `turns` clockwise quarter turns
/// of the grid of `crops` (see [`turned_crop`]) and what it holds, found at the photo's
/// `levels` against the paper of the cell's neighbourhood (`local_paper`, by the crops' rows
/// and columns) as the upright reading finds it, as [`read_turned`] reads a turned grid's
/// numbers.
fn turned_content(
    crops: &[Vec<GrayImage>],
    local_paper: &[Vec<f32>],
    row: usize,
    column: usize,
    turns: u8,
    levels: Levels,
) -> (GrayImage, CellContent) {
    let (rows, columns) = (crops.len(), crops.first().map_or(0, Vec::len));
    let (r, c) = source_cell(row, column, turns, rows, columns);
    let crop = turned_crop(crops, row, column, turns);
    let paper = levels.paper.min(local_paper[r][c]);
    let content = glyphs::read_cell_with_levels(&crop, paper, levels.ink);
    (crop, content)
}

/// The crop of the cell that shows at (`row`, `column`) after `turns` clockwise quarter turns
/// of the grid of `crops`, turned with it.
fn turned_crop(crops: &[Vec<GrayImage>], row: usize, column: usize, turns: u8) -> GrayImage {
    let (rows, columns) = (crops.len(), crops.first().map_or(0, Vec::len));
    let (r, c) = source_cell(row, column, turns, rows, columns);
    turned(&crops[r][c], turns)
}

/// `crop` turned `turns` clockwise quarter turns, as a grid read turned shows its cells.
fn turned(crop: &GrayImage, turns: u8) -> GrayImage {
    match turns % 4 {
        0 => crop.clone(),
        1 => image::imageops::rotate90(crop),
        2 => image::imageops::rotate180(crop),
        _ => image::imageops::rotate270(crop),
    }
}

/// The cell of the unturned lattice that shows at (`row`, `column`) after `turns` clockwise
/// quarter turns of a `rows` x `columns` grid.
pub fn source_cell(
    row: usize,
    column: usize,
    turns: u8,
    rows: usize,
    columns: usize,
) -> (usize, usize) {
    match turns % 4 {
        0 => (row, column),
        1 => (rows - 1 - column, row),
        2 => (rows - 1 - row, columns - 1 - column),
        _ => (column, columns - 1 - row),
    }
}

/// How many alternative readings of a number are kept.
const ALTERNATIVES: usize = 6;

/// The reading of a cell whose crop holds `content`.
fn read_cell(
    content: CellContent,
    crop: &GrayImage,
    row: usize,
    column: usize,
    classifier: &DigitClassifier,
) -> CellRead {
    let ranked = ranked_from_content(content, crop, classifier, None, None, None);
    let (value, confidence) = ranked[0];
    CellRead {
        row,
        column,
        value,
        confidence,
        alternatives: ranked[1..].to_vec(),
    }
}

/// How sure the classifier must be of a washed-out digit in a cell that reads blank before the
/// digit becomes its alternative, and the share of that probability the alternative is given:
/// most such "digits" are paper texture, so the corrector tries them only when the grid needs
/// more givens.
const FAINT_DIGIT: f32 = 0.9;
const FAINT_SHARE: f32 = 0.2;
/// The least height (share of the cell) of a washed-out digit.
const FAINT_HEIGHT: f32 = 0.35;

/// The reading of a cell that reads blank: blank, and when a single glyph of digit height
/// shows at a contrast too faint for ink (glare washing out the print) and reads surely, that
/// digit as an unlikely alternative.
fn read_blank_cell(
    crop: &GrayImage,
    darkness: &[f32],
    row: usize,
    column: usize,
    classifier: &DigitClassifier,
) -> CellRead {
    let mut cell = CellRead {
        row,
        column,
        value: CellValue::Blank,
        confidence: 1.0,
        alternatives: Vec::new(),
    };
    let Some(glyph) = glyphs::find_faint_glyph(crop, darkness) else {
        return cell;
    };
    let height = (glyph.bounds.y1 - glyph.bounds.y0) as f32;
    if height < FAINT_HEIGHT * crop.height() as f32 {
        return cell;
    }
    let (digit, p) = classifier.classify(&glyph).ranked()[0];
    if p < FAINT_DIGIT || digit == 0 {
        return cell;
    }
    cell.confidence = 1.0 - FAINT_SHARE * p;
    cell.alternatives = vec![(CellValue::Number(u32::from(digit)), FAINT_SHARE * p)];
    cell
}

/// How sure the classifier must be of a digit in a cell dark all over before the cell reads as
/// that digit rather than a black given.
const SHADOWED_DIGIT: f32 = 0.9;
/// The widest (share of the cell) a digit in a cell dark all over may be: the flattened
/// texture of a black given makes a blob across the whole cell, a digit leaves paper beside it.
const SHADOWED_WIDTH: f32 = 0.6;

/// The reading of a cell dark all over even against its neighbours' paper: a black given, or a
/// digit in a band of shadow along the grid's edge (the neighbours out of the shadow are
/// bright). It is the digit only when a single glyph of digit width stands out clearly against
/// the cell's own paper and reads surely; black otherwise, with blank as its alternative for
/// kinds without black cells.
fn read_dark_cell(
    crop: &GrayImage,
    darkness: &[f32],
    levels: Levels,
    row: usize,
    column: usize,
    classifier: &DigitClassifier,
) -> CellRead {
    let black = CellRead {
        row,
        column,
        value: CellValue::Black,
        confidence: 1.0,
        alternatives: vec![(CellValue::Blank, 0.0)],
    };
    let CellContent::Glyphs(glyphs) = glyphs::find_glyphs(crop, darkness, levels.ink) else {
        return black;
    };
    let [glyph] = glyphs.as_slice() else {
        return black;
    };
    let width = (glyph.bounds.x1 - glyph.bounds.x0) as f32;
    let ranked = classifier.classify(glyph).ranked();
    let (digit, p) = ranked[0];
    if width > SHADOWED_WIDTH * crop.width() as f32 || p < SHADOWED_DIGIT {
        return black;
    }
    let mut alternatives: Vec<(CellValue, f32)> = ranked[1..ALTERNATIVES]
        .iter()
        .map(|&(d, q)| (CellValue::Number(u32::from(d)), q))
        .collect();
    alternatives.push((CellValue::Black, 1.0 - p));
    CellRead {
        row,
        column,
        value: CellValue::Number(u32::from(digit)),
        confidence: p,
        alternatives,
    }
}

/// The readings of a crop whose glyphs have been found (`content`), most likely first (never
/// empty): blank or black for sure, or numbers from its glyphs with their probabilities, ending
/// with blank at probability 0. Each glyph's digits are weighed by the photo's clue `widths`
/// and, given the crop's darkness, by the glyph's `company` (see `clue_company`), where known.
/// Where the number is known to be at most `largest` (a clue's line length), the numbers its
/// glyphs can make within it are kept first (see [`likeliest_leading_digits`]).
fn ranked_from_content(
    content: CellContent,
    crop: &GrayImage,
    classifier: &DigitClassifier,
    widths: Option<&digit_widths::DigitWidths>,
    company: Option<(&clue_company::GlyphCompany, &[f32])>,
    largest: Option<u32>,
) -> Vec<(CellValue, f32)> {
    let glyphs = match content {
        CellContent::Blank => return vec![(CellValue::Blank, 1.0)],
        CellContent::Black => return vec![(CellValue::Black, 1.0)],
        CellContent::Glyphs(glyphs) => glyphs,
    };
    let glyphs = without_ruled_lines(glyphs, crop);
    if glyphs.is_empty() {
        return vec![(CellValue::Blank, 1.0)];
    }
    // Multi-digit numbers: combine each glyph's ranked digits into ranked numbers, keeping the
    // best few at every position so the list stays short.
    let digits: Vec<[(u8, f32); 10]> = glyphs
        .iter()
        .take(3)
        .map(|glyph| {
            let mut reading = classifier.classify(glyph);
            if let Some((company, darkness)) = company {
                let found = clue_company::GlyphInCrop {
                    glyph,
                    darkness,
                    width: crop.width() as usize,
                };
                reading.probabilities = company.weighed(found, reading.probabilities);
            }
            let ranked = reading.ranked();
            match widths {
                Some(widths) => widths.weighed(glyph, ranked),
                None => ranked,
            }
        })
        .collect();
    let mut numbers: Vec<(u32, f32)> = vec![(0, 1.0)];
    let number_glyphs = glyphs.len().min(3);
    for (k, glyph) in glyphs.iter().take(3).enumerate() {
        let condensed = glyphs
            .iter()
            .zip(&digits)
            .enumerate()
            .any(|(j, (other, ranked))| j != k && condensed_company(glyph, other, ranked[0]));
        // The photo's own widths, where measured, tell a 1's width better than the fixed
        // share: a 3 cut from its touching 6 in a boxed "36" is narrow yet far wider than
        // the photo's 1s.
        let no_one_by_width = widths.is_some_and(|widths| widths.wider_than_ones(glyph));
        let ranked = if condensed || no_one_by_width {
            digits[k]
        } else {
            with_narrow_prior(glyph, digits[k])
        };
        let next: Vec<(u32, f32)> = numbers
            .iter()
            .flat_map(|&(n, p)| {
                ranked
                    .iter()
                    .map(move |&(d, q)| (n * 10 + u32::from(d), p * q))
            })
            .collect();
        numbers = likeliest_leading_digits(next, number_glyphs - k - 1, largest);
    }
    let mut ranked: Vec<(CellValue, f32)> = numbers
        .into_iter()
        .map(|(n, p)| (CellValue::Number(n), p))
        .collect();
    if glyphs.len() > 1 {
        // A speck or a sliver of grid line beside a digit reads as a second glyph; the largest
        // glyph alone is the likelier reading for kinds without multi-digit numbers.
        let area =
            |g: &glyphs::NormalisedGlyph| (g.bounds.x1 - g.bounds.x0) * (g.bounds.y1 - g.bounds.y0);
        if let Some(largest) = glyphs.iter().max_by_key(|g| area(g)) {
            let single = classifier.classify(largest).ranked();
            ranked.extend(
                single
                    .iter()
                    .take(ALTERNATIVES)
                    .map(|&(d, p)| (CellValue::Number(u32::from(d)), p * SINGLE_GLYPH_SHARE)),
            );
        }
    }
    if let [glyph] = glyphs.as_slice() {
        ranked.extend(joined_digit_readings(glyph, classifier));
    }
    ranked.push((CellValue::Blank, 0.0));
    ranked
}

/// `glyphs` found in `crop` without those that are ruled lines: a long hair-thin stroke is a
/// line running through the cell (a page rule, a fold), trimmed at its ends where the glyph
/// finder wipes the border; no digit, not even a 1, is ten times as long as it is thick.
fn without_ruled_lines(
    glyphs: Vec<glyphs::NormalisedGlyph>,
    crop: &GrayImage,
) -> Vec<glyphs::NormalisedGlyph> {
    let (width, height) = crop.dimensions();
    glyphs
        .into_iter()
        .filter(|g| {
            let (across, down) = (g.bounds.x1 - g.bounds.x0 + 1, g.bounds.y1 - g.bounds.y0 + 1);
            let vertical_line = down * 10 > height * 7 && down > across * 10;
            let horizontal_line = across * 10 > width * 7 && across > down * 10;
            !(vertical_line || horizontal_line)
        })
        .collect()
}

/// The [`ALTERNATIVES`] likeliest of `numbers` (leading digits of a number read so far, each
/// with its probability), most likely first, those that can still end within `largest` with
/// `digits_left` more digits kept before those that cannot. A clue is no longer than its line:
/// in a row of 10 cells a blurred "10" whose 0 reads as 8 ranks 18, 78 and 28 far above 10,
/// and cut short by probability alone the list would lose the one two-digit value the row
/// allows. Numbers that cannot fit stay behind, for a stray mark read as a leading 1 (see
/// `CluesRead::within_lines`).
fn likeliest_leading_digits(
    mut numbers: Vec<(u32, f32)>,
    digits_left: usize,
    largest: Option<u32>,
) -> Vec<(u32, f32)> {
    let scale = 10u32.pow(digits_left as u32);
    let fits = |n: u32| largest.is_none_or(|largest| n.saturating_mul(scale) <= largest);
    numbers.sort_by(|a, b| fits(b.0).cmp(&fits(a.0)).then(b.1.total_cmp(&a.1)));
    numbers.truncate(ALTERNATIVES);
    numbers.sort_by(|a, b| b.1.total_cmp(&a.1));
    numbers
}

/// Lone glyphs at least this wide (width over height) may be two digits that blur joined into
/// one blob: a clue's 11 (two thin stems a stroke's width apart) reads as a 3 or an 8, a 10 or
/// a 12 as a 5 or a 3. On blurred photos such blobs measured 0.76 to 0.85 and most single
/// digits less; a wide single digit only gains alternatives, which the solver must confirm.
const WIDE_GLYPH: f32 = 0.75;
/// The weight given to reading a wide lone glyph as two digits: an alternative for the
/// corrector, the glyph read whole stays first.
const JOINED_SHARE: f32 = 0.5;

/// The two-digit readings of `glyph` cut in two (see `glyphs::halves`), at [`JOINED_SHARE`]
/// of the product of its parts' probabilities; none when it is not [`WIDE_GLYPH`].
fn joined_digit_readings(
    glyph: &glyphs::NormalisedGlyph,
    classifier: &DigitClassifier,
) -> Vec<(CellValue, f32)> {
    let b = glyph.bounds;
    if ((b.x1 - b.x0) as f32) < WIDE_GLYPH * (b.y1 - b.y0) as f32 {
        return Vec::new();
    }
    let Some([left, right]) = glyphs::halves(glyph) else {
        return Vec::new();
    };
    let tens = with_narrow_prior(&left, classifier.classify(&left).ranked());
    let units = with_narrow_prior(&right, classifier.classify(&right).ranked());
    let mut numbers: Vec<(u32, f32)> = tens
        .iter()
        .filter(|&&(d, _)| d != 0)
        .take(3)
        .flat_map(|&(a, p)| {
            units
                .iter()
                .take(3)
                .map(move |&(u, q)| (u32::from(a) * 10 + u32::from(u), p * q * JOINED_SHARE))
        })
        .collect();
    numbers.sort_by(|a, b| b.1.total_cmp(&a.1));
    numbers.truncate(ALTERNATIVES);
    numbers
        .into_iter()
        .map(|(n, p)| (CellValue::Number(n), p))
        .collect()
}

/// Glyphs narrower than this (width over height) are most likely 1s: other digits are rarely
/// under half as wide as tall, while the classifier, trained on a few typefaces, often reads a
/// newspaper 1 (a thin stem under a heavy flag once blurred) as 3, 7 or 9. Rendered digits under
/// shear and perspective fall below it too (3-4% of them), so this only doubts the reading.
const NARROW_GLYPH: f32 = 0.5;

/// Whether `other`, a glyph of the same number read as `reading`, shows that `glyph` is as
/// narrow as its typeface's digits are, not narrow for being a 1: it reads surely as another
/// digit and is hardly wider. A condensed face prints every digit under half as wide as tall,
/// and doubting its 2s, 5s and 7s as 1s ties each two-digit number with its last digit alone.
fn condensed_company(
    glyph: &glyphs::NormalisedGlyph,
    other: &glyphs::NormalisedGlyph,
    reading: (u8, f32),
) -> bool {
    let width = |g: &glyphs::NormalisedGlyph| g.bounds.x1 - g.bounds.x0;
    let (digit, p) = reading;
    digit != 1 && p >= CONDENSED_COMPANY_SURENESS && width(other) * 4 <= width(glyph) * 5
}

/// How sure the reading of a digit must be for its width to tell its typeface's.
const CONDENSED_COMPANY_SURENESS: f32 = 0.9;

/// `ranked` with 1 made the first alternative and the first reading's confidence halved when the
/// glyph is narrow enough to be a 1, so the solver's corrector tries 1 there first.
fn with_narrow_prior(
    glyph: &glyphs::NormalisedGlyph,
    mut ranked: [(u8, f32); 10],
) -> [(u8, f32); 10] {
    let width = (glyph.bounds.x1 - glyph.bounds.x0 + 1) as f32;
    let height = (glyph.bounds.y1 - glyph.bounds.y0 + 1) as f32;
    if width < height * NARROW_GLYPH {
        if let Some(position) = ranked
            .iter()
            .position(|&(digit, _)| digit == 1)
            .filter(|&p| p > 0)
        {
            ranked[1..=position].rotate_right(1);
            ranked[0].1 *= 0.5;
            ranked[1].1 = ranked[1].1.max(ranked[0].1 * 0.9);
        }
    }
    ranked
}

/// The weight given to reading only the largest glyph of a cell that holds several.
const SINGLE_GLYPH_SHARE: f32 = 0.5;

/// Whether `value` can stand in a cell of a `kind` puzzle whose grid's longer side is
/// `longest` cells. A maze's jump longer than that leaves the grid from any cell, past the
/// first cell outside the shape where a way out must land: no maze prints one, while a blurred
/// digit with a box edge or noise beside it reads as two digits (a 2 as 82 or 22).
fn allowed(kind: &str, value: CellValue, longest: usize) -> bool {
    match (kind, value) {
        (_, CellValue::Blank) => true,
        ("sudoku", CellValue::Number(n)) => (1..=9).contains(&n),
        ("nurikabe", CellValue::Number(n)) => n >= 1,
        ("jump", CellValue::Number(n)) => (1..=longest).contains(&(n as usize)),
        _ => false,
    }
}

/// `read` with every cell's value replaced, where the kind forbids it, by its most likely
/// allowed alternative (or blank), so that a lone 0 or a two-glyph cell in a Sudoku becomes a
/// reading the solver can work with; and a Nurikabe number larger than any island its grid
/// plausibly holds (see [`largest_island`]) read blank, its plausible readings kept as
/// alternatives; and in a jump maze, whose solver cannot check its digits, a value read
/// (nearly) nowhere else read as a likely alternative the maze plainly uses (see
/// [`with_values_read_elsewhere`]).
pub fn constrain(read: &GridRead, kind: &str) -> GridRead {
    let longest = read.rows.max(read.columns);
    let mut constrained = read.clone();
    let largest = (kind == "nurikabe").then(|| largest_island(read));
    for cell in &mut constrained.cells {
        if let (Some(largest), CellValue::Number(n)) = (largest, cell.value) {
            if n > largest {
                // Far larger than any island among so many clues: the streaks motion blur
                // draws through a blank cell's grain, read surely as 77 or 757 in a 20x20 grid
                // of 70 clues, not a misread clue.
                let options: Vec<(CellValue, f32)> = cell
                    .alternatives
                    .iter()
                    .copied()
                    .filter(|&(v, _)| {
                        !matches!(v, CellValue::Number(m) if m > largest) && v != CellValue::Blank
                    })
                    .collect();
                cell.value = CellValue::Blank;
                cell.alternatives = options;
                continue;
            }
        }
        if allowed(kind, cell.value, longest) {
            if kind == "jump" {
                without_forbidden_alternatives(cell, |v| allowed(kind, v, longest));
            }
            continue;
        }
        let mut options: Vec<(CellValue, f32)> = cell
            .alternatives
            .iter()
            .copied()
            .filter(|&(v, _)| allowed(kind, v, longest))
            .collect();
        options.sort_by(|a, b| b.1.total_cmp(&a.1));
        options.dedup_by_key(|option| option.0);
        let (value, confidence) = options.first().copied().unwrap_or((CellValue::Blank, 0.0));
        cell.value = value;
        cell.confidence = confidence;
        cell.alternatives = options.into_iter().skip(1).collect();
    }
    if kind == "jump" {
        with_values_read_elsewhere(&mut constrained);
    }
    constrained
}

/// `cell`'s alternatives less those `allowed` rejects, their probability shared out over the
/// readings left in proportion: a maze's digits decide whether it is trusted, since its solver
/// cannot check them, and a reading no maze prints (a 0, or the arc of the start's ring left
/// beside its digit, read 44 or 94) is no doubt about the digit. A start's 1 at 0.58 beside a
/// 0 at 0.05 was refused as unsure. Of 360 hard maze photos (`jh`, `jh2`, `jh3`, `jp` and the
/// fresh `jh4`), two refused ones solve (one read exactly) and every other result is as before.
fn without_forbidden_alternatives(cell: &mut CellRead, allowed: impl Fn(CellValue) -> bool) {
    let forbidden: f32 = cell
        .alternatives
        .iter()
        .filter(|&&(value, _)| !allowed(value))
        .map(|&(_, p)| p)
        .sum();
    if forbidden <= 0.0 || forbidden >= 1.0 {
        return;
    }
    let kept = 1.0 - forbidden;
    cell.confidence = (cell.confidence / kept).min(1.0);
    cell.alternatives.retain(|&(value, _)| allowed(value));
    for alternative in &mut cell.alternatives {
        alternative.1 /= kept;
    }
}

/// How many times the cells per clue a Nurikabe clue may be: the largest of 22 published and
/// generated puzzles' clues is 2.5 times (a Nikoli 720-cell grid's 22 among 81 clues). At 8
/// times a blurred 20x20 page's 45 among 68 clues (7.6 times) stayed a clue; a puzzle with a
/// clue past 6 times would be refused, not answered wrongly.
const LARGEST_ISLAND_SHARE: f32 = 6.0;

/// The largest clue a Nurikabe grid read as `read` can plausibly hold: [`LARGEST_ISLAND_SHARE`]
/// times its cells per clue read, and never more than its cells.
fn largest_island(read: &GridRead) -> u32 {
    let cells = read.rows * read.columns;
    let clues = read
        .cells
        .iter()
        .filter(|c| matches!(c.value, CellValue::Number(_)))
        .count()
        .max(1);
    ((LARGEST_ISLAND_SHARE * cells as f32 / clues as f32) as u32).min(cells as u32)
}

/// Which kind a grid of numbers is: a jump maze (see [`looks_like_jump`]), a 9x9 grid of single
/// digits 1-9 is a Sudoku, anything else a Nurikabe.
pub fn guess_kind(read: &GridRead) -> &'static str {
    let single_digits = read.cells.iter().all(|c| match c.value {
        CellValue::Number(n) => (1..=9).contains(&n),
        _ => true,
    });
    if looks_like_jump(read) {
        "jump"
    } else if read.rows == 9 && read.columns == 9 && single_digits {
        "sudoku"
    } else {
        "nurikabe"
    }
}

/// Whether a reading is a number-jump maze: an irregular shape packed with numbers. Nearly half
/// the cells or more hold a number (no Sudoku or Nurikabe is that full), every row's numbers
/// stand side by side without gaps, the centre (the start) holds one, and the corners are
/// outside the shape.
pub fn looks_like_jump(read: &GridRead) -> bool {
    let number =
        |(row, column): (usize, usize)| matches!(read.get(row, column).value, CellValue::Number(_));
    if read.rows < 3 || read.columns < 3 {
        return false;
    }
    let numbers = read.numbers();
    let gaps: usize = (0..read.rows)
        .map(|row| {
            let filled: Vec<usize> = (0..read.columns).filter(|&c| number((row, c))).collect();
            match (filled.first(), filled.last()) {
                (Some(first), Some(last)) => last - first + 1 - filled.len(),
                _ => 0,
            }
        })
        .sum();
    let (last_row, last_column) = (read.rows - 1, read.columns - 1);
    let corners = [
        (0, 0),
        (0, last_column),
        (last_row, 0),
        (last_row, last_column),
    ];
    numbers * 20 >= read.cells.len() * 9
        && gaps * 20 <= numbers
        && number(read.middle())
        && corners.iter().all(|&corner| !number(corner))
}

/// The puzzle a reading describes, as `kind`.
pub fn to_puzzle(read: &GridRead, kind: &str) -> Result<Box<dyn Puzzle>, Error> {
    if !matches!(kind, "sudoku" | "nurikabe" | "jump") {
        return Err(Error::Unreadable(format!(
            "reading {kind} puzzles from photos is not supported yet; give the puzzle as text"
        )));
    }
    let values: Vec<CellValue> = read.cells.iter().map(|c| c.value).collect();
    puzzle_from_values(&values, read.rows, read.columns, kind).ok_or_else(|| {
        let (row, column) = read.middle();
        let middle = values.get(row * read.columns + column);
        match (kind, middle) {
            ("jump", Some(CellValue::Blank)) => Error::Unreadable(format!(
                "the maze's start, r{}c{} in the middle of the {}x{} grid read, read blank: its \
                 digit was missed, or the grid is not the whole maze",
                row + 1,
                column + 1,
                read.rows,
                read.columns
            )),
            _ => Error::Unreadable(format!(
                "the {}x{} grid read does not make a {kind}",
                read.rows, read.columns
            )),
        }
    })
}

/// The puzzle `values` make as `kind`, or `None` when they cannot (a 0 or a black cell in a
/// Nurikabe, a number above 9 in a Sudoku, a Sudoku that is not 9x9, a jump maze whose centre,
/// its start, is outside the shape).
fn puzzle_from_values(
    values: &[CellValue],
    rows: usize,
    columns: usize,
    kind: &str,
) -> Option<Box<dyn Puzzle>> {
    match kind {
        "sudoku" if rows == 9 && columns == 9 => {
            let mut cells = [0u8; 81];
            for (cell, value) in cells.iter_mut().zip(values) {
                *cell = sudoku_print::digit(*value)?;
            }
            Some(Box::new(Sudoku { cells }))
        }
        "nurikabe" => {
            let mut clues = Vec::new();
            for (i, value) in values.iter().enumerate() {
                match *value {
                    CellValue::Number(0) | CellValue::Black => return None,
                    CellValue::Number(n) => clues.push((i / columns, i % columns, n)),
                    CellValue::Blank => {}
                }
            }
            Some(Box::new(Nurikabe {
                width: columns,
                height: rows,
                clues,
            }))
        }
        "jump" => {
            let grid = values
                .chunks(columns.max(1))
                .map(|row| {
                    row.iter()
                        .map(|value| match *value {
                            CellValue::Number(n) if n >= 1 => Some(n),
                            CellValue::Blank => Some(0),
                            _ => None,
                        })
                        .collect::<Option<Vec<u32>>>()
                })
                .collect::<Option<Vec<_>>>()?;
            let start = (rows / 2, columns / 2);
            (grid.get(start.0)?.get(start.1)? > &0)
                .then(|| Box::new(JumpMaze { grid, start }) as Box<dyn Puzzle>)
        }
        _ => None,
    }
}

/// A reading the solver made the reader change: where (a cell such as `r3c4`, or a clue such
/// as `row 3 clue 2`), what was read and what it became.
#[derive(Debug, Clone, PartialEq)]
pub struct Correction {
    pub place: String,
    pub read: CellValue,
    pub corrected: CellValue,
}

/// The most misread digits a reading may be expected to hold (the sum over its digits of the
/// chance each is wrong) when the solver cannot check it. Measured on generated jump mazes:
/// wrong digits read with confidence 0.3-0.9 are about as common as right ones there, so a
/// few of them already make a misread likely, while a clean reading sums to well under one.
const EXPECTED_MISREADS: f32 = 1.0;
/// The least confidence any one digit of such a reading may have: below it a digit is about as
/// likely wrong as right, however sure the others are.
const LEAST_CONFIDENCE: f32 = 0.6;

/// How doubtful a reading's numbers are as a whole, what a reading its solver cannot check is
/// refused by.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Doubt {
    /// How many cells hold numbers.
    pub numbers: usize,
    /// How many of them read under 0.9 sure.
    pub unsure: usize,
    /// The sum over the numbers of the chance each is wrong.
    pub misreads: f32,
    /// The least sure number's confidence (1 without numbers).
    pub least: f32,
}

impl Doubt {
    /// The doubt of `cells`. In a grid of at least [`VALUES_KNOWN`] numbers, each number's
    /// confidence is first weighed by how often its value and its alternatives are read
    /// elsewhere in the grid (see [`confidence_among`]).
    pub fn of(cells: &[CellRead]) -> Doubt {
        let confidences: Vec<f32> = cells
            .iter()
            .zip(weighed_confidences(cells))
            .filter(|(c, _)| matches!(c.value, CellValue::Number(_)))
            .map(|(_, confidence)| confidence)
            .collect();
        Doubt::of_confidences(&confidences)
    }

    /// The doubt of numbers read with `confidences`, taken as they are.
    fn of_confidences(confidences: &[f32]) -> Doubt {
        Doubt {
            numbers: confidences.len(),
            unsure: confidences.iter().filter(|&&c| c < 0.9).count(),
            misreads: confidences.iter().map(|c| 1.0 - c).sum(),
            least: confidences.iter().copied().fold(1.0, f32::min),
        }
    }

    /// Whether a misread is likely enough that a reading its solver cannot check (see
    /// [`EXPECTED_MISREADS`], [`LEAST_CONFIDENCE`]) is refused.
    pub fn too_high(&self) -> bool {
        self.misreads > EXPECTED_MISREADS || self.least < LEAST_CONFIDENCE
    }
}

/// Each cell's confidence; in a grid of at least [`VALUES_KNOWN`] numbers, a number's is
/// weighed by how often its value and its alternatives are read elsewhere in the grid (see
/// [`confidence_among`]).
fn weighed_confidences(cells: &[CellRead]) -> Vec<f32> {
    let counts = known_value_counts(cells);
    cells
        .iter()
        .map(|c| match (c.value, &counts) {
            (CellValue::Number(_), Some(counts)) => confidence_among(c, counts),
            _ => c.confidence,
        })
        .collect()
}

/// How many cells read each number, when they are at least [`VALUES_KNOWN`] in all.
fn known_value_counts(cells: &[CellRead]) -> Option<HashMap<u32, usize>> {
    let mut counts: HashMap<u32, usize> = HashMap::new();
    for cell in cells {
        if let CellValue::Number(n) = cell.value {
            *counts.entry(n).or_default() += 1;
        }
    }
    (counts.values().sum::<usize>() >= VALUES_KNOWN).then_some(counts)
}

/// The fewest numbers a grid must hold for how often each value is read in it to say which
/// values the puzzle uses (a jump maze holds 60-330; a grid of a few numbers says nothing).
const VALUES_KNOWN: usize = 30;
/// Pseudo-count added to every value's count in [`confidence_among`]: a value read nowhere
/// else in the grid still weighs as much as one read once.
const VALUE_PRIOR_COUNT: f32 = 1.0;
/// The weight in [`confidence_among`] of a value read this often or more elsewhere in the grid
/// (with [`VALUE_PRIOR_COUNT`]): every value the puzzle plainly uses weighs alike, so only a
/// value (nearly) absent from the grid is doubted. Weighed by their counts, a 1 at 0.63 against
/// a 2 at 0.3 in a maze of 39 1s and 50 2s fell under [`LEAST_CONFIDENCE`], a right reading
/// refused.
const COMMON_VALUE: f32 = 5.0;

/// A number cell's readings, each probability times how often its value is read in the other
/// cells of the grid (up to [`COMMON_VALUE`]).
struct WeighedReadings {
    /// The weighed probability of the value read.
    own: f32,
    /// The weighed probability of each alternative, in the cell's order.
    alternatives: Vec<f32>,
    /// The sum of all, the mass the classifier gave to readings it did not list weighed as a
    /// common value.
    total: f32,
}

impl WeighedReadings {
    /// `cell`'s readings weighed by `counts`, the values read in the whole grid (the cell
    /// itself among them); `None` when the cell holds no number.
    fn of(cell: &CellRead, counts: &HashMap<u32, usize>) -> Option<WeighedReadings> {
        let CellValue::Number(value) = cell.value else {
            return None;
        };
        let weight = |v: CellValue| match v {
            CellValue::Number(n) => value_weight(n, value, counts),
            _ => VALUE_PRIOR_COUNT,
        };
        let listed: f32 = cell.alternatives.iter().map(|&(_, p)| p).sum();
        let unlisted = (1.0 - cell.confidence - listed).max(0.0);
        let own = cell.confidence * weight(cell.value);
        let alternatives: Vec<f32> = cell
            .alternatives
            .iter()
            .map(|&(v, p)| p * weight(v))
            .collect();
        let total = own + alternatives.iter().sum::<f32>() + unlisted * COMMON_VALUE;
        Some(WeighedReadings {
            own,
            alternatives,
            total,
        })
    }
}

/// The weight of reading `n` in a cell read `value`: how often `n` is read in the other cells
/// (`counts` holds the whole grid's) plus [`VALUE_PRIOR_COUNT`], at most [`COMMON_VALUE`].
fn value_weight(n: u32, value: u32, counts: &HashMap<u32, usize>) -> f32 {
    let elsewhere = counts.get(&n).copied().unwrap_or(0) - usize::from(n == value);
    (elsewhere as f32 + VALUE_PRIOR_COUNT).min(COMMON_VALUE)
}

/// `cell`'s confidence in its number given the values read in the whole grid (`counts`, the
/// cell itself among them): the classifier's probability of each reading times how often that
/// value is read in the other cells (up to [`COMMON_VALUE`]), normalised. Never more than the
/// cell's own confidence: it only makes a number read (nearly) nowhere else in the grid
/// doubtful (a 7 among a maze of 1s, 2s and 3s is likelier a misread 2 than the one 7).
fn confidence_among(cell: &CellRead, counts: &HashMap<u32, usize>) -> f32 {
    match WeighedReadings::of(cell, counts) {
        Some(weighed) if weighed.total > 0.0 => (weighed.own / weighed.total).min(cell.confidence),
        _ => cell.confidence,
    }
}

/// `read` with each number read (nearly) nowhere else in the grid read as its likeliest
/// alternative given the values read in the whole grid, where that is another number read
/// more often (see [`WeighedReadings`]); in a grid of at least [`VALUES_KNOWN`] numbers. Its
/// confidence becomes the weighed one. A 7 at 0.56 in a maze of 1s, 2s and 3s, a 1 second at
/// 0.3, is the 1; values the grid plainly uses are never exchanged for one another.
fn with_values_read_elsewhere(read: &mut GridRead) {
    let Some(counts) = known_value_counts(&read.cells) else {
        return;
    };
    for cell in &mut read.cells {
        let CellValue::Number(value) = cell.value else {
            continue;
        };
        let Some(weighed) = WeighedReadings::of(cell, &counts) else {
            continue;
        };
        let weight = |n: u32| value_weight(n, value, &counts);
        let likeliest = cell
            .alternatives
            .iter()
            .zip(&weighed.alternatives)
            .enumerate()
            .filter(|(_, (&(v, _), &w))| {
                matches!(v, CellValue::Number(n) if weight(n) > weight(value)) && w > weighed.own
            })
            .max_by(|a, b| (a.1).1.total_cmp((b.1).1))
            .map(|(index, (_, &w))| (index, w));
        if let Some((index, w)) = likeliest {
            let read_as = (cell.value, cell.confidence);
            cell.value = cell.alternatives[index].0;
            cell.confidence = w / weighed.total;
            cell.alternatives[index] = read_as;
            cell.alternatives.sort_by(|a, b| b.1.total_cmp(&a.1));
        }
    }
}

/// How many of the least confident cells the corrector may change, and how many at once. A hard
/// Nurikabe photo's blank cells, their grain read as unsure digits and made blank, fill the
/// nine least sure places, and the misread clues lie past them: with 14, seed 7777's hard
/// Nurikabe 00045 (a 3 read 1, a 1 read 8) is mended; no other dev photo changes. Four at once
/// (three before; see [`SET_ALTERNATIVES`]) mend seed 900's hard Nurikabe 00045, four clues
/// misread each with the print as its likeliest alternative.
const DOUBTFUL_CELLS: usize = 14;
const GRID_CHANGES: usize = 4;

/// The puzzle read from `read` as `kind`, corrected when it has no unique solution: the next
/// most likely readings of the least confident cells are tried, one cell at a time, then two,
/// until one solves uniquely (for a jump maze, until it has a way out). Returns the puzzle and
/// the corrections made.
pub fn correct(
    read: &GridRead,
    kind: &str,
    limit: Option<Duration>,
) -> Result<(Box<dyn Puzzle>, Vec<Correction>), Error> {
    corrected_if_possible(read, kind, limit)
        .map(|(puzzle, corrections)| (puzzle, corrections.unwrap_or_default()))
}

/// Whether `read`, taken as `kind` with no change, makes a puzzle that [`makes_sense`].
fn solves_as_read(read: &GridRead, kind: &str, limit: Option<Duration>) -> bool {
    to_puzzle(&constrain(read, kind), kind).is_ok_and(|puzzle| makes_sense(&*puzzle, limit))
}

/// Whether `puzzle` solves uniquely, or at all for a kind where ambiguity does not matter (a
/// jump maze often has several shortest ways out; any way out makes sense there).
fn makes_sense(puzzle: &dyn Puzzle, limit: Option<Duration>) -> bool {
    makes_sense_by(puzzle, &solve_deadline(limit))
}

/// The deadline of one solve while reading: `limit`, at most [`SOLVE_TIME`].
fn solve_deadline(limit: Option<Duration>) -> Deadline {
    deadline_within(limit, SOLVE_TIME)
}

/// A deadline `limit` from now, at most `most` (`most` without a limit): each step of reading
/// has its own budget, and the user's `--timeout` may cut it shorter.
fn deadline_within(limit: Option<Duration>, most: Duration) -> Deadline {
    Deadline::after(limit.unwrap_or(most).min(most))
}

/// The longest one solve may take while reading: a puzzle that takes longer is taken as not
/// making sense.
const SOLVE_TIME: Duration = Duration::from_secs(2);

/// [`makes_sense`], giving up at `deadline`.
fn makes_sense_by(puzzle: &dyn Puzzle, deadline: &Deadline) -> bool {
    match puzzle.solve(deadline) {
        Ok(Outcome::Unique(_)) => true,
        Ok(Outcome::Several(_)) => !puzzle.ambiguity_matters(),
        _ => false,
    }
}

/// [`correct`], the corrections `None` when no change tried made the puzzle solve uniquely
/// (the puzzle then as read).
fn corrected_if_possible(
    read: &GridRead,
    kind: &str,
    limit: Option<Duration>,
) -> Result<CorrectedIfPossible, Error> {
    let constrained = constrain(read, kind);
    let ruled_out: Vec<usize> = (0..read.cells.len())
        .filter(|&i| read.cells[i].value != constrained.cells[i].value)
        .collect();
    let as_read = read;
    let read = &constrained;
    let values: Vec<CellValue> = read.cells.iter().map(|c| c.value).collect();
    let puzzle = to_puzzle(read, kind)?;
    if kind == "jump" {
        if let Some((row, column)) = jump::hole(&values, read.rows, read.columns) {
            return Err(Error::Unreadable(format!(
                "r{}c{} inside the maze read blank: a digit there was missed, so the reading is \
                 not trusted",
                row + 1,
                column + 1
            )));
        }
    }
    if let Some(jump::DigitsBeyond {
        cell: (row, column),
        ..
    }) = read.digits_beyond
    {
        return Err(Error::Unreadable(format!(
            "a digit stands beyond r{}c{} at the edge of the {}x{} grid read: part of the maze \
             was not found, so the reading is not trusted",
            row + 1,
            column + 1,
            read.rows,
            read.columns
        )));
    }
    if let Some((row, column)) = read.start_off_centre {
        return Err(Error::Unreadable(format!(
            "the start's ring is at r{}c{}, not in the middle of the {}x{} grid read: part of \
             the maze was not found, so the reading is not trusted",
            row + 1,
            column + 1,
            read.rows,
            read.columns
        )));
    }
    if !puzzle.ambiguity_matters() {
        // Any way out satisfies such a solver, so it cannot catch misreads: a reading read as
        // surely another way up, or with unsure digits that could change its answer, is
        // refused rather than solved wrongly.
        if read.orientation_in_doubt {
            return Err(Error::Unreadable(format!(
                "the digits read about as surely with the page turned as not, so which way up \
                 it is cannot be told; a {kind} puzzle cannot be checked by its solver, so the \
                 reading is not trusted"
            )));
        }
        if let Some(index) = ruled_out_on_way_out(&*puzzle, &ruled_out, read.columns, limit) {
            let (row, column) = (index / read.columns + 1, index % read.columns + 1);
            return Err(Error::Unreadable(format!(
                "r{row}c{column} read {}, which no {kind} puzzle prints, lies on the way out; \
                 its solver cannot check another reading, so the reading is not trusted",
                as_read.cells[index].value
            )));
        }
        // Every way out leaves from the start (the middle cell), so a start read unsure makes
        // the answer a guess however sure the rest are. Its confidence is taken as read: weighed
        // by the values read elsewhere, a maze of 1s and 2s lifted a 1 read 2 at 0.58 over
        // [`LEAST_CONFIDENCE`], and with three more cells misread the check of the answer
        // against the likely other readings (three changes at most) held.
        let (row, column) = read.middle();
        if let Some(start) = read
            .cells
            .get(row * read.columns + column)
            .filter(|start| start.confidence < LEAST_CONFIDENCE)
        {
            return Err(Error::Unreadable(format!(
                "the start r{}c{} read {} with confidence {:.2}: every way out leaves from it, so \
                 the reading is not trusted",
                row + 1,
                column + 1,
                start.value,
                start.confidence
            )));
        }
        let doubt = Doubt::of(&read.cells);
        if doubt.too_high() {
            // A few unsure digits are checked against the answer; many are not trusted.
            let why = if doubt.misreads > ANSWER_MOST_MISREADS {
                Some(String::new())
            } else {
                match answer_despite_doubt(read, &values, &*puzzle, kind, limit) {
                    AnswerDespiteDoubt::Holds => None,
                    AnswerDespiteDoubt::Changes(changes) => {
                        Some(format!(", and with {changes} the answer would be another"))
                    }
                    AnswerDespiteDoubt::Unchecked => {
                        Some(", too many other likely readings to check".to_string())
                    }
                    AnswerDespiteDoubt::NoAnswer => Some(", and it has no answer".to_string()),
                }
            };
            if let Some(why) = why {
                return Err(Error::Unreadable(format!(
                    "{} of {} digits read with low confidence (about {:.1} expected \
                     misread){why}; a {kind} puzzle cannot be checked by its solver, so the \
                     reading is not trusted",
                    doubt.unsure, doubt.numbers, doubt.misreads
                )));
            }
        }
    }
    let confidences: Vec<f32> = read.cells.iter().map(|c| c.confidence).collect();
    let choices = doubtful_choices(read, &confidences, DOUBTFUL_CELLS);
    let build = |values: &[CellValue]| puzzle_from_values(values, read.rows, read.columns, kind);
    let mended = first_unique(
        &values,
        &choices,
        build,
        limit,
        GRID_CHANGES,
        Some(RIVAL_MARGIN),
    )
    .or_else(|| match kind {
        // A few changes did not do: weigh every doubtful cell at once.
        "sudoku" => sudoku_print::likeliest_print(read, &solve_deadline(limit)),
        _ => None,
    });
    match mended {
        None => Ok((puzzle, None)),
        Some((puzzle, changes)) => {
            let corrections = changes
                .into_iter()
                .map(|(index, value)| Correction {
                    place: format!("r{}c{}", index / read.columns + 1, index % read.columns + 1),
                    read: values[index],
                    corrected: value,
                })
                .collect::<Vec<Correction>>();
            // A jump maze's solver accepts any way out: the change that gives one is a guess,
            // not a check (a start read 63 was changed to 6, where 5 was printed).
            match corrections.first() {
                Some(first) if !puzzle.ambiguity_matters() => Err(Error::Unreadable(format!(
                    "{first} for the {kind} puzzle to have a solution, which its solver cannot \
                     check, so the reading is not trusted"
                ))),
                _ => Ok((puzzle, Some(corrections))),
            }
        }
    }
}

/// The first of the `ruled_out` cells (indices into a grid `columns` wide; read as values the
/// kind rules out, see [`constrain`]) that a maze's way out passes through. What stands in
/// such a cell is the reader's second guess, and the answer checks against doubt try only the
/// readings it listed: a start's 5 read as 63, then 6, was solved from the 6, one jump out of
/// the maze, with exit 0. Off the way out, the cell does not change the answer.
fn ruled_out_on_way_out(
    puzzle: &dyn Puzzle,
    ruled_out: &[usize],
    columns: usize,
    limit: Option<Duration>,
) -> Option<usize> {
    if ruled_out.is_empty() {
        return None;
    }
    let way_out = match puzzle.solve(&solve_deadline(limit)) {
        Ok(Outcome::Unique(answer) | Outcome::Several(answer)) => answer,
        _ => return None,
    };
    let path = way_out.as_any().downcast_ref::<JumpPath>()?;
    ruled_out
        .iter()
        .copied()
        .find(|&index| path.cells.contains(&(index / columns, index % columns)))
}

/// A puzzle and the corrections that made it solve uniquely (see [`corrected_if_possible`]).
type CorrectedIfPossible = (Box<dyn Puzzle>, Option<Vec<Correction>>);

/// A doubtful reading: which value it is and what else it might be, most likely first, each
/// with the cost of changing to it (see [`change_cost`]).
struct Choice<V> {
    index: usize,
    alternatives: Vec<(V, f32)>,
}

impl<V: Copy> Choice<V> {
    /// The choice for the value at `index` read with probability `confidence`, whose other
    /// readings are `alternatives` with their probabilities.
    fn new(index: usize, confidence: f32, alternatives: &[(V, f32)]) -> Choice<V> {
        Choice {
            index,
            alternatives: alternatives
                .iter()
                .map(|&(value, p)| (value, change_cost(confidence, p)))
                .collect(),
        }
    }
}

/// The least probability a reading is given when weighing changes, so that a reading the
/// classifier all but rules out (or the blank fallback at 0) can still be chosen, at a price.
const LEAST_PROBABILITY: f32 = 0.01;

/// How unlikely a change from a reading of probability `read` to one of probability
/// `alternative` is: the log of their ratio, 0 when the alternative is as likely.
fn change_cost(read: f32, alternative: f32) -> f32 {
    (read.max(LEAST_PROBABILITY) / alternative.max(LEAST_PROBABILITY))
        .ln()
        .max(0.0)
}

/// How many alternatives of each value a set of one change tries, of two, three and four: fewer
/// as the sets grow, whose numbers multiply.
const SET_ALTERNATIVES: [usize; 4] = [usize::MAX, ALTERNATIVES, 2, 1];
/// The most sets of changes tried, cheapest first: a reading that needs more is too far gone.
const MOST_TRIES: usize = 2500;
/// The dearest set of changes taken: as unlikely as one change to a value the classifier all
/// but rules out ([`LEAST_PROBABILITY`]), no more. Dearer pairs had made another puzzle with
/// one solution, a wrong answer with exit 0 (a real Sudoku photo's 1 read as 5 corrected to
/// blank beside a right correction; a Nurikabe's 21 and 8 made 11 and 5), while every
/// reading corrected right on the dev sets cost at most that.
fn most_set_cost() -> f32 {
    change_cost(1.0, LEAST_PROBABILITY)
}

/// The longest [`first_unique`] looks for a set of changes. Every try takes a few
/// milliseconds on a puzzle read right or nearly; a reading that makes every try take the
/// solver its whole [`SOLVE_TIME`] (a jump photo read as a sparse 14x7 Nurikabe) would
/// otherwise take hours.
const CORRECTION_TIME: Duration = Duration::from_secs(10);

/// How much dearer than the first set of changes that makes a grid solve uniquely another such
/// set may be for the grid to be refused as ambiguous (see [`first_unique`]). Hard Nurikabe
/// photos misread many clues alike (1s as 8s, 5s as 6s), and a few changes can make a puzzle
/// with one solution that is not the one printed, beside misreads left: seed 8888's 00105 was
/// solved wrongly with exit 0 (on main too) by one change, while another set a little dearer
/// solved uniquely as well. On 120 Nurikabe hard dev photos a margin of 1.5 refused every
/// wrong answer found; 0.7 let one through (with the splits' lower confidences, since
/// dropped). The nonogram totals corrector uses the same margin (see [`totals_corrected`]).
const RIVAL_MARGIN: f32 = 1.5;

/// Makes a puzzle of the values read, or `None` when they cannot make one.
type PuzzleOf<'a, V> = dyn Fn(&[V]) -> Option<Box<dyn Puzzle>> + 'a;

/// A puzzle that solves uniquely and the changes (value index, new value) that made it.
type Corrected<V> = (Box<dyn Puzzle>, Vec<(usize, V)>);

/// The likeliest set of at most `most_changes` changes to `values` that makes a puzzle with
/// exactly one solution (or, for a kind where ambiguity does not matter, any solution). Sets
/// are tried cheapest first by their summed [`change_cost`]s (see [`change_sets`]), so two
/// likely changes beat one unlikely one. Returns that puzzle and the changes (none when the
/// reading as it is already solves uniquely), or `None` when no change helps. With a
/// `rival_margin`, a puzzle whose ambiguity matters is also `None` when another set costing at
/// most that much more solves uniquely too: the reading could be either puzzle. Sets dearer
/// than [`most_set_cost`] are never the answer but are tried as such rivals.
fn first_unique<V: Copy + PartialEq>(
    values: &[V],
    choices: &[Choice<V>],
    build: impl Fn(&[V]) -> Option<Box<dyn Puzzle>>,
    limit: Option<Duration>,
    most_changes: usize,
    rival_margin: Option<f32>,
) -> Option<Corrected<V>> {
    let budget = deadline_within(limit, CORRECTION_TIME);
    let unique = |values: &[V]| -> Option<Box<dyn Puzzle>> {
        let puzzle = build(values)?;
        makes_sense_by(&*puzzle, &solve_deadline(limit).earlier(budget)).then_some(puzzle)
    };
    if let Some(puzzle) = unique(values) {
        return Some((puzzle, Vec::new()));
    }
    let candidates = change_sets(choices, most_changes);
    let most_cost = most_set_cost();
    let sets = candidates
        .into_iter()
        .take_while(|&(cost, _)| cost <= most_cost + rival_margin.unwrap_or(0.0))
        .take(MOST_TRIES)
        .map(|(cost, picks)| {
            let changes = picked_changes(choices, &picks);
            let tried = with_changes(values, changes.iter().copied());
            (cost, tried, changes, cost <= most_cost)
        });
    unique_without_rival(sets, rival_margin.unwrap_or(0.0), |tried| {
        if budget.expired() {
            return Tried::Stop;
        }
        match unique(tried) {
            Some(puzzle) => {
                let settled = rival_margin.is_none() || !puzzle.ambiguity_matters();
                Tried::Unique(puzzle, settled)
            }
            None => Tried::NotUnique,
        }
    })
}

/// The changes (value index, new value) that `picks` of [`change_sets`] stand for.
fn picked_changes<V: Copy>(choices: &[Choice<V>], picks: &[(usize, usize)]) -> Vec<(usize, V)> {
    picks
        .iter()
        .map(|&(c, a)| (choices[c].index, choices[c].alternatives[a].0))
        .collect()
}

/// The choices of the `most` least sure cells of `read` that have other readings, least sure
/// first by `confidences` (one per cell, row-major).
fn doubtful_choices(read: &GridRead, confidences: &[f32], most: usize) -> Vec<Choice<CellValue>> {
    let mut doubtful: Vec<(&CellRead, f32)> = read
        .cells
        .iter()
        .zip(confidences.iter().copied())
        .filter(|(c, _)| !c.alternatives.is_empty())
        .collect();
    doubtful.sort_by(|a, b| a.1.total_cmp(&b.1));
    doubtful.truncate(most);
    doubtful
        .iter()
        .map(|&(cell, confidence)| {
            Choice::new(
                cell.row * read.columns + cell.column,
                confidence,
                &cell.alternatives,
            )
        })
        .collect()
}

/// Every set of at most `most_changes` changes to `choices`, cheapest first by their summed
/// [`change_cost`]s, each as (choice, alternative) positions: each doubtful value changed alone
/// (every alternative), and sets of two, three and four values, each changed to one of its
/// [`SET_ALTERNATIVES`] likeliest alternatives.
fn change_sets<V>(choices: &[Choice<V>], most_changes: usize) -> Vec<(f32, Vec<(usize, usize)>)> {
    let mut candidates: Vec<(f32, Vec<(usize, usize)>)> = Vec::new();
    for (size, &alternatives) in SET_ALTERNATIVES.iter().enumerate().take(most_changes) {
        let mut picks = Vec::with_capacity(size + 1);
        add_change_sets(
            choices,
            alternatives,
            size + 1,
            0.0,
            &mut picks,
            &mut candidates,
        );
    }
    // Stable, so equal costs keep fewer changes and less doubtful values first.
    candidates.sort_by(|a, b| a.0.total_cmp(&b.0));
    candidates
}

/// Adds to `sets` every set of `size` changes that extends `picks` (costing `cost`) with
/// choices after its last, each to one of its `alternatives` likeliest alternatives.
fn add_change_sets<V>(
    choices: &[Choice<V>],
    alternatives: usize,
    size: usize,
    cost: f32,
    picks: &mut Vec<(usize, usize)>,
    sets: &mut Vec<(f32, Vec<(usize, usize)>)>,
) {
    if picks.len() == size {
        sets.push((cost, picks.clone()));
        return;
    }
    let from = picks.last().map_or(0, |&(c, _)| c + 1);
    for c in from..choices.len() {
        for (a, &(_, k)) in choices[c]
            .alternatives
            .iter()
            .take(alternatives)
            .enumerate()
        {
            picks.push((c, a));
            add_change_sets(choices, alternatives, size, cost + k, picks, sets);
            picks.pop();
        }
    }
}

/// Whether a reading whose solver cannot check it gives the same answer whatever its doubtful
/// numbers are (see [`answer_despite_doubt`]).
enum AnswerDespiteDoubt {
    /// Every likely other reading that has an answer is answered by the reading's own.
    Holds,
    /// These changes (as `r5c7 read 2` and so on) give a puzzle with an answer that the
    /// reading's own is not.
    Changes(String),
    /// More likely other readings than [`ANSWER_TRIES`], or the time ran out.
    Unchecked,
    /// The reading as it is has no answer.
    NoAnswer,
}

/// The highest chance that a reading's answer is wrong which [`answer_despite_doubt`] takes:
/// how likely the other readings whose answer is another are, against all readings tried
/// that have an answer (the reading itself among them).
const ANSWER_WRONG_CHANCE: f32 = 0.05;
/// The most misreads a reading may be expected to hold (see [`Doubt`]) for
/// [`answer_despite_doubt`] to vouch for its answer: its sets of up to [`ANSWER_CHANGES`]
/// changes cover a reading with a few misreads, not one of many (on 96 generated jump hard
/// photos every answer it would have taken wrongly came from a reading expected to hold 16
/// or more, of grids misread wholesale, 3 read 1 throughout).
const ANSWER_MOST_MISREADS: f32 = 3.0;
/// The most numbers changed at once by [`answer_despite_doubt`]: three, as many as the
/// corrector changed before it took four ([`GRID_CHANGES`]); the constants here were tuned on
/// jump mazes with three.
const ANSWER_CHANGES: usize = 3;
/// The most numbers, least sure first, whose other readings [`answer_despite_doubt`] tries.
const ANSWER_DOUBTFUL_CELLS: usize = 24;
/// The most sets of changes [`answer_despite_doubt`] tries: one jump maze's shortest way out
/// takes tens of microseconds to find, so these take well under a second.
const ANSWER_TRIES: usize = 20_000;

/// Whether the answer of `puzzle`, made of `values` as `read`, answers the likely other
/// readings too: each set of at most [`ANSWER_CHANGES`] changes to its [`ANSWER_DOUBTFUL_CELLS`]
/// least sure numbers costing at most [`most_set_cost`] (confidences weighed by the values read
/// in the grid, see [`weighed_confidences`]) is solved, and the readings whose answer is
/// another must weigh under [`ANSWER_WRONG_CHANCE`] of all. A printed puzzle has an answer and
/// a printed maze no hole, so readings without one or with one are not what was printed and
/// are left out. A jump maze's way out passes through a few of its cells: doubtful digits
/// elsewhere matter only when they open a shorter way.
fn answer_despite_doubt(
    read: &GridRead,
    values: &[CellValue],
    puzzle: &dyn Puzzle,
    kind: &str,
    limit: Option<Duration>,
) -> AnswerDespiteDoubt {
    let deadline = solve_deadline(limit);
    let answer = match puzzle.solve(&deadline) {
        Ok(Outcome::Unique(answer) | Outcome::Several(answer)) => answer,
        Ok(Outcome::NoSolution) => return AnswerDespiteDoubt::NoAnswer,
        Err(_) => return AnswerDespiteDoubt::Unchecked,
    };
    let confidences = weighed_confidences(&read.cells);
    let choices = doubtful_choices(read, &confidences, ANSWER_DOUBTFUL_CELLS);
    let most_cost = most_set_cost();
    let sets: Vec<_> = change_sets(&choices, ANSWER_CHANGES)
        .into_iter()
        .take_while(|&(cost, _)| cost <= most_cost)
        .take(ANSWER_TRIES + 1)
        .collect();
    if sets.len() > ANSWER_TRIES {
        return AnswerDespiteDoubt::Unchecked;
    }
    // How likely, beside the reading itself, the other readings with an answer are: those
    // whose answer the reading's answers, and those whose answer is another.
    let (mut holding, mut changing) = (1.0f32, 0.0f32);
    let mut likeliest_change: Option<Vec<(usize, CellValue)>> = None;
    for (cost, picks) in sets {
        let changes = picked_changes(&choices, &picks);
        let changed = with_changes(values, changes.iter().copied());
        // A maze is one solid shape: a digit read as paper inside it, or paper read as a digit
        // apart from every digit read, is not what was printed. A hard diamond's corner cell,
        // far outside the shape, read blank at 0.65 with 7 next (0.35): as a 7 it was a
        // stepping stone to another way out, and the reading, every digit right, was refused.
        let stray_digit = || {
            changes.iter().any(|&(index, value)| {
                matches!(value, CellValue::Number(_)) && jump::apart(values, read.columns, index)
            })
        };
        if kind == "jump"
            && (jump::hole(&changed, read.rows, read.columns).is_some() || stray_digit())
        {
            continue;
        }
        let Some(other) = puzzle_from_values(&changed, read.rows, read.columns, kind) else {
            continue;
        };
        let likelihood = (-cost).exp();
        match other.answered_by(&*answer, &deadline) {
            Err(_) => return AnswerDespiteDoubt::Unchecked,
            Ok(None) => {}
            Ok(Some(true)) => holding += likelihood,
            Ok(Some(false)) => {
                changing += likelihood;
                if likeliest_change.is_none() {
                    likeliest_change = Some(changes);
                }
            }
        }
    }
    match likeliest_change {
        Some(changes) if changing / (holding + changing) > ANSWER_WRONG_CHANCE => {
            let changes: Vec<String> = changes
                .iter()
                .map(|&(index, value)| {
                    let (row, column) = (index / read.columns, index % read.columns);
                    format!("r{}c{} read {value}", row + 1, column + 1)
                })
                .collect();
            AnswerDespiteDoubt::Changes(changes.join(" and "))
        }
        _ => AnswerDespiteDoubt::Holds,
    }
}

/// `values` with each `(index, value)` of `changes` put in.
fn with_changes<V: Copy>(values: &[V], changes: impl IntoIterator<Item = (usize, V)>) -> Vec<V> {
    let mut changed = values.to_vec();
    for (index, value) in changes {
        changed[index] = value;
    }
    changed
}

/// What a set of changes tried by [`unique_without_rival`] made.
enum Tried {
    /// A budget ran out: try no more sets.
    Stop,
    /// No puzzle, or one without exactly one solution.
    NotUnique,
    /// A puzzle with one solution; settled when no rival need be looked for.
    Unique(Box<dyn Puzzle>, bool),
}

/// The first of `sets` (cheapest first: each its cost, the values it makes, what it carries
/// and whether it may be the answer) whose values `try_values` finds make a puzzle with one
/// solution, with what it carries; `None` when none does, or when a set with other values
/// costing at most `margin` more does too: the reading could be either puzzle. Values reached
/// again by another set are no rival. A set that may not be the answer (a change dearer than
/// a corrector takes) is tried only as a rival, once an answer is found, however cheaper: the
/// truth may lie just past what a corrector takes, and a rival it cannot see is no check. The
/// correctors of grids and of nonogram totals share this rule.
fn unique_without_rival<V: PartialEq, T>(
    sets: impl IntoIterator<Item = (f32, Vec<V>, T, bool)>,
    margin: f32,
    mut try_values: impl FnMut(&[V]) -> Tried,
) -> Option<(Box<dyn Puzzle>, T)> {
    struct Found<V, T> {
        cost: f32,
        values: Vec<V>,
        puzzle: Box<dyn Puzzle>,
        carried: T,
    }
    let mut found: Option<Found<V, T>> = None;
    // Sets passed over before an answer was found, cheaper than it: rivals once it is.
    let mut passed: Vec<Vec<V>> = Vec::new();
    for (cost, values, carried, answerable) in sets {
        match &found {
            Some(first) if cost > first.cost + margin => break,
            Some(first) if first.values == values => continue,
            None if !answerable => {
                passed.push(values);
                continue;
            }
            _ => {}
        }
        match try_values(&values) {
            Tried::Stop => break,
            Tried::NotUnique => {}
            Tried::Unique(_, _) if found.is_some() => return None,
            Tried::Unique(puzzle, true) => return Some((puzzle, carried)),
            Tried::Unique(puzzle, false) => {
                for rival in passed.drain(..).filter(|rival| *rival != values) {
                    match try_values(&rival) {
                        Tried::Stop => break,
                        Tried::NotUnique => {}
                        Tried::Unique(_, _) => return None,
                    }
                }
                found = Some(Found {
                    cost,
                    values,
                    puzzle,
                    carried,
                })
            }
        }
    }
    found.map(|first| (first.puzzle, first.carried))
}

/// A nonogram as read from a photo: the clues beside its grid and the black given cells in it.
#[derive(Debug, Clone, PartialEq)]
pub struct NonogramRead {
    pub clues: clues::CluesRead,
    pub givens: Vec<(usize, usize)>,
    /// The cell (row, column) of the lattice turned [`Self::quarter_turns`] where the puzzle's
    /// grid starts: (0, 0) when the clues are printed outside the lattice, past the clue cells
    /// when they are boxed inside it.
    pub origin: (usize, usize),
    /// Quarter turns clockwise from the lattice to the puzzle (clues left and above).
    pub quarter_turns: u8,
    /// The grid's edges, as the puzzle runs, whose line was read with no clue yet is ruled
    /// through in the photo like the line inside it (see [`detect::grow::ruled_through`]): a
    /// line of the puzzle printed empty, not a lattice line beyond the grid.
    pub empty_edges_ruled: Vec<Edge>,
}

/// How many of the least sure clue numbers the corrector may change: a nonogram has hundreds
/// and its solver answers in well under a millisecond, so it can afford more than a grid.
const DOUBTFUL_CLUES: usize = 12;
/// How many clue numbers the corrector may change at once.
const CLUE_CHANGES: usize = 2;
/// How many clue numbers may change at once to make the row and column totals agree, how many
/// of those sets the solver is asked about, and for how long in all (see [`clue_totals`]); the
/// line corrector's sets of other readings have the same budget (see [`lines_corrected`]).
const TOTALS_CHANGES: usize = 3;
const TOTALS_SOLVES: usize = 400;
const TOTALS_TIME: Duration = Duration::from_secs(1);
/// The line corrector's budget of time for reading every line at once (see
/// [`clue_lines::cheapest_together`]): its count of narrowings stops it sooner, but on a slow
/// or busy machine.
const TOGETHER_TIME: Duration = Duration::from_secs(2);
/// How many lines the line corrector may read otherwise than the crossing lines left cheapest.
const LINE_CHANGES: usize = 3;

impl NonogramRead {
    /// The first row or column at the grid's edge read with no clue number, named as in
    /// corrections ("row 1", "column 11"). A printed nonogram's picture mostly fills its
    /// frame, so an empty edge line is likelier a lattice line beyond the grid (an extra empty
    /// column solves as uniquely as the puzzle without it) or clues not found at all (a grid
    /// read with none solved uniquely, empty, with exit 0). One of 330 generated puzzles has
    /// an empty edge line all the same (seed 9393's 00076, its top row): an edge ruled through
    /// ([`Self::empty_edges_ruled`]) is such a line, where at least half the rows and half the
    /// columns have clues.
    fn empty_edge(&self) -> Option<String> {
        let (rows, columns) = (&self.clues.rows, &self.clues.columns);
        let mostly_clued = |lines: &[Vec<clues::ClueRead>]| {
            lines.iter().filter(|line| !line.is_empty()).count() * 2 >= lines.len()
        };
        let printed_empty = |edge: Edge| {
            self.empty_edges_ruled.contains(&edge) && mostly_clued(rows) && mostly_clued(columns)
        };
        let edges = |lines: &[Vec<clues::ClueRead>], (first, last): (Edge, Edge)| {
            let end = lines.len().checked_sub(1)?;
            [(0, first), (end, last)]
                .into_iter()
                .find(|&(i, edge)| lines[i].is_empty() && !printed_empty(edge))
                .map(|(i, _)| i)
        };
        edges(rows, (Edge::Top, Edge::Bottom))
            .map(|i| format!("row {}", i + 1))
            .or_else(|| {
                edges(columns, (Edge::Left, Edge::Right)).map(|i| format!("column {}", i + 1))
            })
    }

    /// The grid's edges, as the puzzle runs, whose line was read with no clue and is ruled
    /// through in `image` on `lattice` (the one read; see [`detect::grow::ruled_through`]).
    fn edges_empty_and_ruled(&self, image: &GrayImage, lattice: &Lattice) -> Vec<Edge> {
        let (rows, columns) = (&self.clues.rows, &self.clues.columns);
        let empty: Vec<Edge> = [
            (Edge::Top, rows.first()),
            (Edge::Bottom, rows.last()),
            (Edge::Left, columns.first()),
            (Edge::Right, columns.last()),
        ]
        .into_iter()
        .filter(|(_, line)| line.is_some_and(Vec::is_empty))
        .map(|(edge, _)| edge)
        .collect();
        // Nearly every reading has a clue on every edge line: it needs no grid lattice cut out.
        if empty.is_empty() {
            return empty;
        }
        let grid = self.grid_lattice(&lattice.turned(self.quarter_turns));
        if grid.rows != rows.len() || grid.columns != columns.len() {
            return Vec::new();
        }
        empty
            .into_iter()
            .filter(|&edge| detect::grow::ruled_through(image, &grid, edge))
            .collect()
    }

    /// The black cells of `grid` (read in any orientation) as givens of the puzzle that starts
    /// at `origin` in the lattice, or that is the lattice turned `turns` quarter turns; clue
    /// numbers longer than their line read as an alternative that fits (see
    /// [`clues::CluesRead::within_lines`]).
    pub fn new(
        clues: clues::CluesRead,
        grid: &GridRead,
        origin: (usize, usize),
        turns: u8,
    ) -> NonogramRead {
        let (rows, columns) = grid.unturned_shape();
        let black: std::collections::HashSet<(usize, usize)> = grid
            .cells
            .iter()
            .filter(|c| c.value == CellValue::Black)
            .map(|c| source_cell(c.row, c.column, grid.quarter_turns, rows, columns))
            .collect();
        let (puzzle_rows, puzzle_columns) = if turns % 2 == 0 {
            (rows, columns)
        } else {
            (columns, rows)
        };
        let givens = (origin.0..puzzle_rows)
            .flat_map(|r| (origin.1..puzzle_columns).map(move |c| (r, c)))
            .filter(|&(r, c)| black.contains(&source_cell(r, c, turns, rows, columns)))
            .map(|(r, c)| (r - origin.0, c - origin.1))
            .collect();
        NonogramRead {
            clues: clues.within_lines(),
            givens,
            origin,
            quarter_turns: turns,
            empty_edges_ruled: Vec::new(),
        }
    }

    /// The part of `lattice` (the one it was read from) that is the puzzle's grid.
    pub fn grid_lattice(&self, lattice: &Lattice) -> Lattice {
        let (top, left) = self.origin;
        Lattice {
            rows: lattice.rows.saturating_sub(top),
            columns: lattice.columns.saturating_sub(left),
            points: lattice.points[top.min(lattice.rows)..]
                .iter()
                .map(|row| row[left.min(lattice.columns)..].to_vec())
                .collect(),
        }
    }

    /// Every clue number read with its line (rows first, then columns), in reading order.
    fn numbers_with_lines(&self) -> Vec<(usize, &clues::ClueRead)> {
        self.clues
            .rows
            .iter()
            .chain(&self.clues.columns)
            .enumerate()
            .flat_map(|(line, numbers)| numbers.iter().map(move |n| (line, n)))
            .collect()
    }

    /// The nonogram whose clue numbers are `values`, one for each of `flat`'s numbers (each
    /// with its line, rows first, as [`NonogramRead::numbers_with_lines`] gives them); `None` when the rows' and columns' totals differ or a clue
    /// is longer than its line.
    fn puzzle_of(
        &self,
        flat: &[(usize, &clues::ClueRead)],
        values: &[u32],
    ) -> Option<Box<dyn Puzzle>> {
        let row_count = self.clues.rows.len();
        let mut clues: Vec<Vec<u32>> = vec![Vec::new(); row_count + self.clues.columns.len()];
        // A 0 is a number dropped as a stray mark (see `totals_corrected`); a line left with
        // none is empty, as a lone 0 clue says.
        for ((line, _), &value) in flat.iter().zip(values).filter(|(_, &v)| v > 0) {
            clues[*line].push(value);
        }
        nonogram_of_lines(clues, row_count, &self.givens).map(|puzzle| Box::new(puzzle) as _)
    }

    /// The puzzle read, corrected like [`correct`] when it has no unique solution; clue
    /// totals that cannot agree (rows and columns must fill the same number of cells) are
    /// rejected before the solver is asked, and so is a grid whose edge line has no clue (see
    /// [`NonogramRead::empty_edge`]).
    pub fn correct(
        &self,
        limit: Option<Duration>,
    ) -> Result<(Box<dyn Puzzle>, Vec<Correction>), Error> {
        if let Some(line) = self.empty_edge() {
            return Err(Error::Unreadable(format!(
                "{line} at the grid's edge has no clue number: the lattice likely holds a line \
                 beyond the printed grid, or the clues were not found"
            )));
        }
        let row_count = self.clues.rows.len();
        let flat = self.numbers_with_lines();
        let values: Vec<u32> = flat.iter().map(|(_, n)| n.value).collect();
        let build = |values: &[u32]| self.puzzle_of(&flat, values);
        let alternatives: Vec<Vec<(u32, f32)>> = flat
            .iter()
            .map(|(_, n)| with_stray_ones_dropped(n))
            .collect();
        let place = |index: usize| {
            let line = flat[index].0;
            let position = flat[..index].iter().filter(|(l, _)| *l == line).count() + 1;
            if line < row_count {
                format!("row {} clue {position}", line + 1)
            } else {
                format!("column {} clue {position}", line - row_count + 1)
            }
        };
        // The totals corrector runs first, and the puzzles with one solution it found stay
        // rivals to every later corrector's answer. Read by a pair of networks tried and not
        // shipped (see `models/README.md`), a hard 17x15 photo's totals corrector found two
        // (row 11's unsure 11, read 3, made 11 with row 13 or column 12 changed) and gave no
        // answer; the line corrector, which tries each number's four likeliest readings only
        // (12 but not 11), took a third set, cheaper by 0.19: two clues wrong, exit 0.
        let mut solved_uniquely = Vec::new();
        let mut with_several_solutions = None;
        let totals = totals_corrected(
            &flat,
            row_count,
            &alternatives,
            &build,
            limit,
            (&mut solved_uniquely, &mut with_several_solutions),
        );
        let differences = |from: &[u32], to: &[u32]| -> String {
            let read_as = |(index, value): (usize, u32)| match value {
                0 => format!("{} dropped", place(index)),
                value => format!("{} read {value}", place(index)),
            };
            let differing: Vec<String> = (0..to.len())
                .filter(|&i| from[i] != to[i])
                .map(|i| read_as((i, to[i])))
                .collect();
            differing.join(", ")
        };
        let corrections_of = |changes: Vec<(usize, u32)>| -> Vec<Correction> {
            changes
                .into_iter()
                .map(|(index, value)| Correction {
                    place: place(index),
                    read: CellValue::Number(values[index]),
                    corrected: match value {
                        0 => CellValue::Blank,
                        value => CellValue::Number(value),
                    },
                })
                .collect()
        };
        // A corrector's answer stands unless a balanced pair of numbers it left makes another
        // puzzle with one solution (see `balanced_rival`). Each corrector hands on the numbers
        // it changed by index, with their new values (0 for a number dropped).
        let checked = |(puzzle, changes): ChangedClues| {
            let corrected = with_changes(&values, changes.iter().copied());
            let cost_of = |values: &[u32]| changed_cost(&flat, &alternatives, values);
            if let Some(rival) = rival_among(&corrected, &solved_uniquely, cost_of) {
                return Err(Error::Unreadable(format!(
                    "the corrected clues solve uniquely, but so do they with {}, nearly as \
                     likely: the reading cannot tell which puzzle is printed",
                    differences(&corrected, rival)
                )));
            }
            if let Some(((a, u), (b, w))) = balanced_rival(
                &flat,
                row_count,
                &corrected,
                &values,
                &alternatives,
                &build,
                limit,
            ) {
                return Err(Error::Unreadable(format!(
                    "the corrected clues solve uniquely, but so do they with {} read {u} and {} \
                     read {w}: the reading cannot tell which puzzle is printed",
                    place(a),
                    place(b)
                )));
            }
            Ok((puzzle, corrections_of(changes)))
        };
        if let Some(corrected) = totals {
            return checked(corrected);
        }
        let mut doubtful: Vec<usize> = (0..flat.len())
            .filter(|&i| !alternatives[i].is_empty())
            .collect();
        doubtful.sort_by(|&a, &b| flat[a].1.confidence.total_cmp(&flat[b].1.confidence));
        doubtful.truncate(DOUBTFUL_CLUES);
        let choices: Vec<Choice<u32>> = doubtful
            .iter()
            .map(|&i| Choice::new(i, flat[i].1.confidence, &alternatives[i]))
            .collect();
        // With a rival margin, as every corrector: the doubtful numbers' first set that solved
        // uniquely had answered where the totals corrector had found two (a hard 17x15 photo's
        // 4 and 2 read for 6 and 3; a sure 11 made 12 in place of the 2 made 3, solved with
        // exit 0 and two clues wrong).
        let corrected = first_unique(
            &values,
            &choices,
            build,
            limit,
            CLUE_CHANGES,
            Some(RIVAL_MARGIN),
        );
        if let Some(corrected) = corrected.filter(|(_, changes)| !changes.is_empty()) {
            return checked(corrected);
        }
        if let Some(corrected) = lines_corrected(
            &flat,
            (row_count, self.clues.columns.len()),
            &self.givens,
            &alternatives,
            limit,
        ) {
            return checked(corrected);
        }
        if let [first, second, ..] = &solved_uniquely[..] {
            return Err(Error::Unreadable(format!(
                "the clues read solve uniquely corrected in two ways nearly as likely ({}; or \
                 {}): the reading cannot tell which puzzle is printed",
                differences(&values, first),
                differences(&values, second)
            )));
        }
        // Totals that agree as read hand on the puzzle read, whatever its solutions, for the
        // solver to report (and a doubtful reading to be refused, see `unreadable_if_doubtful`
        // in `lib.rs`); so do totals that agree once corrected. A magazine's 45x45 grid read
        // every clue as printed but a 44 half under the frame (read 6, 44 the next likeliest),
        // and was refused as clues that do not agree: its 44 restored, the puzzle has two
        // solutions (a 2x2 square of cells can be flipped), as printed.
        if let Some(tried) = with_several_solutions {
            let changes = (0..values.len())
                .filter(|&i| tried[i] != values[i])
                .map(|i| (i, tried[i]))
                .collect();
            if let Some(puzzle) = build(&tried) {
                return Ok((puzzle, corrections_of(changes)));
            }
        }
        build(&values).map(|puzzle| (puzzle, Vec::new())).ok_or_else(|| {
            Error::Unreadable(format!(
                "the clues read do not make a nonogram: rows and columns do not agree ({} numbers read)",
                values.len()
            ))
        })
    }
}

/// A nonogram corrector's answer: the puzzle it made, and the numbers it changed (each one's
/// index among the numbers read, rows first, and its new value, 0 for a number dropped).
type ChangedClues = (Box<dyn Puzzle>, Vec<(usize, u32)>);

/// The most pairs of changes [`balanced_rival`] solves.
const RIVAL_PAIRS: usize = 60;

/// A pair of changes to the numbers of a corrected reading (`corrected`, each of `flat`'s
/// numbers as the corrector left it, 0 for one dropped; `read` as read) that leaves the row
/// and column totals as they are and makes a puzzle (by `build`) with one solution too,
/// costing together at most [`RIVAL_MARGIN`] more than the corrector's own changes to those
/// two numbers: each number changed to one of its `alternatives`, or one the corrector changed
/// put back as read. The correctors balance the totals and find a set of changes that solves
/// uniquely, but two misreads that shift the totals alike and cancel (a row's 3 read 1 and a
/// column's 3 read 1) leave them agreeing, and the puzzle with both left wrong can have one
/// solution as well. Read with the digit networks' plain mean instead of their product, a
/// hard 23x12 photo (seed 7777's 00020) was corrected in three numbers and solved wrongly,
/// with exit 0, while two blurred 3s, read 1 with 3 nearly as likely, stood; this check
/// refused it. Read with the product, the same photo came out right by luck: two of its 3s
/// had 1s nearly as likely (the pair costing 0.13) that made another puzzle with one solution,
/// and it is refused too, the one reading of the nonogram dev sets this changed. A
/// corrector's own change can be one of the pair: a fresh hard 30x12 photo's column 28 had its
/// 1 made 2 where 3 is printed, beside column 29's 2 read 3, and that puzzle solved uniquely
/// and was answered with exit 0; it is refused now, a pair holding a corrected number
/// making another puzzle with one solution nearly as cheaply.
fn balanced_rival(
    flat: &[(usize, &clues::ClueRead)],
    row_count: usize,
    corrected: &[u32],
    read: &[u32],
    alternatives: &[Vec<(u32, f32)>],
    build: &PuzzleOf<'_, u32>,
    limit: Option<Duration>,
) -> Option<((usize, u32), (usize, u32))> {
    let changes: Vec<clue_totals::Change> = (0..flat.len())
        .filter(|&i| read[i] > 0)
        .flat_map(|i| {
            let (line, number) = flat[i];
            let now = corrected[i];
            // A corrected value none of its readings is taken as having cost nothing: its rivals
            // then cost their full price, as a number left alone's do.
            let paid = number_cost(number, &alternatives[i], now).unwrap_or(0.0);
            let put_back = (now != read[i]).then_some(read[i]);
            alternatives[i]
                .iter()
                .filter(|&&(value, p)| value > 0 && p >= LEAST_PROBABILITY)
                .map(|&(value, _)| value)
                .chain(put_back)
                .filter(move |&value| value != now)
                .filter_map(move |value| {
                    Some(clue_totals::Change {
                        index: i,
                        value,
                        shift: total_sign(line, row_count) * (i64::from(value) - i64::from(now)),
                        cost: number_cost(number, &alternatives[i], value)? - paid,
                    })
                })
        })
        .filter(|change| change.cost <= RIVAL_MARGIN)
        .collect();
    let sets = clue_totals::agreeing_sets(&changes, 0, 2);
    let deadline = deadline_within(limit, TOTALS_TIME);
    let pairs = sets
        .iter()
        .take_while(|(cost, _)| *cost <= RIVAL_MARGIN)
        .filter_map(|(_, set)| match set[..] {
            [first, second] => Some((first, second)),
            _ => None,
        })
        .take(RIVAL_PAIRS);
    for (first, second) in pairs {
        if deadline.expired() {
            break;
        }
        let tried = with_changes(
            corrected,
            [(first.index, first.value), (second.index, second.value)],
        );
        let Some(puzzle) = build(&tried) else {
            continue;
        };
        if let Ok(Outcome::Unique(_)) = puzzle.solve(&deadline) {
            return Some(((first.index, first.value), (second.index, second.value)));
        }
    }
    None
}

/// Among `solved` (values that made puzzles with one solution), the first other than `answer`
/// costing (by `cost_of`) at most [`RIVAL_MARGIN`] more than it: a rival to it. An answer
/// whose cost is unknown has every other as its rival.
fn rival_among<'a>(
    answer: &[u32],
    solved: &'a [Vec<u32>],
    cost_of: impl Fn(&[u32]) -> Option<f32>,
) -> Option<&'a Vec<u32>> {
    let cost = cost_of(answer).unwrap_or(f32::INFINITY);
    solved.iter().find(|rival| {
        rival[..] != *answer && cost_of(rival).is_some_and(|rival| rival <= cost + RIVAL_MARGIN)
    })
}

/// What changing the numbers read (`flat`, each with its `alternatives`) to `values` costs: the
/// sum of each changed number's [`change_cost`], one dropped (0) priced as a stray mark as the
/// totals and line correctors price it; `None` when a value is none of its number's readings.
fn changed_cost(
    flat: &[(usize, &clues::ClueRead)],
    alternatives: &[Vec<(u32, f32)>],
    values: &[u32],
) -> Option<f32> {
    flat.iter()
        .zip(alternatives)
        .zip(values)
        .map(|((&(_, number), others), &value)| number_cost(number, others, value))
        .sum()
}

/// What changing `number` (read with `others` as its alternatives) to `value` costs, as
/// [`changed_cost`] prices it: nothing for the value read; `None` when `value` is none of its
/// readings.
fn number_cost(number: &clues::ClueRead, others: &[(u32, f32)], value: u32) -> Option<f32> {
    let p = if value == number.value {
        number.confidence
    } else if value == 0 {
        clue_lines::stray_probability(number.confidence)
    } else {
        others.iter().find(|&&(other, _)| other == value)?.1
    };
    Some(change_cost(number.confidence, p))
}

/// How a number of `line` (rows first, `row_count` of them) counts in the rows' total less the
/// columns'.
fn total_sign(line: usize, row_count: usize) -> i64 {
    if line < row_count {
        1
    } else {
        -1
    }
}

/// Number `index` of the clues read (`flat`: each number with its line, rows first,
/// `row_count` of them) changed to `value`, an alternative read with probability `p`: how that
/// moves the rows' total less the columns', and what it costs (see [`change_cost`]).
fn clue_change(
    flat: &[(usize, &clues::ClueRead)],
    row_count: usize,
    index: usize,
    (value, p): (u32, f32),
) -> clue_totals::Change {
    let (line, number) = flat[index];
    clue_totals::Change {
        index,
        value,
        shift: total_sign(line, row_count) * (i64::from(value) - i64::from(number.value)),
        cost: change_cost(number.confidence, p),
    }
}

/// The clues read (`flat`: each number with its line, rows first, `row_count` of them) with the
/// cheapest set of changes among their `alternatives` that makes the row and column totals
/// agree and the puzzle (made by `build`) solve uniquely; `None` when the totals agree as read
/// or no set tried within [`TOTALS_SOLVES`] solver calls and [`TOTALS_TIME`] does. A line's
/// outermost or innermost number read as 1 may also be dropped as a stray mark (changed to 0;
/// see [`clue_lines::could_be_stray`]), priced as the line corrector prices it: a page rule
/// beyond a column's clues read as an unsure 1 had been undone instead by changing a sure
/// number elsewhere, and that wrong puzzle solved uniquely; a mark between the clues and the
/// grid (a piece of its border line) read as an unsure 1 had no change to undo it.
/// No change dearer than the line corrector's [`clue_lines::MOST_COST`] is taken: a
/// number missed altogether has no change that restores it, and dropping a sure 1 elsewhere
/// as a stray had balanced the totals into a wrong puzzle that solved uniquely. Changes up to
/// [`RIVAL_MARGIN`] dearer are tried as rivals only (see [`unique_without_rival`]): a hard
/// 21x16 photo's 16 read as 15 at 0.96 (16 at 0.04, a change costing 3.2) had its totals
/// balanced by a sure 2 made 1 (2.0), which solved uniquely and was answered with exit 0.
/// Nor is an alternative the classifier all but rules out (below [`LEAST_PROBABILITY`]):
/// this corrector weighs every number read, sure ones too, and such alternatives had balanced
/// a misread into a wrong puzzle that solved uniquely (a 15x19 photo's sure 13 made 2 and 9
/// made 5 beside a misread 1). Also `None` when a different set costing at most
/// [`RIVAL_MARGIN`] more solves uniquely too, as in the grid corrector: the totals cannot tell
/// the two apart (a 13x28 photo's unsure 8 made 9, balanced by a 3 made 1, solved uniquely and
/// wrongly; the truth, that 8 and a 9 both made 10, cost 0.9 more). The correctors after this
/// one weigh the reading again, each with the same margin. Every set tried that solves
/// uniquely is put in `solved_uniquely`, the answer too: rivals to a later corrector's answer.
/// The first set tried that solves with several solutions is put in `with_several_solutions`
/// (the values it makes): the reading handed on when no corrector finds a puzzle with one.
fn totals_corrected(
    flat: &[(usize, &clues::ClueRead)],
    row_count: usize,
    alternatives: &[Vec<(u32, f32)>],
    build: &PuzzleOf<'_, u32>,
    limit: Option<Duration>,
    (solved_uniquely, with_several_solutions): (&mut Vec<Vec<u32>>, &mut Option<Vec<u32>>),
) -> Option<ChangedClues> {
    let difference: i64 = flat
        .iter()
        .map(|&(line, n)| total_sign(line, row_count) * i64::from(n.value))
        .sum();
    if difference == 0 {
        return None;
    }
    // A line's outermost or innermost number, of two or more.
    let at_an_end = |index: usize| {
        let line = flat[index].0;
        let first = index == 0 || flat[index - 1].0 != line;
        let last = flat.get(index + 1).is_none_or(|&(next, _)| next != line);
        first != last
    };
    let changes: Vec<clue_totals::Change> = flat
        .iter()
        .zip(alternatives)
        .enumerate()
        .flat_map(|(index, (&(_, n), others))| {
            let stray = (at_an_end(index) && clue_lines::could_be_stray(n.value, n.confidence))
                .then_some((0, clue_lines::stray_probability(n.confidence)));
            others
                .iter()
                .copied()
                .filter(|&(_, p)| p >= LEAST_PROBABILITY)
                .chain(stray)
                .map(move |alternative| clue_change(flat, row_count, index, alternative))
        })
        .filter(|change| change.cost <= clue_lines::MOST_COST + RIVAL_MARGIN)
        .collect();
    let values: Vec<u32> = flat.iter().map(|(_, n)| n.value).collect();
    let deadline = deadline_within(limit, TOTALS_TIME);
    let mut solved = 0;
    let sets = clue_totals::agreeing_sets(&changes, difference, TOTALS_CHANGES)
        .into_iter()
        .map(|(cost, set)| {
            let tried = with_changes(&values, set.iter().map(|c| (c.index, c.value)));
            let answerable = set.iter().all(|c| c.cost <= clue_lines::MOST_COST);
            (cost, tried, set, answerable)
        });
    let (puzzle, set) = unique_without_rival(sets, RIVAL_MARGIN, |tried| {
        if solved >= TOTALS_SOLVES || deadline.expired() {
            return Tried::Stop;
        }
        // The totals agree now; a number may still not fit its line.
        let Some(puzzle) = build(tried) else {
            return Tried::NotUnique;
        };
        solved += 1;
        match puzzle.solve(&deadline) {
            Ok(Outcome::Unique(_)) => {
                solved_uniquely.push(tried.to_vec());
                Tried::Unique(puzzle, false)
            }
            Ok(Outcome::Several(_)) => {
                with_several_solutions.get_or_insert_with(|| tried.to_vec());
                Tried::NotUnique
            }
            _ => Tried::NotUnique,
        }
    })?;
    let changes = set
        .iter()
        .map(|change| (change.index, change.value))
        .collect();
    Some((puzzle, changes))
}

/// The clues read (`flat`: each number with its line, rows first, of a grid `(height, width)`
/// with black `givens`) with each line's reading picked by what the crossing lines allow among
/// its possible readings (see [`clue_lines`]), when the puzzle so made solves uniquely. Reaches
/// readings with a dozen misread numbers, which the correctors trying a few changes at once
/// cannot. The crossing lines rule out only what one line, or one reading tried alone, can
/// show, so a line misread often keeps its reading as read among those left, the cheapest:
/// when the cheapest left of every line make no puzzle with one solution, up to
/// [`LINE_CHANGES`] lines are read as one of their other readings left, cheapest sets first
/// and no rival within [`RIVAL_MARGIN`] (as in the grid corrector). The narrowing and the
/// search share the totals corrector's budget of time, the search its budget of solver calls
/// too; only sets whose row and column totals agree are solved. A number dropped as a stray
/// mark is corrected to blank. Not when the readings taken cost more in all than the grid
/// corrector's dearest set ([`most_set_cost`]): on 1,380 generated nonogram photos the
/// readings this corrector got right cost at most 2.3, while two it got wrong (a 10x30 and a
/// 13x28 puzzle, 7 and 5 sure numbers changed) cost 6.5 and 7.1 and solved uniquely all the
/// same. When no such set is found, the readings left of every line are searched together
/// ([`clue_lines::cheapest_together`]) for the cheapest set that solves uniquely with no
/// rival within the margin, under the same ceiling: taking sets up to 5.5 when that search
/// ran to its end gained three hard and `photo` photos (sets costing 4.7-5.5) but answered a
/// fresh hard 24x17 photo wrongly (5.3; the same photo's other retries found two sets each,
/// within the margin).
fn lines_corrected(
    flat: &[(usize, &clues::ClueRead)],
    (height, width): (usize, usize),
    givens: &[(usize, usize)],
    alternatives: &[Vec<(u32, f32)>],
    limit: Option<Duration>,
) -> Option<ChangedClues> {
    let members: Vec<Vec<usize>> = (0..height + width)
        .map(|line| (0..flat.len()).filter(|&i| flat[i].0 == line).collect())
        .collect();
    let readings: Vec<Vec<clue_lines::LineReading>> = members
        .iter()
        .enumerate()
        .map(|(line, indices)| {
            let numbers: Vec<clue_lines::NumberRead> = indices
                .iter()
                .map(|&i| clue_lines::NumberRead {
                    value: flat[i].1.value,
                    confidence: flat[i].1.confidence,
                    alternatives: alternatives[i].clone(),
                })
                .collect();
            let length = if line < height { width } else { height };
            clue_lines::line_readings(&numbers, length, &change_cost)
        })
        .collect();
    // Narrowing and the search share the budget.
    let deadline = deadline_within(limit, TOTALS_TIME);
    let alive = clue_lines::narrow((height, width), givens, &readings, &deadline).ok()?;
    // Each line's cheapest reading left, its other readings left priced by how much dearer.
    let picked: Vec<usize> = alive.iter().map(|kept| kept[0]).collect();
    let cost_of = |chosen: &[usize]| -> f32 {
        chosen
            .iter()
            .enumerate()
            .map(|(line, &i)| readings[line][i].cost)
            .sum()
    };
    // Every other set costs more: a reading too dear already is refused before any solving.
    if cost_of(&picked) > most_set_cost() {
        return None;
    }
    let choices: Vec<Choice<usize>> = alive
        .iter()
        .enumerate()
        .filter(|(_, kept)| kept.len() > 1)
        .map(|(line, kept)| Choice {
            index: line,
            alternatives: kept[1..]
                .iter()
                .map(|&i| (i, readings[line][i].cost - readings[line][kept[0]].cost))
                .collect(),
        })
        .collect();
    let solves = std::cell::Cell::new(0);
    // The clues of each line's reading `chosen`.
    let clues_of = |chosen: &[usize]| -> Vec<Vec<u32>> {
        chosen
            .iter()
            .enumerate()
            .map(|(line, &i)| readings[line][i].clue())
            .collect()
    };
    let build = |chosen: &[usize]| -> Option<Box<dyn Puzzle>> {
        let puzzle = nonogram_of_lines(clues_of(chosen), height, givens)?;
        if solves.get() >= TOTALS_SOLVES || deadline.expired() {
            return None;
        }
        solves.set(solves.get() + 1);
        Some(Box::new(puzzle))
    };
    let searched = first_unique(
        &picked,
        &choices,
        build,
        limit,
        LINE_CHANGES,
        Some(RIVAL_MARGIN),
    );
    let (puzzle, chosen) = match searched {
        Some((puzzle, changes)) => (puzzle, with_changes(&picked, changes)),
        None => {
            // One slow solve must not carry the search past its budget.
            let budget = deadline_within(limit, TOGETHER_TIME);
            let mut accept = |chosen: &[usize]| {
                let deadline = solve_deadline(limit).earlier(budget);
                nonogram_of_lines(clues_of(chosen), height, givens)
                    .is_some_and(|puzzle| makes_sense_by(&puzzle, &deadline))
            };
            let ways = clue_lines::cheapest_together(
                (height, width),
                givens,
                &readings,
                alive,
                (most_set_cost(), RIVAL_MARGIN),
                &mut accept,
                &budget,
            );
            let [(_, chosen)] = &ways[..] else {
                return None;
            };
            let puzzle = nonogram_of_lines(clues_of(chosen), height, givens)?;
            (Box::new(puzzle) as Box<dyn Puzzle>, chosen.clone())
        }
    };
    if cost_of(&chosen) > most_set_cost() {
        return None;
    }
    let changes: Vec<(usize, u32)> = members
        .iter()
        .zip(&chosen)
        .enumerate()
        .flat_map(|(line, (indices, &i))| indices.iter().zip(&readings[line][i].numbers))
        .filter(|&(&i, &now)| now != Some(flat[i].1.value))
        .map(|(&i, &now)| (i, now.unwrap_or(0)))
        .collect();
    if changes.is_empty() {
        return None;
    }
    Some((puzzle, changes))
}

/// The nonogram of clue `lines` (the `row_count` rows first, then the columns) with black
/// `givens`; `None` when the rows' and columns' totals differ or a clue is longer than its
/// line, which no printed nonogram has.
fn nonogram_of_lines(
    mut lines: Vec<Vec<u32>>,
    row_count: usize,
    givens: &[(usize, usize)],
) -> Option<Nonogram> {
    let columns = lines.split_off(row_count);
    let rows = lines;
    let total = |lines: &[Vec<u32>]| lines.iter().flatten().sum::<u32>();
    let fits =
        |lines: &[Vec<u32>], length: usize| lines.iter().all(|clue| clue_lines::fits(clue, length));
    let (height, width) = (rows.len(), columns.len());
    if total(&rows) != total(&columns) || !fits(&rows, width) || !fits(&columns, height) {
        return None;
    }
    Some(Nonogram {
        rows,
        columns,
        givens: givens.to_vec(),
        goal: None,
    })
}

/// How much less likely than its reading a number is taken to be without a leading or
/// trailing 1 (see [`with_stray_ones_dropped`]).
const STRAY_ONE_ODDS: f32 = 0.25;

/// The alternatives of a clue number read with two or more digits, and the number without its
/// first or last digit where that digit is a 1 (at [`STRAY_ONE_ODDS`] of its confidence): a
/// remnant of a box's or the grid's line beside a digit reads as a 1, and the classifier,
/// seeing a digit-shaped stroke, is sure of it.
fn with_stray_ones_dropped(clue: &clues::ClueRead) -> Vec<(u32, f32)> {
    let mut alternatives = clue.alternatives.clone();
    let value = clue.value;
    if value < 10 {
        return alternatives;
    }
    let digits = value.ilog10() + 1;
    let leading = 10u32.pow(digits - 1);
    let mut dropped = Vec::new();
    if value / leading == 1 {
        dropped.push(value % leading);
    }
    if value % 10 == 1 {
        dropped.push(value / 10);
    }
    for shorter in dropped {
        if shorter >= 1 && alternatives.iter().all(|&(n, _)| n != shorter) {
            alternatives.push((shorter, clue.confidence * STRAY_ONE_ODDS));
        }
    }
    alternatives.sort_by(|a, b| b.1.total_cmp(&a.1));
    alternatives
}

/// What was read from a photo, before correction.
#[derive(Debug, Clone, PartialEq)]
pub enum Reading {
    /// A grid with numbers in its cells (Sudoku, Nurikabe), to be taken as `kind`, the grid
    /// read in the runner-up orientation when that read about as surely, and what reading the
    /// numbers at more ink splits needs, for when the grid does not solve uniquely as read.
    Cells {
        grid: GridRead,
        kind: String,
        runner_up: Option<GridRead>,
        rereading: Option<Box<SplitRereading>>,
    },
    /// A nonogram with its clues printed beside the grid.
    Nonogram(NonogramRead),
}

/// A grid whose cells hold numbers read at least [`SURE_NUMBER`] in fewer than this share of
/// cells may be a nonogram's (its cells are blank or black; a few specks may read as digits).
const NONOGRAM_NUMBER_SHARE: f32 = 0.03;
/// How sure a number must read to count against a grid's being a nonogram's. A blurred,
/// noisy photo's empty cells read as numbers in a third of them, each unsure (a 175 at 0.16,
/// a 6 at 0.44): a generated nonogram photo so read was taken for a Nurikabe and answered
/// "no solution".
const SURE_NUMBER: f32 = 0.5;

/// Whether so few of `grid`'s cells hold numbers read surely that it may be a nonogram's.
fn few_numbers(grid: &GridRead) -> bool {
    let sure = grid
        .cells
        .iter()
        .filter(|c| matches!(c.value, CellValue::Number(_)) && c.confidence >= SURE_NUMBER)
        .count();
    (sure as f32) < NONOGRAM_NUMBER_SHARE * grid.cells.len() as f32
}

/// Reads the puzzle on `lattice` with the bundled classifier: its cells, and for a nonogram (as
/// `kind` says, or as a grid of blank and black cells with numbers beside it suggests) the
/// clues beside it.
pub fn read_puzzle(image: &GrayImage, lattice: &Lattice, kind: Option<&str>) -> Reading {
    let mut reading = read_puzzle_turning(image, lattice, kind, true);
    if let Reading::Nonogram(nonogram) = &mut reading {
        nonogram.empty_edges_ruled = nonogram.edges_empty_and_ruled(image, lattice);
    }
    reading
}

/// [`read_puzzle`]; with `may_turn`, a boxed nonogram whose clue boxes lie below or right of
/// its grid as `lattice` runs (the page photographed sideways or upside down) is read again on
/// the lattice turned to put them above and left, where its digits stand upright.
fn read_puzzle_turning(
    image: &GrayImage,
    lattice: &Lattice,
    kind: Option<&str>,
    may_turn: bool,
) -> Reading {
    let classifier = bundled_classifier();
    let (grid, upright, runner_up, rereading) =
        read_grid_upright_and_runner_up(image, lattice, classifier);
    let nonogram_allowed = kind.is_none_or(|kind| kind == "nonogram");
    // Boxed clues are read upright only, though blurred clue digits may read a little surer
    // turned (a 6 as a 9): the empty corner block and blank grid tell which way up the page is.
    // Boxed clues read where the glyph finder saw no marks to drop are the grid's numbers, each
    // averaged over the ink splits: no solver asks for that before their correctors. So are
    // those of a grainy photo whose marks, kept, fill the grid with "numbers" read in paper
    // grain, so that they sort into no bands of clues while the grid without them does.
    let seen_boxed = upright
        .as_ref()
        .is_some_and(|seen| clues::boxed_clues(seen).is_some());
    let averaged = match &rereading {
        Some(rereading)
            if nonogram_allowed
                && !seen_boxed
                && grid.quarter_turns == 0
                && clues::boxed_clues(&grid).is_some() =>
        {
            Some(rereading.averaged(classifier).0)
        }
        _ => None,
    };
    let upright = averaged.as_ref().or(upright.as_ref()).unwrap_or(&grid);
    if nonogram_allowed {
        if let Some((clues, top, left)) = clues::boxed_clues(upright) {
            // The wider crops of the reread keep digits that fill their boxes whole, but on a
            // photo whose lattice sits a little off the boxes they take in a neighbour's line
            // or print: each box's surer reading stands, the other its first alternative, but
            // where the box's own crop was moved off it the wider crop's reading stands.
            let reread = clues::reread_boxed(image, lattice, upright, (top, left), classifier);
            let moved: Vec<bool> = rereading
                .as_ref()
                .map(|rereading| rereading.moved.iter().flatten().copied().collect())
                .unwrap_or_default();
            let merged = clues::surer_of_each(upright, &reread, &moved);
            let (clues, origin) = match clues::boxed_clues(&merged) {
                Some((clues, top, left)) => (clues, (top, left)),
                None => (clues, (top, left)),
            };
            return Reading::Nonogram(NonogramRead::new(clues, upright, origin, 0));
        }
        // The turn the digits were read at comes first when its reading sorts into boxed
        // clues: an upside-down page's blurred digits, read as they lie, may not fall into
        // bands of numbers at all, while read turned they do (a hard seed's six boxed photos).
        let turn_read = Some(grid.quarter_turns)
            .filter(|&turns| turns != 0 && clues::boxed_clues(&grid).is_some());
        let turns = may_turn
            .then(|| turn_read.or_else(|| clues::boxed_turns(upright)))
            .flatten();
        if let Some(turns) = turns {
            let turned = read_puzzle_turning(image, &lattice.turned(turns), kind, false);
            if let Reading::Nonogram(mut nonogram) = turned {
                if nonogram.origin != (0, 0) {
                    nonogram.quarter_turns = turns;
                    return Reading::Nonogram(nonogram);
                }
            }
        }
    }
    let may_be_nonogram = match kind {
        Some(kind) => kind == "nonogram",
        None => few_numbers(&grid),
    };
    if may_be_nonogram {
        let (turns, clues) = clues_on_any_side(image, lattice, classifier);
        // Most lines of a nonogram have a clue; a Sudoku or Nurikabe photo shows at most
        // stray print beside its grid.
        if kind.is_some() || clues.count() * 2 >= lattice.rows + lattice.columns {
            return Reading::Nonogram(NonogramRead::new(clues, &grid, (0, 0), turns));
        }
    }
    let kind = kind.map_or_else(|| guess_kind(&grid).to_string(), str::to_string);
    Reading::Cells {
        grid,
        kind,
        runner_up,
        rereading: rereading.map(Box::new),
    }
}

/// The summed confidence of the clue numbers read in lines they fit (their numbers and a cell
/// between each no longer than the line): how well a side of the grid reads as its clues.
/// Beside a grid turned the wrong way a page's running text can stand where clues would, its
/// words read as many numbers (a 17x15 grid's rows "read" 233, outscoring its true clues on
/// the other sides), but they overfill their lines.
fn fitting_sureness(clues: &clues::CluesRead) -> f32 {
    let (row_length, column_length) = (clues.columns.len(), clues.rows.len());
    let fits = |line: &&Vec<clues::ClueRead>, length: usize| {
        let values: Vec<u32> = line.iter().map(|n| n.value).collect();
        clue_lines::fits(&values, length)
    };
    clues
        .rows
        .iter()
        .filter(|line| fits(line, row_length))
        .chain(
            clues
                .columns
                .iter()
                .filter(|line| fits(line, column_length)),
        )
        .flatten()
        .map(|n| n.confidence)
        .sum()
}

/// Clue numbers read with less mean confidence than this, or beside too few lines, may stand
/// on other sides of the grid: the photo may be turned.
const SURE_CLUES: f32 = 0.8;

/// The clues beside `lattice` and the quarter turns that put them left of and above the grid:
/// upright when they read well there, else whichever turn reads surest. A nonogram's grid alone
/// (blank cells, a few black ones) does not tell which way up the page is; its clues do.
fn clues_on_any_side(
    image: &GrayImage,
    lattice: &Lattice,
    classifier: &DigitClassifier,
) -> (u8, clues::CluesRead) {
    let upright = clues::read_clues(image, lattice, classifier);
    let lines = lattice.rows + lattice.columns;
    if upright.count() * 2 >= lines
        && fitting_sureness(&upright) >= SURE_CLUES * upright.count() as f32
    {
        return (0, upright);
    }
    (1..4u8)
        .map(|turns| {
            (
                turns,
                clues::read_clues(image, &lattice.turned(turns), classifier),
            )
        })
        .chain(std::iter::once((0, upright)))
        .max_by(|a, b| fitting_sureness(&a.1).total_cmp(&fitting_sureness(&b.1)))
        .expect("four readings")
}

impl Reading {
    /// The kind of puzzle read.
    pub fn kind(&self) -> &str {
        match self {
            Reading::Cells { kind, .. } => kind,
            Reading::Nonogram(_) => "nonogram",
        }
    }

    /// The part of `lattice` (the one read) that holds the puzzle's cells: all of it but a
    /// boxed nonogram's clue cells.
    pub fn puzzle_lattice(&self, lattice: &Lattice) -> Lattice {
        match self {
            Reading::Cells { .. } => lattice.clone(),
            Reading::Nonogram(nonogram) => {
                let turns = nonogram.quarter_turns;
                nonogram
                    .grid_lattice(&lattice.turned(turns))
                    .turned_back(turns)
            }
        }
    }

    /// Whether this reading leaves the photo a nonogram's: it is one, or its grid holds numbers
    /// read surely in so few cells that they may be specks in a nonogram's blank and black
    /// cells.
    pub fn may_be_nonogram(&self) -> bool {
        match self {
            Reading::Cells { grid, .. } => few_numbers(grid),
            Reading::Nonogram(_) => true,
        }
    }

    /// Whether this is a nonogram whose clues are printed in boxes of the lattice itself.
    pub fn is_boxed_nonogram(&self) -> bool {
        matches!(self, Reading::Nonogram(nonogram) if nonogram.origin != (0, 0))
    }

    /// Whether this is a nonogram with a row or column at the grid's edge read with no clue
    /// number: its lattice likely holds a line beyond the printed grid.
    pub fn has_empty_edge(&self) -> bool {
        matches!(self, Reading::Nonogram(nonogram) if nonogram.empty_edge().is_some())
    }

    /// Quarter turns clockwise from the lattice to the puzzle as read.
    pub fn quarter_turns(&self) -> u8 {
        match self {
            Reading::Cells { grid, .. } => grid.quarter_turns,
            Reading::Nonogram(nonogram) => nonogram.quarter_turns,
        }
    }

    /// Whether the grid read can be a whole maze: odd in rows and columns (a maze starts at its
    /// middle cell) and a number in every row and column at its edge (its grid is the bounding
    /// box of its digits). `false` for nonograms.
    pub fn could_be_whole_maze(&self) -> bool {
        let Reading::Cells { grid, .. } = self else {
            return false;
        };
        let (rows, columns) = (grid.rows, grid.columns);
        let number = |row, column| matches!(grid.get(row, column).value, CellValue::Number(_));
        rows % 2 == 1
            && columns % 2 == 1
            && (0..columns).any(|c| number(0, c))
            && (0..columns).any(|c| number(rows - 1, c))
            && (0..rows).any(|r| number(r, 0))
            && (0..rows).any(|r| number(r, columns - 1))
    }

    /// The edges of the lattice read (as it lies in the photo) with digits of a maze standing
    /// beyond them (see [`jump::digits_beyond`]); none for other readings.
    pub fn edges_beyond(&self) -> &[Edge] {
        match self {
            Reading::Cells { grid, .. } => grid
                .digits_beyond
                .as_ref()
                .map_or(&[], |beyond| &beyond.edges[..]),
            Reading::Nonogram(_) => &[],
        }
    }

    /// The puzzle, corrected with the solver's help when it does not solve uniquely as read.
    ///
    /// When the grid as read needs corrections or cannot be made to solve uniquely and a
    /// runner-up orientation was kept, that reading is corrected too, and it becomes the grid
    /// read (its quarter turns with it) when it solves uniquely with fewer corrections: a
    /// Nurikabe or Sudoku turned is still one, but an upside-down reading of blurred digits
    /// seldom solves without changes.
    pub fn correct(
        &mut self,
        limit: Option<Duration>,
    ) -> Result<(Box<dyn Puzzle>, Vec<Correction>), Error> {
        match self {
            Reading::Cells {
                grid,
                kind,
                runner_up,
                rereading,
            } => {
                if let Some(rereading) = rereading.take() {
                    if !solves_as_read(grid, kind, limit) {
                        (*grid, *runner_up) = rereading.averaged(bundled_classifier());
                    }
                }
                // Both orientations share one correction budget: a jump maze's framed middle,
                // read as a Nurikabe with 8 clues and several solutions, had each search
                // change sets for the whole budget.
                let budget = deadline_within(limit, CORRECTION_TIME);
                let as_chosen = corrected_if_possible(grid, kind, limit);
                let needed = |corrected: &Result<CorrectedIfPossible, Error>| match corrected {
                    Ok((_, Some(corrections))) => corrections.len(),
                    _ => usize::MAX,
                };
                // Any way out satisfies a jump maze's solver: it cannot tell the way up.
                let judged = to_puzzle(grid, kind).is_ok_and(|p| p.ambiguity_matters());
                let settled = needed(&as_chosen) == 0;
                let chosen = match runner_up
                    .take()
                    .filter(|_| judged && !settled && !budget.expired())
                {
                    Some(other) => {
                        let as_other = corrected_if_possible(&other, kind, budget.remaining());
                        if needed(&as_other) < needed(&as_chosen) {
                            *grid = other;
                            as_other
                        } else {
                            as_chosen
                        }
                    }
                    None => as_chosen,
                };
                chosen.map(|(puzzle, corrections)| (puzzle, corrections.unwrap_or_default()))
            }
            Reading::Nonogram(nonogram) => nonogram.correct(limit),
        }
    }

    /// How doubtful the numbers read are: a grid's (see [`Doubt::of`]) or a nonogram's clues'.
    pub fn doubt(&self) -> Doubt {
        match self {
            Reading::Cells { grid, .. } => Doubt::of(&grid.cells),
            Reading::Nonogram(nonogram) => {
                let confidences: Vec<f32> = nonogram
                    .numbers_with_lines()
                    .iter()
                    .map(|(_, n)| n.confidence)
                    .collect();
                Doubt::of_confidences(&confidences)
            }
        }
    }

    /// One line on what was read, for `--verbose`.
    pub fn summary(&self) -> String {
        match self {
            Reading::Cells { grid, kind, .. } => format!(
                "as a {kind}, turned {} quarter turns, {} numbers",
                grid.quarter_turns,
                grid.numbers()
            ),
            Reading::Nonogram(nonogram) => format!(
                "as a nonogram, {} clue numbers beside the grid, {} given cells",
                nonogram.clues.count(),
                nonogram.givens.len()
            ),
        }
    }

    /// The reads less sure than `below`, each as a line such as `r3c4 is 8 with confidence
    /// 0.61` or `row 2 clue 1 is 8 ...`.
    pub fn doubtful(&self, below: f32) -> Vec<String> {
        match self {
            Reading::Cells { grid, .. } => grid
                .cells
                .iter()
                .filter(|c| c.confidence < below)
                .map(|c| {
                    format!(
                        "r{}c{} is {} with confidence {:.2}",
                        c.row + 1,
                        c.column + 1,
                        c.value,
                        c.confidence
                    )
                })
                .collect(),
            Reading::Nonogram(nonogram) => {
                let lines = nonogram
                    .clues
                    .rows
                    .iter()
                    .enumerate()
                    .map(|(i, l)| (format!("row {}", i + 1), l))
                    .chain(
                        nonogram
                            .clues
                            .columns
                            .iter()
                            .enumerate()
                            .map(|(i, l)| (format!("column {}", i + 1), l)),
                    );
                lines
                    .flat_map(|(name, numbers)| {
                        numbers
                            .iter()
                            .enumerate()
                            .filter(|(_, n)| n.confidence < below)
                            .map(move |(k, n)| {
                                format!(
                                    "{name} clue {} is {} with confidence {:.2}",
                                    k + 1,
                                    n.value,
                                    n.confidence
                                )
                            })
                            .collect::<Vec<_>>()
                    })
                    .collect()
            }
        }
    }
}

impl std::fmt::Display for CellValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CellValue::Blank => write!(f, "blank"),
            CellValue::Black => write!(f, "black"),
            CellValue::Number(n) => write!(f, "{n}"),
        }
    }
}

impl std::fmt::Display for Correction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: read {}, corrected to {}",
            self.place, self.read, self.corrected
        )
    }
}

/// A grid read from `lines` ('.' blank, a digit a number, '#' black), every cell at
/// confidence 0.9 with no alternatives: for the read stage's unit tests.
#[cfg(test)]
pub(crate) fn grid_read(lines: &[&str]) -> GridRead {
    let cells = lines
        .iter()
        .enumerate()
        .flat_map(|(row, line)| {
            line.chars().enumerate().map(move |(column, ch)| CellRead {
                row,
                column,
                value: match ch {
                    '#' => CellValue::Black,
                    '.' => CellValue::Blank,
                    digit => CellValue::Number(digit.to_digit(10).unwrap()),
                },
                confidence: 0.9,
                alternatives: Vec::new(),
            })
        })
        .collect();
    GridRead::new(lines.len(), lines[0].len(), cells, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readings_no_maze_prints_are_no_doubt_about_a_mazes_digit() {
        let mut read = grid_read(&[".1.", "212", ".3."]);
        let start = &mut read.cells[4];
        (start.value, start.confidence) = (CellValue::Number(1), 0.58);
        start.alternatives = vec![
            (CellValue::Number(3), 0.16),
            (CellValue::Number(0), 0.05),
            (CellValue::Number(44), 0.15),
        ];
        let start = constrain(&read, "jump").cells[4].clone();
        assert_eq!(start.value, CellValue::Number(1));
        assert!((start.confidence - 0.58 / 0.8).abs() < 1e-4, "{start:?}");
        assert_eq!(start.alternatives.len(), 1);
        assert!(
            (start.alternatives[0].1 - 0.16 / 0.8).abs() < 1e-4,
            "{start:?}"
        );
        // Checked by its solver, a Sudoku's readings are left as they are.
        let sudoku = constrain(&read, "sudoku").cells[4].clone();
        assert_eq!(sudoku.confidence, 0.58);
    }

    #[test]
    fn only_an_odd_grid_with_a_digit_on_every_edge_can_be_a_whole_maze() {
        let maze = |lines: &[&str]| Reading::Cells {
            grid: grid_read(lines),
            kind: "jump".to_string(),
            runner_up: None,
            rereading: None,
        };
        assert!(maze(&[".1.", "212", ".3."]).could_be_whole_maze());
        // A blank column carried on at the left, then at the right too.
        assert!(!maze(&["..1.", ".212", "..3."]).could_be_whole_maze());
        assert!(!maze(&["..1..", ".212.", "..3.."]).could_be_whole_maze());
        // A row of digits carried on at the top: no middle cell to start from.
        assert!(!maze(&["..2", ".1.", "212", ".3."]).could_be_whole_maze());
    }

    /// A 3x3 grid read all 3s whose first row and first column may each be a 2: both readings
    /// have one solution.
    #[test]
    fn a_balanced_pair_of_doubtful_numbers_that_also_solves_is_a_rival() {
        let number = |alternatives: Vec<(u32, f32)>| clues::ClueRead {
            value: 3,
            confidence: if alternatives.is_empty() { 0.99 } else { 0.55 },
            alternatives,
        };
        let rival_of = |first_row: Vec<(u32, f32)>, first_column: Vec<(u32, f32)>| {
            let numbers: Vec<clues::ClueRead> = (0..6)
                .map(|line| match line {
                    0 => number(first_row.clone()),
                    3 => number(first_column.clone()),
                    _ => number(Vec::new()),
                })
                .collect();
            one_number_lines_rival(&numbers, &[3; 6])
        };
        let likely_two = vec![(2, 0.45)];
        assert_eq!(
            rival_of(likely_two.clone(), likely_two.clone()),
            Some(((0, 2), (3, 2)))
        );
        // A row's 2 alone unbalances the totals; two unlikely 2s cost more than the margin.
        assert_eq!(rival_of(likely_two, Vec::new()), None);
        let unlikely_two = vec![(2, 0.05)];
        assert_eq!(rival_of(unlikely_two.clone(), unlikely_two), None);
    }

    /// The 3x3 grid of the test above with its first row read 2 (3 nearly as likely) and
    /// corrected to 3 by a corrector: that 2 put back, with the first column's 3 made 2, makes
    /// the other puzzle with one solution, at no more cost than the correction.
    #[test]
    fn a_number_a_corrector_changed_put_back_can_make_a_rival() {
        let number = |value: u32, alternatives: Vec<(u32, f32)>| clues::ClueRead {
            value,
            confidence: if alternatives.is_empty() { 0.99 } else { 0.55 },
            alternatives,
        };
        let numbers: Vec<clues::ClueRead> = (0..6)
            .map(|line| match line {
                0 => number(2, vec![(3, 0.45)]),
                3 => number(3, vec![(2, 0.45)]),
                _ => number(3, Vec::new()),
            })
            .collect();
        assert_eq!(
            one_number_lines_rival(&numbers, &[3; 6]),
            Some(((0, 2), (3, 2)))
        );
    }

    /// [`balanced_rival`] of a 3x3 nonogram with one number a line (`numbers` as read, rows
    /// first), corrected to `corrected`.
    fn one_number_lines_rival(
        numbers: &[clues::ClueRead],
        corrected: &[u32],
    ) -> Option<((usize, u32), (usize, u32))> {
        let flat: Vec<(usize, &clues::ClueRead)> = numbers.iter().enumerate().collect();
        let alternatives: Vec<Vec<(u32, f32)>> =
            numbers.iter().map(|n| n.alternatives.clone()).collect();
        let build = |values: &[u32]| -> Option<Box<dyn Puzzle>> {
            let lines = values.iter().map(|&v| vec![v]).collect();
            nonogram_of_lines(lines, 3, &[]).map(|puzzle| Box::new(puzzle) as _)
        };
        let read: Vec<u32> = numbers.iter().map(|n| n.value).collect();
        balanced_rival(&flat, 3, corrected, &read, &alternatives, &build, None)
    }

    #[test]
    fn a_side_of_running_text_read_as_numbers_scores_below_true_clues() {
        let line = |values: &[u32]| -> Vec<clues::ClueRead> {
            values
                .iter()
                .map(|&value| clues::ClueRead {
                    value,
                    confidence: 0.9,
                    alternatives: Vec::new(),
                })
                .collect()
        };
        // A 5x5 grid and its clues, 14 numbers.
        let true_clues = clues::CluesRead {
            rows: vec![
                line(&[5]),
                line(&[1, 1]),
                line(&[3]),
                line(&[1, 1]),
                line(&[5]),
            ],
            columns: vec![
                line(&[5]),
                line(&[1, 1]),
                line(&[3]),
                line(&[1, 1]),
                line(&[5]),
            ],
        };
        // Words beside it read as 30 numbers, six to a line: no 5-cell line holds them.
        let text = clues::CluesRead {
            rows: vec![line(&[1, 4, 1, 7, 1, 1]); 5],
            columns: vec![line(&[1]); 5],
        };
        assert!(fitting_sureness(&text) < fitting_sureness(&true_clues));
        assert!((fitting_sureness(&true_clues) - 14.0 * 0.9).abs() < 1e-4);
        assert!((fitting_sureness(&text) - 5.0 * 0.9).abs() < 1e-4);
    }

    #[test]
    fn doubt_sums_the_numbers_chances_of_being_wrong_and_ignores_blanks() {
        let cell = |value, confidence| CellRead {
            row: 0,
            column: 0,
            value,
            confidence,
            alternatives: Vec::new(),
        };
        let sure = [
            cell(CellValue::Number(3), 0.95),
            cell(CellValue::Number(1), 0.7),
            cell(CellValue::Blank, 0.1),
            cell(CellValue::Black, 1.0),
        ];
        let doubt = Doubt::of(&sure);
        assert_eq!((doubt.numbers, doubt.unsure), (2, 1));
        assert!((doubt.misreads - 0.35).abs() < 1e-6 && doubt.least == 0.7);
        assert!(!doubt.too_high());
        let one_likely_wrong = [cell(CellValue::Number(8), 0.55)];
        assert!(Doubt::of(&one_likely_wrong).too_high());
        let many_a_little_unsure = vec![cell(CellValue::Number(2), 0.85); 7];
        assert!(Doubt::of(&many_a_little_unsure).too_high());
        assert_eq!(Doubt::of(&[]).least, 1.0);
    }

    /// A `rows` x `columns` grid read surely from `digits` (row by row, `0` blank).
    fn sure_grid(rows: usize, columns: usize, digits: &str) -> GridRead {
        let cells = digits
            .bytes()
            .enumerate()
            .map(|(i, digit)| CellRead {
                row: i / columns,
                column: i % columns,
                value: match digit - b'0' {
                    0 => CellValue::Blank,
                    n => CellValue::Number(u32::from(n)),
                },
                confidence: 1.0,
                alternatives: Vec::new(),
            })
            .collect();
        GridRead::new(rows, columns, cells, 0)
    }

    #[test]
    fn a_maze_number_longer_than_its_grid_reads_as_its_likeliest_jump_that_fits() {
        // A blurred 2 with a box edge beside it read as 82 (0.4), then 2 (0.3) and 3 (0.2): no
        // jump of 82 or 22 lands in or just beside a 3x3 maze, so 2 it is, as unsure as read.
        // A 3 is as long as the grid's side and stays.
        let mut maze = sure_grid(3, 3, "121232121");
        misread(&mut maze, 1, CellValue::Number(82), 0.4);
        maze.cells[1].alternatives = vec![
            (CellValue::Number(2), 0.3),
            (CellValue::Number(3), 0.2),
            (CellValue::Number(22), 0.1),
        ];
        let constrained = constrain(&maze, "jump");
        let cell = &constrained.cells[1];
        assert_eq!((cell.value, cell.confidence), (CellValue::Number(2), 0.3));
        assert_eq!(cell.alternatives, vec![(CellValue::Number(3), 0.2)]);
        assert_eq!(constrained.cells[4].value, CellValue::Number(3));
    }

    #[test]
    fn a_nurikabe_clue_far_larger_than_its_grid_can_hold_is_read_blank() {
        // A 5x5 grid read with five clues, 5 cells a clue: islands up to 40 cells, and the
        // grid's 25, are plausible. The 7, longer than the grid's side, stays; blank paper
        // whose grain was read surely as 77 is blank, with its plausible reading kept as an
        // alternative for the corrector.
        let mut grid = sure_grid(5, 5, "7000000000300000000200001");
        misread(&mut grid, 12, CellValue::Number(77), 0.98);
        grid.cells[12].alternatives = vec![
            (CellValue::Number(7), 0.01),
            (CellValue::Number(71), 0.005),
            (CellValue::Blank, 0.001),
        ];
        let constrained = constrain(&grid, "nurikabe");
        assert_eq!(constrained.cells[0].value, CellValue::Number(7));
        assert_eq!(constrained.cells[12].value, CellValue::Blank);
        assert_eq!(
            constrained.cells[12].alternatives,
            vec![(CellValue::Number(7), 0.01)]
        );
    }

    #[test]
    fn a_maze_cell_read_as_too_long_a_jump_is_trusted_only_off_the_way_out() {
        // The start's 2 jumps straight out of this 3x3 maze. Read as 22 (or 0) and put back to
        // its next reading, 2, on the way out, the maze is refused; a corner so read is not on
        // it.
        let mut maze = sure_grid(3, 3, "111121111");
        misread(&mut maze, 4, CellValue::Number(22), 0.6);
        maze.cells[4].alternatives = vec![(CellValue::Number(2), 0.3)];
        let refused = correct(&maze, "jump", None).map(|_| ()).unwrap_err();
        assert!(
            refused
                .to_string()
                .contains("r2c2 read 22, which no jump puzzle prints"),
            "{refused}"
        );
        // A 0, which no maze prints either, is named as read.
        misread(&mut maze, 4, CellValue::Number(0), 0.6);
        maze.cells[4].alternatives = vec![(CellValue::Number(2), 0.3)];
        let refused = correct(&maze, "jump", None).map(|_| ()).unwrap_err();
        assert!(
            refused.to_string().contains("r2c2 read 0, which no jump"),
            "{refused}"
        );
        let mut maze = sure_grid(3, 3, "111121111");
        misread(&mut maze, 0, CellValue::Number(11), 0.9);
        maze.cells[0].alternatives = vec![(CellValue::Number(1), 0.09)];
        let (puzzle, _) = correct(&maze, "jump", None).unwrap();
        assert!(
            puzzle.to_text().starts_with("1 1 1"),
            "{}",
            puzzle.to_text()
        );
    }

    #[test]
    fn a_number_read_nowhere_else_in_a_large_grid_is_doubted() {
        // Forty sure 1s, 2s and 3s and one 7 read at 0.66, 2 its runner-up: a maze of 1-3
        // with a blurred 2 (a real reading, jump hard photo seed 50108).
        let mut maze = sure_grid(1, 41, &"123".repeat(14)[..41]);
        misread(&mut maze, 40, CellValue::Number(7), 0.66);
        maze.cells[40].alternatives = vec![(CellValue::Number(2), 0.2)];
        let doubt = Doubt::of(&maze.cells);
        assert!(doubt.too_high() && doubt.least < 0.3, "{doubt:?}");
        // The same 7 where the grid holds many other 7s is as sure as the classifier says.
        let mut sevens = sure_grid(1, 41, &"1237".repeat(11)[..41]);
        misread(&mut sevens, 40, CellValue::Number(7), 0.66);
        sevens.cells[40].alternatives = vec![(CellValue::Number(2), 0.2)];
        let doubt = Doubt::of(&sevens.cells);
        assert!(!doubt.too_high() && doubt.least > 0.6, "{doubt:?}");
        // A few numbers say nothing about which values the puzzle uses.
        let mut few = sure_grid(1, 5, "12317");
        few.cells[4].confidence = 0.66;
        few.cells[4].alternatives = vec![(CellValue::Number(2), 0.2)];
        assert_eq!(Doubt::of(&few.cells).least, 0.66);
    }

    #[test]
    fn a_maze_number_read_nowhere_else_reads_as_a_likely_value_the_maze_uses() {
        // A blurred 1 read as 7 at 0.56 in a maze of 1s, 2s and 3s (as on a hard maze photo,
        // seed 50006), the 1 second at 0.3: weighed by the values read elsewhere, 1.5 against
        // 0.56 (the unlisted 0.09 weighs as a common value's, 0.45).
        let mut maze = sure_grid(1, 41, &"123".repeat(14)[..41]);
        misread(&mut maze, 40, CellValue::Number(7), 0.56);
        maze.cells[40].alternatives = vec![(CellValue::Number(1), 0.3), (CellValue::Blank, 0.05)];
        let cell = constrain(&maze, "jump").cells[40].clone();
        assert_eq!(cell.value, CellValue::Number(1));
        assert!(
            (cell.confidence - 1.5 / 2.56).abs() < 1e-3,
            "{}",
            cell.confidence
        );
        assert_eq!(
            cell.alternatives,
            vec![(CellValue::Number(7), 0.56), (CellValue::Blank, 0.05)]
        );
        // Values the maze plainly uses are not exchanged for one another, even where a rule of
        // the reader put an alternative above the value (a narrow glyph doubted as a 1).
        let mut common = maze.clone();
        misread(&mut common, 40, CellValue::Number(1), 0.46);
        common.cells[40].alternatives = vec![(CellValue::Number(3), 0.5)];
        assert_eq!(constrain(&common, "jump").cells[40], common.cells[40]);
        // Nor is a value read nowhere else given up for a reading far less likely, or a small
        // grid's.
        let mut sure_seven = maze.clone();
        sure_seven.cells[40].confidence = 0.9;
        sure_seven.cells[40].alternatives = vec![(CellValue::Number(1), 0.1)];
        assert_eq!(
            constrain(&sure_seven, "jump").cells[40],
            sure_seven.cells[40]
        );
        let mut few = sure_grid(1, 9, "123123124");
        few.cells[8].confidence = 0.56;
        few.cells[8].alternatives = vec![(CellValue::Number(1), 0.3)];
        assert_eq!(constrain(&few, "jump").cells[8], few.cells[8]);
    }

    #[test]
    fn a_maze_read_as_surely_turned_is_refused() {
        // A maze of 1s and 2s reads at 1.00 either way up, and upside down it is another grid:
        // a solver that takes any way out cannot tell which, so neither is trusted.
        let mut maze = sure_grid(5, 5, "1212121212121212121212121");
        maze.orientation_in_doubt = true;
        match correct(&maze, "jump", None) {
            Err(Error::Unreadable(why)) => assert!(why.contains("which way up"), "{why}"),
            other => panic!("{:?}", other.map(|(_, corrections)| corrections)),
        }
        maze.orientation_in_doubt = false;
        assert!(correct(&maze, "jump", None).is_ok());
    }

    #[test]
    fn a_jump_maze_needing_a_change_for_a_way_out_is_refused() {
        // Every jump of 3 from the middle of a 3x3 block lands two cells past its edge, so
        // there is no way out; the start's runner-up 2 lands on the first cell outside.
        let mut maze = sure_grid(3, 3, "333333333");
        misread(&mut maze, 4, CellValue::Number(3), 0.7);
        maze.cells[4].alternatives = vec![(CellValue::Number(2), 0.3)];
        match correct(&maze, "jump", None) {
            Err(Error::Unreadable(why)) => assert!(why.contains("r2c2: read 3, corrected to 2")),
            other => panic!("{:?}", other.map(|(_, corrections)| corrections)),
        }
    }

    #[test]
    fn a_jump_maze_with_digits_beyond_its_lattice_is_refused() {
        // A block of sure 1s with a way out, its lattice short of digits standing beyond it.
        let mut maze = sure_grid(3, 3, "111111111");
        assert!(correct(&maze, "jump", None).is_ok());
        maze.digits_beyond = Some(jump::DigitsBeyond {
            cell: (1, 2),
            edges: vec![Edge::Right],
        });
        match correct(&maze, "jump", None) {
            Err(Error::Unreadable(why)) => {
                assert!(why.contains("a digit stands beyond r2c3 at the edge of the 3x3 grid"))
            }
            other => panic!("{:?}", other.map(|(_, corrections)| corrections)),
        }
    }

    #[test]
    fn a_doubtful_jump_maze_is_taken_only_when_no_likely_reading_changes_its_way_out() {
        // From the middle of a 5x5 block of 1s a 3 leaves it in one jump, and nothing makes a
        // way out shorter than one: a corner read 2 or 1 alike cannot change the answer.
        let block = "1111111111113111111111111";
        let mut corner = sure_grid(5, 5, block);
        misread(&mut corner, 0, CellValue::Number(2), 0.5);
        assert!(Doubt::of(&corner.cells).too_high());
        match correct(&corner, "jump", None) {
            Ok((_, corrections)) => assert!(corrections.is_empty()),
            Err(error) => panic!("{error}"),
        }
        // The same doubt at the start (read 1, the way out takes three jumps): every way out
        // leaves from it, so it is refused before any answer is weighed.
        let mut start = sure_grid(5, 5, &block.replace('3', "1"));
        misread(&mut start, 12, CellValue::Number(3), 0.5);
        match correct(&start, "jump", None) {
            Err(Error::Unreadable(why)) => {
                assert!(
                    why.starts_with("the start r3c3 read 3 with confidence 0.50"),
                    "{why}"
                )
            }
            other => panic!("{:?}", other.map(|(_, corrections)| corrections)),
        }
        // An unsure corner makes the reading doubtful; then the start read 3 at 0.9, 1 at
        // 0.1, is too unsure for the answer that depends on it (a 1 in 10 chance of another).
        let mut unsure_start = sure_grid(5, 5, &block.replace('3', "1"));
        misread(&mut unsure_start, 12, CellValue::Number(3), 0.9);
        unsure_start.cells[0].confidence = 0.3;
        match correct(&unsure_start, "jump", None) {
            Err(Error::Unreadable(why)) => assert!(why.contains("r3c3 read 1"), "{why}"),
            other => panic!("{:?}", other.map(|(_, corrections)| corrections)),
        }
    }

    #[test]
    fn a_doubtful_maze_digit_is_not_weighed_as_paper_inside_the_maze() {
        // A centre 1 in a 5x5 block of 1s leaves it in three jumps; were r2c3 paper, landing
        // there would leave the maze in one. A printed maze has no hole, so that reading is
        // not weighed against the answer.
        let mut maze = sure_grid(5, 5, &"1".repeat(25));
        maze.cells[7].confidence = 0.5;
        maze.cells[7].alternatives = vec![(CellValue::Blank, 0.45)];
        assert!(Doubt::of(&maze.cells).too_high());
        match correct(&maze, "jump", None) {
            Ok((_, corrections)) => assert!(corrections.is_empty()),
            Err(error) => panic!("{error}"),
        }
    }

    #[test]
    fn a_maze_whose_start_reads_blank_is_refused_naming_the_start() {
        let mut maze = sure_grid(3, 3, "222212222");
        maze.cells[4].value = CellValue::Blank;
        match correct(&maze, "jump", None) {
            Err(Error::Unreadable(why)) => assert!(
                why.starts_with(
                    "the maze's start, r2c2 in the middle of the 3x3 grid read, read blank"
                ),
                "{why}"
            ),
            other => panic!("{:?}", other.map(|(_, corrections)| corrections)),
        }
    }

    /// A puzzle whose every solve runs out of time, counting its solves.
    #[derive(Debug)]
    struct NeverSolved;

    static NEVER_SOLVED_TRIES: std::sync::atomic::AtomicUsize =
        std::sync::atomic::AtomicUsize::new(0);

    impl Puzzle for NeverSolved {
        fn kind(&self) -> &'static str {
            "sudoku"
        }
        fn as_any(&self) -> &dyn std::any::Any {
            self
        }
        fn width(&self) -> usize {
            1
        }
        fn height(&self) -> usize {
            1
        }
        fn to_text(&self) -> String {
            String::new()
        }
        fn to_json(&self) -> serde_json::Value {
            serde_json::Value::Null
        }
        fn solve(
            &self,
            deadline: &Deadline,
        ) -> Result<Outcome<Box<dyn crate::kinds::Solution>>, crate::limits::TimedOut> {
            NEVER_SOLVED_TRIES.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            while !deadline.expired() {
                std::thread::sleep(Duration::from_millis(1));
            }
            Err(crate::limits::TimedOut)
        }
        fn solve_traced(
            &self,
            deadline: &Deadline,
        ) -> Result<
            (
                Outcome<Box<dyn crate::kinds::Solution>>,
                crate::trace::Trace,
            ),
            crate::limits::TimedOut,
        > {
            self.solve(deadline)
                .map(|outcome| (outcome, crate::trace::Trace::default()))
        }
        fn hint(
            &self,
            _state: Option<&str>,
            deadline: &Deadline,
        ) -> Result<crate::trace::Step, Error> {
            Err(Error::TimedOut(deadline.limit()))
        }
    }

    #[test]
    fn the_search_for_changes_stops_at_its_budget_when_every_solve_runs_out_of_time() {
        // A photo misread into a puzzle every variant of which takes the solver its whole
        // time (a jump maze read as a sparse Nurikabe) was tried for 2,500 sets of changes, a
        // solve limit each: hours. The search shares one budget, here the 0.2 s limit given.
        let values = vec![0u32; 9];
        let choices: Vec<Choice<u32>> = (0..9)
            .map(|index| Choice {
                index,
                alternatives: (1..=6).map(|value| (value, 0.1)).collect(),
            })
            .collect();
        let build = |_: &[u32]| Some(Box::new(NeverSolved) as Box<dyn Puzzle>);
        let limit = Some(Duration::from_millis(200));
        assert!(first_unique(&values, &choices, build, limit, GRID_CHANGES, None).is_none());
        let tries = NEVER_SOLVED_TRIES.load(std::sync::atomic::Ordering::SeqCst);
        assert!((1..=2).contains(&tries), "{tries} solves");
    }

    /// The classic Sudoku (a unique solution), one row per line, 0 for blank.
    const CLASSIC: [&str; 9] = [
        "530070000",
        "600195000",
        "098000060",
        "800060003",
        "400803001",
        "700020006",
        "060000280",
        "000419005",
        "000080079",
    ];

    fn classic_read() -> GridRead {
        sure_grid(9, 9, &CLASSIC.concat())
    }

    fn misread(read: &mut GridRead, index: usize, as_read: CellValue, confidence: f32) {
        let cell = &mut read.cells[index];
        cell.alternatives = vec![(cell.value, 1.0 - confidence), (CellValue::Blank, 0.0)];
        cell.value = as_read;
        cell.confidence = confidence;
    }

    #[test]
    fn corrector_undoes_three_misreads_cheapest_first() {
        let truth = classic_read();
        let mut read = truth.clone();
        // Two 4s read as 6 (a newspaper's open 4 blurred) and an 8 as 3...
        for (index, digit, as_read) in [(36, 4, 6), (66, 4, 6), (27, 8, 3)] {
            assert_eq!(truth.cells[index].value, CellValue::Number(digit));
            misread(&mut read, index, CellValue::Number(as_read), 0.7);
        }
        // ...and a right digit read unsurely, whose blank alternative is all but ruled out.
        read.cells[0].confidence = 0.5;
        read.cells[0].alternatives = vec![(CellValue::Blank, 0.0)];
        let (puzzle, corrections) = correct(&read, "sudoku", None).unwrap();
        let expected = to_puzzle(&truth, "sudoku").unwrap();
        assert_eq!(puzzle.to_json(), expected.to_json());
        assert_eq!(corrections.len(), 3, "{corrections:?}");
        let places: Vec<&str> = corrections.iter().map(|c| c.place.as_str()).collect();
        assert_eq!(places, ["r4c1", "r5c1", "r8c4"]);
    }

    #[test]
    fn corrector_undoes_four_misreads_of_a_nurikabe() {
        // The 7x7 seed puzzle; four clues misread as a blurred hard photo misreads them, none
        // sure. None of the four changes back alone, nor any two or three of them, makes a
        // puzzle with one solution; all four do.
        let rows = [
            "8010300", "0000000", "0020000", "0000200", "0000000", "0002002", "2000000",
        ];
        let truth = sure_grid(7, 7, &rows.concat());
        let mut read = truth.clone();
        for (index, as_read) in [(0, 6), (2, 4), (4, 8), (16, 7)] {
            misread(&mut read, index, CellValue::Number(as_read), 0.6);
        }
        let (puzzle, corrections) = correct(&read, "nurikabe", None).unwrap();
        let expected = to_puzzle(&truth, "nurikabe").unwrap();
        assert_eq!(puzzle.to_json(), expected.to_json());
        let places: Vec<&str> = corrections.iter().map(|c| c.place.as_str()).collect();
        assert_eq!(places, ["r1c1", "r1c3", "r1c5", "r3c3"]);
    }

    #[test]
    fn sets_of_four_changes_take_each_values_likeliest_alternative_only() {
        let choice = |index| Choice::new(index, 0.6, &[(1u32, 0.3), (2, 0.1)]);
        let choices: Vec<Choice<u32>> = (0..5).map(choice).collect();
        let sets = change_sets(&choices, 4);
        let of_size = |size| sets.iter().filter(|(_, picks)| picks.len() == size).count();
        // Five values: every alternative alone, pairs of any two, triples of the two likeliest
        // each, and the five sets of four, each value to its likeliest alternative.
        assert_eq!(
            [of_size(1), of_size(2), of_size(3), of_size(4)],
            [10, 40, 80, 5]
        );
        assert!(sets
            .iter()
            .filter(|(_, picks)| picks.len() == 4)
            .all(|(_, picks)| picks.iter().all(|&(_, alternative)| alternative == 0)));
        assert!(sets.windows(2).all(|pair| pair[0].0 <= pair[1].0));
        assert_eq!(change_sets(&choices, 3).len(), 130);
    }

    #[test]
    fn a_nonogram_read_with_an_edge_line_empty_is_refused() {
        let clue = |value: u32| clues::ClueRead {
            value,
            confidence: 1.0,
            alternatives: Vec::new(),
        };
        // #.  rows 1 and 1, two cells wide; columns 2 and, at the edge, an empty one (or a
        // #.  column read as 0, which is read).
        let read = |columns: Vec<Vec<clues::ClueRead>>| {
            read_of(vec![vec![clue(1)], vec![clue(1)]], columns)
        };
        let refused = read(vec![vec![clue(2)], Vec::new()]).correct(None);
        assert!(
            matches!(&refused, Err(Error::Unreadable(m)) if m.starts_with("column 2 at the grid's edge")),
            "{:?}",
            refused.err()
        );
        let nothing = NonogramRead {
            clues: clues::CluesRead {
                rows: vec![Vec::new(); 3],
                columns: vec![Vec::new(); 3],
            },
            ..read(Vec::new())
        };
        assert!(matches!(nothing.correct(None), Err(Error::Unreadable(_))));
        let (puzzle, _) = read(vec![vec![clue(2)], vec![clue(0)]])
            .correct(None)
            .expect("a column read as 0 is read");
        assert_eq!(puzzle.to_json()["columns"], serde_json::json!([[2], []]));
    }

    #[test]
    fn an_empty_edge_line_ruled_through_is_the_puzzles_own() {
        let clue = |value: u32| clues::ClueRead {
            value,
            confidence: 1.0,
            alternatives: Vec::new(),
        };
        // #.  as above, column 2 printed empty: its cells are ruled like column 1's.
        // #.
        let ruled = NonogramRead {
            clues: clues::CluesRead {
                rows: vec![vec![clue(1)], vec![clue(1)]],
                columns: vec![vec![clue(2)], Vec::new()],
            },
            givens: Vec::new(),
            origin: (0, 0),
            quarter_turns: 0,
            empty_edges_ruled: vec![Edge::Right],
        };
        let (puzzle, corrections) = ruled.correct(None).expect("an empty column is read");
        assert_eq!(puzzle.to_json()["columns"], serde_json::json!([[2], []]));
        assert!(corrections.is_empty());
        // Ruled on every side, a grid whose clues were not found is still refused.
        let nothing = NonogramRead {
            clues: clues::CluesRead {
                rows: vec![Vec::new(); 3],
                columns: vec![Vec::new(); 3],
            },
            empty_edges_ruled: vec![Edge::Top, Edge::Right, Edge::Bottom, Edge::Left],
            ..ruled
        };
        assert!(matches!(nothing.correct(None), Err(Error::Unreadable(_))));
    }

    /// An A (rows 3, 1 1, 5, 1 1, 1 1; columns 4, 1 1, 1 1, 1 1, 4) read with four numbers
    /// misread and a stray mark before row 2's clue, each made by `unsure(value read,
    /// confidence, truth, truth's probability)`: more than the totals corrector's three changes.
    fn misread_a(unsure: &dyn Fn(u32, f32, u32, f32) -> clues::ClueRead) -> NonogramRead {
        // .###.
        // #...#
        // #####
        // #...#
        // #...#
        let sure = |value: u32| clue_read(value, 1.0, &[]);
        // A blurred 3 as 8, 5 as 6, the 4s as 1 and 9, and the mark as an unsure 1.
        read_of(
            vec![
                vec![unsure(8, 0.4, 3, 0.35)],
                vec![unsure(1, 0.3, 7, 0.1), sure(1), sure(1)],
                vec![unsure(6, 0.5, 5, 0.4)],
                vec![sure(1), sure(1)],
                vec![sure(1), sure(1)],
            ],
            vec![
                vec![unsure(1, 0.45, 4, 0.4)],
                vec![sure(1), sure(1)],
                vec![sure(1), sure(1)],
                vec![sure(1), sure(1)],
                vec![unsure(9, 0.4, 4, 0.3)],
            ],
        )
    }

    #[test]
    fn nonogram_corrector_undoes_more_misreads_than_sets_of_changes_reach() {
        let truth_rows: Vec<Vec<u32>> = vec![vec![3], vec![1, 1], vec![5], vec![1, 1], vec![1, 1]];
        let truth_columns: Vec<Vec<u32>> =
            vec![vec![4], vec![1, 1], vec![1, 1], vec![1, 1], vec![4]];
        let deadline = Deadline::after(Duration::from_secs(2));
        let solved =
            crate::kinds::nonogram::solver::solve(&truth_rows, &truth_columns, &[], &deadline);
        assert!(matches!(solved, Ok(Outcome::Unique(_))));
        let unsure = |value: u32, confidence: f32, truth: u32, p: f32| {
            clue_read(value, confidence, &[(truth, p), (value + 1, 0.05)])
        };
        let corrections = corrected_to(&misread_a(&unsure), &truth_rows, &truth_columns);
        assert_eq!(corrections.len(), 5);
        assert!(corrections.contains(&Correction {
            place: "row 2 clue 1".into(),
            read: CellValue::Number(1),
            corrected: CellValue::Blank,
        }));
    }

    #[test]
    fn nonogram_corrector_leaves_many_misreads_each_read_surely() {
        // The same misreads, each at 0.9 with the truth at 0.05: every change is within reach
        // (ln 18 = 2.9) but together they cost more than the dearest set the grid corrector
        // takes, and the puzzle they make is refused.
        let unsure = |value: u32, _: f32, truth: u32, _: f32| {
            clue_read(value, 0.9, &[(truth, 0.05), (value + 1, 0.04)])
        };
        let refused = misread_a(&unsure).correct(None);
        assert!(
            matches!(refused, Err(Error::Unreadable(_))),
            "{:?}",
            refused.ok().map(|r| r.1)
        );
    }

    #[test]
    fn nonogram_corrector_tries_the_readings_the_crossing_lines_leave() {
        // .#.#####
        // ###....#
        // .#..#...
        // ..##.#..
        // ###...#.
        // .#...###
        // ....####
        // .#####.#
        let truth_rows: Vec<Vec<u32>> = vec![
            vec![1, 5],
            vec![3, 1],
            vec![1, 1],
            vec![2, 1],
            vec![3, 1],
            vec![1, 3],
            vec![4],
            vec![5, 1],
        ];
        let truth_columns: Vec<Vec<u32>> = vec![
            vec![1, 1],
            vec![3, 2, 1],
            vec![1, 2, 1],
            vec![1, 1, 1],
            vec![1, 1, 2],
            vec![1, 1, 3],
            vec![1, 3],
            vec![2, 3],
        ];
        let sure = |line: &Vec<u32>| -> Vec<clues::ClueRead> {
            line.iter()
                .map(|&value| clue_read(value, 1.0, &[]))
                .collect()
        };
        let mut rows: Vec<Vec<clues::ClueRead>> = truth_rows.iter().map(sure).collect();
        let mut columns: Vec<Vec<clues::ClueRead>> = truth_columns.iter().map(sure).collect();
        // Row 2's 3 read as 1 and row 1's 1 as 3, column 2's 3 and 1 read the other way round:
        // the totals agree, and each line's reading as read stays possible when the lines are
        // narrowed, even tried alone, so it is the cheapest left; four numbers in three lines,
        // more than the corrector of doubtful numbers changes at once.
        let misread = |value: u32, truth: u32| clue_read(value, 0.6, &[(truth, 0.35)]);
        rows[1][0] = misread(1, 3);
        rows[0][0] = misread(3, 1);
        columns[1][0] = misread(1, 3);
        columns[1][2] = misread(3, 1);
        let read = read_of(rows, columns);
        let corrections = corrected_to(&read, &truth_rows, &truth_columns);
        assert_eq!(corrections.len(), 4, "{corrections:?}");
    }

    /// The corrections that make `read` the nonogram of `rows` and `columns`, which it must.
    fn corrected_to(
        read: &NonogramRead,
        rows: &[Vec<u32>],
        columns: &[Vec<u32>],
    ) -> Vec<Correction> {
        let (puzzle, corrections) = read.correct(None).expect("corrected");
        let puzzle = puzzle
            .as_any()
            .downcast_ref::<Nonogram>()
            .expect("a nonogram");
        assert_eq!(puzzle.rows, rows);
        assert_eq!(puzzle.columns, columns);
        corrections
    }

    /// What the totals corrector makes of a nonogram read with these rows and columns: the
    /// changes of the set it takes (each number's index among all read, and its new value), or
    /// `None`.
    fn totals_corrections(
        rows: Vec<Vec<clues::ClueRead>>,
        columns: Vec<Vec<clues::ClueRead>>,
    ) -> Option<Vec<(usize, u32)>> {
        let read = read_of(rows, columns);
        let flat = read.numbers_with_lines();
        let alternatives: Vec<Vec<(u32, f32)>> = flat
            .iter()
            .map(|(_, n)| with_stray_ones_dropped(n))
            .collect();
        let build = |values: &[u32]| read.puzzle_of(&flat, values);
        let row_count = read.clues.rows.len();
        totals_corrected(
            &flat,
            row_count,
            &alternatives,
            &build,
            None,
            (&mut Vec::new(), &mut None),
        )
        .map(|(_, changes)| changes)
    }

    /// A nonogram read with these clue `rows` and `columns`, no givens, its grid the lattice's.
    fn read_of(
        rows: Vec<Vec<clues::ClueRead>>,
        columns: Vec<Vec<clues::ClueRead>>,
    ) -> NonogramRead {
        NonogramRead {
            clues: clues::CluesRead { rows, columns },
            givens: Vec::new(),
            origin: (0, 0),
            quarter_turns: 0,
            empty_edges_ruled: Vec::new(),
        }
    }

    fn clue_read(value: u32, confidence: f32, alternatives: &[(u32, f32)]) -> clues::ClueRead {
        clues::ClueRead {
            value,
            confidence,
            alternatives: alternatives.to_vec(),
        }
    }

    #[test]
    fn clues_agreeing_only_once_corrected_are_handed_on_with_several_solutions() {
        // #.  or  .#   Rows 1 and 1, columns 1 and 1: two solutions, as printed. Column 2's 1
        // .#      #.   read as an unsure 2 (1 next likeliest) puts the totals out by one.
        let sure = |value: u32| clue_read(value, 1.0, &[]);
        let read = read_of(
            vec![vec![sure(1)], vec![sure(1)]],
            vec![vec![sure(1)], vec![clue_read(2, 0.4, &[(1, 0.35)])]],
        );
        let (puzzle, corrections) = read
            .correct(None)
            .expect("the corrected clues make a puzzle");
        assert_eq!(puzzle.to_json()["columns"], serde_json::json!([[1], [1]]));
        assert_eq!(
            corrections,
            vec![Correction {
                place: "column 2 clue 1".to_string(),
                read: CellValue::Number(2),
                corrected: CellValue::Number(1),
            }]
        );
        assert!(matches!(
            puzzle.solve(&Deadline::none()),
            Ok(Outcome::Several(_))
        ));
    }

    #[test]
    fn the_totals_corrector_refuses_to_choose_between_two_likely_puzzles() {
        // #..  Rows 1, 2, 3 and columns 1, 2, 3 solve uniquely; so do columns 1, 3, 2 (the
        // ##.  grid mirrored across its diagonal, then its last two columns swapped). Column 2's
        // ###  2 read as 3: changing it back, or column 3's 3 to 2, makes the totals agree.
        let sure = |value: u32| vec![clue_read(value, 1.0, &[])];
        let rows = || vec![sure(1), sure(2), sure(3)];
        let misread = || vec![clue_read(3, 0.6, &[(2, 0.3)])];
        let corrected = |column_3: clues::ClueRead| {
            totals_corrections(rows(), vec![sure(1), misread(), vec![column_3]])
        };
        // Column 3's 2 costs ln(0.8/0.1) = 2.08, within the rival margin of the truth's ln 2.
        assert_eq!(corrected(clue_read(3, 0.8, &[(2, 0.1)])), None);
        // At ln(0.95/0.05) = 2.94 it is no rival.
        let Some(corrections) = corrected(clue_read(3, 0.95, &[(2, 0.05)])) else {
            panic!("the cheaper set is taken when no other comes near");
        };
        // The fifth number read, column 2's 3, made 2.
        assert_eq!(corrections, [(4, 2)]);
    }

    #[test]
    fn a_reading_the_totals_corrector_finds_two_likely_puzzles_in_is_refused_naming_both() {
        // The grid of the test above, column 3's 2 within the rival margin: no corrector after
        // the totals corrector may answer, and the refusal names both corrections.
        let message = refusal_of_three_by_three(clue_read(3, 0.8, &[(2, 0.1)]));
        assert!(
            message.contains("(column 2 clue 1 read 2; or column 3 clue 1 read 2)"),
            "{message}"
        );
    }

    #[test]
    fn a_puzzle_the_totals_corrector_found_is_a_rival_to_the_line_correctors_answer() {
        // The grid of the tests above, column 3's 2 its fifth reading: the line corrector, which
        // tries a number's four likeliest, sees only the truth (column 2's 2) and takes it,
        // though column 3's 2 (ln(0.4/0.1) = 1.39 against ln 2) solved uniquely too.
        let fifth = [(4, 0.12), (5, 0.12), (6, 0.12), (7, 0.11), (2, 0.1)];
        let message = refusal_of_three_by_three(clue_read(3, 0.4, &fifth));
        assert!(
            message.contains("but so do they with column 2 clue 1 read 3, column 3 clue 1 read 2"),
            "{message}"
        );
    }

    /// Why the 3x3 grid of the totals tests (rows 1, 2, 3; columns 1, 2, 3, column 2's 2 read
    /// as 3 at 0.6, 2 at 0.3), its column 3 read as `column_3`, is refused; it must be.
    fn refusal_of_three_by_three(column_3: clues::ClueRead) -> String {
        let sure = |value: u32| vec![clue_read(value, 1.0, &[])];
        let read = read_of(
            vec![sure(1), sure(2), sure(3)],
            vec![
                sure(1),
                vec![clue_read(3, 0.6, &[(2, 0.3)])],
                vec![column_3],
            ],
        );
        match read.correct(None) {
            Err(Error::Unreadable(message)) => message,
            Err(error) => panic!("{error}"),
            Ok((_, corrections)) => panic!("answered, with {corrections:?}"),
        }
    }

    #[test]
    fn an_answer_has_as_rival_another_puzzle_solved_uniquely_nearly_as_cheap() {
        let cost_of = |values: &[u32]| match values {
            [1] => Some(1.0),
            [2] => Some(2.4),
            [3] => Some(2.6),
            _ => None,
        };
        let solved = [vec![2], vec![3], vec![4]];
        // Within the margin (1.5) of the answer's cost, or any, when the answer's is unknown.
        assert_eq!(rival_among(&[1], &solved, cost_of), Some(&vec![2]));
        assert_eq!(rival_among(&[2], &solved, cost_of), Some(&vec![3]));
        assert_eq!(rival_among(&[1], &solved[1..], cost_of), None);
        assert_eq!(rival_among(&[9], &solved[2..], cost_of), None);
        assert_eq!(rival_among(&[9], &solved, cost_of), Some(&vec![2]));
    }

    #[test]
    fn a_truth_past_the_dearest_change_taken_is_still_a_rival_to_the_totals_corrector() {
        // A full 3x3 grid, its first row's 3 read surely as 2. Column 1's 3 made 2 balances the
        // totals too, and that puzzle has one solution (the first row's first cell empty).
        let sure = |value: u32| vec![clue_read(value, 1.0, &[])];
        let corrected = |three: f32, two: f32| {
            totals_corrections(
                vec![vec![clue_read(2, 0.96, &[(3, three)])], sure(3), sure(3)],
                vec![vec![clue_read(3, 0.9, &[(2, two)])], sure(3), sure(3)],
            )
        };
        // The truth costs ln(0.96/0.04) = 3.18, more than any change taken; column 1's 2 costs
        // ln(0.9/0.12) = 2.01 and was taken, a wrong puzzle answered with exit 0. Within the
        // margin of it, the truth is a rival: no answer.
        assert_eq!(corrected(0.04, 0.12), None);
        // The truth at ln(0.96/0.2) = 1.57 is taken; column 1's 2 at ln(0.9/0.02) = 3.81 is
        // past the margin.
        assert_eq!(corrected(0.2, 0.02), Some(vec![(0, 3)]));
    }

    #[test]
    fn a_set_too_dear_to_be_the_answer_is_tried_as_a_rival_only() {
        let puzzle = || -> Box<dyn Puzzle> {
            let lines = vec![vec![1], vec![1]];
            Box::new(nonogram_of_lines(lines, 1, &[]).expect("a 1x1 nonogram"))
        };
        // Each set: its cost, its values, what it carries and whether it may be the answer.
        let first = |sets: Vec<(f32, Vec<u32>, char, bool)>| {
            // Values [9] make no puzzle with one solution.
            unique_without_rival(sets, 1.5, |values| match values {
                [9] => Tried::NotUnique,
                _ => Tried::Unique(puzzle(), false),
            })
            .map(|(_, carried)| carried)
        };
        let set = |cost: f32, value: u32, carried: char, answerable: bool| {
            (cost, vec![value], carried, answerable)
        };
        let cases = [
            (vec![set(1.0, 1, 'a', true)], Some('a')),
            (vec![set(1.0, 1, 'a', false)], None),
            // Passed over, a cheaper set that solves is a rival once an answer is found.
            (vec![set(1.0, 1, 'a', false), set(2.0, 2, 'b', true)], None),
            (
                vec![set(1.0, 9, 'a', false), set(2.0, 2, 'b', true)],
                Some('b'),
            ),
            (vec![set(1.0, 1, 'a', true), set(2.0, 2, 'b', false)], None),
            (
                vec![set(1.0, 1, 'a', true), set(3.0, 2, 'b', false)],
                Some('a'),
            ),
        ];
        for (sets, expected) in cases {
            assert_eq!(first(sets.clone()), expected, "{sets:?}");
        }
    }

    #[test]
    fn the_totals_corrector_leaves_readings_the_classifier_all_but_rules_out() {
        // The grid above, column 2's 2 read as 3 at 0.15: cheap to change, unless the
        // classifier gave the 2 less than its floor.
        let sure = |value: u32| vec![clue_read(value, 1.0, &[])];
        let corrected = |two: f32| {
            let column_2 = vec![clue_read(3, 0.15, &[(2, two)])];
            totals_corrections(
                vec![sure(1), sure(2), sure(3)],
                vec![sure(1), column_2, sure(3)],
            )
        };
        assert_eq!(corrected(0.012).map(|c| c.len()), Some(1));
        assert_eq!(corrected(0.005), None);
    }

    #[test]
    fn a_clue_with_a_leading_or_trailing_one_may_lose_it() {
        let clue = |value: u32| clues::ClueRead {
            value,
            confidence: 0.8,
            alternatives: vec![(value + 30, 0.1)],
        };
        let values = |clue: &clues::ClueRead| -> Vec<u32> {
            with_stray_ones_dropped(clue).iter().map(|a| a.0).collect()
        };
        // 13 may be a 3 beside a line: at a quarter of 0.8 likelier than its alternative at 0.1.
        assert_eq!(values(&clue(13)), vec![3, 43]);
        assert_eq!(values(&clue(61)), vec![6, 91]);
        assert_eq!(values(&clue(11)), vec![1, 41]);
        assert_eq!(values(&clue(10)), vec![40]);
        assert_eq!(values(&clue(1)), vec![31]);
        assert_eq!(values(&clue(25)), vec![55]);
    }

    #[test]
    fn two_likely_changes_beat_one_unlikely_one() {
        assert!(change_cost(0.6, 0.3) * 2.0 < change_cost(0.6, 0.0));
        assert_eq!(change_cost(0.3, 0.6), 0.0);
    }

    #[test]
    fn a_pair_of_changes_dearer_than_one_ruled_out_reading_is_not_taken() {
        let truth = classic_read();
        // Two 4s read as 6: the pair of changes back makes the one Sudoku, but only when the
        // classifier gave the 4s a chance; read surely as 6s, that pair costs more than one
        // change to a reading all but ruled out, and the grid stands as read.
        let corrected = |confidence: f32| {
            let mut read = truth.clone();
            for index in [36, 66] {
                misread(&mut read, index, CellValue::Number(6), confidence);
            }
            correct(&read, "sudoku", None).unwrap().1.len()
        };
        assert_eq!(corrected(0.7), 2);
        assert_eq!(corrected(0.995), 0);
    }

    #[test]
    fn numbers_read_below_the_noise_level_become_blank() {
        let mut read = classic_read();
        read.cells[0].confidence = 0.2;
        read.cells[0].alternatives = vec![(CellValue::Number(3), 0.1), (CellValue::Blank, 0.0)];
        read.cells[1].value = CellValue::Number(12);
        read.cells[1].confidence = 0.1; // two digits: the bar is 0.3 x 0.3
        let cleaned = without_noise(read);
        assert_eq!(cleaned.cells[0].value, CellValue::Blank);
        assert_eq!(
            cleaned.cells[0].alternatives,
            vec![(CellValue::Number(5), 0.2), (CellValue::Number(3), 0.1)]
        );
        assert!((cleaned.cells[0].confidence - 0.8).abs() < 1e-6);
        assert_eq!(cleaned.cells[1].value, CellValue::Number(12));
    }

    #[test]
    fn a_grid_of_unsure_numbers_may_be_a_nonogram_s() {
        // A noisy 10x10 grid with a number read in every third cell, each unsure (noise) but
        // two: a nonogram's blank grid as far as sure numbers go.
        let mut read = sure_grid(10, 10, &"1".repeat(100));
        for (i, cell) in read.cells.iter_mut().enumerate() {
            if i % 3 != 0 {
                cell.value = CellValue::Blank;
            } else if i > 3 {
                cell.confidence = 0.2;
            }
        }
        assert!(few_numbers(&read));
        // Three read surely are as many as a grid of numbers shows.
        read.cells[9].confidence = 0.9;
        assert!(!few_numbers(&read));
    }

    #[test]
    fn quarter_turns_map_cells_back_to_the_source() {
        // A 2x3 grid numbered row-major; turned clockwise it is 3x2 with its bottom-left first.
        let (rows, columns) = (2, 3);
        let number = |(r, c): (usize, usize)| r * columns + c;
        let turned: Vec<usize> = (0..3)
            .flat_map(|r| (0..2).map(move |c| (r, c)))
            .map(|(r, c)| number(source_cell(r, c, 1, rows, columns)))
            .collect();
        assert_eq!(turned, vec![3, 0, 4, 1, 5, 2]);
        let upside_down: Vec<usize> = (0..2)
            .flat_map(|r| (0..3).map(move |c| (r, c)))
            .map(|(r, c)| number(source_cell(r, c, 2, rows, columns)))
            .collect();
        assert_eq!(upside_down, vec![5, 4, 3, 2, 1, 0]);
        let counter: Vec<usize> = (0..3)
            .flat_map(|r| (0..2).map(move |c| (r, c)))
            .map(|(r, c)| number(source_cell(r, c, 3, rows, columns)))
            .collect();
        assert_eq!(counter, vec![2, 5, 1, 4, 0, 3]);
    }

    fn glyph_in_columns(x0: u32, x1: u32) -> glyphs::NormalisedGlyph {
        glyphs::NormalisedGlyph {
            pixels: Vec::new(),
            bounds: glyphs::Bounds {
                x0,
                y0: 20,
                x1,
                y1: 64,
            },
        }
    }

    #[test]
    fn a_narrow_digit_is_not_doubted_beside_a_sure_digit_as_narrow() {
        // A condensed 28: the 2 is 18 wide and 44 tall, under half as wide as tall, beside an
        // 8 read surely and 20 wide.
        let two = glyph_in_columns(14, 32);
        let eight = glyph_in_columns(34, 54);
        assert!(condensed_company(&two, &eight, (8, 0.99)));
        // A 1 beside a 2 twice its width is still doubted, as is a glyph beside another 1 or
        // beside an unsure reading.
        let one = glyph_in_columns(14, 24);
        assert!(!condensed_company(&one, &eight, (2, 0.99)));
        assert!(!condensed_company(&two, &eight, (1, 0.99)));
        assert!(!condensed_company(&two, &eight, (8, 0.6)));
    }

    #[test]
    fn a_clue_keeps_the_numbers_its_line_has_room_for_among_its_alternatives() {
        // The two-digit readings of a blurred "10" in a row of 10 cells, its 0 read mostly as 8.
        let read = vec![
            (78, 0.35),
            (28, 0.34),
            (18, 0.32),
            (38, 0.17),
            (70, 0.09),
            (19, 0.08),
            (30, 0.05),
            (10, 0.03),
        ];
        let kept = |largest| {
            likeliest_leading_digits(read.clone(), 0, largest)
                .iter()
                .map(|&(n, _)| n)
                .collect::<Vec<u32>>()
        };
        assert_eq!(kept(None), vec![78, 28, 18, 38, 70, 19]);
        assert_eq!(kept(Some(10)), vec![78, 28, 18, 38, 70, 10]);
        // Leading digits: with one digit to come, only a leading 1 (or 0) stays within 10.
        let leading = vec![
            (7, 0.4),
            (2, 0.3),
            (3, 0.1),
            (5, 0.1),
            (8, 0.05),
            (9, 0.03),
            (1, 0.02),
        ];
        let kept = likeliest_leading_digits(leading, 1, Some(10));
        assert_eq!(kept[0], (7, 0.4));
        assert!(kept.contains(&(1, 0.02)));
        assert_eq!(kept.len(), ALTERNATIVES);
    }
}
