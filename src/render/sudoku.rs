//! Lays out a Sudoku page: thin cell lines, thick 3x3 box lines, the givens centred; with a
//! solution the missing digits are added in a second ink colour. A partly solved state adds the
//! digits it knows in that colour and shades its open cells light grey.

use image::Rgb;

use super::canvas::{self, HAlign};
use super::{blank, corners, grid_lines, Cells, Page, RenderOptions, INK, SOLVED_INK};
use crate::kinds::sudoku::Sudoku;
use crate::trace::Cell;

/// Open cells of a partly solved state: lighter than other kinds' open cells, so that the
/// digits stay readable on the cells around them.
const OPEN_CELL: Rgb<u8> = Rgb([222, 222, 222]);
/// Digit size as a fraction of the cell.
const DIGIT_SIZE: f32 = 0.6;

pub(super) fn draw(puzzle: &Sudoku, cells: Cells<[u8; 81]>, options: &RenderOptions) -> Page {
    // Sudoku cells are printed larger than nonogram cells.
    let cell = options.cell as f32 * 1.6;
    let font = options.font.font();
    let margin = cell;
    let (x0, y0) = (margin, margin);
    let (x1, y1) = (x0 + 9.0 * cell, y0 + 9.0 * cell);
    let mut image = blank(x1 + margin, y1 + margin);
    if let Cells::State(state) = &cells {
        for (index, &known) in state.cells.iter().enumerate() {
            if known == Cell::Unknown && puzzle.cells[index] == 0 {
                let (cx, cy) = (
                    x0 + (index % 9) as f32 * cell,
                    y0 + (index / 9) as f32 * cell,
                );
                canvas::fill_rect(&mut image, cx, cy, cx + cell, cy + cell, OPEN_CELL);
            }
        }
    }
    grid_lines(&mut image, (x0, y0), 9, 9, cell, Some(3), INK);
    for index in 0..81 {
        let given = puzzle.cells[index];
        let (digit, colour) = match (given, &cells) {
            (0, Cells::Solution(solution)) => (solution[index], SOLVED_INK),
            (0, Cells::State(state)) => match state.cells[index] {
                Cell::Digit(d) => (d, SOLVED_INK),
                _ => (0, INK),
            },
            _ => (given, INK),
        };
        if digit == 0 {
            continue;
        }
        let centre = (
            x0 + ((index % 9) as f32 + 0.5) * cell,
            y0 + ((index / 9) as f32 + 0.5) * cell,
        );
        canvas::draw_label(
            &mut image,
            &font,
            cell * DIGIT_SIZE,
            &digit.to_string(),
            centre,
            HAlign::Centre,
            colour,
        );
    }
    Page {
        image,
        grid_corners: corners(x0, y0, x1, y1),
        number_height: canvas::text_height(&font, cell * DIGIT_SIZE, "0"),
    }
}
