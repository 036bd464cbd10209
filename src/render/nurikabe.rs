//! Lays out a Nurikabe page: island sizes centred in their cells on a thin-lined grid; with a
//! solution the water is shaded and the islands stay white. A partly solved state shades its
//! water the same way and its open cells grey.

use image::Rgb;

use super::canvas::{self, HAlign};
use super::{blank, corners, grid_lines, Cells, NumberSize, Page, RenderOptions, INK, OPEN};
use crate::grid::BinaryGrid;
use crate::kinds::nurikabe::Nurikabe;
use crate::trace::Cell;

/// Water in a solved map: dark, so the white islands and their numbers stand out.
const WATER: Rgb<u8> = Rgb([62, 78, 104]);

pub(super) fn draw(puzzle: &Nurikabe, cells: Cells<BinaryGrid>, options: &RenderOptions) -> Page {
    let cell = options.cell as f32;
    let font = options.font.font();
    let margin = cell * 1.5;
    let (x0, y0) = (margin, margin);
    let (x1, y1) = (
        x0 + puzzle.width as f32 * cell,
        y0 + puzzle.height as f32 * cell,
    );
    let mut image = blank(x1 + margin, y1 + margin);
    for r in 0..puzzle.height {
        for c in 0..puzzle.width {
            let shade = match &cells {
                Cells::Puzzle => None,
                Cells::Solution(land) => (!land.get(r, c)).then_some(WATER),
                Cells::State(state) => match state.cells[r * puzzle.width + c] {
                    Cell::Empty => Some(WATER),
                    Cell::Filled => None,
                    _ => Some(OPEN),
                },
            };
            if let Some(colour) = shade {
                let (cx, cy) = (x0 + c as f32 * cell, y0 + r as f32 * cell);
                canvas::fill_rect(&mut image, cx, cy, cx + cell, cy + cell, colour);
            }
        }
    }
    grid_lines(
        &mut image,
        (x0, y0),
        puzzle.width,
        puzzle.height,
        cell,
        None,
        INK,
    );
    for &(r, c, size) in &puzzle.clues {
        let centre = (x0 + (c as f32 + 0.5) * cell, y0 + (r as f32 + 0.5) * cell);
        let text = size.to_string();
        let font_size = CLUE_SIZE.of(cell, size);
        canvas::draw_label(
            &mut image,
            &font,
            font_size,
            &text,
            centre,
            HAlign::Centre,
            INK,
        );
    }
    let clues = puzzle.clues.iter().map(|&(_, _, size)| size);
    Page {
        image,
        grid_corners: corners(x0, y0, x1, y1),
        number_height: CLUE_SIZE.smallest_height(&font, cell, clues),
    }
}

/// The font size of a Nurikabe's clues.
const CLUE_SIZE: NumberSize = NumberSize {
    one_digit: 0.62,
    two_digits: 0.52,
};
