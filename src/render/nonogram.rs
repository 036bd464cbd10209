//! Lays out a nonogram page: row clues left of the grid, column clues stacked above it, given
//! cells black; in `Boxed` ("magazine") style every clue sits in a box of its own.
//!
//! With a solution the filled cells are drawn black, so a solved GCHQ grid is a clean QR code.
//! A partly solved state draws filled cells black, empty ones white with a small dot, open ones
//! grey.

use image::Rgb;

use super::canvas::{self, HAlign};
use super::{
    blank, corners, grid_lines, Cells, Page, RenderOptions, Style, INK, OPEN, SOLVED_GRID,
};
use crate::grid::BinaryGrid;
use crate::kinds::nonogram::Nonogram;
use crate::trace::Cell;

/// Background of the clue boxes in magazine style.
const CLUE_SHADE: Rgb<u8> = Rgb([232, 232, 232]);
/// The dot marking a cell a partly solved state knows to be empty.
const EMPTY_DOT: Rgb<u8> = Rgb([120, 120, 120]);

pub(super) fn draw(puzzle: &Nonogram, cells: Cells<BinaryGrid>, options: &RenderOptions) -> Page {
    let cell = options.cell as f32;
    let font = options.font.font();
    let size = cell * 0.58;
    let margin = cell * 1.5;
    let boxed = options.style == Style::Boxed;
    let gap = cell * 0.42;
    let row_text_width = |clues: &[u32]| -> f32 {
        let widths: f32 = clues
            .iter()
            .map(|n| canvas::text_width(&font, size, &n.to_string()))
            .sum();
        widths + gap * clues.len().saturating_sub(1) as f32
    };
    let most_row_clues = puzzle.rows.iter().map(Vec::len).max().unwrap_or(0).max(1);
    let most_column_clues = puzzle
        .columns
        .iter()
        .map(Vec::len)
        .max()
        .unwrap_or(0)
        .max(1);
    let clue_width = if boxed {
        most_row_clues as f32 * cell
    } else {
        puzzle
            .rows
            .iter()
            .map(|c| row_text_width(c))
            .fold(cell, f32::max)
            + cell * 0.5
    };
    let line_step = cell * 0.78;
    let clue_height = if boxed {
        most_column_clues as f32 * cell
    } else {
        most_column_clues as f32 * line_step + cell * 0.3
    };
    let (columns, rows) = (puzzle.columns.len(), puzzle.rows.len());
    let x0 = (margin + clue_width).round();
    let y0 = (margin + clue_height).round();
    let (x1, y1) = (x0 + columns as f32 * cell, y0 + rows as f32 * cell);
    let mut image = blank(x1 + margin, y1 + margin);

    let fill_cells = |image: &mut image::RgbImage| {
        for r in 0..rows {
            for c in 0..columns {
                let (cx, cy) = (x0 + c as f32 * cell, y0 + r as f32 * cell);
                let given = puzzle.givens.contains(&(r, c));
                let state = match &cells {
                    Cells::Puzzle => Cell::Empty,
                    Cells::Solution(s) if s.get(r, c) => Cell::Filled,
                    Cells::Solution(_) => Cell::Empty,
                    Cells::State(s) => s.cells[r * columns + c],
                };
                match state {
                    _ if given => canvas::fill_rect(image, cx, cy, cx + cell, cy + cell, INK),
                    Cell::Filled => canvas::fill_rect(image, cx, cy, cx + cell, cy + cell, INK),
                    // Only a state marks empty cells: on a printed or solved page they are blank.
                    Cell::Empty if matches!(cells, Cells::State(_)) => {
                        let centre = (cx + cell / 2.0, cy + cell / 2.0);
                        canvas::ring(image, centre, cell * 0.06, cell * 0.12, EMPTY_DOT);
                    }
                    Cell::Empty => {}
                    _ => canvas::fill_rect(image, cx, cy, cx + cell, cy + cell, OPEN),
                }
            }
        }
    };
    let block = options.thick_every_five.then_some(5);
    if let Cells::Solution(_) = cells {
        // Filled cells go over faint lines so that touching cells merge into solid black, as a
        // QR code's modules must.
        grid_lines(
            &mut image,
            (x0, y0),
            columns,
            rows,
            cell,
            block,
            SOLVED_GRID,
        );
        fill_cells(&mut image);
    } else {
        fill_cells(&mut image);
        grid_lines(&mut image, (x0, y0), columns, rows, cell, block, INK);
    }

    for (r, clues) in puzzle.rows.iter().enumerate() {
        let mid_y = y0 + (r as f32 + 0.5) * cell;
        if boxed {
            let top = y0 + r as f32 * cell;
            let left = x0 - most_row_clues as f32 * cell;
            canvas::fill_rect(&mut image, left, top, x0, top + cell, CLUE_SHADE);
            for k in 0..most_row_clues {
                let bx = left + k as f32 * cell;
                canvas::stroke_rect(
                    &mut image,
                    bx,
                    top,
                    bx + cell + 1.0,
                    top + cell + 1.0,
                    (cell / 28.0).max(1.0),
                    INK,
                );
            }
            for (k, clue) in clues.iter().rev().enumerate() {
                let centre = (x0 - (k as f32 + 0.5) * cell, mid_y);
                canvas::draw_label(
                    &mut image,
                    &font,
                    size,
                    &clue.to_string(),
                    centre,
                    HAlign::Centre,
                    INK,
                );
            }
        } else {
            let mut right = x0 - cell * 0.3;
            for clue in clues.iter().rev() {
                let text = clue.to_string();
                canvas::draw_label(
                    &mut image,
                    &font,
                    size,
                    &text,
                    (right, mid_y),
                    HAlign::Right,
                    INK,
                );
                right -= canvas::text_width(&font, size, &text) + gap;
            }
        }
    }
    for (c, clues) in puzzle.columns.iter().enumerate() {
        let mid_x = x0 + (c as f32 + 0.5) * cell;
        if boxed {
            let left = x0 + c as f32 * cell;
            let top = y0 - most_column_clues as f32 * cell;
            canvas::fill_rect(&mut image, left, top, left + cell, y0, CLUE_SHADE);
            for k in 0..most_column_clues {
                let by = top + k as f32 * cell;
                canvas::stroke_rect(
                    &mut image,
                    left,
                    by,
                    left + cell + 1.0,
                    by + cell + 1.0,
                    (cell / 28.0).max(1.0),
                    INK,
                );
            }
            for (k, clue) in clues.iter().rev().enumerate() {
                let centre = (mid_x, y0 - (k as f32 + 0.5) * cell);
                canvas::draw_label(
                    &mut image,
                    &font,
                    size,
                    &clue.to_string(),
                    centre,
                    HAlign::Centre,
                    INK,
                );
            }
        } else {
            for (k, clue) in clues.iter().rev().enumerate() {
                let centre = (mid_x, y0 - cell * 0.3 - (k as f32 + 0.5) * line_step);
                canvas::draw_label(
                    &mut image,
                    &font,
                    size,
                    &clue.to_string(),
                    centre,
                    HAlign::Centre,
                    INK,
                );
            }
        }
    }
    Page {
        image,
        grid_corners: corners(x0, y0, x1, y1),
    }
}
