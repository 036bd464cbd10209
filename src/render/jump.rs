//! Lays out a number-jump maze: the digits in its irregular shape (value 0 is outside), either
//! each in a box (`Boxed`) or as bare digits (`Plain`), the start circled. With a solution the
//! path is drawn as a line of arrows from cell to cell, each landing numbered, ending on the exit.
//! A partly solved state draws the path so far the same way, without the exit.

use image::Rgb;

use super::canvas::{self, HAlign};
use super::{blank, corners, Cells, NumberSize, Page, RenderOptions, Style, INK};
use crate::kinds::jump::{JumpMaze, JumpPath};
use crate::trace::Cell;

const PATH: Rgb<u8> = Rgb([200, 35, 35]);
const STEP_LABEL: Rgb<u8> = Rgb([20, 60, 150]);
/// Cells the path lands on, tinted so the route reads at a glance.
const VISITED: Rgb<u8> = Rgb([255, 226, 190]);

pub(super) fn draw(maze: &JumpMaze, cells: Cells<JumpPath>, options: &RenderOptions) -> Page {
    let cell = options.cell as f32;
    let font = options.font.font();
    let (width, height) = (maze.grid.first().map_or(0, Vec::len), maze.grid.len());
    // The cells landed on, from the start, and the exit when the path is complete.
    let (landings, exit) = match cells {
        Cells::Puzzle => (Vec::new(), None),
        Cells::Solution(path) => (path.cells.clone(), Some(path.exit)),
        Cells::State(state) => {
            let mut numbered: Vec<(u32, (usize, usize))> = (0..state.cells.len())
                .filter_map(|i| match state.cells[i] {
                    Cell::Jump(jump) => Some((jump, (i / width, i % width))),
                    _ => None,
                })
                .collect();
            numbered.sort_unstable();
            (numbered.into_iter().map(|(_, at)| at).collect(), None)
        }
    };
    // Room for the exit cell, which lies one jump outside the shape and may be off the array.
    let reach = exit.map_or(0, |(r, c)| {
        [-r, -c, r - height as i64 + 1, c - width as i64 + 1]
            .into_iter()
            .max()
            .unwrap_or(0)
            .max(0)
    }) as f32;
    let margin = cell * (1.5 + reach);
    let (x0, y0) = (margin, margin);
    let (x1, y1) = (x0 + width as f32 * cell, y0 + height as f32 * cell);
    let mut image = blank(x1 + margin, y1 + margin);
    let centre = |r: f32, c: f32| (x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell);
    let thin = (cell / 24.0).max(1.0);

    for &(r, c) in &landings {
        let (cx, cy) = (x0 + c as f32 * cell, y0 + r as f32 * cell);
        canvas::fill_rect(&mut image, cx, cy, cx + cell, cy + cell, VISITED);
    }
    for (r, row) in maze.grid.iter().enumerate() {
        for (c, &value) in row.iter().enumerate() {
            if value == 0 {
                continue;
            }
            if options.style == Style::Boxed {
                let (cx, cy) = (x0 + c as f32 * cell, y0 + r as f32 * cell);
                canvas::stroke_rect(
                    &mut image,
                    cx,
                    cy,
                    cx + cell + thin,
                    cy + cell + thin,
                    thin,
                    INK,
                );
            }
            let text = value.to_string();
            let size = NUMBER_SIZE.of(cell, value);
            canvas::draw_label(
                &mut image,
                &font,
                size,
                &text,
                centre(r as f32, c as f32),
                HAlign::Centre,
                INK,
            );
        }
    }
    let (sr, sc) = maze.start;
    canvas::ring(
        &mut image,
        centre(sr as f32, sc as f32),
        cell * 0.4,
        (cell / 16.0).max(1.5),
        INK,
    );

    let mut stops: Vec<(f32, f32)> = landings
        .iter()
        .map(|&(r, c)| (r as f32, c as f32))
        .collect();
    if let Some((r, c)) = exit {
        stops.push((r as f32, c as f32));
    }
    for pair in stops.windows(2) {
        arrow(
            &mut image,
            centre(pair[0].0, pair[0].1),
            centre(pair[1].0, pair[1].1),
            cell,
        );
    }
    if let Some((r, c)) = exit {
        let (er, ec) = centre(r as f32, c as f32);
        canvas::ring(&mut image, (er, ec), cell * 0.18, cell / 12.0, PATH);
    }
    for (step, &(r, c)) in landings.iter().enumerate().skip(1) {
        let (cx, cy) = centre(r as f32, c as f32);
        let label = (cx - cell * 0.45, cy - cell * 0.3);
        canvas::draw_label(
            &mut image,
            &font,
            cell * 0.3,
            &step.to_string(),
            label,
            HAlign::Left,
            STEP_LABEL,
        );
    }
    let numbers = maze
        .grid
        .iter()
        .flatten()
        .copied()
        .filter(|&value| value != 0);
    Page {
        image,
        grid_corners: corners(x0, y0, x1, y1),
        number_height: NUMBER_SIZE.smallest_height(&font, cell, numbers),
    }
}

/// The font size of a maze's numbers.
const NUMBER_SIZE: NumberSize = NumberSize {
    one_digit: 0.6,
    two_digits: 0.5,
};

/// An arrow from `from` to `to` (cell centres), stopping short of both digits.
fn arrow(image: &mut image::RgbImage, from: (f32, f32), to: (f32, f32), cell: f32) {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let length = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / length, dy / length);
    let start = (from.0 + ux * cell * 0.32, from.1 + uy * cell * 0.32);
    let tip = (to.0 - ux * cell * 0.3, to.1 - uy * cell * 0.3);
    let head = cell * 0.28;
    let base = (tip.0 - ux * head, tip.1 - uy * head);
    canvas::line(image, start, base, (cell / 14.0).max(1.5), PATH);
    let (px, py) = (-uy * head * 0.45, ux * head * 0.45);
    canvas::triangle(
        image,
        [tip, (base.0 + px, base.1 + py), (base.0 - px, base.1 - py)],
        PATH,
    );
}
