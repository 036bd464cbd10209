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
            let strip = ClueStrip {
                across: true,
                grid_edge: x0,
                start: y0 + r as f32 * cell,
                middle: mid_y,
                boxes: most_row_clues,
            };
            strip.draw(&mut image, &font, size, cell, clues);
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
            let strip = ClueStrip {
                across: false,
                grid_edge: y0,
                start: x0 + c as f32 * cell,
                middle: mid_x,
                boxes: most_column_clues,
            };
            strip.draw(&mut image, &font, size, cell, clues);
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
        number_height: canvas::text_height(&font, size, "0"),
    }
}

/// One line's clues in magazine style: a shaded strip of `boxes` boxes against the grid's edge,
/// the line's last clue in the box touching the grid.
struct ClueStrip {
    /// A row's strip runs across, left of the grid; a column's runs down, above it.
    across: bool,
    /// Where the strip meets the grid: an x for a row, a y for a column.
    grid_edge: f32,
    /// The line's first pixel and its middle, across the strip.
    start: f32,
    middle: f32,
    boxes: usize,
}

impl ClueStrip {
    fn draw(
        &self,
        image: &mut image::RgbImage,
        font: &ab_glyph::FontRef<'static>,
        size: f32,
        cell: f32,
        clues: &[u32],
    ) {
        // Positions are worked out along the strip and across it, then swapped for a column,
        // so that rows and columns land on the same pixels whichever way they run.
        let point = |along: f32, across: f32| {
            if self.across {
                (along, across)
            } else {
                (across, along)
            }
        };
        let far = self.grid_edge - self.boxes as f32 * cell;
        let (x0, y0) = point(far, self.start);
        let (x1, y1) = point(self.grid_edge, self.start + cell);
        canvas::fill_rect(image, x0, y0, x1, y1, CLUE_SHADE);
        for k in 0..self.boxes {
            let (bx, by) = point(far + k as f32 * cell, self.start);
            canvas::stroke_rect(
                image,
                bx,
                by,
                bx + cell + 1.0,
                by + cell + 1.0,
                (cell / 28.0).max(1.0),
                INK,
            );
        }
        for (k, clue) in clues.iter().rev().enumerate() {
            let centre = point(self.grid_edge - (k as f32 + 0.5) * cell, self.middle);
            canvas::draw_label(
                image,
                font,
                size,
                &clue.to_string(),
                centre,
                HAlign::Centre,
                INK,
            );
        }
    }
}
