//! Turns a solver's trace into the frames of an animation of the grid being solved: the puzzle
//! as given, one frame per snapshot the solver took (a nonogram line-solving pass or search
//! decision, a Nurikabe or Sudoku round of deductions, a jump), then the clean solved page, held
//! longer.
//!
//! Frames are drawn by `render` from the puzzle and its solution, never from a file or a photo,
//! so a puzzle read from a photo animates the same way. Frames are made one at a time as they are
//! asked for, so a large puzzle never holds them all in memory. GIF encoding is in `encode`;
//! writing the file is `output`'s job.

mod encode;

pub use encode::write_gif;

use image::RgbImage;

use crate::kinds::{Puzzle, Solution};
use crate::render::{render, render_state, Answer, Drawable, Page, RenderError, RenderOptions};
use crate::trace::{Cell, Snapshot, Trace};

/// How long each frame but the last is shown.
pub const FRAME_MS: u32 = 500;
/// How long the solution is shown before the animation starts again.
pub const FINAL_MS: u32 = 3000;
/// The most frames an animation has; longer traces show every few snapshots.
pub const MAX_FRAMES: usize = 150;
/// The grid's side in pixels that the cell size aims at: small files, readable clues.
const GRID_SIDE: u32 = 400;

/// What can go wrong while making an animation.
#[derive(Debug, thiserror::Error)]
pub enum AnimateError {
    #[error(transparent)]
    Render(#[from] RenderError),
    #[error("this kind's solution cannot be drawn")]
    UnsupportedSolution,
    #[error("an animation needs at least one frame")]
    NoFrames,
    #[error("frames of {0}x{1} pixels are too large for a GIF or differ in size")]
    FrameSize(u32, u32),
    #[error("cannot encode the GIF: {0}")]
    Encode(#[from] ::gif::EncodingError),
    #[error("cannot write the animation: {0}")]
    Io(#[from] std::io::Error),
}

/// One picture of the animation and how long it stays.
#[derive(Debug, Clone)]
pub struct Frame {
    pub image: RgbImage,
    pub delay_ms: u32,
}

/// The frames of one puzzle's animation, drawn as they are iterated; every frame has the size
/// of the solved page and its grid at [`Frames::grid_corners`].
#[derive(Debug)]
pub struct Frames {
    puzzle: Drawable,
    options: RenderOptions,
    states: std::vec::IntoIter<Snapshot>,
    /// The solved page: the last frame, and the geometry every frame is aligned to.
    solved: Option<Page>,
    grid_corners: [(f32, f32); 4],
    size: (u32, u32),
    count: usize,
}

/// The animation of `puzzle` being solved to `solution` along `trace` (from a traced solve).
pub fn frames(
    puzzle: &dyn Puzzle,
    solution: &dyn Solution,
    trace: &Trace,
) -> Result<Frames, AnimateError> {
    let drawable = Drawable::from_puzzle(puzzle)?;
    let answer = Answer::from_solution(solution).ok_or(AnimateError::UnsupportedSolution)?;
    let options = RenderOptions {
        cell: cell_size(puzzle),
        ..RenderOptions::default()
    };
    let solved = render(&drawable, Some(&answer), &options)?;
    let states = keep_evenly(states(&drawable, trace), MAX_FRAMES - 1);
    Ok(Frames {
        grid_corners: solved.grid_corners,
        size: solved.image.dimensions(),
        count: states.len() + 1,
        states: states.into_iter(),
        solved: Some(solved),
        puzzle: drawable,
        options,
    })
}

impl Frames {
    /// The outer corners of the grid on every frame, as in [`Page::grid_corners`].
    pub fn grid_corners(&self) -> [(f32, f32); 4] {
        self.grid_corners
    }

    /// How many frames the animation has in all (including those already taken).
    pub fn frame_count(&self) -> usize {
        self.count
    }
}

impl Iterator for Frames {
    type Item = Result<Frame, AnimateError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(state) = self.states.next() {
            let frame = render_state(&self.puzzle, &state, &self.options).map(|page| Frame {
                image: self.align(page),
                delay_ms: FRAME_MS,
            });
            return Some(frame.map_err(AnimateError::from));
        }
        self.solved.take().map(|page| {
            Ok(Frame {
                image: page.image,
                delay_ms: FINAL_MS,
            })
        })
    }
}

impl Frames {
    /// `page` on a page of the solved page's size with its grid where the solved page has it
    /// (a solved jump maze leaves room around its grid for the exit).
    fn align(&self, page: Page) -> RgbImage {
        if page.image.dimensions() == self.size && page.grid_corners == self.grid_corners {
            return page.image;
        }
        let mut aligned = RgbImage::from_pixel(self.size.0, self.size.1, image::Rgb([255; 3]));
        let dx = (self.grid_corners[0].0 - page.grid_corners[0].0).round() as i64;
        let dy = (self.grid_corners[0].1 - page.grid_corners[0].1).round() as i64;
        image::imageops::replace(&mut aligned, &page.image, dx, dy);
        aligned
    }
}

/// A cell size that keeps the grid near [`GRID_SIDE`] pixels: 16 for the 25x25 GCHQ grid, 32 at
/// most for small grids, and never below 6 so that huge grids still give a bounded file.
fn cell_size(puzzle: &dyn Puzzle) -> u32 {
    let side = puzzle.width().max(puzzle.height()).max(1) as u32;
    (GRID_SIDE / side).clamp(6, 32)
}

/// The grids to draw before the solution: the puzzle as given, then each snapshot of the trace
/// that shows something new. A snapshot without open cells is the solution itself, which the
/// last frame shows as the clean solved page.
fn states(puzzle: &Drawable, trace: &Trace) -> Vec<Snapshot> {
    let mut states = vec![given(puzzle)];
    for snapshot in trace.steps.iter().filter_map(|s| s.snapshot.as_ref()) {
        if snapshot.cells.contains(&Cell::Unknown) && states.last() != Some(snapshot) {
            states.push(snapshot.clone());
        }
    }
    states
}

/// The puzzle as printed, as a grid state: nonogram givens filled, Nurikabe clue cells land,
/// Sudoku givens as digits; a jump maze has no path yet.
fn given(puzzle: &Drawable) -> Snapshot {
    let p = puzzle.as_puzzle();
    let (width, height) = (p.width(), p.height());
    let mut cells = vec![Cell::Unknown; width * height];
    match puzzle {
        Drawable::Nonogram(n) => {
            for &(r, c) in &n.givens {
                cells[r * width + c] = Cell::Filled;
            }
        }
        Drawable::Nurikabe(n) => {
            for &(r, c, _) in &n.clues {
                cells[r * width + c] = Cell::Filled;
            }
        }
        Drawable::Sudoku(s) => {
            for (cell, &digit) in cells.iter_mut().zip(&s.cells) {
                if digit != 0 {
                    *cell = Cell::Digit(digit);
                }
            }
        }
        Drawable::Jump(_) => {}
    }
    Snapshot {
        width,
        height,
        cells,
    }
}

/// At most `keep` of `states`, evenly spread and always with the first and the last: when a
/// trace has more snapshots than frames, each frame shows the grid a few snapshots on.
fn keep_evenly<T>(states: Vec<T>, keep: usize) -> Vec<T> {
    let n = states.len();
    if n <= keep || keep < 2 {
        return states;
    }
    let mut wanted = (0..keep).map(|i| i * (n - 1) / (keep - 1)).peekable();
    states
        .into_iter()
        .enumerate()
        .filter_map(|(i, state)| {
            (wanted.peek() == Some(&i)).then(|| {
                wanted.next();
                state
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeping_evenly_keeps_the_ends() {
        let kept = keep_evenly((0..10).collect(), 4);
        assert_eq!(kept, vec![0, 3, 6, 9]);
        assert_eq!(keep_evenly(vec![1, 2], 4), vec![1, 2]);
    }
}
