//! Draws a solution into the photo it was read from, through the lattice `detect` found, so the
//! answer sits on the printed cells in the photo's own perspective (and curl: every cell is
//! placed by its own four corners). Sudoku digits go into the empty cells, Nurikabe water and a
//! nonogram's filled cells are shaded, and a legend names the kind, the verdict and any QR text. It does not write files (`output` does).

use image::{Rgb, RgbImage};

use crate::detect::Lattice;
use crate::kinds::nonogram::NonogramSolution;
use crate::kinds::nurikabe::NurikabeSolution;
use crate::kinds::sudoku::{Sudoku, SudokuSolution};
use crate::kinds::Puzzle;
use crate::render::canvas::{self, HAlign};
use crate::render::FontName;
use crate::solve::Solved;

/// What the output stage needs of a photo: the upright image, its lattice and how the puzzle
/// is turned on it.
#[derive(Debug, Clone)]
pub struct PhotoGeometry {
    pub image: RgbImage,
    pub lattice: Lattice,
    /// Quarter turns clockwise from the lattice to the puzzle as read.
    pub quarter_turns: u8,
}

/// Ink for the solution's digits: a red that stands out against print.
pub const ANSWER_INK: Rgb<u8> = Rgb([210, 30, 40]);
/// Shade for Nurikabe water, laid translucently so the print shows through.
pub const WATER_SHADE: Rgb<u8> = Rgb([30, 110, 230]);
const WATER_OPACITY: f32 = 0.45;
/// Shade for a nonogram's filled cells: dark enough to read as filled, translucent so the
/// printed givens and grid lines show through.
pub const FILL_SHADE: Rgb<u8> = Rgb([20, 40, 150]);
const FILL_OPACITY: f32 = 0.6;

impl PhotoGeometry {
    /// The corners (top-left, top-right, bottom-right, bottom-left in the lattice) of the puzzle's
    /// cell (`row`, `column`) in the photo.
    pub fn cell_corners(&self, row: usize, column: usize) -> [(f32, f32); 4] {
        let (r, c) = crate::read::source_cell(
            row,
            column,
            self.quarter_turns,
            self.lattice.rows,
            self.lattice.columns,
        );
        let p = &self.lattice.points;
        [p[r][c], p[r][c + 1], p[r + 1][c + 1], p[r + 1][c]]
    }

    /// The centre of the puzzle's cell (`row`, `column`) in the photo.
    pub fn cell_centre(&self, row: usize, column: usize) -> (f32, f32) {
        let corners = self.cell_corners(row, column);
        (
            corners.iter().map(|p| p.0).sum::<f32>() / 4.0,
            corners.iter().map(|p| p.1).sum::<f32>() / 4.0,
        )
    }
}

/// The photo with `solved` drawn into `puzzle`'s cells.
pub fn annotate(photo: &PhotoGeometry, puzzle: &dyn Puzzle, solved: &Solved) -> RgbImage {
    let mut image = photo.image.clone();
    let font = FontName::SansBold.font();
    let solution = solved.solution.as_any();
    if let (Some(given), Some(SudokuSolution(cells))) = (
        puzzle.as_any().downcast_ref::<Sudoku>(),
        solution.downcast_ref::<SudokuSolution>(),
    ) {
        for index in (0..81).filter(|&i| given.cells[i] == 0) {
            let (row, column) = (index / 9, index % 9);
            let corners = photo.cell_corners(row, column);
            let height =
                ((corners[3].1 - corners[0].1).abs() + (corners[2].1 - corners[1].1).abs()) / 2.0;
            let digit = cells[index].to_string();
            canvas::draw_label(
                &mut image,
                &font,
                height * 0.7,
                &digit,
                photo.cell_centre(row, column),
                HAlign::Centre,
                ANSWER_INK,
            );
        }
    } else if let Some(NonogramSolution(filled)) = solution.downcast_ref::<NonogramSolution>() {
        for row in 0..filled.height() {
            for column in (0..filled.width()).filter(|&c| filled.get(row, c)) {
                canvas::fill_quad(
                    &mut image,
                    photo.cell_corners(row, column),
                    FILL_SHADE,
                    FILL_OPACITY,
                );
            }
        }
    } else if let Some(NurikabeSolution(land)) = solution.downcast_ref::<NurikabeSolution>() {
        for row in 0..land.height() {
            for column in (0..land.width()).filter(|&c| !land.get(row, c)) {
                canvas::fill_quad(
                    &mut image,
                    photo.cell_corners(row, column),
                    WATER_SHADE,
                    WATER_OPACITY,
                );
            }
        }
    }
    draw_legend(&mut image, puzzle, solved);
    image
}

/// A white box in the top-left corner: kind, verdict and any QR text.
fn draw_legend(image: &mut RgbImage, puzzle: &dyn Puzzle, solved: &Solved) {
    let font = FontName::Sans.font();
    let size = (image.width().min(image.height()) as f32 / 30.0).clamp(12.0, 60.0);
    let verdict = if solved.unique {
        "unique solution"
    } else {
        "several solutions, first shown"
    };
    let mut lines = vec![format!(
        "gridsight: {} {}x{}, {verdict}",
        puzzle.kind(),
        puzzle.width(),
        puzzle.height()
    )];
    lines.extend(solved.qr.iter().map(|qr| format!("QR: {qr}")));
    let width = lines
        .iter()
        .map(|l| canvas::text_advance(&font, size, l))
        .fold(0.0, f32::max);
    let height = size * 1.3 * lines.len() as f32;
    canvas::fill_rect(
        image,
        0.0,
        0.0,
        width + size,
        height + size * 0.6,
        Rgb([255, 255, 255]),
    );
    for (i, line) in lines.iter().enumerate() {
        canvas::draw_text(
            image,
            &font,
            size,
            line,
            size * 0.5,
            size * (1.2 + 1.3 * i as f32),
            Rgb([20, 20, 20]),
        );
    }
}
