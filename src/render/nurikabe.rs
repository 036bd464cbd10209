//! Lays out a Nurikabe page: island sizes centred in their cells on a thin-lined grid; with a
//! solution the water is shaded and the islands stay white. A partly solved state shades its
//! water the same way and its open cells grey.

use image::Rgb;

use super::canvas::{self, HAlign};
use super::{blank, corners, grid_lines, Cells, Page, RenderOptions, INK, OPEN};
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
        let font_size = clue_size(cell, size);
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
    let smallest = puzzle
        .clues
        .iter()
        .map(|&(_, _, size)| clue_size(cell, size))
        .fold(f32::INFINITY, f32::min);
    Page {
        image,
        grid_corners: corners(x0, y0, x1, y1),
        number_height: canvas::text_height(&font, smallest.min(cell), "0"),
    }
}

/// The font size of a clue: two digits are printed smaller to fit the cell.
fn clue_size(cell: f32, clue: u32) -> f32 {
    if clue >= 10 {
        cell * 0.52
    } else {
        cell * 0.62
    }
}
